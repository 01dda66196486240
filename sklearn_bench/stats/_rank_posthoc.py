"""Post-hoc tests of all pairs after Friedman's or Quade's test (PMCMRplus,
scikit-posthocs), and the exact distribution of a difference of two Friedman
rank sums (Eisinga, Heskes, Pelzer & te Grotenhuis 2017), under Friedman's global
null (ranks exchangeable within every block)."""

from functools import lru_cache
from math import comb

import numpy as np
from scipy import stats

RANK_METHODS = ("conover", "siegel", "miller", "quade", "nemenyi", "exact_ranksum")
SINGLE_STEP = ("nemenyi", "miller")  # simultaneous p-values, no adjustment
# The convolution is in float64; a tail below this is recomputed exactly.
_TINY = 1e-290


def rank_posthoc(method, i, j, *, mean_ranks, n, ranks=None, values=None):
    """``estimate``, ``statistic``, ``pvalue`` (and, single-step,
    ``pvalue_simultaneous``) of the pairs ``(i[t], j[t])``, from the k average
    ``mean_ranks`` over ``n`` blocks, the N x k ``ranks`` and ``values`` (scores,
    for Quade's block ranges) where the method needs them."""
    k = len(mean_ranks)
    out = {"estimate": mean_ranks[i] - mean_ranks[j]}
    if method in ("siegel", "nemenyi", "miller"):
        z = (mean_ranks[i] - mean_ranks[j]) / np.sqrt(k * (k + 1) / (6.0 * n))
        out["pvalue"] = np.minimum(1.0, 2 * stats.norm.sf(np.abs(z)))
        if method == "siegel":
            out["statistic"] = z
        elif method == "nemenyi":
            # Demsar (2006): q = sqrt(2) z, studentized range of k means, df = inf
            q = np.abs(z) * np.sqrt(2)
            out["statistic"] = q
            out["pvalue_simultaneous"] = np.clip(
                stats.studentized_range.sf(q, k, np.inf), 0.0, 1.0
            )
        else:
            # Miller (1966): Scheffe-type, z^2 against chi2(k - 1)
            out["statistic"] = z**2
            out["pvalue_simultaneous"] = stats.chi2.sf(z**2, k - 1)
        return out
    if ranks is None:
        raise ValueError(
            f"`method`={method!r} needs the ranks of every block; a Friedman test "
            "from average ranks has only Siegel's, Nemenyi's and Miller's tests."
        )
    rank_sums = ranks.sum(axis=0)
    if method == "exact_ranksum":
        d = rank_sums[i] - rank_sums[j]
        out["statistic"] = d
        out["pvalue"] = exact_ranksum_pvalues(ranks, d)
        return out
    if method == "conover":
        # Conover & Iman (1979); Conover (1999, Sec. 5.8):
        # t = (R_i - R_j) / sqrt(2 (N A1 - sum R_j^2) / ((N - 1)(k - 1)))
        a1 = float(np.sum(ranks**2))
        residual = n * a1 - float(np.sum(rank_sums**2))
        if residual <= 1e-12 * n * a1:
            raise ValueError(
                "Conover's t is undefined: every block ranks the learners in the "
                "same order, so the residual variance of the ranks is zero; use "
                "method='exact_ranksum' (exact) or 'nemenyi'."
            )
        sums, spread = rank_sums, 2 * residual
    elif method == "quade":
        # Quade (1979); Conover (1999, Sec. 5.8):
        # t = (S_i - S_j) / sqrt(2 N (A - B) / ((N - 1)(k - 1)))
        _, s, big_a, big_b = quade_sums(ranks, values)
        if big_a - big_b <= 1e-12 * max(big_a, 1.0):
            raise ValueError(
                "Quade's t is undefined: the weighted ranks have no residual "
                "variance (every block ranks the learners in the same order, or "
                "every block's range is 0); use method='exact_ranksum'."
            )
        sums, spread = s.sum(axis=0), 2 * n * (big_a - big_b)
    else:
        raise ValueError(
            f"`method` must be one of {list(RANK_METHODS)}; got {method!r}."
        )
    df = (n - 1) * (k - 1)
    t = (sums[i] - sums[j]) / np.sqrt(spread / df)
    out["statistic"] = t
    out["pvalue"] = 2 * stats.t.sf(np.abs(t), df)
    return out


