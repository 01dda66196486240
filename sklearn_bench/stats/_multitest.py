"""Multiple-testing adjustment of p-values: R's ``p.adjust`` (Holm, Hochberg,
Bonferroni, Hommel, BH) and García et al.'s (2010) Finner, Li, Holland and Rom."""

from math import comb

import numpy as np

from .._validation import check_alpha, check_choice
from ._common import real_array

ADJUST_METHODS = (
    "holm",
    "hochberg",
    "bonferroni",
    "hommel",
    "bh",
    "finner",
    "li",
    "holland",
    "rom",
)


def _validate_pvalues(pvalues, method):
    p = real_array(pvalues, "pvalues")
    if p.ndim != 1:
        raise ValueError("`pvalues` must be one-dimensional.")
    if p.size == 0:
        raise ValueError("`pvalues` must not be empty.")
    if np.isnan(p).any():
        raise ValueError("`pvalues` must not contain NaN.")
    if ((p < 0) | (p > 1)).any():
        raise ValueError("`pvalues` must lie in [0, 1].")
    return p, check_choice(method, ADJUST_METHODS, "method")


def adjust_pvalues(pvalues, *, method="holm", alpha=0.05):
    """Adjust p-values for multiple comparisons, as R's ``p.adjust`` or scmamp.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        Raw p-values, each in [0, 1].
    method : {"holm", "hochberg", "bonferroni", "hommel", "bh", "finner", "li", \
"holland", "rom"}, default="holm"
        ``"holm"``: Holm's step-down procedure (strong FWER control under any
        dependence). ``"hochberg"``: Hochberg's step-up procedure (valid under
        independence or positive dependence). ``"bonferroni"``: ``m * p``.
        ``"hommel"``: Hommel's procedure (more powerful than Hochberg under the
        same conditions). ``"bh"``: Benjamini–Hochberg false discovery rate.
        These five are R's ``p.adjust``. The next four follow García, Fernández,
        Luengo & Herrera (2010, Information Sciences 180, Sec. 3.3) as coded in
        scmamp (``adjustFinner``, ``adjustLi``, ``adjustHolland``,
        ``adjustRom``); with ``p_(1) <= ... <= p_(m)``:

        - ``"holland"`` (Holland & Copenhaver 1987), step-down Šidák:
          ``APV_i = max_{j <= i} 1 − (1 − p_(j))^(m − j + 1)``.
        - ``"finner"`` (Finner 1993), step-down:
          ``APV_i = max_{j <= i} 1 − (1 − p_(j))^(m / j)``.
        - ``"li"`` (Li 2008), two steps: ``APV_i = p_(i) / (p_(i) + 1 −
          p_(m))`` (all ``p_(m)`` when ``p_(m) = 1``, where Li's second step
          rejects nothing); very conservative when ``p_(m)`` is large.
        - ``"rom"`` (Rom 1990): Rom's critical values ``c_1 = alpha``,
          ``c_2 = alpha / 2``, ``c_i = (sum_{j<i} alpha^j − sum_{j<=i-2}
          C(i, j) c_(j+1)^(i−j)) / i`` (these reproduce Rom's Table 1: 0.0169,
          0.0127, 0.0102, ... at 0.05), ``APV_i = max_{j <= i} (alpha /
          c_(m−j+1)) p_(j)``. The APV depends on ``alpha``; it is García et
          al.'s and scmamp's, a step-down use of Rom's constants, so it
          rejects at ``alpha`` a subset of what Rom's step-up procedure
          rejects (conservative, never anti-conservative).
    alpha : float, default=0.05
        Only for ``"rom"``: the level at which Rom's constants are computed;
        compare the adjusted p-values with this same ``alpha``.

    Returns
    -------
    adjusted : ndarray of shape (m,)
        Adjusted p-values in the input order, capped at 1. A hypothesis is
        rejected at family-wise level ``alpha`` when its adjusted p-value is
        ``<= alpha``.

    Notes
    -----
    Ties keep their input order, as in R. The adjusted p-value of Holm's method
    for the hypothesis with the i-th smallest p-value is
    ``max_{j <= i} min(1, (m - j + 1) p_(j))``; Hochberg's is
    ``min_{j >= i} min(1, (m - j + 1) p_(j))`` (R's, the step-up form; García
    et al. 2010 print a ``max`` there). scmamp's ``adjustRom`` gives wrong
    values for ``m <= 2`` (its recursion runs backwards); here Rom with
    ``m = 1`` is the raw p-value and with ``m = 2`` it is Hochberg's
    constants ``alpha / 2, alpha`` used step-down (i.e. Holm's).

    Examples
    --------
    >>> from sklearn_bench.stats import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="holm").round(3)
    array([0.03, 0.06, 0.06, 0.02])
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="hochberg").round(3)
    array([0.03, 0.04, 0.04, 0.02])
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="finner").round(4)
    array([0.0199, 0.04  , 0.0398, 0.0199])
    """
    p, method = _validate_pvalues(pvalues, method)
    m = p.size
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    if method == "hommel":
        return _hommel(p)
    # Stable sort keeps R's handling of ties.
    order = np.argsort(p, kind="stable")
    ps = p[order]
    j = np.arange(1, m + 1)
    if method == "holm":
        adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    elif method in ("holland", "finner"):
        power = (m - j + 1) if method == "holland" else m / j
        with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, APV 1
            adj = np.maximum.accumulate(-np.expm1(power * np.log1p(-ps)))
    elif method == "li":
        top = ps[-1]
        adj = ps / (ps + 1.0 - top) if top < 1 else np.ones(m)
    elif method == "rom":
        alpha = check_alpha(alpha)
        crit = _rom_critical_values(m, alpha)  # c_1 (largest p) .. c_m
        adj = np.maximum.accumulate(alpha / crit[::-1] * ps)
    else:  # hochberg and bh are step-up: work from the largest p-value down
        order = np.argsort(-p, kind="stable")
        ranks = np.arange(m, 0, -1)  # rank of each sorted p among m, largest first
        factor = (m - ranks + 1) if method == "hochberg" else m / ranks
        adj = np.minimum.accumulate(factor * p[order])
    out = np.empty(m)
    out[order] = np.minimum(1.0, adj)
    return out


