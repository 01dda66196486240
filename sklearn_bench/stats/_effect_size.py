"""Standardised effect sizes: Cohen's d_z, the matched-pairs rank-biserial
correlation, Cliff's δ, and their magnitude labels (with the labels' sources).

A standardised effect size goes *beside* the mean difference and its confidence
interval, never instead of it: the raw difference is in the metric's units and
is what a reader can judge; the standardised one compares studies.
"""

from dataclasses import dataclass, field

import numpy as np
from scipy import optimize, stats

from .._validation import check_confidence_level as _check_confidence_level
from .._validation import check_member
from ._common import _DECIMALS, ConfidenceInterval, real_array, real_number

_ZERO_METHODS = ("wilcox", "pratt", "zsplit", "demsar")

# Cohen (1988), Statistical Power Analysis for the Behavioral Sciences, 2nd ed.,
# chapter 2: d = 0.2 small, 0.5 medium, 0.8 large.
_COHEN_1988 = ((0.2, "negligible"), (0.5, "small"), (0.8, "medium"), (np.inf, "large"))
_COHEN_SOURCE = "Cohen (1988), ch. 2: |d| 0.2 small, 0.5 medium, 0.8 large"
# Romano, Kromrey, Coraggio & Skowronek (2006), thresholds for Cliff's delta:
# |d| < 0.147 negligible, < 0.33 small, < 0.474 medium, otherwise large.
_ROMANO_2006 = (
    (0.147, "negligible"),
    (0.33, "small"),
    (0.474, "medium"),
    (np.inf, "large"),
)
_AUTORANK_GAMMA_SOURCE = (
    "autorank (Herbold 2020) applies Cohen's (1988) thresholds to γ: |γ| 0.2 "
    "small, 0.5 medium, 0.8 large"
)
_ROMANO_SOURCE = (
    "Romano et al. (2006): |δ| < 0.147 negligible, < 0.33 small, < 0.474 "
    "medium, otherwise large"
)


def _label(value, thresholds):
    if not np.isfinite(value):
        return "large" if np.isinf(value) else None
    a = abs(value)
    for bound, name in thresholds:
        if a < bound:
            return name
    return thresholds[-1][1]  # pragma: no cover - the last bound is inf


