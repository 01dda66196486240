"""Multiple-testing adjustment of p-values: R's ``p.adjust``, García et al.'s
(2010) four, and Shaffer's and Bergmann & Hommel's for all pairs of learners."""

from functools import cache
from itertools import combinations
from math import comb

import numpy as np

from .._text import ADJUST_METHODS
from .._validation import check_alpha, check_choice
from ._common import real_array

BERGMANN_HOMMEL_MAX_LEARNERS = 10  # Bell(10) − 1 = 115 974 exhaustive sets


def _validate_pvalues(pvalues, adjust):
    p = real_array(pvalues, "pvalues")
    if p.ndim != 1:
        raise ValueError("`pvalues` must be one-dimensional.")
    if p.size == 0:
        raise ValueError("`pvalues` must not be empty.")
    if np.isnan(p).any():
        raise ValueError("`pvalues` must not contain NaN.")
    if ((p < 0) | (p > 1)).any():
        raise ValueError("`pvalues` must lie in [0, 1].")
    return p, check_choice(adjust, ADJUST_METHODS, "adjust")


def adjust_pvalues(pvalues, *, adjust="holm", alpha=0.05):
    """Adjust p-values for multiple comparisons, as R's ``p.adjust`` or scmamp.

    Parameters
    ----------
    pvalues : array-like of shape (m,)
        Raw p-values, each in [0, 1].
    adjust : {"holm", "shaffer", "bergmann_hommel", "bonferroni", "hochberg", \
"hommel", "bh", "finner", "li", "holland", "rom", "none"}, default="holm"
        ``"holm"``, ``"hochberg"``, ``"bonferroni"``, ``"hommel"`` and ``"bh"``
        (Benjamini–Hochberg's false discovery rate) are R's ``p.adjust``. The
        next four are García et al.'s (2010, Sec. 3.3) as coded in scmamp; with
        ``p_(1) <= ... <= p_(m)``:

        - ``"holland"`` (Holland & Copenhaver 1987), step-down Šidák:
          ``APV_i = max_{j <= i} 1 − (1 − p_(j))^(m − j + 1)``.
        - ``"finner"`` (Finner 1993), step-down:
          ``APV_i = max_{j <= i} 1 − (1 − p_(j))^(m / j)``.
        - ``"li"`` (Li 2008), two steps: ``APV_i = p_(i) / (p_(i) + 1 −
          p_(m))`` (``p_(m)`` when ``p_(m) = 1``).
        - ``"rom"`` (Rom 1990): ``APV_i = max_{j <= i} (alpha / c_(m−j+1))
          p_(j)`` with Rom's critical values ``c_i`` (his Table 1), a step-down
          use of them that rejects a subset of what Rom's step-up rejects.

        ``"shaffer"`` (Shaffer 1986) and ``"bergmann_hommel"`` (Bergmann &
        Hommel 1988, ``k <= 10``) use the logical relations among the ``m = k
        (k − 1) / 2`` p-values of all pairs of ``k`` learners, in
        :func:`itertools.combinations` order (:ref:`posthoc` gives both).

        ``"none"`` returns the p-values. Hochberg, Hommel, Rom and Li assume
        independent or positively dependent p-values.
    alpha : float, default=0.05
        Only for ``"rom"``: the level of Rom's constants (compare the adjusted
        p-values with it).

    Returns
    -------
    adjusted : ndarray of shape (m,)
        Adjusted p-values in the input order, capped at 1. A hypothesis is
        rejected at family-wise level ``alpha`` when its adjusted p-value is
        ``<= alpha``.

    Notes
    -----
    Ties keep their input order, as in R; Hochberg's is R's step-up form
    (García et al. 2010 print a ``max``). Unlike scmamp, Rom with ``m <= 2`` is
    Holm's, and Bergmann–Hommel is the closed test without scmamp's running
    maximum over the raw p-values' order.

    Examples
    --------
    >>> from sklearn_bench.stats import adjust_pvalues
    >>> adjust_pvalues([0.01, 0.04, 0.03, 0.005], adjust="holm").round(3)
    array([0.03, 0.06, 0.06, 0.02])

    All pairs of k = 4 learners:

    >>> p = [0.01, 0.02, 0.03, 0.04, 0.05, 0.20]
    >>> adjust_pvalues(p, adjust="shaffer").round(3)
    array([0.06, 0.06, 0.09, 0.12, 0.12, 0.2 ])
    >>> adjust_pvalues(p, adjust="bergmann_hommel").round(3)
    array([0.06, 0.06, 0.06, 0.12, 0.12, 0.2 ])
    """
    p, adjust = _validate_pvalues(pvalues, adjust)
    m = p.size
    if adjust == "none":
        return p.copy()
    if adjust == "single_step":
        raise ValueError(
            "`adjust`='single_step' is the simultaneous p-value of Nemenyi's or "
            "Miller's test, computed from their statistics "
            "(pairwise_tests(method='nemenyi')), not from raw p-values."
        )
    if adjust == "bergmann_hommel":
        return _bergmann_hommel(p)
    if adjust == "bonferroni":
        return np.minimum(1.0, m * p)
    # Stable sort keeps R's handling of ties.
    order = np.argsort(p, kind="stable")
    ps = p[order]
    j = np.arange(1, m + 1)
    if adjust == "holm":
        adj = np.maximum.accumulate((m - np.arange(m)) * ps)
    elif adjust == "shaffer":
        adj = np.maximum.accumulate(_shaffer_multipliers(m) * ps)
    elif adjust == "hommel":
        adj = _hommel(ps)
    elif adjust in ("holland", "finner"):
        power = (m - j + 1) if adjust == "holland" else m / j
        with np.errstate(divide="ignore"):  # p = 1: log1p(-1) = -inf, APV 1
            adj = np.maximum.accumulate(-np.expm1(power * np.log1p(-ps)))
    elif adjust == "li":
        top = ps[-1]
        adj = ps / (ps + 1.0 - top) if top < 1 else np.ones(m)
    elif adjust == "rom":
        alpha = check_alpha(alpha)
        crit = _rom_critical_values(m, alpha)  # c_1 (largest p) .. c_m
        adj = np.maximum.accumulate(alpha / crit[::-1] * ps)
    else:  # hochberg and bh are step-up: work from the largest p-value down
        order = np.argsort(-p, kind="stable")
        ranks = np.arange(m, 0, -1)  # rank of each sorted p among m, largest first
        factor = (m - ranks + 1) if adjust == "hochberg" else m / ranks
        adj = np.minimum.accumulate(factor * p[order])
    out = np.empty(m)
    out[order] = np.minimum(1.0, adj)
    return out


