"""Simultaneous confidence intervals compatible with a multiple test: an interval
excludes 0 only where the adjusted test beside it rejects."""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats as _st

from .._validation import check_choice, check_confidence_level, real_array
from ._common import _sample
from ._multitest import adjust_pvalues

_ADJUST = ("bonferroni", "holm")  # of _text.ADJUST_METHODS
_ALTERNATIVES = ("two-sided", "greater", "less")


@dataclass(frozen=True)
class SimultaneousIntervalsResult:
    """Result of :func:`simultaneous_intervals`; its Returns section describes the
    fields."""

    estimate: np.ndarray = field(repr=False)
    low: np.ndarray
    high: np.ndarray
    rejected: np.ndarray
    confidence_level: float
    marginal_level: np.ndarray = field(repr=False)
    adjust: str
    alternative: str

    def to_frame(self):
        """The intervals as a DataFrame, one row per parameter."""
        columns = ("estimate", "low", "high", "rejected", "marginal_level")
        return pd.DataFrame({c: getattr(self, c) for c in columns})


def _validate(estimate, standard_error, df):
    est = _sample(estimate, "estimate")
    se = real_array(standard_error, "standard_error")
    if se.shape != est.shape:
        raise ValueError(
            "`standard_error` must have the shape of `estimate`; got "
            f"{se.shape} and {est.shape}."
        )
    if not np.isfinite(se).all():
        raise ValueError("`standard_error` must be finite.")
    if (se <= 0).any():
        raise ValueError("`standard_error` must be positive.")
    dfs = np.inf if df is None else real_array(df, "df")
    if np.ndim(dfs) > 1 or np.size(dfs) not in (1, est.size):
        raise ValueError(
            "`df` must be a number or one per estimate; got shape "
            f"{np.shape(dfs)} for {est.size} estimates."
        )
    dfs = np.broadcast_to(np.ravel(dfs), est.shape).astype(float)
    if np.isnan(dfs).any() or (dfs <= 0).any():
        raise ValueError("`df` must be positive (or None for the normal).")
    return est, se, dfs


def _quantile(tail, df):
    """The upper ``tail`` quantile of Student's t with ``df`` (normal at inf)."""
    return np.where(np.isinf(df), _st.norm.isf(tail), _st.t.isf(tail, _finite(df)))


def _finite(df):
    return np.where(np.isinf(df), 1.0, df)  # those rows take the normal instead


def _holm_lower(est, se, df, alpha):
    """Strassburger & Bretz (2008) lower bounds for Holm's step-down test of
    ``θ_i ≤ 0`` against ``θ_i > 0`` at level ``alpha``: ``(low, rejected,
    tail)``, ``tail`` the one-sided level of each bound's quantile (``nan``
    for a bound fixed at 0)."""
    m = est.size
    t = est / se
    p = np.where(np.isinf(df), _st.norm.sf(t), _st.t.sf(t, _finite(df)))
    rejected = adjust_pvalues(p, adjust="holm") <= alpha
    if rejected.all():
        # every hypothesis rejected: max(0, the Bonferroni bound at α/m)
        tail = np.full(m, alpha / m)
        return np.maximum(0.0, est - _quantile(tail, df) * se), rejected, tail
    tail = np.where(rejected, np.nan, alpha / int((~rejected).sum()))
    low = np.where(
        rejected, 0.0, est - _quantile(np.nan_to_num(tail, nan=0.5), df) * se
    )
    return low, rejected, tail


