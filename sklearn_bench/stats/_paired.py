"""Paired two-learner tests: t, Wilcoxon signed-rank, sign, permutation, corrected t.

All tests work on the differences ``d = x − y`` (SciPy's convention): with
``alternative="greater"`` the alternative is that x tends to be larger than y.
"""

import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from ._bootstrap_ci import _as_generator, bootstrap_ci
from ._common import ConfidenceInterval, monte_carlo_pvalue

_METHODS = ("t", "wilcoxon", "sign", "permutation", "corrected_t")
_ZERO_METHODS = ("demsar", "wilcox", "pratt", "zsplit")
_ALTERNATIVES = ("two-sided", "less", "greater")
_DECIMALS = 10  # differences are rounded to this many decimals to find zeros/ties
_EXACT_ENUMERATION_MAX_N = 16  # 2**16 sign vectors
_BATCH_ELEMENTS = 2_000_000  # resamples x pairs per batch of the permutation test


# --------------------------------------------------------------------------- result
@dataclass(frozen=True)
class PairedTestResult:
    """Result of :func:`paired_test`.

    Attributes
    ----------
    statistic : float
        Test statistic (see :func:`paired_test` for each method's).
    pvalue : float
        P-value for ``alternative``.
    df : float or None
        Degrees of freedom of the t-tests; ``None`` for the others.
    estimate : float
        Mean of ``x − y`` (``"t"``, ``"corrected_t"``, ``"permutation"``), the
        Hodges–Lehmann pseudo-median (``"wilcoxon"``) or the median (``"sign"``).
    n : int
        Number of pairs the statistic uses (after any zeros were dropped).
    method : str
        ``"t"``, ``"wilcoxon-<zero_method>"``, ``"sign"``, ``"permutation"`` or
        ``"corrected_t"``.
    alternative : str
    null_hypothesis : str
        The null hypothesis in words, e.g. ``"H0: mean of x − y >= 0"``.
    pvalue_standard_error : float
        Monte Carlo standard error of ``pvalue``; 0 for exact and analytic p-values.
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
    details: dict = field(default_factory=dict, repr=False, compare=False)
    _differences: np.ndarray | None = field(default=None, repr=False, compare=False)
    _std_error: float | None = field(default=None, repr=False, compare=False)
    _random_state: object = field(default=None, repr=False, compare=False)

    def confidence_interval(self, confidence_level=0.95):
        """Confidence interval for the effect, one-sided when the test is.

        - ``"t"``: the t-interval of the mean difference (R's ``t.test``).
        - ``"corrected_t"``: mean ± ``t_{J−1}`` × Nadeau–Bengio standard error.
        - ``"wilcoxon"``: the Hodges–Lehmann (Tukey) interval: order statistics of
          the Walsh averages ``(d_i + d_j)/2, i <= j``, at the quantile of the exact
          signed-rank distribution (n < 50, R's ``wilcox.test(conf.int = TRUE)``
          exact rule) or its normal approximation (n >= 50). It uses the same
          differences as the test (zeros dropped for ``zero_method="wilcox"``).
        - ``"sign"``: the distribution-free interval for the median, order
          statistics ``[d_(k), d_(n−k+1)]`` from the Binomial(n, 1/2) quantile.
        - ``"permutation"``: a BCa bootstrap interval of the mean difference
          (:func:`bootstrap_ci`, 9999 resamples, the test's ``random_state``); not
          a test inversion.

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        ConfidenceInterval
        """
        level = float(confidence_level)
        if not 0 < level < 1:
            raise ValueError(
                f"`confidence_level` must lie strictly between 0 and 1; got {level!r}."
            )
        alpha = 1 - level
        one_sided = self.alternative != "two-sided"
        tail = alpha if one_sided else alpha / 2
        d = self._differences
        if self.method in ("t", "corrected_t"):
            q = stats.t.isf(tail, self.df)
            low = self.estimate - q * self._std_error
            high = self.estimate + q * self._std_error
        elif self.method.startswith("wilcoxon"):
            low, high = _hodges_lehmann_interval(d, tail)
        elif self.method == "sign":
            low, high = _median_interval(d, tail)
        else:  # permutation
            return bootstrap_ci(
                d,
                method="BCa",
                confidence_level=level,
                alternative=self.alternative,
                random_state=self._random_state,
            )
        if self.alternative == "greater":
            high = np.inf
        elif self.alternative == "less":
            low = -np.inf
        return ConfidenceInterval(float(low), float(high))

    def effect_size(self):
        """The standardised effect size that goes with this test.

        Beside the raw ``estimate`` and its :meth:`confidence_interval`, never
        instead of them:

        - ``"t"``, ``"permutation"``: Cohen's d_z of the differences
          (:func:`~sklearn_bench.stats.cohens_dz`), with its noncentral-t
          interval (sided as the test) and Cohen's (1988) labels.
        - ``"corrected_t"``: d_z as a description only: its resamples overlap,
          so the noncentral-t interval would be too narrow and is not given.
        - ``"wilcoxon"``: the matched-pairs rank-biserial correlation from the
          test's own signed-rank sums, zeros handled as the test did
          (:func:`~sklearn_bench.stats.rank_biserial`; Kerby 2014).
        - ``"sign"``: ``(wins − losses) / n``
          (:func:`~sklearn_bench.stats.sign_dominance`).

        Returns
        -------
        EffectSizeResult

        Examples
        --------
        >>> from sklearn_bench.stats import paired_test
        >>> x = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
        >>> y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]
        >>> es = paired_test(x, y).effect_size()
        >>> es.name, round(es.estimate, 3), es.magnitude
        ('cohens_dz', 1.411, 'large')
        >>> es = paired_test(x, y, method="wilcoxon").effect_size()
        >>> es.name, round(es.estimate, 3)
        ('rank_biserial', 0.956)
        """
        from dataclasses import replace

        from ._effect_size import (
            EffectSizeResult,
            cohens_dz,
            rank_biserial_from_ranks,
            sign_dominance,
        )

        d = self._differences
        if self.method.startswith("wilcoxon"):
            r = self.details
            return EffectSizeResult(
                "rank_biserial",
                rank_biserial_from_ranks(r["r_plus"], r["r_minus"], r["n_used"]),
                int(r["n_used"]),
                None,
                None,
                self.alternative,
            )
        if self.method == "sign":
            return replace(sign_dominance(d), alternative=self.alternative)
        if d.size < 2:
            raise ValueError("Cohen's d_z needs at least 2 pairs.")
        res = cohens_dz(d, alternative=self.alternative)
        if self.method == "corrected_t":
            res = replace(res, _interval=None)
        return res

    def to_dict(self, confidence_level=0.95):
        """The result as a flat ``dict``, interval first (it matters most).

        The standardised effect size (:meth:`effect_size`) follows the p-value:
        ``effect_size``, ``effect_size_estimate``, ``effect_size_ci_low``,
        ``effect_size_ci_high`` (NaN where no interval), ``effect_size_magnitude``
        and ``effect_size_magnitude_source``.
        """
        ci = self.confidence_interval(confidence_level)
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
            **self._effect_size_dict(confidence_level),
        }

    def _effect_size_dict(self, confidence_level):
        try:
            return self.effect_size().to_dict(confidence_level)
        except ValueError:  # a single pair: no d_z
            return {
                "effect_size": None,
                "effect_size_estimate": np.nan,
                "effect_size_ci_low": np.nan,
                "effect_size_ci_high": np.nan,
                "effect_size_magnitude": None,
                "effect_size_magnitude_source": None,
            }

    def to_frame(self, confidence_level=0.95):
        """A one-row :class:`pandas.DataFrame` of :meth:`to_dict`."""
        import pandas as pd

        return pd.DataFrame([self.to_dict(confidence_level)])


# ----------------------------------------------------------------------- validation
def _check_paired(x, y):
    x = np.asarray(x, dtype=float)
    y = np.asarray(y, dtype=float)
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError("`x` and `y` must be one-dimensional.")
    if x.shape != y.shape:
        raise ValueError(
            f"`x` and `y` must have the same length; got {x.size} and {y.size}."
        )
    if x.size == 0:
        raise ValueError("`x` and `y` must not be empty.")
    if np.isnan(x).any() or np.isnan(y).any():
        raise ValueError(
            "`x` and `y` must not contain NaN (a failed task?); drop or impute "
            "those pairs first."
        )
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("`x` and `y` must be finite.")
    return x - y


def _null_text(method, alternative, labels):
    a, b = labels
    op = {"two-sided": "=", "greater": "<=", "less": ">="}[alternative]
    if method == "t":
        return f"H0: mean of {a} − {b} {op} 0"
    if method == "corrected_t":
        return f"H0: expected {a} − {b} over resamples {op} 0"
    if method == "wilcoxon":
        return f"H0: {a} − {b} is symmetric about a centre {op} 0"
    if method == "sign":
        return f"H0: P({a} > {b}) {op} P({a} < {b})"
    return f"H0: {a} − {b} is symmetric about 0 (sign flips are exchangeable)"


def _pvalue_from_z(z, alternative):
    if alternative == "greater":
        return float(stats.norm.sf(z))
    if alternative == "less":
        return float(stats.norm.cdf(z))
    return float(min(1.0, 2 * stats.norm.sf(abs(z))))


# ------------------------------------------------------------------------ t-tests
def _t_test(d, alternative, correction_term):
    n = d.size
    if n < 2:
        raise ValueError("The t-tests need at least 2 pairs in `x` and `y`.")
    mean = float(np.mean(d))
    constant = np.all(np.round(d, _DECIMALS) == np.round(d[0], _DECIMALS))
    var = 0.0 if constant else float(np.var(d, ddof=1))
    se = float(np.sqrt((1 / n + correction_term) * var))
    df = n - 1
    if se == 0:
        mean = float(np.round(mean, _DECIMALS))
        statistic = np.nan if mean == 0 else np.copysign(np.inf, mean)
    else:
        statistic = mean / se
    if np.isnan(statistic):
        pvalue = 1.0
    elif alternative == "greater":
        pvalue = float(stats.t.sf(statistic, df))
    elif alternative == "less":
        pvalue = float(stats.t.cdf(statistic, df))
    else:
        pvalue = float(min(1.0, 2 * stats.t.sf(abs(statistic), df)))
    return float(statistic), pvalue, df, mean, se, var


# ----------------------------------------------------------------- signed ranks
def _signrank_cdf_table(n):
    """P(V <= v), v = 0..n(n+1)/2, of the signed-rank statistic without ties."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    top = 0
    for k in range(1, n + 1):
        counts[k : top + k + 1] = counts[k : top + k + 1] + counts[: top + 1].copy()
        top += k
    return np.cumsum(counts) / 2.0**n


def _signrank_exact_pvalue(v, n, alternative):
    """R's ``wilcox.test`` exact p-value of V = v (integer) for n pairs."""
    cdf = _signrank_cdf_table(n)
    v = int(round(v))
    p_le = cdf[v]
    p_ge = 1.0 - (cdf[v - 1] if v >= 1 else 0.0)
    if alternative == "less":
        return float(p_le)
    if alternative == "greater":
        return float(p_ge)
    if v > n * (n + 1) / 4:
        return float(min(1.0, 2 * p_ge))
    return float(min(1.0, 2 * p_le))


def _signrank_quantile(p, n):
    """R's ``qsignrank(p, n)``: smallest q with P(V <= q) >= p (with R's fuzz)."""
    if n >= 50:
        m = n * (n + 1) / 2
        sd = np.sqrt(n * (n + 1) * (2 * n + 1) / 24)
        return int(np.clip(np.floor(m / 2 + stats.norm.ppf(p) * sd + 0.5), 0, m))
    cdf = _signrank_cdf_table(n)
    return int(np.searchsorted(cdf, p - 10 * np.finfo(float).eps, side="left"))


def _walsh_averages(d):
    i, j = np.triu_indices(d.size)
    return np.sort((d[i] + d[j]) / 2)


def _hodges_lehmann_interval(d, tail):
    n = d.size
    if n == 0:
        return 0.0, 0.0
    w = _walsh_averages(d)
    m = w.size
    q = max(_signrank_quantile(tail, n), 1)
    return w[q - 1], w[m - q]


def _median_interval(d, tail):
    n = d.size
    ds = np.sort(d)
    k = int(stats.binom.ppf(tail, n, 0.5))  # P(B <= k) >= tail
    if stats.binom.cdf(k, n, 0.5) > tail:
        k -= 1
    # now P(B <= k) <= tail; the interval [d_(k+1), d_(n-k)] (1-based)
    if k < 0:
        return -np.inf, np.inf
    return ds[k], ds[n - k - 1]


def _wilcoxon(d_raw, alternative, zero_method, exact, correction):
    d = np.round(d_raw, _DECIMALS)
    n_zero = int(np.count_nonzero(d == 0))
    details = {"n_zero_differences": n_zero}
    if zero_method == "demsar":
        if n_zero % 2 == 1:
            d = np.delete(d, np.flatnonzero(d == 0)[0])
        details["one_zero_dropped"] = n_zero % 2 == 1
    elif zero_method == "wilcox":
        d = d[d != 0]
    n = d.size
    zeros = d == 0
    abs_d = np.abs(d)
    ranks = stats.rankdata(abs_d) if n else np.array([])
    r_plus = float(ranks[d > 0].sum())
    r_minus = float(ranks[d < 0].sum())
    if zero_method in ("demsar", "zsplit"):
        r_plus += ranks[zeros].sum() / 2
        r_minus += ranks[zeros].sum() / 2
    _, tie_counts = np.unique(abs_d, return_counts=True)
    has_ties = bool(np.any(tie_counts > 1))
    details.update(r_plus=r_plus, r_minus=r_minus, n_used=n)
    # Hodges-Lehmann estimate on the differences the test uses
    estimate = float(np.median(_walsh_averages(d))) if n else 0.0
    two_sided_stat = min(r_plus, r_minus)
    if zero_method == "wilcox":
        statistic = r_plus  # R's V
    else:
        statistic = two_sided_stat if alternative == "two-sided" else r_plus
    if n == 0 or np.all(zeros):
        details.update(z=0.0, exact=False)
        return 0.0 if zero_method == "wilcox" else statistic, 1.0, estimate, d, details
    use_exact = (n < 50) if exact is None else bool(exact)
    if use_exact and (has_ties or n_zero > 0):
        if exact:
            warnings.warn(
                "Cannot compute the exact p-value with ties or zero differences; "
                "using the normal approximation.",
                stacklevel=3,
            )
        use_exact = False
    if use_exact:
        pvalue = _signrank_exact_pvalue(r_plus, n, alternative)
        details.update(z=np.nan, exact=True)
        return statistic, pvalue, estimate, d, details
    mean = n * (n + 1) / 4
    var = n * (n + 1) * (2 * n + 1) / 24
    if zero_method == "wilcox":
        var -= np.sum(tie_counts**3 - tie_counts) / 48
    elif zero_method == "pratt":
        mean -= n_zero * (n_zero + 1) / 4
        var -= n_zero * (n_zero + 1) * (2 * n_zero + 1) / 24
        nonzero_ties = tie_counts if n_zero == 0 else tie_counts[1:]
        var -= np.sum(nonzero_ties**3 - nonzero_ties) / 48
    elif zero_method == "zsplit":
        var -= np.sum(tie_counts**3 - tie_counts) / 48
    # demsar: no tie correction (Demsar 2006, Sec. 3.1.3)
    shift = r_plus - mean
    if correction:
        if alternative == "greater":
            shift -= 0.5
        elif alternative == "less":
            shift += 0.5
        else:
            shift -= np.sign(shift) * 0.5
    z = shift / np.sqrt(var)
    pvalue = _pvalue_from_z(z, alternative)
    details.update(z=float(-abs(z) if alternative == "two-sided" else z), exact=False)
    return statistic, pvalue, estimate, d, details


# ---------------------------------------------------------------------- sign test
def _sign_test(d_raw, alternative):
    d = np.round(d_raw, _DECIMALS)
    wins = int(np.count_nonzero(d > 0))
    losses = int(np.count_nonzero(d < 0))
    ties = int(np.count_nonzero(d == 0))
    w = wins + ties // 2
    losses_adj = losses + ties // 2
    n = w + losses_adj
    if n == 0:
        pvalue = 1.0
    elif alternative == "greater":
        pvalue = float(stats.binom.sf(w - 1, n, 0.5))
    elif alternative == "less":
        pvalue = float(stats.binom.cdf(w, n, 0.5))
    else:  # symmetric Binomial(n, 1/2): R's binom.test rule
        pvalue = float(min(1.0, 2 * stats.binom.cdf(min(w, losses_adj), n, 0.5)))
    details = {
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "wins_adjusted": w,
        "losses_adjusted": losses_adj,
        "tie_dropped": ties % 2 == 1,
        "z": (w - n / 2) / (np.sqrt(n) / 2) if n else np.nan,
    }
    return float(w), pvalue, float(np.median(d)), n, d, details


# --------------------------------------------------------------- permutation test
def _permutation_test(d, alternative, n_resamples, exact, random_state):
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
):
    """Test whether paired performances ``x`` and ``y`` differ.

    All methods work on the differences ``d = x − y`` (SciPy's convention);
    ``alternative="greater"`` means x tends to be larger, ``"less"`` smaller.
    For an error rate (lower is better), "learner A better than B" is
    ``paired_test(err_A, err_B, alternative="less")``, i.e. H0(real) of
    Boulesteix et al. (2013), eq. (3).

    Parameters
    ----------
    x, y : array-like of shape (n,)
        Paired performances: per data set (across data sets, Boulesteix et al.
        2013; Demšar 2006) or per replicate within one data set (Hothorn et al.
        2005). NaN raises ``ValueError``.
    method : {"t", "wilcoxon", "sign", "permutation", "corrected_t"}, default="t"
        - ``"t"``: paired t-test, ``T = mean(d)/(sd(d)/sqrt(n))`` with ``n − 1``
          df (Boulesteix et al. 2013, Sec. 3; Hothorn et al. 2005, statistic (2)).
        - ``"wilcoxon"``: signed-rank test; see ``zero_method``.
        - ``"sign"``: wins (d > 0) against losses; ties split evenly between them,
          one dropped first if their number is odd (Demšar 2006, Sec. 3.1.3);
          exact two-sided binomial p-value (R's ``binom.test`` rule). The statistic
          is the adjusted number of wins.
        - ``"permutation"``: the conditional sign-flip test with statistic
          ``S = sum(d)``: the null distribution is ``sum(s_i |d_i|)`` over sign
          vectors ``s``; two-sided ``P(|S*| >= |S|)``. Exact by enumeration when
          ``n <= 16`` or ``2**n <= n_resamples``, otherwise Monte Carlo (observed
          counted, ``p = (k + 1)/(R + 1)``) with its standard error in
          ``pvalue_standard_error``. Sums are compared with a tolerance of
          ``100 eps · sum|d|`` so that equal sums tie.
        - ``"corrected_t"``: Nadeau & Bengio (2003) corrected resampled t for
          ``J`` repeated subsamples / CV folds of one data set:
          ``T = mean(d)/sqrt((1/J + n_test/n_train) var(d))``, ``J − 1`` df.
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
    zero_method : {"demsar", "wilcox", "pratt", "zsplit"}, default="demsar"
        Wilcoxon only.

        - ``"demsar"`` (Demšar 2006): ranks of zero differences split evenly between
          R+ and R−, one zero dropped first if their number is odd. Two-sided
          statistic ``T = min(R+, R−)``, one-sided ``R+``. Exact null distribution
          when there is no zero and no tie and ``n < 50``, otherwise
          ``z = (T − N(N+1)/4)/sqrt(N(N+1)(2N+1)/24)`` without tie correction.
        - ``"wilcox"``: R's ``wilcox.test(d, correct = FALSE)``: zeros dropped,
          statistic R's ``V = R+``; exact when ``n < 50`` and no ties and no
          zeros, else normal with tie-corrected variance.
        - ``"pratt"``, ``"zsplit"``: as :func:`scipy.stats.wilcoxon` with
          ``method="asymptotic"`` (exact when no zeros, no ties and ``n < 50``).

        Differences are rounded to 10 decimals before zeros and ties are found,
        so floating-point noise from subtracting scores (``0.3 − 0.1`` versus
        ``0.2``) neither makes nor breaks a tie. The sign test does the same.
    exact : bool or None, default=None
        Wilcoxon: ``None`` chooses as described; ``True``/``False`` force the
        choice as R's ``exact =`` (with ties or zeros the normal approximation is
        used anyway, with a warning). Permutation: ``True`` enumerates all
        ``2**n`` sign vectors (n <= 30), ``False`` forces Monte Carlo.
    correction : bool, default=False
        Continuity correction of the Wilcoxon normal approximation (as R/SciPy).
    n_resamples : int, default=9999
        Monte Carlo resamples of the permutation test.
    random_state : int, numpy Generator or RandomState, default=None
        Randomness of the Monte Carlo permutation test (and of its bootstrap
        interval).
    test_train_ratio : float, default=None
        ``n_test/n_train`` of each resample; required by ``"corrected_t"``.
    labels : tuple of two str, default=("x", "y")
        Names used in ``null_hypothesis``.

    Returns
    -------
    PairedTestResult

    Notes
    -----
    Edge cases: all differences zero gives ``pvalue = 1`` for every method (the
    t statistic is then NaN); a constant non-zero difference gives an infinite t
    statistic (p = 0 two-sided). The t-tests need ``n >= 2``; the other tests
    accept ``n = 1`` (p = 1 two-sided). For the t-tests a spread of the
    differences below 1e-10 (after the 10-decimal rounding) counts as zero
    variance, so scores that differ only by floating-point noise are constant.

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
    >>> res = paired_test(x, y, method="permutation", alternative="greater")
    >>> round(res.pvalue, 6), res.pvalue_standard_error
    (0.003906, 0.0)
    """
    d = _check_paired(x, y)
    if method not in _METHODS:
        raise ValueError(f"`method` must be one of {list(_METHODS)}; got {method!r}.")
    if alternative not in _ALTERNATIVES:
        raise ValueError(
            f"`alternative` must be one of {list(_ALTERNATIVES)}; got {alternative!r}."
        )
    if exact not in (None, True, False):
        raise ValueError(f"`exact` must be None, True or False; got {exact!r}.")
    null = _null_text(method, alternative, labels)
    common = {"alternative": alternative, "null_hypothesis": null}
    if method in ("t", "corrected_t"):
        ratio = 0.0
        if method == "corrected_t":
            if test_train_ratio is None or not float(test_train_ratio) > 0:
                raise ValueError(
                    "`test_train_ratio` (n_test/n_train) must be a positive number "
                    "for method='corrected_t'."
                )
            ratio = float(test_train_ratio)
        statistic, pvalue, df, mean, se, var = _t_test(d, alternative, ratio)
        return PairedTestResult(
            statistic,
            pvalue,
            df,
            mean,
            d.size,
            method,
            details={"std_error": se, "variance": var},
            _differences=d,
            _std_error=se,
            **common,
        )
    if method == "wilcoxon":
        if zero_method not in _ZERO_METHODS:
            raise ValueError(
                f"`zero_method` must be one of {list(_ZERO_METHODS)}; "
                f"got {zero_method!r}."
            )
        statistic, pvalue, estimate, used, details = _wilcoxon(
            d, alternative, zero_method, exact, correction
        )
        return PairedTestResult(
            float(statistic),
            pvalue,
            None,
            estimate,
            used.size,
            f"wilcoxon-{zero_method}",
            details=details,
            _differences=used,
            **common,
        )
    if method == "sign":
        statistic, pvalue, estimate, n_used, dr, details = _sign_test(d, alternative)
        return PairedTestResult(
            statistic,
            pvalue,
            None,
            estimate,
            n_used,
            "sign",
            details=details,
            _differences=dr,
            **common,
        )
    if (
        isinstance(n_resamples, bool)
        or not isinstance(n_resamples, int | np.integer)
        or n_resamples < 1
    ):
        raise ValueError("`n_resamples` must be a positive integer.")
    statistic, pvalue, se, details = _permutation_test(
        d, alternative, int(n_resamples), exact, random_state
    )
    return PairedTestResult(
        statistic,
        pvalue,
        None,
        float(np.mean(d)),
        d.size,
        "permutation",
        pvalue_standard_error=se,
        details=details,
        _differences=d,
        _random_state=random_state,
        **common,
    )
