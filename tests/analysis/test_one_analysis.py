"""One analysis that everything renders (issue 27, item 2; issue 36).

A few studies are analysed once, ``analyse(result, plan)``, and the report is
written from that :class:`~sklearn_bench.analysis.Analysis`. Every number of every
output (the HTML tables and sentences, the text summary, the LaTeX tables, the
methods paragraph, the CSV files and the data of the figures) is checked against
the Analysis field it renders; every field against the public
:class:`~sklearn_bench.BenchmarkResult` method called with the plan's settings;
and, under the default plan, the public methods called with their defaults give
what the report shows.
"""

import html
import re

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import Analysis, AnalysisPlan, analyse
from sklearn_bench.analysis._bayesian import N_SAMPLES, SEED, THRESHOLD
from sklearn_bench.datasets import load_demsar2006  # noqa: E402
from sklearn_bench.report import format_summary, write_report  # noqa: E402
from sklearn_bench.report._figures import make_figures  # noqa: E402
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
            # C first in the table, though A is the best: the API must order
            # each pair better ranked first, as the report does
            for j, learner in reversed(list(enumerate(LEARNERS))):
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
        n_train=90 if n_rep > 1 else None,
        n_test=10 if n_rep > 1 else None,
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
    """The report of one study: (result, plan, analysis, output folder)."""
    result = _study(request.param)
    plan = PLANS[request.param]
    out = tmp_path_factory.mktemp(request.param)
    analysis = analyse(result, plan)
    write_report(analysis, out, progress=False, figure_formats=("png",))
    return result, plan, analysis, out


def _close(a, b, rtol=RTOL):
    np.testing.assert_allclose(
        np.asarray(a, dtype=float), np.asarray(b, dtype=float), rtol=rtol, atol=0
    )


