"""Tests of the optional "rm_anova" sensitivity analysis of a report (issue 24):
run only when named, its numbers those of BenchmarkResult, cited in the methods."""

import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.analysis._plan import ANALYSES


@pytest.fixture
def auc_result(reference_table):
    auc = reference_table("demsar2006_table6_auc.csv")
    long = auc.rename_axis("d").reset_index().melt(id_vars="d", var_name="l")
    return BenchmarkResult.from_frame(
        long, dataset="d", learner="l", value="value", greater_is_better=True
    )


def test_rm_anova_runs_only_when_named(auc_result):
    """H: the default analyses do not run it; naming it computes RM-ANOVA and Tukey
    equal to the BenchmarkResult methods and registers a cited TestRecord."""
    assert "rm_anova" not in ANALYSES
    default = analyse(auc_result, AnalysisPlan())
    assert default.rm_anova is None and default.tukey is None
    assert all(r.key != "rm_anova" for r in default.methods)
    analysis = analyse(auc_result, AnalysisPlan(analyses=("friedman", "rm_anova")))
    anova, tukey = analysis.rm_anova, analysis.tukey
    assert anova.pvalue == auc_result.friedman(method="rm_anova").pvalue
    hsd = auc_result.pairwise_tests(method="tukey").details["hsd"]
    assert tukey.details["hsd"] == hsd
    record = next(r for r in analysis.methods if r.key == "rm_anova")
    assert "herbold2020" in record.citations


def test_config_accepts_rm_anova(tmp_path):
    """H: [analysis] run may name "rm_anova" beside the default analyses; an unknown
    name is still refused naming `analysis.run`."""
    import tomllib

    from sklearn_bench.cli._config import parse_config

    good = """
[experiment]
cv = 3
random_state = 0
[learners.lr]
class = "sklearn.linear_model.LogisticRegression"
[datasets.iris]
sklearn = "iris"
[analysis]
run = ["friedman", "rm_anova"]
"""
    config = parse_config(tomllib.loads(good), base=tmp_path)
    assert config.plan.analyses == ("friedman", "rm_anova")
    with pytest.raises(Exception, match="analysis.run"):
        parse_config(tomllib.loads(good.replace("rm_anova", "anova")), base=tmp_path)
