"""Tests of sklearn_bench/stats/_paired.py against R (cases.json) and SciPy."""

import json
import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from sklearn_bench.stats import PairedTestResult, paired_test
from sklearn_bench.stats._effect_size import _rank_biserial

RTOL, ATOL = 1e-8, 1e-12
ALTS = {"two_sided": "two-sided", "greater": "greater", "less": "less"}


def close(a, b):
    return math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL)


def ref_float(value):
    return float(value)  # parses "Inf" / "-Inf"


# ----------------------------------------------------------------------- t-test
@pytest.mark.parametrize(
    "case_id",
    ["ttest_paired_random10_two_sided", "ttest_paired_demsar_c45m_vs_c45_two_sided"],
)
def test_t_matches_r(reference_cases, case_id):
    """H: paired t statistic, df, p, estimate, SE and 95% CI equal R's t.test."""
    # R: t.test(x, y, paired = TRUE, alternative = "two.sided", conf.level = 0.95)
    case = reference_cases[case_id]
    inp, exp = case["input"], case["expected"]
    res = paired_test(inp["x"], inp["y"], method="t")
    assert close(res.statistic, exp["statistic"])
    assert res.df == exp["df"]
    assert close(res.pvalue, exp["p_value"])
    assert close(res.estimate, exp["estimate_mean_difference"])
    assert close(res.details["std_error"], exp["std_error"])
    ci = res.confidence_interval(inp["conf_level"])
    assert close(ci.low, ref_float(exp["conf_int"][0]))
    assert close(ci.high, ref_float(exp["conf_int"][1]))


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_t_matches_scipy_ttest_rel(alternative):
    """H: statistic, p and (one-sided) CI equal scipy.stats.ttest_rel's."""
    rng = np.random.default_rng(3)
    x = rng.normal(0.8, 0.05, 12)
    y = x - rng.normal(0.01, 0.02, 12)
    ref = stats.ttest_rel(x, y, alternative=alternative)
    res = paired_test(x, y, alternative=alternative)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    ref_ci = ref.confidence_interval(0.9)
    ci = res.confidence_interval(0.9)
    assert ci.low == pytest.approx(ref_ci.low, rel=1e-10)
    assert ci.high == pytest.approx(ref_ci.high, rel=1e-10)


def test_corrected_t_matches_reference(reference_cases):
    """H: Nadeau-Bengio corrected t, p, SE and CI equal the R reference."""
    # R: hand formula, std_error = sqrt((1/J + n_test/n_train) * var(d))
    case = reference_cases["nadeau_bengio_10fold"]
    inp, exp = case["input"], case["expected"]
    d = np.array(inp["d"])
    ratio = inp["n_test"] / inp["n_train"]
    for key, alternative in ALTS.items():
        res = paired_test(
            d,
            np.zeros_like(d),
            method="corrected_t",
            test_train_ratio=ratio,
            alternative=alternative,
        )
        assert close(res.pvalue, exp["p_value"][key])
    assert close(res.statistic, exp["statistic"])
    assert res.df == exp["df"] and res.n == exp["J"]
    assert close(res.estimate, exp["mean"])
    assert close(res.details["variance"], exp["variance"])
    assert close(res.details["std_error"], exp["std_error"])
    res = paired_test(d, 0 * d, method="corrected_t", test_train_ratio=ratio)
    ci = res.confidence_interval()
    assert close(ci.low, exp["conf_int_95"][0]) and close(
        ci.high, exp["conf_int_95"][1]
    )
    naive = paired_test(d, 0 * d, method="t")
    assert close(naive.statistic, exp["naive_statistic"])
    assert close(naive.pvalue, exp["naive_p_two_sided"])


# ------------------------------------------------------------------- Wilcoxon
@pytest.mark.parametrize(
    "case_id", ["wilcoxon_exact_n9", "wilcoxon_exact_holte_c4_vs_1r"]
)
@pytest.mark.parametrize("exact", [None, True])
def test_wilcox_exact_matches_r(reference_cases, case_id, exact):
    """H: zero_method='wilcox' gives R's V and exact p for every alternative."""
    # R: wilcox.test(round(x - y, 10), alternative = ..., exact = TRUE, correct = FALSE)
    case = reference_cases[case_id]
    inp, exp = case["input"], case["expected"]
    for key, alternative in ALTS.items():
        res = paired_test(
            inp["x"],
            inp["y"],
            method="wilcoxon",
            zero_method="wilcox",
            exact=exact,
            alternative=alternative,
        )
        assert res.statistic == exp["V_statistic"]
        assert close(res.pvalue, exp["p_value"][key]), key
        assert res.details["exact"]


def test_demsar_holte_matches_reference(reference_cases):
    """H: Demsar R+, R-, T and z equal the hand computation; auto uses exact p."""
    # R: hand formula (cases.json wilcoxon_exact_holte_c4_vs_1r demsar_convention)
    case = reference_cases["wilcoxon_exact_holte_c4_vs_1r"]
    inp, exp = case["input"], case["expected"]
    dem = exp["demsar_convention"]
    res = paired_test(inp["x"], inp["y"], method="wilcoxon", exact=False)
    assert res.details["r_plus"] == dem["R_plus"]
    assert res.details["r_minus"] == dem["R_minus"]
    assert res.statistic == dem["T"] and res.n == dem["N_used"]
    assert close(res.details["z"], dem["z"])
    assert close(res.pvalue, dem["p_value_two_sided"])
    # no zero, no tie, N < 50: the exact distribution, equal to R's exact p
    auto = paired_test(inp["x"], inp["y"], method="wilcoxon")
    assert close(auto.pvalue, exp["p_value"]["two_sided"])


