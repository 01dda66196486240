"""Rank tests of k learners over blocks beside Friedman's: Quade's test, Durbin's
test for balanced incomplete blocks, and Friedman's aligned ranks test."""

from dataclasses import dataclass, field
from itertools import combinations
from math import factorial

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_choice as _check_choice
from ._common import _direction, _Fields, _validate_scores
from ._rank_posthoc import quade_sums


@dataclass(frozen=True)
class BlockTestResult(_Fields):
    """Result of :func:`quade_test`, :func:`durbin_test`, :func:`cochrans_q`,
    :func:`friedman_aligned_ranks_test` and :func:`skillings_mack_test`.

    Attributes
    ----------
    statistic : float
        The test's statistic; NaN where it is undefined (see ``notes``).
    pvalue : float
        Upper tail of ``distribution`` with ``df`` at ``statistic``, or the
        Monte Carlo p-value (``pvalue_standard_error > 0``).
    df : tuple
        ``(k − 1,)`` for χ², ``(df1, df2)`` for F.
    distribution : {"chi2", "F"}
    n_blocks, n_learners : int
    learner_scores : pandas.Series
        Per learner, the quantity the test compares (each test's Returns).
    method, null_hypothesis : str
    notes : tuple of str
    pvalue_standard_error : float
        Monte Carlo standard error of ``pvalue`` (0 for an analytic one).
    n_missing : int
        Missing learner x block cells among the blocks used.
    dropped_blocks : tuple
        Blocks with fewer than two learners (Skillings–Mack drops them).
    f_statistic, f_pvalue : float or None
        Durbin only: Conover's (1999) F form ``T₂`` of Durbin's statistic and
        its p-value from F(``f_df``); ``None`` for the other tests.
    f_df : tuple
    """

    statistic: float
    pvalue: float
    df: tuple
    distribution: str
    n_blocks: int
    n_learners: int
    learner_scores: pd.Series = field(compare=False)
    method: str
    null_hypothesis: str
    notes: tuple = ()
    pvalue_standard_error: float = 0.0
    n_missing: int = 0
    dropped_blocks: tuple = ()
    f_statistic: float | None = None
    f_pvalue: float | None = None
    f_df: tuple = ()


def _series(values, learners, name):
    return pd.Series(values, index=pd.Index(learners, name="learner"), name=name)


def quade_test(scores, *, greater_is_better: bool) -> BlockTestResult:
    """Quade's test of k learners over N complete blocks (R's ``quade.test``).

    Rank the learners within each block (``r_bj``, mid-ranks for ties), rank
    the blocks by their range ``max_j x_bj − min_j x_bj`` (``Q_b``), form
    ``S_bj = Q_b (r_bj − (k + 1) / 2)``, ``A = Σ S_bj²``, ``B = Σ_j (Σ_b
    S_bj)² / N`` and ``F = (N − 1) B / (A − B)`` with ``k − 1`` and ``(N −
    1)(k − 1)`` degrees of freedom (Quade 1979; Conover 1999, Sec. 5.8).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block (data set), one column per learner; no NaN.
    greater_is_better : bool
        Direction, for ``learner_scores`` only. Required.

    Returns
    -------
    BlockTestResult
        ``learner_scores`` are the weighted average ranks
        ``W_j / (N (N + 1) / 2)``, ``W_j = Σ_b Q_b r_bj`` (rank 1 = best).

    Notes
    -----
    When ``A = B`` (every block ranks alike, ranges tie) F is NaN and, as R,
    the p-value is ``(k!)^(1 − N)`` (Conover 1999, p. 374).

    Examples
    --------
    >>> from sklearn_bench.stats import quade_test
    >>> # R: quade.test(dataFreq) of ?quade.test (Conover 1999, p. 375)
    >>> freq = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35],
    ...         [5, 4, 3, 5, 4], [10, 9, 7, 13, 10], [19, 18, 28, 37, 58],
    ...         [10, 7, 6, 8, 7]]
    >>> res = quade_test(freq, greater_is_better=False)
    >>> round(res.statistic, 4), round(res.pvalue, 5), res.df
    (3.8293, 0.01519, (4, 24))
    """
    values, learners, _ = _validate_scores(scores)
    sign = -1.0 if _direction(greater_is_better) else 1.0
    n, k = values.shape
    ranks = stats.rankdata(sign * values, axis=1)
    weights, _, big_a, big_b = quade_sums(ranks, values)
    notes = []
    df = (k - 1, (n - 1) * (k - 1))
    if big_a == 0:  # every block ties all learners (or every range is 0)
        statistic, pvalue = 0.0, 1.0
        notes.append(
            "Every block ties all its learners (or has range 0): no ranking "
            "information; F is reported as 0 with p-value 1 (R's quade.test "
            "returns (k!)^(1 - N) here, as if the blocks agreed)."
        )
    elif big_a - big_b <= 1e-12 * big_a:
        statistic = float("nan")
        pvalue = float(factorial(k)) ** (1 - n)
        notes.append(
            "Quade's F is undefined (A = B: every block ranks the learners "
            "alike and their ranges tie); as R, the p-value is (k!)^(1 - N) "
            "(Conover 1999, p. 374)."
        )
    else:
        statistic = (n - 1) * big_b / (big_a - big_b)
        pvalue = float(stats.f.sf(statistic, *df))
    weighted = (weights[:, None] * ranks).sum(axis=0) / (n * (n + 1) / 2.0)
    return BlockTestResult(
        statistic=float(statistic),
        pvalue=pvalue,
        df=df,
        distribution="F",
        n_blocks=n,
        n_learners=k,
        learner_scores=_series(weighted, learners, "weighted_average_rank"),
        method="Quade test",
        null_hypothesis=(
            "H0: within every block all orderings of the learners are equally "
            "likely (the learners perform equivalently); blocks weighted by the "
            "rank of their range."
        ),
        notes=tuple(notes),
    )


