"""What a study's analysis says about a BenchmarkResult: effect sizes first, then
tests.

Everything here selects data from a :class:`~sklearn_bench.BenchmarkResult` and
calls its public methods or :mod:`sklearn_bench.stats`; nothing is fitted again.
"""

import warnings
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd

from ..results import IncommensurableScalesWarning, scale_note
from ..stats import adjust_pvalues
from ._disagreements import friedman_disagreements
from ._format import fmt_level
from ._plan import ANALYSES, POSTHOCS
from ._records import TestRecord, better_first, paired_method, within_notes

# Above this many learners the across-data-set pairs are "each learner against
# the best", not all k (k - 1) / 2 pairs (which would not fit one forest plot).
_MAX_LEARNERS_ALL_PAIRS = 10


@dataclass(frozen=True)
class ReportAnalysis:
    """The numbers of a study's analysis, which every output renders (see
    :func:`~sklearn_bench.analysis.analyse`).

    Attributes
    ----------
    metric : str
    greater_is_better : bool
    confidence_level : float
    mean : DataFrame
        Data sets × learners, mean performance over replicates.
    std : DataFrame
        Data sets × learners, its standard deviation over replicates.
    n_replicates : DataFrame
        Data sets × learners, number of replicates with a finite performance.
    best : str
        The learner with the best average rank over the data sets.
    within : DataFrame
        Per data set, every other learner against the best learner *on that data
        set*: ``dataset, learner, reference, estimate, low, high, pvalue, n,
        method`` (the default test within a data set of
        :meth:`~sklearn_bench.BenchmarkResult.paired_test`: the corrected
        resampled t on the run's folds or splits, valid for new data of the
        kind; ``n`` counts its units; the estimate is ``reference − learner``,
        the better first as in every table: ``SIGN_CONVENTION``).
    pairs : DataFrame
        The forest plot's comparisons ``a − b`` (index; ``a`` the better
        ranked) with ``estimate, low, high, adjusted_low, adjusted_high,
        adjusted_level, pvalue, adjusted_pvalue, n, method``; paired t over data
        sets (the default test within the data set when there is one data set).
        ``low, high`` are unadjusted intervals at ``confidence_level``; the
        adjusted intervals are simultaneous at ``confidence_level``: Bonferroni's,
        each at ``adjusted_level = 1 − α/m`` (:func:`adjusted_interval_words`
        names them). An adjusted interval excludes 0 only when the Bonferroni
        test rejects, so its Holm-adjusted p-value is then below α too.
    pairs_blocks : str
        ``"data sets"`` or ``"replicates"``: what ``pairs`` is paired over.
    friedman : FriedmanResult or None
    posthoc : DataFrame or None
        The all-pairs post-hoc comparisons after :attr:`friedman` named by
        :attr:`posthoc_method` (Nemenyi's by default): ``learner_i,
        learner_j, rank_difference, pvalue, pvalue_adjusted, method`` and the
        test's statistic, ``learner_i`` the better ranked of each pair.
    friedman_blocks : str
    power : dict or None
        ``pair, delta, delta_source, sigma, n_datasets, power, n_needed`` for
        the smallest difference of interest Δ fixed in advance (``delta_source``
        ``"given"`` or ``"default"``; ``delta``, ``power`` and ``n_needed`` are
        ``None`` when there is none), then, secondary, ``observed_difference``,
        ``posthoc_power`` and ``posthoc_n_needed`` at the observed difference
        (post-hoc power: a function of the p-value, not evidence).
    failures : DataFrame
        ``dataset, learner, error_type, count, message`` of failed tasks.
    notes : list of str
        What could not be computed, and why: one note per cause (a cause
        shared by many comparisons is one note with their number, a few of
        them and the way out).
    skipped : dict of str to str
        Per analysis (``"pairs"``, ``"friedman"``, ``"power"``,
        ``"win_tie_loss"``, ``"pairwise"``), why it was not run; the report
        says so in place.
    methods : list of TestRecord
        The tests the report ran, in order (see
        :func:`~sklearn_bench.report.register_test`); the methods paragraph
        reads them.
    datasets_across : list of str
        The data sets the analyses across data sets used.
    alpha : float
        The significance level of the analysis plan.
    delta : float or None
        The smallest difference that matters, Δ, in the metric's units: the ROPE
        of the Bayesian tests, the target of the power analysis and the margin
        of practical equivalence (``None``: none given and no default).
    delta_source : str
        ``"given"``, ``"default"`` (see :data:`DEFAULT_DELTA_REASON`) or
        ``"none"``.
    analyses : tuple of str
        The analyses asked for (see :data:`ANALYSES`).
    cache : dict
        Analyses computed once per report and shared by the HTML page, the
        summary and the tables (e.g. the Bayesian comparisons).
    posthoc_method, posthoc_adjust : str
        The post-hoc test after Friedman's test and its correction.
    bayesian : str
        The Bayesian model across data sets the plan names.
    plan : AnalysisPlan
        The plan this analysis ran.
    disagreements : list of Disagreement
        Where a sensitivity analysis reaches another verdict than the primary
        analysis (or Friedman's χ² p another than the Iman–Davenport F): both
        verdicts, which one the plan trusts and why, as the sentence the
        report prints (see :class:`~sklearn_bench.analysis.Disagreement`).
    win_tie_loss : DataFrame or None
        :meth:`~sklearn_bench.BenchmarkResult.win_tie_loss` of the metric (the
        counts the report's map draws), when every data set is complete;
        ``None`` otherwise (the map then counts the data sets with matched
        replicates).
    within_notes : list of str
        The notes (also in :attr:`notes`) of the rows of :attr:`within` without
        an interval, one per cause.
    order : list of str
        The learners from the best to the worst average rank (the order of
        ``SIGN_CONVENTION``).

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> analysis = analyse(result, AnalysisPlan())
    >>> analysis.best, analysis.direction, analysis.friedman_blocks
    ('Adaboosted C4.5', 'lower is better', 'data sets')
    >>> analysis.delta, analysis.delta_source  # the error rate's default Δ
    (0.01, 'default')
    """

    metric: str
    greater_is_better: bool
    confidence_level: float
    mean: pd.DataFrame = field(repr=False)
    std: pd.DataFrame = field(repr=False)
    n_replicates: pd.DataFrame = field(repr=False)
    best: str
    within: pd.DataFrame = field(repr=False)
    pairs: pd.DataFrame = field(repr=False)
    pairs_blocks: str
    friedman: object = field(repr=False)
    posthoc: pd.DataFrame | None = field(repr=False)
    friedman_blocks: str
    power: dict | None
    failures: pd.DataFrame = field(repr=False)
    notes: list = field(default_factory=list, repr=False)
    skipped: dict = field(default_factory=dict, repr=False)
    methods: list = field(default_factory=list, repr=False)
    datasets_across: list = field(default_factory=list, repr=False)
    alpha: float = 0.05
    delta: float | None = None
    delta_source: str = "none"
    analyses: tuple = ANALYSES
    cache: dict = field(default_factory=dict, repr=False, compare=False)
    posthoc_method: str = "nemenyi"
    posthoc_adjust: str = "single_step"
    bayesian: str = "signed_rank"
    plan: object = field(default=None, repr=False, compare=False)
    win_tie_loss: pd.DataFrame | None = field(default=None, repr=False)
    disagreements: list = field(default_factory=list, repr=False)
    within_notes: list = field(default_factory=list, repr=False)
    order: list = field(default_factory=list, repr=False)

    @property
    def direction(self):
        """``"higher is better"`` or ``"lower is better"``."""
        return "higher is better" if self.greater_is_better else "lower is better"


