"""Several classifiers on one test set: Cochran's Q, Looney's F and proportions.

The tests of mlxtend's ``evaluate`` module for K classifiers evaluated on the same
n test cases (Raschka 2018, *Model evaluation, model selection, and algorithm
selection in machine learning*, arXiv:1811.12808, Section 4): each case is a block,
each classifier's 0/1 correctness a response. They answer the *conditional*
question (this test set, these trained classifiers), like McNemar's test.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_confidence_level as _check_confidence_level
from .._validation import check_member
from .._validation import check_positive_int as _check_size
from ._anova import rm_anova
from ._common import ConfidenceInterval, _Fields, real_number
from ._mcnemar import _correctness


@dataclass(frozen=True)
class ClassifierComparisonResult(_Fields):
    """Result of :func:`cochrans_q` and :func:`f_test_classifiers`.

    Attributes
    ----------
    statistic : float
        Cochran's Q (χ² on ``df``) or Looney's F (on ``df``, ``df_denominator``).
    pvalue : float
    df : int
        ``K − 1``.
    df_denominator : int or None
        ``(K − 1)(n − 1)`` for the F test; None for Q.
    n_samples, n_classifiers : int
    accuracies : pandas.Series
        Share of the test cases each classifier gets right.
    method : str
    null_hypothesis : str

    Examples
    --------
    >>> from sklearn_bench.stats import cochrans_q
    >>> y = [0, 0, 1, 1, 0, 1, 0, 1]
    >>> res = cochrans_q(y, {"a": [0, 0, 1, 1, 0, 1, 0, 1],
    ...                      "b": [0, 1, 1, 0, 0, 1, 1, 1],
    ...                      "c": [1, 1, 0, 0, 0, 1, 1, 1]})
    >>> res.accuracies.tolist(), round(res.statistic, 3)
    ([1.0, 0.625, 0.375], 7.6)
    """

    statistic: float
    pvalue: float
    df: int
    df_denominator: int | None
    n_samples: int
    n_classifiers: int
    accuracies: pd.Series = field(compare=False)
    method: str = ""
    null_hypothesis: str = (
        "H0: all classifiers have the same probability of a correct "
        "classification on this test set."
    )


def _accuracies(correct, names):
    return pd.Series(
        correct.mean(axis=0),
        index=pd.Index(names, name="classifier"),
        name="accuracy",
    )


def cochrans_q(y_true, predictions) -> ClassifierComparisonResult:
    """Cochran's Q test of equal accuracy of K classifiers on one test set.

    With ``G_j`` the number of test cases classifier ``j`` gets right, ``L_i``
    the number of classifiers right on case ``i`` and ``T = sum G_j``
    (Cochran 1950; Kuncheva 2004, eq. (4.8))::

        Q = (K − 1) [K sum_j G_j² − T²] / [K T − sum_i L_i²]

    referred to χ² with ``K − 1`` df. For ``K = 2`` it is McNemar's test
    without continuity correction.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The test set's labels.
    predictions : dict, DataFrame or array-like of shape (n_samples, n_classifiers)
        Each classifier's predicted labels; a dict or DataFrame names them.

    Returns
    -------
    ClassifierComparisonResult

    See Also
    --------
    f_test_classifiers : Looney's F test of the same hypothesis; its example
        uses the same table.
    mcnemar_test : two classifiers, with or without continuity correction.

    Notes
    -----
    mlxtend's ``cochrans_q(y_target, *y_model_predictions)`` takes the
    classifiers as separate arguments and returns ``(q, p)``; the statistic
    and p-value agree. When every test case is classified alike by all
    classifiers (all right or all wrong), ``K T − sum L_i² = 0``; then every
    ``G_j`` is equal too and the result is ``Q = 0``, ``p = 1`` (mlxtend gives
    NaN).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import cochrans_q
    >>> y_true = np.zeros(100, dtype=int)
    >>> preds = {"m1": np.r_[np.ones(16), np.zeros(84)],
    ...          "m2": np.r_[np.ones(12), np.zeros(12), np.ones(2), np.zeros(74)],
    ...          "m3": np.r_[np.ones(6), np.zeros(6), np.ones(2), np.zeros(86)]}
    >>> res = cochrans_q(y_true, preds)
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (8.6667, 0.0131)
    """
    correct, names = _correctness(y_true, predictions)
    x = correct.astype(float)
    n, k = x.shape
    g = x.sum(axis=0)
    row = x.sum(axis=1)
    total = g.sum()
    numerator = (k - 1) * (k * np.sum(g**2) - total**2)
    denominator = k * total - np.sum(row**2)
    if numerator == 0:
        q, p = 0.0, 1.0
    else:
        q = float(numerator / denominator)
        p = float(stats.chi2.sf(q, k - 1))
    return ClassifierComparisonResult(
        statistic=q,
        pvalue=p,
        df=k - 1,
        df_denominator=None,
        n_samples=n,
        n_classifiers=k,
        accuracies=_accuracies(correct, names),
        method="Cochran's Q test",
    )


def f_test_classifiers(y_true, predictions) -> ClassifierComparisonResult:
    """Looney's (1988) F test of equal accuracy of K classifiers on one test set.

    The two-way analysis of variance without replication of the 0/1
    correctness table (test cases x classifiers; Looney 1988, *A statistical
    technique for comparing the accuracies of several classifiers*, Pattern
    Recognition Letters 8, 5–9)::

        F = [SSA / (K − 1)] / [SSAB / ((K − 1)(n − 1))]

    with SSA the classifiers' and SSAB the interaction (residual) sum of
    squares, referred to F(K − 1, (K − 1)(n − 1)). It is :func:`rm_anova` of
    the correctness table, the test cases as blocks.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        The test set's labels.
    predictions : dict, DataFrame or array-like of shape (n_samples, n_classifiers)
        Each classifier's predicted labels; a dict or DataFrame names them.

    Returns
    -------
    ClassifierComparisonResult

    See Also
    --------
    cochrans_q : the χ² test of the same hypothesis; its example uses the same
        table.

    Notes
    -----
    mlxtend's ``ftest`` computes the same F but refers it to F(K − 1,
    (K − 1) n): its denominator df has ``n`` where the ANOVA's residual has
    ``n − 1`` (its documentation states ``(K − 1)(n − 1)``). The difference in
    the p-value is of order ``1/n`` (``1e-5`` relative on 100 cases);
    ``scipy.stats.f.sf(res.statistic, res.df, res.df * res.n_samples)`` gives
    mlxtend's. Degenerate tables follow :func:`rm_anova`: no difference in
    accuracy gives ``F = 0``, ``p = 1``; a difference with no interaction (one
    classifier right exactly where another is wrong, on every case) ``F = inf``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import f_test_classifiers
    >>> y_true = np.zeros(100, dtype=int)
    >>> preds = {"m1": np.r_[np.ones(16), np.zeros(84)],
    ...          "m2": np.r_[np.ones(12), np.zeros(12), np.ones(2), np.zeros(74)],
    ...          "m3": np.r_[np.ones(6), np.zeros(6), np.ones(2), np.zeros(86)]}
    >>> res = f_test_classifiers(y_true, preds)
    >>> round(res.statistic, 4), res.df, res.df_denominator, round(res.pvalue, 4)
    (4.4843, 2, 198, 0.0125)
    """
    correct, names = _correctness(y_true, predictions)
    n, k = correct.shape
    if n < 2:
        raise ValueError("`y_true` must hold at least 2 test cases for the F test.")
    anova = rm_anova(correct.astype(float))
    return ClassifierComparisonResult(
        statistic=anova.statistic,
        pvalue=anova.pvalue,
        df=anova.df_learners,
        df_denominator=anova.df_error,
        n_samples=n,
        n_classifiers=k,
        accuracies=_accuracies(correct, names),
        method="F test for K classifiers (Looney 1988)",
    )


# ---------------------------------------------------------- difference of proportions
@dataclass(frozen=True)
class ProportionDifferenceResult(_Fields):
    """Result of :func:`proportion_difference_test`.

    Attributes
    ----------
    statistic : float
        ``z = (p1 − p2) / sqrt(p1 (1 − p1) / n1 + p2 (1 − p2) / n2)``.
    pvalue : float
    estimate : float
        ``p1 − p2``.
    standard_error : float
    alternative : str
    method : str
    null_hypothesis : str

    Examples
    --------
    >>> from sklearn_bench.stats import proportion_difference_test
    >>> res = proportion_difference_test(0.84, 0.92, 100)
    >>> round(res.statistic, 4), round(res.pvalue, 4)
    (-1.7541, 0.0794)
    """

    statistic: float
    pvalue: float
    estimate: float
    standard_error: float
    alternative: str
    method: str = "z test of a difference of two proportions (unpooled)"
    null_hypothesis: str = "H0: p1 = p2 (two independent samples)"

    def confidence_interval(self, confidence_level=0.95):
        """Wald interval ``p1 − p2 ± z se``, one-sided as the test.

        It excludes 0 exactly when the test rejects at ``1 − confidence_level``.

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        ConfidenceInterval
        """
        level = _check_confidence_level(confidence_level)
        alpha = 1 - level
        se = self.standard_error
        if self.alternative == "two-sided":
            z = stats.norm.ppf(1 - alpha / 2)
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

    Notes
    -----
    The test assumes *independent* samples. Two classifiers evaluated on the
    same test set are paired, and their accuracies are correlated; Dietterich
    (1998) shows the test's type I error is then wrong. Use McNemar's test
    (:func:`mcnemar_test` of the discordant counts) for one test set; use this
    one for two accuracies measured on different test sets. Both proportions 0
    or both 1: ``se = 0``, ``z = 0`` and ``p = 1`` when they are equal;
    unequal proportions with ``se = 0`` (0 against 1) give ``z = ±inf``.

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
    if se > 0:
        z = diff / se
    else:
        z = 0.0 if diff == 0 else float(np.copysign(np.inf, diff))
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
