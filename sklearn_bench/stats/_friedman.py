"""Friedman's test over blocks, Iman–Davenport's F, the critical differences and
the rank-based post-hoc tests (Demšar 2006, JMLR 7, Sections 3.2.2-3.2.3)."""

import math
from dataclasses import dataclass, field
from itertools import permutations

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_alpha as _check_alpha
from .._validation import check_choice as _check_choice
from .._validation import check_positive_int, real_array
from ._common import _direction, _Fields, _validate_scores
from ._pairwise import _pairs_to_test, rank_pairwise
from ._rank_posthoc import RANK_METHODS

_CD_METHODS = ("nemenyi", "bonferroni-dunn")
# Budget of the exact permutation distribution (rank-sum vectors x block
# arrangements added up in one step, and over all blocks); see friedman_test.
_EXACT_MAX_STEP = 500_000
_EXACT_MAX_TOTAL = 3_000_000
_EXACT_MAX_ARRANGEMENTS = 5040  # 7!: distinct arrangements of one block
_UNDEFINED_F = (
    "Iman–Davenport F_F is undefined (0/0 or x/0): every block ranks the learners "
    "in the same order, so the residual (within-block) variance of the ranks is "
    "zero; read the Friedman p-value instead."
)


def _rank_se(n_learners, n_blocks):
    """Standard error of a difference of two average ranks, sqrt(k(k+1)/(6N))."""
    return float(np.sqrt(n_learners * (n_learners + 1) / (6.0 * n_blocks)))


def _q_alpha(n_learners, alpha, method):
    if method == "nemenyi":
        # Studentized range with infinite df, divided by sqrt(2) (Demsar 2006, eq.
        # after Table 5); computed, not read from a table, so any k works.
        return float(
            stats.studentized_range.ppf(1 - alpha, n_learners, np.inf) / np.sqrt(2)
        )
    # Bonferroni-Dunn: k - 1 two-sided comparisons with a control.
    return float(stats.norm.ppf(1 - alpha / (2 * (n_learners - 1))))


def _iman_davenport(chi2, n, k):
    """Iman and Davenport's F_F from χ²_F and its p-value (Demšar 2006); NaN
    when every block ranks alike (zero residual variance of the ranks)."""
    gap = n * (k - 1) - chi2
    if gap <= 1e-12 * n * (k - 1):  # perfect agreement of all blocks
        return np.nan, np.nan
    f_stat = float((n - 1) * chi2 / gap)
    return f_stat, float(stats.f.sf(f_stat, k - 1, (k - 1) * (n - 1)))


class _ExactTooLarge(Exception):
    """The exact permutation distribution is over the enumeration budget."""


def _friedman_exact_pvalue(ranks):
    """Exact permutation p-value of Friedman's statistic: the rank-sum vectors
    (sorted, doubled ranks) convolved block by block; ``_ExactTooLarge`` beyond
    the ``_EXACT_MAX_*`` budget."""
    doubled = np.rint(2 * np.asarray(ranks, dtype=float)).astype(np.int64)
    n, k = doubled.shape
    observed = int(np.sum(doubled.sum(axis=0) ** 2))
    base = 2 * k * n + 1  # every doubled rank sum is below this
    use_key = k * np.log(base) < 62 * np.log(2)
    states = np.zeros((1, k), dtype=np.int64)
    probs = np.ones(1)
    total = 0
    for row in doubled:
        _, ties = np.unique(row, return_counts=True)
        n_arrangements = math.factorial(k) // math.prod(
            math.factorial(int(t)) for t in ties
        )
        work = len(states) * n_arrangements
        total += work
        if (
            n_arrangements > _EXACT_MAX_ARRANGEMENTS
            or work > _EXACT_MAX_STEP
            or total > _EXACT_MAX_TOTAL
        ):
            raise _ExactTooLarge
        arrangements = np.array(sorted(set(permutations(row.tolist()))), np.int64)
        new = (states[:, None, :] + arrangements[None, :, :]).reshape(-1, k)
        new.sort(axis=1)
        weights = np.repeat(probs / len(arrangements), len(arrangements))
        if use_key:  # each sorted vector as one base-``base`` integer
            key = new @ base ** np.arange(k - 1, -1, -1, dtype=np.int64)
            _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
        else:  # pragma: no cover - k large enough to overflow is over budget
            _, first, inverse = np.unique(
                new, axis=0, return_index=True, return_inverse=True
            )
        probs = np.bincount(inverse.ravel(), weights=weights)
        states = new[first]
    extreme = np.sum(states**2, axis=1) >= observed
    return float(min(1.0, probs[extreme].sum()))


