"""Tests of sklearn_bench/stats/_pairwise.py: scmamp's R code, R, scikit-posthocs.

Reference values: ``tests/stats/reference/pairwise.R`` sources scmamp's
``adjustShaffer``/``adjustBergmannHommel`` and its exhaustive sets (commit
3cf4d8b) and computes the tests with R's ``wilcox.test``/``binom.test``; output in
``pairwise.json`` beside it.
"""

import json
import warnings
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_bench.stats import (
    PairwiseTestResult,
    adjust_pvalues,
    friedman_test,
    paired_test,
    pairwise_tests,
)
from sklearn_bench.stats._multitest import _exhaustive_sets, _shaffer_counts

RTOL = 1e-8
REF = json.loads(
    (Path(__file__).parent / "reference" / "pairwise.json").read_text("utf-8")
)
ADJUST = REF["adjust"]
DATA = {case["name"]: case for case in REF["data"]}


def _frame(case):
    return pd.DataFrame(
        case["scores"], index=case["datasets"], columns=case["learners"]
    )


@pytest.mark.parametrize("case", ADJUST, ids=lambda c: f"k{c['k']}-{c['shape']}")
def test_adjustments_match_r_and_scmamp(case):
    """H: Holm = p.adjust; Shaffer = scmamp adjustShaffer; B–H = the closed test."""
    p = np.array(case["pvalues"])
    np.testing.assert_allclose(adjust_pvalues(p, adjust="holm"), case["holm"], RTOL)
    np.testing.assert_allclose(
        adjust_pvalues(p, adjust="shaffer"), case["shaffer"], RTOL
    )
    closed = adjust_pvalues(p, adjust="bergmann_hommel")
    np.testing.assert_allclose(closed, case["bergmann_hommel_closed"], RTOL)
    # scmamp's adjustBergmannHommel = the running max of the closed-test APVs in
    # the order of the raw p-values
    order = np.argsort(p, kind="stable")
    monotone = np.empty_like(closed)
    monotone[order] = np.maximum.accumulate(closed[order])
    np.testing.assert_allclose(monotone, case["bergmann_hommel_scmamp"], RTOL)


@pytest.mark.parametrize("k", range(3, 10))
def test_exhaustive_sets_are_scmamps(k):
    """H: our exhaustive sets are as many as scmamp's distinct ones, Bell(k) − 1."""
    expected = next(c["n_exhaustive_sets"] for c in ADJUST if c["k"] == k)
    assert len(_exhaustive_sets(k)) == expected
    bell = [1, 1, 2, 5, 15, 52, 203, 877, 4140, 21147, 115975]
    assert expected == bell[k] - 1


def test_shaffer_counts_match_shaffer_1986():
    """H: S(4) = {0, 1, 2, 3, 6}, S(5) = {0, 1, 2, 3, 4, 6, 10} (Shaffer 1986)."""
    assert _shaffer_counts(4) == frozenset({0, 1, 2, 3, 6})
    assert _shaffer_counts(5) == frozenset({0, 1, 2, 3, 4, 6, 10})


