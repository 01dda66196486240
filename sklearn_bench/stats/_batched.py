"""Many paired comparisons at once: the batched t paths.

:func:`paired_t_tests` is :func:`~sklearn_bench.stats.paired_test`'s t and
corrected t, :func:`bayesian_correlated_t_tests` is
:func:`~sklearn_bench.stats.bayesian_correlated_t`, vectorised over every position
but ``axis`` of broadcast arrays (SciPy's ``axis`` convention). Each entry equals the
one-comparison function's result to the last bit: the same operations on the
same contiguous 1-D differences. The report tests the best learner against every
other one on each data set with one call per data set.
"""

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import stats

from .._validation import check_axis, check_bool, check_confidence_level, check_member
from ._bayesian import _EQUIVALENT, _UNDECIDED
from ._common import _DECIMALS, ConfidenceInterval, real_array, real_number
from ._paired import _ALTERNATIVES


def _paired_differences(x, y, axis):
    """``x − y`` of the batched paired tests, one comparison per row.

    ``x`` and ``y`` are broadcast against each other; the pairs run along
    ``axis``, which becomes the last axis of a C-contiguous array, so that each
    row is reduced with the same operations as the one-comparison test's 1-D
    differences (equal to the last bit).
    """
    x = real_array(x, "x")
    y = real_array(y, "y")
    try:
        x, y = np.broadcast_arrays(x, y)
    except ValueError:
        raise ValueError(
            f"`x` and `y` must broadcast against each other; got shapes {x.shape} "
            f"and {y.shape}."
        ) from None
    if x.ndim == 0:
        raise ValueError("`x` and `y` must have at least one dimension.")
    axis = check_axis(axis, x.ndim)
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError(
            "`x` and `y` must be finite (no NaN: a failed task?); drop or impute "
            "those pairs first."
        )
    return np.ascontiguousarray(np.moveaxis(x - y, axis, -1))


# ------------------------------------------------------------------ paired t
@dataclass(frozen=True)
class PairedTTestsResult:
    """Result of :func:`paired_t_tests`: one paired t-test per comparison.

    Each entry is what :func:`paired_test` with ``method="t"`` (or
    ``"corrected_t"``) gives for that comparison, bit for bit.

    Attributes
    ----------
    statistic : ndarray
        The t statistics.
    pvalue : ndarray
        P-values for ``alternative``.
    df : int
        Degrees of freedom, ``n − 1``.
    estimate : ndarray
        Mean differences ``mean(x − y)``.
    std_error : ndarray
        Standard errors of the mean differences (Nadeau–Bengio corrected for
        ``"corrected_t"``).
    constant : ndarray of bool
        Comparisons whose differences are constant (after rounding to 10
        decimals): :func:`paired_test` raises for them (the t statistic is
        undefined), here their ``statistic``, ``pvalue`` and interval are NaN.
    n : int
        Number of pairs of each comparison.
    method : str
        ``"t"`` or ``"corrected_t"``.
    alternative : str

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import paired_t_tests
    >>> x = np.array([[0.82, 0.80], [0.85, 0.79], [0.80, 0.81], [0.84, 0.78]])
    >>> y = np.array([[0.79], [0.81], [0.80], [0.80]])
    >>> res = paired_t_tests(x, y)
    >>> res.estimate.round(4).tolist(), res.df
    ([0.0275, -0.005], 3)
    >>> ci = res.confidence_interval(0.95)
    >>> bool(ci.low[0] < res.estimate[0] < ci.high[0])
    True
    """

    statistic: np.ndarray
    pvalue: np.ndarray
    df: int
    estimate: np.ndarray
    std_error: np.ndarray
    constant: np.ndarray
    n: int
    method: str
    alternative: str

    def confidence_interval(self, confidence_level=0.95):
        """The t intervals of the mean differences, one-sided when the tests are.

        Each equals :meth:`PairedTestResult.confidence_interval` of the one
        comparison; NaN where the differences are constant.

        Parameters
        ----------
        confidence_level : float, default=0.95
            The level of each interval on its own; nothing is adjusted for the
            number of comparisons (see :func:`~sklearn_bench.stats.adjust_pvalues`
            for the p-values).

        Returns
        -------
        ConfidenceInterval
            ``low`` and ``high`` arrays of the shape of :attr:`estimate`, and the
            ``confidence_level``.
        """
        level = check_confidence_level(confidence_level)
        alpha = 1 - level
        tail = alpha if self.alternative != "two-sided" else alpha / 2
        q = stats.t.isf(tail, self.df)
        low = self.estimate - q * self.std_error
        high = self.estimate + q * self.std_error
        if self.alternative == "greater":
            high = np.full_like(high, np.inf)
        elif self.alternative == "less":
            low = np.full_like(low, -np.inf)
        return ConfidenceInterval(
            np.where(self.constant, np.nan, low),
            np.where(self.constant, np.nan, high),
            level,
        )


