"""The analysis' tests within data sets, run in batches (results/_latex.py
``_within_batches``, analysis/_bayesian.py ``_within_rows``), equal the tests
run one pair at a time to the last bit."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.results._latex import _within_batches
from sklearn_bench.results._within import corrected_t_block


def _result(seed, n_folds):
    """5 learners x 6 data sets x 4 replicates x n_folds; on d1 a failed task,
    on d2 a learner with constant differences to the best, on d3 a learner
    missing on one split; split sizes stored (k-fold for 3 folds of 30 rows of
    90, holdout for one fold)."""
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(6):
        base = rng.uniform(0.1, 0.3)
        for j, m in enumerate(["A", "B", "C", "D", "E"]):
            for r in range(4):
                for f in range(n_folds):
                    rows.append(
                        (f"d{d}", m, r, f, base + 0.01 * j + rng.normal(0, 0.02))
                    )
    df = pd.DataFrame(rows, columns=["dataset", "learner", "replicate", "fold", "v"])
    df["split"] = df["replicate"] * n_folds + df["fold"]
    df["metric"] = "error_rate"
    df["value"] = df.pop("v").round(4)
    df["n_train"], df["n_test"] = (60, 30) if n_folds == 3 else (70, 30)
    df["error_type"] = ""
    df.loc[(df["dataset"] == "d1") & (df["learner"] == "C") & (df["split"] == 2),
           "error_type"] = "ValueError"  # fmt: skip
    best_d2 = df[(df["dataset"] == "d2") & (df["learner"] == "A")]["value"].to_numpy()
    df.loc[(df["dataset"] == "d2") & (df["learner"] == "E"), "value"] = best_d2 + 0.05
    df = df[~((df["dataset"] == "d3") & (df["learner"] == "D") & (df["split"] == 1))]
    return BenchmarkResult(
        df,
        metrics={"error_rate": False},
        datasets={f"d{d}": "real world" for d in range(6)},
        learners=["A", "B", "C", "D", "E"],
    )


@pytest.mark.filterwarnings("ignore:The .* differences .* are all equal")
@pytest.mark.parametrize("seed, n_folds", [(0, 3), (1, 1), (2, 3)])
def test_batched_within_tests_equal_pair_by_pair(seed, n_folds):
    """H: every row of the report's table within data sets (batched where the
    pairs share a design, one by one where a task failed, a learner is missing
    on a split or the differences are constant) has exactly the estimate,
    interval, p-value, n and method of result.paired_test(learner, best,
    dataset=...) and its confidence_interval; and each Bayesian row within a
    data set has exactly the probabilities and decision of
    result.bayesian_test(best, learner, dataset=...)."""
    result = _result(seed, n_folds)
    analysis = analyse(result, AnalysisPlan())
    within = analysis.within
    assert len(within) == 6 * 4
    d0 = within[within["dataset"] == "d0"]
    others, best = list(d0["learner"]), d0["reference"].iloc[0]
    block = corrected_t_block(result, others, best, metric="error_rate", dataset="d0")
    batch = _within_batches([("d0", others, block)], 0.95)["d0"]
    assert sorted(batch) == sorted(d0["learner"])  # d0 ran as one batch
    for row in within.itertuples():
        try:
            res = result.paired_test(row.reference, row.learner, dataset=row.dataset)
        except ValueError:
            assert row.n == 0 and np.isnan(row.estimate)
            continue
        ci = res.confidence_interval(analysis.confidence_level)
        assert (row.estimate, row.low, row.high) == (res.estimate, ci.low, ci.high)
        assert (row.pvalue, row.n, row.method) == (res.pvalue, res.n, res.method)
        assert row.test_train_ratio == res.details["test_train_ratio"]
    table, rope = analysis.bayesian, analysis.delta
    inside = table[table["scope"] != "across data sets"]
    assert len(inside) >= 20
    for row in inside.to_dict("records"):
        res = result.bayesian_test(row["a"], row["b"], dataset=row["scope"], delta=rope)
        probs = res.probabilities
        assert row["P(a better)"] == probs[row["a"]]
        assert row["P(equivalent)"] == probs["equivalent"]
        assert row["P(b better)"] == probs[row["b"]]
        assert row["decision"] == res.decision
        assert row["n"] == res.n and row["method"] == "correlated-t"


@pytest.mark.parametrize("failed", [False, True])
def test_batched_bayesian_across_datasets_equal_pair_by_pair(failed):
    """H: each Bayesian row across data sets (the signed-rank test of the best
    learner against every other one at once on 130 data sets, the sorted sums;
    or pair by pair when a task failed) has exactly the probabilities, n and
    decision of result.bayesian_test(best, other) with the analysis' draws."""
    from sklearn_bench.analysis._bayesian import N_SAMPLES, SEED

    rng = np.random.default_rng(3)
    rows = [
        (f"d{d}", m, r, 0.2 + 0.004 * j + rng.normal(0, 0.01))
        for d in range(130)
        for j, m in enumerate("ABCD")
        for r in range(2)
    ]
    df = pd.DataFrame(rows, columns=["dataset", "learner", "replicate", "error_rate"])
    df["error_rate"] = df["error_rate"].round(3)
    if failed:
        df.loc[0, "error_rate"] = np.nan
    result = BenchmarkResult.from_frame(
        df,
        dataset="dataset",
        learner="learner",
        value="error_rate",
        replicate="replicate",
        greater_is_better=False,
    )
    analysis = analyse(result, AnalysisPlan(analyses=("bayesian",)))
    table = analysis.bayesian
    across = table[table["scope"] == "across data sets"]
    assert len(across) == 3 and set(across["method"]) == {"signed-rank"}
    for row in across.to_dict("records"):
        res = result.bayesian_test(
            row["a"], row["b"], delta=analysis.delta, n_draws=N_SAMPLES,
            random_state=SEED,
        )  # fmt: skip
        probs = res.probabilities
        assert row["P(a better)"] == probs[row["a"]]
        assert row["P(equivalent)"] == probs["equivalent"]
        assert row["P(b better)"] == probs[row["b"]]
        assert row["decision"] == res.decide(0.95) and row["n"] == res.n
