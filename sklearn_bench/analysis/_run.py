"""Run an analysis plan once: the analysis object that every output renders."""

import math

from ._analysis import _analyse_core
from ._bayesian import (
    bayesian_comparisons_table,
    bayesian_ranking,
    register_bayesian,
    register_ranking,
)
from ._disagreements import bayesian_disagreements
from ._leaderboard import leaderboard_analysis
from ._pairwise import pairwise_analysis
from ._plan import AnalysisPlan
from ._records import TestRecord, paired_method, register_test


def analyse(result, plan=None):
    """Run the analysis plan on a result, once, without refitting anything.

    Effect sizes come first (Berrar & Lozano 2013): for each data set, each
    learner's mean difference to the best learner on that data set with the
    interval of the default test within a data set (the corrected resampled t
    on the run's folds or splits, valid for new data of the kind; see the user
    guide's "Tests within one data set"); across data sets, paired
    differences of the mean performances with unadjusted and simultaneous
    (Bonferroni) intervals, the latter compatible with the Holm-adjusted
    p-values. Then Friedman's test with the plan's post-hoc comparisons over
    data sets (Demšar 2006), the pairwise Wilcoxon–Holm tests (Benavoli et al.
    2016), the Bayesian comparisons with the plan's model (Benavoli et al.
    2017) and the power of the paired t-test across the data sets of the study
    with the number of data sets a study with power ``plan.target_power``
    would need (Boulesteix et al. 2015, Section 3). Every number comes from the
    public :class:`~sklearn_bench.BenchmarkResult` methods called with the
    plan's settings (or their batched paths, bit for bit equal).

    Parameters
    ----------
    result : BenchmarkResult
    plan : AnalysisPlan, default=None
        What to compute; ``None`` is ``AnalysisPlan()``.

    Returns
    -------
    ReportAnalysis
        The numbers every output renders (the HTML report, the text summary,
        the LaTeX tables, the methods paragraph and the CLI); the tests it ran
        are in ``methods``, the pairwise tests in ``cache["pairwise"]`` and
        the Bayesian comparisons in ``cache[("bayesian", 0.95)]``.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> analysis = analyse(result, AnalysisPlan(delta=0.02))
    >>> analysis.best, analysis.delta, analysis.delta_source
    ('C4.5+m+cf', 0.02, 'given')
    >>> pair = analysis.pairs.loc["C4.5+m+cf − C4.5"]  # better ranked first
    >>> pair[["estimate", "low", "high"]].astype(float).round(3).tolist()
    [0.022, 0.005, 0.04]
    """
    if plan is None:
        plan = AnalysisPlan()
    if not isinstance(plan, AnalysisPlan):
        raise TypeError(f"`plan` must be an AnalysisPlan; got {plan!r}.")
    analysis = _analyse_core(result, plan)
    # The tests in the order the report's methods paragraph lists them.
    analysis.cache["pairwise"] = (
        pairwise_analysis(result, analysis) if "pairwise" in plan.analyses else None
    )
    _register_latex_table(analysis)
    if "bayesian" in plan.analyses:
        table, rope, _ = bayesian_comparisons_table(result, analysis)
        if len(table):
            register_bayesian(analysis, table, rope)
            # which analysis the plan trusts where the Bayesian one disagrees
            analysis.disagreements.extend(bayesian_disagreements(analysis, table, rope))
        ranking, _, _ = bayesian_ranking(result, analysis)
        if ranking is not None:
            register_ranking(analysis, ranking)
    # ratings and rank sets of a large study (3 learners and 10 data sets or more)
    leaderboard_analysis(result, analysis=analysis)
    return analysis


def _register_latex_table(analysis):
    """The test of the LaTeX performance table (each learner against the best
    on each data set, Holm-adjusted there): the tests within data sets this
    analysis ran, read back by :func:`~sklearn_bench.analysis.within_test`."""
    tests = next(
        (v for k, v in analysis.cache.items() if k[:1] == ("within_tests",)), {}
    )
    tested = sorted(
        {
            getattr(res, "method", "t")
            for res in tests.values()
            if not isinstance(res, str) and math.isfinite(res.pvalue)
        }
    )
    if not tested:
        return
    alpha = analysis.alpha
    name = " / ".join(paired_method(m)[0] for m in tested)
    cites = tuple(dict.fromkeys(c for m in tested for c in paired_method(m)[1]))
    register_test(
        analysis,
        TestRecord(
            "latex_table",
            "in the LaTeX table, each learner against the best learner on "
            "each data set (marked when significantly worse)",
            f"two-sided {name}",
            "the replicates of each data set",
            correction="Holm-adjusted over the other learners of the data set",
            alpha=alpha,
            citations=(*cites, "holm1979"),
        ),
    )