@dataclass(frozen=True)
class FriedmanResult(_Fields):
    """Result of :func:`friedman_test`.

    Attributes
    ----------
    average_ranks : pandas.Series
        Average rank of each learner over the blocks (rank 1 = best), indexed by
        learner.
    statistic : float
        Friedman's χ²_F with ``k - 1`` degrees of freedom (tie-corrected as R's
        ``friedman.test`` if ``tie_correction=True``).
    pvalue : float
        From the distribution named by ``null_distribution``.
    iman_davenport_statistic : float
        ``F_F = (N - 1) χ²_F / (N (k - 1) - χ²_F)``; NaN when every block ranks
        the learners alike (see ``notes``).
    iman_davenport_pvalue : float
        Upper tail of F(k - 1, (k - 1)(N - 1)) (NaN when F_F is).
    n_blocks, n_learners : int
        ``N`` and ``k``.
    method, null_hypothesis : str
    null_distribution : {"exact", "chi2"}
        The exact permutation distribution or the χ²(k - 1) approximation.
    notes : tuple of str
        The distribution used and why, an undefined Iman–Davenport F.
    """

    average_ranks: pd.Series = field(compare=False)
    statistic: float
    pvalue: float
    iman_davenport_statistic: float
    iman_davenport_pvalue: float
    n_blocks: int
    n_learners: int
    method: str = "Friedman rank sum test"
    null_hypothesis: str = (
        "H0: all learners have the same expected rank on every block "
        "(the learners perform equivalently)."
    )
    null_distribution: str = "chi2"
    notes: tuple = ()
    _ranks: pd.DataFrame = field(repr=False, default=None, compare=False)
    _values: np.ndarray = field(repr=False, default=None, compare=False)
    _also = ("kendalls_w",)  # in to_dict and to_frame

    @classmethod
    def from_average_ranks(cls, average_ranks, n_blocks: int) -> "FriedmanResult":
        """Friedman's test from published average ranks (Demšar's formula).

        For papers that print only the average ranks: no tie correction, the
        χ² p-value, ``posthoc`` limited to the z tests of average ranks and
        ``ranks`` ``None``.

        Parameters
        ----------
        average_ranks : Series or array-like of shape (k,)
            Average rank of each learner (a Series' index names the learners).
        n_blocks : int
            Number of blocks ``N`` the ranks were averaged over.

        Returns
        -------
        FriedmanResult

        Examples
        --------
        >>> from sklearn_bench.stats import FriedmanResult
        >>> res = FriedmanResult.from_average_ranks([3.143, 2.000, 2.893, 1.964], 14)
        >>> round(res.statistic, 2), round(res.iman_davenport_statistic, 2)
        (9.28, 3.69)
        """
        ranks = real_array(average_ranks, "average_ranks")
        if ranks.ndim != 1 or ranks.size < 2:
            raise ValueError("`average_ranks` must hold at least 2 learners' ranks.")
        k = ranks.size
        if not np.all((ranks >= 1) & (ranks <= k)):  # NaN too
            raise ValueError(f"`average_ranks` must lie in [1, {k}] (no NaN).")
        named = isinstance(average_ranks, pd.Series)
        learners = list(average_ranks.index) if named else list(range(k))
        n = check_positive_int(n_blocks, "n_blocks", minimum=2)
        chi2 = 12.0 * n / (k * (k + 1)) * (np.sum(ranks**2) - k * (k + 1) ** 2 / 4)
        chi2 = float(max(chi2, 0.0))
        f_stat, f_p = _iman_davenport(chi2, n, k)
        notes = ["p-value from the chi2(k - 1) approximation (no ranks to permute)."]
        if np.isnan(f_stat):
            notes.append(_UNDEFINED_F)
        return cls(
            average_ranks=pd.Series(
                ranks, index=pd.Index(learners, name="learner"), name="average_rank"
            ),
            statistic=chi2,
            pvalue=float(stats.chi2.sf(chi2, k - 1)),
            iman_davenport_statistic=f_stat,
            iman_davenport_pvalue=f_p,
            n_blocks=n,
            n_learners=k,
            method="Friedman rank sum test (from average ranks, Demsar's formula)",
            notes=tuple(notes),
        )

    @property
    def df(self):
        """Degrees of freedom of the Iman–Davenport F, ``(k - 1, (k - 1)(N - 1))``."""
        k, n = self.n_learners, self.n_blocks
        return (k - 1, (k - 1) * (n - 1))

    @property
    def kendalls_w(self):
        """Kendall's coefficient of concordance, ``W = χ²_F / (N (k − 1))``.

        The Friedman test's effect size: 0 for equal average ranks, 1 when every
        block ranks alike (Kendall & Babington Smith 1939); tie-corrected when
        χ²_F is.
        """
        return float(self.statistic / (self.n_blocks * (self.n_learners - 1)))

    @property
    def ranks(self):
        """The within-block ranks, a blocks x learners DataFrame (rank 1 = best);
        ``None`` for a result made by :meth:`from_average_ranks`."""
        return None if self._ranks is None else self._ranks.copy()

    def critical_difference(
        self, *, alpha: float = 0.05, method: str = "nemenyi"
    ) -> float:
        """Critical difference of average ranks (Demšar 2006, Section 3.2.2).

        Average ranks that differ by at least ``CD = q_alpha * sqrt(k (k + 1) /
        (6 N))`` differ at family-wise level ``alpha``.

        Parameters
        ----------
        alpha : float, default=0.05
            Family-wise significance level, in (0, 1).
        method : {"nemenyi", "bonferroni-dunn"}, default="nemenyi"
            ``"nemenyi"``: all pairs, ``q_alpha`` the studentized range's
            quantile (df = inf) over ``sqrt(2)``. ``"bonferroni-dunn"``: against
            one control, ``q_alpha = Phi^{-1}(1 - alpha / (2 (k - 1)))``.

        Returns
        -------
        float
            The critical difference, in units of average rank.

        Examples
        --------
        Demšar's (2006, Section 3.2.4) k = 4 learners on N = 14 data sets:

        >>> from sklearn_bench.stats import FriedmanResult
        >>> res = FriedmanResult.from_average_ranks([1, 2, 3, 4], n_blocks=14)
        >>> round(res.critical_difference(), 3)
        1.254
        >>> round(res.critical_difference(method="bonferroni-dunn"), 3)
        1.168
        """
        alpha = _check_alpha(alpha)
        method = _check_choice(method, _CD_METHODS, "method")
        return _q_alpha(self.n_learners, alpha, method) * _rank_se(
            self.n_learners, self.n_blocks
        )

    def posthoc(self, *, method="nemenyi", adjust=None, alpha=0.05, control=None):
        """Post-hoc tests of Friedman's null, pair by pair (Demšar 2006, Sec. 3.2.2).

        :func:`~sklearn_bench.stats.pairwise_tests` with a rank ``method`` on
        this result's scores (from :meth:`from_average_ranks`, the z tests).

        Parameters
        ----------
        method : {"nemenyi", "siegel", "miller", "conover", "quade", \
"exact_ranksum"}, default="nemenyi"
            As in :func:`pairwise_tests` (``"nemenyi"`` rejects exactly when
            ``|R̄_i − R̄_j| >= CD``).
        adjust : str, default=None
            As in :func:`pairwise_tests`.
        alpha : float, default=0.05
            Family-wise level of ``reject``.
        control : label, default=None
            A learner to compare every other one with (``None``: all pairs).

        Returns
        -------
        PairwiseTestResult

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench.stats import friedman_test
        >>> ranks = pd.DataFrame([[1, 2, 3], [1, 3, 2], [2, 1, 3], [1, 2, 3],
        ...                       [1, 3, 2]], columns=["a", "b", "c"])
        >>> res = friedman_test(ranks, greater_is_better=False)  # rank 1 is best
        >>> post = res.posthoc(method="siegel", adjust="holm", control="a")
        >>> post.to_frame()[["learner_i", "statistic", "pvalue_adjusted"]].round(3)
          learner_i  statistic  pvalue_adjusted
        0         b      1.581            0.114
        1         c      2.214            0.054
        """
        method = _check_choice(method, RANK_METHODS, "method")
        learners = list(self.average_ranks.index)
        i, j, adjust = _pairs_to_test(learners, method, adjust, control)
        return rank_pairwise(
            method,
            adjust,
            _check_alpha(alpha),
            control,
            (i, j),
            self.average_ranks,
            None if self._ranks is None else self._ranks.to_numpy(),
            self._values,
            n_blocks=self.n_blocks,
        )


