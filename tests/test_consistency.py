"""The consistency harness (issue 47): over generated studies of every shape,
every number shown in two places is the same number and every label names what
ran.

Hypothesis draws a study (2 to 8 learners, 1 to 30 data sets, 1 to 10
replicates, exact and floating-point ties, missing cells, one or two metrics,
a confidence level other than 1 − α, names with markup), runs ``analyse``,
writes every output (terminal summary, HTML, CSV, LaTeX, methods paragraph)
and reads the numbers back. The default profile runs in CI (``max_examples``
25); ``HYPOTHESIS_PROFILE=deep`` searches longer (tests/conftest.py).
"""

import html
import math
import os
import re
import warnings

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench._latex import escape_latex  # noqa: E402
from sklearn_bench.analysis import AnalysisPlan, analyse  # noqa: E402
from sklearn_bench.analysis._records import short_test_names  # noqa: E402
from sklearn_bench.report import format_summary, write_report  # noqa: E402

NAMES = ["svm", "a_b&<c>", "k nn", "tree 50%", "#4", "lda", "x{y}", "rf"]


@st.composite
def studies(draw):
    """A study as ``(result, plan)``."""
    k = draw(st.integers(2, 8))
    n_d = draw(st.sampled_from([1, 2, 3, 5, 12, 30]))
    n_rep = draw(st.sampled_from([1, 2, 3, 5, 10]))
    learners = draw(st.permutations(NAMES))[:k]
    seed = draw(st.integers(0, 2**16))
    ties = draw(st.sampled_from(["none", "exact", "float"]))
    missing = draw(st.sampled_from([0, 0, 1, 3]))
    two_metrics = draw(st.booleans())
    sizes = draw(st.booleans())
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_d):
        base = rng.uniform(0.05, 0.4)
        for j, m in enumerate(learners):
            for r in range(n_rep):
                v = base + 0.01 * j + rng.normal(0, 0.02)
                if ties == "exact":
                    v = round(v, 2)
                elif ties == "float" and j < 2:
                    v = (0.1 + 0.2) if j == 0 else 0.3  # equal up to rounding
                rows.append((f"d<{d}>_x", m, r, "error", v))
                if two_metrics:
                    rows.append((f"d<{d}>_x", m, r, "time", rng.uniform(1, 2)))
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "metric", "v"])
    # missing cells: tasks of learners other than the first (never a whole
    # data set or metric)
    may = df.index[(df["model"] != learners[0]) & (df["metric"] == "error")]
    if missing and len(may):
        df = df.drop(index=rng.choice(may, size=min(missing, len(may)), replace=False))
    kw = {"n_train": 80, "n_test": 20} if sizes else {}
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", replicate="rep",
        metric="metric", greater_is_better={"error": False, "time": False}, **kw,
    )  # fmt: skip
    alpha = draw(st.sampled_from([0.05, 0.1]))
    level = draw(st.sampled_from([1 - alpha, 0.9, 0.95, 0.99]))
    metric = draw(st.sampled_from(["error", "time"])) if two_metrics else "error"
    delta = draw(st.sampled_from([None, 0.01]))
    plan = AnalysisPlan(alpha=alpha, confidence_level=level, metric=metric, delta=delta)
    return result, plan


def _num(x):
    """The summary's number: ``+0.012``; ``–`` when missing."""
    return "–" if not np.isfinite(x) else f"{x:+.3f}"


