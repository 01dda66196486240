"""One analysis that everything renders (issue 27, item 2).

The report is run on a few studies, and every number in its tables (the
``tables/*.csv`` files it writes, and the analysis object it returns) is checked
against the public :class:`~sklearn_bench.BenchmarkResult` method called with the
plan's settings: the paired test and interval of each pair across and within data
sets, Friedman's test and its post-hoc p-values, the pairwise Wilcoxon–Holm tests,
the Bayesian probabilities, the power and the wins, ties and losses.
"""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import (  # noqa: E402
    N_SAMPLES,
    SEED,
    THRESHOLD,
    AnalysisPlan,
    analyse,
)
from sklearn_bench.analysis._records import better_first  # noqa: E402
from sklearn_bench.report import write_report  # noqa: E402
from sklearn_bench.stats import adjust_pvalues  # noqa: E402

RTOL = 1e-12  # the same code path: equal up to the CSV's round trip (repr)
LEARNERS = ["A", "B", "C"]
DATASETS = [f"d{i}" for i in range(8)]


def _study(kind):
    """3 learners x 8 data sets from a table: one value per data set
    (``"plain"``, error rate), 5 replicates per data set (``"replicates"``),
    or a regression metric on a scale of its own (``"regression"``)."""
    rng = np.random.default_rng({"plain": 0, "replicates": 1, "regression": 2}[kind])
    rows = []
    n_rep = 5 if kind == "replicates" else 1
    for d in DATASETS:
        base = rng.uniform(0.1, 0.3) if kind != "regression" else rng.uniform(5, 20)
        for rep in range(n_rep):
            for j, learner in enumerate(LEARNERS):
                effect = [0.0, 0.01, 0.03][j] * (30 if kind == "regression" else 1)
                noise = rng.normal(0, 0.03 * (30 if kind == "regression" else 1))
                rows.append((d, learner, rep, base + effect + noise))
    metric = "mean_squared_error" if kind == "regression" else "error_rate"
    df = pd.DataFrame(rows, columns=["data", "model", "rep", metric])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value=metric,
        replicate="rep" if n_rep > 1 else None,
        greater_is_better=False,
    )


PLANS = {
    "plain": AnalysisPlan(),
    "replicates": AnalysisPlan(
        alpha=0.1, confidence_level=0.9, posthoc="conover", target_power=0.9
    ),
    # α is not 1 − confidence_level: the tests must use α, the intervals the level
    "regression": AnalysisPlan(delta=0.5, confidence_level=0.99, alpha=0.05),
}


@pytest.fixture(scope="module", params=sorted(PLANS))
def reported(request, tmp_path_factory):
    """The report of one study: (result, plan, analysis, tables folder)."""
    result = _study(request.param)
    plan = PLANS[request.param]
    out = tmp_path_factory.mktemp(request.param)
    analysis = write_report(result, out, plan=plan, progress=False)
    return result, plan, analysis, out / "tables"


def _close(a, b):
    np.testing.assert_allclose(
        np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=RTOL, atol=0
    )


def test_pairs_across_data_sets_are_paired_test(reported):
    """H: each row of pairwise_intervals.csv is result.paired_test(a, b) with
    its confidence_interval(plan.confidence_level); the Holm column is
    adjust_pvalues(p, "holm") of those p-values, and the simultaneous interval
    of every pair is the test's interval at the Bonferroni level 1 − (1 −
    level)/m."""
    result, plan, analysis, tables = reported
    csv = pd.read_csv(tables / "pairwise_intervals.csv", index_col=0)
    assert len(csv) == 3
    pvalues = []
    for pair, row in csv.iterrows():
        res = result.paired_test(row["a"], row["b"], metric=analysis.metric)
        ci = res.confidence_interval(plan.confidence_level)
        _close(
            [row["estimate"], row["low"], row["high"], row["pvalue"]],
            [res.estimate, ci.low, ci.high, res.pvalue],
        )
        assert pair == f"{row['a']} − {row['b']}" and row["n"] == res.n
        pvalues.append(res.pvalue)
    _close(csv["adjusted_pvalue"], adjust_pvalues(np.array(pvalues), adjust="holm"))
    m = len(pvalues)
    for _, row in csv.iterrows():
        res = result.paired_test(row["a"], row["b"], metric=analysis.metric)
        ci = res.confidence_interval(1 - (1 - plan.confidence_level) / m)
        _close([row["adjusted_low"], row["adjusted_high"]], [ci.low, ci.high])
    pd.testing.assert_frame_equal(
        csv.drop(columns="n"), analysis.pairs.drop(columns="n"), check_names=False
    )