def friedman_test(
    scores,
    *,
    greater_is_better: bool,
    tie_correction: bool = True,
    exact: bool | None = None,
) -> FriedmanResult:
    """Friedman's test of k learners over N blocks, with Iman–Davenport's F.

    Demšar (2006), Section 3.2.2: with ``R_j`` the average within-block ranks
    (1 = best), ``χ²_F = 12 N / (k (k + 1)) [sum_j R_j² - k (k + 1)² / 4]`` on
    ``k - 1`` df, and Iman and Davenport's ``F_F``.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block (data set, or replicate within one data set), one column
        per learner (a DataFrame's columns name them).
    greater_is_better : bool
        Whether a higher score is better (accuracy, AUC). Required.
    tie_correction : bool, default=True
        Divide χ²_F by the tie factor, as R's ``friedman.test`` and
        ``scipy.stats.friedmanchisquare``; ``False`` gives Demšar's formula.
    exact : bool or None, default=None
        Where ``pvalue`` comes from: ``None``, the exact permutation
        distribution when small enough to enumerate, else χ²(k - 1); ``True``,
        exact or a ``ValueError``; ``False``, χ² (R's ``friedman.test``).

    Returns
    -------
    FriedmanResult

    Notes
    -----
    The exact p-value (its enumeration budget), the degenerate cases (F_F NaN
    when every block ranks alike) and Demšar's Table 6 are worked through in
    :ref:`many_learners`. Post-hoc tests and critical differences use the
    normal approximation to rank differences whatever ``exact`` says.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.stats import friedman_test
    >>> auc = pd.DataFrame(
    ...     [[0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569],
    ...      [0.954, 0.971, 0.968, 0.967], [0.628, 0.661, 0.654, 0.657],
    ...      [0.882, 0.888, 0.886, 0.898]],
    ...     columns=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
    ... )
    >>> res = friedman_test(auc, greater_is_better=True)
    >>> res.average_ranks.round(2).to_dict()
    {'C4.5': 3.4, 'C4.5+m': 1.8, 'C4.5+cf': 2.6, 'C4.5+m+cf': 2.2}
    >>> round(res.statistic, 2), round(res.pvalue, 3), res.null_distribution
    (4.2, 0.26, 'exact')
    >>> round(res.iman_davenport_statistic, 3), round(res.iman_davenport_pvalue, 3)
    (1.556, 0.251)
    """
    values, learners, blocks = _validate_scores(scores)
    greater_is_better = _direction(greater_is_better)
    n, k = values.shape
    ranks = stats.rankdata(-values if greater_is_better else values, axis=1)
    avg = ranks.mean(axis=0)
    # Friedman (1937); Demsar (2006) eq. for chi2_F, written as R's friedman.test:
    # 12 sum_j (S_j - N(k+1)/2)^2 / (N k (k+1) - sum(t^3 - t)/(k-1)), S_j rank sums.
    numerator = 12.0 * np.sum((ranks.sum(axis=0) - n * (k + 1) / 2.0) ** 2)
    denominator = n * k * (k + 1.0)
    if tie_correction:  # sum over tie groups of t³ − t: t² − 1 for each member
        group = (ranks[:, :, None] == ranks[:, None, :]).sum(axis=2)
        denominator -= float(np.sum(group**2 - 1)) / (k - 1)
    # 0 / 0 when every block is a complete tie
    chi2 = float(numerator / denominator) if denominator > 0 else 0.0
    if exact not in (None, True, False):
        raise ValueError(f"`exact` must be None, True or False; got {exact!r}.")
    pvalue, note = None, "p-value from the chi2(k - 1) approximation (exact=False)."
    if exact is not False:
        try:
            pvalue = _friedman_exact_pvalue(ranks)
            note = (
                "p-value from the exact permutation distribution of the ranks "
                "within blocks."
            )
        except _ExactTooLarge:
            if exact:
                raise ValueError(
                    f"The exact Friedman distribution of k = {k} learners over "
                    f"N = {n} blocks is too large to enumerate; use exact=False "
                    "or exact=None (chi2 approximation)."
                ) from None
            note = (
                f"p-value from the chi2(k - 1) approximation: the exact "
                f"permutation distribution of k = {k} learners over N = {n} blocks "
                "is too large to enumerate."
            )
    notes = [note]
    distribution = "chi2" if pvalue is None else "exact"
    if pvalue is None:
        pvalue = float(stats.chi2.sf(chi2, k - 1))
    f_stat, f_p = _iman_davenport(chi2, n, k)
    if np.isnan(f_stat):
        notes.append(_UNDEFINED_F)
    index = pd.Index(learners, name="learner")
    ties = "tie-corrected" if tie_correction else "Demsar's formula, no tie correction"
    return FriedmanResult(
        average_ranks=pd.Series(avg, index=index, name="average_rank"),
        statistic=chi2,
        pvalue=pvalue,
        iman_davenport_statistic=f_stat,
        iman_davenport_pvalue=f_p,
        n_blocks=n,
        n_learners=k,
        method=f"Friedman rank sum test ({ties})",
        null_distribution=distribution,
        notes=tuple(notes),
        _ranks=pd.DataFrame(ranks, index=pd.Index(blocks, name="block"), columns=index),
        _values=values,
    )