def durbin_test(scores, *, greater_is_better: bool) -> BlockTestResult:
    """Durbin's test for a balanced incomplete block design (BIBD).

    Each block holds ``k`` of the ``t`` learners, each learner is in ``r``
    blocks, each pair meets in ``λ``; with ``R_j`` the learners' rank sums,
    ``A = Σ r_bj²``, ``C = b k (k + 1)² / 4``:
    ``T₁ = (t − 1) (Σ_j R_j² − r C) / (A − C)``, χ²(t − 1) under H0, and
    Conover's F form ``T₂`` (Durbin 1951; Conover 1999, Sec. 5.9; PMCMRplus's
    ``durbinTest``).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block, one column per learner, NaN where the learner is not
        in the block.
    greater_is_better : bool
        Direction, for ``learner_scores`` only. Required.

    Returns
    -------
    BlockTestResult
        ``statistic``/``pvalue``: T₁ and χ²; ``f_statistic``/``f_pvalue``: T₂
        and F. ``learner_scores``: each learner's average rank over its blocks
        (rank 1 = best).

    Raises
    ------
    ValueError
        When the design is not a BIBD, naming what differs.

    Notes
    -----
    With complete blocks T₁ is Friedman's tie-corrected χ²_F. All ties give
    T₁ = 0 (p = 1); every block ranked alike a NaN T₂ (with a note).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import durbin_test
    >>> nan = np.nan  # Conover's (1999) ice-cream tasting, 7 judges x 7 kinds
    >>> ice = [[2, 3, nan, 1, nan, nan, nan], [nan, 3, 1, nan, 2, nan, nan],
    ...        [nan, nan, 2, 1, nan, 3, nan], [nan, nan, nan, 1, 2, nan, 3],
    ...        [3, nan, nan, nan, 1, 2, nan], [nan, 3, nan, nan, nan, 1, 2],
    ...        [3, nan, 1, nan, nan, nan, 2]]
    >>> res = durbin_test(ice, greater_is_better=False)
    >>> res.statistic, round(res.pvalue, 4), res.f_statistic, round(res.f_pvalue, 4)
    (12.0, 0.062, 8.0, 0.0049)
    """
    values, learners, blocks = _validate_scores(scores, allow_nan=True)
    sign = -1.0 if _direction(greater_is_better) else 1.0
    present = ~np.isnan(values)
    b, t = values.shape
    sizes = present.sum(axis=1)
    if np.any(sizes < 2):
        row = int(np.argmax(sizes < 2))
        raise ValueError(
            f"Block {blocks[row]!r} of `scores` holds {int(sizes[row])} learner(s); "
            "every block of a BIBD holds the same k >= 2 learners."
        )
    reps = present.sum(axis=0)
    meets = present.T.astype(int) @ present.astype(int)
    lam = {int(meets[i, j]) for i, j in combinations(range(t), 2)}
    sized = set(sizes.tolist())
    for distinct, shown, what in (
        (sized, sorted(sized), "the blocks hold different numbers of learners"),
        (set(reps.tolist()), dict(zip(learners, reps.tolist(), strict=True)),
         "the learners appear in different numbers of blocks"),
        (lam, sorted(lam), "pairs of learners share different numbers of blocks"),
    ):  # fmt: skip
        if len(distinct) > 1:
            raise ValueError(
                f"`scores` is not a balanced incomplete block design: {what} "
                f"({shown}); use skillings_mack_test for other incomplete designs."
            )
    k, r = int(sizes[0]), int(reps[0])
    ranks = stats.rankdata(sign * values, axis=1, nan_policy="omit")
    rank_sums = np.nansum(ranks, axis=0)
    big_a = float(np.nansum(ranks**2))
    big_c = b * k * (k + 1) ** 2 / 4.0
    notes = []
    if big_a - big_c <= 1e-12 * big_a:
        t1 = 0.0
        notes.append(
            "Every block ties all its learners: T1 is 0/0, reported as 0 (p = 1)."
        )
    else:
        t1 = (t - 1) * (float(np.sum(rank_sums**2)) - r * big_c) / (big_a - big_c)
        t1 = max(t1, 0.0)
    df2 = b * k - b - t + 1
    gap = b * (k - 1) - t1
    if df2 <= 0 or gap <= 1e-12 * b * (k - 1):
        t2 = f_p = float("nan")
        notes.append(
            "Conover's F form T2 is undefined: every block ranks its learners "
            "alike (T1 = b (k - 1)) or b k - b - t + 1 <= 0; read T1."
        )
    else:
        t2 = (t1 / (t - 1)) / (gap / df2)
        f_p = float(stats.f.sf(t2, t - 1, df2))
    return BlockTestResult(
        statistic=float(t1),
        pvalue=float(stats.chi2.sf(t1, t - 1)),
        df=(t - 1,),
        distribution="chi2",
        n_blocks=b,
        n_learners=t,
        learner_scores=_series(rank_sums / r, learners, "average_rank"),
        method=f"Durbin test (BIBD: t = {t}, b = {b}, k = {k}, r = {r}, "
        f"lambda = {lam.pop()})",
        null_hypothesis=(
            "H0: within every block all orderings of the learners present are "
            "equally likely (the learners perform equivalently)."
        ),
        notes=tuple(notes),
        f_statistic=float(t2),
        f_pvalue=f_p,
        f_df=(t - 1, df2) if df2 > 0 else (),
    )


