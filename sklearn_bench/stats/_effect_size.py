"""Standardised effect sizes of paired or independent samples, their magnitude
labels (with the labels' sources) and, for Cohen's d_z, an interval."""

from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, stats

from .._validation import check_confidence_level, check_member
from ._common import _DECIMALS, ConfidenceInterval, _differences, _sample, real_number

_PAIRED = ("cohens_dz", "rank_biserial", "sign_dominance")
_INDEPENDENT = ("cliffs_delta", "cohens_d", "akinshin_gamma")
_ZERO_METHODS = ("wilcox", "pratt", "zsplit", "demsar")
_ALTERNATIVES = ("two-sided", "less", "greater")

_COHEN = ((0.2, 0.5, 0.8), "Cohen (1988), ch. 2: |d| 0.2 small, 0.5 medium, 0.8 large")
_GAMMA = (
    _COHEN[0],
    "autorank (Herbold 2020) applies Cohen's (1988) thresholds to γ: |γ| 0.2 "
    "small, 0.5 medium, 0.8 large",
)
_ROMANO = (
    (0.147, 0.33, 0.474),
    "Romano et al. (2006): |δ| < 0.147 negligible, < 0.33 small, < 0.474 "
    "medium, otherwise large",
)


def _label(value, bounds):
    """The magnitude label of ``value`` below the three ``bounds``."""
    if not np.isfinite(value):
        return "large" if np.isinf(value) else None
    names = ("negligible", "small", "medium", "large")
    return names[int(np.searchsorted(bounds, abs(value), side="right"))]


@dataclass(frozen=True)
class EffectSizeResult:
    """A standardised effect size, its magnitude label and the label's source.

    Returned by :func:`effect_size` and :meth:`PairedTestResult.effect_size`.

    Attributes
    ----------
    name : str
        The ``method`` of :func:`effect_size`.
    estimate : float
    n : int
        Pairs (``n_x * n_y`` for Cliff's δ, ``n_x + n_y`` for d and γ) used.
    magnitude : str or None
        ``"negligible"``, ``"small"``, ``"medium"`` or ``"large"`` where a
        published convention exists, else ``None``.
    magnitude_source : str or None
        The citation and thresholds of ``magnitude``.
    alternative : str
        Sidedness of :meth:`confidence_interval`.

    Examples
    --------
    >>> from sklearn_bench.stats import effect_size
    >>> res = effect_size([0.21, 0.30, 0.25, 0.18], [0.25, 0.36, 0.27, 0.22])
    >>> res.name, round(res.estimate, 3), res.magnitude
    ('cohens_dz', -2.449, 'large')
    """

    name: str
    estimate: float
    n: int
    magnitude: str | None
    magnitude_source: str | None
    alternative: str = "two-sided"
    _interval: object = field(default=None, repr=False, compare=False)
    _scale: float | None = field(default=None, repr=False, compare=False)

    def rope(self, size=0.1):
        """autorank's region of practical equivalence, in the metric's units.

        ``size`` times the pooled sd (``"cohens_d"``) or scaled MAD
        (``"akinshin_gamma"``), autorank's ``rope_mode="effsize"``.

        Parameters
        ----------
        size : float, default=0.1
            The ROPE's half-width in units of the effect size.

        Returns
        -------
        float

        Examples
        --------
        >>> from sklearn_bench.stats import effect_size
        >>> res = effect_size([0.80, 0.85, 0.90, 0.75], [0.70, 0.80, 0.85, 0.65],
        ...                   method="cohens_d")
        >>> round(res.rope(0.1), 5)
        0.00791
        """
        size = real_number(size, "size")
        if not (np.isfinite(size) and size >= 0):
            raise ValueError(f"`size` must be a non-negative number; got {size!r}.")
        if self._scale is None:
            raise ValueError(
                f"{self.name!r} defines no ROPE; only 'cohens_d' and "
                "'akinshin_gamma' (autorank's rope_mode='effsize') do."
            )
        return float(size * self._scale)

    def confidence_interval(self, confidence_level=0.95):
        """Confidence interval for the effect size, one-sided when the test is
        (only Cohen's d_z has one; the others raise ``ValueError``).

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        ConfidenceInterval
        """
        level = check_confidence_level(confidence_level)
        if self._interval is None:
            raise ValueError(
                f"No confidence interval is implemented for {self.name!r}; report "
                "the interval of the raw difference instead."
            )
        return self._interval(level, self.alternative)

    def to_dict(self, confidence_level=0.95):
        """The result as a flat ``dict``; ``ci_low``/``ci_high`` NaN if none."""
        try:
            ci = self.confidence_interval(confidence_level)
        except ValueError:
            ci = ConfidenceInterval(np.nan, np.nan)
        return {
            "effect_size": self.name,
            "effect_size_estimate": self.estimate,
            "effect_size_ci_low": ci.low,
            "effect_size_ci_high": ci.high,
            "effect_size_magnitude": self.magnitude,
            "effect_size_magnitude_source": self.magnitude_source,
        }