def _html_table(page, table_id):
    """The body rows of the HTML table ``table_id``: lists of cell texts."""
    body = re.search(rf'<table id="{table_id}".*?<tbody>(.*?)</tbody>', page, re.S)
    return [
        [html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        for row in re.findall(r"<tr>(.*?)</tr>", body.group(1))
    ]


def _num(text):
    """A cell as a number: ``"−∞"``, ``"–"`` (missing) and ``"< 0.001"`` too."""
    text = text.replace("−", "-").replace("∞", "inf").replace("–", "nan")
    return float(text.lstrip("< ").lstrip("+"))


def test_analysis_is_frozen(reported):
    """H: the Analysis cannot be changed after analyse(): its fields cannot be
    set, its lists are tuples and its skipped reasons a read-only mapping (no
    renderer can add to it)."""
    _, _, analysis, _ = reported
    with pytest.raises(AttributeError):
        analysis.best = "x"
    with pytest.raises(TypeError):
        analysis.skipped["pairs"] = "x"
    for name in ("notes", "methods", "disagreements", "order", "within_notes"):
        assert isinstance(getattr(analysis, name), tuple), name
    assert not hasattr(analysis, "cache")


def test_pairs_across_data_sets_are_paired_test(reported):
    """H: each row of pairwise_intervals.csv is analysis.pairs, and is
    result.paired_test(a, b) with its confidence_interval(plan.confidence_level);
    the Holm column is adjust_pvalues(p, "holm") of those p-values, and the
    simultaneous interval of every pair is the test's interval at the Bonferroni
    level 1 − (1 − level)/m."""
    result, plan, analysis, out = reported
    csv = pd.read_csv(out / "tables" / "pairwise_intervals.csv", index_col=0)
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
    report's one sign convention) with its interval at plan.confidence_level;
    its adjusted p is Holm's over the other learners of the data set and
    ``worse`` marks an adjusted p at most α with the reference better."""
    result, plan, analysis, out = reported
    csv = pd.read_csv(out / "tables" / "within_dataset_intervals.csv")
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
    for _, group in csv[csv["n"] > 0].groupby("dataset"):
        holm = adjust_pvalues(group["pvalue"].to_numpy(), adjust="holm")
        _close(group["adjusted_pvalue"], holm)
        expected = (holm <= plan.alpha) & (group["estimate"] < 0)  # lower is better
        assert list(group["worse"]) == list(expected)


def test_friedman_and_posthoc_are_the_result_methods(reported):
    """H: the analysis' Friedman test is result.friedman(); the
    critical difference is its Nemenyi CD at the plan's α; the post-hoc table
    (tables/<posthoc>.csv) is result.pairwise_tests(method=plan.posthoc,
    adjust=plan.adjust, alpha=plan.alpha), each pair better ranked first."""
    result, plan, analysis, out = reported
    ref = result.friedman(metric=analysis.metric)
    _close(
        [analysis.friedman.statistic, analysis.friedman.pvalue],
        [ref.statistic, ref.pvalue],
    )
    _close(analysis.critical_difference, ref.critical_difference(alpha=plan.alpha))
    csv = pd.read_csv(out / "tables" / f"{plan.posthoc}.csv")
    expected = result.pairwise_tests(
        method=plan.posthoc,
        adjust=plan.adjust,
        alpha=plan.alpha,
        metric=analysis.metric,
    ).to_frame()
    for column in ("pvalue", "pvalue_adjusted", "statistic"):
        _close(csv[column], expected[column])
    _close(csv["rank_difference"], expected["estimate"])
    assert list(csv["reject"]) == list(expected["reject"])
    assert list(csv["learner_i"]) == list(expected["learner_i"])
    ranks = analysis.average_ranks
    assert (ranks[csv["learner_i"]].to_numpy() <= ranks[csv["learner_j"]]).all()


def test_pairwise_tests_are_pairwise_tests_at_the_plans_alpha(reported):
    """H: tables/pairwise_tests.csv is analysis.pairwise, which is
    result.pairwise_tests(alpha=plan.alpha, confidence_level=
    plan.confidence_level, missing="pairwise") whole: the method's defaults
    (Wilcoxon, Shaffer), the plan's levels."""
    result, plan, analysis, out = reported
    csv = pd.read_csv(out / "tables" / "pairwise_tests.csv")
    ref = result.pairwise_tests(
        alpha=plan.alpha,
        confidence_level=plan.confidence_level,
        missing="pairwise",
        metric=analysis.metric,
    ).to_frame()
    assert analysis.pairwise.adjust == "shaffer"
    numeric = [c for c in ref.columns if pd.api.types.is_float_dtype(ref[c])]
    for column in numeric:
        _close(csv[column], ref[column])
    assert list(csv["reject"]) == list(ref["reject"])
    assert list(csv["learner_i"]) == list(ref["learner_i"])


def test_bayesian_probabilities_are_bayesian_test(reported):
    """H: each across-data-set row of tables/bayesian.csv is analysis.bayesian,
    and result.bayesian_test(best, other, delta=Δ) with the analysis'
    documented draws and seed (N_SAMPLES, SEED), and its decision at
    THRESHOLD; Δ is the plan's (given, or the one default rule)."""
    result, plan, analysis, out = reported
    csv = pd.read_csv(out / "tables" / "bayesian.csv")
    _close(csv["P(a better)"], analysis.bayesian["P(a better)"])
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
        assert row.decision == res.decide(THRESHOLD)


def test_power_is_result_power(reported):
    """H: the power at Δ and the number of data sets needed are result.power(a,
    b) with its defaults for the two best learners: the default Δ, and the test
    at α/m (m the number of pairs the primary analysis adjusts over by Holm's
    step-down, which power() counts by default), so the power is that of the
    analysis as run."""
    result, plan, analysis, _ = reported
    pw = analysis.power
    delta, source = plan.resolved_delta(analysis.metric)
    assert (pw.delta, pw.delta_source) == (delta, source)
    a, b = pw.pair
    m = len(analysis.pairs)
    given = {"delta": delta, "power": plan.target_power, "alpha": plan.alpha}
    kw = {} if plan == AnalysisPlan() else given  # the default plan: defaults
    ref = result.power(a, b, metric=analysis.metric, **kw).iloc[0]
    assert (ref["delta"], ref["n_comparisons"]) == (delta, m)
    assert pw.n_comparisons == m > 1 and pw.test_alpha == plan.alpha / m
    _close([pw.power, pw.n_needed], [ref["power"], ref["n_datasets_needed"]])


def _figures(analysis):
    figures = make_figures(analysis)
    out = {k: fig for k, (_, _, fig, _) in figures.items()}
    yield out
    for fig in out.values():
        plt.close(fig)


def test_figures_draw_the_analysis_fields(reported):
    """H: every figure's data is the field it renders: the win/tie/loss cells
    are analysis.win_tie_loss (= result.win_tie_loss(delta=Δ)); the critical
    difference bar is analysis.critical_difference long and the learners sit at
    the Friedman average ranks; the forest plot's intervals are analysis.pairs;
    the power curve's mark is at the study's J with the analysis' power."""
    result, plan, analysis, _ = reported
    delta = plan.resolved_delta(analysis.metric)[0] or 0.0
    ref = result.win_tie_loss(metric=analysis.metric, delta=delta)
    pd.testing.assert_frame_equal(analysis.win_tie_loss, ref)
    for figures in _figures(analysis):
        ax = figures["win_tie_loss"].axes[0]
        cells = [t.get_text() for t in ax.texts if t.get_gid() == "wtl-cell"]
        expected = [
            "/".join(str(ref.loc[i, (j, o)]) for o in ("win", "tie", "loss"))
            for i in ref.index
            for j in ref.index
            if i != j
        ]
        assert cells == expected
        ax = figures["critical_difference"].axes[0]
        bar = next(line for line in ax.lines if line.get_gid() == "cd-bar")
        _close(np.ptp(bar.get_xdata()), analysis.critical_difference)
        label = next(t for t in ax.texts if t.get_gid() == "cd-label")
        assert label.get_text() == f"CD = {analysis.critical_difference:.2f}"
        assert f"α = {plan.alpha:g}" in ax.get_title()
        ax = figures["forest"].axes[0]
        (line,) = [line for line in ax.lines if line.get_gid() == "ci-unadjusted"]
        drawn = np.reshape(line.get_xdata(), (-1, 3))[:, :2]  # rows broken at NaN
        _close(np.sort(drawn, axis=1), analysis.pairs[["low", "high"]].to_numpy())
        ax = figures["power"].axes[0]
        marks = [line for line in ax.lines if line.get_gid() == "power-mark"]
        powers = [float(line.get_ydata()[0]) for line in marks]
        assert analysis.power.n_datasets == marks[0].get_xdata()[0]
        _close(powers[1], analysis.power.power, rtol=1e-9)  # the observed σ


def test_html_numbers_are_the_analysis_fields(reported):
    """H: the numbers of report.html are the Analysis fields, as printed: the
    pairwise table (estimate, p, Holm p, n), the within table, the average
    ranks, the critical difference and α in the Friedman paragraph, the
    post-hoc and pairwise tables, and the bottom line's sentences."""
    _, plan, analysis, out = reported
    page = (out / "report.html").read_text()
    rows = _html_table(page, "table-pairs")
    pairs = analysis.pairs
    assert [r[0] for r in rows] == list(pairs.index)
    _close([_num(r[1]) for r in rows], pairs["estimate"].round(4))
    _close([_num(r[4]) for r in rows], pairs["pvalue"].round(3), rtol=1e-2)
    assert [int(r[6]) for r in rows] == list(pairs["n"])
    rows = _html_table(page, "table-within")
    within = analysis.within
    assert [(r[0], r[1], r[2]) for r in rows] == list(
        zip(within["dataset"], within["learner"], within["reference"], strict=True)
    )
    _close([_num(r[3]) for r in rows], within["estimate"].round(4))
    rows = _html_table(page, "table-ranks")
    ranks = analysis.friedman.average_ranks
    _close([_num(r[1]) for r in rows], ranks.round(4))
    assert (
        f"Nemenyi critical difference (α = {plan.alpha:g}): "
        f"{analysis.critical_difference:.3f} ranks" in page
    )
    rows = _html_table(page, "table-posthoc")
    post = analysis.posthoc
    assert [(r[0], r[1]) for r in rows] == list(
        zip(post["learner_i"], post["learner_j"], strict=True)
    )
    _close([_num(r[2]) for r in rows], post["rank_difference"].round(4))
    rows = _html_table(page, "table-pairwise")
    frame = analysis.pairwise.to_frame()
    assert [r[0] for r in rows] == [
        f"{a} − {b}"
        for a, b in zip(frame["learner_i"], frame["learner_j"], strict=True)
    ]
    for sentence in analysis.bottom_line.sentences:
        assert html.escape(sentence) in page


def test_summary_latex_and_methods_are_the_analysis_fields(reported):
    """H: the text summary prints the analysis' pairs with the best (estimate,
    interval, Holm p), its critical difference at α and the bottom line; the
    LaTeX performance table's cells are mean ± std, its daggers the within
    rows marked ``worse`` and its last row the average ranks; pairwise.tex
    holds the pairs' numbers; the methods paragraph lists every record of
    analysis.methods."""
    _, plan, analysis, out = reported
    text = format_summary(analysis)
    flat = " ".join(text.split())
    for sentence in analysis.bottom_line.sentences:
        assert " ".join(sentence.split()) in flat
    best = analysis.pairs[analysis.pairs["a"] == analysis.best]
    for pair, row in best.iterrows():
        shown = f"{row['estimate']:+.3f}  [{row['low']:+.3f}, {row['high']:+.3f}]"
        assert re.search(rf"{re.escape(pair)} +{re.escape(shown)}", text)
    assert (
        f"Nemenyi CD (α = {plan.alpha:g}) = {analysis.critical_difference:.2f}" in text
    )
    tex = (out / "tables" / "performance.tex").read_text()
    for dataset, row in analysis.mean.iterrows():
        line = next(li for li in tex.splitlines() if li.startswith(f"{dataset} & "))
        for learner, cell in zip(row.index, line[:-3].split(" & ")[1:], strict=True):
            sd = analysis.std.loc[dataset, learner]  # none of one replicate
            centre = f"{row[learner]:.3f}" + (
                f" $\\pm$ {sd:.3f}" if np.isfinite(sd) else ""
            )
            assert centre in cell and "nan" not in cell
            marked = analysis.within[
                (analysis.within["dataset"] == dataset)
                & (analysis.within["learner"] == learner)
            ]["worse"]
            assert cell.endswith("$^{\\dagger}$") == bool(marked.any())
    ranks = next(li for li in tex.splitlines() if li.startswith("Average rank"))
    expected = [f"{analysis.average_ranks[m]:.2f}" for m in analysis.mean.columns]
    assert ranks == "Average rank & " + " & ".join(expected) + r" \\"
    # α is named beside the test that ran, and no test is named when none could
    ran = bool(analysis.within["pvalue"].notna().any())
    assert (f"$\\alpha = {plan.alpha:g}$" in tex) == ran
    tex = (out / "tables" / "pairwise.tex").read_text()
    for row in analysis.pairs.itertuples():
        assert f"{row.estimate:.3f} & {row.low:.3f} & {row.high:.3f}" in tex
    methods = (out / "methods.md").read_text()
    methods = " ".join(re.sub(r"\\(.)", r"\1", methods).split())  # unescaped
    for record in analysis.methods:
        assert " ".join(record.sentence().split()) in methods


def test_public_defaults_give_what_the_default_report_shows(tmp_path):
    """H: under the default plan, the public methods called with their
    defaults give the report's numbers: result.pairwise_tests() is the
    pairwise table (same adjustment, Shaffer, and the same order: each pair
    better ranked first), result.friedman() the Friedman test,
    result.win_tie_loss() the map's counts, result.to_latex() the LaTeX table,
    and result.paired_test(a, b) each pair of the primary analysis."""
    result = _study("replicates")
    analysis = analyse(result)
    write_report(analysis, tmp_path, progress=False, figure_formats=("png",))
    api = result.pairwise_tests().to_frame()
    shown = pd.read_csv(tmp_path / "tables" / "pairwise_tests.csv")
    assert list(zip(api["learner_i"], api["learner_j"], strict=True)) == [
        ("A", "B"),
        ("A", "C"),
        ("B", "C"),
    ]
    assert list(shown["learner_i"]) == list(api["learner_i"])
    _close(shown["pvalue_adjusted"], api["pvalue_adjusted"])
    assert result.friedman().pvalue == analysis.friedman.pvalue
    pd.testing.assert_frame_equal(result.win_tie_loss(), analysis.win_tie_loss)
    tex = (tmp_path / "tables" / "performance.tex").read_text()
    assert result.to_latex() == tex
    for pair, row in analysis.pairs.iterrows():
        assert result.paired_test(row["a"], row["b"]).pvalue == row["pvalue"], pair


def test_critical_difference_at_the_plans_alpha(tmp_path):
    """H: regression (issue 36): on Demšar's Table 6 at α = 0.10 the report's
    CD text, the summary and the diagram say α = 0.10 and 1.118 ranks (Demšar
    2006, Sec. 3.2.2: q_0.10 = 2.291 for k = 4, CD = 2.291 √(4·5/(6·14))); at
    17a1a60 they said 1.254 ranks at α = 0.05."""
    result = BenchmarkResult.from_frame(
        load_demsar2006(),
        dataset="dataset",
        learner="learner",
        value="auc",
        greater_is_better=True,
    )
    analysis = analyse(result, AnalysisPlan(alpha=0.10))
    assert analysis.critical_difference == pytest.approx(1.118, abs=5e-4)
    write_report(analysis, tmp_path, progress=False, figure_formats=("svg",))
    page = (tmp_path / "report.html").read_text()
    assert "Nemenyi critical difference (α = 0.1): 1.118 ranks" in page
    assert "1.254" not in page
    assert "Nemenyi CD (α = 0.1) = 1.12" in format_summary(analysis)
    svg = (tmp_path / "figures" / "critical_difference.svg").read_text()
    assert "CD = 1.12" in svg and "α = 0.1)" in svg
    assert "Nemenyi critical difference at α = 0.1: 1.118 ranks" in repr(analysis)


def test_one_win_tie_loss_rule():
    """H: regression (issue 36): scores A = 0.1 + 0.2 and B = 0.3 on one data
    set are a tie (equal up to floating-point rounding, stated once in
    BenchmarkResult.win_tie_loss), and the report's map draws the same count;
    a difference just above Δ is a win, one within it a tie."""
    df = pd.DataFrame(
        {
            "d": ["p", "p", "q", "q", "r", "r"],
            "l": ["A", "B"] * 3,
            "auc": [0.1 + 0.2, 0.3, 0.5 + 0.0125, 0.5, 0.5 + 0.0075, 0.5],
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="auc", greater_is_better=True
    )
    counts = result.win_tie_loss(delta=0.01)
    assert counts.loc["A", "B"].tolist() == [1, 2, 0]
    assert result.win_tie_loss(delta=0.0).loc["A", "B"].tolist() == [2, 1, 0]
    analysis = analyse(result, AnalysisPlan(delta=0.01))
    pd.testing.assert_frame_equal(analysis.win_tie_loss, counts)
    for figures in _figures(analysis):
        ax = figures["win_tie_loss"].axes[0]
        cells = [t.get_text() for t in ax.texts if t.get_gid() == "wtl-cell"]
        assert cells == ["1/2/0", "0/2/1"]


def test_analysis_repr_is_its_summary():
    """H: the repr of an Analysis is its short summary: the best learner, the
    average ranks, the primary test with its estimate and interval, the
    verdicts and the critical difference (what autorank prints in one call)."""
    result = _study("plain")
    analysis = analyse(result)
    assert isinstance(analysis, Analysis)
    text = repr(analysis)
    assert text == analysis.summary()
    best, runner = analysis.order[:2]
    row = analysis.pairs.loc[f"{best} − {runner}"]
    assert f"best: {best}" in text
    assert f"{best} − {runner}: {row['estimate']:+.3f}" in " ".join(text.split())
    assert "average ranks: " + ", ".join(
        f"{n} {r:.2f}" for n, r in analysis.average_ranks.items()
    ) in " ".join(text.split())


def test_analyse_is_what_the_report_renders(reported):
    """H: analyse(result, plan) called again gives the same numbers (one
    analysis, not one per output)."""
    result, plan, analysis, _ = reported
    again = analyse(result, plan)
    pd.testing.assert_frame_equal(again.pairs, analysis.pairs)
    pd.testing.assert_frame_equal(again.within, analysis.within)
    assert [r.key for r in again.methods] == [r.key for r in analysis.methods]


def test_the_corrected_t_states_and_prints_the_ratio_it_uses(tmp_path):
    """H (issue 37.2): on BootstrapOOB the corrected t within a data set uses
    n_test/n_train with n_train the distinct training rows (n − n_test:
    Nadeau & Bengio's ρ = n_test/n), and the report says so and prints that
    number per data set: the within rows, the data-set table and its CSV, the
    methods paragraph and the summary carry the ratio the intervals use (on
    17a1a60 they said "n_test/n_train from the stored split sizes", which a
    reader took for the draws, 0.364 where 0.577 was used)."""
    from sklearn.datasets import load_iris
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.model_selection import BootstrapOOB

    X, y = load_iris(return_X_y=True)
    result = (
        BenchmarkExperiment(
            {"dummy": DummyClassifier(), "nb": GaussianNB()},
            cv=BootstrapOOB(n_bootstraps=6),
            random_state=0,
            progress=False,
        )
        .fit({"iris": (X, y), "half": (X[::2], y[::2])})
        .results_
    )
    analysis = analyse(result, AnalysisPlan())
    write_report(analysis, tmp_path, progress=False, figure_formats=("png",))
    scores = result.scores.drop_duplicates(["dataset", "split"])
    for dataset, group in scores.groupby("dataset", observed=True):
        distinct = group["n_train"] - group["n_test"]  # n draws − out-of-bag rows
        expected = float(np.mean(group["n_test"] / distinct))
        row = analysis.within[analysis.within["dataset"] == dataset].iloc[0]
        res = result.paired_test(row.reference, row.learner, dataset=dataset)
        _close([row.test_train_ratio, res.details["test_train_ratio"]], [expected] * 2)
        _close(analysis.datasets.loc[dataset, "test_train_ratio"], expected)
        assert f"{dataset} {expected:.3g}" in analysis.within_ratio
    assert "n_train = distinct training rows (n − n_test)" in analysis.within_ratio
    assert "ρ = n_test/n" in analysis.within_ratio
    page = html.unescape((out := tmp_path / "report.html").read_text())
    rows = _html_table(out.read_text(), "table-datasets")
    _close([_num(r[-1]) for r in rows], analysis.datasets["test_train_ratio"].round(4))
    assert analysis.within_ratio in page
    csv = pd.read_csv(tmp_path / "tables" / "datasets.csv", index_col=0)
    _close(csv.iloc[:, -1], analysis.datasets["test_train_ratio"])
    methods = " ".join(re.sub(r"\\(.)", r"\1", (tmp_path / "methods.md").read_text())
                       .split())  # fmt: skip
    assert " ".join(analysis.within_ratio.split()) in methods
    assert "1/J + n_test/n_train" in methods
    assert " ".join(analysis.within_ratio.split()) in " ".join(
        format_summary(analysis).split()
    )


@pytest.fixture(scope="module")
def nested_report(tmp_path_factory):
    """A study run with NestedCV (2 learners x 3 data sets, 2 repeats x 3
    folds), analysed at the 90% level and reported."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.model_selection import NestedCV

    X, y = load_breast_cancer(return_X_y=True)
    data = {f"bc{i}": (X[i::3], y[i::3]) for i in range(3)}
    result = (
        BenchmarkExperiment(
            {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)},
            cv=NestedCV(3, n_repeats=2, random_state=0),
            random_state=0,
            progress=False,
        )
        .fit(data)
        .results_
    )
    plan = AnalysisPlan(confidence_level=0.9)
    out = tmp_path_factory.mktemp("nested")
    analysis = analyse(result, plan)
    write_report(analysis, out, progress=False, figure_formats=("png",))
    return result, plan, analysis, out


def test_each_learner_is_the_result_method_and_renders_as_it(reported, nested_report):
    """H (issue 40, item 6): analysis.generalization is, row by row,
    result.confidence_interval(learner, dataset=d, confidence_level=plan's,
    metric) with the method of the run's splitter (nested_cv for the NestedCV
    study, corrected_t for the study of 5 holdout replicates with stored split
    sizes); the report renders exactly it: the HTML table (4 decimals), the
    CSV, learner_intervals.tex (3 decimals), the summary's lines (the first 12)
    and the methods paragraph's record. A study whose splitter supports no method (one
    value per data set) shows why instead."""
    for result, plan, analysis, out in (reported, nested_report):
        frame = analysis.generalization
        page = (out / "report.html").read_text()
        if frame is None:
            assert "How good is each learner" in page
            assert html.escape(str(analysis.skipped["generalization"])) in page
            assert not (out / "tables" / "learner_intervals.csv").exists()
            continue
        expected = "nested_cv" if result is nested_report[0] else "corrected_t"
        assert set(frame["method"]) == {expected}
        assert len(frame) == len(result.datasets) * len(result.learners)
        for row in frame.itertuples():
            res = result.confidence_interval(
                row.learner, dataset=row.dataset, metric=analysis.metric,
                confidence_level=plan.confidence_level,
            )  # fmt: skip
            assert (res.estimate, res.standard_error, res.low, res.high) == (
                row.estimate, row.standard_error, row.low, row.high,
            )  # fmt: skip
            assert (res.method, res.design) == (row.method, row.design)
        csv = pd.read_csv(out / "tables" / "learner_intervals.csv")
        pd.testing.assert_frame_equal(csv, frame, check_dtype=False)
        rows = _html_table(page, "table-generalization")
        assert [(r[0], r[1]) for r in rows] == list(
            zip(frame["dataset"], frame["learner"], strict=True)
        )
        _close([_num(r[2]) for r in rows], frame["estimate"].round(4))
        shown = [[_num(x) for x in r[3].strip("[]").split(", ")] for r in rows]
        _close(shown, frame[["low", "high"]].round(4).to_numpy())
        level = f"{plan.confidence_level:.0%}"
        assert f"{level} CI" in page
        tex = (out / "tables" / "learner_intervals.tex").read_text()
        text = format_summary(analysis)
        for row in frame.itertuples():
            assert (
                f"{row.dataset} & {row.learner} & {row.estimate:.3f} & "
                f"{row.low:.3f} & {row.high:.3f}"
            ) in tex.replace("\\_", "_")
            line = (
                f"- {row.dataset}: {row.learner} {row.estimate:.3f} "
                f"[{row.low:.3f}, {row.high:.3f}]"
            )
            assert (line in text) == (row.Index < 12)  # the first 12, then the CSV
        if len(frame) > 12:
            assert f"{len(frame) - 12} more in tables/learner_intervals.csv" in text
        record = next(r for r in analysis.methods if r.key == "generalization")
        assert f"{level} confidence intervals" in record.what
        methods = (out / "methods.md").read_text()
        methods = " ".join(re.sub(r"\\(.)", r"\1", methods).split())
        assert " ".join(record.sentence().split()) in methods
        if expected == "nested_cv":
            assert "Bates et al. 2024" in record.sentence()
            assert "Bates, S., Hastie, T. and Tibshirani, R. (2024)" in page


def test_a_method_the_splitter_cannot_support_stops_the_analysis(nested_report):
    """H: a plan that names a method the run's splitter cannot support
    (conservative_z on a NestedCV run) makes analyse() a ValueError naming the
    splitter it needs; a plan leaving out "generalization" has no such
    section."""
    result, *_ = nested_report
    with pytest.raises(ValueError, match="needs PairedSubsampling; data set 'bc0'"):
        analyse(result, AnalysisPlan(generalization_method="conservative_z"))
    plan = AnalysisPlan(analyses=("effects",))
    analysis = analyse(result, plan)
    assert analysis.generalization is None and "generalization" not in analysis.skipped


def test_every_learners_interval_is_computed_at_once_as_one_by_one():
    """H: with no cap, the section holds every learner's interval on every data
    set; the corrected t intervals of a data set, computed at once, equal
    BenchmarkResult.confidence_interval of each learner (estimate, standard
    error, bounds and design, to the last bit), and a learner with a failed
    split on one data set gets that call's answer there (no interval, a note)."""
    rng = np.random.default_rng(3)
    rows = [
        (f"d{d}", f"m{j}", r, 0.2 + 0.01 * j + rng.normal(0, 0.03), 80 + d, 20)
        for d in range(4)
        for j in range(7)
        for r in range(12)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v", "n_train", "n_test"])
    df.loc[(df["data"] == "d1") & (df["model"] == "m2") & (df["rep"] == 3), "v"] = (
        np.nan
    )
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", replicate="rep",
        n_train="n_train", n_test="n_test", greater_is_better=False,
    )  # fmt: skip
    plan = AnalysisPlan(analyses=("effects", "generalization"), confidence_level=0.9)
    frame = analyse(result, plan).generalization
    assert len(frame) == 4 * 7 - 1 and set(frame["method"]) == {"corrected_t"}
    for row in frame.itertuples():
        one = result.confidence_interval(
            row.learner, dataset=row.dataset, method="corrected_t",
            confidence_level=0.9,
        )  # fmt: skip
        got = (row.estimate, row.standard_error, row.low, row.high, row.design)
        assert got == (one.estimate, one.standard_error, one.low, one.high,
                       one.design)  # fmt: skip