def _interval(result, a, b, *, dataset, metric, levels):
    """Default paired test of ``a − b`` (t over data sets; within one data set
    the default of ``paired_test``, valid for new data of its kind): estimate,
    p-value, n and the interval at each confidence level."""
    res = result.paired_test(a, b, dataset=dataset, metric=metric)
    return res, [res.confidence_interval(level) for level in levels]


def _within(result, mean, greater_is_better, level, metric, notes, tests=None):
    """Each learner against the best on each data set; ``tests`` (a dict, if
    given) keeps each test, or its error message, by ``(learner, best, data
    set, metric)`` for the other tables of the report (see
    :func:`within_test`)."""
    tests = {} if tests is None else tests
    rows = []
    failed = []  # said once per cause, in the notes (issue 28.9)
    finite = np.isfinite(mean.to_numpy(dtype=float))  # one lookup, not 25 000
    for at, dataset in enumerate(mean.index):
        row_means = mean.loc[dataset].dropna()
        if row_means.empty:
            continue
        best = row_means.idxmax() if greater_is_better else row_means.idxmin()
        others = [m for m in row_means.index if m != best]
        batch = _within_batch(result, others, best, level, metric, dataset)
        for learner, usable in zip(mean.columns, finite[at], strict=True):
            if learner == best or not usable:
                continue
            entry = {"dataset": dataset, "learner": learner, "reference": best}
            if learner in batch:
                res = batch[learner]
                tests[learner, best, dataset, metric] = res
                # best − learner: the better first, as in every table
                entry.update(estimate=-res.estimate, low=-res.high, high=-res.low)
                entry.update(pvalue=res.pvalue, n=res.n, method=res.method)
                rows.append(entry)
                continue
            try:
                res, (ci,) = _interval(
                    result,
                    learner,
                    best,
                    dataset=dataset,
                    metric=metric,
                    levels=[level],
                )
            except ValueError as exc:
                tests[learner, best, dataset, metric] = str(exc)
                failed.append((learner, best, dataset, str(exc)))
                entry.update(estimate=np.nan, low=np.nan, high=np.nan)
                entry.update(pvalue=np.nan, n=0, method="")
            else:
                tests[learner, best, dataset, metric] = res
                entry.update(estimate=-res.estimate, low=-ci.high, high=-ci.low)
                entry.update(pvalue=res.pvalue, n=res.n, method=res.method)
            rows.append(entry)
    notes.extend(within_notes(failed))
    columns = ["dataset", "learner", "reference", "estimate", "low", "high"]
    return pd.DataFrame(rows, columns=[*columns, "pvalue", "n", "method"])


