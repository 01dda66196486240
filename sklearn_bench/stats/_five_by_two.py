"""Dietterich's 5×2cv paired t-test and Alpaydin's combined 5×2cv F-test.

Both take the scores of two learners on the ten splits of five repetitions of
2-fold cross-validation, with the differences ``p = x − y`` arranged as a
(5, 2) array: row ``i`` is repetition ``i``, column ``j`` its fold ``j``.
"""

import numpy as np
from scipy import stats

from .._validation import check_member
from ._common import _DECIMALS, real_array
from ._paired import PairedTestResult

_METHODS = ("t", "f")
_ALTERNATIVES = ("two-sided", "less", "greater")


def _check_five_by_two(x, y):
    x = real_array(x, "x")
    y = real_array(y, "y")
    if x.shape != (5, 2) or y.shape != (5, 2):
        raise ValueError(
            "`x` and `y` must have shape (5, 2): 5 repetitions of 2-fold "
            f"cross-validation, e.g. RepeatedStratifiedKFold(n_splits=2, "
            f"n_repeats=5); got {x.shape} and {y.shape}."
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError(
            "`x` and `y` must be finite (no NaN: the 5×2cv tests need all ten "
            "fold scores)."
        )
    return x - y


def five_by_two_cv_test(x, y, *, method="t", alternative="two-sided", labels=None):
    """Dietterich's 5×2cv paired t-test or Alpaydin's combined 5×2cv F-test.

    With ``p_ij`` the difference ``x − y`` on fold ``j`` of repetition ``i``,
    ``p̄_i = (p_i1 + p_i2)/2`` and ``s_i² = (p_i1 − p̄_i)² + (p_i2 − p̄_i)²``:

    - ``method="t"`` (Dietterich 1998, eq. (9)):
      ``t = p_11 / sqrt(Σ_i s_i² / 5)`` with 5 degrees of freedom. Its estimate
      and interval are those of ``p_11``, the first fold's difference,
      ``p_11 ± t_5 · sqrt(Σ s_i²/5)`` (the inverted test).
    - ``method="f"`` (Alpaydin 1999): ``f = Σ_i Σ_j p_ij² / (2 Σ_i s_i²)``,
      F-distributed with (10, 5) degrees of freedom; two-sided only, with no
      interval. Its estimate is the mean of the ten differences.

    Both test H0: the two learners have equal expected score when trained on
    half of a data set of this size (the generalisation question, for this
    training-set size), not conditionally on the one learning sample.

    Parameters
    ----------
    x, y : array-like of shape (5, 2)
        Scores of the two learners: row ``i`` is repetition ``i`` of 2-fold
        cross-validation, column ``j`` its fold ``j``.
    method : {"t", "f"}, default="t"
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"``/``"greater"`` for ``"t"`` only.
    labels : tuple of two str, default=None
        Names used in ``null_hypothesis``; ``("x", "y")`` by default.

    Returns
    -------
    PairedTestResult
        ``method`` is ``"5x2cv"`` or ``"5x2cv_f"``; ``df`` 5 for the t-test and
        ``(10, 5)`` for F; ``n`` is 10; ``details`` holds ``p11``, ``mean``
        (of the ten differences), ``variances`` (the five ``s_i²``).

    Raises
    ------
    ValueError
        Wrong shape, NaN, an unknown option, a one-sided F-test, or a
        variance estimate ``Σ s_i² = 0`` (each repetition's two fold
        differences equal): the statistic is then undefined, not infinite.

    Notes
    -----
    Dietterich (1998) found the 5×2cv t-test's type I error near or below the
    nominal level where the resampled t-test and the t-test on 10-fold
    cross-validation folds are far above it; Alpaydin (1999) combines all ten
    differences to remove the dependence on which fold comes first and reports
    lower type I error and higher power. Each training set is half the data,
    so the comparison is of the learners trained on n/2 rows.

    References
    ----------
    Dietterich TG (1998). Approximate statistical tests for comparing
    supervised classification learning algorithms. Neural Computation 10(7),
    1895-1923.
    Alpaydin E (1999). Combined 5×2 cv F test for comparing supervised
    classification learning algorithms. Neural Computation 11(8), 1885-1892.

    Examples
    --------
    >>> from sklearn_bench.stats import five_by_two_cv_test
    >>> x = [[0.10, 0.12], [0.11, 0.09], [0.12, 0.13], [0.10, 0.11], [0.09, 0.12]]
    >>> y = [[0.14, 0.15], [0.13, 0.14], [0.15, 0.13], [0.12, 0.15], [0.14, 0.13]]
    >>> res = five_by_two_cv_test(x, y)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (-2.025, 0.0987, 5)
    >>> res = five_by_two_cv_test(x, y, method="f")
    >>> round(res.statistic, 3), round(res.pvalue, 4)
    (2.795, 0.1341)
    """
    p = _check_five_by_two(x, y)
    check_member(method, _METHODS, "method")
    check_member(alternative, _ALTERNATIVES, "alternative")
    if method == "f" and alternative != "two-sided":
        raise ValueError(
            "`alternative` must be 'two-sided' for the 5×2cv F-test (its statistic "
            "has no direction); use method='t' for a one-sided test."
        )
    if labels is None:
        labels = ("x", "y")
    if (
        isinstance(labels, str | bytes)
        or not hasattr(labels, "__len__")
        or (len(labels) != 2)
    ):
        raise ValueError(f"`labels` must be a pair of names; got {labels!r}.")
    a, b = (str(v) for v in labels)
    mean_i = p.mean(axis=1)
    s2 = ((p - mean_i[:, None]) ** 2).sum(axis=1)
    total = float(s2.sum())
    if np.all(np.round(p[:, 0] - p[:, 1], _DECIMALS) == 0):
        raise ValueError(
            "The 5×2cv variance estimate is 0: in every repetition the two fold "
            "differences are equal, so the 5×2cv statistic is undefined (not "
            "infinite). Check the scores; with so little spread no test is "
            "informative."
        )
    details = {
        "p11": float(p[0, 0]),
        "mean": float(p.mean()),
        "variances": s2.tolist(),
    }
    op = {"two-sided": "=", "greater": "<=", "less": ">="}[alternative]
    null = (
        f"H0: expected {a} − {b} of learners trained on half the data {op} 0 "
        "(generalisation over learning samples)"
    )
    if method == "t":
        se = float(np.sqrt(total / 5))
        statistic = float(p[0, 0] / se)
        if alternative == "greater":
            pvalue = float(stats.t.sf(statistic, 5))
        elif alternative == "less":
            pvalue = float(stats.t.cdf(statistic, 5))
        else:
            pvalue = float(min(1.0, 2 * stats.t.sf(abs(statistic), 5)))
        return PairedTestResult(
            statistic,
            pvalue,
            5,
            float(p[0, 0]),
            10,
            "5x2cv",
            alternative,
            null,
            details=details,
            _differences=p.ravel(),
            _std_error=se,
        )
    statistic = float(np.sum(p**2) / (2 * total))
    pvalue = float(stats.f.sf(statistic, 10, 5))
    return PairedTestResult(
        statistic,
        pvalue,
        (10, 5),
        float(p.mean()),
        10,
        "5x2cv_f",
        alternative,
        null,
        details=details,
        _differences=p.ravel(),
    )