def test_wilcoxon_zeros_and_ties_match_reference(reference_cases):
    """H: with zeros and ties, wilcox equals R's normal approx.; demsar has
    Demšar's R+, R− and T and scipy's zsplit p on the 14 differences."""
    # R: wilcox.test(d, exact = FALSE, correct = FALSE); Demsar (2006) Sec. 3.1.3
    # prints R+ = 93, R- = 12, T = 12 for this comparison.
    case = reference_cases["wilcoxon_zeros_demsar_table6_c45m_vs_c45"]
    inp, exp = case["input"], case["expected"]
    for key, alternative in ALTS.items():
        res = paired_test(
            inp["x"],
            inp["y"],
            method="wilcoxon",
            zero_method="wilcox",
            exact=False,
            alternative=alternative,
        )
        assert res.statistic == exp["V_statistic"]
        assert close(res.pvalue, exp["p_value"][key]), key
    greater = paired_test(
        inp["x"],
        inp["y"],
        method="wilcoxon",
        zero_method="wilcox",
        alternative="greater",
    )  # exact=None: zeros and ties force the normal approximation, as in R
    assert close(greater.details["z"], exp["normal_approx"]["z"])
    assert greater.n == exp["normal_approx"]["n_nonzero"]
    dem = exp["demsar_convention"]
    res = paired_test(inp["x"], inp["y"], method="wilcoxon")
    assert (res.details["r_plus"], res.details["r_minus"]) == (93, 12)
    assert res.statistic == dem["T"] and res.n == dem["N_used"]
    assert res.details["n_zero_differences"] == dem["n_zero_differences"]
    assert res.details["one_zero_dropped"] is dem["one_zero_dropped"]
    # N = 14 with two zeros kept: scipy's zsplit normal approximation, whose
    # variance is Demšar's N(N+1)(2N+1)/24 less the tie term sum(t^3 - t)/48 of
    # the two zeros and the two |d| = 0.005 (the hand value has no tie term)
    d = np.round(np.subtract(inp["x"], inp["y"]), 10)
    ref = stats.wilcoxon(d, zero_method="zsplit", method="asymptotic")
    assert close(res.pvalue, ref.pvalue) and close(res.details["z"], ref.zstatistic)
    n = dem["N_used"]
    var = n * (n + 1) * (2 * n + 1) / 24
    assert close(res.details["z"] * math.sqrt(var - 12 / 48), dem["z"] * math.sqrt(var))


