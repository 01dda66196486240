"""The post-hoc after Friedman's test is a choice of the analysis (issue 24):
``AnalysisPlan(posthoc=...)``, ``write_report``, config ``[analysis] posthoc``;
the methods paragraph names and cites the one chosen."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.cli._config import ConfigError, parse_config
from sklearn_bench.report import format_summary

from .._report import report


def _result():
    rng = np.random.default_rng(0)
    n = 8
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(n)], 4),
            "l": list("ABCD") * n,
            "error_rate": (
                rng.uniform(0.1, 0.3, 4 * n) + np.tile([0, 0.02, 0.05, 0.1], n)
            ),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


def test_default_is_nemenyi_as_before():
    """H: without a choice the post-hoc is Nemenyi's, single step: the
    p-values of FriedmanResult.posthoc, each pair the better-ranked learner
    first (the report's one sign convention, issue 28.12a), as
    result.pairwise_tests(method="nemenyi") orders them."""
    result = _result()
    analysis = analyse(result, AnalysisPlan())
    assert (analysis.plan.posthoc, analysis.plan.adjust) == ("nemenyi", "single_step")
    api = result.pairwise_tests(method="nemenyi").to_frame()
    assert list(analysis.posthoc["learner_i"]) == list(api["learner_i"])
    expected = result.friedman().posthoc(method="nemenyi").to_frame()
    by_pair = {
        frozenset(p): v
        for *p, v in expected[["learner_i", "learner_j", "pvalue_adjusted"]].values
    }
    for row in analysis.posthoc.itertuples():
        pair = frozenset((row.learner_i, row.learner_j))
        assert row.pvalue_adjusted == pytest.approx(by_pair[pair], rel=1e-12)
    ranks = analysis.average_ranks
    assert (
        ranks[analysis.posthoc["learner_i"]].to_numpy()
        <= ranks[analysis.posthoc["learner_j"]].to_numpy()
    ).all()


@pytest.mark.parametrize(
    "posthoc, adjust, expect_adjust",
    [
        ("conover", None, "shaffer"),
        ("exact_ranksum", "holm", "holm"),
        ("miller", None, "single_step"),
        ("quade", "finner", "finner"),
    ],
)
def test_chosen_posthoc_delegates_to_pairwise_test(posthoc, adjust, expect_adjust):
    """H: a chosen post-hoc gives the adjusted p-values of
    BenchmarkResult.pairwise_tests(method=posthoc) and records its correction."""
    result = _result()
    analysis = analyse(result, AnalysisPlan(posthoc=posthoc, adjust=adjust))
    ref = result.pairwise_tests(method=posthoc, adjust=adjust).to_frame()
    np.testing.assert_allclose(
        analysis.posthoc["pvalue_adjusted"], ref["pvalue_adjusted"]
    )
    assert analysis.plan.adjust == expect_adjust
    assert set(analysis.posthoc["method"]) == {posthoc}


def test_methods_paragraph_cites_the_chosen_posthoc(tmp_path):
    """H: with posthoc='exact_ranksum' and Holm the methods paragraph names the exact
    test and cites Eisinga et al. 2017 and Holm 1979 (listed in the references); the
    summary names the test too; the default cites neither."""
    result = _result()
    analysis = report(
        result, tmp_path, figure_formats=(), posthoc="exact_ranksum",
        adjust="holm",
    )  # fmt: skip
    md = (tmp_path / "methods.md").read_text()
    assert "exact all-pairs tests of differences of Friedman rank sums" in md
    assert "Eisinga et al. 2017" in md and "BMC Bioinformatics, 18, 68" in md
    assert "Exact rank-sum" in format_summary(analysis)
    html = (tmp_path / "report.html").read_text()
    title = "Exact rank-sum (Eisinga et al. 2017) (adjusted by Holm)"
    assert f"{title} post-hoc comparisons" in html
    report(result, tmp_path / "default", figure_formats=())
    md = (tmp_path / "default" / "methods.md").read_text()
    assert "Eisinga" not in md and "Nemenyi" in md


def test_bad_posthoc_choices_raise():
    """H: an unknown post-hoc, or single-step with a stepwise test (or the reverse),
    raises a ValueError naming the argument."""
    result = _result()
    with pytest.raises(ValueError, match="`posthoc`"):
        analyse(result, AnalysisPlan(posthoc="tukey"))
    with pytest.raises(ValueError, match="`adjust`"):
        analyse(result, AnalysisPlan(posthoc="nemenyi", adjust="holm"))
    with pytest.raises(ValueError, match="`adjust`"):
        analyse(result, AnalysisPlan(posthoc="conover", adjust="single_step"))


_GOOD = {
    "experiment": {"cv": 3},
    "learners": {"lr": {"class": "sklearn.linear_model.LogisticRegression"}},
    "datasets": {"iris": {"sklearn": "iris"}},
}


def test_config_analysis_posthoc():
    """H: [analysis] posthoc and adjust are read (resolved default correction),
    and a bad value fails naming the key."""
    config = parse_config({**_GOOD, "analysis": {"posthoc": "conover"}})
    assert (config.plan.posthoc, config.plan.adjust) == ("conover", "shaffer")
    assert "posthoc" in config.plan_keys
    config = parse_config({**_GOOD, "analysis": {"posthoc": "siegel", "adjust": "rom"}})
    assert (config.plan.posthoc, config.plan.adjust) == ("siegel", "rom")
    assert "adjust" in config.plan_keys
    with pytest.raises(ConfigError, match="`analysis.posthoc`"):
        parse_config({**_GOOD, "analysis": {"posthoc": "dunn"}})
    with pytest.raises(ConfigError, match="`analysis.adjust`"):
        parse_config({**_GOOD, "analysis": {"posthoc": "nemenyi", "adjust": "holm"}})


def test_config_old_key_posthoc_adjust_is_unknown():
    """H: the 0.1 key [analysis] posthoc_adjust is not read (no shim: it is
    `adjust`): it fails as an unknown key, naming it and listing adjust."""
    with pytest.raises(ConfigError, match=r"`analysis.posthoc_adjust`.*'adjust'"):
        parse_config(
            {**_GOOD, "analysis": {"posthoc": "siegel", "posthoc_adjust": "rom"}}
        )
