"""What a study's analysis says about a BenchmarkResult: effect sizes first, then
tests; every number any output shows, computed once by :func:`analyse`.

Everything here selects data from a :class:`~sklearn_bench.BenchmarkResult` and
calls its public methods or :mod:`sklearn_bench.stats`; nothing is fitted again.
"""

import warnings
from dataclasses import dataclass, field, replace
from itertools import combinations
from types import MappingProxyType

import numpy as np
import pandas as pd

from .._latex import PerformanceTable
from .._text import ADJUST_METHODS, adjusted_by, terminal_line
from ..datasets._dataset import PROBLEM_WORDS
from ..results import IncommensurableScalesWarning
from ..results._latex import performance_table, within_table
from ..results._pairs import MAX_LEARNERS_ALL_PAIRS
from ..results._scales import scale_note
from ..results._select import incomplete_datasets, primary_rows
from ..stats import (
    adjust_pvalues,
    n_datasets_needed,
    power_paired_t,
    smallest_attainable_pvalue,
)
from ._bayesian import bayesian_comparisons, bayesian_ranking, bayesian_records
from ._bottom_line import BottomLine, adjusted_interval_words, bottom_line
from ._disagreements import (
    bayesian_disagreements,
    best_by_summary,
    best_disagreements,
    friedman_disagreements,
    pairs_disagreements,
)
from ._format import fmt_count, fmt_level, fmt_names, fmt_p_equals
from ._generalization import generalization
from ._learners import learner_table
from ._notes import note, skip
from ._plan import POSTHOCS, AnalysisPlan
from ._records import (
    TestRecord,
    cited_keys,
    paired_method,
    short_citation,
    short_test_names,
)
from ._records import within_notes as within_notes_of

# Above MAX_LEARNERS_ALL_PAIRS learners the across-data-set pairs are "each
# learner against the best", not all k (k - 1) / 2 pairs (results/_pairs.py).
# A critical-difference, pairwise-significance or win/tie/loss diagram stays
# readable up to about this many learners; beyond, the report says why not.
MAX_DIAGRAM_LEARNERS = 25
# Below these sizes there is no leaderboard: two learners are a paired
# comparison (the bottom line), and rank sets from a handful of data sets are
# not to be trusted (the bootstrap's guarantee is in the number of data sets).
MIN_LEARNERS, MIN_DATASETS = 3, 10
LEADERBOARD_RESAMPLES, LEADERBOARD_SEED = 1000, 0
# A report draws the distributions of the first data sets only (each is a
# figure), and of fewer with many learners: at most this many rows in all.
MAX_DISTRIBUTIONS, MAX_DISTRIBUTION_ROWS = 20, 120


class _DeeplyFrozen:
    """A frozen dataclass whose tables cannot be edited behind its back: a
    DataFrame or Series field is returned as a copy (editing it in place
    changes nothing the outputs render), an array field is read-only."""

    def __getattribute__(self, name):
        value = object.__getattribute__(self, name)
        if isinstance(value, pd.DataFrame | pd.Series):
            return value.copy()
        return value

    def __post_init__(self):
        for value in vars(self).values():
            if isinstance(value, np.ndarray):
                value.flags.writeable = False


@dataclass(frozen=True)
class PowerAnalysis(_DeeplyFrozen):
    """The power of the primary comparison of the two best learners across data
    sets, at Δ first, then at the observed difference (post-hoc power: a
    function of the p-value, not evidence; Boulesteix et al. 2015, Section 3).

    Attributes
    ----------
    pair : tuple of str
        The best and the second-best learner by average rank.
    delta, delta_source, power, n_needed : float, str, float, int or None
        Δ, its source, the power at Δ and the data sets needed for
        ``target_power`` (``None`` without Δ).
    observed_difference, posthoc_power, posthoc_n_needed, sigma : float
        The mean and standard deviation of the per-data-set differences.
    n_datasets, target_power, alpha, n_comparisons, test_alpha, test_words
        The test whose power this is: Holm's first step, ``alpha /
        n_comparisons`` (a conservative bound), and its words.
    sigmas, n_grid, power_curves, power_marks, delta_grid, needed_curves
        The curves of the figures at ``σ/2, σ, 2σ`` (rows): power over
        ``n_grid`` and at ``n_datasets``, data sets needed over ``delta_grid``
        (Boulesteix et al. 2015, Fig. 2).
    """

    pair: tuple
    delta: float | None
    delta_source: str
    power: float | None
    n_needed: int | None
    observed_difference: float
    posthoc_power: float | None
    posthoc_n_needed: int | None
    sigma: float
    n_datasets: int
    target_power: float
    alpha: float
    n_comparisons: int
    test_alpha: float
    test_words: str
    sigmas: tuple
    n_grid: np.ndarray = field(repr=False)
    power_curves: np.ndarray = field(repr=False)
    power_marks: np.ndarray = field(repr=False)
    delta_grid: np.ndarray = field(repr=False)
    needed_curves: np.ndarray = field(repr=False)


@dataclass(frozen=True)
class LeaderboardAnalysis(_DeeplyFrozen):
    """The leaderboard of a large study (at least 3 learners and 10 data sets).

    Attributes
    ----------
    result, board, matrix : LeaderboardResult, DataFrame, DataFrame
        :meth:`~sklearn_bench.BenchmarkResult.leaderboard` at the plan's level
        (1000 resamples, seed 0), its table and the win-rate matrix.
    stability, grid, n_resamples : object, tuple of int, int
        ``result.stability`` over ``grid`` numbers of data sets.
    """

    result: object = field(repr=False)
    board: pd.DataFrame = field(repr=False)
    matrix: pd.DataFrame = field(repr=False)
    stability: object = field(repr=False)
    grid: tuple
    n_resamples: int


@dataclass(frozen=True)
class BestLearners:
    """Which learners are best and which tie with the best: one decision that
    every output (bottom line, summaries, tables, LaTeX bold) reads.

    Attributes
    ----------
    learner, tied : str, tuple of str
        The best average rank (on equal ranks, the first in the result's order)
        and the others with the same average rank.
    separated, inseparable, equivalent : tuple of str
        Worse than ``learner`` in the primary analysis (Holm p at most α), not
        separated from it, and inside ±Δ by the simultaneous interval.
    by_dataset : mapping of str to tuple of str
        Per data set, the best mean there and the learners tied with it.
    """

    learner: str
    tied: tuple
    separated: tuple
    inseparable: tuple
    equivalent: tuple
    by_dataset: MappingProxyType = field(repr=False)