def simultaneous_intervals(
    estimate,
    standard_error,
    *,
    df=None,
    confidence_level=0.95,
    adjust="bonferroni",
    alternative="two-sided",
):
    """Simultaneous confidence intervals compatible with a multiple test.

    For ``m`` estimates with standard errors and t (or normal) pivots: they
    cover all ``m`` parameters with probability at least ``confidence_level``
    and exclude 0 only where the multiple test at ``α = 1 − confidence_level``
    rejects.

    Parameters
    ----------
    estimate : array-like of shape (m,)
    standard_error : array-like of shape (m,)
        Positive.
    df : float or array-like of shape (m,), default=None
        Degrees of freedom of each t pivot; ``None`` for the normal.
    confidence_level : float, default=0.95
        The simultaneous level ``1 − α``.
    adjust : {"bonferroni", "holm"}, default="bonferroni"
        The multiple test the intervals go with (:func:`adjust_pvalues`' names).
        ``"bonferroni"``: each interval at the marginal level ``1 − α/m``
        (two-sided: ``θ̂_i ± t_{1−α/(2m)} s_i``). It excludes 0 exactly when
        the Bonferroni test rejects (``m p_i < α``), so never beside a
        Holm-adjusted p above α. ``"holm"``: the bounds of Strassburger &
        Bretz (2008, Stat. Med. 27, Sec. 3): one-sided, ``L_i = 0`` where Holm
        rejects, ``θ̂_i − t_{1−α/|N|} s_i`` on the ``N`` others (``max(0, θ̂_i −
        t_{1−α/m} s_i)`` when all are rejected); two-sided, both at ``α/2``.
    alternative : {"two-sided", "greater", "less"}, default="two-sided"
        ``"greater"``: lower bounds (the hypotheses ``θ_i ≤ 0``); ``"less"``:
        upper bounds.

    Returns
    -------
    SimultaneousIntervalsResult
        ``estimate``; ``low``, ``high`` (``-inf``/``inf`` on the open side; a
        Holm bound of exactly 0 on a rejected hypothesis is open); ``rejected``,
        what the multiple test rejects at ``α = 1 − confidence_level`` (exactly
        where an interval excludes 0); ``marginal_level``, each interval's own
        level (``nan`` where a Holm bound is fixed at 0); ``confidence_level``,
        ``adjust``, ``alternative``.

    Notes
    -----
    Strassburger & Bretz's bounds stick at 0 for a rejected hypothesis unless
    every hypothesis is rejected; the Bonferroni intervals move with the
    estimate but reject less than Holm past its first step.

    Examples
    --------
    >>> from sklearn_bench.stats import simultaneous_intervals
    >>> est, se = [0.30, 0.12, 0.02], [0.10, 0.05, 0.05]
    >>> res = simultaneous_intervals(est, se, df=20, adjust="bonferroni")
    >>> res.low.round(3), res.high.round(3), res.rejected
    (array([ 0.039, -0.011, -0.111]), array([0.561, 0.251, 0.151]), \
array([ True, False, False]))
    >>> round(float(res.marginal_level[0]), 4)
    0.9833
    >>> res = simultaneous_intervals(est, se, df=20, adjust="holm",
    ...                              alternative="greater")
    >>> res.low.round(3), res.rejected
    (array([ 0.   ,  0.   , -0.066]), array([ True,  True, False]))
    """
    est, se, dfs = _validate(estimate, standard_error, df)
    level = check_confidence_level(confidence_level)
    adjust = check_choice(adjust, _ADJUST, "adjust")
    alternative = check_choice(alternative, _ALTERNATIVES, "alternative")
    alpha = 1.0 - level
    m = est.size
    low, high = np.full(m, -np.inf), np.full(m, np.inf)
    tail_low = tail_high = np.zeros(m)
    if adjust == "bonferroni":
        tail = np.full(m, alpha / m / (2 if alternative == "two-sided" else 1))
        half = _quantile(tail, dfs) * se
        if alternative != "less":
            low, tail_low = est - half, tail
        if alternative != "greater":
            high, tail_high = est + half, tail
        rejected = (low > 0) | (high < 0)
    else:
        side_alpha = alpha / 2 if alternative == "two-sided" else alpha
        rejected = np.zeros(m, dtype=bool)
        if alternative != "less":
            low, rejected_low, tail_low = _holm_lower(est, se, dfs, side_alpha)
            rejected |= rejected_low
        if alternative != "greater":
            # the upper bounds are the lower bounds of −θ
            neg_low, rejected_high, tail_high = _holm_lower(-est, se, dfs, side_alpha)
            high = -neg_low
            rejected |= rejected_high
    marginal = 1.0 - tail_low - tail_high
    return SimultaneousIntervalsResult(
        estimate=est,
        low=np.asarray(low, dtype=float),
        high=np.asarray(high, dtype=float),
        rejected=np.asarray(rejected, dtype=bool),
        confidence_level=level,
        marginal_level=marginal,
        adjust=adjust,
        alternative=alternative,
    )