def _nct_ncp(t_obs, df, prob):
    """The noncentrality ``λ`` with ``P(T_{df,λ} <= t_obs) = prob`` (monotone in λ)."""

    def f(ncp):
        return stats.nct.cdf(t_obs, df, ncp) - prob

    # Step out by about one standard deviation of T at a time: far tails of
    # scipy's nct.cdf can return NaN (e.g. t = 6.56, df = 7, ncp = -7.2).
    width = float(np.sqrt(1.0 + t_obs**2 / (2.0 * df)))
    lo, hi = t_obs - width, t_obs + width
    while f(lo) < 0:
        lo -= width
    while f(hi) > 0:
        hi += width
    return optimize.brentq(f, lo, hi, xtol=1e-13, rtol=1e-13, maxiter=500)


def _dz_interval(t_obs, n):
    def interval(level, alternative):
        tail = 1 - level if alternative != "two-sided" else (1 - level) / 2
        low = -np.inf if alternative == "less" else _nct_ncp(t_obs, n - 1, 1 - tail)
        high = np.inf if alternative == "greater" else _nct_ncp(t_obs, n - 1, tail)
        # exact under normality of the differences
        root = np.sqrt(n)
        return ConfidenceInterval(float(low / root), float(high / root), level)

    return interval


def _cohens_dz(d, alternative="two-sided"):
    n = d.size
    if n < 2:
        raise ValueError("Cohen's d_z needs at least 2 pairs.")
    mean = float(np.mean(d))
    rounded = np.round(d, _DECIMALS)
    interval = None
    if np.all(rounded == rounded[0]):  # sd = 0
        estimate = _ratio(float(np.round(mean, _DECIMALS)), 0.0)
    else:
        estimate = mean / float(np.std(d, ddof=1))
        interval = _dz_interval(estimate * np.sqrt(n), n)
    return EffectSizeResult(
        "cohens_dz", float(estimate), n, _label(estimate, _COHEN[0]), _COHEN[1],
        alternative, _interval=interval,
    )  # fmt: skip


def _rank_biserial(r_plus, r_minus, n):
    """``(R+ − R−) / (n (n + 1) / 2)`` (Kerby 2014), NaN when ``n = 0``."""
    estimate = (r_plus - r_minus) / (n * (n + 1) / 2) if n else np.nan
    return EffectSizeResult("rank_biserial", float(estimate), int(n), None, None)


def _signed_rank_sums(d, zero_method):
    d = np.round(d, _DECIMALS)
    zeros = d == 0
    if zero_method == "wilcox" or (zero_method == "demsar" and zeros.sum() % 2):
        drop = np.flatnonzero(zeros)[: None if zero_method == "wilcox" else 1]
        d, zeros = np.delete(d, drop), np.delete(zeros, drop)
    ranks = stats.rankdata(np.abs(d)) if d.size else np.array([])
    half = ranks[zeros].sum() / 2 if zero_method in ("zsplit", "demsar") else 0.0
    return float(ranks[d > 0].sum() + half), float(ranks[d < 0].sum() + half), d.size


def _sign_dominance(d, alternative="two-sided"):
    d = np.round(d, _DECIMALS)
    estimate = (np.count_nonzero(d > 0) - np.count_nonzero(d < 0)) / d.size
    return EffectSizeResult(
        "sign_dominance", float(estimate), d.size, None, None, alternative
    )


def _ratio(difference, scale):
    if scale > 0:
        return difference / scale
    return np.nan if difference == 0 else float(np.copysign(np.inf, difference))


