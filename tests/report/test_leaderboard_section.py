"""Tests of sklearn_bench/report/_leaderboard.py: the report's leaderboard
section (issue 22)."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import analyse  # noqa: E402
from sklearn_bench.report._leaderboard import leaderboard_section  # noqa: E402

from .._report import report  # noqa: E402


def _result(n_datasets, n_learners=5, seed=0):
    rng = np.random.default_rng(seed)
    rows = [
        (f"d{d}", f"L{j}", rng.uniform(0.1, 0.3) + 0.02 * j)
        for d in range(n_datasets)
        for j in range(n_learners)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "v"])
    return BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", greater_is_better=False
    )


def test_report_leads_with_the_leaderboard_and_writes_its_csv(tmp_path):
    """H: with 5 learners on 20 data sets the report has a leaderboard section
    right after the bottom line, with the table and the two figures (embedded
    PNG), and tables/leaderboard.csv equals result.leaderboard() at the
    analysis plan's level with seed 0."""
    result = _result(20)
    report(
        result, tmp_path, analyses=("effects",), figure_formats=(),
        confidence_level=0.9,
    )  # fmt: skip
    page = (tmp_path / "report.html").read_text()
    start = page.index('<section id="leaderboard">')
    assert (
        page.index('<section id="bottom-line">')
        < start
        < page.index('<section id="run">')
    )
    section = page[start : page.index("</section>", start)]
    assert section.count('src="data:image/svg+xml;base64,') == 2
    assert 'id="leaderboard-table"' in section and "May be best" in section
    written = pd.read_csv(tmp_path / "tables" / "leaderboard.csv", index_col=0)
    expected = result.leaderboard(confidence_level=0.9, random_state=0)
    np.testing.assert_allclose(written["rating"], expected["rating"])
    np.testing.assert_array_equal(written["rank_high"], expected["rank_high"])
    matrix = pd.read_csv(tmp_path / "tables" / "win_rate_matrix.csv", index_col=0)
    assert matrix.shape == (5, 5)


def test_small_studies_have_no_leaderboard_section(tmp_path):
    """H: with fewer than 10 data sets (or 3 learners) the section is left out
    and nothing is written."""
    assert analyse(_result(5)).leaderboard is None
    assert leaderboard_section(analyse(_result(5))) == ""
    assert leaderboard_section(analyse(_result(30, n_learners=2))) == ""
    assert not (tmp_path / "tables").exists()