@pytest.mark.parametrize("zero_method", ["pratt", "zsplit", "wilcox"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("correction", [False, True])
def test_wilcoxon_asymptotic_matches_scipy(zero_method, alternative, correction):
    """H: with zeros and ties the normal approximation equals scipy.stats.wilcoxon."""
    d = np.array([0.0, 0.0, 0.0, 0.01, -0.02, 0.03, 0.03, 0.05, -0.01, 0.04, 0.02] * 2)
    res = paired_test(
        d,
        np.zeros_like(d),
        method="wilcoxon",
        zero_method=zero_method,
        alternative=alternative,
        correction=correction,
    )
    ref = stats.wilcoxon(
        d,
        zero_method=zero_method,
        alternative=alternative,
        correction=correction,
        method="asymptotic",
    )
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
    if zero_method != "wilcox":  # scipy's statistic; R's V for "wilcox"
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_wilcoxon_exact_matches_scipy(alternative):
    """H: without zeros and ties every zero_method gives scipy's exact p."""
    rng = np.random.default_rng(7)
    d = np.round(rng.normal(0.01, 0.03, 20), 4)
    ref = stats.wilcoxon(d, alternative=alternative, method="exact")
    for zero_method in ("demsar", "wilcox", "pratt", "zsplit"):
        res = paired_test(
            d,
            np.zeros(20),
            method="wilcoxon",
            zero_method=zero_method,
            alternative=alternative,
        )
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12), zero_method


def test_demsar_one_zero_issue_example():
    """H: (issue 37) with exactly one zero difference Demšar's rule drops it and
    the exact test of the 7 differences left gives scipy's p = 0.078125 (the
    code at 17a1a60 decided on the zero count before the drop and gave the
    normal approximation's 0.0630)."""
    d = np.array([0.01, -0.02, 0.03, 0.0, 0.04, 0.05, 0.015, 0.025])
    res = paired_test(d, np.zeros(8), method="wilcoxon")
    assert res.pvalue == pytest.approx(0.078125, rel=1e-12)
    assert res.pvalue == stats.wilcoxon(d[d != 0]).pvalue
    assert res.details["exact"] and res.details["one_zero_dropped"] and res.n == 7


@pytest.mark.parametrize("n", [8, 20])
@pytest.mark.parametrize("n_zero", [0, 1, 2, 3])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_demsar_is_scipy_on_the_differences_left(n, n_zero, ties, alternative):
    """H: for every zero pattern (none to three zeros, with and without ties,
    n = 8: exact or permutation null; n = 20: exact or normal) the Demšar
    Wilcoxon p equals scipy.stats.wilcoxon's (zsplit, method="auto") on the
    differences left once one zero of an odd number is dropped."""
    rng = np.random.default_rng(n + 10 * n_zero + 100 * ties)
    d = np.round(rng.normal(0.01, 0.02, n), 4)
    d[np.abs(d) < 1e-4] = 0.002  # no zero but the ones put in
    if ties:
        d[1] = -d[0]
    d[2 : 2 + n_zero] = 0.0
    x = 0.8 + d  # noisy differences: the rounding finds the zeros and ties
    res = paired_test(x, np.full(n, 0.8), method="wilcoxon", alternative=alternative)
    kept = np.delete(d, np.flatnonzero(d == 0)[:1]) if n_zero % 2 else d
    ref = stats.wilcoxon(kept, zero_method="zsplit", alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.n == kept.size and res.statistic == ref.statistic


def test_rounding_makes_float_noise_ties():
    """H: differences equal to 10 decimals tie and zero although x - y has noise:
    the test is scipy's on the rounded differences (one zero and two ties: the
    exact conditional distribution of 2^5 sign flips)."""
    x = np.array([0.3, 0.7, 0.5, 0.9, 0.6])
    y = np.array([0.1, 0.5, 0.5, 0.6, 0.3])  # d = 0.2, 0.2, 0, 0.3, 0.3 (noisy)
    assert len(set((x - y).tolist())) > 3  # float noise breaks the ties
    res = paired_test(x, y, method="wilcoxon", zero_method="wilcox", exact=True)
    ref = stats.wilcoxon([0.2, 0.2, 0.0, 0.3, 0.3])
    assert res.details["exact"] and res.details["n_zero_differences"] == 1
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.statistic == 10.0  # R's V: ranks 1.5 + 1.5 + 3.5 + 3.5 of |d| > 0


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_exact_true_with_ties_is_the_exact_conditional_test(alternative):
    """H: exact=True with ties and zeros gives the exact distribution of R+ over
    all 2^n sign flips given the mid-ranks (coin's exact wilcoxsign_test), here
    enumerated by brute force for n = 14 (beyond scipy's 13), for every zero
    method; up to 13 pairs it is also scipy's default (its permutation
    distribution)."""
    d = np.array([1, 1, 2, 2, 3, -1, 4, 5, 0, 7, 8, -9, 10, 0.0])
    signs = 1 - 2 * ((np.arange(2**14)[:, None] >> np.arange(14)) & 1)
    for zero_method, kept in [
        ("wilcox", d[d != 0]),
        ("zsplit", d),
        ("pratt", d),
        ("demsar", d),
    ]:
        res = paired_test(
            d, 0 * d, method="wilcoxon", exact=True, zero_method=zero_method,
            alternative=alternative,
        )  # fmt: skip
        ranks = stats.rankdata(np.abs(kept))
        flips = signs[: 2**kept.size, : kept.size] * np.sign(kept)
        r_plus = ((flips > 0) * ranks).sum(axis=1)  # zeros: a constant share
        obs = r_plus[0]
        less, greater = np.mean(r_plus <= obs), np.mean(r_plus >= obs)
        expected = {"less": less, "greater": greater}.get(
            alternative, min(1.0, 2 * min(less, greater))
        )
        assert res.pvalue == pytest.approx(expected, rel=1e-12), zero_method
        assert res.details["exact"]
    small = np.delete(d, 8)[:12]  # ties, no zero
    res = paired_test(small, 0 * small, method="wilcoxon", alternative=alternative)
    ref = stats.wilcoxon(small, zero_method="zsplit", alternative=alternative)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_hodges_lehmann_interval_inverts_the_test():
    """H: the Wilcoxon interval bounds are where scipy's exact test flips at alpha."""
    rng = np.random.default_rng(11)
    d = np.round(rng.normal(0.02, 0.03, 15), 4)
    res = paired_test(d, np.zeros(15), method="wilcoxon")
    ci = res.confidence_interval(0.95)
    eps = 1e-7

    def p(mu):
        return stats.wilcoxon(d - mu, method="exact").pvalue

    assert p(ci.low + eps) > 0.05 and p(ci.high - eps) > 0.05
    assert p(ci.low - eps) <= 0.05 and p(ci.high + eps) <= 0.05
    walsh = [(d[i] + d[j]) / 2 for i in range(15) for j in range(i, 15)]
    assert res.estimate == pytest.approx(np.median(walsh), rel=1e-12)


# ------------------------------------------------------------------ sign test
@pytest.mark.parametrize(
    "case_id", ["sign_test_demsar_c45m_vs_c45", "sign_test_riddle_5_0_4"]
)
def test_sign_matches_reference(reference_cases, case_id):
    """H: ties split (odd one dropped), p equals R's binom.test of the adjusted wins."""
    # R: binom.test(wins_adjusted, n_used, 0.5)$p.value
    case = reference_cases[case_id]
    inp, exp = case["input"], case["expected"]
    d = [0.1] * inp["wins"] + [-0.1] * inp["losses"] + [0.0] * inp["ties"]
    res = paired_test(d, np.zeros(len(d)), method="sign")
    assert res.details["wins_adjusted"] == exp["wins_adjusted"]
    assert res.details["losses_adjusted"] == exp["losses_adjusted"]
    assert res.n == exp["n_used"]
    assert res.details["tie_dropped"] is exp["tie_dropped"]
    assert close(res.pvalue, exp["p_value"])
    assert close(res.details["z"], exp["z_normal_approx"])
    no_ties = paired_test(
        d[: inp["wins"] + inp["losses"]],
        [0] * (inp["wins"] + inp["losses"]),
        method="sign",
    )
    assert close(no_ties.pvalue, exp["p_value_ties_discarded"])


def test_sign_odd_ties_and_scipy():
    """H: an odd number of ties drops one; p equals scipy.stats.binomtest."""
    d = [1, 1, 1, 1, -1, 0, 0, 0]
    for alternative in ("two-sided", "greater", "less"):
        res = paired_test(d, [0] * 8, method="sign", alternative=alternative)
        ref = stats.binomtest(5, 7, alternative=alternative)  # 4 + 1 wins of 7
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        assert res.details["tie_dropped"]


def test_sign_interval_inverts_binomial_test():
    """H: the median interval has the binomial order-statistic coverage."""
    d = np.arange(1, 21) / 100.0
    res = paired_test(d, np.zeros(20), method="sign")
    ci = res.confidence_interval(0.95)
    # [d_(k), d_(n-k+1)] with k = 6: 1 - 2 P(B <= 5) = 0.9586 >= 0.95 (k = 7 fails)
    assert (
        1 - 2 * stats.binom.cdf(5, 20, 0.5)
        >= 0.95
        > 1 - 2 * stats.binom.cdf(6, 20, 0.5)
    )
    assert (ci.low, ci.high) == (d[5], d[14])


# ----------------------------------------------------------- permutation test
def test_permutation_exact_matches_reference(reference_cases):
    """H: exact enumeration gives coin's exact p-values for every alternative."""
    # R: coin::symmetry_test(..., distribution = "exact") and full enumeration
    case = reference_cases["perm_paired_n8"]
    inp, exp = case["input"], case["expected"]
    for key, alternative in ALTS.items():
        res = paired_test(
            inp["x"], inp["y"], method="permutation", alternative=alternative
        )
        assert close(res.pvalue, exp["p_value"][key]), key
        assert res.details["n_sign_vectors"] == exp["n_sign_vectors"]
        assert res.pvalue_standard_error == 0
    assert close(res.statistic, exp["sum_d"]) and close(res.estimate, exp["mean_d"])


def test_permutation_monte_carlo_within_error(reference_cases):
    """H: the Monte Carlo p is within 4 standard errors of the exact and coin's MC p."""
    case = reference_cases["perm_paired_n8"]
    inp, exp = case["input"], case["expected"]
    res = paired_test(
        inp["x"],
        inp["y"],
        method="permutation",
        exact=False,
        n_resamples=20000,
        random_state=0,
    )
    se = res.pvalue_standard_error
    assert se == pytest.approx(math.sqrt(res.pvalue * (1 - res.pvalue) / 20000))
    assert abs(res.pvalue - exp["p_value"]["two_sided"]) < 4 * se
    coin = exp["coin_approximate_1e5"]
    assert abs(res.pvalue - coin["two_sided"]) < 4 * math.hypot(
        se, coin["mc_standard_error"]
    )


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_permutation_matches_scipy(alternative):
    """H: equals scipy.stats.permutation_test (samples, exact) on the sum of d."""
    rng = np.random.default_rng(5)
    d = np.round(rng.normal(0.01, 0.02, 10), 3)
    ref = stats.permutation_test(
        (d,),
        lambda z, axis: np.sum(z, axis=axis),
        permutation_type="samples",
        alternative=alternative,
        n_resamples=np.inf,
    )
    res = paired_test(d, np.zeros(10), method="permutation", alternative=alternative)
    # scipy's two-sided p is 2 min(P(S* <= S), P(S* >= S)); with a symmetric null
    # this equals P(|S*| >= |S|) unless S = 0.
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_permutation_large_n_monte_carlo():
    """H: n = 250 uses Monte Carlo, reproducible by seed, p near scipy's."""
    rng = np.random.default_rng(1)
    d = rng.normal(0.003, 0.05, 250)
    a = paired_test(d, 0 * d, method="permutation", n_resamples=4000, random_state=3)
    b = paired_test(d, 0 * d, method="permutation", n_resamples=4000, random_state=3)
    assert a.pvalue == b.pvalue and not a.details["exact"]
    ref = stats.permutation_test(
        (d,),
        lambda z, axis: np.sum(z, axis=axis),
        permutation_type="samples",
        n_resamples=4000,
        rng=1,
    )
    se = math.hypot(
        a.pvalue_standard_error, math.sqrt(ref.pvalue * (1 - ref.pvalue) / 4000)
    )
    assert abs(a.pvalue - ref.pvalue) < 4 * se


def test_permutation_interval_is_bootstrap():
    """H: the permutation result's interval is the BCa bootstrap of mean(d)."""
    from sklearn_bench.stats import bootstrap_ci

    d = np.array([0.017, -0.007, 0.024, 0.018, -0.005, 0.027, 0.007, 0.023])
    res = paired_test(d, 0 * d, method="permutation", random_state=2)
    assert tuple(res.confidence_interval()) == tuple(bootstrap_ci(d, random_state=2))


# ---------------------------------------------------------------- edge cases
ALL_METHODS = [
    ("t", {}),
    ("corrected_t", {"test_train_ratio": 0.25}),
    ("wilcoxon", {}),
    ("wilcoxon", {"zero_method": "wilcox"}),
    ("wilcoxon", {"zero_method": "pratt"}),
    ("wilcoxon", {"zero_method": "zsplit"}),
    ("sign", {}),
    ("permutation", {}),
]


T_FAMILY = ALL_METHODS[:2]
RANK_AND_PERMUTATION = ALL_METHODS[2:]


@pytest.mark.parametrize("method, kwargs", RANK_AND_PERMUTATION)
def test_all_differences_zero(method, kwargs):
    """H: identical x and y give the exact p = 1, a zero estimate and the
    interval [0, 0] for the rank, sign and permutation tests."""
    # Every sign flip / signed-rank arrangement of zeros gives the observed
    # statistic: the null distribution is a point mass, p = 1 exactly.
    x = [0.8, 0.7, 0.9, 0.75]
    res = paired_test(x, x, method=method, **kwargs)
    assert res.pvalue == 1.0 and res.estimate == 0.0
    if method == "permutation" or kwargs.get("zero_method") == "wilcox":
        # BCa of a constant, or every zero dropped (n = 0): the point 0
        ci = res.confidence_interval()
        assert ci.low == 0 and ci.high == 0
    else:
        # n = 4 cannot reach 95% with a rank interval: the whole line, level 1
        with pytest.warns(UserWarning, match="no finite"):
            ci = res.confidence_interval()
        assert (ci.low, ci.high) == (-np.inf, np.inf)
        assert ci.confidence_level == 1.0


@pytest.mark.parametrize("method, kwargs", T_FAMILY)
@pytest.mark.parametrize("shift", [0.0, 0.05, -0.1])
def test_t_family_refuses_constant_differences(method, kwargs, shift):
    """H: the t-tests raise a ValueError naming both samples on zero-spread
    differences, zero or not (R's t.test: 'data are essentially constant'),
    instead of t = ±inf, p = 0 and a zero-width interval."""
    x = np.array([0.8, 0.7, 0.9, 0.75])
    # x + shift - x carries floating-point noise: still constant
    with pytest.raises(ValueError, match="essentially constant") as info:
        paired_test(x + shift, x, method=method, labels=("e(A)", "e(B)"), **kwargs)
    text = str(info.value)
    assert "e(A) − e(B)" in text
    assert ("all zero" in text) == (shift == 0)
    assert "method='sign', 'wilcoxon' or 'permutation'" in text


_DEGENERATE_R = json.loads(
    (Path(__file__).parent / "reference" / "paired_degenerate.json").read_text()
)


@pytest.mark.parametrize("case", _DEGENERATE_R, ids=lambda c: c["id"])
def test_constant_abs_differences_match_r(case):
    """H: on constant |d| the sign, Wilcoxon and permutation tests give R's exact
    p-values (binom.test, coin's exact wilcoxsign_test, 2^n sign vectors), and
    t.test's refusal is ours."""
    # tests/stats/reference/paired_degenerate.R (R 4.2.2, coin)
    x, y = np.array(case["x"]), np.array(case["y"])
    sign = paired_test(x, y, method="sign")
    assert sign.pvalue == pytest.approx(case["binom_test"], rel=1e-12)
    for zero_method in ("demsar", "wilcox", "pratt", "zsplit"):
        for alt, key in (
            ("two-sided", "coin_exact_two_sided"),
            ("less", "coin_exact_less"),
            ("greater", "coin_exact_greater"),
        ):
            res = paired_test(
                x, y, method="wilcoxon", zero_method=zero_method, alternative=alt
            )
            assert res.pvalue == pytest.approx(case[key], rel=1e-12)
            assert res.details["exact"] is True
    perm = paired_test(x, y, method="permutation")
    assert perm.pvalue == pytest.approx(case["permutation_two_sided"], rel=1e-12)
    assert perm.pvalue_standard_error == 0.0
    less = paired_test(x, y, method="permutation", alternative="less")
    assert less.pvalue == pytest.approx(case["permutation_less"], rel=1e-12)
    d = np.round(x - y, 10)
    if np.ptp(d) == 0:
        assert case["t_test_error"] == "data are essentially constant"
        with pytest.raises(ValueError, match=case["t_test_error"]):
            paired_test(x, y)
    else:  # constant |d| with mixed signs has a spread: t is defined
        assert case["t_test_error"] == ""
        assert np.isfinite(paired_test(x, y).statistic)


def test_constant_differences_issue_example():
    """H: the issue's paired_test(x, x + 0.05): t refuses; sign, Wilcoxon and
    permutation give the exact p = 2^(1-n) two-sided, 2^-n one-sided; the
    sign and Hodges-Lehmann intervals are [-0.05, -0.05] (order statistics of
    a constant sample, valid for any distribution); the permutation test's
    BCa bootstrap interval is the same point."""
    x = np.array([0.81, 0.77, 0.85, 0.79, 0.80, 0.77, 0.85, 0.82, 0.90, 0.74])
    y = x + 0.05
    with pytest.raises(ValueError, match="constant"):
        paired_test(x, y)
    for method in ("sign", "wilcoxon", "permutation"):
        res = paired_test(x, y, method=method, random_state=0)
        assert res.pvalue == pytest.approx(2.0**-9, rel=1e-12)
        assert np.isfinite(res.statistic)
        res_less = paired_test(x, y, method=method, alternative="less")
        assert res_less.pvalue == pytest.approx(2.0**-10, rel=1e-12)
        ci = res.confidence_interval()
        assert ci.low == pytest.approx(-0.05) and ci.high == pytest.approx(-0.05)
        one = res_less.confidence_interval()
        assert one.low == -np.inf and one.high == pytest.approx(-0.05)


def test_constant_differences_large_n_permutation_is_exact():
    """H: beyond the enumeration limit (n = 40) constant differences still get
    the exact sign-flip p = 2^(1-n), not a Monte Carlo floor 1/(R + 1)."""
    x = np.linspace(0.6, 0.9, 40)
    res = paired_test(x, x - 0.01, method="permutation", n_resamples=999)
    assert res.pvalue == pytest.approx(2.0**-39, rel=1e-12)
    assert res.pvalue_standard_error == 0.0 and res.details["exact"] is True


def test_constant_differences_forced_normal_wilcoxon():
    """H: exact=False keeps the normal approximation on constant differences
    (R's wilcox.test with ties), so the exact answer is only the default."""
    x = np.array([0.81, 0.77, 0.85, 0.79, 0.80, 0.77, 0.85, 0.82, 0.90, 0.74])
    res = paired_test(x, x + 0.05, method="wilcoxon", zero_method="wilcox", exact=False)
    # V = 0, mean 27.5, var = 10*11*21/24 - (10^3 - 10)/48 (tie correction)
    z = -27.5 / np.sqrt(10 * 11 * 21 / 24 - 990 / 48)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-12)


def test_n_equal_one():
    """H: n = 1 raises for t-tests and gives p = 1 (two-sided) otherwise."""
    with pytest.raises(ValueError, match="at least 2 pairs"):
        paired_test([0.9], [0.8], method="t")
    for method, kwargs in ALL_METHODS[2:]:
        assert paired_test([0.9], [0.8], method=method, **kwargs).pvalue == 1.0


def test_ties_everywhere():
    """H: all |d| tied: Wilcoxon's exact conditional p is the sign test's
    (binomial), and with exact=False scipy's normal approximation."""
    d = np.array([0.05, 0.05, -0.05, 0.05, 0.05, 0.05, -0.05, 0.05, 0.05, 0.05])
    res = paired_test(d, 0 * d, method="wilcoxon", zero_method="wilcox")
    assert res.pvalue == pytest.approx(stats.binomtest(8, 10).pvalue, rel=1e-12)
    assert res.statistic == 8 * 5.5
    res = paired_test(d, 0 * d, method="wilcoxon", zero_method="wilcox", exact=False)
    ref = stats.wilcoxon(d, method="asymptotic", correction=False)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    sign = paired_test(d, 0 * d, method="sign")
    assert sign.pvalue == pytest.approx(stats.binomtest(8, 10).pvalue, rel=1e-12)
    perm = paired_test(d, 0 * d, method="permutation")
    # S = 0.3 = 6 * 0.05: P(|#plus - #minus| >= 6) over 2^10 sign vectors
    k = np.arange(11)
    expected = stats.binom.pmf(k, 10, 0.5)[np.abs(2 * k - 10) >= 6].sum()
    assert perm.pvalue == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    "x, y, kwargs, match",
    [
        ([0.1, np.nan], [0.2, 0.3], {}, "NaN"),
        ([0.1, 0.2], [0.2, 0.3, 0.4], {}, "same length"),
        ([], [], {}, "empty"),
        ([0.1, np.inf], [0.2, 0.3], {}, "finite"),
        ([0.1, 0.2], [0.2, 0.3], {"method": "ttest"}, "`method`"),
        ([0.1, 0.2], [0.2, 0.3], {"alternative": "larger"}, "`alternative`"),
        ([0.1, 0.2], [0.2, 0.3], {"method": "corrected_t"}, "`test_train_ratio`"),
        (
            [0.1, 0.2],
            [0.2, 0.3],
            {"method": "wilcoxon", "zero_method": "x"},
            "`zero_method`",
        ),
        (
            [0.1, 0.2],
            [0.2, 0.3],
            {"method": "permutation", "n_resamples": 0},
            "`n_resamples`",
        ),
        ([0.1, 0.2], [0.2, 0.3], {"exact": "yes"}, "`exact`"),
    ],
)
def test_invalid_input_raises(x, y, kwargs, match):
    """H: NaN, unequal lengths and bad options raise a ValueError naming them."""
    with pytest.raises(ValueError, match=match):
        paired_test(x, y, **kwargs)


