"""Tests of BenchmarkResult's access to autorank's parametric path (issue 24):
``friedman(method="rm_anova")`` and ``pairwise_test(method="tukey")`` select the
blocks x learners table and delegate to sklearn_bench.stats."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.stats import PairwiseTestResult, RMAnovaResult, rm_anova, tukey_hsd


def _result(reference_table):
    auc = reference_table("demsar2006_table6_auc.csv")
    long = auc.rename_axis("d").reset_index().melt(id_vars="d", var_name="l")
    result = BenchmarkResult.from_frame(
        long, dataset="d", learner="l", value="value", greater_is_better=True
    )
    return auc, result


def test_rm_anova_and_tukey_delegate(reference_table):
    """H: the methods equal the stats functions on the data sets x learners table
    of means (Demšar's Table 6) and say what they tested."""
    auc, result = _result(reference_table)
    res = result.friedman(method="rm_anova")
    assert isinstance(res, RMAnovaResult)
    table = auc[list(result.learners)]
    assert res.statistic == pytest.approx(rm_anova(table).statistic, rel=1e-12)
    tk = result.pairwise_tests(method="tukey", alpha=0.1)
    assert isinstance(tk, PairwiseTestResult) and tk.greater_is_better
    assert tk.method == "tukey (blocks)"
    best_first = table[
        list(
            table.rank(axis=1, ascending=False).mean().sort_values(kind="stable").index
        )
    ]  # as BenchmarkResult writes its pairs
    ref = tukey_hsd(best_first, alpha=0.1, greater_is_better=True).to_frame()
    np.testing.assert_allclose(tk.to_frame()["pvalue_adjusted"], ref["pvalue_adjusted"])
    assert "across 14 data sets" in tk.null_hypothesis


def test_tukey_within_one_dataset_and_refusals(reference_table):
    """H: within a data set the replicates are the blocks; a bad method and
    missing="pairwise" with Tukey are refused by name."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "learner": np.repeat(["A", "B", "C"], 10),
            "replicate": np.tile(np.arange(10), 3),
            "error": rng.normal(0.2, 0.02, 30) + np.repeat([0, 0, 0.03], 10),
        }
    ).assign(d="x")
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="learner", value="error", replicate="replicate",
        greater_is_better=False,
    )  # fmt: skip
    tk = result.pairwise_tests(method="tukey", dataset="x")
    assert tk.n_blocks == 10 and "within data set 'x'" in tk.null_hypothesis
    with pytest.raises(ValueError, match="`method`"):
        result.friedman(method="anova")
    with pytest.raises(ValueError, match="`method`='tukey'"):
        result.pairwise_tests(method="tukey", missing="pairwise")