def test_within_data_sets_are_paired_test(reported):
    """H: each row of within_dataset_intervals.csv is
    result.paired_test(reference, learner, dataset=d) (the best first, the
    report's one sign convention) with its interval at plan.confidence_level; a
    row without a test (n = 0) is one whose paired_test raises ValueError."""
    result, plan, analysis, tables = reported
    csv = pd.read_csv(tables / "within_dataset_intervals.csv")
    assert len(csv) == len(DATASETS) * 2
    for row in csv.itertuples(index=False):
        if row.n == 0:
            with pytest.raises(ValueError):
                result.paired_test(
                    row.reference, row.learner, dataset=row.dataset,
                    metric=analysis.metric,
                )  # fmt: skip
            continue
        res = result.paired_test(
            row.reference, row.learner, dataset=row.dataset, metric=analysis.metric
        )
        ci = res.confidence_interval(plan.confidence_level)
        _close(
            [row.estimate, row.low, row.high, row.pvalue],
            [res.estimate, ci.low, ci.high, res.pvalue],
        )
        assert row.method == res.method and row.n == res.n


def test_friedman_and_posthoc_are_the_result_methods(reported):
    """H: the analysis' Friedman test is result.friedman_test(); the post-hoc table
    (tables/<posthoc>.csv) is Friedman's Nemenyi post-hoc, or
    result.pairwise_tests(method=plan.posthoc, adjust=plan.adjust)."""
    result, plan, analysis, tables = reported
    ref = result.friedman_test(metric=analysis.metric)
    _close(
        [analysis.friedman.statistic, analysis.friedman.pvalue],
        [ref.statistic, ref.pvalue],
    )
    csv = pd.read_csv(tables / f"{plan.posthoc}.csv")
    if plan.posthoc == "nemenyi":
        expected = ref.posthoc(method="nemenyi").to_frame()
    else:
        expected = result.pairwise_tests(
            method=plan.posthoc, adjust=plan.adjust, metric=analysis.metric
        ).to_frame()
    # each pair the better ranked first (the report's one sign convention)
    expected = better_first(expected, analysis.order)
    _close(csv["pvalue"], expected["pvalue"])
    _close(csv["pvalue_adjusted"], expected["pvalue_adjusted"])
    diff = expected.get("rank_difference", expected.get("estimate"))
    _close(csv["rank_difference"], diff)
    assert list(csv["learner_i"]) == list(expected["learner_i"])


def test_pairwise_tests_are_pairwise_test_at_the_plans_alpha(reported):
    """H: tables/pairwise_tests.csv is result.pairwise_tests(method="wilcoxon",
    adjust="holm", alpha=plan.alpha, missing="pairwise") whole."""
    result, plan, analysis, tables = reported
    csv = pd.read_csv(tables / "pairwise_tests.csv")
    ref = result.pairwise_tests(
        method="wilcoxon",
        adjust="holm",
        alpha=plan.alpha,
        missing="pairwise",
        metric=analysis.metric,
    ).to_frame()
    ref = better_first(ref, analysis.order)  # the better ranked first
    numeric = [c for c in ref.columns if pd.api.types.is_float_dtype(ref[c])]
    for column in numeric:
        _close(csv[column], ref[column])
    assert list(csv["reject"]) == list(ref["reject"])


