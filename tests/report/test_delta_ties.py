"""One Δ: the report's wins, ties and losses count a tie within Δ (issue 28 item 7)."""

import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse


def _result():
    # A beats B by 0.005 on every data set (within the default Δ = 0.01 of an
    # error rate) and C by 0.05 (beyond it)
    rows = []
    for i in range(6):
        base = 0.1 + 0.02 * i
        for name, shift in (("A", 0.0), ("B", 0.005), ("C", 0.05)):
            rows.append(
                {"dataset": f"d{i}", "learner": name, "error_rate": base + shift}
            )
    return BenchmarkResult.from_frame(
        pd.DataFrame(rows),
        dataset="dataset",
        learner="learner",
        value="error_rate",
        greater_is_better=False,
    )


def test_differences_within_delta_are_ties():
    """H: with the default Δ = 0.01 a difference of 0.005 is a tie on every data
    set (6/0 wins with ties at exact equality only) and one of 0.05 a win; with a
    given Δ = 0.001 the 0.005 differences are wins again."""
    result = _result()
    wtl = analyse(result, AnalysisPlan()).win_tie_loss
    assert (wtl.loc["A", ("B", "tie")], wtl.loc["A", ("B", "win")]) == (6, 0)
    assert wtl.loc["A", ("C", "win")] == 6
    wtl = analyse(result, AnalysisPlan(delta=0.001)).win_tie_loss
    assert (wtl.loc["A", ("B", "tie")], wtl.loc["A", ("B", "win")]) == (0, 6)
