"""Tests of sklearn_bench/stats/_global_permutation.py (Hothorn et al. 2005)."""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import GlobalPermutationResult, global_permutation_test
from sklearn_bench.stats._global_permutation import _closure_hypotheses

RTOL = 1e-8
CASE = "hothorn_tstar_6x3_exact"


def test_tstar_matches_reference(reference_cases):
    """H: t* of eq. (3) equals the R value for the hand-made 6 x 3 table."""
    # R: hand formula of eq. (3) in the reference generator (numerator/denominator).
    case = reference_cases[CASE]
    res = global_permutation_test(case["input"]["performance"], n_resamples=99)
    assert res.statistic == pytest.approx(case["expected"]["t_star"], rel=RTOL)
    np.testing.assert_allclose(
        res.learner_means, case["expected"]["algorithm_means"], rtol=RTOL
    )
    assert (res.n_replicates, res.n_learners) == (6, 3)


def test_exact_pvalue_matches_enumeration(reference_cases):
    """H: enumerating all 6^6 arrangements gives R's exact p-value."""
    # R: all (K!)^B = 46656 within-row arrangements, p = #(t* >= observed) / 46656.
    case = reference_cases[CASE]
    res = global_permutation_test(case["input"]["performance"], n_resamples=46656)
    assert res.exact and res.n_resamples == case["expected"]["n_arrangements"]
    assert res.pvalue == pytest.approx(case["expected"]["p_value_exact"], rel=RTOL)
    assert res.pvalue_standard_error == 0.0


@pytest.mark.parametrize("seed", [0, 1])
def test_monte_carlo_pvalue_within_3_se(reference_cases, seed):
    """H: the Monte Carlo p-value lies within 3 standard errors of the exact one."""
    # R: exact p = 0.00835905349794239 by enumeration (cases.json).
    case = reference_cases[CASE]
    res = global_permutation_test(
        case["input"]["performance"], n_resamples=19999, random_state=seed
    )
    assert not res.exact
    exact = case["expected"]["p_value_exact"]
    assert abs(res.pvalue - exact) <= 3 * res.pvalue_standard_error
    # The standard error is the binomial one of monte_carlo_pvalue.
    p = res.pvalue
    assert res.pvalue_standard_error == pytest.approx(np.sqrt(p * (1 - p) / 19999))


def test_two_learners_equals_paired_sign_flip_test():
    """H: with K = 2 the exact test equals scipy's exact paired permutation test."""
    # scipy.stats.permutation_test(permutation_type="samples") flips each pair.
    rng = np.random.default_rng(3)
    x = rng.normal(0.20, 0.02, 9)
    y = x + rng.normal(0.01, 0.015, 9)
    ref = stats.permutation_test(
        (x, y),
        lambda a, b, axis: np.mean(a - b, axis=axis),
        permutation_type="samples",
        n_resamples=np.inf,
        alternative="two-sided",
    )
    res = global_permutation_test(np.column_stack([x, y]), n_resamples=2**9)
    assert res.exact
    assert res.pvalue == pytest.approx(ref.pvalue, rel=RTOL)


def test_random_state_reproducible_and_shift_detected():
    """H: a seed fixes p; a clearly shifted learner gives p = 1/(R+1)."""
    rng = np.random.default_rng(0)
    null = rng.normal(0.2, 0.02, (40, 4))
    a = global_permutation_test(null, n_resamples=999, random_state=5)
    b = global_permutation_test(null, n_resamples=999, random_state=5)
    assert a.pvalue == b.pvalue
    shifted = null + [0.0, 0.0, 0.0, 0.05]
    c = global_permutation_test(shifted, n_resamples=999, random_state=5)
    assert c.pvalue == pytest.approx(1 / 1000)
    # t* is invariant to adding a constant per replicate (eq. (3) is row-centred).
    d = global_permutation_test(
        shifted + rng.normal(0, 1, (40, 1)), n_resamples=9, random_state=5
    )
    assert d.statistic == pytest.approx(c.statistic, rel=1e-9)


def test_closure_hypotheses_count():
    """H: the closure of the pairwise hypotheses has 4 members for K = 3, 14 for 4."""
    # Set partitions with a block of >= 2: Bell(3) - 1 = 4, Bell(4) - 1 = 14.
    assert len(_closure_hypotheses(3)) == 4
    hyps = _closure_hypotheses(4)
    assert len(hyps) == 14
    assert ((0, 1), (2, 3)) in hyps and ((0, 1, 2, 3),) in hyps


