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
from sklearn_bench.analysis._records import (  # noqa: E402
    CITATIONS,
    cited_keys,
    short_test_names,
)
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

    # 6. The CD shown is the analysis' one.
    if analysis.cd_groups:
        assert f"{analysis.critical_difference:.2f}" in summary

    # 7. The power the summary prints is the point the stored power curve (the
    # report's figure) marks at this study's J, and the public function's.
    pw = analysis.power
    if pw is not None and pw.delta is not None:
        from sklearn_bench.stats import power_paired_t

        marked = power_paired_t(pw.n_datasets, pw.delta, pw.sigma, alpha=pw.test_alpha)
        assert pw.power_marks[1] == marked and pw.sigmas[1] == pw.sigma
        assert f"{pw.power_marks[1]:.2f}" == f"{pw.power:.2f}"
        assert f"power {pw.power:.2f}" in summary
        at = np.searchsorted(pw.n_grid, pw.n_datasets)
        if at < len(pw.n_grid) and pw.n_grid[at] == pw.n_datasets:
            assert pw.power_curves[1, at] == pw.power_marks[1]

    # 8. Friedman: the public method on the full result, the summary and the
    # page agree (the data sets left out are the same).
    if analysis.friedman is not None and analysis.blocks == "data sets":
        assert result.friedman(metric=metric).pvalue == analysis.friedman.pvalue

    # 9. The best and its ties: one field; the bottom line, the summaries, the
    # within tables and the LaTeX bold say the same.
    best = analysis.best_learners
    assert best.learner == analysis.best == analysis.order[0]
    assert f"best: {best.learner};" in terminal(short) or not len(pairs)
    for d, (first, *ties) in best.by_dataset.items():
        assert {(d, m) for m in (first, *ties)} == {
            (d, m) for m in table.learners if (d, m) in table.bold
        }, d
        ref = analysis.within.loc[analysis.within["dataset"] == d, "reference"]
        assert (ref == first).all(), d
        if (analysis.within.loc[ref.index, "n"] > 0).any():
            assert f"{d}: best {first} (mean" in terminal(summary), d
    if len(pairs) and best.tied:
        assert "tied" in analysis.bottom_line.sentences[0]

    # 10. The distributions drawn are the public method's values.
    perf = result.performance(metric)
    for d, values in analysis.distributions.items():
        rows = perf[perf["dataset"] == d]
        for m, v in values.items():
            expected = rows.loc[rows["learner"] == m, "value"].to_numpy(float)
            np.testing.assert_array_equal(v, expected[~np.isnan(expected)])

    # 11. The reference list is exactly the works the page's text cites.
    refs = re.search(r'<section id="references">(.*?)</section>', page, re.S)
    listed = set() if refs is None else {
        k for k, v in CITATIONS.items() if f"<li>{html.escape(v)}</li>" in refs[1]
    }  # fmt: skip
    body = page if refs is None else page.replace(refs[0], "")
    text = html.unescape(re.sub(r"<[^>]+>", " ", body.split("<main>")[1]))
    assert set(cited_keys(text)) == listed

    # 12. The leaderboard: the report's CSV, the CLI's with the same settings
    # and the public method are the analysis' numbers.
    lb = analysis.leaderboard
    if lb is not None:
        shown = pd.read_csv(tables / "leaderboard.csv", index_col=0)
        _same_board(shown, lb.board)
        saved = out / "saved"
        result.save(saved)
        cli_csv = out / "cli-board.csv"
        from sklearn_bench.cli._main import main

        argv = ["leaderboard", str(saved), "--out", str(cli_csv), "--metric", metric,
                "--confidence-level", repr(plan.confidence_level)]  # fmt: skip
        assert main(argv) == 0
        _same_board(pd.read_csv(cli_csv, index_col=0), lb.board)
    return analysis


def terminal(text):
    """The summary with its wrapping undone."""
    return " ".join(text.split())


def _same_board(shown, board):
    """The numbers of a leaderboard table read back equal the analysis' own."""
    assert list(shown.index.astype(str)) == list(board.index.astype(str))
    numeric = board.select_dtypes("number").columns
    np.testing.assert_allclose(
        shown[numeric].to_numpy(float), board[numeric].to_numpy(float), rtol=1e-12
    )


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
    differently, a label taken from the block count, a reference list that
    leaves out a work the page cites, and ties of the best dropped from the
    best-learners field, each make it fail."""
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
    from sklearn_bench.report import _html

    sections = _html._section_citations
    monkeypatch.setattr(  # a section that cites a work the list leaves out
        _html, "_section_citations", lambda *a: sections(*a) - {"hodges1963"}
    )
    with pytest.raises(AssertionError):
        check_study(result, plan, tmp_path / "references")
    monkeypatch.undo()
    best = _analysis._best

    def first_best_only(*args):  # the ties of each data set dropped
        b = best(*args)
        firsts = {d: v[:1] for d, v in b.by_dataset.items()}
        return _replace(b, by_dataset=firsts)

    monkeypatch.setattr(_analysis, "_best", first_best_only)
    tied = df.copy()  # B scores what A scores: tied on every data set
    tied.loc[tied["model"] == "B", "v"] = tied.loc[tied["model"] == "A", "v"].to_numpy()
    tied = BenchmarkResult.from_frame(
        tied, dataset="data", learner="model", value="v", replicate="rep",
        metric="metric", greater_is_better=False, n_train=80, n_test=20,
    )  # fmt: skip
    with pytest.raises(AssertionError):
        check_study(tied, plan, tmp_path / "ties")


def test_a_sequential_study_shows_its_record_once(tmp_path):
    """H: a study stopped by SequentialRule passes every check of the harness,
    and its section shows the stored record's decision, stopping time and
    anytime-valid interval, the numbers the experiment reported, with the
    works it cites in the reference list."""
    from sklearn.datasets import make_classification
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.analysis._format import fmt_interval
    from sklearn_bench.experiment import SequentialRule

    pool = {f"d{i}": make_classification(120, 4, random_state=i) for i in range(12)}
    learners = {"lr": LogisticRegression(), "lr2": LogisticRegression(C=0.5),
                "dummy": DummyClassifier()}  # fmt: skip
    exp = BenchmarkExperiment(learners, cv=2, random_state=0, progress=False)
    exp.fit(pool, stopping=SequentialRule())
    study = exp.sequential_.to_dict()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = check_study(exp.results_, AnalysisPlan(), tmp_path)
    assert dict(analysis.provenance["sequential"]) == study
    section = re.search(
        r'<section id="sequential">(.*?)</section>',
        (tmp_path / "report.html").read_text(),
        re.S,
    )[1]
    text = html.unescape(section)
    interval = study["interval"]
    assert study["decision"] in text
    assert f"{study['stopping_time']} data sets ({study['reason']})" in text
    assert fmt_interval(interval["low"], interval["high"]) in text
    assert len(analysis.datasets) == study["stopping_time"]
