"""The Skillings–Mack test: Friedman's test for blocks with missing learners.

Skillings, J. H. & Mack, G. A. (1981), *On the use of a Friedman-type statistic in
balanced and unbalanced block designs*, Technometrics 23(2), 171–177.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_random_state as _as_generator
from ._common import _direction, _Fields, _validate_scores, monte_carlo_pvalue

_BATCH_ELEMENTS = 2_000_000  # resamples x cells per Monte Carlo batch


@dataclass(frozen=True)
class SkillingsMackResult(_Fields):
    """Result of :func:`skillings_mack_test`.

    Attributes
    ----------
    statistic : float
        The Skillings–Mack statistic ``SM``.
    pvalue : float
        Upper tail of χ²(``df``) at ``statistic``, or the Monte Carlo p-value
        when ``n_resamples`` was given (then ``pvalue_standard_error > 0``).
    df : int
        Rank of the covariance matrix: ``k − 1`` when the design is connected.
    n_blocks : int
        Blocks used (those with at least two learners).
    n_learners : int
    n_missing : int
        Missing learner x block cells among the blocks used.
    adjusted_rank_sums : pandas.Series
        ``A_j``, the weighted, centred rank sums of each learner (Skillings &
        Mack 1981, eq. 2.2) from ranks with rank 1 = best: positive means
        ranked worse than average.
    method : str
    null_hypothesis : str
    pvalue_standard_error : float
        Monte Carlo standard error (0 for the χ² p-value).
    chi2_pvalue : float
        The χ² p-value, always.
    dropped_blocks : tuple
        Blocks with fewer than two learners (they carry no information).
    """

    statistic: float
    pvalue: float
    df: int
    n_blocks: int
    n_learners: int
    n_missing: int
    adjusted_rank_sums: pd.Series = field(compare=False)
    method: str = "Skillings–Mack test"
    null_hypothesis: str = (
        "H0: within every block, all orderings of the learners present are "
        "equally likely (the learners perform equivalently)."
    )
    pvalue_standard_error: float = 0.0
    chi2_pvalue: float = float("nan")
    dropped_blocks: tuple = ()


def _pinv_and_rank(sigma):
    values, vectors = np.linalg.eigh(sigma)
    keep = values > 1e-9 * max(values.max(), 1.0)
    inv = (vectors[:, keep] / values[keep]) @ vectors[:, keep].T
    return inv, int(keep.sum())


def _adjusted_sums(ranks, observed, weights, centres):
    """``A_j = Σ_i w_i (r_ij − c_i)`` over observed cells; ranks may be batched."""
    return np.where(observed, weights[:, None] * (ranks - centres[:, None]), 0.0).sum(
        axis=-2
    )


def skillings_mack_test(
    scores, *, greater_is_better, n_resamples=None, random_state=None
):
    """Skillings–Mack test of k learners over blocks with missing learners.

    Skillings & Mack (1981), eqs. (2.1)–(2.4): in each block the ``k_i``
    learners present are ranked ``1..k_i`` (average ranks for ties); a
    learner's adjusted rank sum is
    ``A_j = Σ_i sqrt(12 / (k_i + 1)) (r_ij − (k_i + 1)/2)`` over the blocks
    where it is present. With ``λ_jl`` the number of blocks holding both ``j``
    and ``l``, ``Σ`` has ``−λ_jl`` off the diagonal and ``Σ_{l≠j} λ_jl`` on it,
    and ``SM = A' Σ⁻ A`` (generalised inverse) is referred to χ² with
    ``rank(Σ)`` degrees of freedom. Without missing cells (and without ties)
    ``SM`` is Friedman's χ²_F; with a balanced incomplete design it is
    Durbin's statistic.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block (data set), one column per learner; NaN marks a
        missing cell (a learner that failed on the data set).
    greater_is_better : bool
        Direction of the scores (rank 1 = best); it only flips the sign of
        ``adjusted_rank_sums`` (``SM`` does not depend on it). Required.
    n_resamples : int, default=None
        ``None``: the χ² p-value. A positive integer: a Monte Carlo p-value
        from that many random permutations of the ranks within each block
        (among the cells present), ``p = (k + 1)/(R + 1)``; recommended by
        Skillings & Mack for small designs and many ties.
    random_state : int, numpy Generator or RandomState, default=None
        Randomness of the Monte Carlo p-value.

    Returns
    -------
    SkillingsMackResult

    Raises
    ------
    ValueError
        Fewer than 2 learners or 2 usable blocks, an infinite score, or a
        bad ``n_resamples``.

    Notes
    -----
    Blocks with fewer than two learners are dropped (they add nothing to ``A``
    or ``Σ``) and listed in ``dropped_blocks``. Ties get average ranks and, as
    in the paper and the CRAN package ``Skillings.Mack``, no variance
    correction, so with many ties the χ² p-value is conservative: use the
    Monte Carlo one. A disconnected design (learners that never share a block
    with the others) gives ``df < k − 1``.

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
    (15.493, 3, 0.00144)
    """
    values, learners, blocks = _validate_scores(scores, allow_nan=True)
    greater_is_better = _direction(greater_is_better)
    if n_resamples is not None and (
        isinstance(n_resamples, bool)
        or not isinstance(n_resamples, int | np.integer)
        or n_resamples < 1
    ):
        raise ValueError("`n_resamples` must be a positive integer or None.")
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
    chi2_p = float(stats.chi2.sf(statistic, df)) if df > 0 else 1.0
    pvalue, se = chi2_p, 0.0
    if n_resamples is not None:
        n_extreme = _monte_carlo_count(
            ranks, observed, weights, centres, inv, statistic, int(n_resamples),
            random_state,
        )  # fmt: skip
        pvalue, se = monte_carlo_pvalue(n_extreme, int(n_resamples))
    return SkillingsMackResult(
        statistic=statistic,
        pvalue=float(pvalue),
        df=df,
        n_blocks=n,
        n_learners=k,
        n_missing=int((~observed).sum()),
        adjusted_rank_sums=pd.Series(
            a, index=pd.Index(learners, name="learner"), name="A"
        ),
        method="Skillings–Mack test"
        + (" (Monte Carlo p-value)" if n_resamples else " (χ² p-value)"),
        pvalue_standard_error=se,
        chi2_pvalue=chi2_p,
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
