"""Post-hoc tests of pairs of learners over blocks: paired tests that do not depend
on the other learners (Benavoli, Corani & Mangili 2016, JMLR 17), and the rank
tests after Friedman's, with the corrections of :func:`adjust_pvalues` (Shaffer's
and Bergmann & Hommel's use the logical relations among the pairs; García &
Herrera 2008)."""

import warnings
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .._text import ADJUST_METHODS, adjusted_by
from .._validation import check_alpha as _check_alpha
from .._validation import check_choice as _check_choice
from .._validation import check_confidence_level, check_member
from ._common import (
    ConfidenceInterval,
    _check_paired,
    _direction,
    _pair_matrix,
    _validate_scores,
)
from ._effect_size import _rank_biserial
from ._multitest import adjust_pvalues, check_bergmann_hommel
from ._paired import _ZERO_METHODS, _wilcoxon, paired_test
from ._rank_posthoc import RANK_METHODS, SINGLE_STEP, rank_posthoc

_TESTS = ("wilcoxon", "sign") + RANK_METHODS
_MISSING = ("raise", "pairwise")
_ALL_PAIRS = ("shaffer", "bergmann_hommel", "single_step")  # need every pair


# ------------------------------------------------------------------------ result
@dataclass(frozen=True)
class PairwiseTestResult:
    """Result of every post-hoc comparison of pairs of learners (all pairs, or
    each against a control): :func:`pairwise_tests`, :func:`tukey_hsd`,
    :meth:`FriedmanResult.posthoc`, :meth:`RMAnovaResult.tukey_hsd` and
    :meth:`GlobalPermutationResult.pairwise`.

    One row per comparison in :meth:`to_frame`; ``statistic``, ``pvalue`` and
    ``pvalue_adjusted`` are Series indexed by the pair ``(learner_i,
    learner_j)``; :meth:`confidence_interval` where the method estimates.

    Attributes
    ----------
    learners : tuple
        The learners, in the table's column order.
    method : str
        ``"wilcoxon-<zero_method>"``, ``"sign"``, a rank post-hoc
        (``"nemenyi"``, ...), ``"tukey (<design>)"`` or the global permutation
        test's.
    adjust : str
        The correction (:func:`adjust_pvalues`' name; ``"single_step"`` for
        simultaneous p-values, ``"closed"`` for the closed permutation test).
    alpha : float
        Family-wise significance level of ``reject`` and :attr:`significant`.
    confidence_level : float or None
        Level of the table's intervals (simultaneous for Tukey's); ``None``
        where the method has none.
    n_blocks : int
        Number of blocks (data sets) in the table.
    null_hypothesis : str
    average_ranks : pandas.Series or None
        Average rank of each learner (rank 1 = best) over the complete blocks,
        for ordering and the diagram only; ``None`` without a direction.
    learner_means : pandas.Series or None
        Tukey's: the learners' mean performances.
    greater_is_better : bool or None
        Direction of the scores, where the method was told it.
    missing : str
        ``"raise"`` or ``"pairwise"`` (each pair on the blocks both have).
    control : str or None
        The learner every other one was compared with, or ``None``.
    details : dict
        Tukey's: ``design``, ``mse``, ``df`` (of the MSE), ``critical_value``
        (the studentized range's ``q``) and ``hsd = q sqrt(MSE / N)``, the
        difference of means above which two learners differ.

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
    >>> res.pvalue_adjusted.round(4)
    learner_i  learner_j
    A          B            0.0049
               C            0.0043
    B          C            0.5217
    Name: pvalue_adjusted, dtype: float64
    """

    learners: tuple
    method: str
    adjust: str
    alpha: float
    confidence_level: float
    n_blocks: int
    null_hypothesis: str
    average_ranks: pd.Series | None = field(default=None, compare=False)
    learner_means: pd.Series | None = field(default=None, compare=False)
    greater_is_better: bool | None = None
    missing: str = "raise"
    control: object = None
    details: dict = field(default_factory=dict, repr=False, compare=False)
    _frame: pd.DataFrame = field(default=None, repr=False, compare=False)

    def to_frame(self):
        """One row per pair ``(learner_i, learner_j)``, ``i`` before ``j`` (with a
        ``control``, ``learner_j`` is the control).

        Columns: ``learner_i``, ``learner_j``, ``n`` (blocks used),
        ``mean_difference`` (of ``x_i − x_j``), ``estimate`` (the test's own),
        ``ci_low``, ``ci_high``, ``ci_level`` (the level achieved; 1 with
        infinite bounds where too few blocks allow no finite interval),
        ``statistic``, ``pvalue`` (raw), ``pvalue_adjusted``, ``reject``,
        ``effect_size`` (rank-biserial or sign dominance of ``x_i`` over
        ``x_j``), ``effect_size_name``. For the rank post-hocs ``estimate`` is
        ``R̄_i − R̄_j`` (positive: ``i`` ranks worse), without interval or
        effect size. Tukey's ``pvalue`` is the unadjusted t-test on the same
        MSE, ``pvalue_adjusted`` the studentized range's.
        """
        return self._frame.copy()

    def _series(self, column):
        frame = self._frame
        index = pd.MultiIndex.from_arrays(
            [frame["learner_i"], frame["learner_j"]], names=["learner_i", "learner_j"]
        )
        return pd.Series(frame[column].to_numpy(), index=index, name=column)

    @property
    def statistic(self):
        """The statistic of each comparison (Series indexed by the pair)."""
        return self._series("statistic")

    @property
    def pvalue(self):
        """The unadjusted p-value of each comparison (Series indexed by the pair)."""
        return self._series("pvalue")

    @property
    def pvalue_adjusted(self):
        """The adjusted p-value of each comparison (Series indexed by the pair)."""
        return self._series("pvalue_adjusted")

    @property
    def pvalues_adjusted(self):
        """Symmetric learners × learners matrix of the adjusted p-values
        (diagonal 1; NaN for pairs not compared, e.g. two non-controls)."""
        return _pair_matrix(self._frame, self.learners, "pvalue_adjusted", 1.0)

    @property
    def significant(self):
        """Symmetric boolean learners x learners matrix: pair differs at ``alpha``."""
        return _pair_matrix(self._frame, self.learners, "reject", False)

    def confidence_interval(self, confidence_level=None):
        """Confidence interval of each comparison's difference.

        Parameters
        ----------
        confidence_level : float, default=None
            ``None``: the result's ``confidence_level``. Tukey's simultaneous
            intervals are recomputed at any level; for the others another level
            raises ``ValueError`` naming the call that gives it, as does a
            method without intervals (the rank post-hocs, the closed
            permutation test).

        Returns
        -------
        ConfidenceInterval
            ``low`` and ``high`` are Series indexed by the pair; its
            ``confidence_level`` is the level achieved (a Series when it differs
            between pairs, as for rank-based intervals on few blocks).

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_bench.stats import tukey_hsd
        >>> rng = np.random.default_rng(0)
        >>> errors = rng.normal(0.2, 0.05, (12, 3)) + [0.0, 0.02, 0.05]
        >>> ci = tukey_hsd(errors, greater_is_better=False).confidence_interval()
        >>> ci.confidence_level, ci.low.round(3).tolist()
        (0.95, [-0.059, -0.088, -0.066])
        """
        frame = self._frame
        level = self.confidence_level if confidence_level is None else confidence_level
        if "mse" in self.details:  # Tukey's, at any level
            level = check_confidence_level(level)
            k, d = len(self.learners), self.details
            half = stats.studentized_range.ppf(level, k, d["df"]) * np.sqrt(
                d["mse"] / self.n_blocks
            )
            diff = frame["mean_difference"].to_numpy()
            low, high, achieved = diff - half, diff + half, float(level)
        elif frame["ci_low"].isna().all():
            raise ValueError(
                f"The {self.method} post-hoc gives p-values, no confidence interval; "
                "the paired methods of pairwise_tests ('wilcoxon', 'sign') and "
                "Tukey's give intervals."
            )
        elif not np.isclose(level, self.confidence_level):
            raise ValueError(
                "The intervals of this result are at confidence_level="
                f"{self.confidence_level:g}; for {level!r} call pairwise_tests("
                "confidence_level=...) or pairwise(confidence_level=...) again."
            )
        else:
            got = frame["ci_level"].to_numpy(dtype=float)
            achieved = float(got[0]) if np.all(got == got[0]) else got
            low, high = frame["ci_low"].to_numpy(), frame["ci_high"].to_numpy()
        pairs = self.pvalue.index
        return ConfidenceInterval(
            pd.Series(low, index=pairs, name="low"),
            pd.Series(high, index=pairs, name="high"),
            achieved,
        )


