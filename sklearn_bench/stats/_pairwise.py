"""All-pairs tests that do not depend on the other learners, with Holm, Shaffer and
Bergmann–Hommel corrections.

Benavoli, Corani & Mangili (2016), *Should we really use post-hoc tests based on
mean-ranks?*, JMLR 17: the verdict of a mean-rank post-hoc test (Nemenyi) on A
versus B changes when learner C is added or removed. A paired test on A and B
alone (Wilcoxon signed-rank or sign test over the data sets) does not; the
multiple comparisons are then controlled by adjusting the ``k (k − 1) / 2``
p-values. Shaffer's static procedure and Bergmann & Hommel's use the logical
relations among pairwise hypotheses (García & Herrera 2008, JMLR 9, Sec. 2.2).
"""

import warnings
from dataclasses import dataclass, field
from functools import cache
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_alpha as _check_alpha
from .._validation import check_choice as _check_choice
from ._common import _direction, _pair_matrix, _validate_scores
from ._multitest import _validate_pvalues, adjust_pvalues
from ._paired import paired_test
from ._posthoc import PosthocResult, _same_level
from ._rank_posthoc import RANK_METHODS, SINGLE_STEP, rank_posthoc

_ADJUST = ("holm", "shaffer", "bergmann_hommel", "bonferroni", "none")
# p.adjust's and scmamp's adjustments of any family (issue 24)
_ADJUST += ("hochberg", "hommel", "finner", "holland", "li", "rom")
# Public: the choices of `adjust` ("single_step" too for pairwise_tests' rank tests)
PAIRWISE_ADJUST_METHODS = _ADJUST
_TESTS = ("wilcoxon", "sign") + RANK_METHODS
_MISSING = ("raise", "pairwise")
BERGMANN_HOMMEL_MAX_LEARNERS = 10  # Bell(10) − 1 = 115 974 exhaustive sets


# ------------------------------------------------------------------- adjustments
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
    hypotheses among the k (k − 1) / 2 pairwise equalities of k learners.

    ``S(k) = ∪_{j=1..k} {C(j, 2) + x : x ∈ S(k − j)}``, ``S(0) = S(1) = {0}``
    (García & Herrera 2008, Sec. 2.2).
    """
    if k <= 1:
        return frozenset({0})
    out = set()
    for j in range(1, k + 1):
        out.update(j * (j - 1) // 2 + x for x in _shaffer_counts(k - j))
    return frozenset(out)


def _shaffer_multipliers(k):
    """t_i: the most hypotheses that can be true when i − 1 were rejected."""
    m = k * (k - 1) // 2
    possible = np.array(sorted(_shaffer_counts(k)))
    remaining = m - np.arange(m)  # m − i + 1 for i = 1..m
    idx = np.searchsorted(possible, remaining, side="right") - 1
    return possible[idx]


@cache
def _exhaustive_sets(k):
    """Boolean (n_sets, k (k − 1) / 2) matrix: which pairs each exhaustive set holds.

    A set of pairwise equalities can be exactly the true ones iff it is closed
    under transitivity, i.e. it is the "same block" relation of a partition of
    the k learners; the partition into singletons (no hypothesis) is left out.
    So there are Bell(k) − 1 sets. Partitions are enumerated as restricted
    growth strings.
    """
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


def adjust_pairwise_pvalues(pvalues, *, method="shaffer"):
    """Adjust the p-values of all pairwise comparisons of k learners.

    Parameters
    ----------
    pvalues : array-like of shape (k (k − 1) / 2,)
        Raw p-values of the pairs ``(0, 1), (0, 2), ..., (k − 2, k − 1)``
        (:func:`itertools.combinations` order).
    method : {"holm", "shaffer", "bergmann_hommel", "bonferroni", "none"}, \
