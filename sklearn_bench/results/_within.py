"""The unit of a two-learner test within one data set (the user guide's "Tests
within one data set"): ``"corrected_t"`` (the default) on the split (fold scores,
holdout splits, BootstrapOOB replicates), ``"5x2cv"``, ``"5x2cv_f"`` on the 10
fold scores of 5 × 2-fold CV; the other tests on the replicate performances,
conditional on the learning sample (Hothorn et al. 2005)."""

import numpy as np

from ._select import (
    check_dataset,
    check_learners,
    design,
    dropped_words,
    split_matrix,
    split_pair,
)

SPLIT_METHODS = ("corrected_t", "5x2cv", "5x2cv_f")
_FIVE_BY_TWO = "RepeatedStratifiedKFold(n_splits=2, n_repeats=5) (or RepeatedKFold)"


def default_method(result, a, b, *, metric, dataset):
    """``"t"`` for a simulation or competition problem (Hothorn et al. 2005, Sec.
    3.1), ``"corrected_t"`` on every scheme the design knows; an unknown one is a
    ``ValueError`` saying what to pass."""
    dataset = check_dataset(result, dataset)
    if result.datasets[dataset] in ("simulation", "competition"):
        return "t"
    check_learners(result, [a, b])
    _check_scheme(result, dataset, metric)
    return "corrected_t"


def _check_scheme(result, dataset, metric):
    """The data set's :func:`design`, or the ``ValueError`` of an unknown one."""
    d = design(result, dataset, metric)
    if d.kind == "unknown":
        raise ValueError(
            f"The resampling scheme of data set {dataset!r} is unknown "
            f"({d.why}), so no test valid for the generalisation question can be "
            "chosen for it. Pass method='corrected_t' with "
            "test_train_ratio=n_test/n_train, or method='t' for Hothorn's test "
            "conditional on the learning sample."
        )
    return d


def _ratio(scheme, n_folds, n_replicates, n_train, n_test):
    """``n_test/n_train`` of the corrected t (None without split sizes), where
    it comes from in words, and the unit of the test."""
    sizes_known = len(n_train) and (n_train > 0).all() and (n_test > 0).all()
    if scheme == "bootstrap_oob":
        # Nadeau-Bengio's heuristic rho = n_test / (n_test + n_train) with the
        # distinct training rows (n - n_oob): repeats add no information. Its
        # type I error is near 0.05 in benchmarks/calibration.py; the stored
        # n_test/n_train (draws) is liberal there.
        ratio = (
            float(np.mean(n_test / (n_train - n_test)))
            if sizes_known and (n_train > n_test).all()
            else None
        )
        how = (
            "Nadeau & Bengio (2003) correction with n_test = out-of-bootstrap "
            "rows, n_train = distinct training rows (n − n_test), i.e. their "
            "heuristic correlation ρ = n_test/n"
        )
        return ratio, how, "replicates"
    ratio = float(np.mean(n_test) / np.mean(n_train)) if sizes_known else None
    how, unit = {
        "kfold": (
            f"{n_replicates} × {n_folds}-fold CV; Bouckaert & Frank (2004) "
            "corrected repeated k-fold t",
            "fold scores",
        ),
        "bootstrap_cv": (
            f"{n_replicates} bootstrap samples × {n_folds} folds; "
            "Bouckaert & Frank (2004) form on the fold scores",
            "fold scores",
        ),
        "holdout": ("Nadeau & Bengio (2003) corrected resampled t", "splits"),
    }.get(
        scheme,
        ("Nadeau & Bengio (2003) correction, resampling scheme unknown", "splits"),
    )
    return ratio, how, unit


def _no_sizes_error(dataset):
    return ValueError(
        f"Data set {dataset!r} stores no split sizes to infer n_test/n_train "
        "from; pass `test_train_ratio` for method='corrected_t'."
    )