def _rom_critical_values(m, alpha):
    """Rom's (1990) critical values ``c_1 = alpha > c_2 > ... > c_m``.

    ``c_i`` is compared with the i-th largest p-value. Computed by the
    recursion of scmamp's ``adjustRom``, which reproduces Rom's Table 1.
    """
    crit = [float(alpha), float(alpha) / 2][:m]
    for i in range(3, m + 1):
        head = sum(alpha**t for t in range(1, i))
        tail = sum(comb(i, t) * crit[t] ** (i - t) for t in range(1, i - 1))
        crit.append((head - tail) / i)
    return np.array(crit)


def _hommel(p):
    """Hommel's adjusted p-values, a transcription of R's ``p.adjust``."""
    m = p.size
    order = np.argsort(p, kind="stable")
    ps = p[order]
    idx = np.arange(1, m + 1)
    q = pa = np.full(m, np.min(m * ps / idx))
    for j in range(m - 1, 1, -1):
        i1 = np.arange(0, m - j + 1)  # 1 .. n-m+1 in R
        i2 = np.arange(m - j + 1, m)  # (n-m+2) .. n in R
        q1 = np.min(j * ps[i2] / np.arange(2, j + 1))
        q = q.copy()
        q[i1] = np.minimum(j * ps[i1], q1)
        q[i2] = q[m - j]
        pa = np.maximum(pa, q)
    adj = np.maximum(pa, ps)
    out = np.empty(m)
    out[order] = np.minimum(1.0, adj)
    return out