@dataclass(frozen=True, kw_only=True)
class Analysis(_DeeplyFrozen):
    """Every number a study's outputs show, computed once by
    :func:`~sklearn_bench.analysis.analyse` with an
    :class:`~sklearn_bench.analysis.AnalysisPlan`.

    The report, summaries, LaTeX tables, methods paragraph and CLI render these
    fields and compute nothing. Deeply frozen: a table is returned as a copy,
    arrays are read-only, mappings read-only. Its ``repr`` is :meth:`summary`.
    Every pair is written ``A − B`` with ``A`` the better ranked.

    Attributes
    ----------
    plan, learners, metrics, metric, greater_is_better
        The plan (``adjust`` resolved), the result's learners and metrics.
    distributions : mapping
        ``{data set: {learner: array}}`` of the first data sets' finite
        performances, which a report draws (empty without ``"effects"``).
    provenance : mapping
        The result's ``info`` (splitter, seed, recorded sizes).
    delta, delta_source : float or None, {"given", "default", "none"}
        Δ, the smallest difference that matters: the ROPE, the power target,
        the margin of equivalence and of a tie.
    mean, std, n_replicates, datasets : DataFrame
        Data sets × learners over the replicates; per data set its source,
        problem, sizes, replicates and corrected-t ``test_train_ratio``.
    order, average_ranks, best_learners : tuple, Series, BestLearners
        Learners by average rank over ``datasets_across`` (1 = best).
    blocks, datasets_across, datasets_left_out, n_missing_tasks
        What the tests block on, the complete data sets, those left out and
        the tasks of a partial run not in the result.
    within, within_test, within_notes, within_ratio, performance
        Per data set each learner against the best there (Holm over the data
        set; ``worse`` is the LaTeX dagger), the test's name, notes, the
        corrected t's ``n_test/n_train`` in words, and ``performance.tex``.
    pairs, primary_test, intervals_match_tests
        The primary analysis, index ``"a − b"``: estimate, intervals at
        ``confidence_level`` and simultaneous (Bonferroni), p raw and
        Holm-adjusted; simultaneous intervals match Holm only at ``1 − α``.
    friedman, critical_difference, cd_groups, posthoc, rm_anova, tukey
        Friedman's test, Nemenyi's critical difference (ranks), the bars of
        the diagram, the plan's post-hoc test and autorank's parametric path.
    pairwise, smallest_pvalue
        ``result.pairwise_tests`` (Wilcoxon, Shaffer) and ``(n, p)``: with
        ``n`` data sets a signed-rank test cannot go below p.
    bayesian, bayesian_notes, hierarchical_fits
        The best learner against each other one: P(a better), P(equivalent),
        P(b better) and the decision.
    ranking, ranking_table, ranking_notes
        Plackett–Luce's ranking, by expected rank beside the Friedman rank.
    power, win_tie_loss, leaderboard, generalization
        :class:`PowerAnalysis`, wins/ties/losses within Δ, the leaderboard of a
        large study, and each learner's confidence interval per data set.
    disagreements, best_by, bottom_line
        Where another test or summary disagrees with the primary analysis,
        which learner each summary names best, and the answer in words.
    failures, learner_table, notes, scales_note, skipped
        Failed tasks, what each learner is, what could not be computed and
        why, and per analysis or figure why it was not run: notes and skips are
        records (a code and its values) whose ``str()`` is their English.
    methods, citations
        The :class:`TestRecord` of each test that ran and the ``CITATIONS``
        keys that the records and the analysis' sentences cite.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> analysis = analyse(result, AnalysisPlan())
    >>> analysis.best, analysis.direction, analysis.blocks
    ('Adaboosted C4.5', 'lower is better', 'data sets')
    >>> analysis.delta, analysis.delta_source  # the error rate's default Δ
    (0.01, 'default')
    """

    plan: AnalysisPlan = field(repr=False)
    learners: tuple
    metrics: tuple
    distributions: MappingProxyType = field(repr=False)
    provenance: MappingProxyType = field(repr=False)
    metric: str
    greater_is_better: bool
    delta: float | None
    delta_source: str
    mean: pd.DataFrame
    std: pd.DataFrame
    n_replicates: pd.DataFrame
    datasets: pd.DataFrame
    order: tuple
    average_ranks: pd.Series
    best_learners: BestLearners
    blocks: str
    datasets_across: tuple
    datasets_left_out: tuple
    n_missing_tasks: int
    within: pd.DataFrame
    within_test: str
    performance: PerformanceTable
    within_notes: tuple
    within_ratio: str
    pairs: pd.DataFrame
    primary_test: str
    intervals_match_tests: bool
    friedman: object
    critical_difference: float | None
    cd_groups: tuple
    posthoc: pd.DataFrame | None
    rm_anova: object
    tukey: object
    pairwise: object
    smallest_pvalue: tuple | None
    bayesian: pd.DataFrame | None
    bayesian_notes: tuple
    hierarchical_fits: tuple
    ranking: object
    ranking_table: pd.DataFrame | None
    ranking_notes: tuple
    power: PowerAnalysis | None
    win_tie_loss: pd.DataFrame | None
    leaderboard: LeaderboardAnalysis | None
    generalization: pd.DataFrame | None
    disagreements: tuple
    best_by: MappingProxyType
    bottom_line: BottomLine | None
    failures: pd.DataFrame
    learner_table: pd.DataFrame
    notes: tuple
    scales_note: object
    skipped: MappingProxyType
    methods: tuple
    citations: tuple = ()

    @property
    def best(self):
        """The best learner by average rank (:attr:`best_learners`)."""
        return self.best_learners.learner

    @property
    def alpha(self):
        """The plan's significance level."""
        return self.plan.alpha

    @property
    def confidence_level(self):
        """The plan's confidence level."""
        return self.plan.confidence_level

    @property
    def direction(self):
        """``"higher is better"`` or ``"lower is better"``."""
        return "higher is better" if self.greater_is_better else "lower is better"

    @property
    def posthoc_title(self):
        """The post-hoc test after Friedman's and its correction in words
        (``"Nemenyi"``, ``"Conover–Iman (shaffer)"``)."""
        name = POSTHOCS[self.plan.posthoc][2]
        adjust = self.plan.adjust
        return name if adjust == "single_step" else f"{name} ({adjusted_by(adjust)})"

    @property
    def pairwise_correction(self):
        """The multiplicity correction of :attr:`pairwise` in words, with its
        references (``"Shaffer's static procedure (Shaffer 1986; García &
        Herrera 2008)"``); ``""`` when the pairwise tests did not run."""
        if self.pairwise is None:
            return ""
        adjust = self.pairwise.adjust
        cites = "; ".join(short_citation(c) for c in _ADJUST_CITES.get(adjust, ()))
        return ADJUST_METHODS.get(adjust, adjust) + (f" ({cites})" if cites else "")

    def summary(self):
        """The answer in a few lines: the best learner, the average ranks, the
        primary test of the best against the runner-up with its estimate and
        interval, and the verdicts (what autorank prints in one call).

        Returns
        -------
        str

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.analysis import AnalysisPlan, analyse
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(),
        ...     dataset="dataset", learner="learner", value="auc",
        ...     greater_is_better=True)
        >>> print(analyse(result, AnalysisPlan(alpha=0.1)).summary())
        ... # doctest: +NORMALIZE_WHITESPACE
        Analysis of auc (higher is better), 4 learners over 14 data sets
          average ranks: C4.5+m+cf 1.93, C4.5+m 2.00, C4.5+cf 2.93, C4.5 3.14
          best: C4.5+m+cf; primary test: paired t over data sets, Holm-adjusted
          over 6 pairs, at α = 0.1
          C4.5+m+cf − C4.5+m: +0.007 (unadjusted 95% CI [-0.004, +0.017]; Holm p
          = 0.382)
          separated from C4.5+m+cf: C4.5; not separated: C4.5+m and C4.5+cf
          Friedman p = 0.00912; Nemenyi critical difference at α = 0.1: 1.118 ranks
        """
        import textwrap

        over = (
            f"{len(self.datasets_across)} data sets"
            if self.blocks == "data sets"
            else f"the {self.blocks}"
        )
        head = (
            f"Analysis of {self.metric} ({self.direction}), {len(self.order)} "
            f"learners over {over}"
        )
        lines = [head]
        if self.average_ranks is not None and len(self.average_ranks):
            lines.append(
                "average ranks: "
                + ", ".join(f"{n} {r:.2f}" for n, r in self.average_ranks.items())
            )
        bl, b = self.bottom_line, self.best_learners
        if not len(self.pairs):
            lines.append(bl.sentences[0] if bl is not None else "no comparison ran")
        else:
            m = len(self.pairs)
            holm = f", Holm-adjusted over {m} pairs" if m > 1 else ""
            lines.append(
                f"best: {b.learner}; primary test: {self.primary_test or 'none ran'} "
                f"over {self.blocks}"
                f"{holm}, at α = {self.alpha:g}"
            )
            c = bl.comparison
            if c is not None:
                lines.append(
                    f"{b.learner} − {bl.runner_up}: {c['estimate']:+.3f} "
                    f"(unadjusted {fmt_level(self.confidence_level)} CI "
                    f"[{c['low']:+.3f}, {c['high']:+.3f}]; "
                    f"{fmt_p_equals(c['adjusted_pvalue'], 'Holm p')})"
                )
            lines.append(
                f"separated from {b.learner}: {fmt_names(b.separated) or 'none'}; "
                f"not separated: {fmt_names(b.inseparable) or 'none'}"
            )
        if self.friedman is not None:
            text = f"Friedman {fmt_p_equals(self.friedman.pvalue)}"
            if self.critical_difference is not None:
                text += (
                    f"; Nemenyi critical difference at α = {self.alpha:g}: "
                    f"{self.critical_difference:.3f} ranks"
                )
            lines.append(text)
        body = [
            textwrap.fill(
                terminal_line(line), 78, initial_indent="  ", subsequent_indent="  "
            )
            for line in lines[1:]
        ]
        return "\n".join([lines[0], *body])

    def __repr__(self):
        return self.summary()