def _pooled(a, b, var):
    """``sqrt(((n_a − 1) s_a² + (n_b − 1) s_b²) / (n_a + n_b − 2))``."""
    na, nb = a.size, b.size
    return float(np.sqrt(((na - 1) * var(a) + (nb - 1) * var(b)) / (na + nb - 2)))


def _independent(xs, ys, method):
    if method == "cliffs_delta":
        diff = np.round(xs[:, None] - ys[None, :], _DECIMALS)
        estimate = float(np.sign(diff).mean())
        return EffectSizeResult(
            method, estimate, int(diff.size), _label(estimate, _ROMANO[0]), _ROMANO[1]
        )
    if method == "cohens_d":
        scale = _pooled(xs, ys, lambda a: np.var(a, ddof=1))
        centre, source = np.mean, _COHEN
    else:
        scale = _pooled(
            xs, ys, lambda a: stats.median_abs_deviation(a, scale=1 / 1.4826) ** 2
        )
        centre, source = np.median, _GAMMA
    estimate = float(_ratio(float(centre(xs) - centre(ys)), scale))
    return EffectSizeResult(
        method, estimate, xs.size + ys.size, _label(estimate, source[0]), source[1],
        _scale=scale,
    )  # fmt: skip


def effect_size(
    x, y=None, *, method="cohens_dz", alternative="two-sided", zero_method="wilcox"
):
    """A standardised effect size of paired or of two independent samples.

    Paired (``d = x − y``, or ``x`` alone): ``"cohens_dz"``, ``mean(d) /
    sd(d)`` (Cohen 1988; Lakens 2013) with the noncentral-t interval (Steiger &
    Fouladi 1997); ``"rank_biserial"``, ``(R+ − R−) / (n (n + 1) / 2)`` (Kerby
    2014); ``"sign_dominance"``, ``(wins − losses) / n``. Independent (``y``
    required): ``"cliffs_delta"``, ``P(X > Y) − P(X < Y)`` (Cliff 1993); and,
    to compare with autorank (they ignore the pairing), ``"cohens_d"`` (pooled
    sd) and ``"akinshin_gamma"`` (medians over the pooled MAD × 1.4826). Zero
    spread gives ``±inf`` (``nan`` for no difference).

    Parameters
    ----------
    x : array-like of shape (n,) or (n_x,)
        Performances, or the paired differences when ``y`` is None.
    y : array-like of shape (n,) or (n_y,), default=None
    method : {"cohens_dz", "rank_biserial", "sign_dominance", "cliffs_delta", \
"cohens_d", "akinshin_gamma"}, default="cohens_dz"
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        Sidedness of the d_z interval (as the paired test's).
    zero_method : {"wilcox", "pratt", "zsplit", "demsar"}, default="wilcox"
        ``"rank_biserial"`` only, as in :func:`paired_test`.

    Returns
    -------
    EffectSizeResult

    Notes
    -----
    Magnitude labels only where a convention was published (the result's
    ``magnitude_source``): Cohen (1988) for d_z, d and γ, Romano et al. (2006)
    for Cliff's δ. Differences are rounded to 10 decimals to find zeros, ties.

    Examples
    --------
    >>> from sklearn_bench.stats import effect_size
    >>> x = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
    >>> y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]
    >>> res = effect_size(x, y)
    >>> round(res.estimate, 3), res.magnitude
    (1.411, 'large')
    >>> ci = res.confidence_interval(0.95)
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.448, 2.333)
    >>> round(effect_size(x, y, method="rank_biserial").estimate, 4)
    0.9556
    """
    check_member(method, _PAIRED + _INDEPENDENT, "method")
    check_member(alternative, _ALTERNATIVES, "alternative")
    if method in _INDEPENDENT:
        if y is None:
            raise ValueError(f"method={method!r} compares two samples: pass `y`.")
        size = 1 if method == "cliffs_delta" else 2
        return _independent(_sample(x, "x", size), _sample(y, "y", size), method)
    d = _differences(x, y)
    if method == "cohens_dz":
        return _cohens_dz(d, alternative)
    if method == "sign_dominance":
        return _sign_dominance(d)
    check_member(zero_method, _ZERO_METHODS, "zero_method")
    return _rank_biserial(*_signed_rank_sums(d, zero_method))
