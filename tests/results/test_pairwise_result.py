"""Tests of BenchmarkResult.pairwise_tests (and its data selection for incomplete
blocks): it selects and delegates to sklearn_bench.stats.pairwise_tests."""

import json
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.stats import pairwise_tests

REF = json.loads(
    (Path(__file__).parents[1] / "stats" / "reference" / "pairwise.json").read_text(
        "utf-8"
    )
)
GH = next(c for c in REF["data"] if c["name"] == "data.gh.2008")


def _best_first(table, greater_is_better):
    """The table's columns best first by average rank: BenchmarkResult writes
    each pair better ranked − worse ranked."""
    sign = -1.0 if greater_is_better else 1.0
    ranks = (sign * table.dropna()).rank(axis=1).mean(axis=0)
    return table[list(ranks.sort_values(kind="stable").index)]


def _by_pair(frame, column):
    """``{frozenset((learner_i, learner_j)): value}`` of a post-hoc table."""
    pairs = zip(frame["learner_i"], frame["learner_j"], strict=True)
    return {frozenset(p): v for p, v in zip(pairs, frame[column], strict=True)}


def _gh_result(drop=()):
    table = pd.DataFrame(GH["scores"], index=GH["datasets"], columns=GH["learners"])
    long = (
        table.rename_axis("d")
        .reset_index()
        .melt(id_vars="d", var_name="l", value_name="acc")
    )
    for dataset, learner in drop:
        long = long[~((long["d"] == dataset) & (long["l"] == learner))]
    return table, BenchmarkResult.from_frame(
        long, dataset="d", learner="l", value="acc", greater_is_better=True
    )


def test_pairwise_test_delegates_and_matches_r():
    """H: the method's adjusted p-values are R/scmamp's on García & Herrera's data."""
    table, result = _gh_result()
    res = result.pairwise_tests(adjust="shaffer", zero_method="wilcox")
    got = _by_pair(res.to_frame(), "pvalue_adjusted")
    pairs = combinations(GH["learners"], 2)
    r = dict(zip(pairs, GH["wilcoxon"]["shaffer"], strict=True))
    np.testing.assert_allclose(
        [got[frozenset(p)] for p in r], list(r.values()), rtol=1e-8
    )
    direct = pairwise_tests(
        _best_first(table, True),
        adjust="shaffer",
        zero_method="wilcox",
        greater_is_better=True,
    )
    pd.testing.assert_frame_equal(res.to_frame(), direct.to_frame())
    assert "higher is better; across 30 data sets" in res.null_hypothesis
    # higher is better: the best learner has the smallest average rank
    assert res.average_ranks.idxmin() == table.mean().idxmax()


def test_missing_learner_on_a_data_set_is_left_out_or_goes_pairwise():
    """H: a learner missing on one data set leaves that data set out by default
    (as the report does), and is tested on the 29 common data sets with
    missing='pairwise', equal to dropping that data set."""
    table, result = _gh_result(drop=[("Autos", "Kernel")])
    res = result.pairwise_tests()
    assert res.n_blocks == 29 and "1 data set left out" in res.null_hypothesis
    _, complete = _gh_result(drop=[("Autos", k) for k in GH["learners"]])
    assert res.to_frame().equals(complete.pairwise_tests().to_frame())
    res = result.pairwise_tests(missing="pairwise", adjust="holm")
    frame = res.to_frame().set_index(["learner_i", "learner_j"])
    assert frame.loc[("C4.5", "Kernel"), "n"] == 29
    assert frame.loc[("C4.5", "CN2"), "n"] == 30
    expected = pairwise_tests(
        table.drop(index="Autos")[["C4.5", "Kernel"]],
        adjust="none",
        greater_is_better=False,
    ).to_frame()
    assert frame.loc[("C4.5", "Kernel"), "pvalue"] == expected.loc[0, "pvalue"]
    with pytest.raises(ValueError, match="across data sets"):
        result.pairwise_tests(missing="pairwise", dataset="Autos")


def test_failed_replicate_counts_as_missing_cell():
    """H: a NaN score on one replicate makes that learner × data set cell missing."""
    rng = np.random.default_rng(0)
    rows = [
        {"d": f"d{j}", "l": learner, "r": r, "e": rng.random()}
        for j in range(6)
        for learner in "ABC"
        for r in range(3)
    ]
    df = pd.DataFrame(rows)
    df.loc[(df["d"] == "d2") & (df["l"] == "B") & (df["r"] == 1), "e"] = np.nan
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="e", replicate="r",
        greater_is_better=False,
    )  # fmt: skip
    assert result.pairwise_tests().n_blocks == 5  # d2 left out by default
    res = result.pairwise_tests(missing="pairwise", adjust="holm")
    n = _by_pair(res.to_frame(), "n")
    assert n[frozenset("AB")] == 5 and n[frozenset("AC")] == 6


