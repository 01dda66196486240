"""The report says in place why a test was not run (issue 13): a single data set,
a learner that failed everywhere, a partial run."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402

from .._report import report  # noqa: E402


def _section(page, anchor):
    start = page.index(f'<section id="{anchor}">')
    return page[start : page.index("</section>", start)]


def _result(n_datasets, fail=None):
    rng = np.random.default_rng(4)
    rows = []
    for d in range(n_datasets):
        for j, m in enumerate(["A", "B", "C"]):
            for r in range(6):
                value = np.clip(0.1 + 0.03 * j + rng.normal(0, 0.02), 0, 1)
                rows.append((f"d{d}", m, r, np.nan if m == fail else value))
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "error_rate"])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error_rate",
        replicate="rep",
        greater_is_better=False,
    )


def test_single_dataset_says_why_there_is_no_power(tmp_path):
    """H: with one data set the Power section exists and says, in it, that the power
    across data sets needs 2 data sets; the win/tie/loss caption says that each
    cell is a single win, tie or loss."""
    report(_result(1), tmp_path)
    page = (tmp_path / "report.html").read_text()
    power = _section(page, "power")
    assert "The power analysis not run:</b> the power across data sets needs" in power
    assert "With one data set each cell is a single win, tie or loss" in page


def test_learner_failing_everywhere_is_explained_in_the_tests_section(tmp_path):
    """H: when learner C failed on every task, no data set is complete; the Tests
    section (not only the bottom) says Friedman's test was not run and why, the
    pairwise intervals say so in the effects section, and the win/tie/loss
    caption explains the 0/0/0 cells of C."""
    report(_result(3, fail="C"), tmp_path)
    page = (tmp_path / "report.html").read_text()
    tests = _section(page, "tests")
    assert "Friedman&#x27;s test and Nemenyi&#x27;s comparisons not run:</b>" in tests
    assert "at least 2 data sets on which every learner has every replicate" in tests
    assert "Pairwise intervals not run:</b>" in _section(page, "effects")
    assert "A pair without a data set on which both have results is 0/0/0" in page


def test_pairwise_section_matches_pairwise_test_and_is_in_the_methods(tmp_path):
    """H: the report's pairwise section shows BenchmarkResult.pairwise_tests
    (Wilcoxon, Holm, α = 1 − confidence level) pair by pair, its diagram, and the
    methods paragraph cites Benavoli et al. (2016) for it."""
    result = _result(6)
    report(result, tmp_path, confidence_level=0.9)
    page = (tmp_path / "report.html").read_text()
    section = _section(page, "pairwise")
    res = result.pairwise_tests(method="wilcoxon", adjust="holm", alpha=0.1)
    for row in res.to_frame().itertuples():
        assert f"<td>{row.learner_i} − {row.learner_j}</td>" in section
        p = row.pvalue_adjusted
        assert (f"{p:.2e}" if p < 1e-3 else f"{p:.3f}") in section
    assert 'id="fig-pairwise_significance"' in section
    methods = (tmp_path / "methods.md").read_text()
    assert "two-sided Wilcoxon signed-rank test over 6 data sets" in methods
    assert "Holm-adjusted over 3 pairs, at α = 0.1" in methods
    assert "Benavoli, A., Corani, G. and Mangili, F. (2016)" in methods


def test_a_reason_that_ends_a_sentence_is_not_ended_twice(tmp_path):
    """H: a test that could not run for a reason that ends in a period (here
    Friedman's test on the one data set on which a learner has a value: "...
    got 1.") is said once, with one period, in the page, the summary and the
    bottom line (on 17a1a60: "got 1..")."""
    import re

    from sklearn_bench.report import format_summary

    rng = np.random.default_rng(0)
    rows = [
        (d, m, np.nan if m == "z" and d != "a" else rng.uniform(0.1, 0.3))
        for d in "abce"
        for m in "xyz"
    ]
    result = BenchmarkResult.from_frame(
        pd.DataFrame(rows, columns=["d", "l", "v"]),
        dataset="d", learner="l", value="v", greater_is_better=False,
    )  # fmt: skip
    analysis = report(result, tmp_path, figure_formats=())
    assert "got 1" in str(analysis.skipped["friedman"])
    page = (tmp_path / "report.html").read_text()
    text = re.sub(r"<[^>]+>", " ", page) + format_summary(analysis)
    assert "got 1." in text
    assert not re.search(r"(?<!\.)\.\.(?!\.)", text)


def test_a_data_set_left_out_is_named_where_the_data_sets_are_counted(tmp_path):
    """H (issue 37.9): a learner whose tasks failed on one data set leaves that
    data set out of the analyses across data sets; the page's "What was run",
    the summary's first line and the methods paragraph name it where they count
    the data sets (on 17a1a60 the header counted it among the data sets and only
    the last section said it was dropped)."""
    import re

    from sklearn_bench.report import format_summary

    result = _result(4)
    scores = result.scores.copy()
    bad = (scores["dataset"] == "d2") & (scores["learner"] == "C")
    scores.loc[bad, "value"] = np.nan
    result.scores = scores
    analysis = report(result, tmp_path, figure_formats=())
    assert analysis.datasets_left_out == ("d2",)
    assert len(analysis.datasets_across) == 3
    counted = "4 data sets (3 in the analyses across data sets: d2 left out"
    page = re.sub(r"<[^>]+>", "", (tmp_path / "report.html").read_text())
    assert counted in page
    assert counted in format_summary(analysis).splitlines()[0]
    methods = (tmp_path / "methods.md").read_text()
    assert "d2 (with a missing replicate) was left out of the analyses" in methods