def corrected_t_inputs(result, a, b, *, metric, dataset, test_train_ratio=None):
    """``x, y, ratio, rule, scope, n_dropped`` of ``"corrected_t"``: its units,
    ``n_test/n_train``, where that ratio comes from in words (the scheme and its
    reference) and the words for H0."""
    a, b = check_learners(result, [a, b])
    dataset = check_dataset(result, dataset)
    problem = result.datasets[dataset]
    if problem in ("simulation", "competition"):
        why = (
            "its replicates are independent learning samples, so method='t' on "
            "them answers the generalisation question"
            if problem == "simulation"
            else "all its learners are validated on one fixed test sample, so "
            "inference is conditional on that sample (Hothorn et al. 2005, Sec. "
            "3.1); use method='t'"
        )
        raise ValueError(
            f"method='corrected_t' corrects for overlapping training sets of one "
            f"learning sample; data set {dataset!r} is a {problem} problem: {why}."
        )
    s = split_pair(result, a, b, metric=metric, dataset=dataset)
    ratio, how, unit = _ratio(s.scheme, s.n_folds, s.n_replicates, s.n_train, s.n_test)
    if test_train_ratio is not None:
        ratio = float(test_train_ratio)
        how += ", n_test/n_train given"
    elif ratio is None:
        raise _no_sizes_error(dataset)
    scope = (
        f"within data set {dataset!r} on {len(s.x)} {unit} ({how}, "
        f"n_test/n_train = {ratio:.4g}); H0 about learners trained on samples "
        "of this size from the same population"
        + dropped_words(s.n_dropped, "split", a, b)
    )
    return s.x, s.y, ratio, how, scope, s.n_dropped


def five_by_two_inputs(result, a, b, *, metric, dataset):
    """The (5, 2) score arrays for the 5×2cv tests, and the scope."""
    a, b = check_learners(result, [a, b])
    dataset = check_dataset(result, dataset)
    s = split_pair(result, a, b, metric=metric, dataset=dataset)
    if result.datasets[dataset] in ("simulation", "competition") or not (
        s.scheme == "kfold" and s.n_folds == 2 and s.n_replicates == 5
    ):
        raise ValueError(
            f"The 5×2cv tests need 5 repetitions of 2-fold cross-validation: run "
            f"data set {dataset!r} with {_FIVE_BY_TWO}. It was split as "
            f"{design(result, dataset, metric).words}; use method='corrected_t' "
            "for it."
        )
    if s.n_dropped:
        raise ValueError(
            f"The 5×2cv tests need all 10 fold scores; {s.n_dropped} splits of data "
            f"set {dataset!r} were dropped because a task of {a!r} or {b!r} "
            "failed. Use method='corrected_t' on the remaining folds."
        )
    order = np.lexsort((s.fold, s.replicate))
    x, y = s.x[order].reshape(5, 2), s.y[order].reshape(5, 2)
    scope = (
        f"within data set {dataset!r} on the 10 fold scores of 5 × 2-fold CV; H0 "
        "about learners trained on half the data"
    )
    return x, y, scope


def corrected_t_block(result, learners, reference, *, metric, dataset):
    """``(x, y, ratio, rule)`` of the corrected t of ``learners`` against
    ``reference`` on ``dataset`` at once, or ``None`` unless all share every
    split and the design; raises the ``ValueError`` each pair would raise."""
    if not learners or result.datasets[dataset] in ("simulation", "competition"):
        return None
    m = split_matrix(result, dataset, metric, [*learners, reference])
    if m is None or not len(m["value"]) or not m["ok"].all():
        return None
    for name in ("replicate", "fold", "n_train", "n_test"):
        if not (m[name] == m[name][:, -1:]).all():
            return None
    d = _check_scheme(result, dataset, metric)
    n_train, n_test = m["n_train"][:, -1], m["n_test"][:, -1]
    ratio, how, _ = _ratio(d.kind, d.n_folds, d.n_repeats, n_train, n_test)
    if ratio is None:
        raise _no_sizes_error(dataset)
    return m["value"][:, :-1], m["value"][:, -1], ratio, how


def conditional_words(result, dataset):
    """What a replicate-level test within ``dataset`` is conditional on."""
    problem = result.datasets[dataset]
    if problem == "simulation":
        return "independent learning samples"
    if problem == "competition":
        return "conditional on the fixed test sample (Hothorn et al. 2005, Sec. 3)"
    return "conditional on this learning sample (Hothorn et al. 2005, Sec. 3)"