def _within_batch(result, learners, best, level, metric, dataset):
    """The default test of each of ``learners`` against ``best`` on
    ``dataset``, all at once when they share one design (the corrected t, see
    :func:`~sklearn_bench.results._within.corrected_t_block`): ``{learner:
    namespace of estimate, low, high, pvalue, n, method}``, bit for bit what
    ``paired_test`` and its interval give; empty when they cannot be batched
    (those, and constant differences, are tested one by one)."""
    from types import SimpleNamespace

    from ..results import corrected_t_block
    from ..stats import paired_test

    block = corrected_t_block(result, learners, best, metric=metric, dataset=dataset)
    if block is None or block[0].shape[0] < 2:
        return {}
    x, y, ratio = block
    out = paired_test(x, y[:, None], method="corrected_t", test_train_ratio=ratio)
    ci = out.confidence_interval(level)
    return {
        learner: SimpleNamespace(
            estimate=float(out.estimate[j]),
            low=float(ci.low[j]),
            high=float(ci.high[j]),
            pvalue=float(out.pvalue[j]),
            n=int(x.shape[0]),
            method="corrected_t",
        )
        for j, learner in enumerate(learners)
        if not np.isnan(out.pvalue[j])  # constant differences: one by one
    }


def within_test(result, analysis, a, b, dataset):
    """``result.paired_test(a, b, dataset=dataset)`` with the analysis' metric
    and the default method, taken from the tests the analysis already ran
    within each data set when it ran this one (raising its ``ValueError`` if it
    failed), so that no table of a report runs a test twice. A test run in a
    batch (:func:`_within_batch`) is a namespace with its ``estimate``,
    ``pvalue``, ``n`` and ``method``.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse, within_test
    >>> df = pd.DataFrame({"d": ["p"] * 10, "l": ["A", "B"] * 5,
    ...                    "rep": [0, 0, 1, 1, 2, 2, 3, 3, 4, 4],
    ...                    "error_rate": [0.10, 0.14, 0.12, 0.15, 0.11, 0.13,
    ...                                   0.09, 0.14, 0.12, 0.16]})
    >>> result = BenchmarkResult.from_frame(df, dataset="d", learner="l",
    ...     value="error_rate", replicate="rep", greater_is_better=False)
    >>> analysis = analyse(result, AnalysisPlan())
    >>> within_test(result, analysis, "B", "A", "p")  # as paired_test: no scheme
    Traceback (most recent call last):
    ...
    ValueError: The resampling scheme of data set 'p' is unknown ...
    """
    tests = analysis.cache.get(("within_tests", id(result)), {})
    hit = tests.get((a, b, str(dataset), analysis.metric))
    if hit is None:
        return result.paired_test(a, b, dataset=dataset, metric=analysis.metric)
    if isinstance(hit, str):
        raise ValueError(hit)
    return hit


