"""Paired two-learner tests: t, Wilcoxon signed-rank, sign, permutation, corrected t.

All tests work on the differences ``d = x − y`` (SciPy's convention): with
``alternative="greater"`` the alternative is that x tends to be larger than y.
"""

import functools
import warnings
from dataclasses import dataclass, field, replace

import numpy as np
from scipy import stats

from .._validation import (
    check_confidence_level,
    check_member,
    check_positive_int,
)
from .._validation import check_random_state as _as_generator
from ._bootstrap_ci import bootstrap_ci
from ._common import (
    _DECIMALS,
    ConfidenceInterval,
    _check_paired,
    _scalar,
    monte_carlo_pvalue,
    real_array,
    real_number,
)
from ._effect_size import (
    EffectSizeResult,
    _cohens_dz,
    _rank_biserial,
    _sign_dominance,
)
from ._mcmc import _ranks

_METHODS = ("t", "wilcoxon", "sign", "permutation", "corrected_t", "5x2cv", "5x2cv_f")
_ZERO_METHODS = ("demsar", "wilcox", "pratt", "zsplit")
_ALTERNATIVES = ("two-sided", "less", "greater")
_EXACT_ENUMERATION_MAX_N = 16  # 2**16 sign vectors
# scipy.stats.wilcoxon's method="auto": the exact signed-rank distribution up to
# 50 pairs without zeros or ties; with them, the exact distribution of the sign
# flips up to 13 (2**13 < its 9999 permutations, all enumerated)
_EXACT_MAX_N = 50
_CONDITIONAL_MAX_N = 13
_BATCH_ELEMENTS = 2_000_000  # resamples x pairs per batch of the permutation test


