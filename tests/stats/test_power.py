"""Tests of sklearn_bench/stats/_power.py against R's power.t.test and seed 000."""

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.power import TTestPower

from sklearn_bench.stats import n_datasets_needed, power_paired_t

RTOL, ATOL = 1e-8, 1e-12
J_GRID = [5, 10, 20, 50]
SIGMAS = [0.03, 0.05, 0.075, 0.1]
# Seed 000's own form: the one-sided test and the paper's approximation (the
# defaults are the two-sided exact noncentral t, the test the report uses).
SEED = {"alternative": "greater", "method": "approx"}


@pytest.mark.parametrize(
    "case_id", ["power_paired_t_delta005_sigma003", "power_paired_t_delta005_sigma005"]
)
def test_power_matches_r(reference_cases, case_id):
    """H: both power forms and both J-needed values equal the R reference."""
    # R: pt(sqrt(J)*Delta/sigma - qt(1-alpha, J-1), J-1) (approx) and
    #    power.t.test(n = J, delta, sd = sigma, type = "one.sample",
    #                 alternative = "one.sided")$power (exact); see cases.json
    case = reference_cases[case_id]
    inp, exp = case["input"], case["expected"]
    for method, key in (("approx", "power_approx"), ("exact", "power_exact")):
        for J, ref in zip(inp["J"], exp[key], strict=True):
            got = power_paired_t(
                J,
                inp["Delta"],
                inp["sigma"],
                alpha=inp["alpha"],
                method=method,
                alternative="greater",
            )
            assert math.isclose(got, ref, rel_tol=RTOL, abs_tol=ATOL), (method, J)
    assert (
        n_datasets_needed(inp["Delta"], inp["sigma"], **SEED)
        == exp["J_needed_approx"]
        == exp["J_needed_boulesteix_iterative"]
    )
    assert (
        n_datasets_needed(
            inp["Delta"], inp["sigma"], method="exact", alternative="greater"
        )
        == (exp["J_needed_exact"])
    )
    assert exp["J_needed_exact"] == math.ceil(exp["n_exact_solve"])


@pytest.mark.parametrize("sigma", SIGMAS)
def test_figure2_power_curves(sigma):
    """H: power for J in {5,10,20,50}, Delta = 0.05 matches the formula and nct."""
    delta = 0.05
    approx = power_paired_t(J_GRID, delta, sigma, **SEED)
    exact = power_paired_t(J_GRID, delta, sigma, method="exact", alternative="greater")
    J = np.array(J_GRID)
    # Boulesteix et al. (2013) Sec. 3 formula, written out with scipy's t:
    paper = stats.t.cdf(np.sqrt(J) * delta / sigma - stats.t.ppf(0.95, J - 1), J - 1)
    np.testing.assert_allclose(approx, paper, rtol=1e-12)
    # statsmodels TTestPower (noncentral t; = R power.t.test one.sample one.sided)
    sm = TTestPower().power(
        effect_size=delta / sigma, nobs=J, alpha=0.05, alternative="larger"
    )
    np.testing.assert_allclose(exact, sm, rtol=1e-8)
    assert np.all(np.diff(approx) > 0) and np.all(np.diff(exact) >= 0)


def test_figure2_j_needed():
    """H: J needed for Delta = 0.05, 80% power is 4, 8, 16, 27 by both methods."""
    # Figure 2 (left) plots these; the paper's sample-size formula
    # J >= (t_{0.95,J-1} + t_{0.8,J-1})^2 / (Delta/sigma)^2 solved by iteration,
    # and ceiling(statsmodels solve_power) = ceiling(R power.t.test(power=.8)$n).
    expected = [4, 8, 16, 27]
    for sigma, J_expected in zip(SIGMAS, expected, strict=True):
        iterative = next(
            J
            for J in range(2, 1000)
            if J
            >= (stats.t.ppf(0.95, J - 1) + stats.t.ppf(0.8, J - 1)) ** 2
            / (0.05 / sigma) ** 2
        )
        solve = TTestPower().solve_power(
            effect_size=0.05 / sigma, power=0.8, alpha=0.05, alternative="larger"
        )
        assert n_datasets_needed(0.05, sigma, **SEED) == iterative == J_expected
        assert n_datasets_needed(
            0.05, sigma, method="exact", alternative="greater"
        ) == math.ceil(solve)
        assert math.ceil(solve) == J_expected