def adjusted_interval_words(confidence_level, n_pairs):
    """How the adjusted intervals of ``n_pairs`` pairs are labelled: their
    simultaneous level, the method and the level of each.

    The adjusted intervals of an analysis are Bonferroni's: each at ``1 −
    α/m``, together at ``1 − α`` (see
    :func:`~sklearn_bench.stats.simultaneous_intervals`); one that excludes 0
    has a Holm-adjusted p-value below α.

    Examples
    --------
    >>> from sklearn_bench.analysis import adjusted_interval_words
    >>> adjusted_interval_words(0.95, 21)
    'simultaneous 95% (Bonferroni, each at 99.76%)'
    >>> adjusted_interval_words(0.95, 1)
    '95%'
    """
    if n_pairs <= 1:
        return f"{fmt_level(confidence_level)}"
    each = 1 - (1 - confidence_level) / int(n_pairs)  # Bonferroni
    return (
        f"simultaneous {fmt_level(confidence_level)} (Bonferroni, each at "
        f"{fmt_level(each, digits=2)})"
    )


def _pairs(result, order, level, best, *, dataset, metric, notes=None):
    """Pairwise paired-t intervals, unadjusted and simultaneous (Bonferroni,
    each at ``1 − α/m``: compatible with the Holm-adjusted p-values beside
    them, see :func:`~sklearn_bench.stats.simultaneous_intervals`)."""
    learners = list(order)
    if len(learners) <= _MAX_LEARNERS_ALL_PAIRS:
        # In rank order, so "a − b" reads as "the better ranked against the other".
        pairs = list(combinations(learners, 2))
    else:
        pairs = [(best, other) for other in learners if other != best]
    tests = []
    rows = []
    for a, b in pairs:
        try:
            res, (ci,) = _interval(
                result, a, b, dataset=dataset, metric=metric, levels=[level]
            )
        except ValueError as exc:  # e.g. constant differences: t undefined
            if notes is None:
                raise
            notes.append(f"No interval for {a} − {b}: {exc}")
            tests.append(None)
            rows.append({"pair": f"{a} − {b}", "a": a, "b": b, "n": 0})
            continue
        tests.append(res)
        rows.append(
            {
                "pair": f"{a} − {b}",
                "a": a,
                "b": b,
                "estimate": res.estimate,
                "low": ci.low,
                "high": ci.high,
                "pvalue": res.pvalue,
                "n": res.n,
                "method": res.method,
            }
        )
    table = pd.DataFrame(rows).set_index("pair")
    table = table.reindex(
        columns=["a", "b", "estimate", "low", "high", "pvalue", "n", "method"]
    )
    table[["estimate", "low", "high", "pvalue"]] = table[
        ["estimate", "low", "high", "pvalue"]
    ].astype(float)
    adjusted = adjust_pvalues(table["pvalue"].fillna(1.0), adjust="holm")
    adjusted = np.where(table["pvalue"].isna(), np.nan, adjusted)
    # Bonferroni: each interval at 1 − α/m, all m together at 1 − α. One that
    # excludes 0 has m p < α, so Holm rejects it too: never an interval
    # excluding 0 beside a Holm-adjusted p above α (intervals at Holm's levels
    # α/(m − r + 1), used past where the step-down stopped, could).
    each = 1 - (1 - level) / len(table)
    cis = [
        (np.nan, np.nan) if t is None else t.confidence_interval(each) for t in tests
    ]
    table["adjusted_low"] = [ci[0] for ci in cis]
    table["adjusted_high"] = [ci[1] for ci in cis]
    table["adjusted_level"] = each
    table["adjusted_pvalue"] = adjusted
    return table[
        [
            "a",
            "b",
            "estimate",
            "low",
            "high",
            "adjusted_low",
            "adjusted_high",
            "adjusted_level",
            "pvalue",
            "adjusted_pvalue",
            "n",
            "method",
        ]
    ]


