"""Multiple-rule bias of Yousefi, Hua and Dougherty (2011), Sections 2 and 3
(the errors come from :func:`sklearn_bench.experiment.collect_rule_errors`)."""

from dataclasses import dataclass, field
from itertools import combinations
from math import comb

import numpy as np
import pandas as pd
from sklearn.utils import check_random_state

from .._validation import check_positive_int
from ._common import real_array

__all__ = ["MultipleRuleBiasResult", "multiple_rule_bias"]

# Number of float64 values one vectorised block of collections may hold.
_BLOCK_VALUES = 2_000_000


@dataclass(frozen=True)
class MultipleRuleBiasResult:
    """Result of :func:`multiple_rule_bias`; its Returns section describes the
    fields."""

    m: np.ndarray
    n_rules_chosen: np.ndarray
    estimated_minimum: np.ndarray
    true_of_chosen: np.ndarray
    bias: np.ndarray
    variance: np.ndarray
    rms: np.ndarray
    comparative_bias: np.ndarray
    estimated_advantage: np.ndarray
    true_advantage: np.ndarray
    n_collections: np.ndarray
    exact: np.ndarray
    n_rules: int
    n_estimators: int
    n_samples: int
    n_datasets: int
    _frame: pd.DataFrame = field(repr=False, compare=False)

    def to_frame(self):
        """One row per data set (``"average"`` across them, if several) and ``m``:
        ``dataset, m, r``, the measures, ``n_collections``, ``exact``."""
        return self._frame.copy()


def _check_errors(true_error, estimated_error):
    true = real_array(true_error, "true_error")
    est = real_array(estimated_error, "estimated_error")
    if true.ndim not in (2, 3):
        raise ValueError(
            "`true_error` must have shape (n_rules, n_samples) or "
            f"(n_rules, n_samples, n_datasets); got shape {true.shape}."
        )
    if est.ndim == true.ndim:
        est = est[:, np.newaxis]
    if est.ndim != true.ndim + 1 or est.shape[:1] + est.shape[2:] != true.shape:
        raise ValueError(
            "`estimated_error` must have shape (n_rules, n_estimators, n_samples"
            "[, n_datasets]) (or the shape of `true_error` for one estimator) "
            f"matching `true_error` {true.shape}; got shape {est.shape}."
        )
    for name, a in [("true_error", true), ("estimated_error", est)]:
        if a.size == 0:
            raise ValueError(f"`{name}` is empty.")
        if not np.all(np.isfinite(a)):
            raise ValueError(f"`{name}` contains NaN or infinite values.")
    if true.ndim == 2:
        true, est = true[..., np.newaxis], est[..., np.newaxis]
    return true, est


def _collections(n_rules, r, n_collections, rng):
    """Index arrays (n, r) of collections: all of them, or random ones."""
    total = comb(n_rules, r)
    if total <= n_collections:
        return np.array(list(combinations(range(n_rules), r)), dtype=np.intp), True
    keys = rng.random((n_collections, n_rules))
    return np.sort(np.argsort(keys, axis=1)[:, :r], axis=1), False


def _collection_moments(est, mu, coll):
    """Per-collection ``(C,)`` moments of one curve: ``est (R, s, N)`` estimated
    errors, ``mu (R,)`` expected true errors, ``coll (C, r)`` rule indices."""
    n_coll, r = coll.shape
    _, s, n = est.shape
    e = est[coll]  # (C, r, s, N)
    flat = e.reshape(n_coll, r * s, n)
    pos = np.argmin(flat, axis=1)  # first minimum: lowest rule, then estimator
    est_min = np.take_along_axis(flat, pos[:, np.newaxis], axis=1)[:, 0]
    i_pos, j_min = np.divmod(pos, s)  # position in the collection, estimator
    i_min = np.take_along_axis(coll, i_pos, axis=1)  # (C, N) rule index
    delta = est_min - mu[i_min]
    out = {
        "estimated_minimum": est_min.mean(axis=1),
        "true_of_chosen": mu[i_min].mean(axis=1),
        "bias": delta.mean(axis=1),
        "variance": delta.var(axis=1),
        "rms": np.sqrt(np.mean(delta**2, axis=1)),
    }
    if r > 1:
        # eq. (7): the other rules' estimates with the chosen estimator j_min
        col_est = np.take_along_axis(e, j_min[:, np.newaxis, np.newaxis, :], axis=2)
        others_est = (col_est[:, :, 0, :].sum(axis=1) - est_min) / (r - 1)
        a_est = est_min - others_est
        # eq. (6): expected true errors of the chosen rule and of the others
        others_true = (mu[coll].sum(axis=1)[:, np.newaxis] - mu[i_min]) / (r - 1)
        a_true = mu[i_min] - others_true
        out["estimated_advantage"] = a_est.mean(axis=1)
        out["true_advantage"] = a_true.mean(axis=1)
    else:
        out["estimated_advantage"] = out["true_advantage"] = np.full(n_coll, np.nan)
    out["comparative_bias"] = out["estimated_advantage"] - out["true_advantage"]
    return out


_MEASURES = [
    "estimated_minimum",
    "true_of_chosen",
    "bias",
    "variance",
    "rms",
    "comparative_bias",
    "estimated_advantage",
    "true_advantage",
]