def paired_t_tests(x, y, *, alternative="two-sided", test_train_ratio=None, axis=0):
    """Paired (or corrected resampled) t-tests of many comparisons at once.

    The vectorised t paths of :func:`paired_test`: ``x`` and ``y`` are broadcast
    against each other and the pairs run along ``axis``; every other position
    is one comparison, tested as ``paired_test(x_j, y_j, method="t")`` (or
    ``"corrected_t"`` with ``test_train_ratio``) would test it, with the same
    operations, so each entry equals the one-comparison result to the last bit
    (SciPy's ``ttest_rel(..., axis=...)`` convention). A report that tests the
    best learner against 50 others on one data set makes one call.

    Parameters
    ----------
    x, y : array-like
        Paired performances, broadcastable against each other, e.g. ``x`` of
        shape (n, m) (m learners) and ``y`` of shape (n, 1) (the reference).
        NaN or infinite values raise ``ValueError``.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        As in :func:`paired_test`.
    test_train_ratio : float, default=None
        ``None`` for the paired t-test (Boulesteix et al. 2015, Sec. 3);
        ``n_test/n_train`` of each resample (positive) for the corrected
        resampled t-test of Nadeau & Bengio (2003):
        ``T = mean(d)/sqrt((1/J + n_test/n_train) var(d))``.
    axis : int, default=0
        The axis of the pairs.

    Returns
    -------
    PairedTTestsResult
        Arrays of the broadcast shape without ``axis``.

    See Also
    --------
    paired_test : one pair, with every method, its interval and effect size.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import paired_t_tests, paired_test
    >>> rng = np.random.default_rng(0)
    >>> reference = rng.normal(0.2, 0.02, 10)
    >>> others = reference[:, None] + rng.normal(0.01, 0.01, (10, 3))
    >>> res = paired_t_tests(others, reference[:, None], test_train_ratio=0.25)
    >>> one = paired_test(others[:, 1], reference, method="corrected_t",
    ...                   test_train_ratio=0.25)
    >>> bool(res.pvalue[1] == one.pvalue), res.method
    (True, 'corrected_t')
    """
    d = _paired_differences(x, y, axis)
    check_member(alternative, _ALTERNATIVES, "alternative")
    method, ratio = "t", 0.0
    if test_train_ratio is not None:
        if not real_number(test_train_ratio, "test_train_ratio") > 0:
            raise ValueError(
                "`test_train_ratio` (n_test/n_train) must be a positive number "
                "for the corrected resampled t-test."
            )
        method, ratio = "corrected_t", float(test_train_ratio)
    n = d.shape[-1]
    if n < 2:
        raise ValueError("The t-tests need at least 2 pairs in `x` and `y`.")
    rounded = np.round(d, _DECIMALS)
    constant = np.all(rounded == rounded[..., :1], axis=-1)
    mean = np.mean(d, axis=-1)
    var = np.var(d, axis=-1, ddof=1)
    se = np.sqrt((1 / n + ratio) * var)
    df = n - 1
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = mean / se
    if alternative == "greater":
        pvalue = stats.t.sf(statistic, df)
    elif alternative == "less":
        pvalue = stats.t.cdf(statistic, df)
    else:
        pvalue = np.minimum(1.0, 2 * stats.t.sf(np.abs(statistic), df))
    return PairedTTestsResult(
        statistic=np.where(constant, np.nan, statistic),
        pvalue=np.where(constant, np.nan, pvalue),
        df=df,
        estimate=mean,
        std_error=se,
        constant=constant,
        n=n,
        method=method,
        alternative=alternative,
    )


