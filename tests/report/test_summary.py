"""Tests of sklearn_bench/report/_summary.py."""

import re

import numpy as np
import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.report import format_summary

from .._report import report


def test_summary_order_and_numbers():
    """H: the summary prints effect sizes (with the analysis' intervals) before the
    tests and the power, and states J needed."""
    rng = np.random.default_rng(2)
    rows = [
        (f"d{d}", m, r, 0.2 + 0.02 * j + 0.05 * d + rng.normal(0, 0.01))
        for d in range(4)
        for j, m in enumerate(["A", "B"])
        for r in range(4)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v"])
    result = BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="v",
        replicate="rep",
        greater_is_better=False,
    )
    analysis = analyse(result, AnalysisPlan(delta=0.03))
    text = format_summary(analysis)
    assert (
        text.index("1. Effect sizes")
        < text.index("2. Sensitivity analyses")
        < text.index("3. Power")
    )
    row = analysis.pairs.iloc[0]
    assert f"[{row['low']:+.3f}, {row['high']:+.3f}]" in text
    assert f"J = {analysis.power.n_needed} data sets" in text
    # Δ first, the post-hoc power second and labelled as such.
    assert text.index("to detect Δ = 0.03") < text.index("Post-hoc power")
    assert text.splitlines()[0].startswith("2 learners x 4 data sets")


def _agreeing_result():
    """3 learners ranked alike on 3 data sets, B always A + 0.05 (issue 11)."""
    rows = []
    for d, base in enumerate([0.10, 0.20, 0.15]):
        for r in range(4):
            e = base + 0.01 * r
            rows += [(f"d{d}", "A", r, e), (f"d{d}", "B", r, e + 0.05)]
            rows += [(f"d{d}", "C", r, e + 0.10 + 0.01 * d)]
    df = pd.DataFrame(rows, columns=["d", "l", "r", "v"])
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", replicate="r", greater_is_better=False
    )


def test_summary_of_degenerate_study_says_what_is_undefined():
    """H: with perfect agreement and constant differences the summary prints the
    exact Friedman p (1/36), says F is undefined (no inf, no p = 0), and the
    pairs whose t is undefined have no interval and a note naming them."""
    result = _agreeing_result()
    analysis = analyse(result, AnalysisPlan())
    text = format_summary(analysis)
    assert "p = 0.0278 (exact)" in text
    assert "Iman–Davenport F undefined" in text
    assert not re.search(r"\binf\b", text) and "p = 0.0e" not in text
    assert analysis.friedman.pvalue == 1 / 36 or np.isclose(
        analysis.friedman.pvalue, 1 / 36
    )
    pair = analysis.pairs.loc["A − B"]
    assert np.isnan(pair["low"]) and np.isnan(pair["pvalue"])
    assert any("No interval for A − B" in n for n in map(str, analysis.notes))
    assert analysis.within["low"].isna().all()  # constant within each data set


def test_tiny_pvalues_read_p_less_than_not_p_equals_less_than(tmp_path):
    """H: a p-value below 0.001 reads "p < 0.001" in the summary and in the HTML
    report, never "p = < 0.001" (the demo's Iman–Davenport line did)."""

    rng = np.random.default_rng(0)
    rows = [
        (f"d{d}", m, 0.1 + 0.05 * j + rng.normal(0, 0.002))
        for d in range(12)
        for j, m in enumerate(["A", "B", "C", "D"])
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", greater_is_better=False
    )
    analysis = analyse(result, AnalysisPlan())
    text = format_summary(analysis)
    assert "p < 0.001" in text
    assert "p = <" not in text and "p = &lt;" not in text
    report(result, tmp_path / "r")
    page = (tmp_path / "r" / "report.html").read_text(encoding="utf-8")
    assert "p &lt; 0.001" in page
    assert "p = &lt;" not in page and "p = <" not in page