@pytest.mark.parametrize("k", [3, 4, 5])
def test_bergmann_hommel_is_its_rejection_rule(k):
    """H: APV_i <= α exactly when H_i lies outside every exhaustive set I with
    min_I p > α / |I| (Bergmann & Hommel's acceptance set A; García & Herrera 2008)."""
    rng = np.random.default_rng(k)
    sets = _exhaustive_sets(k)
    for _ in range(50):
        p = rng.beta(0.4, 3, size=k * (k - 1) // 2)
        apv = adjust_pvalues(p, adjust="bergmann_hommel")
        for alpha in (0.01, 0.05, 0.1, 0.2):
            accepted_sets = sets[
                np.where(sets, p, np.inf).min(axis=1) > alpha / sets.sum(axis=1)
            ]
            accepted = accepted_sets.any(axis=0)
            np.testing.assert_array_equal(apv <= alpha, ~accepted)


def test_power_order_bonferroni_holm_shaffer_bergmann_hommel():
    """H: adjusted p-values never increase from Holm to Shaffer to Bergmann–Hommel."""
    rng = np.random.default_rng(5)
    for k in (3, 4, 6, 8):
        for _ in range(20):
            p = rng.beta(0.3, 2, size=k * (k - 1) // 2)
            holm = adjust_pvalues(p, adjust="holm")
            shaffer = adjust_pvalues(p, adjust="shaffer")
            bh = adjust_pvalues(p, adjust="bergmann_hommel")
            assert np.all(shaffer <= holm + 1e-15)
            assert np.all(bh <= shaffer + 1e-15)
            assert np.all(holm <= adjust_pvalues(p, adjust="bonferroni") + 1e-15)


@pytest.mark.parametrize("name", list(DATA))
@pytest.mark.parametrize("adjust", ["holm", "shaffer", "bergmann_hommel"])
def test_pairwise_wilcoxon_matches_r(name, adjust):
    """H: raw p (R's wilcox.test), rank-biserial and adjusted p equal the R values."""
    case = DATA[name]
    res = pairwise_tests(
        _frame(case),
        method="wilcoxon",
        zero_method="wilcox",
        adjust=adjust,
        greater_is_better=False,
    )
    assert isinstance(res, PairwiseTestResult)
    frame = res.to_frame()
    exp = case["wilcoxon"]
    np.testing.assert_allclose(frame["pvalue"], exp["pvalues"], RTOL)
    np.testing.assert_allclose(frame["effect_size"], exp["rank_biserial"], RTOL)
    key = "bergmann_hommel_closed" if adjust == "bergmann_hommel" else adjust
    np.testing.assert_allclose(frame["pvalue_adjusted"], exp[key], RTOL)
    pairs = list(combinations(case["learners"], 2))
    assert list(zip(frame["learner_i"], frame["learner_j"], strict=True)) == pairs


@pytest.mark.parametrize("name", list(DATA))
def test_pairwise_sign_matches_r(name):
    """H: sign-test p (binom.test, Demšar's tie split) and Shaffer's equal R's."""
    case = DATA[name]
    res = pairwise_tests(
        _frame(case), method="sign", adjust="shaffer", greater_is_better=False
    )
    np.testing.assert_allclose(res.to_frame()["pvalue"], case["sign"]["pvalues"], RTOL)
    np.testing.assert_allclose(
        res.to_frame()["pvalue_adjusted"], case["sign"]["shaffer"], RTOL
    )


def test_pairwise_wilcoxon_holm_matches_scikit_posthocs():
    """H: raw and Holm-adjusted p equal scikit-posthocs' posthoc_wilcoxon."""
    sp = pytest.importorskip("scikit_posthocs")
    # scikit-posthocs subtracts the raw floats, so 0.803 − 0.798 and 0.813 − 0.808
    # need not tie; on scores scaled to integers (three decimals) every
    # difference is exact and both see the same ties.
    frame = (_frame(DATA["data.gh.2008"]) * 1000).round()
    ours = pairwise_tests(
        frame, zero_method="wilcox", adjust="holm", greater_is_better=False
    )
    np.testing.assert_allclose(
        ours.to_frame()["pvalue"], DATA["data.gh.2008"]["wilcoxon"]["pvalues"], RTOL
    )
    long = frame.reset_index(drop=True).melt(var_name="learner", value_name="score")
    for p_adjust, column in ((None, "pvalue"), ("holm", "pvalue_adjusted")):
        theirs = sp.posthoc_wilcoxon(
            long,
            val_col="score",
            group_col="learner",
            p_adjust=p_adjust,
            method="auto",
            zero_method="wilcox",
            correction=False,
        )
        for row in ours.to_frame().itertuples():
            assert theirs.loc[row.learner_i, row.learner_j] == pytest.approx(
                getattr(row, column), rel=1e-6
            )


def test_adding_a_learner_leaves_raw_pvalues_unchanged_unlike_nemenyi():
    """H: a third learner changes Nemenyi's A-vs-B p-value but not Wilcoxon's
    (Benavoli, Corani & Mangili 2016)."""
    rng = np.random.default_rng(3)
    base = rng.normal(0.2, 0.03, size=(25, 2)) + [0.0, 0.012]
    two = pd.DataFrame(base, columns=["A", "B"])
    three = two.assign(C=two["A"] + rng.normal(0.006, 0.004, size=25))
    p2 = (
        pairwise_tests(two, adjust="none", greater_is_better=False)
        .to_frame()
        .loc[0, "pvalue"]
    )
    p3 = (
        pairwise_tests(three, adjust="none", greater_is_better=False)
        .to_frame()
        .loc[0, "pvalue"]
    )
    assert p2 == p3
    nem2 = (
        friedman_test(two, greater_is_better=False)
        .posthoc(method="nemenyi")
        .to_frame()
        .loc[0, "pvalue_adjusted"]
    )
    nem3 = (
        friedman_test(three, greater_is_better=False)
        .posthoc(method="nemenyi")
        .to_frame()
        .loc[0, "pvalue_adjusted"]
    )
    assert abs(nem2 - nem3) > 0.01


def test_significance_matrix_and_ranks():
    """H: the matrix is symmetric, False on the diagonal, equal to reject per pair."""
    case = DATA["data.gh.2008"]
    res = pairwise_tests(
        _frame(case), adjust="bergmann_hommel", alpha=0.05, greater_is_better=False
    )
    sig = res.significant
    assert (sig.to_numpy() == sig.to_numpy().T).all()
    assert not np.diag(sig.to_numpy()).any()
    for row in res.to_frame().itertuples():
        assert sig.loc[row.learner_i, row.learner_j] == row.reject
        assert res.pvalues_adjusted.loc[row.learner_j, row.learner_i] == (
            row.pvalue_adjusted
        )
    higher = friedman_test(_frame(case), greater_is_better=True).average_ranks
    res_hi = pairwise_tests(_frame(case), greater_is_better=True)
    np.testing.assert_allclose(res_hi.average_ranks, higher)


def test_missing_cells_raise_or_go_pairwise():
    """H: NaN raises naming learner and block; missing='pairwise' uses common blocks."""
    frame = _frame(DATA["data.gh.2008"]).copy()
    frame.iloc[3, 1] = np.nan
    with pytest.raises(ValueError, match="k-NN"):
        pairwise_tests(frame, greater_is_better=False)
    res = pairwise_tests(
        frame, missing="pairwise", adjust="holm", greater_is_better=False
    )
    n = res.to_frame().set_index(["learner_i", "learner_j"])["n"]
    assert n[("C4.5", "k-NN(k=1)")] == 29 and n[("C4.5", "NaiveBayes")] == 30
    full = pairwise_tests(
        frame.dropna(), adjust="holm", greater_is_better=False
    ).to_frame()
    got = res.to_frame()
    mask = got["learner_i"].ne("k-NN(k=1)") & got["learner_j"].ne("k-NN(k=1)")
    assert "both learners have values" in res.null_hypothesis
    ref = pairwise_tests(
        frame.drop(columns="k-NN(k=1)"), adjust="none", greater_is_better=False
    ).to_frame()
    np.testing.assert_allclose(got.loc[mask, "pvalue"], ref["pvalue"], RTOL)
    assert len(full) == len(got)
    frame.iloc[:, 2] = np.nan
    frame.iloc[0, 2] = 0.5
    with pytest.raises(ValueError, match="share 1 block"):
        pairwise_tests(frame, missing="pairwise", greater_is_better=False)


@pytest.mark.parametrize("zero_method", ["demsar", "pratt"])
def test_wilcoxon_rows_are_each_pair_alone(zero_method):
    """H: pairwise_tests runs the Wilcoxon tests of the pairs without missing
    cells as one batch; every row (statistic, p-value, estimate, interval and
    its level, effect size) is paired_test of that pair alone to the last bit,
    for the batched pairs and for those on their common blocks only."""
    frame = _frame(DATA["data.gh.2008"]).copy()
    frame.iloc[3, 1] = np.nan
    res = pairwise_tests(
        frame, missing="pairwise", zero_method=zero_method, greater_is_better=False
    ).to_frame()
    for _, row in res.iterrows():
        x, y = frame[row["learner_i"]], frame[row["learner_j"]]
        both = x.notna() & y.notna()
        one = paired_test(x[both], y[both], method="wilcoxon", zero_method=zero_method)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            ci = one.confidence_interval(0.95)
        np.testing.assert_equal(
            row[["statistic", "pvalue", "estimate", "ci_low", "ci_high"]].tolist()
            + [row["ci_level"], row["effect_size"]],
            [one.statistic, one.pvalue, one.estimate, *ci]
            + [ci.confidence_level, one.effect_size.estimate],
        )
    assert (res["n"] < len(frame)).sum() == len(frame.columns) - 1


def test_bad_arguments():
    """H: too many learners for Bergmann–Hommel, bad names and wrong sizes raise."""
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="k = 11 learners"):
        pairwise_tests(
            rng.random((6, 11)), adjust="bergmann_hommel", greater_is_better=False
        )
    assert (
        len(
            pairwise_tests(
                rng.random((6, 11)), adjust="shaffer", greater_is_better=False
            ).to_frame()
        )
        == 55
    )
    with pytest.raises(ValueError, match="`adjust`"):
        pairwise_tests(rng.random((6, 3)), adjust="nemenyi", greater_is_better=False)
    with pytest.raises(ValueError, match="`method`"):
        pairwise_tests(rng.random((6, 3)), method="t", greater_is_better=False)
    with pytest.raises(ValueError, match="k \\(k − 1\\) / 2"):
        adjust_pvalues([0.1, 0.2], adjust="shaffer")
    with pytest.raises(ValueError, match="`pvalues` must lie"):
        adjust_pvalues([0.1, 0.2, 1.5], adjust="shaffer")


@pytest.mark.parametrize("adjust", ["holm", "shaffer", "bergmann_hommel"])
def test_friedman_posthoc_shaffer_bergmann_hommel_match_scmamp(adjust):
    """H: Friedman mean-rank z p-values adjusted by Shaffer / Bergmann–Hommel equal
    scmamp's friedmanPost + adjustShaffer / the closed B–H (García & Herrera 2008)."""
    case = REF["friedman"]
    frame = _frame(DATA["data.gh.2008"])
    res = friedman_test(frame, greater_is_better=True)
    post = res.posthoc(method="siegel", adjust=adjust).to_frame()
    np.testing.assert_allclose(post["pvalue"], case["pvalues"], RTOL)
    key = "bergmann_hommel_closed" if adjust == "bergmann_hommel" else adjust
    np.testing.assert_allclose(post["pvalue_adjusted"], case[key], RTOL)
    with pytest.raises(ValueError, match="is for all pairs"):
        friedman_test(frame, greater_is_better=False).posthoc(
            method="siegel", adjust=adjust if adjust != "holm" else "shaffer",
            control="CN2",
        )  # fmt: skip


def test_control_compares_each_learner_with_it():
    """H: with a control, pairwise_tests tests the k − 1 pairs (learner, control)
    only, each as paired_test does, and adjusts them as one family of k − 1 by
    adjust_pvalues (Holm by default); the all-pairs corrections and single-step
    tests are refused against a control."""
    frame = _frame(DATA["data.gh.2008"])
    learners = list(frame.columns)
    res = pairwise_tests(
        frame, control=learners[1], zero_method="wilcox", greater_is_better=False
    )
    table = res.to_frame()
    assert res.adjust == "holm" and res.control == learners[1]
    assert list(table["learner_i"]) == [m for m in learners if m != learners[1]]
    assert set(table["learner_j"]) == {learners[1]}
    raw = [
        paired_test(frame[m], frame[learners[1]], method="wilcoxon",
                    zero_method="wilcox").pvalue
        for m in table["learner_i"]
    ]  # fmt: skip
    np.testing.assert_allclose(table["pvalue"], raw, rtol=1e-12)
    np.testing.assert_allclose(
        table["pvalue_adjusted"], adjust_pvalues(raw, adjust="holm"), rtol=1e-12
    )
    assert np.isnan(res.pvalues_adjusted.loc[learners[0], learners[2]])
    for kwargs in ({"adjust": "shaffer"}, {"method": "nemenyi"}):
        with pytest.raises(ValueError, match="is for all pairs"):
            pairwise_tests(
                frame, control=learners[0], greater_is_better=False, **kwargs
            )


@pytest.mark.parametrize(
    ("adjust", "words"),
    [
        ("shaffer", "adjusted by Shaffer's static procedure over 6 pairs"),
        ("bergmann_hommel", "adjusted by Bergmann and Hommel's procedure over 6"),
        ("none", "p-values not adjusted"),
    ],
)
def test_null_hypothesis_names_the_correction_as_a_text_does(adjust, words):
    """H: the stated hypothesis names the multiplicity correction by its name
    (the report's words, one mapping: ADJUST_METHODS), not by its keyword
    ("shaffer correction" read as a typo in a methods section)."""
    frame = _frame(DATA["data.gh.2008"]).iloc[:, :4]
    res = pairwise_tests(frame, adjust=adjust, greater_is_better=False)
    assert words in res.null_hypothesis
    assert f"{adjust} correction" not in res.null_hypothesis