def quade_sums(ranks, values):
    """Quade's (1979) block weights ``Q_b`` (ranks of the blocks' ranges),
    ``S_bj = Q_b (r_bj − (k + 1) / 2)``, ``A = Σ S²`` and ``B = Σ_j (Σ_b S)² / N``."""
    n, k = ranks.shape
    weights = stats.rankdata(np.ptp(values, axis=1))
    s = weights[:, None] * (ranks - (k + 1) / 2.0)
    return weights, s, float(np.sum(s**2)), float(np.sum(s.sum(axis=0) ** 2)) / n


@lru_cache(maxsize=4096)
def eisinga_count(d, k, n):
    """``W(|D| >= d)``: of the ``(k (k − 1))^n`` equally likely configurations,
    those whose rank-sum difference is at least ``d`` (no ties), by Eisinga et
    al.'s (2017) eqs. (6)-(8) in exact integer arithmetic (PMCMRplus's
    ``pexactfrsd``)."""
    if d <= 0:
        return (k * (k - 1)) ** n
    total = 0
    for h in range(n + 1):
        inner = 0
        for s in range(h + 1):
            top = k * s - d - h
            if top >= 0:
                inner += (-1) ** s * comb(2 * h, h + s) * comb(k * s - d + h, top)
        # C(n, h) / (k^h (1 - k)^n) times (k (k - 1))^n
        total += comb(n, h) * k ** (n - h) * (-1) ** n * inner
    return 2 * total


def eisinga_pvalue(d, k, n):
    """Exact ``P(|D| >= |d|)`` of Eisinga et al. (2017) (no ties), a float."""
    d = abs(int(round(d)))
    if d == 0:
        return 1.0
    if d > n * (k - 1):
        return 0.0
    count = eisinga_count(d, k, n)
    total = (k * (k - 1)) ** n
    return float(count / total) if count else 0.0


def _block_kernel(doubled_row):
    """Counts of ``r_a − r_b`` (doubled ranks) over the ordered pairs a != b of a
    block, as an array indexed by ``difference + offset``."""
    diffs = np.subtract.outer(doubled_row, doubled_row)
    diffs = diffs[~np.eye(len(doubled_row), dtype=bool)]
    offset = int(np.max(np.abs(diffs)))
    return np.bincount(diffs + offset, minlength=2 * offset + 1), offset


def ranksum_difference_distribution(ranks, *, exact=False):
    """Null distribution ``(support, weights)`` of the difference of two
    learners' rank sums, convolved block by block in doubled ranks: weights are
    probabilities or, ``exact=True``, integer counts out of ``(k (k − 1))^N``."""
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    k = doubled.shape[1]
    dist = np.array([1], dtype=object if exact else float)
    offset = 0
    cache_kernels = {}
    for row in doubled:
        key = tuple(np.sort(row))
        if key not in cache_kernels:
            counts, off = _block_kernel(np.array(key))
            kern = counts.astype(object) if exact else counts / (k * (k - 1.0))
            cache_kernels[key] = (kern, off)
        kern, off = cache_kernels[key]
        dist = np.convolve(dist, kern)
        offset += off
    support = np.arange(-offset, offset + 1)
    return support, dist


def exact_ranksum_pvalues(ranks, d):
    """Two-sided exact p-values ``P(|D| >= |d|)`` of rank-sum differences ``d``;
    one below 1e-290 in float64 is recomputed in exact integers."""
    ranks = np.asarray(ranks, dtype=float)
    n, k = ranks.shape
    support, prob = ranksum_difference_distribution(ranks)
    absolute = np.abs(support)
    # tail[t] = P(|D| >= t) over the doubled support, from the top down
    target = np.rint(2 * np.abs(np.asarray(d, dtype=float))).astype(np.int64)
    out = np.empty(target.shape, dtype=float)
    no_ties = np.array_equal(
        np.sort(ranks, axis=1), np.tile(np.arange(1, k + 1), (n, 1))
    )
    exact_dist = None
    for idx, t in np.ndenumerate(target):
        if t == 0:
            out[idx] = 1.0
            continue
        p = float(np.sum(prob[absolute >= t]))
        if p < _TINY:
            if no_ties:
                p = eisinga_pvalue(t // 2, k, n)
            else:
                if exact_dist is None:
                    exact_dist = ranksum_difference_distribution(ranks, exact=True)[1]
                count = sum(exact_dist[absolute >= t])
                p = float(count / (k * (k - 1)) ** n) if count else 0.0
        out[idx] = min(1.0, p)
    return out