def check_study(result, plan, out):
    """Every number shown in two places is equal, every label names what ran."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyse(result, plan)
        write_report(analysis, out, progress=False, figure_formats=("png",))
        summary = format_summary(analysis)
    short = analysis.summary()
    page = (out / "report.html").read_text()
    metric, tables = analysis.metric, out / "tables"

    # 1. One performance table: the public method with the plan's α is the
    # report's, byte for byte; its rank row is the analysis' average ranks.
    tex = (tables / "performance.tex").read_text()
    assert result.to_latex(metric, alpha=plan.alpha) == tex
    table = analysis.performance
    if table.ranked:
        ranks = dict(zip(table.learners, table.average_ranks, strict=True))
        row = "Average rank & " + " & ".join(f"{ranks[m]:.2f}" for m in table.learners)
        assert row in tex
        for m, r in analysis.average_ranks.items():
            assert f"{r:.2f}" == f"{ranks[m]:.2f}", m
            assert f"{m} {r:.2f}" in " ".join(short.split())
        assert f"over the {len(table.ranked)} data set" in tex
    assert "nan" not in tex.split(r"\begin{tabular}")[1]
    assert set(table.ranked) == set(analysis.datasets_across) or not len(
        analysis.datasets_across
    )

    # 2. The mean of each cell: analysis, CSV and LaTeX.
    mean_csv = pd.read_csv(tables / "mean.csv", index_col=0)
    np.testing.assert_array_equal(
        mean_csv.to_numpy(dtype=float), analysis.mean.to_numpy(dtype=float)
    )

    # 3. The pairs: the public paired test with its defaults, CSV, summary,
    # LaTeX and HTML show one number each; the label is the method that ran.
    pairs = analysis.pairs
    # The public method on the full result leaves out the data sets the
    # analysis leaves out (a failed or missing task of any learner).
    scope = None if analysis.blocks == "data sets" else analysis.datasets_across[0]
    methods = []
    for name, row in pairs.iterrows():
        if not row["n"] > 0:
            continue
        res = result.paired_test(row["a"], row["b"], dataset=scope, metric=metric)
        assert res.estimate == row["estimate"], name
        assert res.pvalue == row["pvalue"] or (
            math.isnan(res.pvalue) and math.isnan(row["pvalue"])
        ), name
        ci = res.confidence_interval(plan.confidence_level)
        assert (ci.low, ci.high) == (row["low"], row["high"]), name
        methods.append(row["method"])
    if len(pairs):
        assert analysis.primary_test == short_test_names(pairs["method"])
        if methods:
            assert f"primary test: {analysis.primary_test} over" in " ".join(
                short.split()
            )
            assert f"({analysis.primary_test})" in summary
        shown = pd.read_csv(tables / "pairwise_intervals.csv", index_col=0)
        for col in ("estimate", "low", "high", "pvalue", "adjusted_pvalue"):
            np.testing.assert_array_equal(
                shown[col].to_numpy(dtype=float), pairs[col].to_numpy(dtype=float)
            )
        ptex = (tables / "pairwise.tex").read_text()
        label = analysis.primary_test or "no pair could be tested"
        assert escape_latex(f"over {analysis.blocks}: {label}") in ptex
        best_rows = pairs[(pairs["a"] == analysis.best) | (pairs["b"] == analysis.best)]
        for name, row in best_rows.iterrows():
            line = f"{_num(row['estimate'])}  [{_num(row['low'])}, {_num(row['high'])}]"
            assert f"{name}" in summary and line in summary, name
        for name, row in pairs.iterrows():
            if np.isfinite(row["estimate"]):
                cells = f"{row['estimate']:.3f} & {row['low']:.3f} & {row['high']:.3f}"
                assert cells in ptex, name
                assert html.escape(name) in page, name
        compatible = abs(plan.confidence_level - (1 - plan.alpha)) < 1e-9
        assert analysis.intervals_match_tests is compatible
        if len(pairs) > 1:
            assert ("compatible with the Holm" in summary) is compatible
            assert ("excludes 0 only where" in ptex) is compatible

    # 4. Within each data set: CSV and the analysis; the label is what ran.
    within = pd.read_csv(tables / "within_dataset_intervals.csv")
    np.testing.assert_array_equal(
        within["estimate"].to_numpy(dtype=float),
        analysis.within["estimate"].to_numpy(dtype=float),
    )
    assert analysis.within_test == short_test_names(analysis.within["method"])
    for row in analysis.within.head(3).itertuples():
        if row.n > 0:
            res = result.paired_test(
                row.reference, row.learner, dataset=row.dataset, metric=metric
            )
            assert res.estimate == row.estimate and res.method == row.method
    ran = set(analysis.within.loc[analysis.within["pvalue"].notna(), "method"])
    assert set(table.tests) == ran

    # 5. The methods paragraph lists every test that ran, by its name.
    paragraph = " ".join((out / "methods.md").read_text().split())
    paragraph = re.sub(r"\\(.)", r"\1", paragraph)
    for record in analysis.methods:
        assert " ".join(record.sentence().split()) in paragraph

    # 6. The bars of the CD diagram are those the plotting function draws for
    # the same ranks and CD; the CD shown is the analysis' one.
    if analysis.cd_groups:
        from sklearn_bench.plotting._critical_difference import _maximal_groups

        ranks = analysis.friedman.average_ranks
        names = [str(n) for n in ranks.index]
        drawn = _maximal_groups(ranks.to_numpy(float), analysis.critical_difference)
        assert {frozenset(names[i] for i in g) for g in drawn} == {
            frozenset(g) for g in analysis.cd_groups
        }
        assert f"{analysis.critical_difference:.2f}" in summary

    # 7. The power the summary prints is the point the power curve marks at
    # this study's J (the figure computes it again from the same settings).
    pw = analysis.power
    if pw is not None and pw.delta is not None:
        from sklearn_bench.stats import power_paired_t

        marked = power_paired_t(pw.n_datasets, pw.delta, pw.sigma, alpha=pw.test_alpha)
        assert f"{float(marked):.2f}" == f"{pw.power:.2f}"
        assert f"power {pw.power:.2f}" in summary

    # 8. Friedman: the public method on the full result, the summary and the
    # page agree (the data sets left out are the same).
    if analysis.friedman is not None and analysis.blocks == "data sets":
        assert result.friedman(metric=metric).pvalue == analysis.friedman.pvalue


# 25 studies in CI (a few minutes at most); HYPOTHESIS_PROFILE=deep: 400
harness = settings(
    max_examples=400 if os.environ.get("HYPOTHESIS_PROFILE") == "deep" else 25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.function_scoped_fixture],
)  # fmt: skip


@harness
@given(study=studies())
def test_every_number_shown_twice_is_one_number(study, tmp_path_factory):
    """H: for every generated study, each number shown in two outputs (the
    public method with its defaults, terminal summary, HTML, CSV, LaTeX, the
    methods paragraph) is one number, and each label (test, level,
    adjustment) is read from the result that made the number."""
    result, plan = study
    check_study(result, plan, tmp_path_factory.mktemp("report"))


def test_the_harness_sees_a_planted_disagreement(tmp_path, monkeypatch):
    """H: the harness is not vacuous: a renderer that rounds the rank row
    differently, and a label taken from the block count, each make it fail."""
    from sklearn_bench import _latex
    from sklearn_bench.analysis import _analysis

    rng = np.random.default_rng(3)
    rows = [
        (f"d{d}", m, r, "error", 0.2 + 0.01 * j + rng.normal(0, 0.02))
        for d in range(6)
        for j, m in enumerate("ABC")
        for r in range(3)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "metric", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", replicate="rep",
        metric="metric", greater_is_better=False, n_train=80, n_test=20,
    )  # fmt: skip
    plan = AnalysisPlan(analyses=("effects", "friedman", "pairwise"))
    check_study(result, plan, tmp_path / "clean")
    original = _latex.performance_latex

    def rounds_ranks_differently(table, **kw):
        ranks = tuple(r + 0.01 for r in table.average_ranks)  # one more rounding
        return original(_replace(table, average_ranks=ranks), **kw)

    def _replace(table, **changes):
        from dataclasses import replace

        return replace(table, **changes)

    from sklearn_bench.report import _latex as report_latex

    monkeypatch.setattr(report_latex, "performance_latex", rounds_ranks_differently)
    with pytest.raises(AssertionError):
        check_study(result, plan, tmp_path / "rounded")
    monkeypatch.undo()
    real = _analysis.short_test_names
    monkeypatch.setattr(
        _analysis, "short_test_names", lambda m: "corrected resampled t"
    )  # a label chosen without reading what ran
    with pytest.raises(AssertionError):
        check_study(result, plan, tmp_path / "label")
    monkeypatch.setattr(_analysis, "short_test_names", real)
