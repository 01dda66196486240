"""Multiple-testing adjustment of p-values (Holm, Hochberg, Bonferroni, Hommel, BH)."""

import numpy as np

from ._common import real_array

_METHODS = ("holm", "hochberg", "bonferroni", "hommel", "bh")


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
    if not isinstance(method, str) or method.lower() not in _METHODS:
        raise ValueError(f"`method` must be one of {list(_METHODS)}; got {method!r}.")
    return p, method.lower()


def adjust_pvalues(pvalues, method="holm"):
    """Adjust p-values for multiple comparisons, as R's ``p.adjust``.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        Raw p-values, each in [0, 1].
    method : {"holm", "hochberg", "bonferroni", "hommel", "bh"}, default="holm"
        ``"holm"``: Holm's step-down procedure (strong FWER control under any
        dependence). ``"hochberg"``: Hochberg's step-up procedure (valid under
        independence or positive dependence). ``"bonferroni"``: ``m * p``.
        ``"hommel"``: Hommel's procedure (more powerful than Hochberg under the
        same conditions). ``"bh"``: Benjamini–Hochberg false discovery rate.

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
    ``min_{j >= i} min(1, (m - j + 1) p_(j))``.

    Examples
    --------
    >>> from sklearn_bench.stats import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="holm").round(3)
    array([0.03, 0.06, 0.06, 0.02])
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], method="hochberg").round(3)
    array([0.03, 0.04, 0.04, 0.02])
    """
    p, method = _validate_pvalues(pvalues, method)
    m = p.size
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    if method == "hommel":
        return _hommel(p)
    # Stable sort keeps R's handling of ties.
    if method == "holm":
        order = np.argsort(p, kind="stable")
        adj = np.maximum.accumulate((m - np.arange(m)) * p[order])
    else:  # hochberg and bh are step-up: work from the largest p-value down
        order = np.argsort(-p, kind="stable")
        ranks = np.arange(m, 0, -1)  # rank of each sorted p among m, largest first
        factor = (m - ranks + 1) if method == "hochberg" else m / ranks
        adj = np.minimum.accumulate(factor * p[order])
    out = np.empty(m)
    out[order] = np.minimum(1.0, adj)
    return out


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