# --------------------------------------------------------------------------- result
@dataclass(frozen=True)
class PairedTestResult:
    """Result of :func:`paired_test` and :func:`mcnemar_test`.

    Attributes
    ----------
    statistic : float
        Test statistic (see :func:`paired_test` for each method's).
    pvalue : float
        P-value for ``alternative``.
    df : float or None
        Degrees of freedom of the t, F and χ² tests; ``None`` for the others.
    estimate : float
        Mean of ``x − y`` (``"t"``, ``"corrected_t"``, ``"permutation"``, 5×2cv
        F), the Hodges–Lehmann pseudo-median (``"wilcoxon"``), the median
        (``"sign"``), ``p_11`` (5×2cv t), ``(b − c)/n`` (McNemar's).
    n : int
        Number of pairs the statistic uses (after any zeros were dropped; the
        discordant cases for McNemar's).
    method : str
        ``"t"``, ``"wilcoxon-<zero_method>"``, ``"sign"``, ``"permutation"``,
        ``"corrected_t"``, ``"5x2cv"``, ``"5x2cv_f"`` or ``"mcnemar-<form>"``.
    alternative : str
    null_hypothesis : str
        The null hypothesis in words, e.g. ``"H0: mean of x − y >= 0"``.
    pvalue_standard_error : float
        Monte Carlo standard error of ``pvalue``; 0 for exact and analytic ones.
    n_dropped : int
        Units a :class:`~sklearn_bench.BenchmarkResult` left out before the test
        because a task failed or is missing; 0 for arrays passed directly.
    details : dict
        Method-specific quantities (``r_plus``, ``r_minus``, ``z``, ``wins``, ...).

    Examples
    --------
    >>> from sklearn_bench.stats import paired_test
    >>> res = paired_test([0.21, 0.30, 0.25, 0.18], [0.25, 0.36, 0.27, 0.22],
    ...                   alternative="less", labels=("e(A)", "e(B)"))
    >>> res.null_hypothesis
    'H0: mean of e(A) − e(B) >= 0'
    >>> round(res.estimate, 3), round(res.confidence_interval().high, 4)
    (-0.04, -0.0208)
    """

    statistic: float
    pvalue: float
    df: float | None
    estimate: float
    n: int
    method: str
    alternative: str
    null_hypothesis: str
    pvalue_standard_error: float = 0.0
    n_dropped: int = 0
    details: dict = field(default_factory=dict, repr=False, compare=False)
    _differences: np.ndarray | None = field(default=None, repr=False, compare=False)
    _std_error: float | None = field(default=None, repr=False, compare=False)
    _random_state: object = field(default=None, repr=False, compare=False)
    _interval: object = field(default=None, repr=False, compare=False)

    def confidence_interval(self, confidence_level=0.95):
        """Confidence interval for the effect, one-sided when the test is.

        - ``"t"``: the t-interval of the mean difference (R's ``t.test``).
        - ``"corrected_t"``: mean ± ``t_{J−1}`` × Nadeau–Bengio standard error.
        - ``"5x2cv"``: ``p_11 ± t_5`` × Dietterich's standard error;
          ``"5x2cv_f"`` has none (``ValueError``).
        - McNemar's: the Quesenberry–Hurst interval of err(A) − err(B)
          (:func:`mcnemar_test`, which needs the test-set size ``n``).
        - ``"wilcoxon"``: the Hodges–Lehmann (Tukey) interval, order statistics
          of the Walsh averages at the quantile of the test's signed-rank
          distribution (R's ``wilcox.test(conf.int = TRUE)``), on the test's
          differences.
        - ``"sign"``: order statistics ``[d_(k), d_(n−k+1)]`` for the median,
          from the Binomial(n, 1/2) quantile.
        - ``"permutation"``: a BCa bootstrap interval of the mean difference
          (:func:`bootstrap_ci`, the test's ``random_state``), not a test
          inversion.

        The rank intervals (``"wilcoxon"`` with n <= 50, ``"sign"``) take only
        the levels of their discrete null distributions: the smallest one at or
        above the level asked for, returned as ``confidence_level``; when even
        ``[min d, max d]`` falls short, the interval is the whole line with
        level 1 and a warning. A batch gives arrays of bounds (NaN for t-tests
        of constant differences; an array of achieved levels for Wilcoxon
        tests where they differ).

        Parameters
        ----------
        confidence_level : float, default=0.95
            The level asked for.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)`` with the achieved level as ``confidence_level``.

        Examples
        --------
        >>> import warnings
        >>> from sklearn_bench.stats import paired_test
        >>> d = [0.021, 0.03, 0.012, 0.05, 0.043, 0.018, 0.06]
        >>> ci = paired_test(d, [0] * 7, method="wilcoxon").confidence_interval()
        >>> round(ci.low, 4), round(ci.high, 4), round(ci.confidence_level, 4)
        (0.0165, 0.0515, 0.9531)
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     res = paired_test(d[:4], [0] * 4, method="wilcoxon")
        ...     ci = res.confidence_interval()
        >>> ci
        ConfidenceInterval(low=-inf, high=inf, confidence_level=1.0)
        """
        level = check_confidence_level(confidence_level)
        if self._interval is not None:  # McNemar's
            return self._interval(level)
        alpha = 1 - level
        one_sided = self.alternative != "two-sided"
        tail = alpha if one_sided else alpha / 2
        d = self._differences
        if self.method == "5x2cv_f":
            raise ValueError(
                "The combined 5×2cv F-test has no confidence interval (its "
                "statistic has no direction); use method='5x2cv' or 'corrected_t'."
            )
        achieved = level
        if self.method in ("t", "corrected_t", "5x2cv"):
            q = stats.t.isf(tail, self.df)
            low = self.estimate - q * self._std_error
            high = self.estimate + q * self._std_error
        elif isinstance(d, tuple):  # a batch of Wilcoxon tests: rows of one length
            low, high, got = np.empty(len(d)), np.empty(len(d)), np.empty(len(d))
            sizes = np.array([row.size for row in d])
            for size in np.unique(sizes):  # at once, each row as it alone gives
                at = np.flatnonzero(sizes == size)
                rows = np.stack([d[j] for j in at]).reshape(at.size, size)
                found = _hodges_lehmann(rows, tail, estimate=False)
                low[at], high[at], got[at] = found[1:]
            if (np.isinf(low) & np.isinf(high)).any():
                warnings.warn(
                    "Some comparisons have too few differences for a finite "
                    f"wilcoxon interval at level {level:g}; theirs is the whole "
                    "line (level 1).",
                    UserWarning,
                    stacklevel=2,
                )
            shape = np.shape(self.pvalue)
            low, high, got = low.reshape(shape), high.reshape(shape), got.reshape(shape)
            achieved = 1 - (got if one_sided else 2 * got)
        elif self.method.startswith("wilcoxon") or self.method == "sign":
            if self.method == "sign":
                low, high, got = _median_interval(d, tail)
            else:
                low, high, got = _hodges_lehmann(d, tail, estimate=False)[1:]
            achieved = 1 - (got if one_sided else 2 * got)
            if not np.isfinite(low) and not np.isfinite(high):
                edge = 0.5**d.size  # the tail of [min d, max d], the widest
                widest = 1 - (edge if one_sided else 2 * edge)
                warnings.warn(
                    f"With n = {d.size} differences no finite {self.method} "
                    f"interval has confidence level {level:g} or more (the widest, "
                    f"[min, max], has {widest:.4g}); the interval is the whole "
                    f"line. The test cannot reach p <= {alpha:g} either.",
                    UserWarning,
                    stacklevel=2,
                )
        else:  # permutation
            return bootstrap_ci(
                d,
                method="BCa",
                confidence_level=level,
                alternative=self.alternative,
                random_state=self._random_state,
            )
        if self.alternative == "greater":  # (NaN stays NaN in a batch)
            high = np.where(np.isnan(low), np.nan, np.inf)
        elif self.alternative == "less":
            low = np.where(np.isnan(high), np.nan, -np.inf)
        if np.all(achieved == np.ravel(achieved)[0]):  # one level for a whole batch
            achieved = float(np.ravel(achieved)[0])
        return ConfidenceInterval(_scalar(low), _scalar(high), achieved)

    @property
    def effect_size(self):
        """The standardised effect size that goes with this test, beside the raw
        ``estimate`` and its :meth:`confidence_interval`, never instead of them.

        - ``"t"``, ``"permutation"``: Cohen's d_z
          (:func:`~sklearn_bench.stats.effect_size`) with its noncentral-t
          interval and Cohen's (1988) labels.
        - ``"corrected_t"``: d_z without an interval (its resamples overlap).
        - ``"wilcoxon"``: the matched-pairs rank-biserial correlation of the
          test's signed-rank sums (Kerby 2014).
        - ``"sign"``: ``(wins − losses) / n``, the sign dominance.

        Returns
        -------
        EffectSizeResult

        Examples
        --------
        >>> from sklearn_bench.stats import paired_test
        >>> x = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
        >>> y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]
        >>> es = paired_test(x, y).effect_size
        >>> es.name, round(es.estimate, 3), es.magnitude
        ('cohens_dz', 1.411, 'large')
        """
        d = self._differences
        if d is None:
            raise ValueError(f"The {self.method} test has no standardised effect size.")
        if isinstance(d, tuple) or d.ndim > 1:
            raise ValueError("Effect sizes are for one comparison, not a batch.")
        if self.method.startswith("wilcoxon"):
            r = self.details
            res = _rank_biserial(r["r_plus"], r["r_minus"], r["n_used"])
            return replace(res, alternative=self.alternative)
        if self.method == "sign":
            return _sign_dominance(d, self.alternative)
        res = _cohens_dz(d, self.alternative)
        return replace(res, _interval=None) if self.method == "corrected_t" else res

    def to_dict(self, confidence_level=0.95):
        """The result as a flat ``dict``, interval first (it matters most), the
        :attr:`effect_size` after the p-value (``effect_size``,
        ``effect_size_estimate``, ``effect_size_ci_low``, ..., NaN where none)."""
        check_confidence_level(confidence_level)
        try:
            ci = self.confidence_interval(confidence_level)
        except ValueError:  # no interval (the 5x2cv F, McNemar without `n`)
            ci = ConfidenceInterval(np.nan, np.nan)
        try:
            effect = self.effect_size.to_dict(confidence_level)
        except ValueError:  # one pair, a batch, McNemar's: none
            effect = EffectSizeResult(None, np.nan, 0, None, None).to_dict()
        return {
            "method": self.method,
            "alternative": self.alternative,
            "n": self.n,
            "estimate": self.estimate,
            "ci_low": ci.low,
            "ci_high": ci.high,
            "confidence_level": confidence_level,
            "statistic": self.statistic,
            "df": self.df,
            "pvalue": self.pvalue,
            "pvalue_standard_error": self.pvalue_standard_error,
            "null_hypothesis": self.null_hypothesis,
            **effect,
        }

    def to_frame(self, confidence_level=0.95):
        """A :class:`pandas.DataFrame` of :meth:`to_dict`: one row, or one per
        comparison of a batch (without effect sizes)."""
        import pandas as pd

        index = np.arange(np.size(self.pvalue))
        return pd.DataFrame(self.to_dict(confidence_level), index=index)


# ----------------------------------------------------------------------- validation
_NULL_TEXT = {
    "t": "H0: mean of {a} − {b} {op} 0",
    "corrected_t": "H0: expected {a} − {b} over resamples {op} 0",
    "wilcoxon": "H0: {a} − {b} is symmetric about a centre {op} 0",
    "sign": "H0: P({a} > {b}) {op} P({a} < {b})",
    "permutation": "H0: {a} − {b} is symmetric about 0 (sign flips are exchangeable)",
}
_OPERATOR = {"two-sided": "=", "greater": "<=", "less": ">="}