# -------------------------------------------------------------------- front end
def pairwise_tests(
    scores,
    *,
    method="wilcoxon",
    adjust=None,
    alpha=0.05,
    confidence_level=0.95,
    zero_method="demsar",
    greater_is_better,
    missing="raise",
    control=None,
):
    """Tests of every pair of learners (or of each against a control) across
    blocks, with family-wise error control.

    With the paired tests each pair is tested on its own two columns only
    (Benavoli, Corani & Mangili 2016), so adding or removing a third learner
    changes no pair's raw p-value; only the correction sees how many learners
    there are. The p-values are then adjusted by :func:`adjust_pvalues`
    (García & Herrera 2008). This is also the one home of the rank post-hocs
    after Friedman's test (:meth:`FriedmanResult.posthoc` calls it).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block (data set), one column per learner, as for
        :func:`friedman_test`.
    method : {"wilcoxon", "sign", "conover", "siegel", "miller", "quade", \
"nemenyi", "exact_ranksum"}, default="wilcoxon"
        ``"wilcoxon"``, ``"sign"``: the two-sided test of :func:`paired_test`
        on the pair's own two columns. The others are post-hoc tests after
        Friedman's (or Quade's) test on the within-block ranks of all k
        learners, under the global null that the ranks are exchangeable within
        blocks, as PMCMRplus's ``frdAllPairs*Test``: Siegel & Castellan (1988),
        Nemenyi (single-step; Demšar 2006), Miller (1966, single-step), Conover
        & Iman (1979), Quade (1979) and the exact rank-sum differences of
        Eisinga et al. (2017); the user guide's "Pairwise post-hoc tests" gives
        each statistic.
    adjust : {"holm", "shaffer", "bergmann_hommel", "bonferroni", "hochberg", \
"hommel", "bh", "finner", "holland", "li", "rom", "single_step", "none"}, \
default=None
        See :func:`adjust_pvalues`. ``None``: ``"single_step"`` for Nemenyi and
        Miller (the only choice for them), else ``"shaffer"`` (``"holm"`` with
        a ``control``).
    alpha : float, default=0.05
        Family-wise level of ``reject`` and
        :attr:`PairwiseTestResult.significant`.
    confidence_level : float, default=0.95
        Level of each pair's (unadjusted) interval, for the paired tests.
    zero_method : {"demsar", "wilcox", "pratt", "zsplit"}, default="demsar"
        Wilcoxon only; see :func:`paired_test`.
    greater_is_better : bool
        Direction of the scores, for :attr:`PairwiseTestResult.average_ranks`.
    missing : {"raise", "pairwise"}, default="raise"
        ``"raise"``: a NaN cell is an error. ``"pairwise"``: each pair is
        tested on the blocks where both learners have a value (at least 2).
    control : label, default=None
        Compare every other learner with this one, as one family (with
        ``method="siegel"`` and ``adjust="bonferroni"``: Bonferroni–Dunn,
        Demšar 2006, Sec. 3.2.2); not with Nemenyi's and Miller's tests nor the
        Shaffer and Bergmann–Hommel corrections.

    Returns
    -------
    PairwiseTestResult

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
    0         A         B  8  0.0312           0.0938
    1         A         C  8  0.0469           0.0938
    2         B         C  8  0.1562           0.1562

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
    missing = _check_choice(missing, _MISSING, "missing")
    if method in RANK_METHODS and missing != "raise":
        raise ValueError(
            f"`missing`='pairwise' is for the paired tests; method={method!r} "
            "ranks all learners within complete blocks (for incomplete blocks see "
            "durbin_test or skillings_mack_test)."
        )
    greater_is_better = _direction(greater_is_better)
    values, learners, blocks = _validate_scores(scores, allow_nan=missing == "pairwise")
    i, j, adjust = _pairs_to_test(learners, method, adjust, control)
    alpha = _check_alpha(alpha)
    level = check_confidence_level(confidence_level)
    complete = ~np.isnan(values).any(axis=1)
    sign = -1.0 if greater_is_better else 1.0
    ranks = stats.rankdata(sign * values[complete], axis=1)
    average_ranks = pd.Series(
        ranks.mean(axis=0) if complete.any() else np.full(len(learners), np.nan),
        index=pd.Index(learners, name="learner"),
        name="average_rank",
    )
    if method in RANK_METHODS:
        return rank_pairwise(
            method, adjust, alpha, control, (i, j), average_ranks, ranks, values
        )
    columns = {k: [] for k in ("n", "mean_difference", "estimate", "ci_low",
               "ci_high", "ci_level", "statistic", "pvalue", "effect_size",
               "effect_size_name")}  # fmt: skip
    batch = {}  # the Wilcoxon tests of the pairs with every block, in one batch
    full = np.flatnonzero(~np.isnan(values).any(axis=0))
    clean = np.flatnonzero(np.isin(i, full) & np.isin(j, full))
    if method == "wilcoxon" and clean.size > 1 and values.shape[0] >= 2:
        check_member(zero_method, _ZERO_METHODS, "zero_method")
        # paired_test's and its interval's floats, the estimate and the interval
        # from one selection of the Walsh averages
        d = _check_paired(values[:, i[clean]], values[:, j[clean]], 0)
        res = _wilcoxon(d, "two-sided", zero_method, None, False, (1 - level) / 2)
        statistic, pvalue, estimate, _, details, (low, high, tail) = res
        sums = (details[key] for key in ("r_plus", "r_minus", "n_used"))
        rows = (d.mean(axis=1), estimate, low, high, 1 - 2 * tail, statistic, pvalue)
        for p, es, *row in zip(clean, map(_rank_biserial, *sums), *rows, strict=True):
            batch[int(p)] = (d.shape[1], *row, es.estimate, es.name)
    for p, (a, b) in enumerate(zip(i, j, strict=True)):
        if p in batch:
            for key, value in zip(columns, batch[p], strict=True):
                columns[key].append(value)
            continue
        both = ~np.isnan(values[:, a]) & ~np.isnan(values[:, b])
        if both.sum() < 2:
            raise ValueError(
                f"Learners {learners[a]!r} and {learners[b]!r} share "
                f"{int(both.sum())} block(s) with values; a paired test needs at "
                "least 2."
            )
        # a sign test, or a pair with missing cells: on its common blocks
        x, y = values[both, a], values[both, b]
        res = paired_test(x, y, method=method, zero_method=zero_method)
        with warnings.catch_warnings():
            # too few blocks for a finite rank interval: the whole line, and
            # ``ci_level`` says so
            warnings.simplefilter("ignore", UserWarning)
            ci = res.confidence_interval(level)
        es = res.effect_size
        row = (int(both.sum()), float(np.mean(x - y)), res.estimate, ci.low,
               ci.high, ci.confidence_level, res.statistic, res.pvalue,
               es.estimate, es.name)  # fmt: skip
        for key, value in zip(columns, row, strict=True):
            columns[key].append(value)
    adjusted = adjust_pvalues(np.array(columns["pvalue"]), adjust=adjust)
    frame = pairs_frame(learners, i, j, adjusted, alpha, **columns)
    if method == "wilcoxon":
        null = "H0(i, j): x_i − x_j is symmetric about 0 (Wilcoxon signed-rank"
    else:
        null = "H0(i, j): P(x_i > x_j) = P(x_i < x_j) (sign"
    null += f" test, two-sided; p-values {adjusted_by(adjust)}"
    null += ")" if adjust == "none" else f" over {len(i)} pairs)"
    if missing == "pairwise":
        null += "; each pair on the blocks where both learners have values"
    return PairwiseTestResult(
        learners=tuple(learners),
        method=f"wilcoxon-{zero_method}" if method == "wilcoxon" else "sign",
        adjust=adjust,
        alpha=alpha,
        confidence_level=level,
        n_blocks=values.shape[0],
        null_hypothesis=null,
        average_ranks=average_ranks,
        greater_is_better=greater_is_better,
        missing=missing,
        control=control,
        _frame=frame,
    )


def _pairs_to_test(learners, method, adjust, control):
    """``(i, j, adjust)``: the indices of the pairs (all, or each learner and
    ``control``) and the checked correction."""
    k = len(learners)
    if adjust is None:
        single = method in SINGLE_STEP
        adjust = (
            "single_step" if single else "holm" if control is not None else "shaffer"
        )
    adjust = _check_choice(adjust, ADJUST_METHODS, "adjust")
    if (method in SINGLE_STEP) != (adjust == "single_step"):
        raise ValueError(
            "`adjust`='single_step' goes with method 'nemenyi' or 'miller' (whose "
            f"p-values are simultaneous), and only with them; got method={method!r}"
            f", adjust={adjust!r}. For a z test of mean ranks with a stepwise "
            "correction use method='siegel'."
        )
    if control is None:
        if adjust == "bergmann_hommel":
            check_bergmann_hommel(k)
        i, j = np.array(list(combinations(range(k), 2)), dtype=int).reshape(-1, 2).T
        return i, j, adjust
    if control not in learners:
        raise ValueError(
            f"`control` must be one of the learners {list(learners)}; got {control!r}."
        )
    if adjust in _ALL_PAIRS:
        raise ValueError(
            f"`adjust`={adjust!r} (method={method!r}) is for all pairs; against a "
            "`control` use 'holm', 'hochberg' or 'bonferroni' (with method='siegel': "
            "Bonferroni–Dunn)."
        )
    c = list(learners).index(control)
    i = np.array([a for a in range(k) if a != c], dtype=int)
    return i, np.full(i.size, c), adjust


def pairs_frame(learners, i, j, adjusted, alpha, **columns):
    """The table of a :class:`PairwiseTestResult`, one row per pair ``(learners[i],
    learners[j])``: the columns of :meth:`PairwiseTestResult.to_frame` from
    ``columns`` (NaN where not given), ``pvalue_adjusted`` and ``reject``."""
    nan = np.full(len(i), np.nan)
    keys = ("n", "mean_difference", "estimate", "ci_low", "ci_high", "ci_level",
            "statistic", "pvalue")  # fmt: skip
    return pd.DataFrame(
        {
            "learner_i": [learners[a] for a in i],
            "learner_j": [learners[b] for b in j],
            **{key: columns.get(key, nan) for key in keys},
            "pvalue_adjusted": adjusted,
            "reject": np.asarray(adjusted) <= alpha,
            "effect_size": columns.get("effect_size", nan),
            "effect_size_name": columns.get("effect_size_name", None),
        }
    )


_RANK_NULL = {
    "siegel": "Siegel–Castellan z of average ranks",
    "nemenyi": "Nemenyi's studentized range of average ranks, single-step",
    "miller": "Miller's chi2(k − 1) of average ranks, single-step",
    "conover": "Conover–Iman t of rank sums",
    "quade": "Quade's t of range-weighted rank sums",
    "exact_ranksum": "exact distribution of rank-sum differences, Eisinga et al. 2017",
}


def rank_pairwise(
    method, adjust, alpha, control, pairs, average_ranks, ranks=None, values=None,
    n_blocks=None,
):  # fmt: skip
    """The rank post-hocs of :func:`pairwise_tests` (and of
    :meth:`FriedmanResult.posthoc`, from its ranks or only its average ranks
    over ``n_blocks``): a :class:`PairwiseTestResult`."""
    i, j = pairs
    learners = list(average_ranks.index)
    n = ranks.shape[0] if ranks is not None else n_blocks
    res = rank_posthoc(
        method, i, j, mean_ranks=average_ranks.to_numpy(), n=n, ranks=ranks,
        values=values,
    )  # fmt: skip
    adjusted = (
        res["pvalue_simultaneous"]
        if adjust == "single_step"
        else adjust_pvalues(res["pvalue"], adjust=adjust)
    )
    difference = (
        np.full(len(i), np.nan)
        if values is None
        else np.mean(values[:, i] - values[:, j], 0)
    )
    frame = pairs_frame(
        learners, i, j, adjusted, alpha, n=n, mean_difference=difference,
        estimate=res["estimate"], statistic=res["statistic"], pvalue=res["pvalue"],
    )  # fmt: skip
    what = "pairs" if control is None else f"comparisons with {control!r}"
    null = (
        "H0: the learners' ranks are exchangeable within every block (Friedman's "
        f"null); each pair (i, j) by the {_RANK_NULL[method]}, two-sided; "
        f"{adjust} over {len(i)} {what}"
    )
    if method == "quade":
        null = null.replace("(Friedman's null)", "(Quade's null)")
    return PairwiseTestResult(
        learners=tuple(learners),
        method=method,
        adjust=adjust,
        alpha=alpha,
        confidence_level=None,
        n_blocks=n,
        null_hypothesis=null,
        average_ranks=average_ranks,
        control=control,
        _frame=frame,
    )