# ---------------------------------------------------------- correlated t
@dataclass(frozen=True)
class CorrelatedTTestsResult:
    """Result of :func:`bayesian_correlated_t_tests`: one Bayesian correlated
    t-test per comparison.

    Each entry is what :func:`bayesian_correlated_t` gives for that comparison,
    bit for bit.

    Attributes
    ----------
    p_greater, p_rope, p_less : ndarray
        Posterior probabilities that ``x`` is practically larger than ``y``,
        practically equivalent, practically smaller (as
        :class:`BayesianTestResult`).
    rope : float
        Half-width of the region of practical equivalence (``delta``).
    n : int
        Number of pairs (resamples) of each comparison.
    constant : ndarray of bool
        Comparisons whose differences have zero variance: their posterior is a
        point mass at the mean (probabilities 0 or 1), as in
        :func:`bayesian_correlated_t`, which warns for each.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import bayesian_correlated_t_tests
    >>> x = np.array([0.81, 0.84, 0.80, 0.83, 0.85])
    >>> y = np.array([[0.78, 0.81], [0.80, 0.85], [0.79, 0.80], [0.80, 0.82],
    ...               [0.81, 0.86]])
    >>> res = bayesian_correlated_t_tests(x[:, None], y, rho=0.2, delta=0.01)
    >>> res.p_greater.round(4).tolist()
    [0.9642, 0.0497]
    >>> res.decisions(threshold=0.95, greater_is_better=True, labels=("A", ["B", "C"]))
    array(['A', 'undecided'], dtype=object)
    """

    p_greater: np.ndarray
    p_rope: np.ndarray
    p_less: np.ndarray
    rope: float
    n: int
    constant: np.ndarray

    def decisions(self, *, threshold=0.95, greater_is_better, labels=("x", "y")):
        """The name whose posterior probability reaches ``threshold``, per entry.

        :meth:`BayesianTestResult.decision` of each comparison.

        Parameters
        ----------
        threshold : float, default=0.95
            In ``(0.5, 1]``.
        greater_is_better : bool
            Whether a larger score is better: which probability belongs to which
            name.
        labels : tuple of two, default=("x", "y")
            Names of ``x`` and ``y``: each a str, or a sequence of names of the
            shape of the entries (e.g. one per compared learner).

        Returns
        -------
        ndarray of str (object dtype)
            A label, ``"equivalent"`` or ``"undecided"`` per comparison.
        """
        threshold = real_number(threshold, "threshold")
        if not 0.5 < threshold <= 1:
            raise ValueError(f"`threshold` must lie in (0.5, 1]; got {threshold!r}.")
        greater_is_better = check_bool(greater_is_better, "greater_is_better")
        if len(labels) != 2:
            raise ValueError(f"`labels` must hold two names; got {labels!r}.")
        shape = self.p_greater.shape
        first, second = (
            (self.p_greater, self.p_less)
            if greater_is_better
            else (self.p_less, self.p_greater)
        )
        names = [np.broadcast_to(np.asarray(n, dtype=object), shape) for n in labels]
        out = np.full(shape, _UNDECIDED, dtype=object)
        decided = np.zeros(shape, dtype=bool)
        for name, p in ((names[0], first), (_EQUIVALENT, self.p_rope),
                        (names[1], second)):  # fmt: skip
            hit = ~decided & (p >= threshold)
            out[hit] = name[hit] if isinstance(name, np.ndarray) else name
            decided |= hit
        return out