def _power(
    result,
    complete,
    order,
    sign,
    metric,
    delta,
    source,
    target_power,
    alpha,
    n_comparisons=1,
):
    """The power dict of :class:`ReportAnalysis` (Δ first, post hoc second), or
    ``(None, reason)``.

    The power is that of the primary analysis as run: with ``n_comparisons`` > 1
    pairs adjusted by Holm's step-down, a pair is declared different at the
    first step only when its p-value is below ``alpha / n_comparisons``; the
    power at that level is the (conservative) power of the adjusted test, and the
    number of data sets needed is for that level too.
    """
    m = max(int(n_comparisons), 1)
    level = alpha / m
    a, b = order[0], order[1]
    diff = sign * (complete[b] - complete[a])  # > 0 when a is better
    sigma = float(np.std(diff, ddof=1))
    observed = float(np.mean(diff))
    if not sigma > 1e-10:  # below: rounding noise, no spread
        return None, (
            f"the per-data-set differences between {a} and {b} have standard "
            f"deviation {sigma:.3g}"
        )

    def at(d):
        row = result.power(
            a, b, delta=d, power=target_power, metric=metric, alpha=level
        ).iloc[0]
        return row, float(row["power"]), int(row["n_datasets_needed"])

    out = {
        "pair": (a, b),
        "delta": delta,
        "delta_source": source,
        "power": None,
        "n_needed": None,
        "observed_difference": observed,
        "posthoc_power": None,
        "posthoc_n_needed": None,
        "sigma": sigma,
        "sigma_source": (
            f"the standard deviation of the {len(diff)} per-data-set differences "
            f"between {a} and {b} in this study"
        ),
        "test": "two-sided paired t over data sets (exact noncentral t)",
        "alpha": alpha,
        "n_comparisons": m,
        "test_alpha": level,
        "test_words": (
            f"two-sided paired t-test at α = {alpha:g}"
            if m == 1
            else f"two-sided paired t-test at Holm's first-step level α/{m} = "
            f"{level:.2g} (the primary analysis adjusts over {m} pairs; a "
            "conservative bound)"
        ),
        "n_datasets": len(diff),
        "target_power": target_power,
    }
    if delta is not None:
        row, out["power"], out["n_needed"] = at(delta)
        out["sigma"] = float(row["sigma"])
    if abs(observed) > 0:
        try:
            _, out["posthoc_power"], out["posthoc_n_needed"] = at(abs(observed))
        except ValueError:  # a difference too small for any number of data sets
            pass
    if delta is None and out["posthoc_power"] is None:
        return None, f"no Δ was given and {a} and {b} do not differ on average"
    return out, ""


def _incomplete_datasets(result, metric):
    """The data sets on which some learner lacks a replicate's performance (not
    run, or NaN: a failed task), or that have none at all."""
    from ..results import performance_arrays

    arrays = performance_arrays(result, metric)
    n_d = arrays["count"].shape[0]
    # Replicates of each data set: distinct (data set, replicate) pairs.
    d, rep = arrays["dataset"], arrays["replicate"]
    order = np.lexsort((rep, d))
    d, rep = d[order], rep[order]
    first = np.ones(d.size, dtype=bool)
    first[1:] = (np.diff(d) != 0) | (np.diff(rep) != 0)
    n_rep = np.bincount(d[first], minlength=n_d)
    bad = (
        (n_rep == 0)
        | (arrays["count"] != n_rep[:, None]).any(axis=1)
        | (arrays["n_nan"] > 0).any(axis=1)
    )
    names = list(result.datasets)
    return {names[i] for i in np.flatnonzero(bad)}


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


_ADJUST_WORDS = {
    "single_step": "",
    "holm": "Holm",
    "shaffer": "Shaffer's static procedure",
    "bergmann_hommel": "Bergmann and Hommel's procedure",
    "bonferroni": "Bonferroni",
    "hochberg": "Hochberg",
    "hommel": "Hommel",
    "finner": "Finner",
    "holland": "Holland and Copenhaver",
    "li": "Li",
    "rom": "Rom",
    "none": "",
}
_ADJUST_CITES = {
    "holm": ("holm1979",),
    "shaffer": ("garcia2008",),
    "bergmann_hommel": ("garcia2008",),
    "finner": ("garcia2010",),
    "holland": ("garcia2010",),
    "li": ("garcia2010",),
    "rom": ("garcia2010",),
}


_POSTHOC_TITLES = {
    "nemenyi": "Nemenyi",
    "conover": "Conover–Iman",
    "siegel": "Siegel–Castellan",
    "miller": "Miller",
    "quade": "Quade",
    "exact_ranksum": "Exact rank-sum (Eisinga et al. 2017)",
}


def posthoc_title_of(method):
    """The name of a post-hoc test after Friedman's (``"Conover–Iman"``)."""
    return _POSTHOC_TITLES.get(method, method)


def posthoc_title(analysis):
    """The name of the report's post-hoc test after Friedman's, with its
    correction (``"Conover–Iman (shaffer)"``).

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse, posthoc_title
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> posthoc_title(analyse(result, AnalysisPlan()))
    'Nemenyi'
    >>> posthoc_title(analyse(result, AnalysisPlan(posthoc="conover")))
    'Conover–Iman (shaffer)'
    """
    method = getattr(analysis, "posthoc_method", "nemenyi")
    name = _POSTHOC_TITLES.get(method, method)
    adjust = getattr(analysis, "posthoc_adjust", "single_step")
    return name if adjust == "single_step" else f"{name} ({adjust})"