def _constant_differences_error(d, labels):
    """The ValueError of a t-test on differences without spread (as R's
    ``t.test``: "data are essentially constant")."""
    a, b = labels
    value = float(np.round(d[0], _DECIMALS))
    if value == 0:
        what = f"all zero ({a} equals {b} in all {d.size} pairs)"
        exact = "p = 1"
    else:
        what = f"constant ({value:.6g} in all {d.size} pairs)"
        exact = f"two-sided p = 2^(1 - n) = {2.0 ** (1 - d.size):.3g}"
    return ValueError(
        f"The differences {a} − {b} are {what}: their standard deviation is 0, "
        "so the t statistic and its interval are undefined (R's t.test: 'data "
        "are essentially constant'). Use method='sign', 'wilcoxon' or "
        f"'permutation', which are exact here ({exact})."
    )


# ------------------------------------------------------------------------ t-tests
def _t_test(d, alternative, ratio, labels):
    """The paired t-test of the rows of ``d`` (:func:`scipy.stats.ttest_rel`),
    Nadeau & Bengio's correction for ``ratio = n_test/n_train > 0``; constant
    differences raise for one comparison, are NaN in a batch."""
    n = d.shape[-1]
    if n < 2:
        raise ValueError("The t-tests need at least 2 pairs in `x` and `y`.")
    rounded = np.round(d, _DECIMALS)
    constant = np.all(rounded == rounded[..., :1], axis=-1)
    if d.ndim == 1 and constant:
        raise _constant_differences_error(d, labels)
    with warnings.catch_warnings(), np.errstate(divide="ignore", invalid="ignore"):
        warnings.simplefilter("ignore", RuntimeWarning)  # constant rows of a batch
        res = stats.ttest_1samp(d, 0.0, axis=-1, alternative=alternative)
    statistic, pvalue = res.statistic, res.pvalue  # = ttest_rel(x, y)
    if np.any(ratio):
        # se² = (1/J + n_test/n_train) var(d): the t statistic over sqrt(1 + J ratio)
        statistic = statistic / np.sqrt(1 + n * ratio)
        pvalue = _t_pvalue(statistic, n - 1, alternative)
    mean = np.mean(d, axis=-1)
    variance = np.var(d, axis=-1, ddof=1)
    se = np.where(constant, np.nan, np.sqrt((1 / n + ratio) * variance))
    nan = np.where(constant, np.nan, 1.0)
    return statistic * nan, pvalue * nan, n - 1, mean, se, variance


def _t_pvalue(statistic, df, alternative):
    """P-value of a t statistic (scipy's rule: two-sided ``2 sf(|t|)``)."""
    if alternative == "greater":
        return stats.t.sf(statistic, df)
    if alternative == "less":
        return stats.t.cdf(statistic, df)
    return np.minimum(1.0, 2 * stats.t.sf(np.abs(statistic), df))


# ----------------------------------------------------------------- signed ranks
def _signrank_counts(doubled):
    """Counts of the ``2**n`` sign vectors by ``sum_i doubled_i [s_i = +]``, a
    sum of doubled (integer) ranks, indexed by that sum (exact for n <= 50)."""
    counts = np.zeros(int(doubled.sum()) + 1)
    counts[0] = 1.0
    top = 0
    for r in doubled:
        counts[r : top + r + 1] = counts[r : top + r + 1] + counts[: top + 1].copy()
        top += r
    return counts


def _signrank_cdf_table(n):
    """P(V <= v), v = 0..n(n+1)/2, of the signed-rank statistic without ties."""
    return np.cumsum(_signrank_counts(2 * np.arange(1, n + 1))[::2]) / 2.0**n


def _signrank_conditional_pvalue(ranks, positive, alternative):
    """Exact p-value of ``R+`` given the (mid-)ranks of the nonzero differences:
    the distribution of its ``2**n`` sign flips (scipy's ``PermutationMethod``
    of :func:`scipy.stats.wilcoxon`, by convolution instead of enumeration),
    two-sided ``2 min(P(R+* <= R+), P(R+* >= R+))`` as scipy. Zeros keep their
    sign (none), so their share of ``R+`` is a constant and left out."""
    doubled = np.rint(2 * ranks).astype(np.int64)
    counts = _signrank_counts(doubled)
    observed = int(doubled[positive].sum())
    less = counts[: observed + 1].sum() / counts.sum()
    greater = counts[observed:].sum() / counts.sum()
    if alternative == "less":
        return float(less)
    if alternative == "greater":
        return float(greater)
    return float(min(1.0, 2 * min(less, greater)))


@functools.lru_cache(maxsize=64)
def _signrank_quantile(p, n):
    """R's ``qsignrank(p, n)``: smallest q with P(V <= q) >= p (with R's fuzz)."""
    if n > _EXACT_MAX_N:
        m = n * (n + 1) / 2
        sd = np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        return int(np.clip(np.floor(m / 2 + stats.norm.ppf(p) * sd + 0.5), 0, m))
    cdf = _signrank_cdf_table(n)
    return int(np.searchsorted(cdf, p - 10 * np.finfo(float).eps, side="left"))


def _walsh_averages(d, *, sort=True):
    """The Walsh averages ``(d_i + d_j)/2, i <= j``, sorted unless ``sort`` is
    False (for order statistics by selection, or the median)."""
    i, j = _upper_pairs(d.size)
    w = (d[i] + d[j]) / 2
    return np.sort(w) if sort else w


@functools.lru_cache(maxsize=4)
def _upper_pairs(n):
    """``np.triu_indices(n)``, read-only, kept for the next comparison of as
    many data sets (a report runs hundreds)."""
    i, j = np.triu_indices(n)
    i.flags.writeable = j.flags.writeable = False
    return i, j


# From this many differences on, order statistics of the Walsh averages are found
# from the sorted differences (_walsh_select) instead of all n(n + 1)/2 averages.
_WALSH_SELECT_FROM = 100
_WALSH_SAMPLE = 4096  # Walsh averages sampled to bracket each order statistic


