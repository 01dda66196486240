"""Classifiers on test sets: Cochran's Q and the difference of two proportions,
the tests of mlxtend's ``evaluate`` module (Raschka 2018, arXiv:1811.12808, Sec. 4).
"""

from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_confidence_level, check_member
from .._validation import check_positive_int as _check_size
from ._block_rank_tests import BlockTestResult
from ._common import ConfidenceInterval, _Fields, real_number


def _labels(values, name):
    """A non-empty 1-D label array, or a ValueError naming it."""
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"`{name}` must be a one-dimensional array of labels: {exc}"
        ) from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"`{name}` must be a non-empty one-dimensional array of labels; got "
            f"shape {arr.shape}."
        )
    if (arr.dtype.kind == "f" and np.isnan(arr).any()) or (
        arr.dtype.kind == "O" and any(v is None for v in arr)
    ):
        raise ValueError(f"`{name}` contains NaN or None.")
    return arr


def _correctness(y_true, predictions):
    """``(correct, names)``: a (n_samples, K) bool matrix and the classifiers'
    names, of a dict, a DataFrame or a 2-D array of predictions."""
    y = _labels(y_true, "y_true")
    if isinstance(predictions, pd.DataFrame | dict):
        names = list(predictions.keys())
        columns = [np.asarray(predictions[c]) for c in names]
    else:
        try:  # None, a string and a ragged list fail the shape check
            arr = np.asarray(predictions)
        except (TypeError, ValueError):
            arr = np.empty(0)
        if arr.ndim != 2:
            raise ValueError(
                "`predictions` must be a dict, a DataFrame or a 2-D array of shape "
                "(n_samples, n_classifiers)."
            )
        names, columns = list(range(arr.shape[1])), list(arr.T)
    if len(set(names)) != len(names):
        raise ValueError("The classifiers' names in `predictions` must be unique.")
    if len(columns) < 2:
        raise ValueError(
            f"`predictions` must hold at least 2 classifiers; got {len(columns)}."
        )
    correct = []
    for name, column in zip(names, columns, strict=True):
        try:
            pred = _labels(column, "predictions")
        except ValueError as exc:
            raise ValueError(f"{exc} (classifier {name!r})") from None
        if pred.shape != y.shape:
            raise ValueError(
                f"`predictions` of classifier {name!r} has {pred.size} labels; "
                f"`y_true` has {y.size} (a 2-D array is (n_samples, n_classifiers))."
            )
        correct.append(pred == y)
    return np.column_stack(correct), names


def cochrans_q(y_true, predictions) -> BlockTestResult:
    """Cochran's Q test of equal accuracy of K classifiers on one test set.

    ``Q = (K − 1) [K sum_j G_j² − T²] / [K T − sum_i L_i²]`` against χ²(K − 1),
    ``G_j`` the cases classifier ``j`` gets right, ``L_i`` the classifiers
    right on case ``i``, ``T = sum G_j`` (Cochran 1950; Kuncheva 2004, eq.
    (4.8)); for ``K = 2``, McNemar's test without continuity correction.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The test set's labels.
    predictions : dict, DataFrame or array-like of shape (n_samples, n_classifiers)
        Each classifier's predicted labels; a dict or DataFrame names them.

    Returns
    -------
    BlockTestResult
        The test cases are the blocks, the classifiers the learners;
        ``learner_scores`` are their accuracies.

    Notes
    -----
    Test cases classified alike by all give ``Q = 0``, ``p = 1`` (mlxtend: NaN).
    Looney's (1988) F (mlxtend's ``ftest``) is :func:`rm_anova` of the 0/1
    correctness table, on F(K − 1, (K − 1)(n − 1)) where mlxtend has (K − 1) n.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import cochrans_q
    >>> y_true = np.zeros(100, dtype=int)
    >>> preds = {"m1": np.r_[np.ones(16), np.zeros(84)],
    ...          "m2": np.r_[np.ones(12), np.zeros(12), np.ones(2), np.zeros(74)],
    ...          "m3": np.r_[np.ones(6), np.zeros(6), np.ones(2), np.zeros(86)]}
    >>> res = cochrans_q(y_true, preds)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.learner_scores.tolist()
    (8.6667, 0.0131, [0.84, 0.86, 0.92])
    """
    correct, names = _correctness(y_true, predictions)
    x = correct.astype(float)
    n, k = x.shape
    g = x.sum(axis=0)
    total = g.sum()
    numerator = (k - 1) * (k * np.sum(g**2) - total**2)
    denominator = k * total - np.sum(x.sum(axis=1) ** 2)
    q = 0.0 if numerator == 0 else float(numerator / denominator)
    return BlockTestResult(
        statistic=q,
        pvalue=1.0 if numerator == 0 else float(stats.chi2.sf(q, k - 1)),
        df=(k - 1,),
        distribution="chi2",
        n_blocks=n,
        n_learners=k,
        learner_scores=pd.Series(
            correct.mean(axis=0),
            index=pd.Index(names, name="classifier"),
            name="accuracy",
        ),
        method="Cochran's Q test",
        null_hypothesis=(
            "H0: all classifiers have the same probability of a correct "
            "classification on this test set."
        ),
    )