@dataclass(frozen=True)
class EffectSizeResult:
    """A standardised effect size, its magnitude label and the label's source.

    Attributes
    ----------
    name : str
        ``"cohens_dz"``, ``"rank_biserial"``, ``"cliffs_delta"`` or
        ``"sign_dominance"``.
    estimate : float
    n : int
        Number of pairs (or ``n_x * n_y`` comparisons for Cliff's δ) used.
    magnitude : str or None
        ``"negligible"``, ``"small"``, ``"medium"`` or ``"large"``, only where a
        published convention exists (``magnitude_source``); ``None`` otherwise.
    magnitude_source : str or None
        The citation and thresholds of ``magnitude``.
    alternative : str
        Sidedness of :meth:`confidence_interval`.

    Examples
    --------
    >>> from sklearn_bench.stats import cohens_dz
    >>> res = cohens_dz([0.21, 0.30, 0.25, 0.18], [0.25, 0.36, 0.27, 0.22])
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

        ``size`` times the effect size's denominator: the pooled standard
        deviation for :func:`cohens_d`, the pooled scaled MAD for
        :func:`akinshin_gamma` (autorank's ``rope_mode="effsize"``, default
        ``rope=0.1``, "half the size of a small effect" after Kruschke 2018).
        A pair whose difference lies within ``±rope`` is practically equal.
        Only :func:`cohens_d` and :func:`akinshin_gamma` have one.

        Parameters
        ----------
        size : float, default=0.1
            The ROPE's half-width in units of the effect size.

        Returns
        -------
        float

        See Also
        --------
        bayesian_signed_rank : takes it as ``delta`` (autorank passes its ROPE
            to the same test).

        Examples
        --------
        >>> from sklearn_bench.stats import cohens_d
        >>> res = cohens_d([0.80, 0.85, 0.90, 0.75], [0.70, 0.80, 0.85, 0.65])
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
        """Confidence interval for the effect size, one-sided when the test is.

        Only Cohen's d_z has one here (the noncentral-t interval, see
        :func:`cohens_dz`); the others raise ``ValueError`` rather than give an
        interval that has not been validated.

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        ConfidenceInterval
        """
        level = _check_confidence_level(confidence_level)
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


def _paired_arrays(x, y):
    """``x`` and ``y`` as float arrays of one dimension and the same length."""
    x = real_array(x, "x")
    y = real_array(y, "y")
    if x.ndim != 1 or y.ndim != 1:
        raise ValueError("`x` and `y` must be one-dimensional.")
    if x.shape != y.shape:
        raise ValueError(
            f"`x` and `y` must have the same length; got {x.size} and {y.size}."
        )
    return x, y


def _differences(x, y):
    if y is None:
        d = real_array(x, "x")
        if d.ndim != 1:
            raise ValueError("`x` must be one-dimensional.")
    else:
        x, y = _paired_arrays(x, y)
        d = x - y
    if d.size == 0:
        raise ValueError("`x` must not be empty.")
    if np.isnan(d).any():
        raise ValueError("`x` and `y` must not contain NaN.")
    if not np.isfinite(d).all():
        raise ValueError("`x` and `y` must be finite.")
    return d


# ---------------------------------------------------------------- Cohen's d_z
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
        df = n - 1
        alpha = 1 - level
        tail = alpha if alternative != "two-sided" else alpha / 2
        root = np.sqrt(n)
        low = -np.inf if alternative == "less" else _nct_ncp(t_obs, df, 1 - tail)
        high = np.inf if alternative == "greater" else _nct_ncp(t_obs, df, tail)
        # exact under normality of the differences
        return ConfidenceInterval(float(low / root), float(high / root), level)

    return interval


def cohens_dz(x, y=None, *, alternative="two-sided"):
    """Cohen's d_z for paired data: the mean difference over its standard deviation.

    ``d_z = mean(d) / sd(d)`` with ``d = x − y`` and ``sd`` the sample standard
    deviation (``ddof=1``) (Cohen 1988, ch. 2, paired observations; Lakens
    2013). It is the paired t statistic divided by ``sqrt(n)``.

    Parameters
    ----------
    x : array-like of shape (n,)
        Paired performances, or the differences themselves when ``y`` is None.
    y : array-like of shape (n,), default=None
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        Sidedness of the confidence interval (as the paired test's).

    Returns
    -------
    EffectSizeResult
        ``confidence_interval(level)`` is the exact interval from the noncentral
        t distribution (Steiger & Fouladi 1997; Cumming & Finch 2001): the
        noncentrality parameters ``λ`` with ``P(T_{n−1,λ} <= t) = 1 − α/2`` and
        ``α/2``, divided by ``sqrt(n)``. It assumes normally distributed
        differences, as the paired t-test does.

    Notes
    -----
    **Magnitude labels** follow Cohen (1988), ch. 2: ``|d|`` below 0.2
    "negligible", below 0.5 "small", below 0.8 "medium", otherwise "large".
    Cohen set them for d between two groups; applied to d_z they are a
    convention, not a law (Lakens 2013 shows d_z exceeds the two-group d when
    the pairs correlate, as learners on the same data sets do). Read the
    labels with the raw difference beside them.

    All differences equal: ``sd = 0``, so d_z is ``±inf`` (``nan`` when they
    are all zero) and ``confidence_interval`` raises ``ValueError``. ``n = 1``
    raises ``ValueError``.

    Examples
    --------
    >>> from sklearn_bench.stats import cohens_dz
    >>> x = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
    >>> y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]
    >>> res = cohens_dz(x, y)
    >>> round(res.estimate, 3), res.magnitude
    (1.411, 'large')
    >>> ci = res.confidence_interval(0.95)
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.448, 2.333)
    """
    check_member(alternative, ("two-sided", "less", "greater"), "alternative")
    d = _differences(x, y)
    n = d.size
    if n < 2:
        raise ValueError("Cohen's d_z needs at least 2 pairs.")
    mean = float(np.mean(d))
    rounded = np.round(d, _DECIMALS)
    sd = 0.0 if np.all(rounded == rounded[0]) else float(np.std(d, ddof=1))
    if sd == 0:
        mean = float(np.round(mean, _DECIMALS))
        estimate = np.nan if mean == 0 else float(np.copysign(np.inf, mean))
        interval = None
    else:
        estimate = mean / sd
        interval = _dz_interval(estimate * np.sqrt(n), n)
    return EffectSizeResult(
        "cohens_dz",
        float(estimate),
        n,
        _label(estimate, _COHEN_1988),
        _COHEN_SOURCE,
        alternative,
        _interval=interval,
    )


# ------------------------------------------------------ matched-pairs rank-biserial
def _signed_rank_sums(d, zero_method):
    d = np.round(d, _DECIMALS)
    zeros = d == 0
    if zero_method == "wilcox":
        d = d[~zeros]
        zeros = zeros[~zeros]
    elif zero_method == "demsar" and zeros.sum() % 2 == 1:
        drop = np.flatnonzero(zeros)[0]
        d = np.delete(d, drop)
        zeros = np.delete(zeros, drop)
    ranks = stats.rankdata(np.abs(d)) if d.size else np.array([])
    r_plus = float(ranks[d > 0].sum())
    r_minus = float(ranks[d < 0].sum())
    if zero_method in ("zsplit", "demsar"):
        r_plus += ranks[zeros].sum() / 2
        r_minus += ranks[zeros].sum() / 2
    return r_plus, r_minus, d.size


def _rank_biserial_from_ranks(r_plus, r_minus, n):
    """The matched-pairs rank-biserial correlation from signed-rank sums,
    ``r = (R+ − R−) / (n (n + 1) / 2)`` (Kerby 2014, "simple difference
    formula"), in ``[-1, 1]``; ``nan`` when ``n = 0``."""
    r_plus = real_number(r_plus, "r_plus")
    r_minus = real_number(r_minus, "r_minus")
    if isinstance(n, bool) or not isinstance(n, int | np.integer) or n < 0:
        raise ValueError(f"`n` must be a non-negative integer; got {n!r}.")
    total = n * (n + 1) / 2
    for name, value in (("r_plus", r_plus), ("r_minus", r_minus)):
        if not 0 <= value <= total * (1 + 1e-12):
            raise ValueError(
                f"`{name}` must lie in [0, n (n + 1) / 2] = [0, {total:g}] for "
                f"`n` = {n}; got {value!r}."
            )
    if n == 0:
        return float("nan")
    return float((r_plus - r_minus) / total)


def rank_biserial(x, y=None, *, zero_method="wilcox"):
    """The matched-pairs rank-biserial correlation, the Wilcoxon test's effect size.

    ``r = (R+ − R−) / (n (n + 1) / 2)`` with ``R+``, ``R−`` the signed-rank sums
    of ``d = x − y`` (Kerby 2014, "simple difference formula"; King & Minium
    2008). ``r = 1`` when every difference is
    positive, ``−1`` when every one is negative, 0 when positive and negative
    ranks balance.

    Parameters
    ----------
    x : array-like of shape (n,)
        Paired performances, or the differences when ``y`` is None.
    y : array-like of shape (n,), default=None
    zero_method : {"wilcox", "pratt", "zsplit", "demsar"}, default="wilcox"
        As in :func:`paired_test`: ``"wilcox"`` drops zero differences (Kerby's
        form); ``"pratt"`` ranks them but counts them on neither side (so the
        denominator keeps them); ``"zsplit"`` splits their ranks between the
        sides; ``"demsar"`` drops one zero if their number is odd, then splits.

    Returns
    -------
    EffectSizeResult
        With no confidence interval and no magnitude label: we know of no
        published thresholds for this correlation that were set for it (those of
        Cliff's δ are sometimes borrowed; we do not).

    Notes
    -----
    All differences zero under ``zero_method="wilcox"`` leaves nothing to rank:
    the estimate is ``nan``.

    Examples
    --------
    >>> from sklearn_bench.stats import rank_biserial
    >>> x = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
    >>> y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]
    >>> round(rank_biserial(x, y).estimate, 4)
    0.9556
    """
    check_member(zero_method, _ZERO_METHODS, "zero_method")
    d = _differences(x, y)
    r_plus, r_minus, n = _signed_rank_sums(d, zero_method)
    return EffectSizeResult(
        "rank_biserial",
        _rank_biserial_from_ranks(r_plus, r_minus, n),
        n,
        None,
        None,
    )


def sign_dominance(x, y=None):
    """The sign test's effect size: ``(wins − losses) / n`` over the ``n`` pairs.

    The share of pairs in which ``x`` exceeds ``y`` minus the share in which it
    falls short (a tie counts for neither), in ``[-1, 1]``; Cliff's δ computed
    within pairs only. Differences are rounded to 10 decimals to find ties. No
    magnitude label (no convention was set for it).

    Parameters
    ----------
    x : array-like of shape (n,)
        Paired performances, or the differences when ``y`` is None.
    y : array-like of shape (n,), default=None

    Returns
    -------
    EffectSizeResult

    Examples
    --------
    >>> from sklearn_bench.stats import sign_dominance
    >>> sign_dominance([0.2, 0.3, 0.1, 0.4], [0.1, 0.3, 0.2, 0.1]).estimate
    0.25
    """
    d = np.round(_differences(x, y), _DECIMALS)
    estimate = float((np.count_nonzero(d > 0) - np.count_nonzero(d < 0)) / d.size)
    return EffectSizeResult("sign_dominance", estimate, d.size, None, None)


# ------------------------------------------------------------ two independent samples
def _two_samples(x, y, *, min_size=2):
    """``x`` and ``y`` as finite one-dimensional float arrays of at least
    ``min_size`` values each (1 for Cliff's δ, 2 where a spread is needed)."""
    xs = real_array(x, "x")
    ys = real_array(y, "y")
    what = (
        "non-empty one-dimensional array"
        if min_size == 1
        else f"one-dimensional array of at least {min_size} values"
    )
    for name, a in (("x", xs), ("y", ys)):
        if a.ndim != 1 or a.size < min_size:
            raise ValueError(f"`{name}` must be a {what}.")
        if not np.isfinite(a).all():
            raise ValueError(f"`{name}` must be finite (no NaN).")
    return xs, ys


# ----------------------------------------------------------------- Cliff's delta
def cliffs_delta(x, y):
    """Cliff's δ for two independent samples: ``P(X > Y) − P(X < Y)``.

    ``δ = (#{(i, j): x_i > y_j} − #{(i, j): x_i < y_j}) / (n_x n_y)`` (Cliff
    1993), the dominance statistic behind the Mann–Whitney U test
    (``δ = 2 U / (n_x n_y) − 1``). It fits samples that are *not* matched, e.g.
    the replicate performances of two learners that did not see the same
    learning samples; matched pairs call for :func:`rank_biserial` or
    :func:`sign_dominance`.

    Parameters
    ----------
    x : array-like of shape (n_x,)
    y : array-like of shape (n_y,)

    Returns
    -------
    EffectSizeResult
        Magnitude after Romano et al. (2006): ``|δ|`` < 0.147 "negligible", < 0.33
        "small", < 0.474 "medium", otherwise "large". No confidence interval.

    Examples
    --------
    >>> from sklearn_bench.stats import cliffs_delta
    >>> res = cliffs_delta([0.21, 0.25, 0.30, 0.28], [0.20, 0.22, 0.19, 0.24])
    >>> res.estimate, res.magnitude
    (0.75, 'large')
    """
    xs, ys = _two_samples(x, y, min_size=1)
    diff = np.round(xs[:, None] - ys[None, :], _DECIMALS)
    estimate = float(np.sign(diff).mean())
    return EffectSizeResult(
        "cliffs_delta",
        estimate,
        int(diff.size),
        _label(estimate, _ROMANO_2006),
        _ROMANO_SOURCE,
    )


# ------------------------------------------------- autorank's two-sample effect sizes
def _ratio(difference, scale):
    if scale > 0:
        return difference / scale
    return np.nan if difference == 0 else float(np.copysign(np.inf, difference))


def cohens_d(x, y):
    """Cohen's d with the pooled standard deviation (autorank's ``cohen_d``).

    ``d = (mean(x) − mean(y)) / s_p`` with ``s_p² = ((n_x − 1) s_x² + (n_y −
    1) s_y²) / (n_x + n_y − 2)`` (Cohen 1988, ch. 2, two independent groups).
    autorank uses it between learners' performances over data sets when all
    are normal.

    Parameters
    ----------
    x : array-like of shape (n_x,)
    y : array-like of shape (n_y,)

    Returns
    -------
    EffectSizeResult
        Magnitude after Cohen (1988) (autorank's labels);
        :meth:`~EffectSizeResult.rope` gives autorank's ROPE ``0.1 s_p``. No
        confidence interval.

    Notes
    -----
    Learners compared on the same data sets are paired; this d ignores the
    pairing (it standardises by the spread *between* data sets) and is
    reported for comparison with autorank. Within pairs, :func:`cohens_dz` is
    the effect size of the paired t-test. ``s_p = 0``: ``±inf``, or ``nan``
    when the means are equal.

    Examples
    --------
    >>> from sklearn_bench.stats import cohens_d
    >>> res = cohens_d([0.80, 0.85, 0.90, 0.75], [0.70, 0.80, 0.85, 0.65])
    >>> round(res.estimate, 3), res.magnitude
    (0.949, 'large')
    """
    xs, ys = _two_samples(x, y)
    nx, ny = xs.size, ys.size
    pooled = float(
        np.sqrt(
            ((nx - 1) * np.var(xs, ddof=1) + (ny - 1) * np.var(ys, ddof=1))
            / (nx + ny - 2)
        )
    )
    estimate = _ratio(float(np.mean(xs) - np.mean(ys)), pooled)
    return EffectSizeResult(
        "cohens_d",
        float(estimate),
        nx + ny,
        _label(estimate, _COHEN_1988),
        _COHEN_SOURCE,
        _scale=pooled,
    )


def akinshin_gamma(x, y):
    """Akinshin's γ as autorank computes it: a median difference over pooled MADs.

    ``γ = (median(x) − median(y)) / MAD_p`` with ``MAD_p² = ((n_x − 1)
    MAD_x² + (n_y − 1) MAD_y²) / (n_x + n_y − 2)`` and each MAD scaled by
    1.4826 to estimate a normal standard deviation (autorank's
    ``akinshin_gamma``, after Akinshin 2020, "Nonparametric Cohen's d-consistent
    effect size"; autorank uses it when some learner is not normal).

    Parameters
    ----------
    x : array-like of shape (n_x,)
    y : array-like of shape (n_y,)

    Returns
    -------
    EffectSizeResult
        Magnitude with Cohen's thresholds, as autorank labels γ;
        :meth:`~EffectSizeResult.rope` gives autorank's ROPE ``0.1 MAD_p``.

    Notes
    -----
    Akinshin's own γ uses Harrell–Davis quantile estimates; autorank's, which
    this matches, uses the sample median and MAD. Like :func:`cohens_d` it
    ignores the pairing of learners on the same data sets. ``MAD_p = 0``
    (more than half of each sample equal): ``±inf``, or ``nan`` for equal
    medians.

    Examples
    --------
    >>> from sklearn_bench.stats import akinshin_gamma
    >>> res = akinshin_gamma([0.80, 0.85, 0.90, 0.75, 0.95],
    ...                      [0.70, 0.80, 0.85, 0.65, 0.75])
    >>> round(res.estimate, 3), res.magnitude
    (1.349, 'large')
    """
    xs, ys = _two_samples(x, y)
    nx, ny = xs.size, ys.size
    mad_x = stats.median_abs_deviation(xs, scale=1 / 1.4826)
    mad_y = stats.median_abs_deviation(ys, scale=1 / 1.4826)
    pooled = float(np.sqrt(((nx - 1) * mad_x**2 + (ny - 1) * mad_y**2) / (nx + ny - 2)))
    estimate = _ratio(float(np.median(xs) - np.median(ys)), pooled)
    return EffectSizeResult(
        "akinshin_gamma",
        float(estimate),
        nx + ny,
        _label(estimate, _COHEN_1988),
        _AUTORANK_GAMMA_SOURCE,
        _scale=pooled,
    )
