"""Data selection for the Bayesian comparisons of :class:`BenchmarkResult`.

What the Bayesian tests need beyond :mod:`._select`: the correlation ``rho`` of
the correlated t-test from the stored split sizes, and the default region of
practical equivalence of the metrics that have an agreed one. Nothing here
computes a statistic.
"""

import numpy as np

from . import _select

# Metrics in [0, 1] where one percentage point is the customary ROPE
# (Benavoli et al. 2017, Section 3.3, use 0.01 for accuracy). Other metrics have
# no unit-free default: their ROPE must be given.
DEFAULT_ROPES = {"error_rate": 0.01, "accuracy": 0.01, "balanced_accuracy": 0.01}

_NO_RHO = {
    "bootstrap_oob": (
        "bootstrap out-of-bootstrap splits: training sets drawn with replacement "
        "overlap in a way the Nadeau–Bengio correlation n_test/(n_test + n_train) "
        "was not derived for"
    ),
    "bootstrap_cv": (
        "k-fold cross-validation inside bootstrap samples: folds of one replicate "
        "and replicates of one data set are correlated in two different ways"
    ),
    "unknown": (
        "a scheme whose correlation between splits is unknown (a simulation's "
        "fresh learning samples, LeaveOneOut, a list of splits, ...)"
    ),
}


def rope_for(result, metric, rope):
    """``rope`` checked, or the metric's default; ``ValueError`` if it has none."""
    if rope is None:
        if metric not in DEFAULT_ROPES:
            raise ValueError(
                f"`rope` is required for metric {metric!r}: the region of practical "
                "equivalence is in the metric's units (only "
                f"{', '.join(sorted(DEFAULT_ROPES))} have a default, 0.01)."
            )
        return DEFAULT_ROPES[metric]
    rope = float(rope)
    if not (np.isfinite(rope) and rope >= 0):
        raise ValueError(f"`rope` must be a non-negative number; got {rope!r}.")
    return rope


def correlated_splits(result, a, b, *, metric, dataset, rho=None):
    """Split scores of ``a`` and ``b`` on ``dataset`` and their correlation.

    The unit is the split (:func:`._select.split_pair`): every fold score of
    (repeated) k-fold, every split of a ShuffleSplit-like scheme. ``rho`` is
    the mean over the splits of ``n_test / (n_test + n_train)`` from the stored
    split sizes (``1/k`` for k-fold, the test fraction for random splits),
    unless given. Bootstrap and unknown schemes need an explicit ``rho``.

    Returns
    -------
    scores : SplitScores
    rho : float
    scope : str
        Words for the description: data set, number of splits, scheme, where
        rho came from, dropped splits.
    """
    scores = _select.split_pair(result, a, b, metric=metric, dataset=dataset)
    n = scores.x.size
    if n < 2:
        raise ValueError(
            f"The Bayesian correlated t-test needs at least 2 splits of data set "
            f"{dataset!r}; got {n}"
            + _select.dropped_words(scores.n_dropped, "split", a, b)
            + "."
        )
    if rho is None:
        if scores.scheme in _NO_RHO:
            raise ValueError(
                f"Data set {dataset!r} was resampled by {_NO_RHO[scores.scheme]}; "
                "the correlation `rho` of the Bayesian correlated t-test cannot be "
                "read from the split sizes. Pass `rho` explicitly (0 for "
                "independent learning samples), or rerun with RepeatedKFold / "
                "RepeatedStratifiedKFold or ShuffleSplit."
            )
        if (scores.n_train < 0).any() or (scores.n_test < 0).any():
            raise ValueError(
                f"The split sizes of data set {dataset!r} are not stored "
                "(n_train/n_test = -1); pass `rho` = n_test/(n_test + n_train)."
            )
        total = scores.n_train + scores.n_test
        rho = float(np.mean(scores.n_test / total))
        source = (
            f"rho = {rho:.4g}, mean n_test/(n_test + n_train) of the stored split sizes"
        )
    else:
        source = f"rho = {float(rho):.4g}, given"
    words = {"kfold": "k-fold", "holdout": "random splits"}.get(
        scores.scheme, scores.scheme
    )
    scope = (
        f"within data set {dataset!r} on {n} split scores ({words}: "
        f"{scores.n_replicates} replicates x {scores.n_folds} splits; {source})"
        + _select.dropped_words(scores.n_dropped, "split", a, b)
    )
    return scores, float(rho), scope
