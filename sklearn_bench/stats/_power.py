"""Power of the across-data-set paired t-test and the number of data sets needed
(Boulesteix, Hable, Lauer & Eugster 2013, Section 3 and Figure 2)."""

from numbers import Integral

import numpy as np
from scipy import stats

from .._validation import check_fraction, check_member, check_real
from ._common import real_number

_METHODS = ("approx", "exact")
_ALTERNATIVES = ("greater", "two-sided")


def _check_power_args(delta, sigma, alpha, alternative, method):
    delta = check_real(delta, "delta")
    sigma = real_number(sigma, "sigma")
    if not (np.isfinite(sigma) and sigma > 0):
        raise ValueError(f"`sigma` must be a positive finite number; got {sigma!r}.")
    alpha = check_fraction(alpha, "alpha")
    check_member(alternative, _ALTERNATIVES, "alternative")
    check_member(method, _METHODS, "method")
    return delta, sigma, alpha


def _power(J, delta, sigma, alpha, alternative, method):
    df = J - 1
    tail = alpha if alternative == "greater" else alpha / 2
    t_crit = stats.t.isf(tail, df)
    # Beyond |ncp| = 1e8 the power is 1 (or 0) to double precision, and scipy's
    # noncentral t returns NaN near the largest floats.
    ncp = np.clip(np.sqrt(J) * delta / sigma, -1e8, 1e8)
    if method == "approx":
        return stats.t.cdf(ncp - t_crit, df)
    power = stats.nct.sf(t_crit, df, ncp)
    if alternative == "two-sided":
        # P(T' < −t) written as P(T'(−ncp) > t): scipy's nct.cdf far in the
        # tail opposite a large ncp returns NaN (e.g. df = 3, ncp = 8)
        power = power + stats.nct.sf(t_crit, df, -ncp)
    return power


def power_paired_t(
    n_datasets, delta, sigma, *, alpha=0.05, alternative="two-sided", method="exact"
):
    """Power of the paired t-test across ``n_datasets`` data sets.

    Boulesteix et al. (2015), Section 3: ``method="exact"`` is the noncentral
    t with ``ncp = sqrt(J) Δ/σ`` (R's ``power.t.test(type = "one.sample",
    strict = TRUE)``), ``method="approx"`` the paper's formula ``F_{t,
    J−1}(sqrt(J) Δ/σ − t_{1−α, J−1})``.

    The defaults are the test the report runs (:ref:`power` compares both).

    Parameters
    ----------
    n_datasets : int or array-like of int
        Number of data sets ``J >= 2``.
    delta : float
        The difference in mean performance to detect.
    sigma : float
        Standard deviation of the per-data-set differences (> 0).
    alpha : float, default=0.05
        Significance level.
    alternative : {"two-sided", "greater"}, default="two-sided"
        ``"greater"``: the one-sided test of the paper.
    method : {"exact", "approx"}, default="exact"

    Returns
    -------
    power : float, or ndarray when ``n_datasets`` is an array

    Examples
    --------
    >>> from sklearn_bench.stats import power_paired_t
    >>> round(power_paired_t(10, 0.05, 0.05), 4)
    0.8031
    >>> round(power_paired_t(10, 0.05, 0.05, alternative="greater",
    ...                      method="approx"), 4)     # Boulesteix et al.'s form
    0.8917
    """
    delta, sigma, alpha = _check_power_args(delta, sigma, alpha, alternative, method)
    J = np.asarray(n_datasets)
    if J.dtype.kind not in "iuf" or np.any(J != np.floor(J)) or np.any(J < 2):
        raise ValueError(
            f"`n_datasets` must be an integer >= 2 (or an array of them); "
            f"got {n_datasets!r}."
        )
    power = _power(J.astype(float), delta, sigma, alpha, alternative, method)
    return float(power) if np.ndim(power) == 0 else np.asarray(power, dtype=float)


def n_datasets_needed(
    delta,
    sigma,
    *,
    power=0.8,
    alpha=0.05,
    alternative="two-sided",
    method="exact",
    max_datasets=10**7,
):
    """Smallest number of data sets ``J`` whose paired t-test reaches ``power``.

    Boulesteix et al. (2015), Section 3: the smallest integer ``J >= 2`` with
    :func:`power_paired_t` ``>= power`` (``method="exact"``: the ``ceiling`` of
    R's ``power.t.test(power = ..., type = "one.sample")$n``).

    Parameters
    ----------
    delta : float or array-like of float
        The difference to detect (> 0); an array gives the ``J`` of each.
    sigma : float
        Standard deviation of the per-data-set differences (> 0).
    power : float, default=0.8
        Target power ``1 − β``, in ``(alpha, 1)``.
    alpha : float, default=0.05
    alternative : {"two-sided", "greater"}, default="two-sided"
        As in :func:`power_paired_t`.
    method : {"exact", "approx"}, default="exact"
        As in :func:`power_paired_t`.
    max_datasets : int, default=10**7
        Give up (``ValueError``) beyond this many data sets.

    Returns
    -------
    J : int, or ndarray of int when ``delta`` is an array

    Examples
    --------
    >>> from sklearn_bench.stats import n_datasets_needed
    >>> [n_datasets_needed(0.05, s) for s in (0.03, 0.05, 0.075, 0.1)]
    [6, 10, 20, 34]
    >>> [n_datasets_needed(0.05, s, alternative="greater", method="approx")
    ...  for s in (0.03, 0.05, 0.075, 0.1)]   # Boulesteix et al., Fig. 2
    [4, 8, 16, 27]
    """
    deltas = np.asarray(delta, dtype=float) if np.ndim(delta) else None
    checked, sigma, alpha = _check_power_args(
        1.0 if deltas is not None else delta, sigma, alpha, alternative, method
    )
    if deltas is None:
        deltas = np.asarray(checked, dtype=float)
    if not np.all(deltas > 0):
        raise ValueError(f"`delta` must be positive; got {delta!r}.")
    if isinstance(max_datasets, bool) or not isinstance(max_datasets, Integral):
        raise TypeError(f"`max_datasets` must be an integer; got {max_datasets!r}.")
    power = real_number(power, "power")
    if not alpha < power < 1:
        raise ValueError(
            f"`power` must lie strictly between `alpha` ({alpha}) and 1; got {power!r}."
        )

    def reaches(J, at):  # each delta's own search, on the deltas `at` still open
        return (
            _power(J.astype(float), deltas.flat[at], sigma, alpha, alternative, method)
            >= power
        )

    low = np.full(deltas.size, 2)  # power(low) < target once past J = 2
    high = np.where(reaches(low, np.arange(deltas.size)), 2, 4)
    open_ = np.flatnonzero(high > 2)
    while open_.size:  # find high with power(high) >= target
        short = open_[~reaches(high[open_], open_)]
        low[short], high[short] = high[short], 2 * high[short]
        if short.size and high[short].max() > max_datasets:
            worst = deltas.flat[short[np.argmax(high[short])]]
            raise ValueError(
                f"more than `max_datasets` = {max_datasets} data sets needed to "
                f"detect `delta` = {worst:g} with `sigma` = {sigma:g} at `power` = "
                f"{power:g}."
            )
        open_ = short
    open_ = np.flatnonzero(high - low > 1)
    while open_.size:  # power increases with J
        mid = (low[open_] + high[open_]) // 2
        hit = reaches(mid, open_)
        high[open_[hit]], low[open_[~hit]] = mid[hit], mid[~hit]
        open_ = open_[high[open_] - low[open_] > 1]
    return int(high[0]) if np.ndim(delta) == 0 else high.reshape(deltas.shape)
