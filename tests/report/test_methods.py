"""Tests of sklearn_bench/report/_methods.py: the methods paragraph says what the
analysis ran, read from its records (``Analysis.methods``)."""

import numpy as np
import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, TestRecord, analyse
from sklearn_bench.report._methods import (
    CITATIONS,
    methods_latex,
    methods_markdown,
    methods_record,
)


def _result(n_datasets):
    rng = np.random.default_rng(0)
    rows = [
        (f"d{d}", m, r, 0.1 + 0.02 * j + rng.normal(0, 0.01))
        for d in range(n_datasets)
        for j, m in enumerate(["A", "B", "C"])
        for r in range(5)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "error_rate"])
    result = BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error_rate",
        replicate="rep",
        greater_is_better=False,
    )
    # As a run records them: split sizes and the data set size (bootstrap
    # samples: n_train + n_test > n), so that the within-data-set default test
    # (corrected t) is defined.
    result.scores = result.scores.assign(n_train=100, n_test=37)
    result.info["dataset_sizes"] = {d: {"n_samples": 100} for d in result.datasets}
    return result


def _paragraph(analysis, result=None):
    rec = methods_record(analysis, versions={"numpy": np.__version__})
    return methods_markdown(rec), methods_latex(rec)


def test_records_follow_what_was_run():
    """H: with 4 data sets the plan's analysis records the within-data-set t, the
    pairs with Holm over 3 pairs, Friedman/Nemenyi, the power, the pairwise
    Wilcoxon-Holm tests, the LaTeX table's markers and the Bayesian comparisons
    (7 records, cited); with one data set the comparisons are over its 5
    replicates, there is no power record and no pairwise test across data sets,
    and the paragraph does not mention Boulesteix et al."""
    result = _result(4)
    analysis = analyse(result, AnalysisPlan(confidence_level=0.9))
    assert [r.key for r in analysis.methods] == [
        "within",
        "pairs",
        "friedman",
        "power",
        "pairwise",
        "latex_table",
        "bayesian",
    ]
    md, _ = _paragraph(analysis, result)
    assert "Holm-adjusted over 3 pairs, at α = 0.1" in md
    assert "over 4 data sets" in md and "90% confidence intervals" in md
    assert CITATIONS["boulesteix2015"] in md
    one = _result(1)
    analysis = analyse(one, AnalysisPlan())
    assert [r.key for r in analysis.methods] == [
        "within",
        "pairs",
        "friedman",
        "latex_table",
        "bayesian",
    ]
    md, _ = _paragraph(analysis, one)
    assert "over 5 replicates" in md and "Boulesteix" not in md


def test_every_record_of_the_analysis_is_in_both_renderings():
    """H: the paragraph renders the analysis' records, no more: a record added
    to a copy of the analysis (its methods are a frozen tuple) appears in both
    renderings with its citation (Benavoli et al. 2017)."""
    from dataclasses import replace

    result = _result(3)
    analysis = analyse(result, AnalysisPlan())
    assert isinstance(analysis.methods, tuple)
    record = TestRecord(
        "bayes",
        "each pair of learners",
        "Bayesian signed-rank test with a rope of 0.01",
        "3 data sets",
        citations=("benavoli2017",),
    )
    md, tex = _paragraph(replace(analysis, methods=(*analysis.methods, record)))
    assert "Each pair of learners: Bayesian signed-rank test" in md
    assert "(Benavoli et al. 2017)." in md and CITATIONS["benavoli2017"] in md
    assert "Bayesian signed-rank test" in tex
    assert "Each pair of learners" not in _paragraph(analysis)[0]


def test_methods_settings_say_default_once():
    """H: a setting whose value already explains its default (Δ = 0.01, the
    default for a [0, 1] metric) is not followed by a second "(default)"; every
    other setting names its source once (issue 28.12e)."""
    from sklearn_bench.report._methods import _settings_text

    text = _settings_text(
        {
            "metric": ("error_rate", "default"),
            "alpha": (0.01, "command line"),
            "delta": ("0.01 (default for a [0, 1] metric)", "default"),
        }
    )
    assert text.count("default") == 2 and ") (default" not in text
    assert text == (
        "metric = error_rate (default); alpha = 0.01 (command line); "
        "delta = 0.01 (the default for a [0, 1] metric)"
    )


def test_methods_bayesian_sentence_reads_as_a_methods_paragraph():
    """H: the Bayesian record says which test ran across and which within the
    data sets, with the correlation of the correlated t in its own parenthesis,
    and counts the comparisons after "over", never "rho from the split sizes
    over 6 comparisons" (issue 28.12e)."""
    from sklearn_bench.analysis._bayesian import bayesian_records

    table = pd.DataFrame(
        {
            "scope": ["across data sets"] * 2 + ["d0"] * 2 + ["d1"] * 2,
            "method": ["signed-rank"] * 2 + ["correlated-t"] * 4,
        }
    )
    (record,) = bayesian_records(table, 0.01, None)
    sentence = record.sentence()
    assert "split sizes over" not in sentence
    assert (
        "the Bayesian signed-rank test across data sets, on the per-data-set means "
        "(Dirichlet-process prior of strength 0.5 at 0) and the Bayesian "
        "correlated t-test within each data set (its correlation ρ from the split "
        "sizes, ρ/(1 − ρ) = n_test/n_train) over 2 comparisons across data sets "
        "and 4 within data sets (" in sentence
    )


def test_within_test_name_has_no_blank_for_a_comparison_that_could_not_run():
    """H: when one within-data-set comparison cannot run (its differences are all
    zero), the methods text names only the tests that ran: no "two-sided  test /"
    with an empty name for the comparison that has no method (it read so on the
    demo, where svm_rbf equals logreg on one data set)."""
    result = _result(3)
    scores = result.scores
    a = scores["learner"] == "A"
    b = (scores["learner"] == "B") & (scores["dataset"] == "d0")
    scores.loc[b, "value"] = scores.loc[
        a & (scores["dataset"] == "d0"), "value"
    ].to_numpy()
    result.scores = scores
    from sklearn_bench.analysis import AnalysisPlan, analyse

    analysis = analyse(result, AnalysisPlan())
    (within,) = [r for r in analysis.methods if r.key == "within"]
    md, tex = _paragraph(analysis, result)
    assert within.test.startswith("two-sided corrected resampled t-test")
    for text in (md, tex):
        assert "two-sided  " not in text and "test / corrected" not in text


def test_settings_adjust_row_names_both_corrections_in_one_phrase():
    """H: when the report runs pairwise Wilcoxon tests, the `adjust` row says
    which correction each family uses in one phrase ("single_step for the
    nemenyi post-hoc test, shaffer for the pairwise Wilcoxon tests"), with no
    parenthesis inside the value (the source follows in its own, once)."""
    from sklearn_bench.report._methods import settings_table

    analysis = analyse(_result(8), AnalysisPlan())
    assert analysis.pairwise is not None
    value, source = settings_table(analysis)["adjust"]
    assert value == (
        "single_step for the nemenyi post-hoc test, shaffer for the pairwise "
        "Wilcoxon tests"
    )
    assert "(" not in value and source == "default"
