"""The Skillings–Mack test: Friedman's test for blocks with missing learners
(Skillings & Mack 1981, Technometrics 23(2), 171–177)."""

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_positive_int
from .._validation import check_random_state as _as_generator
from ._block_rank_tests import BlockTestResult
from ._common import _direction, _validate_scores, monte_carlo_pvalue

_BATCH_ELEMENTS = 2_000_000  # resamples x cells per Monte Carlo batch


def _pinv_and_rank(sigma):
    values, vectors = np.linalg.eigh(sigma)
    keep = values > 1e-9 * max(values.max(), 1.0)
    inv = (vectors[:, keep] / values[keep]) @ vectors[:, keep].T
    return inv, int(keep.sum())


def _adjusted_sums(ranks, observed, weights, centres):
    """``A_j = Σ_i w_i (r_ij − c_i)`` over observed cells; ranks may be batched."""
    centred = weights[:, None] * (ranks - centres[:, None])
    return np.where(observed, centred, 0.0).sum(axis=-2)


def skillings_mack_test(
    scores, *, greater_is_better, n_resamples=None, random_state=None
):
    """Skillings–Mack test of k learners over blocks with missing learners.

    Skillings & Mack (1981), eqs. (2.1)–(2.4): the adjusted rank sums ``A_j =
    Σ_i sqrt(12 / (k_i + 1)) (r_ij − (k_i + 1)/2)`` over the blocks holding
    learner ``j``, and ``SM = A' Σ⁻ A`` referred to χ² with ``rank(Σ)`` df
    (Friedman's χ²_F without missing cells).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block, one column per learner; NaN marks a missing cell.
    greater_is_better : bool
        Direction, for ``learner_scores`` only. Required.
    n_resamples : int, default=None
        ``None``: the χ² p-value; else a Monte Carlo p-value from that many
        permutations of the ranks within each block (for small designs, ties).
    random_state : int, numpy Generator or RandomState, default=None
        Randomness of the Monte Carlo p-value.

    Returns
    -------
    BlockTestResult
        ``learner_scores``: the adjusted rank sums ``A_j`` (positive: ranked
        worse than average); ``dropped_blocks``: blocks of fewer than two
        learners.

    Notes
    -----
    Ties get average ranks without variance correction (as the paper and CRAN's
    ``Skillings.Mack``): with many ties prefer the Monte Carlo p-value.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import skillings_mack_test
    >>> nan = np.nan  # Skillings & Mack (1981), Table 1
    >>> y = [[3.2, 4.1, 3.8, 4.2], [3.1, 3.9, 3.4, 4.0], [4.3, 3.5, 4.6, 4.8],
    ...      [3.5, 3.6, 3.9, 4.0], [3.6, 4.2, 3.7, 3.9], [4.5, 4.7, 3.7, nan],
    ...      [nan, 4.2, 3.4, nan], [4.3, 4.6, 4.4, 4.9], [3.5, nan, 3.7, 3.9]]
    >>> res = skillings_mack_test(y, greater_is_better=False)
    >>> round(res.statistic, 3), res.df, round(res.pvalue, 5)
    (15.493, (3,), 0.00144)
    """
    values, learners, blocks = _validate_scores(scores, allow_nan=True)
    greater_is_better = _direction(greater_is_better)
    if n_resamples is not None:
        n_resamples = check_positive_int(n_resamples, "n_resamples")
    observed = ~np.isnan(values)
    usable = observed.sum(axis=1) >= 2
    dropped = tuple(b for b, ok in zip(blocks, usable, strict=True) if not ok)
    values, observed = values[usable], observed[usable]
    n, k = values.shape
    if n < 2:
        raise ValueError(
            f"The Skillings–Mack test needs at least 2 blocks of `scores` with 2 or "
            f"more learners; got {n}."
        )
    sign = -1.0 if greater_is_better else 1.0
    filled = np.where(observed, sign * values, np.inf)
    ranks = stats.rankdata(filled, axis=1)  # missing (inf) rank last: masked below
    k_i = observed.sum(axis=1).astype(float)
    weights = np.sqrt(12.0 / (k_i + 1.0))
    centres = (k_i + 1.0) / 2.0
    a = _adjusted_sums(ranks, observed, weights, centres)
    both = observed.T.astype(float) @ observed.astype(float)
    sigma = -both
    np.fill_diagonal(sigma, 0.0)
    np.fill_diagonal(sigma, -sigma.sum(axis=1))
    inv, df = _pinv_and_rank(sigma)
    statistic = float(max(a @ inv @ a, 0.0))
    pvalue = float(stats.chi2.sf(statistic, df)) if df > 0 else 1.0
    se = 0.0
    if n_resamples is not None:
        n_extreme = _monte_carlo_count(
            ranks, observed, weights, centres, inv, statistic, n_resamples,
            random_state,
        )  # fmt: skip
        pvalue, se = monte_carlo_pvalue(n_extreme, n_resamples)
    return BlockTestResult(
        statistic=statistic,
        pvalue=float(pvalue),
        df=(df,),
        distribution="chi2",
        n_blocks=n,
        n_learners=k,
        learner_scores=pd.Series(a, index=pd.Index(learners, name="learner"), name="A"),
        method="Skillings–Mack test"
        + (" (Monte Carlo p-value)" if n_resamples else " (χ² p-value)"),
        null_hypothesis=(
            "H0: within every block, all orderings of the learners present are "
            "equally likely (the learners perform equivalently)."
        ),
        pvalue_standard_error=se,
        n_missing=int((~observed).sum()),
        dropped_blocks=dropped,
    )


def _monte_carlo_count(ranks, observed, weights, centres, inv, statistic, r, seed):
    """How many within-block permutations of the ranks give SM >= the observed."""
    rng = _as_generator(seed)
    n, k = ranks.shape
    # each block's ranks of the cells present, sorted; padded where missing
    present_sorted = np.sort(np.where(observed, ranks, np.inf), axis=1)
    tol = 1e-9 * max(statistic, 1.0)
    batch = max(1, _BATCH_ELEMENTS // (n * k))
    count = 0
    for start in range(0, r, batch):
        size = min(batch, r - start)
        keys = rng.random((size, n, k))
        keys[:, ~observed] = np.inf  # missing cells sort last
        slots = np.argsort(keys, axis=2)  # slot s of block i -> cell slots[.., i, s]
        perm = np.empty((size, n, k))
        np.put_along_axis(
            perm, slots, np.broadcast_to(present_sorted, (size, n, k)), axis=2
        )
        a = _adjusted_sums(perm, observed, weights, centres)
        sm = np.einsum("bj,jl,bl->b", a, inv, a)
        count += int(np.count_nonzero(sm >= statistic - tol))
    return count
