"""Labels read from what ran (issue 47): the test named beside the pairs is the
``method`` of the results that made them, never chosen from the number of
blocks; a simultaneous interval is called compatible with the Holm p only at
the tests' level."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import AnalysisPlan, analyse  # noqa: E402
from sklearn_bench.report import format_summary, write_report  # noqa: E402


def _simulated():
    """3 learners on one simulated data set (fresh learning samples), 10
    replicates: the default test within it is the plain paired t."""
    rng = np.random.default_rng(1)
    rows = [
        ("sim", m, r, 0.2 + 0.02 * j + rng.normal(0, 0.01))
        for j, m in enumerate("ABC")
        for r in range(10)
    ]
    df = pd.DataFrame(rows, columns=["d", "m", "r", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="m", value="v", replicate="r",
        greater_is_better=False,
    )  # fmt: skip
    return BenchmarkResult(
        result.scores, metrics=result.metrics, datasets={"sim": "simulation"},
        learners=result.learners, info=result.info,
    )  # fmt: skip


def test_one_simulated_data_set_says_paired_t(tmp_path):
    """H: on one simulated data set every pair ran the plain paired t; the
    summary, the text summary, the bottom line and pairwise.tex say "paired t"
    and never "corrected" (they said "corrected t", chosen from the block
    count)."""
    analysis = analyse(_simulated())
    assert set(analysis.pairs["method"]) == {"t"}
    assert analysis.primary_test == "paired t"
    assert "primary test: paired t over" in analysis.summary()
    assert "corrected" not in analysis.summary()
    write_report(analysis, tmp_path, progress=False, figure_formats=("png",))
    caption = (tmp_path / "tables" / "pairwise.tex").read_text()
    assert "paired t unadjusted" in caption and "corrected" not in caption
    assert "(paired t)" in format_summary(analysis)
    # the bottom line's description of the primary analysis too (it named the
    # corrected resampled t whenever the blocks were one data set's replicates)
    primary = " ".join(analysis.bottom_line.more)
    assert "paired t test over the replicates of sim" in primary
    assert "corrected" not in primary


@pytest.mark.parametrize("level, compatible", [(0.95, True), (0.9, False)])
def test_compatible_only_at_the_tests_level(tmp_path, level, compatible):
    """H: with confidence_level = 1 − α the outputs say the simultaneous
    interval is compatible with the Holm p; with 0.9 and α = 0.05 none says it
    (an interval [−0.040, −0.001] beside Holm p = 0.082 is then no contradiction)."""
    analysis = analyse(_simulated(), AnalysisPlan(confidence_level=level, alpha=0.05))
    assert analysis.intervals_match_tests is compatible
    write_report(analysis, tmp_path, progress=False, figure_formats=("png",))
    caption = (tmp_path / "tables" / "pairwise.tex").read_text()
    assert ("excludes 0 only where" in caption) is compatible
    assert ("compatible with the Holm" in format_summary(analysis)) is compatible
    methods = (tmp_path / "methods.md").read_text()
    assert ("exclude 0 only where" in methods) is compatible


def test_editing_a_table_in_place_changes_no_output():
    """H: the Analysis is deeply frozen: editing ``analysis.pairs`` (and
    ``analysis.mean``) in place changes neither the field nor what
    ``format_summary`` prints; the performance table's arrays are read-only."""
    analysis = analyse(_simulated())
    before = format_summary(analysis)
    pairs = analysis.pairs
    pairs.loc[:, "estimate"] = 99.0
    analysis.mean.iloc[0, 0] = 99.0
    assert format_summary(analysis) == before
    assert not (analysis.pairs["estimate"] == 99.0).any()
    with pytest.raises(ValueError, match="read-only"):
        analysis.performance.centre[0, 0] = 1.0