def _bergmann_hommel(p):
    """Bergmann & Hommel's adjusted p-values of all pairs: the closed test."""
    k = _n_learners_from_pairs(p.size)
    check_bergmann_hommel(k)
    sets = _exhaustive_sets(k)
    size = sets.sum(axis=1)
    set_min = np.where(sets, p[None, :], np.inf).min(axis=1)
    value = np.minimum(1.0, size * set_min)
    return np.where(sets, value[:, None], -np.inf).max(axis=0)


def check_bergmann_hommel(k):
    """A ``ValueError`` when Bergmann–Hommel's sets of ``k`` learners are too many."""
    if k > BERGMANN_HOMMEL_MAX_LEARNERS:
        raise ValueError(
            f"Bergmann–Hommel needs every exhaustive set of hypotheses (Bell(k) − 1 "
            f"of them); k = {k} learners is beyond the {BERGMANN_HOMMEL_MAX_LEARNERS}"
            " we enumerate. Use adjust='shaffer' (nearly as powerful) or 'holm'."
        )


def _n_learners_from_pairs(m):
    k = int(round((1 + np.sqrt(1 + 8 * m)) / 2))
    if k * (k - 1) // 2 != m:
        raise ValueError(
            f"`pvalues` must hold k (k − 1) / 2 pairwise p-values; got {m}, which "
            "is no such number."
        )
    return k


@cache
def _shaffer_counts(k):
    """Shaffer's (1986) S(k): the possible numbers of simultaneously true
    pairwise equalities of k learners (García & Herrera 2008, Sec. 2.2)."""
    if k <= 1:
        return frozenset({0})
    out = set()
    for j in range(1, k + 1):
        out.update(j * (j - 1) // 2 + x for x in _shaffer_counts(k - j))
    return frozenset(out)


def _shaffer_multipliers(m):
    """t_i: the most of the ``m`` pairs' hypotheses that can be true when i − 1
    were rejected."""
    possible = np.array(sorted(_shaffer_counts(_n_learners_from_pairs(m))))
    remaining = m - np.arange(m)  # m − i + 1 for i = 1..m
    idx = np.searchsorted(possible, remaining, side="right") - 1
    return possible[idx]


@cache
def _exhaustive_sets(k):
    """Boolean (Bell(k) − 1, k (k − 1) / 2) matrix of the exhaustive sets: the
    partitions of the learners (as restricted growth strings) but the finest."""
    rgs = np.zeros((1, 1), dtype=np.int8)
    for _ in range(1, k):
        top = rgs.max(axis=1) + 1
        pieces = [
            np.column_stack([rgs[top >= v], np.full((top >= v).sum(), v, np.int8)])
            for v in range(int(top.max()) + 1)
        ]
        rgs = np.vstack(pieces)
    i, j = np.array(list(combinations(range(k), 2))).T
    same = rgs[:, i] == rgs[:, j]
    sets = same[same.any(axis=1)]
    sets.flags.writeable = False  # cached: shared by every call
    return sets


def _rom_critical_values(m, alpha):
    """Rom's (1990) critical values ``c_1 = alpha > ... > c_m`` for the i-th
    largest p-value, by scmamp's recursion (Rom's Table 1)."""
    crit = [float(alpha), float(alpha) / 2][:m]
    for i in range(3, m + 1):
        head = sum(alpha**t for t in range(1, i))
        tail = sum(comb(i, t) * crit[t] ** (i - t) for t in range(1, i - 1))
        crit.append((head - tail) / i)
    return np.array(crit)


def _hommel(ps):
    """Hommel's adjusted p-values of the sorted ``ps``, as R's ``p.adjust``."""
    m = ps.size
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
    return np.maximum(pa, ps)