def test_within_one_dataset_uses_replicates():
    """H: dataset=name tests over that data set's replicates."""
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {"d": "x", "l": np.repeat(list("ABC"), 12), "r": np.tile(range(12), 3),
         "e": rng.normal(0.2, 0.02, 36) + np.repeat([0, 0.03, 0.031], 12)}
    )  # fmt: skip
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="e", replicate="r",
        greater_is_better=False,
    )  # fmt: skip
    res = result.pairwise_tests(dataset="x", method="sign", adjust="bergmann_hommel")
    assert res.n_blocks == 12 and "over 12 replicates" in res.null_hypothesis
    assert res.significant.loc["A", "B"]


def test_skillings_mack_uses_the_incomplete_table():
    """H: BenchmarkResult.skillings_mack_test equals the stats function on the
    table with the failed cells missing, where friedman leaves those data sets
    out."""
    from sklearn_bench.stats import friedman_test, skillings_mack_test

    table, result = _gh_result(drop=[("Autos", "Kernel"), ("Balance", "CN2")])
    fried = friedman_test(
        table.drop(index=["Autos", "Balance"]), greater_is_better=True
    )
    assert result.friedman().statistic == pytest.approx(fried.statistic, rel=1e-12)
    res = result.skillings_mack_test()
    expected = table.copy()
    expected.loc["Autos", "Kernel"] = np.nan
    expected.loc["Balance", "CN2"] = np.nan
    direct = skillings_mack_test(expected, greater_is_better=True)
    assert res.statistic == pytest.approx(direct.statistic, rel=1e-12)
    assert res.n_missing == 2 and res.df == (4,)
    assert "higher is better; across 30 data sets, 2 missing" in res.null_hypothesis
    # complete result: Skillings-Mack = Friedman without tie correction
    _, complete = _gh_result()
    fried = complete.friedman(tie_correction=False)
    assert complete.skillings_mack_test().statistic == pytest.approx(fried.statistic)


@pytest.mark.parametrize(
    "method, adjust",
    [
        ("conover", "holm"),
        ("nemenyi", None),
        ("exact_ranksum", "finner"),
        ("quade", None),
        ("siegel", "rom"),
        ("miller", None),
    ],
)
def test_pairwise_test_friedman_type_posthocs_delegate(method, adjust):
    """H: BenchmarkResult.pairwise_tests(method=<rank post-hoc>) gives the p-values
    of stats.pairwise_tests on the data-set table (issue 24), and says so."""
    table, result = _gh_result()
    res = result.pairwise_tests(method=method, adjust=adjust)
    ref = pairwise_tests(
        _best_first(table, True), method=method, adjust=adjust, greater_is_better=True
    )
    np.testing.assert_allclose(
        res.to_frame()["pvalue_adjusted"], ref.to_frame()["pvalue_adjusted"]
    )
    assert res.method == method and "across 30 data sets" in res.null_hypothesis


def test_friedman_method_delegates_to_quade_aligned_and_durbin():
    """H: BenchmarkResult.friedman(method=...) gives quade_test /
    friedman_aligned_ranks_test on the data-set table and durbin_test on a balanced
    incomplete design of missing cells (issue 24); Friedman's options with another
    method, or Durbin within a data set, raise."""
    from sklearn_bench.stats import (
        durbin_test,
        friedman_aligned_ranks_test,
        quade_test,
    )

    table, result = _gh_result()
    got = result.friedman(method="quade")
    assert got.statistic == quade_test(table, greater_is_better=True).statistic
    got = result.friedman(method="aligned_ranks")
    ref = friedman_aligned_ranks_test(table, greater_is_better=True)
    assert got.statistic == ref.statistic
    # a BIBD on 8 data sets: data set i lacks learner i mod 4 (k = 3, r = 6)
    learners = list(table.columns[:4])
    sub = table.iloc[:8][learners].copy()
    for row in range(8):
        sub.iloc[row, row % 4] = np.nan  # drop learner (row mod 4): k = 3, r = 6
    pairs = [(d, learners[i % 4]) for i, d in enumerate(sub.index)]
    drop = pairs + [(d, lr) for d in table.index[8:] for lr in table.columns]
    drop += [(d, lr) for d in table.index[:8] for lr in table.columns[4:]]
    _, small = _gh_result(drop=drop)
    got = small.friedman(method="durbin")
    ref = durbin_test(sub, greater_is_better=True)
    assert got.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert "lambda = 4" in got.method
    with pytest.raises(ValueError, match="`exact`"):
        result.friedman(method="quade", exact=True)
    with pytest.raises(ValueError, match="dataset=None"):
        small.friedman(method="durbin", dataset=str(table.index[0]))