def _pairs(result, order, level, *, dataset, metric, notes):
    """The primary analysis (see :attr:`Analysis.pairs`): Bonferroni intervals,
    each at ``1 − α/m``, are compatible with the Holm-adjusted p-values beside
    them (an interval that excludes 0 has m p < α, so Holm rejects it too)."""
    learners = list(order)
    if len(learners) <= MAX_LEARNERS_ALL_PAIRS:
        # In rank order, so "a − b" reads as "the better ranked against the other".
        pairs = list(combinations(learners, 2))
    else:
        pairs = [(learners[0], other) for other in learners[1:]]
    each = 1 - (1 - level) / len(pairs)  # Bonferroni
    rows = []
    for a, b in pairs:
        row = {"pair": f"{a} − {b}", "a": a, "b": b, "n": 0}
        try:
            res = result.paired_test(a, b, dataset=dataset, metric=metric)
            ci = res.confidence_interval(level)
        except ValueError as exc:  # e.g. constant differences: t undefined
            notes.append(note("no_pair_interval", a=a, b=b, reason=str(exc)))
            rows.append(row)
            continue
        low, high = res.confidence_interval(each)
        row.update(estimate=res.estimate, low=ci.low, high=ci.high, n=res.n)
        row.update(adjusted_low=low, adjusted_high=high, pvalue=res.pvalue)
        rows.append({**row, "method": res.method})
    columns = ["a", "b", "estimate", "low", "high", "adjusted_low", "adjusted_high"]
    columns += ["adjusted_level", "pvalue", "adjusted_pvalue", "n", "method"]
    table = pd.DataFrame(rows).set_index("pair").reindex(columns=columns)
    numeric = ["estimate", "low", "high", "adjusted_low", "adjusted_high", "pvalue"]
    table[numeric] = table[numeric].astype(float)
    table["adjusted_level"] = each
    adjusted = adjust_pvalues(table["pvalue"].fillna(1.0), adjust="holm")
    table["adjusted_pvalue"] = np.where(table["pvalue"].isna(), np.nan, adjusted)
    return table


def _power(result, complete, order, sign, metric, delta, source, plan, n_comparisons):
    """:class:`PowerAnalysis` of the two best learners, or ``(None, reason)``,
    at Holm's first-step level ``alpha / n_comparisons`` (conservative)."""
    m = max(int(n_comparisons or 1), 1)
    alpha, target = plan.alpha, plan.target_power
    level = alpha / m
    a, b = order[0], order[1]
    diff = sign * (complete[b] - complete[a])  # > 0 when a is better
    sigma = float(np.std(diff, ddof=1))
    observed = float(np.mean(diff))
    if not sigma > 1e-10:  # below: rounding noise, no spread
        return None, skip("power_spread", a=a, b=b, sigma=sigma)

    def at(d):
        row = result.power(
            a, b, delta=d, power=target, metric=metric, alpha=alpha, n_comparisons=m
        )
        row = row.iloc[0]
        return float(row["sigma"]), float(row["power"]), int(row["n_datasets_needed"])

    power = n_needed = posthoc_power = posthoc_n = None
    if delta is not None:
        sigma, power, n_needed = at(delta)
    if abs(observed) > 0:
        try:
            _, posthoc_power, posthoc_n = at(abs(observed))
        except ValueError:  # a difference too small for any number of data sets
            pass
    if delta is None and posthoc_power is None:
        return None, skip("power_no_delta", a=a, b=b)
    curve_delta = delta if delta is not None else abs(observed)
    sigmas = (sigma / 2, sigma, 2 * sigma)
    n_grid, curves, marks = power_points(
        curve_delta, sigmas, alpha=level, mark=len(diff)
    )
    # beyond Δ, so that the mark and its label sit inside the axes
    deltas = np.linspace(sigma / 5, max(2 * sigma, 1.3 * curve_delta), 40)
    words = (
        f"two-sided paired t-test at α = {alpha:g}"
        if m == 1
        else f"two-sided paired t-test at Holm's first-step level α/{m} = "
        f"{level:.2g} (the primary analysis adjusts over {m} pairs; a "
        "conservative bound)"
    )
    return PowerAnalysis(
        pair=(a, b),
        delta=delta,
        delta_source=source,
        power=power,
        n_needed=n_needed,
        observed_difference=observed,
        posthoc_power=posthoc_power,
        posthoc_n_needed=posthoc_n,
        sigma=sigma,
        n_datasets=len(diff),
        target_power=target,
        alpha=alpha,
        n_comparisons=m,
        test_alpha=level,
        test_words=words,
        sigmas=sigmas,
        n_grid=n_grid,
        power_curves=curves,
        power_marks=marks,
        delta_grid=deltas,
        needed_curves=needed_points(deltas, sigmas, power=target, alpha=level),
    ), ""