@dataclass(frozen=True)
class ProportionDifferenceResult(_Fields):
    """Result of :func:`proportion_difference_test`; its Returns section describes the
    fields."""

    statistic: float
    pvalue: float
    estimate: float
    standard_error: float
    alternative: str
    method: str = "z test of a difference of two proportions (unpooled)"
    null_hypothesis: str = "H0: p1 = p2 (two independent samples)"

    def confidence_interval(self, confidence_level=0.95):
        """Wald interval ``p1 − p2 ± z se``, one-sided as the test: it excludes 0
        exactly when the test rejects at ``1 − confidence_level``.

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        ConfidenceInterval
        """
        level = check_confidence_level(confidence_level)
        se = self.standard_error
        if self.alternative == "two-sided":
            z = stats.norm.ppf(1 - (1 - level) / 2)
            low, high = self.estimate - z * se, self.estimate + z * se
        elif self.alternative == "less":
            low, high = -np.inf, self.estimate + stats.norm.ppf(level) * se
        else:
            low, high = self.estimate - stats.norm.ppf(level) * se, np.inf
        return ConfidenceInterval(float(low), float(high), level)


def _check_proportion(value, name):
    value = real_number(value, name)
    if not 0 <= value <= 1:
        raise ValueError(f"`{name}` must lie in [0, 1]; got {value!r}.")
    return value


def proportion_difference_test(
    proportion_1, proportion_2, n_1, n_2=None, *, alternative="two-sided"
) -> ProportionDifferenceResult:
    """z test of a difference of two proportions from independent samples.

    ``z = (p1 − p2) / sqrt(p1 (1 − p1) / n1 + p2 (1 − p2) / n2)`` (unpooled
    variance, as mlxtend's ``proportion_difference``), referred to the standard
    normal distribution.

    Parameters
    ----------
    proportion_1, proportion_2 : float
        The two proportions (e.g. accuracies), in [0, 1].
    n_1 : int
        Size of the first sample.
    n_2 : int, default=None
        Size of the second; ``None`` means ``n_1``.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"``: H1 p1 < p2, mlxtend's p-value (``norm.cdf(z)``).

    Returns
    -------
    ProportionDifferenceResult
        ``statistic`` (z), ``pvalue``, ``estimate`` (``p1 − p2``),
        ``standard_error``, ``alternative``, ``method``, ``null_hypothesis``.

    Notes
    -----
    For *independent* samples: on one test set use :func:`mcnemar_test`
    (Dietterich 1998). ``se = 0`` gives ``z = 0``, ``p = 1`` for equal
    proportions, ``z = ±inf`` otherwise.

    Examples
    --------
    >>> from sklearn_bench.stats import proportion_difference_test
    >>> res = proportion_difference_test(0.84, 0.92, 100, alternative="less")
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (-1.7541, 0.0397)
    >>> ci = proportion_difference_test(0.84, 0.92, 100).confidence_interval()
    >>> round(ci.low, 4), round(ci.high, 4)
    (-0.1694, 0.0094)
    """
    p1 = _check_proportion(proportion_1, "proportion_1")
    p2 = _check_proportion(proportion_2, "proportion_2")
    n1 = _check_size(n_1, "n_1")
    n2 = n1 if n_2 is None else _check_size(n_2, "n_2")
    check_member(alternative, ("two-sided", "less", "greater"), "alternative")
    se = float(np.sqrt(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2))
    diff = p1 - p2
    z = diff / se if se > 0 else 0.0 if diff == 0 else float(np.copysign(np.inf, diff))
    if alternative == "less":
        p = stats.norm.cdf(z)
    elif alternative == "greater":
        p = stats.norm.sf(z)
    else:
        p = 2 * stats.norm.sf(abs(z))
    return ProportionDifferenceResult(
        statistic=float(z),
        pvalue=float(min(1.0, p)),
        estimate=float(diff),
        standard_error=se,
        alternative=alternative,
    )