def test_closed_testing_pairwise():
    """H: closed testing finds the shifted learner, not the equal pair, p_adj >= raw."""
    rng = np.random.default_rng(1)
    perf = pd.DataFrame(
        rng.normal(0.2, 0.02, (60, 3)) + [0.0, 0.0, 0.02],
        columns=["rf", "bundling", "svm"],
    )
    res = global_permutation_test(perf, n_resamples=1999, random_state=0)
    post = res.pairwise()
    table = post.to_frame()
    assert (post.method, post.adjust) == ("closed testing", "closed")
    assert list(zip(table["learner_i"], table["learner_j"], strict=True)) == [
        ("rf", "bundling"),
        ("rf", "svm"),
        ("bundling", "svm"),
    ]
    assert (table["pvalue_adjusted"] >= table["pvalue"]).all()
    assert table.loc[0, "pvalue_adjusted"] > 0.05
    assert (table.loc[1:, "pvalue_adjusted"] <= 0.05).all()
    np.testing.assert_allclose(
        table["estimate"],
        [
            perf.rf.mean() - perf.bundling.mean(),
            perf.rf.mean() - perf.svm.mean(),
            perf.bundling.mean() - perf.svm.mean(),
        ],
    )
    # A pair's raw p is the two-learner test on those columns (within MC error).
    pair = global_permutation_test(perf[["rf", "bundling"]], n_resamples=1999)
    se = np.hypot(pair.pvalue_standard_error, np.sqrt(pair.pvalue / 1999))
    assert abs(table.loc[0, "pvalue"] - pair.pvalue) <= 4 * se


def test_closed_testing_four_learners_adjusted_is_max_of_implying():
    """H: with K = 4 each adjusted p is at least the global and its pair's p."""
    rng = np.random.default_rng(2)
    perf = rng.normal(0.2, 0.02, (30, 4)) + [0.0, 0.004, 0.03, 0.03]
    res = global_permutation_test(perf, n_resamples=499, random_state=1)
    table = res.pairwise(method="closed").to_frame()
    assert len(table) == 6
    assert (table["pvalue_adjusted"] >= res.pvalue - 3 * 0.01).all()
    assert (table["pvalue_adjusted"] >= table["pvalue"]).all()
    # learners 2 and 3 are equal, 0 and 1 nearly so: not rejected.
    equal = table.query("learner_i == 2 and learner_j == 3")
    assert float(equal["pvalue_adjusted"].iloc[0]) > 0.05


def test_tukey_follow_up_is_the_two_way_tukey_hsd():
    """H: the Tukey follow-up is Tukey's HSD on the residual of the replicates x
    learners layout: q = |mean_i - mean_j| / sqrt(MSE / B) against the studentized
    range with K and (K - 1)(B - 1) df, MSE = SS_residual / ((K - 1)(B - 1)), as
    scipy's studentized_range gives it from the formula."""
    rng = np.random.default_rng(4)
    perf = rng.normal(0.2, 0.02, (25, 6)) + np.linspace(0, 0.02, 6)
    res = global_permutation_test(perf, n_resamples=99, random_state=0)
    post = res.pairwise()  # K = 6 > 4: Tukey
    table = post.to_frame()
    b, k = perf.shape
    resid = perf - perf.mean(axis=1, keepdims=True) - perf.mean(axis=0) + perf.mean()
    df = (k - 1) * (b - 1)
    se = np.sqrt(np.sum(resid**2) / df / b)
    means = perf.mean(axis=0)
    i, j = np.triu_indices(6, k=1)
    diff = means[i] - means[j]
    q = np.abs(diff) / se
    pvalues = stats.studentized_range.sf(q, k, df)
    half = stats.studentized_range.ppf(0.95, k, df) * se
    np.testing.assert_allclose(np.abs(table["estimate"]), np.abs(diff), rtol=RTOL)
    np.testing.assert_allclose(
        table["ci_high"] - table["ci_low"], 2 * half * np.ones_like(diff), rtol=1e-6
    )
    np.testing.assert_allclose(table["pvalue_adjusted"], pvalues, rtol=1e-6, atol=1e-12)
    assert (post.method, post.adjust) == ("tukey (blocks)", "single_step")


def test_errors():
    """H: bad inputs raise ValueErrors that name the argument, learner and replicate."""
    perf = pd.DataFrame(
        {"rf": [0.1, 0.2, 0.3], "svm": [0.2, np.nan, 0.1]}, index=[10, 11, 12]
    )
    with pytest.raises(ValueError, match=r"learner 'svm' on block 11"):
        global_permutation_test(perf)
    with pytest.raises(ValueError, match="at least 2 learners"):
        global_permutation_test(np.ones((5, 1)))
    with pytest.raises(ValueError, match="at least 2 blocks"):
        global_permutation_test(np.ones((1, 4)))
    with pytest.raises(ValueError, match="`n_resamples` must be a positive integer"):
        global_permutation_test(np.ones((4, 3)), n_resamples=0)
    with pytest.raises(ValueError, match="`random_state`"):
        global_permutation_test(np.ones((4, 3)), random_state="x")
    res = global_permutation_test(
        np.random.default_rng(0).random((5, 5)), n_resamples=9
    )
    with pytest.raises(ValueError, match="at most 4 learners"):
        res.pairwise(method="closed").to_frame()
    with pytest.raises(ValueError, match="`confidence_level`"):
        res.pairwise(confidence_level=2).to_frame()


def test_result_is_frozen_and_constant_data():
    """H: the result is frozen; identical learners give t* = 0 and p = 1."""
    res = global_permutation_test(np.tile([[0.1], [0.2], [0.3]], (1, 3)), n_resamples=5)
    assert isinstance(res, GlobalPermutationResult)
    assert res.statistic == 0.0 and res.pvalue == 1.0
    with pytest.raises(AttributeError):
        res.pvalue = 0.0
    assert res.to_dict()["n_learners"] == 3
    assert res.to_frame().loc[0, "pvalue"] == 1.0
