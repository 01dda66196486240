"""Tests of sklearn_bench/report/_summary.py."""

import numpy as np
import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.report import analyse_result, format_summary


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
    analysis = analyse_result(result, delta=0.03)
    text = format_summary(analysis, result)
    assert (
        text.index("1. Effect sizes") < text.index("2. Tests") < text.index("3. Power")
    )
    row = analysis.pairs.iloc[0]
    assert f"[{row['low']:+.3f}, {row['high']:+.3f}]" in text
    assert f"J = {analysis.power['n_needed']} data sets" in text
    # Δ first, the post-hoc power second and labelled as such.
    assert text.index("to detect Δ = 0.0300") < text.index("Post-hoc power")
    assert text.splitlines()[0].startswith("2 learners x 4 data sets")