default="shaffer"
        - ``"holm"``: Holm's step-down (R's ``p.adjust``).
        - ``"shaffer"``: Shaffer's (1986) static procedure S1: the i-th smallest
          p-value is multiplied by ``t_i``, the largest number of pairwise
          hypotheses that can be true given that ``i − 1`` were rejected, then
          made monotone (``APV_i = max_{j <= i} min(1, t_j p_(j))``; García &
          Herrera 2008, Sec. 2.2; scmamp's ``adjustShaffer``).
        - ``"bergmann_hommel"``: Bergmann & Hommel (1988), the closed test with
          Bonferroni local tests over the exhaustive sets ``I`` (sets of
          pairwise equalities that can be exactly the true ones):
          ``APV_i = min(1, max{|I| · min_{j ∈ I} p_j : I exhaustive, i ∈ I})``
          (García & Herrera 2008, Sec. 2.2). H_i is rejected at level ``α``
          exactly when ``APV_i <= α``. Needs ``k <= 10`` (Bell(k) − 1 sets).
        - ``"bonferroni"``, ``"none"``.
        - ``"hochberg"``, ``"hommel"`` (R's ``p.adjust``), ``"finner"``,
          ``"holland"``, ``"li"``, ``"rom"`` (García et al. 2010, scmamp): see
          :func:`adjust_pvalues`. These ignore the logical relations of the
          pairs; Hochberg, Hommel, Rom and Li assume independent or positively
          dependent p-values, which pairwise comparisons need not be
          (``benchmarks/posthoc_fwer.py`` measures their family-wise error).

    Returns
    -------
    ndarray of shape (k (k − 1) / 2,)

    Notes
    -----
    scmamp's ``adjustBergmannHommel`` additionally takes the running maximum of
    the adjusted p-values in the order of the raw ones. That can only raise an
    adjusted p-value (so it stays valid) but it is no longer the closed test of
    Bergmann & Hommel; we report the closed test. The two agree whenever the
    closed-test APVs are already monotone in the raw p-values, as in every
    reference case of our tests.

    Examples
    --------
    >>> from sklearn_bench.stats import adjust_pairwise_pvalues
    >>> p = [0.01, 0.02, 0.03, 0.04, 0.05, 0.20]   # k = 4 learners
    >>> adjust_pairwise_pvalues(p, method="holm").round(3)
    array([0.06, 0.1 , 0.12, 0.12, 0.12, 0.2 ])
    >>> adjust_pairwise_pvalues(p, method="shaffer").round(3)
    array([0.06, 0.06, 0.09, 0.12, 0.12, 0.2 ])
    >>> adjust_pairwise_pvalues(p, method="bergmann_hommel").round(3)
    array([0.06, 0.06, 0.06, 0.12, 0.12, 0.2 ])
    """
    p, _ = _validate_pvalues(pvalues, "holm")
    method = _check_choice(method, _ADJUST, "method")
    k = _n_learners_from_pairs(p.size)
    if method == "none":
        return p.copy()
    if method in ("holm", "bonferroni") or method in _ADJUST[5:]:
        return adjust_pvalues(p, method=method)
    if method == "shaffer":
        order = np.argsort(p, kind="stable")
        adj = np.maximum.accumulate(np.minimum(1.0, _shaffer_multipliers(k) * p[order]))
        out = np.empty_like(p)
        out[order] = adj
        return out
    if k > BERGMANN_HOMMEL_MAX_LEARNERS:
        raise ValueError(
            f"Bergmann–Hommel needs every exhaustive set of hypotheses (Bell(k) − 1 "
            f"of them); k = {k} learners is beyond the {BERGMANN_HOMMEL_MAX_LEARNERS}"
            " we enumerate. Use method='shaffer' (nearly as powerful) or 'holm'."
        )
    sets = _exhaustive_sets(k)
    size = sets.sum(axis=1)
    set_min = np.where(sets, p[None, :], np.inf).min(axis=1)
    value = np.minimum(1.0, size * set_min)
    return np.where(sets, value[:, None], -np.inf).max(axis=0)


# ------------------------------------------------------------------------ result
@dataclass(frozen=True)
class PairwiseTestResult(PosthocResult):
    """Result of :func:`pairwise_tests`.

    Attributes
    ----------
    learners : tuple
        The learners, in the table's column order.
    method : str
        The paired test: ``"wilcoxon-<zero_method>"`` or ``"sign"``.
    adjust : str
        The multiple-comparison correction.
    alpha : float
        Family-wise significance level of :attr:`significant`.
    n_blocks : int
        Number of blocks (data sets) in the table.
    average_ranks : pandas.Series
        Average rank of each learner (rank 1 = best) over the blocks on which
        every learner has a value; for ordering and the diagram only, no test
        uses it.
    null_hypothesis : str
    missing : str
        ``"raise"`` or ``"pairwise"`` (each pair on the blocks both have).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench.stats import pairwise_tests
    >>> rng = np.random.default_rng(0)
    >>> errors = pd.DataFrame(rng.normal(0.2, 0.05, (20, 3)) + [0, 0.05, 0.05],
    ...                       columns=["A", "B", "C"])
    >>> res = pairwise_tests(errors, adjust="shaffer", greater_is_better=False)
    >>> res.significant.astype(int)
    learner  A  B  C
    learner
    A        0  1  1
    B        1  0  0
    C        1  0  0
    """

    learners: tuple
    method: str
    adjust: str
    alpha: float
    n_blocks: int
    average_ranks: pd.Series = field(compare=False)
    null_hypothesis: str
    missing: str = "raise"
    _frame: pd.DataFrame = field(default=None, repr=False, compare=False)

    def to_frame(self):
        """One row per pair ``(learner_i, learner_j)``, ``i`` before ``j``.

        Columns: ``learner_i``, ``learner_j``, ``n`` (blocks used),
        ``mean_difference`` (mean of ``x_i − x_j``), ``estimate`` (the test's:
        Hodges–Lehmann pseudo-median for Wilcoxon, median for the sign test),
        ``ci_low``, ``ci_high`` (its unadjusted interval at level ``1 − alpha``
        or the smallest level above it the rank distribution allows),
        ``ci_level`` (the level it achieves; 1 with infinite bounds where too
        few blocks allow no finite interval at ``1 − alpha``), ``statistic``,
        ``pvalue`` (raw), ``pvalue_adjusted``, ``reject``
        (``pvalue_adjusted <= alpha``), ``effect_size`` (matched-pairs
        rank-biserial or sign dominance of ``x_i`` over ``x_j``),
        ``effect_size_name``.
        """
        return self._frame.copy()

    def _matrix(self, column, diagonal):
        return _pair_matrix(self._frame, self.learners, column, diagonal)

    @property
    def significant(self):
        """Symmetric boolean learners x learners matrix: pair differs at ``alpha``."""
        return self._matrix("reject", False)

    @property
    def pvalues_adjusted(self):
        """Symmetric matrix of the adjusted p-values (diagonal 1)."""
        return self._matrix("pvalue_adjusted", 1.0)

    def _intervals(self, confidence_level):
        frame = self._frame
        if "ci_low" not in frame or frame["ci_low"].isna().all():
            raise ValueError(
                f"The {self.method} post-hoc has no confidence interval (it tests "
                "ranks within blocks); the paired methods ('wilcoxon', 't', "
                "'sign') of pairwise_tests give one."
            )
        level = frame["ci_level"].to_numpy(dtype=float)
        _same_level(self, confidence_level, "call pairwise_tests(alpha=...) again")
        achieved = float(level[0]) if np.all(level == level[0]) else level
        return frame["ci_low"].to_numpy(), frame["ci_high"].to_numpy(), achieved


# -------------------------------------------------------------------- front end
def pairwise_tests(
    scores,
    *,
    method="wilcoxon",
    adjust=None,
    alpha=0.05,
    zero_method="demsar",
    greater_is_better,
    missing="raise",
):
    """Paired tests of every pair of learners across blocks, with FWER control.

    Each pair is tested on its own two columns only (Benavoli, Corani & Mangili
    2016), so adding or removing a third learner changes no pair's raw p-value;
    only the correction sees how many learners there are. The p-values are then
    adjusted by :func:`adjust_pairwise_pvalues` (García & Herrera 2008).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block (data set), one column per learner, as for
        :func:`friedman_test`.
    method : {"wilcoxon", "sign", "conover", "siegel", "miller", "quade", \
"nemenyi", "exact_ranksum"}, default="wilcoxon"
        ``"wilcoxon"``, ``"sign"``: two-sided Wilcoxon signed-rank test (with
        ``zero_method``) or sign test (ties split, Demšar 2006) from
        :func:`paired_test`, on the pair's own two columns.

        The others are post-hoc tests after Friedman's (or Quade's) test: they
        use the within-block ranks of all k learners (so a third learner
        changes a pair's p-value) and test the pair under the global null
        that the ranks are exchangeable within blocks (as PMCMRplus and
        scikit-posthocs). With ``N`` blocks, ``R_j`` the rank sums and ``R̄_j``
        the average ranks:

        - ``"siegel"``: Siegel & Castellan (1988),
          ``z = (R̄_i − R̄_j) / sqrt(k (k + 1) / (6 N))``, normal p-value
          (PMCMRplus ``frdAllPairsSiegelTest``).
        - ``"nemenyi"``: the same ``z``, single-step p-value of the
          studentized range of ``k`` means with infinite df at ``sqrt(2) |z|``
          (Demšar 2006; ``frdAllPairsNemenyiTest``); ``adjust`` must be
          ``"single_step"``.
        - ``"miller"``: Miller (1966), single-step ``P(χ²(k − 1) >= z²)``
          (``frdAllPairsMillerTest``); ``adjust`` must be ``"single_step"``.
        - ``"conover"``: Conover & Iman (1979),
          ``t = (R_i − R_j) / sqrt(2 (N A₁ − Σ R_j²) / ((N − 1)(k − 1)))``,
          ``A₁`` the sum of squared ranks, t with ``(N − 1)(k − 1)`` df
          (``frdAllPairsConoverTest``).
        - ``"quade"``: Quade's (1979) post-hoc t on the range-weighted ranks
          (Conover 1999, Sec. 5.8; ``quadeAllPairsTest``, ``dist="TDist"``).
        - ``"exact_ranksum"``: the exact p-value of the difference of two
          Friedman rank sums ``R_i − R_j`` (Eisinga, Heskes, Pelzer & te
          Grotenhuis 2017, BMC Bioinformatics 18:68; PMCMRplus
          ``frdAllPairsExactTest``), where Nemenyi's normal approximation is
          poor (few blocks). With ties it is the permutation distribution
          given each block's mid-ranks (see Notes).
    adjust : {"holm", "shaffer", "bergmann_hommel", "bonferroni", "hochberg", \
"hommel", "finner", "holland", "li", "rom", "none", "single_step"}, default=None
        See :func:`adjust_pairwise_pvalues`. Bergmann–Hommel needs at most 10
        learners. ``None``: ``"single_step"`` for Nemenyi and Miller (whose
        p-values are simultaneous already; no other choice is allowed), and
        ``"shaffer"`` for every other method.
    alpha : float, default=0.05
        Family-wise level for ``reject`` / :attr:`PairwiseTestResult.significant`,
        and ``1 − alpha`` is the level of each pair's (unadjusted) interval.
    zero_method : {"demsar", "wilcox", "pratt", "zsplit"}, default="demsar"
        Wilcoxon only; see :func:`paired_test`.
    greater_is_better : bool
        Direction of the scores, for :attr:`PairwiseTestResult.average_ranks`.
        Required.
    missing : {"raise", "pairwise"}, default="raise"
        ``"raise"``: a NaN cell is an error naming the learner and block.
        ``"pairwise"``: each pair is tested on the blocks where both learners
        have a value (``n`` in the frame says how many); a pair with fewer than
        2 common blocks raises.

    Returns
    -------
    PairwiseTestResult
        For the rank post-hocs the frame's ``estimate`` is the difference of
        average ranks ``R̄_i − R̄_j`` (positive: ``i`` ranks worse), and the
        interval and effect-size columns are NaN (these tests have neither).

    Notes
    -----
    **Exact rank-sum differences.** Under H0 each block's ranks are a random
    arrangement of its ranks, so a pair's ranks in a block are an ordered pair
    of distinct positions drawn uniformly, independently over blocks, and
    ``D = R_i − R_j`` is the sum over blocks. Without ties its distribution is
    Eisinga et al.'s, whose closed form (their eq. 6–8, PMCMRplus's
    ``pexactfrsd``) we evaluate in exact integer arithmetic; the p-value is
    ``P(|D| >= |d|)``. We compute it by convolving the blocks' distributions
    in float64 (no cancellation, relative error ~1e-13; a tail below 1e-290 is
    recomputed exactly). With tied (mid-)ranks the same convolution over each
    block's observed mid-ranks gives the exact permutation p-value given the
    ties, which PMCMRplus does not (it applies the untied formula to a
    non-integer ``d``).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.stats import pairwise_tests
    >>> auc = pd.DataFrame(
    ...     {"A": [0.76, 0.60, 0.95, 0.63, 0.88, 0.81, 0.70, 0.91],
    ...      "B": [0.77, 0.59, 0.97, 0.66, 0.89, 0.84, 0.72, 0.93],
    ...      "C": [0.80, 0.57, 0.97, 0.66, 0.90, 0.85, 0.75, 0.95]})
    >>> res = pairwise_tests(auc, adjust="holm", greater_is_better=True)
    >>> res.to_frame()[["learner_i", "learner_j", "n", "pvalue",
    ...                 "pvalue_adjusted"]].round(4)
      learner_i learner_j  n  pvalue  pvalue_adjusted
    0         A         B  8  0.0251           0.0752
    1         A         C  8  0.0423           0.0846
    2         B         C  8  0.1235           0.1235

    The exact p-values of the rank-sum differences (Eisinga et al. 2017),
    Holm-adjusted:

    >>> res = pairwise_tests(auc, method="exact_ranksum", adjust="holm",
    ...                      greater_is_better=True)
    >>> res.to_frame()[["learner_i", "learner_j", "statistic", "pvalue",
    ...                 "pvalue_adjusted"]].round(4)
      learner_i learner_j  statistic  pvalue  pvalue_adjusted
    0         A         B        7.0  0.0827           0.1655
    1         A         C       11.0  0.0038           0.0114
    2         B         C        4.0  0.3439           0.3439
    """
    method = _check_choice(method, _TESTS, "method")
    if adjust is None:
        adjust = "single_step" if method in SINGLE_STEP else "shaffer"
    adjust = _check_choice(adjust, (*_ADJUST, "single_step"), "adjust")
    if (method in SINGLE_STEP) != (adjust == "single_step"):
        raise ValueError(
            "`adjust`='single_step' goes with method 'nemenyi' or 'miller' (whose "
            f"p-values are simultaneous), and only with them; got method={method!r}"
            f", adjust={adjust!r}. For a z test of mean ranks with a stepwise "
            "correction use method='siegel'."
        )
    missing = _check_choice(missing, _MISSING, "missing")
    if method in RANK_METHODS and missing != "raise":
        raise ValueError(
            f"`missing`='pairwise' is for the paired tests; method={method!r} "
            "ranks all learners within complete blocks (for incomplete blocks see "
            "durbin_test or skillings_mack_test)."
        )
    alpha = _check_alpha(alpha)
    greater_is_better = _direction(greater_is_better)
    values, learners, blocks = _validate_scores(scores, allow_nan=missing == "pairwise")
    n_blocks, k = values.shape
    if adjust == "bergmann_hommel" and k > BERGMANN_HOMMEL_MAX_LEARNERS:
        adjust_pairwise_pvalues(np.ones(k * (k - 1) // 2), method=adjust)  # raises
    if method in RANK_METHODS:
        return _rank_pairwise(
            values, learners, method, adjust, alpha, greater_is_better
        )
    rows = []
    for a, b in combinations(range(k), 2):
        x, y = values[:, a], values[:, b]
        both = ~(np.isnan(x) | np.isnan(y))
        if both.sum() < 2:
            raise ValueError(
                f"Learners {learners[a]!r} and {learners[b]!r} share "
                f"{int(both.sum())} block(s) with values; a paired test needs at "
                "least 2."
            )
        res = paired_test(x[both], y[both], method=method, zero_method=zero_method)
        with warnings.catch_warnings():
            # too few blocks for a finite rank interval: the whole line, and
            # ``ci_level`` says so
            warnings.simplefilter("ignore", UserWarning)
            ci = res.confidence_interval(1 - alpha)
        es = res.effect_size()
        rows.append(
            {
                "learner_i": learners[a],
                "learner_j": learners[b],
                "n": int(both.sum()),
                "mean_difference": float(np.mean(x[both] - y[both])),
                "estimate": res.estimate,
                "ci_low": ci.low,
                "ci_high": ci.high,
                "ci_level": ci.confidence_level,
                "statistic": res.statistic,
                "pvalue": res.pvalue,
                "effect_size": es.estimate,
                "effect_size_name": es.name,
            }
        )
    frame = pd.DataFrame(rows)
    adjusted = adjust_pairwise_pvalues(frame["pvalue"].to_numpy(), method=adjust)
    frame.insert(frame.columns.get_loc("pvalue") + 1, "pvalue_adjusted", adjusted)
    frame.insert(
        frame.columns.get_loc("pvalue_adjusted") + 1, "reject", adjusted <= alpha
    )
    complete = ~np.isnan(values).any(axis=1)
    if complete.any():
        sign = -1.0 if greater_is_better else 1.0
        avg = stats.rankdata(sign * values[complete], axis=1).mean(axis=0)
    else:
        avg = np.full(k, np.nan)
    if method == "wilcoxon":
        null = "H0(i, j): x_i − x_j is symmetric about 0 (Wilcoxon signed-rank"
    else:
        null = "H0(i, j): P(x_i > x_j) = P(x_i < x_j) (sign"
    null += f" test, two-sided; {adjust} correction over {len(rows)} pairs)"
    if missing == "pairwise":
        null += "; each pair on the blocks where both learners have values"
    return PairwiseTestResult(
        learners=tuple(learners),
        method=f"wilcoxon-{zero_method}" if method == "wilcoxon" else "sign",
        adjust=adjust,
        alpha=alpha,
        n_blocks=n_blocks,
        average_ranks=pd.Series(
            avg, index=pd.Index(learners, name="learner"), name="average_rank"
        ),
        null_hypothesis=null,
        missing=missing,
        _frame=frame,
    )


_RANK_NULL = {
    "siegel": "Siegel–Castellan z of average ranks",
    "nemenyi": "Nemenyi's studentized range of average ranks, single-step",
    "miller": "Miller's chi2(k − 1) of average ranks, single-step",
    "conover": "Conover–Iman t of rank sums",
    "quade": "Quade's t of range-weighted rank sums",
    "exact_ranksum": "exact distribution of rank-sum differences, Eisinga et al. 2017",
}


def _rank_pairwise(values, learners, method, adjust, alpha, greater_is_better):
    """pairwise_tests for the Friedman-type post-hocs (complete blocks)."""
    n_blocks, k = values.shape
    sign = -1.0 if greater_is_better else 1.0
    ranks = stats.rankdata(sign * values, axis=1)
    res = rank_posthoc(ranks, values, method)
    i, j = np.array(list(combinations(range(k), 2))).T
    if adjust == "single_step":
        adjusted = res["pvalue_simultaneous"]
    else:
        adjusted = adjust_pairwise_pvalues(res["pvalue"], method=adjust)
    nan = np.full(len(i), np.nan)
    frame = pd.DataFrame(
        {
            "learner_i": [learners[a] for a in i],
            "learner_j": [learners[b] for b in j],
            "n": n_blocks,
            "mean_difference": np.mean(values[:, i] - values[:, j], axis=0),
            "estimate": res["estimate"],
            "ci_low": nan,
            "ci_high": nan,
            "ci_level": nan,
            "statistic": res["statistic"],
            "pvalue": res["pvalue"],
            "pvalue_adjusted": adjusted,
            "reject": adjusted <= alpha,
            "effect_size": nan,
            "effect_size_name": None,
        }
    )
    null = (
        "H0: the learners' ranks are exchangeable within every block (Friedman's "
        f"null); each pair (i, j) by the {_RANK_NULL[method]}, two-sided; "
        f"{adjust} over {len(i)} pairs"
    )
    if method == "quade":
        null = null.replace("(Friedman's null)", "(Quade's null)")
    return PairwiseTestResult(
        learners=tuple(learners),
        method=method,
        adjust=adjust,
        alpha=alpha,
        n_blocks=n_blocks,
        average_ranks=pd.Series(
            ranks.mean(axis=0),
            index=pd.Index(learners, name="learner"),
            name="average_rank",
        ),
        null_hypothesis=null,
        missing="raise",
        _frame=frame,
    )
