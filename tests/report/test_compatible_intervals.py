"""Every rendered interval beside an adjusted test names its level and is
compatible with that test: the bottom line, the text summary, the HTML table,
the LaTeX table and the forest plot (issue 28 item 2)."""

import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse

from .._report import report

pytest.importorskip("matplotlib")

LABEL = "simultaneous 95% (Bonferroni, each at 98.33%)"  # 3 pairs: 1 − 0.05/3


def _study():
    """3 learners × 8 data sets where A − B has p = 0.034 but a Holm-adjusted
    p = 0.067 (the study of the issue)."""
    rng = np.random.default_rng(83)
    base = rng.uniform(0.1, 0.3, 8)
    values = base[:, None] + [0.0, 0.02, 0.03] + rng.normal(0, 0.025, (8, 3))
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(8)], 3),
            "l": list("ABC") * 8,
            "error_rate": values.ravel(),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


@pytest.fixture(scope="module")
def analysis():
    return analyse(_study(), AnalysisPlan(analyses=("effects",)))


def test_bottom_line_names_both_levels_and_agrees_with_holm(analysis):
    """Hypothesis: the bottom line quotes the unadjusted 95% interval as such and
    the simultaneous one with its Bonferroni level; the simultaneous interval of
    A − B (Holm-adjusted p = 0.067) covers 0, with no "Holm's level" left."""
    bl = analysis.bottom_line
    text = " ".join(bl.sentences + bl.more)  # the level is said under its heading
    assert "Holm's level" not in text
    assert "unadjusted 95% CI" in text and LABEL in text
    assert "Holm-adjusted p = 0.0674" in text
    c = bl.comparison
    assert c["adjusted_low"] < 0 < c["adjusted_high"]


def test_summary_names_both_levels(analysis):
    """Hypothesis: the text summary labels the unadjusted and the simultaneous
    intervals with their levels, and prints the Holm p beside the latter."""
    from sklearn_bench.report import format_summary

    text = format_summary(analysis)
    assert "Holm's level" not in text and "Holm [" not in text
    assert "unadjusted 95% interval" in text and LABEL in text
    assert "Holm p = 0.0674" in text


def test_html_latex_and_forest_name_the_levels(tmp_path):
    """Hypothesis: the HTML pairs table heads its columns "unadjusted 95% CI" and
    the simultaneous label; the LaTeX caption states both levels; the forest
    plot's legend names both levels and its caption no longer says an interval
    missing the line excludes "no difference" without saying at which level."""
    from sklearn_bench.report._figures import make_figures
    from sklearn_bench.report._latex import write_latex_tables

    result = _study()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = report(result, tmp_path, figure_formats=("png",))
    html = (tmp_path / "report.html").read_text()
    table = html[html.index('id="table-pairs"') - 2000 :][:6000]
    assert "unadjusted 95% CI" in table and f"{LABEL} CI" in table
    assert "Holm-level" not in html and "Holm&#x27;s step-down" not in html
    (tex,) = [
        p
        for p in write_latex_tables(analysis, tmp_path / "tex")
        if p.name == "pairwise.tex"
    ]
    caption = tex.read_text()
    assert "unadjusted 95" in caption and "Bonferroni, each at 98.33" in caption
    assert "step-down" not in caption
    figures = make_figures(analysis)
    _, text, fig, _ = figures["forest"]
    legend = [t.get_text() for t in fig.axes[0].get_legend().get_texts()]
    assert sorted(legend) == sorted([f"{LABEL} interval", "unadjusted 95% interval"])
    assert "Holm's step-down" not in text and LABEL in text
    assert "unadjusted 95%" in text and "together with probability 95%" in text