def multiple_rule_bias(
    true_error,
    estimated_error,
    *,
    n_collections=1000,
    dataset_names=None,
    random_state=None,
):
    """Multiple-rule bias as a function of the number of rules compared.

    Yousefi, Hua and Dougherty (2011), Sections 2-3 (worked through in
    :ref:`selection_bias`): on each sample the model with the minimum estimated
    error among the ``m = r s`` models of a collection is chosen (eq. 1), and
    the moments of its optimism (eqs. 2-7, per collection with ``ddof=0``) are
    averaged over the collections of ``r`` rules out of ``R`` (eqs. 4-5). With
    ``K`` data sets (a trailing axis) the errors are first averaged over them
    (eqs. 9-10); each data set's own curves are rows of ``to_frame()``.

    Parameters
    ----------
    true_error : array-like of shape (n_rules, n_samples) or \
            (n_rules, n_samples, n_datasets)
        True error of the classifier designed by each rule on each sample.
    estimated_error : array-like of shape (n_rules, n_estimators, n_samples) or \
            (n_rules, n_estimators, n_samples, n_datasets)
        Its estimates by each error estimator (the shape of ``true_error`` for
        one estimator).
    n_collections : int, default=1000
        All collections of ``r`` rules when there are at most this many, else
        this many drawn at random.
    dataset_names : list of str, default=None
        Names of the data sets in :meth:`~MultipleRuleBiasResult.to_frame`.
    random_state : int, RandomState instance or None, default=None
        Draws the random collections.

    Returns
    -------
    MultipleRuleBiasResult
        Arrays indexed by the number ``r = 1, ..., R`` of rules in a
        collection (averaged over the data sets when there are several):
        ``m`` (``r s``), ``n_rules_chosen`` (``r``), ``estimated_minimum``
        (eq. 1), ``true_of_chosen`` (``bias = estimated_minimum −
        true_of_chosen``), ``bias`` (eq. 4; eq. 10 with data sets),
        ``variance``, ``rms`` (eq. 5), ``comparative_bias``,
        ``estimated_advantage`` and ``true_advantage`` (eqs. 6-7; NaN for ``r =
        1``), ``n_collections`` and ``exact`` (all collections used); and the
        ints ``n_rules``, ``n_estimators``, ``n_samples``, ``n_datasets``.

    Notes
    -----
    Ties of the minimum go to the rule, then the estimator, listed first. RMS
    averages the root over collections (eq. 5): not √(Bias² + Var).

    Examples
    --------
    Two rules of true error 0.2, estimated with sds 0.05 and 0.01: the minimum
    is optimistic by about √(0.05² + 0.01²)/√(2π) = 0.020.

    >>> import numpy as np
    >>> from sklearn_bench.stats import multiple_rule_bias
    >>> rng = np.random.default_rng(0)
    >>> true = np.full((2, 2000), 0.2)
    >>> est = true + rng.normal(0, [[0.05], [0.01]], size=(2, 2000))
    >>> res = multiple_rule_bias(true, est)
    >>> np.round(res.bias, 3)
    array([-0.001, -0.021])
    """
    true, est = _check_errors(true_error, estimated_error)
    check_positive_int(n_collections, "n_collections")
    n_rules, s, n, k = est.shape
    names = range(k) if dataset_names is None else dataset_names
    dataset_names = [str(d) for d in names]
    if len(dataset_names) != k:
        raise ValueError(
            f"`dataset_names` must have {k} names (one per data set); got "
            f"{len(dataset_names)}."
        )
    if k == 1:
        curves = {"all": (est[..., 0], true[..., 0].mean(axis=1))}
    else:
        if "average" in dataset_names:
            raise ValueError("`dataset_names` must not contain 'average'.")
        curves = {
            name: (est[..., i], true[..., i].mean(axis=1))
            for i, name in enumerate(dataset_names)
        }
        # eqs. (9)-(10): average the estimates of each rule model over data sets;
        # (1/K) sum_k E[true^{i,k}] is the mean over samples and data sets.
        curves["average"] = (est.mean(axis=3), true.mean(axis=(1, 2)))
    rng = check_random_state(random_state)
    rows = []
    for r in range(1, n_rules + 1):
        coll, exact = _collections(n_rules, r, n_collections, rng)
        block = max(1, _BLOCK_VALUES // (r * s * n))
        for name, (e, mu) in curves.items():
            parts = [
                _collection_moments(e, mu, coll[start : start + block])
                for start in range(0, len(coll), block)
            ]
            row = {"dataset": name, "m": r * s, "r": r}
            for key in _MEASURES:
                row[key] = float(np.concatenate([p[key] for p in parts]).mean())
            row["n_collections"] = len(coll)
            row["exact"] = exact
            rows.append(row)
    frame = pd.DataFrame(rows)
    main = frame[frame["dataset"] == ("all" if k == 1 else "average")]
    return MultipleRuleBiasResult(
        m=main["m"].to_numpy(),
        n_rules_chosen=main["r"].to_numpy(),
        **{key: main[key].to_numpy() for key in _MEASURES},
        n_collections=main["n_collections"].to_numpy(),
        exact=main["exact"].to_numpy(),
        n_rules=n_rules,
        n_estimators=s,
        n_samples=n,
        n_datasets=k,
        _frame=frame.reset_index(drop=True),
    )