def _posthoc(result, friedman, method, adjust, scope, metric):
    """The post-hoc table after Friedman's test and its words for the methods
    paragraph: ``(frame, words, correction, citations)``."""
    words, cites = POSTHOCS[method]
    if method == "nemenyi":
        res = friedman.posthoc(method="nemenyi")
    else:
        res = result.pairwise_tests(
            method=method, adjust=adjust, dataset=scope, metric=metric
        )
    full = res.to_frame()
    frame = pd.DataFrame(
        {
            "learner_i": full["learner_i"],
            "learner_j": full["learner_j"],
            "rank_difference": full["estimate"],
            "statistic": full["statistic"],
            "pvalue": full["pvalue"],
            "pvalue_adjusted": full["pvalue_adjusted"],
            "method": method,
        }
    )
    if res.adjust == "single_step":
        correction = (
            "family-wise by Miller's χ² bound"
            if method == "miller"
            else "family-wise by Nemenyi's studentised range"
        )
    elif res.adjust == "none":
        correction = "no multiplicity correction"
    else:
        correction = (
            f"family-wise by {_ADJUST_WORDS[res.adjust]} over {len(frame)} pairs"
        )
    return (
        frame,
        words,
        correction,
        cites + _ADJUST_CITES.get(res.adjust, ()),
    )