def test_result_is_frozen_and_exports():
    """H: the result is immutable, states H0 in words and exports one row."""
    res = paired_test(
        [0.2, 0.3, 0.25],
        [0.25, 0.36, 0.3],
        alternative="less",
        labels=("e(A)", "e(B)"),
    )
    assert isinstance(res, PairedTestResult)
    assert res.null_hypothesis == "H0: mean of e(A) − e(B) >= 0"
    with pytest.raises(AttributeError):
        res.pvalue = 0.5
    frame = res.to_frame()
    assert frame.shape[0] == 1 and frame.loc[0, "ci_low"] == -np.inf
    assert list(frame.columns[:7]) == [
        "method",
        "alternative",
        "n",
        "estimate",
        "ci_low",
        "ci_high",
        "confidence_level",
    ]


def test_hodges_lehmann_interval_large_n_normal_quantile():
    """H: for n >= 50 the interval bounds are where scipy's asymptotic test flips."""
    rng = np.random.default_rng(2)
    d = np.round(rng.normal(0.01, 0.03, 60), 5)
    ci = paired_test(d, 0 * d, method="wilcoxon").confidence_interval()

    def p(mu):
        return stats.wilcoxon(d - mu, method="asymptotic").pvalue

    eps = 1e-9
    assert p(ci.low - eps) < 0.05 <= p(ci.low + eps)
    assert p(ci.high + eps) < 0.05 <= p(ci.high - eps)


