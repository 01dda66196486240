"""The public methods across data sets leave out the data sets the analysis
leaves out: those where a task of any learner failed or is missing (one rule,
``results._select.incomplete_datasets``)."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import analyse


def _result(fail):
    """3 learners x 4 data sets x 3 replicates; C misses replicate 1 on d2 (not
    run, or with ``fail`` a NaN: a failed task). A is better than B."""
    rng = np.random.default_rng(0)
    rows = [
        (f"d{d}", m, r, 0.1 * (d + 1) + 0.02 * j + rng.normal(0, 0.01))
        for d in range(4)
        for j, m in enumerate("ABC")
        for r in range(3)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v"])
    gone = (df["data"] == "d2") & (df["model"] == "C") & (df["rep"] == 1)
    df = df.assign(v=df["v"].mask(gone)) if fail else df[~gone]
    return BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", replicate="rep",
        greater_is_better=False,
    )  # fmt: skip


@pytest.mark.parametrize("fail", [False, True])
def test_paired_test_leaves_out_an_incomplete_data_set_as_the_report(fail):
    """H: with C missing (or failing) one replicate on d2, the default
    paired_test('A', 'B') uses the 3 other data sets, says so in its null
    hypothesis and n_dropped, and equals the analysis' pair row; friedman and
    confidence_interval follow the same rule."""
    result = _result(fail)
    res = result.paired_test("A", "B")
    assert res.n == 3 and res.n_dropped == 1
    assert "across 3 data sets" in res.null_hypothesis
    assert "1 data set left out: a task of some learner failed" in res.null_hypothesis
    analysis = analyse(result)
    assert analysis.datasets_across == ("d0", "d1", "d3")
    row = analysis.pairs.loc["A − B"]
    ci = res.confidence_interval(analysis.plan.confidence_level)
    assert (res.estimate, res.pvalue) == (row["estimate"], row["pvalue"])
    assert (ci.low, ci.high) == (row["low"], row["high"])
    interval = result.confidence_interval("A", "B")
    assert interval.estimate == pytest.approx(res.estimate)
    fried = result.friedman()
    assert fried.pvalue == analysis.friedman.pvalue
    assert "1 data set left out" in fried.null_hypothesis
    tests = result.pairwise_tests()
    assert tests.n_blocks == 3 and "1 data set left out" in tests.null_hypothesis