def _analyse_core(result, plan):
    """The numbers every output of a report shows (see
    :func:`~sklearn_bench.analysis.analyse`), without the pairwise and Bayesian
    sections (run by ``analyse`` or on demand)."""
    analyses = plan.analyses
    posthoc_name, posthoc_adjust = plan.posthoc, plan.adjust
    target = plan.target_power
    alpha = plan.alpha
    level = plan.confidence_level
    metric = plan.metric
    if metric is None:
        metric = next(iter(result.metrics))
    gib = result.greater_is_better(metric)  # refuses a metric the result lacks
    mean = result.aggregate(metric)
    mean.columns = [str(c) for c in mean.columns]
    mean.index = [str(i) for i in mean.index]
    std = result.aggregate(metric, stat="std")
    std.columns, std.index = list(mean.columns), list(mean.index)
    n_rep = result.aggregate(metric, stat="count")
    n_rep.columns, n_rep.index = list(mean.columns), list(mean.index)
    notes = []
    skipped = {}
    methods = []

    # A data set with a NaN replicate performance (a failed or missing task) is
    # left out of the analyses across data sets, which need every learner on
    # every replicate.
    incomplete = _incomplete_datasets(result, metric)
    # A data set of a partial store may have no committed task at all: it is in
    # result.datasets but not in ``mean``.
    complete = mean.drop(index=[d for d in mean.index if d in incomplete])
    complete = complete.dropna(axis=0, how="any")
    full = result
    if len(complete) < len(mean):
        dropped = [d for d in mean.index if d not in complete.index]
        notes.append(
            f"Data sets {dropped} have failed or missing tasks and are left out of "
            "the analyses across data sets."
        )
        result = _subset(result, list(complete.index))
    n_datasets = len(complete)
    scales_note = scale_note(complete, metric)  # Demšar (2006), Sec. 3.1
    if scales_note is not None:
        notes.append(scales_note)
    learners = list(mean.columns)
    sign = -1.0 if gib else 1.0
    if n_datasets >= 1:
        ranks = (sign * complete).rank(axis=1).mean(axis=0)
        order = list(ranks.sort_values(kind="stable").index)
    elif len(mean):
        # No complete data set (a partial store): order by the finished ones.
        order = list((sign * mean).rank(axis=1).mean(axis=0).sort_values().index)
    else:
        order = learners
    best = order[0]

    # Blocks of the across-learner analyses: data sets, or replicates of the one.
    scope = None
    if n_datasets >= 2:
        blocks_name = "data sets"
    elif n_datasets == 1:
        # One complete data set (possibly beside unfinished ones of a partial
        # run): compare over its replicates.
        scope = complete.index[0]
        blocks_name = "replicates" if len(mean) == 1 else f"replicates of {scope}"
    else:
        blocks_name = "data sets"
    can_compare = len(learners) >= 2 and (scope is not None or n_datasets >= 2)
    if len(learners) < 2:
        why_not = "comparisons need at least 2 learners with results"
    elif scope is None and n_datasets < 2:
        why_not = (
            f"the analyses across data sets need at least 2 data sets on which "
            f"every learner has every replicate; this result has {n_datasets} "
            f"({len(mean)} with any result)"
        )
        if len(mean) == 1:
            why_not += (
                "; the comparisons over the replicates of a single data set need "
                "every learner on every replicate"
            )
    else:
        why_not = ""

    within_tests = {}
    first_within_note = len(notes)
    within = _within(full, mean, gib, level, metric, notes, within_tests)
    within_notes = notes[first_within_note:]
    if "effects" in analyses and within["n"].gt(0).any():
        max_rep = int(n_rep.max().max())
        # The method the within-data-set tests actually used (paired_test's).
        # (A comparison whose test could not run has no method: "".)
        used = sorted({m for m in within["method"].dropna() if m}) or ["t"]
        name = " / ".join(paired_method(m)[0] for m in used)
        cites = tuple(dict.fromkeys(c for m in used for c in paired_method(m)[1]))
        methods.append(
            TestRecord(
                "within",
                "each learner against the best learner on each data set "
                f"({level:.0%} confidence intervals of the mean difference)",
                f"two-sided {name}",
                f"the resampling units of each data set (at most {max_rep} "
                "replicates; the corrected t uses every fold or split score)",
                citations=cites,
            )
        )
    pairs = pd.DataFrame()
    friedman = posthoc = None
    n_blocks = n_datasets if scope is None else int(n_rep.loc[scope].min())
    if can_compare and "effects" in analyses:
        try:
            with warnings.catch_warnings():  # said once, in the notes
                warnings.simplefilter("ignore", IncommensurableScalesWarning)
                pairs = _pairs(
                    result,
                    order,
                    level,
                    best,
                    dataset=scope,
                    metric=metric,
                    notes=notes,
                )
        except ValueError as exc:
            notes.append(f"No pairwise intervals: {exc}")
            skipped["pairs"] = f"no pairwise intervals: {exc}"
        else:
            methods.append(
                TestRecord(
                    "pairs",
                    "pairwise differences of the learners ("
                    + (
                        f"unadjusted {fmt_level(level)} confidence intervals, and "
                        f"{adjusted_interval_words(level, len(pairs))} intervals, "
                        "which exclude 0 only where the Holm-adjusted p is below α"
                        if len(pairs) > 1
                        else f"{fmt_level(level)} confidence intervals"
                    )
                    + ")",
                    "two-sided "
                    + " / ".join(
                        paired_method(m)[0]
                        for m in sorted(set(pairs["method"].dropna()))
                        if isinstance(m, str) and m
                    )
                    if scope is not None
                    else "two-sided paired t-test",
                    f"{n_blocks} {blocks_name}"
                    + (
                        ", on the mean performance per data set"
                        if scope is None
                        else ""
                    ),
                    correction=f"Holm-adjusted over {len(pairs)} pairs",
                    alpha=round(1 - level, 10),
                    citations=("berrar2013", "holm1979")
                    + (("demsar2006",) if scope is None else ("hothorn2005",)),
                )
            )
    elif "effects" in analyses:
        notes.append(
            "Pairwise intervals need at least 2 complete data sets (or 2 "
            "replicates of a single data set)."
        )
        skipped["pairs"] = why_not
    if can_compare and "friedman" in analyses:
        try:
            friedman = result.friedman_test(dataset=scope, metric=metric)
        except ValueError as exc:
            notes.append(f"No Friedman test: {exc}")
            skipped["friedman"] = f"Friedman's test could not be computed: {exc}"
        else:
            try:
                posthoc, words, correction, cites = _posthoc(
                    result, friedman, posthoc_name, posthoc_adjust, scope, metric
                )
                posthoc = better_first(posthoc, order)  # SIGN_CONVENTION
                words = ", followed by " + words
            except ValueError as exc:  # e.g. Conover's t on identical rankings
                notes.append(f"No {posthoc_title_of(posthoc_name)} post-hoc: {exc}")
                skipped["posthoc"] = f"the post-hoc test could not run: {exc}"
                posthoc, words, correction, cites = None, "", "", ()
            methods.append(
                TestRecord(
                    "friedman",
                    f"all {len(learners)} learners together",
                    "Friedman's rank test with the Iman–Davenport F" + words,
                    f"{friedman.n_blocks} {blocks_name}",
                    correction=correction,
                    alpha=alpha,
                    citations=("demsar2006", *cites),
                )
            )
    elif "friedman" in analyses:
        notes.append("Friedman's test needs at least 2 blocks and 2 learners.")
        skipped["friedman"] = why_not
    peer_cache = {}
    if can_compare and "rm_anova" in analyses:
        # issue 24: autorank's parametric path, a sensitivity analysis only
        try:
            anova = result.friedman_test(
                dataset=scope, metric=metric, method="rm_anova"
            )
            tukey = result.pairwise_tests(
                method="tukey", dataset=scope, metric=metric, alpha=alpha
            )
        except ValueError as exc:
            notes.append(f"No repeated-measures ANOVA: {exc}")
            skipped["rm_anova"] = f"RM-ANOVA could not be computed: {exc}"
        else:
            peer_cache["rm_anova"] = {"anova": anova, "tukey": tukey}
            methods.append(
                TestRecord(
                    "rm_anova",
                    f"all {len(learners)} learners together (sensitivity analysis)",
                    "repeated-measures ANOVA followed by Tukey's HSD on its "
                    "residual mean square (the parametric path autorank picks "
                    "for normal, homoscedastic data)",
                    f"{anova.n_blocks} {blocks_name}",
                    correction="family-wise by Tukey's studentised range",
                    alpha=alpha,
                    citations=("herbold2020",),
                )
            )

    power = None
    delta, delta_source = plan.resolved_delta(metric)
    if "power" in analyses and can_compare and scope is None:
        power, reason = _power(
            result,
            complete,
            order,
            sign,
            metric,
            delta,
            delta_source,
            target,
            alpha,
            n_comparisons=len(pairs) if scope is None and len(pairs) else 1,
        )
        if power is None:
            notes.append(f"No power analysis: {reason}.")
            skipped["power"] = reason
        else:
            methods.append(
                TestRecord(
                    "power",
                    f"the power of the comparison of {order[0]} and {order[1]}",
                    f"{power['test_words']} across data sets (exact noncentral "
                    "t), power for the "
                    + (
                        f"smallest difference of interest Δ = {delta:g} "
                        f"({delta_source}, fixed in advance)"
                        if delta is not None
                        else "observed difference only (post hoc; no Δ given)"
                    )
                    + f" and the number of data sets for power {target:.0%}",
                    f"{n_datasets} data sets",
                    alpha=power["test_alpha"],
                    citations=("boulesteix2013",),
                )
            )
    elif "power" in analyses:
        notes.append(
            "The power across data sets needs at least 2 complete data sets; "
            f"this study has {n_datasets}."
        )
        skipped["power"] = why_not or (
            "the power across data sets needs at least 2 data sets on which every "
            f"learner has every replicate; this result has {n_datasets}"
        )
    if "win_tie_loss" in analyses and (len(mean) < 1 or mean.shape[1] < 2):
        skipped["win_tie_loss"] = "wins and losses need 2 learners on a data set"
    win_tie_loss = None
    if "win_tie_loss" in analyses and len(complete) == len(mean) and len(learners) > 1:
        try:  # the public method's counts, drawn by the report's map
            # one Δ: differences within the smallest difference that matters are
            # ties (exact equality only when the metric has no Δ)
            win_tie_loss = full.win_tie_loss(metric=metric, delta=delta or 0.0)
        except ValueError:
            win_tie_loss = None

    analysis = ReportAnalysis(
        posthoc_method=posthoc_name,
        posthoc_adjust=posthoc_adjust,
        metric=metric,
        greater_is_better=gib,
        confidence_level=level,
        mean=mean,
        std=std,
        n_replicates=n_rep,
        best=best,
        within=within if "effects" in analyses else within.iloc[:0],
        pairs=pairs,
        pairs_blocks=blocks_name,
        friedman=friedman,
        posthoc=posthoc,
        friedman_blocks=blocks_name,
        power=power,
        failures=_failures(full),
        notes=notes,
        skipped=skipped,
        methods=methods,
        datasets_across=list(complete.index) if scope is None else [scope],
        alpha=alpha,
        delta=delta,
        delta_source=delta_source,
        analyses=tuple(analyses),
        cache={**peer_cache, ("within_tests", id(full)): within_tests},
        bayesian=plan.bayesian,
        plan=plan,
        win_tie_loss=win_tie_loss,
        within_notes=within_notes,
        order=order,
    )
    analysis.disagreements.extend(friedman_disagreements(analysis))
    return analysis