def _walsh_order_statistics(d, ks):
    """``np.sort(_walsh_averages(d))[ks]``, the same floats, without forming
    every Walsh average, of each row of ``d`` of shape (rows, n): a fixed sample
    of the averages guesses each rank; the guess's rank among all averages says
    on which side of it the rank lies and how far, and the sample's value past
    that closes the bracket for :func:`_walsh_select`. NaN rows where that
    cannot be shown to give a partition's floats (a missed bracket, a zero order
    statistic with a negative zero in ``d``); the caller partitions there."""
    n, out = d.shape[1], np.full((len(d), len(ks)), np.nan)
    if n < _WALSH_SELECT_FROM:
        return out
    ds = np.sort(d, axis=1)
    i, j = _walsh_sample_pairs(n)
    sample = np.sort((np.take(ds, i, axis=1) + np.take(ds, j, axis=1)) / 2, axis=1)
    m, size, cols = n * (n + 1) // 2, sample.shape[1], np.arange(n)
    # each column's run of equal differences: [run_start, run_stop)
    new = np.ones(ds.shape, dtype=bool)
    new[:, 1:] = ds[:, 1:] != ds[:, :-1]
    last = np.ones(ds.shape, dtype=bool)
    last[:, :-1] = new[:, 1:]
    run_start = np.maximum.accumulate(np.where(new, cols, 0), axis=1)
    run_stop = np.minimum.accumulate(np.where(last, cols + 1, n)[:, ::-1], axis=1)
    runs = np.stack([run_start, run_stop[:, ::-1]], axis=1)
    for a, k in enumerate(ks):
        todo = np.flatnonzero(np.isnan(out[:, a]))  # not found with an earlier rank
        if not todo.size:
            continue
        rows, guess = ds[todo], sample[todo, min(int((k + 0.5) / m * size), size - 1)]
        columns = _walsh_columns(rows, guess, "left", runs[todo])
        # the sample's values below the guess stand for the averages below it:
        # rank k is about `shift` positions on, give or take sqrt(|shift|); the
        # bracket reaches 4 of those and a margin past it
        shift = (k - (columns - cols).sum(axis=1)) * size / m
        at = _sample_positions(sample, todo, guess) + shift
        spread = 4 * np.sqrt(np.abs(shift) + 1) + 4
        up = shift >= 0  # the guess is the bracket's low end, else its high end
        far = np.where(up, np.ceil(at + spread), np.floor(at - spread)).astype(int)
        bound = sample[todo, np.clip(far, 0, size - 1)]
        bound = np.where(far < 0, -np.inf, np.where(far < size, bound, np.inf))
        start, stop = columns.copy(), columns.copy()
        stop[up] = _walsh_columns(rows[up], bound[up], "right", runs[todo[up]])
        start[~up] = _walsh_columns(rows[~up], bound[~up], "left", runs[todo[~up]])
        found = _walsh_select(rows, ks, start, stop)
        out[todo] = np.where(np.isnan(out[todo]), found, out[todo])
    zero = (out == 0).any(axis=1) & np.any(np.signbit(d) & (d == 0), axis=1)
    out[zero | np.isnan(out).any(axis=1)] = np.nan
    return out


@functools.lru_cache(maxsize=4)
def _walsh_sample_pairs(n):
    """A fixed pseudo-random sample of ``_WALSH_SAMPLE`` of the ``(i, j)``,
    ``i <= j``, read-only (the same for every comparison of ``n`` differences)."""
    i, j = _upper_pairs(n)
    m = i.size
    if m > _WALSH_SAMPLE:
        at = np.random.default_rng(20240501).integers(0, m, _WALSH_SAMPLE)
        i, j = i[at], j[at]
        i.flags.writeable = j.flags.writeable = False
    return i, j


def _sample_positions(sample, todo, values):
    """The number of values of each row ``r`` of ``todo`` of the sorted
    ``sample`` below ``values`` (its ``np.searchsorted``)."""
    rows = zip((sample[r] for r in todo), values, strict=True)
    return np.array([np.searchsorted(row, v) for row, v in rows], dtype=int)


def _walsh_columns(ds, target, side, runs):
    """Per row ``i`` of each sorted ``ds[r]``, the first column ``j >= i`` whose
    Walsh average is at or above (``"left"``; ``"right"``: above) ``target[r]``:
    a ``searchsorted`` of ``2 target − ds_i``, moved over the run of equal
    differences (``runs``: their columns' run starts and stops) that rounding
    put on the wrong side. One run: differences rounded to 10 decimals are much
    further apart than rounding moves (where not, :func:`_walsh_select` finds
    out)."""
    n, target = ds.shape[1], np.asarray(target)[:, None]
    cols = np.arange(n)
    rows = zip(ds, 2 * target - ds, strict=True)
    found = [np.searchsorted(row, values, side) for row, values in rows]
    col = np.maximum(np.reshape(found, ds.shape).astype(int), cols)

    def near(j):  # the averages of columns j are on target's near side
        w = (ds + np.take_along_axis(ds, j, axis=1)) / 2
        return w < target if side == "left" else w <= target

    r, i = np.nonzero((col > cols) & ~near(col - 1))  # back to the run's start
    col[r, i] = np.maximum(runs[r, 0, col[r, i] - 1], i)
    r, i = np.nonzero(near(np.minimum(col, n - 1)) & (col < n))  # on past the run
    col[r, i] = runs[r, 1, col[r, i]]
    return col


def _walsh_select(ds, ks, start, stop):
    """The ranks ``ks`` (0-based) of the Walsh averages of each sorted ``ds[r]``
    that its bracket holds, NaN for the others: columns ``start`` to ``stop`` of
    each row ``i`` (:func:`_walsh_columns`) are in it, those left of it below,
    those right of it above. A rank selected among those in is kept where no
    average below is larger and none above smaller: then it is the partition's
    float."""
    rows, n = ds.shape
    cols = np.arange(n)
    ranks = np.asarray(ks) - (start - cols).sum(axis=1)[:, None]
    # the averages in, (r, i) after (r, i): ds[r, i] with ds[r, j] at flat r n + j
    length, flat = (stop - start).ravel(), ds.ravel()
    at = (start + n * np.arange(rows)[:, None]).ravel() + length - length.cumsum()
    second = np.arange(length.sum()) + np.repeat(at, length)
    inside = (np.repeat(flat, length) + flat[second]) / 2
    ends = (stop - start).sum(axis=1).cumsum()
    held = (ranks >= 0) & (ranks < np.diff(ends, prepend=0)[:, None])
    out = np.full(ranks.shape, np.nan)
    for r in np.flatnonzero(held.any(axis=1)).tolist():
        w, kth = inside[ends[r - 1] if r else 0 : ends[r]], ranks[r, held[r]]
        out[r, held[r]] = np.partition(w, kth)[kth]
    left = np.take_along_axis(ds, start - 1, axis=1)  # the largest below, per row i
    left = np.where(start > cols, (ds + left) / 2, -np.inf).max(axis=1)
    right = np.take_along_axis(ds, np.minimum(stop, n - 1), axis=1)
    right = np.where(stop < n, (ds + right) / 2, np.inf).min(axis=1)
    return np.where((left[:, None] <= out) & (out <= right[:, None]), out, np.nan)