def power_points(
    delta, sigmas, *, alpha, alternative="two-sided", method="exact",
    n_datasets=None, mark=None,
):  # fmt: skip
    """``(J, power at J for each σ, power at mark for each σ)`` of the paired
    t-test; ``J`` by default 2 .. max(50, 1.2 × J needed) (at most 500), past
    ``mark``."""
    opts = {"alpha": alpha, "alternative": alternative, "method": method}
    J = n_datasets
    if J is None:
        needed = max(_needed_or_inf(delta, s, opts) for s in sigmas)
        last = min(500, max(50, np.ceil(1.2 * needed)))
        if mark is not None:  # the study's J inside the axes, with a margin
            last = max(last, np.ceil(1.05 * mark))
        J = np.arange(2, int(last) + 1)
    curves = np.array([power_paired_t(J, delta, s, **opts) for s in sigmas])
    if mark is None:
        return J, curves, None
    return J, curves, np.array([power_paired_t(mark, delta, s, **opts) for s in sigmas])


def _needed_or_inf(delta, sigma, opts):
    """The data sets needed, or ``inf`` where no number up to ``max_datasets``
    reaches the power (the grid then ends at its cap)."""
    try:
        return n_datasets_needed(delta, sigma, **opts)
    except ValueError:
        return np.inf


def needed_points(deltas, sigmas, **options):
    """The data sets needed at each of ``deltas`` (columns) for each σ (rows)."""
    return np.array([n_datasets_needed(deltas, s, **options) for s in sigmas])


def replicate_values(result, metric, datasets):
    """``{data set: {learner: finite performances over the replicates}}`` of the
    learners with a task there, in the result's order."""
    perf = result.performance(metric)
    perf = perf[perf["dataset"].isin(datasets)]
    out = {d: {} for d in datasets}
    for (d, m), v in perf.groupby(["dataset", "learner"], observed=True)["value"]:
        values = v.to_numpy(dtype=float)
        out[d][str(m)] = values[~np.isnan(values)]
    return out


