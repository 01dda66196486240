"""Tests of sklearn_bench/results/_scales.py: across-data-set differences on
incommensurable scales are warned about, and analysed relative or as ranks."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps

from sklearn_bench import BenchmarkResult
from sklearn_bench.results._scales import IncommensurableScalesWarning


def _mse_result():
    """MSE as in the issue: ~3000 on diabetes, ~1.3 on a synthetic set."""
    rng = np.random.default_rng(1)
    scales = {"diabetes": 3000.0, "synthetic": 1.3, "friedman1": 2.1, "sine": 0.9}
    rows = []
    for dataset, s in scales.items():
        for rep in range(4):
            for learner, factor in [("ridge", 1.0), ("tree", 1.12), ("knn", 1.3)]:
                value = s * factor * (1 + 0.05 * rng.normal())
                rows.append((dataset, learner, rep, value))
    df = pd.DataFrame(rows, columns=["d", "l", "r", "mse"])
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", replicate="r", value="mse",
        greater_is_better=False,
    )  # fmt: skip


def test_raw_across_data_sets_warns_naming_the_scales():
    """H: the raw t interval of ridge − tree over MSEs of ~3000 and ~1 warns with
    Demšar's reason, naming the largest- and smallest-scale data sets (it used to
    print "ridge − tree −1717 [−23532, +20098]" without a word)."""
    result = _mse_result()
    with pytest.warns(IncommensurableScalesWarning) as record:
        result.confidence_interval("ridge", "tree")
    message = str(record[0].message)
    assert "larger on 'diabetes' than on 'sine'" in message
    assert "Demšar 2006, Sec. 3.1" in message and "scale='relative'" in message
    with pytest.warns(IncommensurableScalesWarning):
        result.paired_test("ridge", "tree")


def test_relative_and_rank_scales_match_scipy_on_the_transformed_means():
    """H: scale='relative' is the paired t interval (scipy) of 2(a − b)/(a + b) of
    the per-data-set means, scale='rank' that of the differences of the ranks among
    all three learners (constant here, so the t interval is refused as by R's
    t.test); neither warns."""
    result = _mse_result()
    mean = result.aggregate("mse")
    a, b = mean["ridge"].to_numpy(), mean["tree"].to_numpy()
    rel = 2 * (a - b) / (a + b)
    ranks = mean.rank(axis=1)
    rank_d = (ranks["ridge"] - ranks["knn"]).to_numpy()
    with warnings.catch_warnings():
        warnings.simplefilter("error", IncommensurableScalesWarning)
        ci = result.confidence_interval("ridge", "tree", scale="relative")
        test = result.paired_test("ridge", "tree", scale="relative")
        with pytest.raises(ValueError, match="constant"):
            result.confidence_interval("ridge", "knn", scale="rank")
    ref = sps.ttest_1samp(rel, 0.0).confidence_interval(0.95)
    np.testing.assert_allclose([ci.low, ci.high], [ref.low, ref.high], rtol=1e-12)
    assert test.pvalue == pytest.approx(sps.ttest_1samp(rel, 0.0).pvalue, rel=1e-12)
    assert "relative to the pair's mean on each data set" in test.null_hypothesis
    assert np.all(rank_d == -2)  # ridge best, knn worst on every data set


def test_no_warning_for_bounded_metrics_or_rank_based_tests():
    """H: error rates in [0, 1] never warn (one scale), even 0.001 against 0.3; a
    Wilcoxon test across data sets on MSE does not warn (it ranks differences)."""
    df = pd.DataFrame(
        {"d": ["p", "p", "q", "q", "r", "r"], "l": ["A", "B"] * 3,
         "e": [0.001, 0.002, 0.30, 0.33, 0.20, 0.21]}
    )  # fmt: skip
    err = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="e", greater_is_better=False
    )
    with warnings.catch_warnings():
        warnings.simplefilter("error", IncommensurableScalesWarning)
        err.confidence_interval("A", "B")
        _mse_result().paired_test("ridge", "tree", method="wilcoxon")


def test_bad_scale_arguments_name_the_argument_and_data_set():
    """H: an unknown scale, a scale within one data set and a relative scale on a
    non-positive performance raise ValueErrors naming `scale` and the data set."""
    result = _mse_result()
    with pytest.raises(ValueError, match=r"`scale` must be one of \['raw'"):
        result.paired_test("ridge", "tree", scale="log")
    with pytest.raises(ValueError, match="`scale` must be 'raw' within a data set"):
        result.paired_test("ridge", "tree", dataset="sine", scale="rank")
    df = pd.DataFrame(
        {"d": ["p", "p", "q", "q"], "l": ["A", "B"] * 2, "v": [-1.0, 2.0, 3.0, 4.0]}
    )
    neg = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", greater_is_better=True
    )
    with pytest.raises(ValueError, match="not positive on data set 'p'"):
        neg.confidence_interval("A", "B", scale="relative")


def test_report_and_summary_say_it_once():
    """H: the report's analysis notes the scales once (no warning per pair), and the
    printed summary shows it under the effect sizes."""
    from sklearn_bench.analysis import AnalysisPlan, analyse
    from sklearn_bench.report import format_summary

    result = _mse_result()
    with warnings.catch_warnings():
        warnings.simplefilter("error", IncommensurableScalesWarning)
        analysis = analyse(result, AnalysisPlan())
    notes = [n for n in map(str, analysis.notes) if "orders of magnitude" in n]
    assert len(notes) == 1
    summary = format_summary(analysis)
    assert "   Warning: The scales of mse differ by orders of magnitude" in summary