@pytest.mark.parametrize("method, kwargs", ALL_METHODS)
def test_swapping_x_and_y_swaps_the_one_sided_pvalues(method, kwargs):
    """H: p(x, y, 'greater') == p(y, x, 'less') and two-sided p is symmetric."""
    x = np.array([0.81, 0.77, 0.85, 0.79, 0.80, 0.77, 0.85, 0.82, 0.9, 0.7])
    y = np.array([0.80, 0.78, 0.83, 0.77, 0.81, 0.74, 0.84, 0.80, 0.88, 0.72])
    for a, b in (("greater", "less"), ("two-sided", "two-sided")):
        p1 = paired_test(x, y, method=method, alternative=a, **kwargs).pvalue
        p2 = paired_test(y, x, method=method, alternative=b, **kwargs).pvalue
        assert p1 == pytest.approx(p2, rel=1e-12)


def test_permutation_exact_refuses_huge_enumeration():
    """H: exact=True with n > 30 raises instead of enumerating 2**n vectors."""
    with pytest.raises(ValueError, match="`exact=True`"):
        paired_test(np.arange(31.0), np.zeros(31), method="permutation", exact=True)


def test_hodges_lehmann_by_selection_equals_the_sorted_walsh_averages():
    """H: the Hodges-Lehmann interval and estimate, found by selection
    (np.partition) on unsorted Walsh averages, equal the order statistics and the
    median of the sorted Walsh averages exactly, for n from 0 to 333 (exact and
    normal-approximation quantiles), rounded data with ties and several tails."""
    from sklearn_bench.stats import _paired as P

    def sorted_interval(d, tail):
        n = d.size
        if n == 0:
            return 0.0, 0.0, 0.0
        i, j = np.triu_indices(n)
        w = np.sort((d[i] + d[j]) / 2)
        m = w.size
        if n > 50:
            q = max(P._signrank_quantile(tail, n), 1)
            return w[q - 1], w[m - q], tail
        cdf = P._signrank_cdf_table(n)
        q = int(np.searchsorted(cdf, tail + 10 * np.finfo(float).eps, side="right"))
        if q == 0:
            return -np.inf, np.inf, 0.0
        return w[q - 1], w[m - q], float(cdf[q - 1])

    rng = np.random.default_rng(0)
    for n in [0, 1, 2, 3, 4, 7, 20, 49, 50, 51, 120, 333]:
        for _ in range(5):
            d = np.round(rng.normal(size=n), int(rng.integers(1, 6)))
            for tail in (0.005, 0.025, 0.05, 0.1, 0.25):
                assert P._hodges_lehmann(d, tail)[1:] == sorted_interval(d, tail)
            if n:
                assert np.median(P._walsh_averages(d, sort=False)) == np.median(
                    P._walsh_averages(d)
                )