def bayesian_correlated_t_tests(x, y, *, rho, delta=0.0, axis=0):
    """Bayesian correlated t-tests of many comparisons at once.

    The vectorised :func:`bayesian_correlated_t` (Corani & Benavoli 2015):
    ``x`` and ``y`` are broadcast against each other and the resamples run
    along ``axis``; every other position is one comparison, whose differences
    ``x − y`` get the posterior ``t_{n−1}(mean(d), (1/n + rho/(1 − rho))
    var(d))`` of the mean difference, with the same operations, so each entry
    equals the one-comparison test's to the last bit. A report that compares
    the best learner with 50 others on one data set makes one call.

    Parameters
    ----------
    x, y : array-like
        Paired scores of the same ``n`` resamples of one data set,
        broadcastable against each other (e.g. ``x`` of shape (n, 1), the
        reference, and ``y`` of shape (n, m)), n >= 2.
    rho : float
        Correlation of the differences, in ``[0, 1)``: ``n_test / (n_test +
        n_train)`` of one resample (see :func:`bayesian_correlated_t`).
    delta : float, default=0.0
        The smallest difference that matters: the half-width of the region of
        practical equivalence, in the scores' units. ``0`` gives two
        probabilities and ``p_rope = 0``.
    axis : int, default=0
        The axis of the resamples.

    Returns
    -------
    CorrelatedTTestsResult
        Arrays of the broadcast shape without ``axis``.

    See Also
    --------
    bayesian_correlated_t : one pair, with its description and posterior.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import (bayesian_correlated_t,
    ...                                  bayesian_correlated_t_tests)
    >>> rng = np.random.default_rng(0)
    >>> reference = rng.normal(0.8, 0.02, 10)
    >>> others = reference[:, None] - rng.normal(0.01, 0.01, (10, 3))
    >>> res = bayesian_correlated_t_tests(reference[:, None], others, rho=0.1,
    ...                                   delta=0.005)
    >>> one = bayesian_correlated_t(reference, others[:, 2], rho=0.1, delta=0.005,
    ...                             greater_is_better=True)
    >>> bool(res.p_greater[2] == one.p_greater), bool(res.p_rope[2] == one.p_rope)
    (True, True)
    """
    d = _paired_differences(x, y, axis)
    rope = real_number(delta, "delta")
    if not (np.isfinite(rope) and rope >= 0):
        raise ValueError(f"`delta` must be a finite number >= 0; got {delta!r}.")
    rho = real_number(rho, "rho")
    if not (np.isfinite(rho) and 0 <= rho < 1):
        raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
    n = d.shape[-1]
    if n < 2:
        raise ValueError("The correlated t-test needs at least 2 resamples.")
    df = n - 1
    mean = np.mean(d, axis=-1)
    rounded = np.round(d, _DECIMALS)
    constant = np.all(rounded == rounded[..., :1], axis=-1)
    variance = np.where(constant, 0.0, np.var(d, axis=-1, ddof=1))
    scale = np.sqrt((1 / n + rho / (1 - rho)) * variance)
    constant = constant | (scale == 0)
    safe = np.where(constant, 1.0, scale)
    p_greater = stats.t.sf(rope, df, loc=mean, scale=safe)
    p_less = stats.t.cdf(-rope, df, loc=mean, scale=safe)
    p_rope = (
        np.zeros_like(p_greater)
        if rope == 0
        else np.maximum(0.0, 1.0 - p_greater - p_less)
    )
    if constant.any():  # a point mass at the mean, as bayesian_correlated_t
        point = np.round(mean, _DECIMALS)
        if rope == 0:
            greater = (point > 0) + 0.5 * (point == 0)
            less = 1.0 - greater
        else:
            greater = (point > rope).astype(float)
            less = (point < -rope).astype(float)
        p_greater = np.where(constant, greater, p_greater)
        p_less = np.where(constant, less, p_less)
        p_rope = np.where(constant, 1.0 - greater - less, p_rope)
        warnings.warn(
            f"{int(constant.sum())} of {constant.size} comparisons have differences "
            "that are all equal: their posterior is a point mass and their "
            "probabilities are 0 or 1.",
            RuntimeWarning,
            stacklevel=2,
        )
    return CorrelatedTTestsResult(
        p_greater=p_greater,
        p_rope=p_rope,
        p_less=p_less,
        rope=rope,
        n=n,
        constant=constant,
    )