_ALIGNMENTS = ("mean", "median")


def friedman_aligned_ranks_test(
    scores, *, greater_is_better: bool, alignment: str = "mean"
) -> BlockTestResult:
    """Friedman's aligned ranks test (Hodges & Lehmann 1962; García et al. 2010).

    Rank all ``k N`` scores minus their block's location together; with
    ``R̂_j`` the learners' and ``R̂_b`` the blocks' rank sums:
    ``T = (k − 1) [Σ_j R̂_j² − (k N² / 4)(k N + 1)²] / ([k N (k N + 1)(2 k N + 1)
    / 6] − Σ_b R̂_b² / k)``, χ²(k − 1) under H0 (García et al. 2010, Sec. 3.2;
    scmamp's ``friedmanAlignedRanksTest``).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block, one column per learner; no NaN.
    greater_is_better : bool
        Direction, for ``learner_scores`` only. Required.
    alignment : {"mean", "median"}, default="mean"
        The block location subtracted.

    Returns
    -------
    BlockTestResult
        ``learner_scores``: the learners' average aligned ranks (1 = best,
        ``k N`` = worst).

    Notes
    -----
    Not tie-corrected, as García et al. and scmamp; aligned values equal to 9
    significant digits are ties (scmamp ranks them by rounding noise).

    Examples
    --------
    >>> from sklearn_bench.stats import friedman_aligned_ranks_test
    >>> acc = [[0.75, 0.77, 0.79, 0.80], [0.73, 0.75, 0.72, 0.71],
    ...        [0.74, 0.72, 0.59, 0.64], [0.90, 0.92, 0.94, 0.93],
    ...        [0.62, 0.66, 0.65, 0.67]]
    >>> res = friedman_aligned_ranks_test(acc, greater_is_better=True)
    >>> round(res.statistic, 3), round(res.pvalue, 3)
    (1.348, 0.718)
    """
    values, learners, _ = _validate_scores(scores)
    sign = -1.0 if _direction(greater_is_better) else 1.0
    alignment = _check_choice(alignment, _ALIGNMENTS, "alignment")
    n, k = values.shape
    location = np.mean if alignment == "mean" else np.median
    size = np.max(np.abs(values))  # ranks are scale-free; no overflow near 1e308
    unit = values / size if size > 0 else values
    aligned = unit - location(unit, axis=1, keepdims=True)
    scale = np.max(np.abs(aligned))
    if scale > 0:  # equal to 9 digits: a tie, not floating-point noise
        aligned = np.round(aligned / scale, 9)
    ranks = stats.rankdata(sign * aligned.ravel()).reshape(n, k)
    kn = k * n
    col = ranks.sum(axis=0)
    row = ranks.sum(axis=1)
    numerator = (k - 1) * (np.sum(col**2) - (kn * n / 4.0) * (kn + 1) ** 2)
    denominator = kn * (kn + 1) * (2 * kn + 1) / 6.0 - np.sum(row**2) / k
    notes = []
    if denominator <= 1e-12 * kn**3:
        statistic, pvalue = float("nan"), float("nan")
        notes.append("T is undefined: the blocks' aligned ranks have no spread.")
    else:
        statistic = float(numerator / denominator)
        pvalue = float(stats.chi2.sf(statistic, k - 1))
    return BlockTestResult(
        statistic=statistic,
        pvalue=pvalue,
        df=(k - 1,),
        distribution="chi2",
        n_blocks=n,
        n_learners=k,
        learner_scores=_series(col / n, learners, "average_aligned_rank"),
        method=f"Friedman aligned ranks test (alignment by the block {alignment})",
        null_hypothesis=(
            "H0: the learners' aligned scores are exchangeable within every block "
            "(the learners perform equivalently)."
        ),
        notes=tuple(notes),
    )