def _distributions(result, metric, mean):
    """:attr:`Analysis.distributions`, deeply read-only."""
    k = max(len(mean.columns), 1)
    shown = list(
        mean.index[: max(1, min(MAX_DISTRIBUTIONS, MAX_DISTRIBUTION_ROWS // k))]
    )
    out = {}
    for d, values in replicate_values(result, metric, shown).items():
        for v in values.values():
            v.flags.writeable = False
        out[d] = MappingProxyType(values)
    return MappingProxyType(out)


def _best(order, ranks, pairs, within, performance, plan, delta):
    """:attr:`Analysis.best_learners`."""
    best = order[0]
    tied = tuple(m for m in order[1:] if m in ranks and ranks[m] == ranks.get(best))
    separated = inseparable = equivalent = ()
    if len(pairs):  # every pair is better ranked − worse ranked: the best first
        rows = pairs[pairs["a"] == best].set_index("b")
        separated = tuple(rows.index[rows["adjusted_pvalue"] <= plan.alpha + 1e-12])
        inseparable = tuple(n for n in rows.index if n not in separated)
        if delta is not None:
            inside = (rows["adjusted_low"] >= -delta) & (rows["adjusted_high"] <= delta)
            equivalent = tuple(rows.index[inside])
    reference = dict(zip(within["dataset"], within["reference"], strict=True))
    by_dataset = {}
    for d in performance.datasets:
        bold = [m for m in performance.learners if (d, m) in performance.bold]
        first = reference.get(d, bold[0] if bold else None)
        if first is not None:
            by_dataset[d] = (first, *(m for m in bold if m != first))
    return BestLearners(
        best, tied, separated, inseparable, equivalent, MappingProxyType(by_dataset)
    )


def _tables(result, metric, notes):
    """Mean, std and count of replicates (data sets × learners, names as str),
    the complete data sets' means, the result of the analyses across data sets
    and the note on the metric's scales."""
    mean, std, n_rep = (
        result.aggregate(metric, stat=s) for s in ("mean", "std", "count")
    )
    for table in (mean, std, n_rep):
        table.columns = [str(c) for c in table.columns]
        table.index = [str(i) for i in table.index]
    # A data set with a NaN replicate performance (a failed or missing task) is
    # left out of the analyses across data sets, which need every learner on
    # every replicate; a data set of a partial store may have no task at all.
    incomplete = incomplete_datasets(result, metric)
    complete = mean.drop(index=[d for d in mean.index if d in incomplete])
    complete = complete.dropna(axis=0, how="any")
    if len(complete) < len(mean):
        dropped = [d for d in mean.index if d not in complete.index]
        notes.append(note("incomplete", dropped=dropped))
        result = _subset(result, list(complete.index))
    scales = scale_note(complete, metric)  # Demšar (2006), Sec. 3.1
    if scales is not None:
        scales = note("raised", reason=scales)
        notes.append(scales)
    return mean, std, n_rep, complete, result, scales


def _paired_names(methods, default=None):
    """The names and the citations of the methods of ``paired_test`` used."""
    used = sorted({m for m in methods if isinstance(m, str) and m}) or [default]
    used = [m for m in used if m is not None]
    cites = dict.fromkeys(c for m in used for c in paired_method(m)[1])
    return " / ".join(paired_method(m)[0] for m in used), tuple(cites)


def _subset(result, datasets):
    """The result restricted to ``datasets`` (for the across-data-set analyses)."""
    from ..results import BenchmarkResult

    scores = result.scores[result.scores["dataset"].isin(datasets)]
    return BenchmarkResult(
        scores,
        metrics=result.metrics,
        datasets={d: p for d, p in result.datasets.items() if d in datasets},
        learners=result.learners,
        info=result.info,
    )


def _failures(result):
    failed = result.scores[result.scores["failed"]]
    columns = ["dataset", "learner", "error_type", "count", "message"]
    if failed.empty:
        return pd.DataFrame(columns=columns)
    grouped = failed.groupby(
        ["dataset", "learner", "error_type"], observed=True, sort=False
    )
    out = grouped.agg(
        count=("split", "nunique"), message=("error_message", "first")
    ).reset_index()
    return out[columns]


def _datasets(result, n_rep, within):
    """:attr:`Analysis.datasets`: each data set's problem, sizes, replicates and
    the ``n_test/n_train`` of its corrected t."""
    names = list(result.datasets)
    scores = result.scores
    primary = primary_rows(result, scores)  # not nested CV's inner splits
    if primary is not None:
        scores = scores[primary]
    sizes = scores[(scores["n_train"] >= 0) & (scores["n_test"] >= 0)]
    sizes = sizes.groupby("dataset", observed=True)[["n_train", "n_test"]]
    table = pd.DataFrame(
        {"problem": [PROBLEM_WORDS.get(p, p) for p in result.datasets.values()]},
        index=pd.Index(names, name="data set"),
    )
    sources = result.info.get("dataset_sources") or {}
    if sources:  # measured or simulated, and by which model (Dataset(source=))
        table.insert(0, "source", [sources.get(d, "") for d in names])
    recorded = result.info.get("dataset_sizes") or {}
    for key, column in (("n_samples", "n"), ("n_features", "features")):
        if any(key in size for size in recorded.values()):
            table[column] = [recorded.get(d, {}).get(key, np.nan) for d in names]
    for stat in ("min", "median", "max"):
        values = sizes.agg(stat).reindex(names)
        table[f"n_train_{stat}"] = values["n_train"]
        table[f"n_test_{stat}"] = values["n_test"]
    table["replicates"] = n_rep.max(axis=1).reindex(names)
    ratios = within.groupby("dataset", sort=False)["test_train_ratio"].mean()
    if ratios.notna().any():
        table["test_train_ratio"] = ratios.reindex(names)
    return table


def _ratio_words(within, rules):
    """Where the corrected t's ``n_test/n_train`` comes from, and the number
    used on each data set (:attr:`Analysis.within_ratio`); ``""`` when no
    corrected t ran."""
    ratios = within.groupby("dataset", sort=False)["test_train_ratio"].mean()
    ratios = ratios.dropna()
    if not len(ratios):
        return ""
    if len(ratios) <= 8:
        values = fmt_names([f"{d} {r:.3g}" for d, r in ratios.items()])
    else:
        values = (
            f"from {ratios.min():.3g} to {ratios.max():.3g} (each data set's in "
            "the data-set table)"
        )
    rule = "; ".join(dict.fromkeys(rules[d] for d in ratios.index if d in rules))
    return f"{rule + '; ' if rule else ''}n_test/n_train = {values}"


_ADJUST_CITES = {
    "holm": ("holm1979",),
    "shaffer": ("shaffer1986", "garcia2008"),
    "bergmann_hommel": ("garcia2008",),
    "finner": ("garcia2010",),
    "holland": ("garcia2010",),
    "li": ("garcia2010",),
    "rom": ("garcia2010",),
}


def _posthoc(result, plan, scope, metric):
    """The plan's post-hoc table after Friedman's test (each pair better ranked
    first: the result method's order) and its words for the methods
    paragraph: ``(frame, words, correction, citations)``."""
    words, cites, _ = POSTHOCS[plan.posthoc]
    res = result.pairwise_tests(
        method=plan.posthoc,
        adjust=plan.adjust,
        alpha=plan.alpha,
        dataset=scope,
        metric=metric,
    )
    full = res.to_frame()
    frame = full[["learner_i", "learner_j"]].assign(
        rank_difference=full["estimate"],
        statistic=full["statistic"],
        pvalue=full["pvalue"],
        pvalue_adjusted=full["pvalue_adjusted"],
        reject=full["reject"],
        method=plan.posthoc,
    )
    if res.adjust == "single_step":
        correction = (
            "family-wise by Miller's χ² bound"
            if plan.posthoc == "miller"
            else "family-wise by Nemenyi's studentised range"
        )
    elif res.adjust == "none":
        correction = "no multiplicity correction"
    else:
        correction = f"{adjusted_by(res.adjust)} over {fmt_count(len(frame), 'pair')}"
    return frame, words, correction, cites + _ADJUST_CITES.get(res.adjust, ())


def _leaderboard(result, metric, level, delta):
    """:class:`LeaderboardAnalysis`, or ``None`` below :data:`MIN_LEARNERS`
    learners or :data:`MIN_DATASETS` data sets."""
    table = result.aggregate(metric)
    if table.shape[1] < MIN_LEARNERS or table.shape[0] < MIN_DATASETS:
        return None
    board, res = result.leaderboard(
        metric=metric,
        n_resamples=LEADERBOARD_RESAMPLES,
        confidence_level=level,
        random_state=LEADERBOARD_SEED,
        return_result=True,
    )
    grid = tuple(res.n_units * k for k in (1, 2, 4, 8))
    delta = delta if res.rank_by == "score" else None
    return LeaderboardAnalysis(
        result=res,
        board=board,
        matrix=result.win_rate_matrix(metric=metric),
        stability=res.stability(target_width=1.0, grid=list(grid), delta=delta),
        grid=grid,
        n_resamples=LEADERBOARD_RESAMPLES,
    )


_PAIRWISE_CITES = ("wilcoxon1945", "demsar2006", "benavoli2016")


def _pairwise_record(frame, plan, adjust, n_datasets_words):
    n_min, n_max = int(frame["n"].min()), int(frame["n"].max())
    n_text = f"{n_max}" if n_min == n_max else f"{n_min} to {n_max}"
    if n_min < n_max:
        n_text += " (each pair on the data sets both learners finished)"
    return TestRecord(
        "pairwise",
        "every pair of learners on its own, a verdict that no third learner "
        "changes, unlike Nemenyi's (effect size: the matched-pairs "
        "rank-biserial correlation)",
        "two-sided Wilcoxon signed-rank test",
        f"{n_text} {n_datasets_words}",
        correction=(
            f"{adjusted_by(adjust)} over {len(frame)} pairs" if len(frame) > 1 else ""
        ),
        alpha=plan.alpha,
        citations=_PAIRWISE_CITES + _ADJUST_CITES.get(adjust, ()),
    )


def _effects_step(
    within, ratio_words, n_rep, n_blocks, *, result, metric, scope, blocks, order,
    can_compare, why_not, notes, skipped, methods, plan, **_
):  # fmt: skip
    """The effect sizes: the records of the tests within each data set, and the
    pairwise intervals of the primary analysis (:attr:`Analysis.pairs`)."""
    analyses, alpha, level = plan.analyses, plan.alpha, plan.confidence_level
    if "effects" in analyses and within["n"].gt(0).any():
        name, cites = _paired_names(within["method"].dropna(), default="t")
        methods.append(
            TestRecord(
                "within",
                "each learner against the best learner on each data set "
                f"({level:.0%} confidence intervals of the mean difference)",
                f"two-sided {name}" + (f" ({ratio_words})" if ratio_words else ""),
                f"the resampling units of each data set (at most "
                f"{int(n_rep.max().max())} replicates; the corrected t uses every "
                "fold or split score)",
                citations=cites,
            )
        )
    pairs = pd.DataFrame()
    if can_compare and "effects" in analyses:
        try:
            with warnings.catch_warnings():  # said once, in the notes
                warnings.simplefilter("ignore", IncommensurableScalesWarning)
                pairs = _pairs(
                    result, order, level, dataset=scope, metric=metric, notes=notes
                )
        except ValueError as exc:
            notes.append(note("no_pairs", reason=str(exc)))
            skipped["pairs"] = skip("skip_pairs", reason=str(exc))
        else:
            m, (name, _) = len(pairs), _paired_names(pairs["method"])
            what = f"{fmt_level(level)} confidence intervals"
            if m > 1:
                adjusted = adjusted_interval_words(
                    level, pairs["adjusted_level"].iloc[0], m
                )
                what = f"unadjusted {what}, and {adjusted} intervals" + (
                    ", which exclude 0 only where the Holm-adjusted p is below α"
                    if abs(level - (1 - alpha)) < 1e-9
                    else " (at another level than the tests' 1 − α: not comparable "
                    "with the Holm p)"
                )
            ratio = ratio_words if "corrected_t" in set(pairs["method"]) else ""
            methods.append(
                TestRecord(
                    "pairs",
                    f"pairwise differences of the learners ({what})",
                    f"two-sided {name}" + (f" ({ratio})" if ratio else ""),
                    f"{n_blocks} {blocks}"
                    + (
                        ", on the mean performance per data set"
                        if scope is None
                        else ""
                    ),
                    correction=f"Holm-adjusted over {m} pairs" if m > 1 else "",
                    alpha=round(1 - level, 10),
                    citations=("berrar2013", "holm1979")
                    + (("demsar2006",) if scope is None else ("hothorn2005",)),
                )
            )
    elif "effects" in analyses:
        notes.append(note("pairs_need_blocks"))
        skipped["pairs"] = why_not

    return pairs


_FRIEDMAN_CITES = ("friedman1937", "iman1980", "demsar2006")


def _friedman_step(
    *, result, plan, metric, scope, blocks, learners, can_compare, why_not, notes,
    skipped, methods, **_
):  # fmt: skip
    """Friedman's test, the critical difference at the plan's α and the plan's
    post-hoc test."""
    analyses, alpha = plan.analyses, plan.alpha
    friedman = posthoc = critical_difference = None
    if can_compare and "friedman" in analyses:
        try:
            friedman = result.friedman(dataset=scope, metric=metric)
        except ValueError as exc:
            notes.append(note("no_friedman", reason=str(exc)))
            skipped["friedman"] = skip("skip_friedman", reason=str(exc))
        else:
            critical_difference = float(friedman.critical_difference(alpha=alpha))
            nemenyi = ("nemenyi1963",) if plan.posthoc == "nemenyi" else ()
            try:
                posthoc, words, correction, cites = _posthoc(
                    result, plan, scope, metric
                )
                words = ", followed by " + words
            except ValueError as exc:  # e.g. Conover's t on identical rankings
                title = POSTHOCS[plan.posthoc][2]
                notes.append(note("no_posthoc", title=title, reason=str(exc)))
                skipped["posthoc"] = skip("skip_posthoc", reason=str(exc))
                words, correction, cites = "", "", ()
            methods.append(
                TestRecord(
                    "friedman",
                    f"all {len(learners)} learners together",
                    "Friedman's rank test with the Iman–Davenport F" + words,
                    f"{friedman.n_blocks} {blocks}",
                    correction=correction,
                    alpha=alpha,
                    citations=_FRIEDMAN_CITES + nemenyi + cites,
                )
            )
    elif "friedman" in analyses:
        notes.append(note("friedman_needs_blocks"))
        skipped["friedman"] = why_not

    return friedman, posthoc, critical_difference


def _anova_step(
    *, result, metric, scope, blocks, learners, can_compare, notes, skipped,
    methods, plan, **_
):  # fmt: skip
    """Autorank's parametric path (issue 24), a sensitivity analysis only."""
    analyses, alpha, level = plan.analyses, plan.alpha, plan.confidence_level
    anova = tukey = None
    if can_compare and "rm_anova" in analyses:
        try:
            anova = result.friedman(dataset=scope, metric=metric, method="rm_anova")
            tukey = result.pairwise_tests(
                method="tukey",
                dataset=scope,
                metric=metric,
                alpha=alpha,
                confidence_level=level,
            )
        except ValueError as exc:
            notes.append(note("no_rm_anova", reason=str(exc)))
            skipped["rm_anova"] = skip("skip_rm_anova", reason=str(exc))
            anova = tukey = None
        else:
            methods.append(
                TestRecord(
                    "rm_anova",
                    f"all {len(learners)} learners together (sensitivity analysis)",
                    "repeated-measures ANOVA followed by Tukey's HSD on its "
                    "residual mean square (the parametric path autorank picks "
                    "for normal, homoscedastic data)",
                    f"{anova.n_blocks} {blocks}",
                    correction="family-wise by Tukey's studentised range",
                    alpha=alpha,
                    citations=("herbold2020",),
                )
            )

    return anova, tukey


def _power_step(
    complete, sign, delta, delta_source, n_pairs, n_datasets, *, result, plan,
    metric, scope, order, can_compare, why_not, notes, skipped, methods, **_
):  # fmt: skip
    """The power of the primary comparison of the two best learners."""
    analyses = plan.analyses
    power = None
    if "power" in analyses and can_compare and scope is None:
        power, reason = _power(
            result, complete, order, sign, metric, delta, delta_source, plan, n_pairs
        )
        if power is None:
            notes.append(note("no_power", reason=reason))
            skipped["power"] = reason
        else:
            methods.append(
                TestRecord(
                    "power",
                    f"the power of the comparison of {order[0]} and {order[1]}",
                    f"{power.test_words} across data sets (exact noncentral "
                    "t), power for the "
                    + (
                        f"smallest difference of interest Δ = {delta:g} "
                        f"({delta_source}, fixed in advance)"
                        if delta is not None
                        else "observed difference only (post hoc; no Δ given)"
                    )
                    + f" and the number of data sets for power "
                    f"{plan.target_power:.0%}",
                    f"{n_datasets} data sets",
                    # the test's words state its level (α/m = 0.0024): no second,
                    # unrounded "at α = 0.00238095" (issue 37.9)
                    citations=("boulesteix2015",),
                )
            )
    elif "power" in analyses:
        notes.append(note("power_needs_datasets", n_datasets=n_datasets))
        skipped["power"] = why_not or skip("skip_power", n_datasets=n_datasets)

    return power


def _win_tie_loss_step(
    mean, delta, friedman, *, full, metric, learners, skipped, plan, **_
):  # fmt: skip
    """The win/tie/loss counts within Δ (and whether the diagrams are readable)."""
    analyses = plan.analyses
    readable = len(learners) <= MAX_DIAGRAM_LEARNERS
    win_tie_loss = None
    if "win_tie_loss" in analyses:
        if not readable:
            skipped["win_tie_loss"] = skip(
                "wtl_unreadable", most=MAX_DIAGRAM_LEARNERS, k=len(learners)
            )
        elif len(mean) < 1 or len(learners) < 2:
            skipped["win_tie_loss"] = skip("wtl_one_learner")
        else:
            # one Δ: differences within the smallest difference that matters
            # are ties (exact equality up to rounding when the metric has none)
            win_tie_loss = full.win_tie_loss(metric=metric, delta=delta or 0.0)
            total = win_tie_loss.T.groupby(level=0, sort=False).sum().to_numpy()
            if not (total - np.diag(np.diag(total))).any():
                win_tie_loss = None
                skipped["win_tie_loss"] = skip("wtl_no_pair")
    if friedman is not None and not readable:
        skipped["critical_difference"] = _too_many(
            len(learners), "critical difference diagram", f"{plan.posthoc}.csv"
        )
    return win_tie_loss


def _pairwise_step(
    within, n_datasets, *, full, plan, metric, blocks, learners, skipped, methods,
    **_
):  # fmt: skip
    """The pairwise Wilcoxon tests, the smallest p they can reach, and the
    record of the LaTeX table's marks."""
    analyses, alpha = plan.analyses, plan.alpha
    pairwise = smallest = None
    if "pairwise" in analyses:
        pairwise, why = _pairwise(full, plan, metric, skipped, blocks)
        if pairwise is None:
            skipped["pairwise"] = why
        else:
            frame = pairwise.to_frame()
            methods.append(_pairwise_record(frame, plan, pairwise.adjust, blocks))
            if len(learners) > MAX_DIAGRAM_LEARNERS:
                skipped["pairwise_significance"] = _too_many(
                    len(learners), "pairwise significance diagram", "pairwise_tests.csv"
                )
            n = int(frame["n"].min())
            smallest = (n, float(smallest_attainable_pvalue("wilcoxon", n)))
    if smallest is None and blocks == "data sets" and n_datasets >= 1:
        smallest = (
            n_datasets,
            float(smallest_attainable_pvalue("wilcoxon", n_datasets)),
        )
    name, cites = _paired_names(within.loc[within["pvalue"].notna(), "method"])
    if name:
        methods.append(
            TestRecord(
                "latex_table",
                "in the LaTeX table, each learner against the best learner on "
                "each data set (marked when significantly worse)",
                f"two-sided {name}",
                "the replicates of each data set",
                correction="Holm-adjusted over the other learners of the data set",
                alpha=alpha,
                citations=(*cites, "holm1979"),
            )
        )
    return pairwise, smallest


def _bayesian_step(
    mean, best, within, delta, friedman, *, full, plan, metric, learners, methods,
    **_
):  # fmt: skip
    """The Bayesian comparisons and ranking, when the plan asks for them."""
    analyses = plan.analyses
    bayes = ranking = None
    bayes_notes = ranking_notes = ()
    fits = ()
    ranking_table = None
    if "bayesian" in analyses:
        bayes, rope, bayes_notes, fits = bayesian_comparisons(
            full,
            metric=metric,
            mean=mean,
            best=best,
            within=within if "effects" in analyses else within.iloc[:0],
            delta=delta,
            model=plan.bayesian,
        )
        ranking, ranking_table, ranking_notes = bayesian_ranking(
            full,
            metric=metric,
            n_datasets=len(mean),
            learners=learners,
            fit=plan.bayesian == "hierarchical" or "ranking" in analyses,
            friedman=friedman,
        )
        methods.extend(bayesian_records(bayes, rope, ranking))
    return bayes, bayes_notes, fits, ranking, ranking_table, ranking_notes


def _generalization_step(*, full, plan, metric, order, notes, skipped, methods, **_):
    """How good each learner is (:attr:`Analysis.generalization`)."""
    analyses = plan.analyses
    learner_intervals = None
    if "generalization" in analyses:
        learner_intervals, record, gen_notes, why = generalization(
            full, plan, metric, order
        )
        notes.extend(gen_notes)
        if record is None:
            skipped["generalization"] = why
        else:
            methods.append(record)
    return learner_intervals


def _blocks(complete, mean, n_rep):
    """The blocks of the analyses of all learners: the complete data sets, or
    the replicates of the one; whether they can run, why not, and how many."""
    learners, n_datasets = list(mean.columns), len(complete)
    scope = None
    if n_datasets == 1:
        # One complete data set (possibly beside unfinished ones of a partial
        # run): compare over its replicates.
        scope = complete.index[0]
        blocks = "replicates" if len(mean) == 1 else f"replicates of {scope}"
    else:
        blocks = "data sets"
    can_compare = len(learners) >= 2 and (scope is not None or n_datasets >= 2)
    if len(learners) < 2:
        why_not = skip("need_learners")
    elif not can_compare:
        code = "need_datasets_one" if len(mean) == 1 else "need_datasets"
        why_not = skip(code, n_datasets=n_datasets, n_any=len(mean))
    else:
        why_not = ""
    n_blocks = n_datasets if scope is None else int(n_rep.loc[scope].min())
    return scope, blocks, can_compare, why_not, n_blocks


def _verdicts(analysis, bayes, delta):
    """The analysis with its disagreements, the learner each summary names
    best, and the bottom line that states them."""
    # where a sensitivity analysis disagrees with the primary one: which one the
    # plan trusts, and why (read by the bottom line, which states them)
    disagreements = (*friedman_disagreements(analysis), *pairs_disagreements(analysis))
    if bayes is not None and len(bayes):
        disagreements += (*bayesian_disagreements(analysis, bayes, delta or 0.0),)
    best_by = best_by_summary(analysis)
    disagreements += (*best_disagreements(analysis, best_by),)
    analysis = replace(
        analysis, disagreements=disagreements, best_by=MappingProxyType(best_by)
    )
    analysis = replace(analysis, bottom_line=bottom_line(analysis))
    # the notes and disagreements are made in words by the steps that found
    # them; the works they cite are read from them here, once
    said = (
        *analysis.notes, *(d.sentence for d in analysis.disagreements),
        *analysis.bayesian_notes, *analysis.ranking_notes, analysis.within_ratio,
    )  # fmt: skip
    keys = {c for r in analysis.methods for c in r.citations}
    keys |= {k for text in said for k in cited_keys(str(text))}
    keys |= set(analysis.bottom_line.citations)
    return replace(analysis, citations=tuple(sorted(keys)))


def analyse(result, plan=None):
    """Run the analysis plan on a result, once, without refitting anything.

    Effect sizes first (Berrar & Lozano 2013), within and across data sets (the
    primary analysis), then the plan's sensitivity analyses (user guide). Every
    number is a public :class:`~sklearn_bench.BenchmarkResult` method's.

    Parameters
    ----------
    result : BenchmarkResult
    plan : AnalysisPlan, default=None
        What to compute; ``None`` is ``AnalysisPlan()``.

    Returns
    -------
    Analysis
        Every number every output renders; frozen.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> analysis = analyse(result, AnalysisPlan(delta=0.02, alpha=0.10))
    >>> analysis.best, analysis.delta, round(analysis.critical_difference, 3)
    ('C4.5+m+cf', 0.02, 1.118)
    >>> pair = analysis.pairs.loc["C4.5+m+cf − C4.5"]  # better ranked first
    >>> pair[["estimate", "low", "high"]].astype(float).round(3).tolist()
    [0.022, 0.005, 0.04]
    """
    if plan is None:
        plan = AnalysisPlan()
    if not isinstance(plan, AnalysisPlan):
        raise TypeError(f"`plan` must be an AnalysisPlan; got {plan!r}.")
    alpha, level = plan.alpha, plan.confidence_level
    metric = plan.metric if plan.metric is not None else next(iter(result.metrics))
    gib = result.greater_is_better(metric)  # refuses a metric the result lacks
    delta, delta_source = plan.resolved_delta(metric)
    notes, skipped, methods = [], {}, []
    full = result
    mean, std, n_rep, complete, result, scales_note = _tables(full, metric, notes)
    n_datasets, learners, sign = len(complete), list(mean.columns), -1.0 if gib else 1.0
    ranked = complete if n_datasets >= 1 else mean  # a partial store: finished
    average_ranks = (sign * ranked).rank(axis=1).mean(axis=0)
    average_ranks = average_ranks.sort_values(kind="stable")
    order = tuple(average_ranks.index) if len(ranked) else tuple(learners)
    best = order[0]

    scope, blocks, can_compare, why_not, n_blocks = _blocks(complete, mean, n_rep)

    within, failed, ratio_rules = within_table(
        full, mean, gib, metric=metric, alpha=alpha, level=level
    )
    within_notes = within_notes_of(failed)
    performance = performance_table(full, metric, alpha=alpha, within=within)
    ratio_words = _ratio_words(within, ratio_rules)
    notes.extend(within_notes)
    # what every step reads (the steps append to notes, skipped and methods)
    c = {
        "result": result, "full": full, "plan": plan, "metric": metric,
        "scope": scope, "blocks": blocks, "learners": learners, "order": order,
        "can_compare": can_compare, "why_not": why_not, "notes": notes,
        "skipped": skipped, "methods": methods,
    }  # fmt: skip
    pairs = _effects_step(within, ratio_words, n_rep, n_blocks, **c)
    friedman, posthoc, critical_difference = _friedman_step(**c)
    anova, tukey = _anova_step(**c)
    power = _power_step(
        complete, sign, delta, delta_source, len(pairs), n_datasets, **c
    )

    win_tie_loss = _win_tie_loss_step(mean, delta, friedman, **c)
    pairwise, smallest = _pairwise_step(within, n_datasets, **c)
    leaderboard = _leaderboard(full, metric, level, delta)
    bayes, bayes_notes, fits, ranking, ranking_table, ranking_notes = _bayesian_step(
        mean, best, within, delta, friedman, **c
    )
    learner_intervals = _generalization_step(**c)
    analysis = Analysis(
        plan=plan,
        learners=tuple(str(m) for m in full.learners),
        metrics=tuple(full.metrics),
        distributions=_distributions(full, metric, mean)
        if "effects" in plan.analyses
        else MappingProxyType({}),
        provenance=MappingProxyType(dict(full.info)),
        metric=metric,
        greater_is_better=gib,
        delta=delta,
        delta_source=delta_source,
        mean=mean,
        std=std,
        n_replicates=n_rep,
        datasets=_datasets(full, n_rep, within),
        within_ratio=ratio_words,
        order=order,
        average_ranks=average_ranks,
        performance=performance,
        within_test=short_test_names(within["method"]),
        best_learners=_best(
            order, average_ranks, pairs, within, performance, plan, delta
        ),
        blocks=blocks,
        datasets_across=tuple(complete.index) if scope is None else (scope,),
        datasets_left_out=tuple(d for d in mean.index if d not in complete.index),
        n_missing_tasks=int(getattr(full, "n_missing_tasks", 0)),
        within=within,
        within_notes=tuple(within_notes),
        pairs=pairs,
        primary_test=short_test_names(pairs["method"]) if len(pairs) else "",
        intervals_match_tests=abs(level - (1 - alpha)) < 1e-9,
        friedman=friedman,
        critical_difference=critical_difference,
        cd_groups=()
        if friedman is None or critical_difference is None
        else cd_groups(friedman.average_ranks, critical_difference),
        posthoc=posthoc,
        rm_anova=anova,
        tukey=tukey,
        pairwise=pairwise,
        smallest_pvalue=smallest,
        bayesian=bayes,
        bayesian_notes=tuple(bayes_notes),
        hierarchical_fits=tuple(fits),
        ranking=ranking,
        ranking_table=ranking_table,
        ranking_notes=tuple(ranking_notes),
        power=power,
        win_tie_loss=win_tie_loss,
        leaderboard=leaderboard,
        generalization=learner_intervals,
        disagreements=(),
        best_by=MappingProxyType({}),
        bottom_line=None,
        failures=_failures(full),
        learner_table=learner_table(full),
        notes=tuple(notes),
        scales_note=scales_note or "",
        skipped=MappingProxyType(skipped),
        methods=tuple(methods),
    )
    return _verdicts(analysis, bayes, delta)


def cd_groups(average_ranks, cd):
    """The maximal groups (at least 2 learners, best first) whose average ranks
    all differ by less than ``cd``: the runs of the rank order (an interval
    graph's maximal cliques; Demšar 2006, Fig. 1)."""
    ranks = average_ranks.sort_values(kind="stable")
    names, values = [str(n) for n in ranks.index], ranks.to_numpy(dtype=float)
    groups, last_end = [], -1
    for start in range(len(names)):
        end = start
        while end + 1 < len(names) and values[end + 1] - values[start] < cd:
            end += 1
        if end > start and end > last_end:
            groups.append(tuple(names[start : end + 1]))
        last_end = max(last_end, end)
    return tuple(groups)


def _too_many(k, what, csv):
    return skip("too_many", what=what, most=MAX_DIAGRAM_LEARNERS, k=k, csv=csv)


def _pairwise(result, plan, metric, skipped, blocks):
    """``result.pairwise_tests`` with the plan's α and the method's defaults
    (Wilcoxon, Shaffer), each pair on the data sets both learners finished;
    ``(None, why)`` when it cannot run."""
    if "pairs" in skipped or len(result.learners) < 2:
        return None, skipped.get("pairs", skip("pairwise_one_learner"))
    if blocks != "data sets":
        # Rank tests over the overlapping replicates of one learning sample
        # answer a question about that sample only and are no verdict about
        # new data: the corrected t of the bottom line is.
        return None, skip("pairwise_one_dataset")
    try:
        res = result.pairwise_tests(
            alpha=plan.alpha,
            confidence_level=plan.confidence_level,
            metric=metric,
            missing="pairwise",
        )
    except ValueError as exc:
        return None, skip("no_pairwise", reason=str(exc))
    return res, ""