def test_bayesian_probabilities_are_bayesian_test(reported):
    """H: each across-data-set row of tables/bayesian.csv is
    result.bayesian_test(best, other, delta=Δ) with the analysis' documented
    draws and seed (N_SAMPLES, SEED), and its decision at THRESHOLD; Δ is the
    plan's (given, or the one default rule)."""
    result, plan, analysis, tables = reported
    csv = pd.read_csv(tables / "bayesian.csv")
    delta, _ = plan.resolved_delta(analysis.metric)
    across = csv[csv["scope"] == "across data sets"]
    assert len(across) == 2 and (across["method"] == "signed-rank").all()
    for row in across.itertuples(index=False):
        res = result.bayesian_test(
            row.a,
            row.b,
            delta=delta or 0.0,
            metric=analysis.metric,
            n_draws=N_SAMPLES,
            random_state=SEED,
        )
        probs = res.probabilities
        _close(
            [row[5], row[6], row[7]], [probs[row.a], probs["equivalent"], probs[row.b]]
        )
        assert row.decision == res.decision(THRESHOLD)


def test_power_is_result_power(reported):
    """H: the power at Δ and the number of data sets needed are result.power(a,
    b, delta=Δ, power=plan.target_power, alpha=plan.alpha / m) for the two best
    learners (Δ the plan's, given or by the default rule; m the number of pairs
    the primary analysis adjusts over by Holm's step-down, so the power is that
    of the analysis as run)."""
    result, plan, analysis, _ = reported
    pw = analysis.power
    delta, source = plan.resolved_delta(analysis.metric)
    assert (pw["delta"], pw["delta_source"]) == (delta, source)
    a, b = pw["pair"]
    ref = result.power(
        a,
        b,
        delta=delta,
        power=plan.target_power,
        alpha=plan.alpha / len(analysis.pairs),
        metric=analysis.metric,
    ).iloc[0]
    assert pw["n_comparisons"] == len(analysis.pairs) > 1
    assert pw["test_alpha"] == plan.alpha / len(analysis.pairs)
    _close([pw["power"], pw["n_needed"]], [ref["power"], ref["n_datasets_needed"]])


def test_win_tie_loss_is_result_win_tie_loss(reported):
    """H: the wins, ties and losses of the analysis, and those the report's map
    draws, are result.win_tie_loss(delta=Δ): one Δ, ties within it."""
    from sklearn_bench.report._figures import make_figures

    result, plan, analysis, _ = reported
    delta = plan.resolved_delta(analysis.metric)[0] or 0.0
    ref = result.win_tie_loss(metric=analysis.metric, delta=delta)
    pd.testing.assert_frame_equal(analysis.win_tie_loss, ref)
    import matplotlib.pyplot as plt

    figures = make_figures(result, analysis, analyses=("win_tie_loss",))
    fig = figures["win_tie_loss"][2]
    cells = [t.get_text() for t in fig.axes[0].texts if t.get_gid() == "wtl-cell"]
    for _, _, figure in figures.values():
        plt.close(figure)
    expected = [
        f"{ref.loc[i, (j, 'win')]}/{ref.loc[i, (j, 'tie')]}/{ref.loc[i, (j, 'loss')]}"
        for i in ref.index
        for j in ref.index
        if i != j
    ]
    assert cells == expected


def test_analyse_is_what_the_report_renders(reported):
    """H: analyse(result, plan) called on its own gives the numbers the report
    showed (one analysis, not one per output)."""
    result, plan, analysis, _ = reported
    again = analyse(result, plan)
    pd.testing.assert_frame_equal(again.pairs, analysis.pairs)
    pd.testing.assert_frame_equal(again.within, analysis.within)
    assert [r.key for r in again.methods] == [r.key for r in analysis.methods]