def _hodges_lehmann(d, tail=None, *, estimate=True):
    """``(estimate, low, high, achieved_tail)`` of ``d`` (each row of a batch),
    from one selection of its Walsh averages: their median as ``np.median`` takes
    it (NaN without ``estimate``) and, for a ``tail``, the order statistics
    ``[w_(q), w_(m−q+1)]``, ``q − 1`` the largest ``k`` with ``P(V <= k) <= tail``
    under the exact signed-rank null (n <= 50; else the normal approximation,
    ``achieved_tail = tail``), as R's ``wilcox.test(conf.int = TRUE)``; the whole
    line where no finite interval reaches the level (NaN without ``tail``)."""
    n = d.shape[-1]
    if n == 0:  # every difference was a zero and dropped: the point 0
        return 0.0, 0.0, 0.0, 0.0
    m, nan = n * (n + 1) // 2, np.full(d.shape[:-1], np.nan)
    ks = ([m // 2 - 1, m // 2] if m % 2 == 0 else [m // 2]) if estimate else []
    q, achieved = 0, np.nan
    if tail is not None and n > _EXACT_MAX_N:
        q, achieved = max(_signrank_quantile(tail, n), 1), tail
    elif tail is not None:
        cdf = _signrank_cdf_table(n)
        # number of k with P(V <= k) <= tail (with R's fuzz); q = that number
        q = int(np.searchsorted(cdf, tail + 10 * np.finfo(float).eps, side="right"))
        achieved = float(cdf[q - 1]) if q else 0.0
    found = _walsh_ranks(d, ks, [q - 1, m - q] if q else [])
    median = np.mean(found[: len(ks)], axis=0) if estimate else nan
    if q == 0:  # no tail, or no finite interval at the level: the whole line
        whole = (nan, nan, nan) if tail is None else (-np.inf, np.inf, 0.0)
        return median, *whole
    return median, found[-2], found[-1], achieved


def _walsh_ranks(d, *groups):
    """``np.sort(_walsh_averages(d))[ks]`` of the lists ``ks`` of ``groups``, one
    after the other, by :func:`_walsh_order_statistics` where it applies, else
    by one ``np.partition`` per list (which places the ties of ±0 as before); a
    batch ``d`` of shape (rows, n) gives shape (len(ks), rows)."""
    rows, ks = np.atleast_2d(d), [k for group in groups for k in group]
    found = _walsh_order_statistics(rows, ks)
    for r in np.flatnonzero(np.isnan(found).any(axis=1)):
        w = _walsh_averages(rows[r], sort=False)
        found[r] = np.concatenate([np.partition(w, ks)[ks] for ks in groups if len(ks)])
    return found[0] if d.ndim == 1 else found.T


def _median_interval(d, tail):
    """Order statistics ``[d_(k+1), d_(n−k)]`` for the median and the tail they
    achieve, ``P(B <= k)`` with ``B ~ Binomial(n, 1/2)`` (the whole line and 0
    when no ``k`` has ``P(B <= k) <= tail``)."""
    n = d.size
    ds = np.sort(d)
    k = int(stats.binom.ppf(tail, n, 0.5))  # P(B <= k) >= tail
    if stats.binom.cdf(k, n, 0.5) > tail * (1 + 1e-12):
        k -= 1
    # now P(B <= k) <= tail; the interval [d_(k+1), d_(n-k)] (1-based)
    if k < 0:
        return -np.inf, np.inf, 0.0
    return ds[k], ds[n - k - 1], float(stats.binom.cdf(k, n, 0.5))


def _wilcoxon(d_raw, alternative, zero_method, exact, correction, tail=None):
    """The signed-rank test: Demšar's zero rule, then :func:`scipy.stats.wilcoxon`
    with scipy's null distribution; ``(statistic, pvalue, estimate, used,
    details, interval)``, arrays for a batch (each row as it alone gives);
    ``interval``: :func:`_hodges_lehmann`'s ``(low, high, achieved_tail)`` at
    ``tail``, found with the estimate."""
    prepared = [
        _wilcoxon_used(d, zero_method) for d in d_raw.reshape(-1, d_raw.shape[-1])
    ]
    sizes = np.array([used.size for _, used, _ in prepared])
    ranks, estimates = {}, {}  # the rows of one length at once
    for size in np.unique(sizes):
        at = np.flatnonzero(sizes == size)
        used = np.stack([prepared[j][1] for j in at]).reshape(at.size, size)
        block = _ranks(np.abs(used.T)) if size else np.abs(used.T)  # of |used|
        found = np.broadcast_arrays(*_hodges_lehmann(used, tail), at)[:4]
        for q, j in enumerate(at):
            ranks[j] = np.ascontiguousarray(block[:, q])
            estimates[j] = [float(v[q]) for v in found]  # estimate, interval
    rows = [
        _wilcoxon_row(*prep, ranks[j], alternative, zero_method, exact)
        | {"estimate": estimates[j][0], "interval": estimates[j][1:]}
        for j, prep in enumerate(prepared)
    ]
    groups = {}  # rows left to scipy, by (length, method)
    for at, row in enumerate(rows):
        if row["method"] is not None:
            groups.setdefault((row["d"].size, row["method"]), []).append(at)
    for (_, how), members in groups.items():
        d = np.stack([rows[at]["d"] for at in members])
        res = stats.wilcoxon(
            d if len(members) > 1 else d[0],
            zero_method="zsplit" if zero_method == "demsar" else zero_method,
            correction=correction,
            alternative=alternative,
            method=how,
            axis=-1,
        )
        for q, at in enumerate(members):
            z = np.nan if how == "exact" else float(np.ravel(res.zstatistic)[q])
            rows[at]["details"].update(z=z, exact=how == "exact")
            rows[at]["pvalue"] = float(np.ravel(res.pvalue)[q])
    if d_raw.ndim == 1:
        keys = ("statistic", "pvalue", "estimate", "used", "details", "interval")
        return tuple(rows[0][key] for key in keys)
    shape = d_raw.shape[:-1]
    out = [
        np.array([row[key] for row in rows]).reshape(shape)
        for key in ("statistic", "pvalue", "estimate")
    ]
    details = {
        key: np.array([row["details"][key] for row in rows]).reshape(shape)
        for key in rows[0]["details"]
    }
    interval = np.array([row["interval"] for row in rows]).T.reshape(3, *shape)
    return (*out, tuple(row["used"] for row in rows), details, tuple(interval))


def _wilcoxon_used(d_raw, zero_method):
    """``(d, used, details)`` of one comparison: the rounded differences after
    Demšar's zero rule, those the signed ranks are taken of, the zero counts."""
    d = np.round(d_raw, _DECIMALS)
    n_zero = int(np.count_nonzero(d == 0))
    details = {"n_zero_differences": n_zero}
    if zero_method == "demsar":
        if n_zero % 2 == 1:
            d = np.delete(d, np.flatnonzero(d == 0)[0])
        details["one_zero_dropped"] = n_zero % 2 == 1
    return d, (d[d != 0] if zero_method == "wilcox" else d), details


def _wilcoxon_row(d, used, details, ranks, alternative, zero_method, exact):
    """One comparison of :func:`_wilcoxon` (``ranks``: those of ``|used|``,
    ties averaged): its statistic, estimate and details, and its p-value, or the
    ``method`` scipy is to find it with (and ``d``)."""
    n = used.size
    half_zeros = (
        ranks[used == 0].sum() / 2 if zero_method in ("demsar", "zsplit") else 0
    )
    r_plus = float(ranks[used > 0].sum() + half_zeros)
    r_minus = float(ranks[used < 0].sum() + half_zeros)
    details.update(r_plus=r_plus, r_minus=r_minus, n_used=n)
    v = zero_method == "wilcox" or alternative != "two-sided"  # R's V = R+
    row = {"statistic": r_plus if v else min(r_plus, r_minus), "used": used}
    row.update(details=details, d=d, method=None)
    if not np.any(used):  # no difference, or all zero: every arrangement ties
        details.update(z=0.0, exact=False)
        return {**row, "pvalue": 1.0}
    # scipy's method="auto", but for exact=: the exact null distribution without
    # zeros and ties (n <= 50); with them, the exact distribution of the sign
    # flips given the ranks (n <= 13, or every |d| tied: coin's exact test, the
    # sign test's binomial); else the normal approximation.
    tied = np.all(used) and np.ptp(np.abs(used)) == 0
    small = d.size <= _CONDITIONAL_MAX_N
    # (whether zeros or ties matter: not for n > 50 without exact=True or ties)
    clean = exact is not False and (exact or tied or d.size <= _EXACT_MAX_N)
    clean = clean and np.all(d) and np.unique(np.abs(d)).size == d.size
    if exact is not False and not clean and (exact or tied or small):
        nonzero = used != 0
        pvalue = _signrank_conditional_pvalue(
            ranks[nonzero], used[nonzero] > 0, alternative
        )
        details.update(z=np.nan, exact=True)
        return {**row, "pvalue": pvalue}
    use_exact = exact is not False and clean and (exact or d.size <= _EXACT_MAX_N)
    return {**row, "method": "exact" if use_exact else "asymptotic"}


# ---------------------------------------------------------------------- sign test
def _binomial_pvalue(w, n, alternative):
    """Exact p of ``w`` successes in Binomial(n, 1/2) (R's ``binom.test`` rule)."""
    if n == 0:
        return 1.0
    if alternative == "greater":
        return float(stats.binom.sf(w - 1, n, 0.5))
    if alternative == "less":
        return float(stats.binom.cdf(w, n, 0.5))
    return float(min(1.0, 2 * stats.binom.cdf(min(w, n - w), n, 0.5)))


def _sign_test(d_raw, alternative):
    d = np.round(d_raw, _DECIMALS)
    wins, losses, ties = (int(np.count_nonzero(c)) for c in (d > 0, d < 0, d == 0))
    w, losses_adj = wins + ties // 2, losses + ties // 2
    n = w + losses_adj
    details = {
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "wins_adjusted": w,
        "losses_adjusted": losses_adj,
        "tie_dropped": ties % 2 == 1,
        "z": (w - n / 2) / (np.sqrt(n) / 2) if n else np.nan,
    }
    pvalue = _binomial_pvalue(w, n, alternative)
    return float(w), pvalue, float(np.median(d)), n, d, details


# --------------------------------------------------------------- permutation test
def _permutation_test(d, alternative, n_resamples, exact, random_state):
    """The sign-flip test of ``S = sum(d)``: the exact p of
    :func:`scipy.stats.permutation_test` (``permutation_type="samples"``), or its
    Monte Carlo counterpart, vectorised on random bits (25-65 times faster than
    scipy's, ``benchmarks/permutation_speed.py``)."""
    n = d.size
    abs_d = np.abs(d)
    observed = float(d.sum())
    gamma = 100 * np.finfo(float).eps * max(float(abs_d.sum()), 1e-300)
    batch = max(1, _BATCH_ELEMENTS // n)

    def count_extreme(null):
        if alternative == "greater":
            return int(np.count_nonzero(null >= observed - gamma))
        if alternative == "less":
            return int(np.count_nonzero(null <= observed + gamma))
        return int(np.count_nonzero(np.abs(null) >= abs(observed) - gamma))

    total = abs_d.sum()
    if exact is not False and np.ptp(abs_d) <= gamma:
        # Constant |d| (constant differences, or all zero): S* = |d_1| (2P - n)
        # with P ~ Binomial(n, 1/2) positive signs, exact for any n.
        if total == 0:
            return observed, 1.0, 0.0, {"exact": True, "n_extreme": None}
        n_pos = int(np.count_nonzero(d > 0))
        pvalue = _binomial_pvalue(n_pos, n, alternative)
        return observed, pvalue, 0.0, {"exact": True, "binomial": True}
    if exact is None:
        exact = n <= _EXACT_ENUMERATION_MAX_N or 2.0**n <= n_resamples
    elif exact and n > 30:
        raise ValueError("`exact=True` enumerates 2**n sign vectors; use n <= 30.")
    details = {"exact": bool(exact)}
    if exact:
        n_vectors = 2**n
        powers = np.arange(n, dtype=np.int64)
        k = 0
        for start in range(0, n_vectors, batch):
            idx = np.arange(start, min(start + batch, n_vectors), dtype=np.int64)
            bits = ((idx[:, None] >> powers) & 1).astype(float)
            k += count_extreme(total - 2 * (bits @ abs_d))
        details.update(n_sign_vectors=n_vectors, n_extreme=k)
        return observed, k / n_vectors, 0.0, details
    rng = _as_generator(random_state)
    n_bytes = (n + 7) // 8
    k = 0
    for start in range(0, n_resamples, batch):
        size = min(batch, n_resamples - start)
        # one random bit per pair: 8 pairs per random byte
        random_bytes = rng.integers(0, 256, size=(size, n_bytes), dtype=np.uint8)
        flips = np.unpackbits(random_bytes, axis=1, count=n)
        k += count_extreme(total - 2 * (flips @ abs_d))
    p, se = monte_carlo_pvalue(k, n_resamples)
    details.update(n_resamples=n_resamples, n_extreme=k)
    return observed, p, se, details


# ----------------------------------------------------------------- 5x2cv tests
def _five_by_two(x, y, method, alternative, labels):
    """Dietterich's 5×2cv t-test or Alpaydin's F-test of :func:`paired_test`."""
    x, y = real_array(x, "x"), real_array(y, "y")
    if x.size != 10 or y.size != 10 or x.shape != y.shape:
        raise ValueError(
            "`x` and `y` must have shape (5, 2) (or hold 10 scores): 5 repetitions "
            "of 2-fold cross-validation, e.g. RepeatedStratifiedKFold(n_splits=2, "
            f"n_repeats=5); got {x.shape} and {y.shape}."
        )
    p = (x - y).reshape(5, 2)
    if not np.isfinite(p).all():
        raise ValueError(
            "`x` and `y` must be finite (no NaN: the 5×2cv tests need all ten "
            "fold scores)."
        )
    if method == "5x2cv_f" and alternative != "two-sided":
        raise ValueError(
            "`alternative` must be 'two-sided' for the 5×2cv F-test (its statistic "
            "has no direction); use method='5x2cv' for a one-sided test."
        )
    if np.all(np.round(p[:, 0] - p[:, 1], _DECIMALS) == 0):
        raise ValueError(
            "The 5×2cv variance estimate is 0: in every repetition the two fold "
            "differences are equal, so the 5×2cv statistic is undefined (not "
            "infinite). Check the scores; with so little spread no test is "
            "informative."
        )
    s2 = ((p - p.mean(axis=1)[:, None]) ** 2).sum(axis=1)
    total = float(s2.sum())
    a, b = labels
    op = _OPERATOR[alternative]
    common = {
        "n": 10,
        "method": method,
        "alternative": alternative,
        "null_hypothesis": f"H0: expected {a} − {b} of learners trained on half "
        f"the data {op} 0 (generalisation over learning samples)",
        "details": {"p11": float(p[0, 0]), "mean": float(p.mean()),
                    "variances": s2.tolist()},
        "_differences": p.ravel(),
    }  # fmt: skip
    if method == "5x2cv":
        se = float(np.sqrt(total / 5))
        statistic = float(p[0, 0] / se)
        pvalue = float(_t_pvalue(statistic, 5, alternative))
        return PairedTestResult(
            statistic, pvalue, 5, float(p[0, 0]), _std_error=se, **common
        )
    statistic = float(np.sum(p**2) / (2 * total))
    return PairedTestResult(
        statistic, float(stats.f.sf(statistic, 10, 5)), (10, 5), float(p.mean()),
        **common,
    )  # fmt: skip


# ---------------------------------------------------------------------- front end
def paired_test(
    x,
    y,
    *,
    method="t",
    alternative="two-sided",
    zero_method="demsar",
    exact=None,
    correction=False,
    n_resamples=9999,
    random_state=None,
    test_train_ratio=None,
    labels=("x", "y"),
    axis=0,
):
    """Test whether paired performances ``x`` and ``y`` differ.

    All methods work on the differences ``d = x − y`` (SciPy's convention);
    ``alternative="greater"`` means x tends to be larger, ``"less"`` smaller.
    For an error rate (lower is better), "learner A better than B" is
    ``paired_test(err_A, err_B, alternative="less")``, i.e. H0(real) of
    Boulesteix et al. (2015), eq. (3).

    Parameters
    ----------
    x, y : array-like of shape (n,)
        Paired performances: per data set (Demšar 2006), per replicate within
        one data set (conditional on the learning sample, Hothorn et al. 2005),
        or per split / fold within one data set (``"corrected_t"``). NaN raises
        ``ValueError``. The t-tests and the Wilcoxon test also take batches, as
        :func:`scipy.stats.ttest_rel`: arrays that broadcast against each
        other, the pairs along ``axis``; each comparison is that pair's test to
        the last bit. The 5×2cv tests take shape (5, 2): repetition × fold.
    method : {"t", "wilcoxon", "sign", "permutation", "corrected_t", "5x2cv", \
"5x2cv_f"}, default="t"
        - ``"t"``: paired t-test, ``T = mean(d)/(sd(d)/sqrt(n))`` with ``n − 1``
          df (Boulesteix et al. 2015, Sec. 3; Hothorn et al. 2005, statistic (2)):
          :func:`scipy.stats.ttest_rel`.
        - ``"wilcoxon"``: signed-rank test; see ``zero_method``.
        - ``"sign"``: wins (d > 0) against losses; ties split evenly between them,
          one dropped first if their number is odd (Demšar 2006, Sec. 3.1.3);
          exact two-sided binomial p-value (R's ``binom.test`` rule). The statistic
          is the adjusted number of wins.
        - ``"permutation"``: the sign-flip test of ``S = sum(d)``, two-sided
          ``P(|S*| >= |S|)`` (the p-value of :func:`scipy.stats.permutation_test`
          with ``permutation_type="samples"``): exact by enumeration when ``n <=
          16`` or ``2**n <= n_resamples``, else Monte Carlo (``p = (k + 1)/(R +
          1)``, its standard error in ``pvalue_standard_error``).
        - ``"corrected_t"``: corrected resampled t for ``J`` dependent
          resamples of one data set,
          ``T = mean(d)/sqrt((1/J + n_test/n_train) var(d))``, ``J − 1`` df, on
          the splits of a holdout scheme (Nadeau & Bengio 2003) or **all**
          ``k·r`` fold scores of repeated k-fold CV (Bouckaert & Frank 2004),
          never per-repetition fold means (the user guide's "Tests within one
          data set").
        - ``"5x2cv"``: Dietterich's (1998, eq. (9)) 5×2cv paired t-test,
          ``t = p_11 / sqrt(Σ_i s_i² / 5)`` with 5 df (``p_ij`` the difference
          on fold ``j`` of repetition ``i``, ``s_i²`` the sum of squared
          deviations from repetition ``i``'s mean); estimate and interval of
          ``p_11``.
        - ``"5x2cv_f"``: Alpaydin's (1999) combined 5×2cv F-test, ``f = Σ_ij
          p_ij² / (2 Σ_i s_i²)`` on (10, 5) df, two-sided only, without an
          interval; its estimate is the mean of the ten differences.
          ``Σ s_i² = 0`` raises for both.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
    zero_method : {"demsar", "wilcox", "pratt", "zsplit"}, default="demsar"
        Wilcoxon only.

        - ``"demsar"`` (Demšar 2006, Sec. 3.1.3): if the number of zero
          differences is odd, one zero is dropped; the ranks of the others are
          split evenly between R+ and R− (scipy's ``zero_method="zsplit"`` on
          the differences left). Two-sided statistic ``T = min(R+, R−)``,
          one-sided ``R+``.
        - ``"wilcox"``: zeros dropped (R's ``wilcox.test``); statistic R's
          ``V = R+``.
        - ``"pratt"``, ``"zsplit"``: as :func:`scipy.stats.wilcoxon`.

        The null distribution is the one scipy's ``method="auto"`` chooses:
        exact signed-rank without zeros or ties for ``n <= 50``; with them the
        exact conditional one of the sign flips for ``n <= 13`` (or when every
        ``|d|`` is tied); otherwise normal with tie-corrected variance.
        Differences are rounded to 10 decimals before zeros and ties are found
        (as in the sign test), so that ``0.3 − 0.1`` ties ``0.2``.
    exact : bool or None, default=None
        Wilcoxon: ``False`` forces the normal approximation; ``True`` an exact
        distribution (with zeros or ties, coin's ``wilcoxsign_test(distribution
        = "exact")``). Permutation: ``True`` enumerates all ``2**n`` sign
        vectors (n <= 30), ``False`` forces Monte Carlo.
    correction : bool, default=False
        Continuity correction of the Wilcoxon normal approximation (as R/SciPy).
    n_resamples : int, default=9999
        Monte Carlo resamples of the permutation test.
    random_state : int, numpy Generator or RandomState, default=None
        Randomness of the Monte Carlo permutation test (and of its bootstrap
        interval).
    test_train_ratio : float or array-like, default=None
        ``n_test/n_train`` of each resample; required by ``"corrected_t"``. A
        batch may give one per comparison (of the broadcast shape without
        ``axis``).
    labels : tuple of two str, default=("x", "y")
        Names used in ``null_hypothesis``.
    axis : int, default=0
        The axis of the pairs of a batch (t-tests and Wilcoxon; 1-D inputs have
        one).

    Returns
    -------
    PairedTestResult
        For a batch, ``statistic``, ``pvalue``, ``estimate`` and the interval's
        bounds are arrays of the broadcast shape without ``axis`` (and ``n``
        and ``details`` for Wilcoxon); t-test comparisons with constant
        differences are NaN there instead of the ``ValueError`` of one pair.

    Notes
    -----
    Differences without spread (constant ``d``): the t-tests raise
    ``ValueError`` (as R's ``t.test``); the sign, Wilcoxon and permutation tests
    are exact, their intervals the point ``[c, c]`` (the user guide's "Differences
    without spread"). The t-tests need ``n >= 2``; the others accept ``n = 1``.

    Examples
    --------
    >>> from sklearn_bench.stats import paired_test
    >>> x = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
    >>> y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]
    >>> res = paired_test(x, y)
    >>> round(res.statistic, 3), round(res.pvalue, 5), res.df
    (4.232, 0.00287, 8)
    >>> ci = res.confidence_interval()
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.0117, 0.0398)
    >>> res = paired_test(x, y, method="wilcoxon", zero_method="wilcox")
    >>> res.statistic, round(res.pvalue, 7)
    (44.0, 0.0078125)
    """
    check_member(method, _METHODS, "method")
    check_member(alternative, _ALTERNATIVES, "alternative")
    if method.startswith("5x2cv"):
        return _five_by_two(x, y, method, alternative, labels)
    d = _check_paired(x, y, axis)
    if exact not in (None, True, False):
        raise ValueError(f"`exact` must be None, True or False; got {exact!r}.")
    a, b = labels
    null = _NULL_TEXT[method].format(a=a, b=b, op=_OPERATOR[alternative])
    common = {"alternative": alternative, "null_hypothesis": null}
    if method in ("t", "corrected_t"):
        ratio = 0.0
        if method == "corrected_t":
            if np.ndim(test_train_ratio) > 0:  # one per comparison of a batch
                ratio = np.broadcast_to(
                    np.asarray(test_train_ratio, dtype=float), d.shape[:-1]
                )
            elif test_train_ratio is not None:
                ratio = real_number(test_train_ratio, "test_train_ratio")
            if test_train_ratio is None or not np.all(np.asarray(ratio) > 0):
                raise ValueError(
                    "`test_train_ratio` (n_test/n_train) must be a positive number "
                    "for method='corrected_t'."
                )
        statistic, pvalue, df, mean, se, var = _t_test(d, alternative, ratio, labels)
        statistic, pvalue, mean, se, var = (
            _scalar(v) for v in (statistic, pvalue, mean, se, var)
        )
        return PairedTestResult(
            statistic, pvalue, df, mean, d.shape[-1], method, _differences=d,
            details={"std_error": se, "variance": var}, _std_error=se, **common,
        )  # fmt: skip
    if method == "wilcoxon":
        check_member(zero_method, _ZERO_METHODS, "zero_method")
        statistic, pvalue, estimate, used, details, _ = _wilcoxon(
            d, alternative, zero_method, exact, correction
        )
        return PairedTestResult(
            _scalar(statistic),
            _scalar(pvalue),
            None,
            _scalar(estimate),
            used.size if d.ndim == 1 else details["n_used"],
            f"wilcoxon-{zero_method}",
            details=details,
            _differences=used,
            **common,
        )
    if d.ndim > 1:
        raise ValueError(
            f"method={method!r} tests one pair at a time: `x` and `y` must be "
            "one-dimensional (batches are for the t-tests and the Wilcoxon test)."
        )
    if method == "sign":
        statistic, pvalue, estimate, n_used, dr, details = _sign_test(d, alternative)
        return PairedTestResult(
            statistic, pvalue, None, estimate, n_used, "sign", details=details,
            _differences=dr, **common,
        )  # fmt: skip
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    statistic, pvalue, se, details = _permutation_test(
        d, alternative, n_resamples, exact, random_state
    )
    return PairedTestResult(
        statistic, pvalue, None, float(np.mean(d)), d.size, "permutation",
        pvalue_standard_error=se, details=details, _differences=d,
        _random_state=random_state, **common,
    )  # fmt: skip


# ------------------------------------------------------- smallest attainable p
def smallest_attainable_pvalue(method, n, *, alternative="two-sided"):
    """The smallest p-value a paired test can give with ``n`` pairs.

    With few data sets a rank test cannot reject at all: with 4 data sets a
    two-sided signed-rank or sign test never gives p below ``2 · 2^−4 =
    0.125`` (Demšar 2006 uses at least 6 for α = 0.05). A report says so
    instead of "not significant".

    Parameters
    ----------
    method : {"t", "corrected_t", "wilcoxon", "sign", "permutation", "5x2cv", \
"5x2cv_f"}
        The test of :func:`paired_test` (``"wilcoxon"``, ``"permutation"``:
        their exact forms).
    n : int
        Number of pairs, ``>= 1``.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"

    Returns
    -------
    float
        ``min(1, 2^(1−n))`` two-sided and ``2^−n`` one-sided for the rank,
        sign and permutation tests (for ``"wilcoxon"`` with n > 50 the normal
        approximation's at the most extreme sum); 0 for the t tests.

    Examples
    --------
    >>> from sklearn_bench.stats import smallest_attainable_pvalue
    >>> smallest_attainable_pvalue("wilcoxon", 4)
    0.125
    >>> smallest_attainable_pvalue("sign", 6, alternative="greater")
    0.015625
    >>> smallest_attainable_pvalue("t", 4)
    0.0
    """
    check_member(method, _METHODS, "method")
    check_member(alternative, _ALTERNATIVES, "alternative")
    n = check_positive_int(n, "n")
    sides = 2 if alternative == "two-sided" else 1
    if method in ("t", "corrected_t", "5x2cv", "5x2cv_f"):
        if n < 2:
            raise ValueError("A t-test needs `n` >= 2 pairs.")
        return 0.0
    if method == "wilcoxon" and n > _EXACT_MAX_N:
        m = n * (n + 1) / 2
        z = (m - m / 2) / np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        return float(min(1.0, sides * stats.norm.sf(z)))
    return float(min(1.0, sides * 0.5**n))