def test_paper_claim_small_studies_underpowered():
    """H: with 5-10 data sets and sigma >= 0.075 the power stays below 80%."""
    # Boulesteix et al. (2013), Sec. 4-5: "the usual number of, say, 5 to 10 data
    # sets [is] substantially underpowered"
    for sigma in (0.075, 0.1):
        for method in ("approx", "exact"):
            assert (
                power_paired_t(10, 0.05, sigma, method=method, alternative="greater")
                < 0.8
            )
    assert power_paired_t(10, 0.05, 0.1, **SEED) < 0.5


def test_j_needed_is_smallest():
    """H: the returned J reaches the target power and J - 1 does not."""
    for sigma in (0.02, 0.11, 0.3):
        for method in ("approx", "exact"):
            J = n_datasets_needed(0.05, sigma, power=0.9, method=method)
            assert power_paired_t(J, 0.05, sigma, method=method) >= 0.9
            if J > 2:
                assert power_paired_t(J - 1, 0.05, sigma, method=method) < 0.9


def test_two_sided_exact_matches_statsmodels():
    """H: two-sided exact power equals statsmodels' two-sided (both tails)."""
    got = power_paired_t(12, 0.04, 0.06, alternative="two-sided", method="exact")
    ref = TTestPower().power(effect_size=0.04 / 0.06, nobs=12, alpha=0.05)
    assert got == pytest.approx(ref, rel=1e-8)


def test_power_returns_float_for_scalar():
    """H: a scalar J gives a Python float, an array gives an ndarray."""
    assert isinstance(power_paired_t(5, 0.05, 0.05), float)
    assert isinstance(power_paired_t([5, 6], 0.05, 0.05), np.ndarray)
    assert isinstance(n_datasets_needed(0.05, 0.05), int)


def test_large_effect_needs_two_datasets():
    """H: an effect far above sigma needs the minimum J = 2."""
    assert n_datasets_needed(1.0, 0.001) == 2


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_datasets": 1}, "`n_datasets`"),
        ({"n_datasets": 2.5}, "`n_datasets`"),
        ({"sigma": 0.0}, "`sigma`"),
        ({"sigma": np.nan}, "`sigma`"),
        ({"delta": np.nan}, "`delta`"),
        ({"alpha": 1.5}, "`alpha`"),
        ({"method": "nct"}, "`method`"),
        ({"alternative": "less"}, "`alternative`"),
    ],
)
def test_power_rejects_bad_arguments(kwargs, match):
    """H: invalid arguments raise a ValueError naming the argument."""
    args = {"n_datasets": 10, "delta": 0.05, "sigma": 0.05} | kwargs
    with pytest.raises(ValueError, match=match):
        power_paired_t(
            args.pop("n_datasets"), args.pop("delta"), args.pop("sigma"), **args
        )


def test_n_datasets_needed_rejects_bad_arguments():
    """H: non-positive delta, power outside (alpha, 1) or too many J raise."""
    with pytest.raises(ValueError, match="`delta`"):
        n_datasets_needed(0.0, 0.05)
    with pytest.raises(ValueError, match="`power`"):
        n_datasets_needed(0.05, 0.05, power=0.01)
    with pytest.raises(ValueError, match="`max_datasets`"):
        n_datasets_needed(1e-6, 1.0, max_datasets=1000)


@pytest.mark.parametrize("method", ["exact", "approx"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_n_datasets_needed_array_equals_one_call_each(method, alternative):
    """H: an array of deltas gives, in its shape, exactly the integers of one call
    per delta (the searches run side by side), from J = 2 to thousands."""
    rng = np.random.default_rng(0)
    for sigma in (0.01, 0.05, 0.3):
        deltas = np.r_[rng.uniform(0.001, 0.5, 40), 0.2, 2.0, 100.0] * sigma
        kw = {"method": method, "alternative": alternative}
        got = n_datasets_needed(deltas.reshape(-1, 1), sigma, **kw)
        assert got.shape == (deltas.size, 1)
        assert got.ravel().tolist() == [
            n_datasets_needed(d, sigma, **kw) for d in deltas
        ]
        assert got.min() == 2 and got.max() > 1000


def test_n_datasets_needed_array_rejects_bad_deltas():
    """H: one non-positive or NaN delta in an array, or one that needs more than
    `max_datasets`, raises as it does alone."""
    with pytest.raises(ValueError, match="`delta`"):
        n_datasets_needed([0.05, 0.0], 0.05)
    with pytest.raises(ValueError, match="`delta`"):
        n_datasets_needed([np.nan, 0.05], 0.05)
    with pytest.raises(ValueError, match="`delta` = 1e-06"):
        n_datasets_needed([0.5, 1e-6], 1.0, max_datasets=1000)