@pytest.mark.parametrize("seed", range(6))
def test_walsh_selection_from_sorted_differences_equals_partition(seed):
    """H: from _WALSH_SELECT_FROM differences on, the Hodges-Lehmann estimate and
    interval are found from the sorted differences (a sampled bracket, exact runs
    of columns) and are the very floats of the partition of all Walsh averages
    (np.median, np.partition: the code before), bit for bit, for n from 100
    to 700, rounded data with heavy ties, many zero differences (negative zeros
    included), constant shifts and several tails; and the fast path is taken."""
    from sklearn_bench.stats import _paired as P

    rng = np.random.default_rng(seed)
    taken = 0
    for n in [100, 101, 150, 333, 500, 700]:
        for decimals in [1, 2, 3, 10]:
            d = np.round(rng.normal(0.005 * seed, 0.02 * (1 + seed), n), decimals)
            if seed % 3 == 2:
                d[: n // 3] = 0.0
            if seed == 5:
                d[: n // 4] = -0.0  # negative zeros: a zero median or bound falls back
            m = n * (n + 1) // 2
            w = P._walsh_averages(d, sort=False)
            expected = np.median(w)
            got = P._hodges_lehmann(d)[0]
            assert np.asarray(got).tobytes() == np.asarray(expected).tobytes()
            ks = [0, 1, m // 3, m - 2, m - 1, int(rng.integers(m))]
            fast = P._walsh_order_statistics(d[None], ks)[0]
            taken += not np.isnan(fast).any()
            if not np.isnan(fast).any():
                assert fast.tobytes() == np.partition(w, ks)[ks].tobytes()
            for tail in (0.005, 0.025, 0.05, 0.25):
                q = max(P._signrank_quantile(tail, n), 1)
                low, high = np.partition(w, [q - 1, m - q])[[q - 1, m - q]]
                _, got_low, got_high, _ = P._hodges_lehmann(d, tail)
                assert np.float64(got_low).tobytes() == np.float64(low).tobytes()
                assert np.float64(got_high).tobytes() == np.float64(high).tobytes()
    assert taken >= 6


def test_walsh_selection_of_a_batch_equals_each_row_and_the_partition():
    """H: a batch of rows (one length) gets, row by row, the very floats the
    partition of all its Walsh averages gives (order statistics, median,
    Hodges-Lehmann interval), bit for bit, and NaN exactly where one row alone
    falls back (a zero order statistic with negative zeros); rows of heavy ties,
    zeros and constant rows included."""
    from sklearn_bench.stats import _paired as P

    rng = np.random.default_rng(11)
    n = 240
    d = np.round(rng.normal(0.003, 0.02, (9, n)), 3)
    d[1, : n // 3] = 0.0
    d[2] = 0.25  # constant
    d[3, : n // 2] = -0.0  # negative zeros: the zero median falls back
    d[4] = np.round(d[4], 1)  # few distinct values
    m = n * (n + 1) // 2
    ks = [0, 7, m // 2 - 1, m // 2, m - 3, m - 1]
    batch = P._walsh_order_statistics(d, ks)
    assert batch.shape == (9, len(ks))
    for row, got in zip(d, batch, strict=True):
        alone = P._walsh_order_statistics(row[None], ks)[0]
        if np.isnan(alone).any():
            assert np.isnan(got).all()
        else:
            assert got.tobytes() == alone.tobytes()
            expected = np.partition(P._walsh_averages(row, sort=False), ks)[ks]
            assert got.tobytes() == expected.tobytes()
    assert np.isnan(batch[3]).all() and (~np.isnan(batch).any(axis=1)).sum() >= 6
    medians = P._hodges_lehmann(d)[0]
    for tail in (0.005, 0.025):
        _, low, high, achieved = P._hodges_lehmann(d, tail, estimate=False)
        for r, row in enumerate(d):
            w = P._walsh_averages(row, sort=False)
            assert np.float64(medians[r]).tobytes() == np.median(w).tobytes()
            assert (low[r], high[r], achieved) == P._hodges_lehmann(row, tail)[1:]


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(100, 240),
    decimals=st.integers(1, 8),
    zeros=st.integers(0, 3),
    seed=st.integers(0, 2**32 - 1),
)
def test_walsh_selection_is_the_partition_for_any_differences(n, decimals, zeros, seed):
    """H: for any differences (few decimals: heavy ties; a share of zeros, some
    of them negative; a shifted centre) and ranks anywhere (the ends, the
    middle, the Hodges-Lehmann bounds), every rank the bracketed selection finds
    is the float the partition of all Walsh averages puts there, bit for bit,
    and _walsh_ranks (which partitions where the selection gives up) always is;
    the selection gives up on few rows."""
    from sklearn_bench.stats import _paired as P

    rng = np.random.default_rng(seed)
    scale = 10.0 ** rng.uniform(-3, 0)
    d = np.round(rng.normal(rng.normal(0, scale / 2), scale, (4, n)), decimals)
    d[:, : zeros * n // 8] = 0.0
    d[0, : zeros * n // 16] = -0.0
    m = n * (n + 1) // 2
    q = max(P._signrank_quantile(0.025, n), 1)
    ks = [q - 1, m // 2, m - q, 0, m - 1, int(rng.integers(m))]
    fast = P._walsh_order_statistics(d, ks)
    gave_up = 0
    for row, got, ranks in zip(d, fast, P._walsh_ranks(d, ks).T, strict=True):
        expected = np.partition(P._walsh_averages(row, sort=False), ks)[ks]
        found = ~np.isnan(got)
        assert got[found].tobytes() == expected[found].tobytes()
        signed_zero = (expected == 0).any() and np.signbit(row[row == 0]).any()
        assert ranks.tobytes() == expected.tobytes() or signed_zero
        gave_up += not found.all() and not signed_zero
    assert gave_up <= 1


# ------------------------------------------------------------ batches (axis)
_rng = np.random.default_rng(2024)
N, M = 12, 5
REFERENCE = _rng.normal(0.2, 0.03, N)
OTHERS = REFERENCE[:, None] + _rng.normal(0.01, 0.02, (N, M))


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("ratio", [None, 0.25])
def test_t_batch_equals_paired_test_column_by_column(alternative, ratio):
    """H: every column of a batch is paired_test's t (or corrected t) of that
    pair, to the last bit: statistic, p-value, estimate and interval; and the
    plain t of the batch is scipy.stats.ttest_rel's, bit for bit."""
    method = "t" if ratio is None else "corrected_t"
    res = paired_test(
        OTHERS,
        REFERENCE[:, None],
        method=method,
        alternative=alternative,
        test_train_ratio=ratio,
    )
    ci = res.confidence_interval(0.9)
    assert res.method == method and res.df == N - 1 and res.n == N
    assert res.pvalue.shape == ci.low.shape == (M,) and ci.confidence_level == 0.9
    for j in range(M):
        one = paired_test(
            OTHERS[:, j],
            REFERENCE,
            method=method,
            alternative=alternative,
            test_train_ratio=ratio,
        )
        one_ci = one.confidence_interval(0.9)
        assert res.statistic[j] == one.statistic and res.pvalue[j] == one.pvalue
        assert res.estimate[j] == one.estimate
        assert (ci.low[j], ci.high[j]) == (one_ci.low, one_ci.high)
    if ratio is None:
        ref = stats.ttest_rel(OTHERS, REFERENCE[:, None], alternative=alternative)
        np.testing.assert_array_equal(res.pvalue, ref.pvalue)
        np.testing.assert_array_equal(res.statistic, ref.statistic)


def test_t_batch_axis_and_broadcasting():
    """H: the pairs may run along any axis; the result does not depend on it."""
    along_0 = paired_test(OTHERS, REFERENCE[:, None])
    along_1 = paired_test(OTHERS.T, REFERENCE[None, :], axis=1)
    along_last = paired_test(OTHERS.T, REFERENCE, axis=-1)
    for other in (along_1, along_last):
        np.testing.assert_array_equal(other.pvalue, along_0.pvalue)
        np.testing.assert_array_equal(other.estimate, along_0.estimate)
    one_d = paired_test(OTHERS[:, 0], REFERENCE)
    assert isinstance(one_d.pvalue, float) and one_d.pvalue == along_0.pvalue[0]


def test_t_batch_constant_differences_are_nan():
    """H: in a batch, a comparison with constant differences (where one pair
    raises) has NaN statistic, p-value and interval; the others are unaffected."""
    x = np.column_stack([REFERENCE + 0.05, OTHERS[:, 0]])
    res = paired_test(x, REFERENCE[:, None])
    ci = res.confidence_interval()
    assert np.isnan([res.statistic[0], res.pvalue[0], ci.low[0], ci.high[0]]).all()
    assert res.pvalue[1] == paired_test(OTHERS[:, 0], REFERENCE).pvalue
    with pytest.raises(ValueError, match="constant"):
        paired_test(REFERENCE + 0.05, REFERENCE)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"x": [[1.0, np.nan], [2.0, 3.0]], "y": [[0.0], [1.0]]}, ValueError, "NaN"),
        ({"x": np.ones((3, 4)), "y": np.ones((3, 2))}, ValueError, "broadcast"),
        ({"x": np.ones((3, 4)), "y": np.ones((2, 4))}, ValueError, "same length"),
        ({"x": np.ones((1, 3)), "y": np.zeros((1, 3))}, ValueError, "at least 2"),
        ({"axis": 2}, ValueError, "`axis`"),
        ({"axis": 0.5}, TypeError, "`axis`"),
        ({"method": "sign"}, ValueError, "one pair at a time"),
    ],
)
def test_t_batch_invalid_input(kwargs, error, match):
    """H: bad arrays or axis, and a batch for a test of one pair, raise an error
    naming them."""
    args = {"x": OTHERS, "y": REFERENCE[:, None], **kwargs}
    with pytest.raises(error, match=match):
        paired_test(args.pop("x"), args.pop("y"), **args)


def test_t_batch_to_frame_has_one_row_per_comparison():
    """H: a batch's to_frame has one row per comparison with that pair's
    estimate, interval and p-value; effect sizes are for one pair (NaN here, a
    ValueError from effect_size)."""
    res = paired_test(OTHERS, REFERENCE[:, None])
    frame = res.to_frame()
    assert len(frame) == M and frame["effect_size_estimate"].isna().all()
    one = paired_test(OTHERS[:, 3], REFERENCE).to_frame()
    for column in ("estimate", "ci_low", "ci_high", "pvalue", "statistic"):
        assert frame.loc[3, column] == one.loc[0, column]
    with pytest.raises(ValueError, match="one comparison"):
        _ = res.effect_size


@pytest.mark.parametrize("n", [9, 30, 120])
@pytest.mark.parametrize("zero_method", ["demsar", "wilcox", "pratt"])
@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
def test_wilcoxon_batch_equals_the_one_pair_test(n, zero_method, alternative):
    """H: every comparison of a Wilcoxon batch (pairs along axis 0 and along
    axis 1) is paired_test of that pair alone to the last bit: statistic,
    p-value, Hodges-Lehmann estimate, n, details, interval and its achieved
    level, effect size; with rows of one zero (Demšar drops it: rows of two
    lengths), ties (the conditional or the normal null), all zeros, and rows
    scipy tests exactly, in one call per length and null distribution."""
    rng = np.random.default_rng(n)
    x = np.round(rng.normal(0.2, 0.02, (n, 6)), 3 if n > 9 else 6)
    y = np.round(x + rng.normal(0.005, 0.01, (n, 6)), 3 if n > 9 else 6)
    y[0, 1] = x[0, 1]  # one zero
    y[:, 2] = x[:, 2]  # all zero
    y[:3, 3] = x[:3, 3]  # three zeros
    kw = {"method": "wilcoxon", "zero_method": zero_method}
    kw["alternative"] = alternative
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = paired_test(x, y, **kw)
        rows = paired_test(x.T, y.T, axis=1, **kw)
        ci = res.confidence_interval(0.9)
    np.testing.assert_array_equal(rows.pvalue, res.pvalue)
    assert res.pvalue.shape == (6,) and res.to_frame().shape[0] == 6
    for j in range(6):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            one = paired_test(x[:, j], y[:, j], **kw)
            alone = one.confidence_interval(0.9)
        level = np.broadcast_to(ci.confidence_level, (6,))[j]
        # assert_equal: exact, NaN equal to NaN (an all-zero row's effect size)
        np.testing.assert_equal(
            (res.statistic[j], res.pvalue[j], res.estimate[j], res.n[j]),
            (one.statistic, one.pvalue, one.estimate, one.n),
        )
        np.testing.assert_equal(
            {key: value[j] for key, value in res.details.items()}, one.details
        )
        np.testing.assert_equal(
            (ci.low[j], ci.high[j], level), (*alone, alone.confidence_level)
        )
        sums = (res.details[key][j] for key in ("r_plus", "r_minus", "n_used"))
        mine, theirs = _rank_biserial(*sums), one.effect_size  # pairwise_tests'
        np.testing.assert_equal(
            (mine.name, mine.estimate), (theirs.name, theirs.estimate)
        )
    with pytest.raises(ValueError, match="one comparison"):
        _ = res.effect_size


# ------------------------------------------------------------------ 5x2cv tests
# Dietterich's 5×2cv t and Alpaydin's combined 5×2cv F against their formulas
# and against mlxtend on the same splits.
def _by_hand(p):
    """Dietterich (1998) eq. (9) and Alpaydin (1999) eq. (1), written out."""
    s2 = [(p[i, 0] - p[i].mean()) ** 2 + (p[i, 1] - p[i].mean()) ** 2 for i in range(5)]
    t = p[0, 0] / np.sqrt(sum(s2) / 5)
    f = sum(p[i, j] ** 2 for i in range(5) for j in range(2)) / (2 * sum(s2))
    return t, f


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_five_by_two_equals_the_formulas(seed):
    """H: statistic and p-value equal the formulas by hand (t with 5 df, F with
    (10, 5) df) to 1e-12, for random fold scores; the t interval is
    p11 ± t_{5, 0.975} sqrt(Σ s_i²/5)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.1, 0.3, (5, 2))
    y = x + rng.normal(0.01, 0.02, (5, 2))
    t, f = _by_hand(x - y)
    res = paired_test(x, y, method="5x2cv")
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-12)
    assert (res.df, res.n, res.method) == (5, 10, "5x2cv")
    assert res.estimate == (x - y)[0, 0]
    se = (x - y)[0, 0] / t
    ci = res.confidence_interval(0.95)
    q = stats.t.isf(0.025, 5)
    assert ci == pytest.approx((res.estimate - q * se, res.estimate + q * se))
    less = paired_test(x, y, method="5x2cv", alternative="less")
    assert less.pvalue == pytest.approx(stats.t.cdf(t, 5), rel=1e-12)
    res = paired_test(x, y, method="5x2cv_f")
    assert res.statistic == pytest.approx(f, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-12)
    assert (res.df, res.method) == ((10, 5), "5x2cv_f")


def _mlxtend_fold_scores(est1, est2, X, y, random_seed):
    """Accuracy differences on the very splits mlxtend's 5×2cv functions draw
    (mlxtend/evaluate/ttest.py: RandomState(random_seed).randint(0, 32767) as the
    train_test_split seed of each repetition, test_size=0.5, both directions)."""
    rng = np.random.RandomState(random_seed)
    a = np.empty((5, 2))
    b = np.empty((5, 2))
    for i in range(5):
        seed = rng.randint(low=0, high=32767)
        X1, X2, y1, y2 = train_test_split(X, y, test_size=0.5, random_state=seed)
        for j, (Xtr, ytr, Xte, yte) in enumerate([(X1, y1, X2, y2), (X2, y2, X1, y1)]):
            a[i, j] = est1.fit(Xtr, ytr).score(Xte, yte)
            b[i, j] = est2.fit(Xtr, ytr).score(Xte, yte)
    return a, b


def test_five_by_two_matches_mlxtend_on_the_same_splits():
    """H: on the fold scores of mlxtend's own splits, our t, F and p-values equal
    mlxtend's paired_ttest_5x2cv and combined_ftest_5x2cv to 1e-12."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :6]
    lda, nb = LinearDiscriminantAnalysis(), GaussianNB()
    for seed in (1, 7):
        a, b = _mlxtend_fold_scores(lda, nb, X, y, seed)
        t, p = evaluate.paired_ttest_5x2cv(lda, nb, X, y, random_seed=seed)
        res = paired_test(a, b, method="5x2cv")
        assert res.statistic == pytest.approx(t, rel=1e-12)
        assert res.pvalue == pytest.approx(p, rel=1e-12)
        f, p = evaluate.combined_ftest_5x2cv(lda, nb, X, y, random_seed=seed)
        res = paired_test(a, b, method="5x2cv_f")
        assert res.statistic == pytest.approx(f, rel=1e-12)
        assert res.pvalue == pytest.approx(p, rel=1e-12)


def test_five_by_two_rejects_bad_input():
    """H: wrong shape, NaN, a one-sided F and zero variance raise ValueError with
    the argument named; zero variance is never a p-value of 0."""
    x = np.full((5, 2), 0.2)
    with pytest.raises(ValueError, match=r"shape \(5, 2\).*RepeatedStratifiedKFold"):
        paired_test(np.zeros(8), np.zeros(8), method="5x2cv")
    with pytest.raises(ValueError, match="finite"):
        paired_test(np.where(np.eye(5, 2) > 0, np.nan, x), x, method="5x2cv")
    with pytest.raises(ValueError, match="two-sided"):
        paired_test(x, x + 0.01 * np.eye(5, 2), method="5x2cv_f", alternative="less")
    with pytest.raises(ValueError, match="variance estimate is 0"):
        paired_test(x, x + 0.05, method="5x2cv")
    with pytest.raises(ValueError, match="no confidence interval"):
        paired_test(x, x + 0.01 * np.eye(5, 2), method="5x2cv_f").confidence_interval()
    with pytest.raises(ValueError, match="`method`"):
        paired_test(x, x, method="z")
