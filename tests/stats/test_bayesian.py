"""Tests of sklearn_bench/stats/_bayesian.py against baycomp 1.0.3 and scipy.

Monte Carlo tolerances: two independent estimates of a probability p from N
samples each differ with standard error sqrt(2 p (1 − p) / N); with N = 50000
that is at most 0.00316 (p = 1/2). The tests allow 4.5 such SEs (a false alarm
about once in 150000 comparisons).
"""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from sklearn_bench.stats import (
    BayesianTestResult,
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
    paired_test,
)

N_SAMPLES = 50_000
Z_MC = 4.5


def _scores(seed, n, shift, spread=0.02):
    rng = np.random.default_rng(seed)
    y = rng.uniform(0.6, 0.9, n)
    return y + rng.normal(shift, spread, n), y


def _mc_close(p, q, n=N_SAMPLES):
    """|p − q| within Z_MC standard errors of a difference of two estimates."""
    pbar = (p + q) / 2
    se = math.sqrt(2 * max(pbar * (1 - pbar), 1 / n) / n)
    return abs(p - q) <= Z_MC * se


# ------------------------------------------------------------- correlated t-test
CORRELATED_CASES = [  # (seed, n, shift, runs)
    (1, 10, 0.01, 1),
    (2, 10, 0.0, 1),
    (3, 30, 0.005, 3),  # 3 x 10-fold: rho = 1/10
    (4, 15, -0.01, 3),  # 3 x 5-fold: rho = 1/5
    (5, 2, 0.01, 1),  # n = 2: one degree of freedom
]


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.03])
@pytest.mark.parametrize("case", CORRELATED_CASES)
def test_correlated_t_matches_baycomp(case, rope):
    """H: p_greater, p_rope, p_less equal baycomp.two_on_single (rel 1e-6) with
    rho = runs/n, baycomp's k-fold correlation, for several inputs and ropes."""
    baycomp = pytest.importorskip("baycomp")
    seed, n, shift, runs = case
    x, y = _scores(seed, n, shift)
    # baycomp: two_on_single(x, y, rope, runs) -> (p_left, p_rope, p_right)
    ref = baycomp.two_on_single(x, y, rope=rope, runs=runs)
    res = bayesian_correlated_t(x, y, delta=rope, rho=runs / n, greater_is_better=True)
    if rope == 0:
        ref = (ref[0], 0.0, ref[1])
    got = (res.p_greater, res.p_rope, res.p_less)
    for g, r in zip(got, ref, strict=True):
        assert g == pytest.approx(float(r), rel=1e-6, abs=1e-12)
    post = baycomp.CorrelatedTTest(x, y, rope=rope, runs=runs)
    assert res.details["mean"] == pytest.approx(-post.mean, rel=1e-9)
    assert res.details["scale"] ** 2 == pytest.approx(post.var, rel=1e-9)
    assert res.details["df"] == post.df


@pytest.mark.parametrize("rho", [0.0, 0.3, 0.5])
def test_correlated_t_rope_zero_is_one_sided_corrected_t(rho):
    """H: with rope = 0, p_less equals the one-sided Nadeau–Bengio corrected
    t p-value with n_test/n_train = rho/(1 − rho) (the matching-prior identity),
    for rho = 0 (plain t, scipy.ttest_rel) too."""
    x, y = _scores(7, 12, 0.006)
    res = bayesian_correlated_t(x, y, rho=rho, greater_is_better=True)
    if rho == 0:
        ref = stats.ttest_rel(x, y, alternative="greater").pvalue
    else:
        ref = paired_test(
            x,
            y,
            method="corrected_t",
            alternative="greater",
            test_train_ratio=rho / (1 - rho),
        ).pvalue
    assert res.p_less == pytest.approx(ref, rel=1e-9)
    assert res.p_greater == pytest.approx(1 - ref, rel=1e-9)
    assert res.p_rope == 0


def test_correlated_t_posterior_is_the_stated_student_t():
    """H: posterior() is t(n−1, mean(d), sqrt((1/n + rho/(1−rho)) var(d))) and
    its mass outside and inside the ROPE gives the three probabilities."""
    x, y = _scores(8, 20, 0.004)
    d = x - y
    res = bayesian_correlated_t(x, y, delta=0.01, rho=0.3, greater_is_better=True)
    post = res.posterior()
    scale = math.sqrt((1 / 20 + 0.3 / 0.7) * np.var(d, ddof=1))
    ref = stats.t(19, loc=d.mean(), scale=scale)
    assert post.std() == pytest.approx(ref.std(), rel=1e-12)
    assert res.p_greater == pytest.approx(ref.sf(0.01), rel=1e-12)
    assert res.p_less == pytest.approx(ref.cdf(-0.01), rel=1e-12)
    assert res.p_rope == pytest.approx(ref.cdf(0.01) - ref.cdf(-0.01), rel=1e-9)


def test_larger_rho_is_less_certain():
    """H: the same differences with a larger correlation (random 70/30 splits
    rather than 30-fold CV) give a wider posterior and a less extreme
    probability: baycomp's k-fold rho would be overconfident."""
    x, y = _scores(9, 30, 0.006)
    kfold = bayesian_correlated_t(x, y, rho=1 / 30, greater_is_better=True)
    splits = bayesian_correlated_t(x, y, rho=0.3, greater_is_better=True)
    assert splits.details["scale"] > 2 * kfold.details["scale"]
    assert 0.5 < splits.p_greater < kfold.p_greater


# -------------------------------------------------------------- signed-rank test
@pytest.mark.parametrize("rope", [0.0, 0.01])
@pytest.mark.parametrize("case", [(11, 30, 0.005), (12, 50, 0.0), (13, 8, 0.02)])
def test_signed_rank_same_seed_reproduces_baycomp(case, rope):
    """H: with RandomState(seed) the posterior samples equal baycomp's
    SignedRankTest samples for the same seed (to 1e-12) and so do the
    probabilities; n = 50 spans two batches of draws."""
    baycomp = pytest.importorskip("baycomp")
    seed, n, shift = case
    x, y = _scores(seed, n, shift)
    ref = baycomp.SignedRankTest(x, y, rope=rope, random_state=seed)
    res = bayesian_signed_rank(
        x,
        y,
        delta=rope,
        random_state=np.random.RandomState(seed),
        greater_is_better=True,
    )
    np.testing.assert_allclose(res.samples, ref.sample, rtol=0, atol=1e-12)
    pl, pe, pr = ref.probs()
    assert (res.p_greater, res.p_rope, res.p_less) == pytest.approx(
        (pl, pe, pr), abs=1e-12
    )


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.02])
@pytest.mark.parametrize("case", [(21, 20, 0.005), (22, 40, 0.01), (23, 10, 0.0)])
def test_signed_rank_within_monte_carlo_error_of_baycomp(case, rope):
    """H: with an independent Generator stream the probabilities agree with
    baycomp's SignedRankTest.probs within 4.5 Monte Carlo SEs of a difference
    (SE <= 0.0032 at N = 50000), and the reported SE is sqrt(p(1−p)/N)."""
    baycomp = pytest.importorskip("baycomp")
    seed, n, shift = case
    x, y = _scores(seed, n, shift)
    pl, pe, pr = baycomp.SignedRankTest(x, y, rope=rope, random_state=seed).probs()
    res = bayesian_signed_rank(
        x, y, delta=rope, random_state=seed + 1000, greater_is_better=True
    )
    for got, ref in zip(
        (res.p_greater, res.p_rope, res.p_less), (pl, pe, pr), strict=True
    ):
        assert _mc_close(got, ref)
    p = res.p_greater
    assert res.details["standard_errors"][0] == pytest.approx(
        math.sqrt(p * (1 - p) / N_SAMPLES)
    )


# --------------------------------------------------------------------- sign test
@pytest.mark.parametrize("rope", [0.0, 0.005, 0.01, 0.02])
@pytest.mark.parametrize("case", [(31, 20, 0.005), (32, 40, 0.01), (33, 9, 0.0)])
def test_sign_test_within_monte_carlo_error_of_baycomp(case, rope):
    """H: the sign test's probabilities agree with baycomp's SignTest.probs
    within 4.5 Monte Carlo SEs (baycomp's extra 0.0001 per count changes them
    by far less); with rope = 0 baycomp reports the two sides renormalised."""
    baycomp = pytest.importorskip("baycomp")
    seed, n, shift = case
    x, y = _scores(seed, n, shift)
    res = bayesian_sign_test(
        x, y, delta=rope, random_state=seed, greater_is_better=True
    )
    if rope == 0:
        # baycomp: SignTest.probs(x, y, rope=0) -> (p_left, p_right)/(p_left+p_right)
        pl, pr = baycomp.SignTest.probs(x, y, rope=0, random_state=seed)
        assert res.p_rope < 0.05  # ties and the prior only
        total = res.p_greater + res.p_less
        assert _mc_close(res.p_greater / total, pl)
        return
    ref = baycomp.SignTest.probs(x, y, rope=rope, random_state=seed)
    for got, r in zip((res.p_greater, res.p_rope, res.p_less), ref, strict=True):
        assert _mc_close(got, r)


def test_sign_test_counts_and_exact_posterior_mean():
    """H: counts above, inside and below the ROPE are found after rounding
    (0.3 − 0.29 is on the boundary 0.01, inside), the prior joins the ROPE, and
    the sample mean of θ equals the Dirichlet mean alpha/sum(alpha) within MC
    error."""
    x = np.array([0.30, 0.50, 0.41, 0.20, 0.70, 0.62])
    y = np.array([0.29, 0.45, 0.40, 0.25, 0.60, 0.62])
    res = bayesian_sign_test(x, y, delta=0.01, random_state=0, greater_is_better=True)
    counts = res.details["n_greater"], res.details["n_rope"], res.details["n_less"]
    assert counts == (2, 3, 1)
    alpha = np.array([2, 3 + 1.0, 1])
    np.testing.assert_allclose(
        res.samples.mean(axis=0), alpha / alpha.sum(), atol=4.5 * 0.2 / 224
    )


# -------------------------------------------------------------------- edge cases
def test_all_differences_zero():
    """H: identical scores: correlated t warns and gives a point mass (p_rope = 1
    with a ROPE, 0.5/0.5 without); signed-rank gives p_rope = 1 with a ROPE and
    0.5/0.5 without (ties of the largest region shared, unlike baycomp's argmax);
    the sign test's ROPE wins."""
    x = np.array([0.2, 0.3, 0.25, 0.4])
    with pytest.warns(RuntimeWarning, match="point mass"):
        res = bayesian_correlated_t(x, x, delta=0.01, rho=0.2, greater_is_better=True)
    assert (res.p_greater, res.p_rope, res.p_less) == (0.0, 1.0, 0.0)
    assert res.decision == "equivalent"
    with pytest.raises(ValueError, match="point mass"):
        res.posterior()
    with pytest.warns(RuntimeWarning, match="point mass"):
        res = bayesian_correlated_t(x, x, rho=0.2, greater_is_better=True)
    assert (res.p_greater, res.p_rope, res.p_less) == (0.5, 0.0, 0.5)
    assert res.decision == "undecided"
    res = bayesian_signed_rank(
        x, x, delta=0.01, random_state=0, n_draws=1000, greater_is_better=True
    )
    assert (res.p_greater, res.p_rope, res.p_less) == (0.0, 1.0, 0.0)
    res = bayesian_signed_rank(
        x, x, random_state=0, n_draws=1000, greater_is_better=True
    )
    assert (res.p_greater, res.p_rope, res.p_less) == (0.5, 0.0, 0.5)
    res = bayesian_sign_test(x, x, delta=0.01, random_state=0, greater_is_better=True)
    assert res.p_rope == 1.0


def test_constant_nonzero_difference_warns():
    """H: a constant non-zero difference (floating noise aside) is a point mass
    at that difference: warned, p_greater = 1 beyond the ROPE."""
    y = np.array([0.2, 0.3, 0.25, 0.4])
    x = y + 0.1  # 0.3 − 0.2 etc. differ from 0.1 only in the last bits
    with pytest.warns(RuntimeWarning, match="all equal"):
        res = bayesian_correlated_t(x, y, delta=0.01, rho=0.2, greater_is_better=True)
    assert (res.p_greater, res.p_rope, res.p_less) == (1.0, 0.0, 0.0)
    assert res.details["mean"] == 0.1


def test_all_differences_inside_the_rope():
    """H: every difference inside the ROPE: the signed-rank and sign tests give
    p_rope = 1 (every Walsh average is inside); the correlated t gives a high
    but not certain p_rope and equals baycomp."""
    baycomp = pytest.importorskip("baycomp")
    x, y = _scores(41, 12, 0.0, spread=0.003)
    assert np.all(np.abs(x - y) <= 0.01)
    assert (
        bayesian_signed_rank(
            x, y, delta=0.01, random_state=0, greater_is_better=True
        ).p_rope
        == 1.0
    )
    assert (
        bayesian_sign_test(
            x, y, delta=0.01, random_state=0, greater_is_better=True
        ).p_rope
        == 1.0
    )
    res = bayesian_correlated_t(x, y, delta=0.01, rho=1 / 12, greater_is_better=True)
    assert 0.95 < res.p_rope < 1
    ref = baycomp.two_on_single(x, y, rope=0.01)
    assert res.p_rope == pytest.approx(ref[1], rel=1e-6)


def test_two_pairs():
    """H: n = 2 works for all three (df = 1 for the t, a Cauchy posterior) and
    the signed-rank matches baycomp within MC error; n = 1 raises."""
    baycomp = pytest.importorskip("baycomp")
    x, y = np.array([0.81, 0.84]), np.array([0.78, 0.825])
    res = bayesian_correlated_t(x, y, delta=0.01, rho=0.5, greater_is_better=True)
    assert res.details["df"] == 1
    ref = baycomp.two_on_single(x, y, rope=0.01, runs=1)
    assert res.p_greater == pytest.approx(ref[0], rel=1e-6)
    res = bayesian_signed_rank(x, y, delta=0.01, random_state=1, greater_is_better=True)
    pl, pe, pr = baycomp.SignedRankTest(x, y, rope=0.01, random_state=1).probs()
    assert _mc_close(res.p_greater, pl) and _mc_close(res.p_rope, pe)
    for func, kw in [
        (bayesian_correlated_t, {"rho": 0.1, "greater_is_better": True}),
        (bayesian_signed_rank, {"greater_is_better": True}),
        (bayesian_sign_test, {"greater_is_better": True}),
    ]:
        with pytest.raises(ValueError, match="at least 2 pairs"):
            func([0.1], [0.2], **kw)


@pytest.mark.parametrize(
    "func, kw",
    [
        (bayesian_correlated_t, {"rho": 0.1, "greater_is_better": True}),
        (bayesian_signed_rank, {"greater_is_better": True}),
        (bayesian_sign_test, {"greater_is_better": True}),
    ],
)
def test_nan_and_bad_arguments_raise(func, kw):
    """H: NaN, unequal lengths, a negative delta and clashing labels raise a
    ValueError naming the argument."""
    with pytest.raises(ValueError, match="NaN"):
        func([0.1, np.nan, 0.3], [0.2, 0.2, 0.2], **kw)
    with pytest.raises(ValueError, match="same length"):
        func([0.1, 0.2, 0.3], [0.2, 0.2], **kw)
    with pytest.raises(ValueError, match="`delta`"):
        func([0.1, 0.2, 0.3], [0.2, 0.2, 0.1], delta=-0.01, **kw)
    with pytest.raises(ValueError, match="`labels`"):
        func([0.1, 0.2, 0.3], [0.2, 0.2, 0.1], labels=("a", "a"), **kw)


def test_bad_rho_prior_and_samples_raise():
    """H: rho outside [0, 1), a negative prior strength and a non-integer
    n_draws raise ValueErrors quoting the argument."""
    x, y = [0.1, 0.2, 0.3], [0.2, 0.2, 0.1]
    for rho in (-0.1, 1.0, np.nan):
        with pytest.raises(ValueError, match="`rho`"):
            bayesian_correlated_t(x, y, rho=rho, greater_is_better=True)
    with pytest.raises(ValueError, match="`prior_strength`"):
        bayesian_signed_rank(x, y, prior_strength=-1, greater_is_better=True)
    with pytest.raises(ValueError, match="`n_draws`"):
        bayesian_sign_test(x, y, n_draws=10.5, greater_is_better=True)


# ------------------------------------------------------------ result behaviour
def test_probabilities_and_decision_follow_direction():
    """H: for an error rate (lower is better) P(x better) is p_less; decision
    names the learner, "equivalent" or "undecided" by the threshold, which must
    exceed 1/2."""
    x, y = _scores(51, 15, -0.02, spread=0.005)  # x has lower error
    res = bayesian_correlated_t(
        x, y, delta=0.005, rho=0.1, labels=("A", "B"), greater_is_better=False
    )
    assert res.probabilities["A"] == res.p_less > 0.99
    assert res.probabilities["B"] == res.p_greater
    assert res.decision == "A"
    assert res.decide(1.0) == "undecided"
    with pytest.raises(ValueError, match="`threshold`"):
        res.decide(0.5)
    row = res.to_frame().iloc[0]
    assert (row["a"], row["b"], row["decision"]) == ("A", "B", "A")
    assert row["p_a"] == res.p_less
    assert "Corani & Benavoli" in res.description
    assert "ROPE [−0.005, 0.005]" in res.description
    assert "rho = 0.1" in res.description


def test_result_is_frozen_and_seeded():
    """H: results are frozen, not tuples; the same int seed gives the same
    probabilities; the signed-rank text states the prior and ROPE."""
    x, y = _scores(61, 10, 0.01)
    a = bayesian_signed_rank(
        x, y, delta=0.01, random_state=3, n_draws=2000, greater_is_better=True
    )
    b = bayesian_signed_rank(
        x, y, delta=0.01, random_state=3, n_draws=2000, greater_is_better=True
    )
    assert isinstance(a, BayesianTestResult) and a == b
    with pytest.raises(AttributeError):
        a.p_rope = 0.5
    with pytest.raises(TypeError):
        tuple(a)
    assert "prior strength 0.5" in a.description
    assert "ROPE [−0.01, 0.01]" in a.description
    with pytest.raises(ValueError, match="Monte Carlo"):
        a.posterior()


def test_zero_prior_strength_is_bayesian_bootstrap():
    """H: prior_strength = 0 drops the pseudo-observation: all-positive
    differences give θ_greater = 1 in every draw; with the prior at 0 it is
    below 1 in every draw."""
    x, y = _scores(71, 6, 0.05, spread=0.001)
    res = bayesian_signed_rank(
        x, y, prior_strength=0, random_state=0, n_draws=500, greater_is_better=True
    )
    assert np.all(res.samples[:, 0] == pytest.approx(1.0))
    res = bayesian_signed_rank(
        x, y, random_state=0, n_draws=500, greater_is_better=True
    )
    assert np.all(res.samples[:, 0] < 1)


@pytest.mark.parametrize("seed", range(4))
def test_signed_rank_sorted_sums_equal_the_quadratic_form(seed, monkeypatch):
    """H: from _SORTED_FROM pseudo-observations on, the signed-rank test sums the
    weights of each region in sorted order; on the same draws its thetas equal
    the quadratic form w' A w to 1e-12 and its probabilities are identical, with
    differences rounded to 2 decimals (many Walsh sums on the ROPE's edges), zero
    differences and rope 0."""
    from sklearn_bench.stats import _bayesian

    rng = np.random.default_rng(seed)
    n = 140 + 30 * seed
    y = rng.uniform(0.1, 0.4, n)
    x = y + np.round(rng.normal(0.005, 0.01, n), 2 if seed % 2 else 8)
    x[: n // 4] = y[: n // 4]
    rope = [0.0, 0.01, 0.005, 0.02][seed]
    sorted_ = bayesian_signed_rank(
        x, y, delta=rope, random_state=seed, n_draws=3000, greater_is_better=True
    )
    monkeypatch.setattr(_bayesian, "_SORTED_FROM", 10**9)
    quadratic = bayesian_signed_rank(
        x, y, delta=rope, random_state=seed, n_draws=3000, greater_is_better=True
    )
    np.testing.assert_allclose(sorted_.samples, quadratic.samples, rtol=0, atol=1e-12)
    assert (sorted_.p_greater, sorted_.p_rope, sorted_.p_less) == (
        quadratic.p_greater,
        quadratic.p_rope,
        quadratic.p_less,
    )


def test_shared_draws_change_no_result():
    """H: with a `shared_draws` dict, tests with one integer seed reuse one set of
    draws (the dict holds one set, keyed by value, never by identity) and give
    exactly the results of separate calls (same seed, same stream), on the
    quadratic and the sorted path; a Generator is never shared; anything but a
    dict is refused."""
    rng = np.random.default_rng(5)
    for n in (30, 140):
        y = rng.uniform(0.1, 0.4, n)
        xs = [y + rng.normal(0.01 * k, 0.02, n) for k in range(3)]
        kw = {"delta": 0.01, "n_draws": 2000, "greater_is_better": True}
        alone = [bayesian_signed_rank(x, y, random_state=7, **kw) for x in xs]
        shared = {}
        together = [
            bayesian_signed_rank(x, y, random_state=7, shared_draws=shared, **kw)
            for x in xs
        ]
        assert len(shared) == 1
        (batches,) = shared.values()
        assert all(not w.flags.writeable for _, _, w in batches)
        generator = bayesian_signed_rank(
            xs[0], y, random_state=np.random.default_rng(7), shared_draws=shared, **kw
        )
        for a, b in zip(alone, together, strict=True):
            np.testing.assert_array_equal(a.samples, b.samples)
        np.testing.assert_array_equal(generator.samples, alone[0].samples)
    with pytest.raises(TypeError, match="`shared_draws`"):
        bayesian_signed_rank(xs[0], y, shared_draws=[], **kw)


def _masses_whole(walsh, wt):
    """The masses of _SortedWalsh on the whole batch at once (the code before the
    column blocks): the reference its blocks are tested against."""
    ws = wt[walsh.order]  # sorted, one draw a column
    c = np.zeros((ws.shape[0] + 1, ws.shape[1]))
    np.cumsum(ws, axis=0, out=c[1:])

    def gathered(first, second):  # sum_i ws_i (c[first_i] + c[second_i]) / 2
        total = np.einsum("ib,ib->b", ws, c[first])
        if np.array_equal(first, second):  # no sum ties a bound: one gather
            return total
        return 0.5 * (total + np.einsum("ib,ib->b", ws, c[second]))

    under = gathered(walsh.above_hi, walsh.above_lo)
    if walsh.bound == 0:  # H(s) + H(-s) = 1: below is what above leaves
        return c[-1] * c[-1] - under, under
    return c[-1] * c[-1] - under, gathered(walsh.below_lo, walsh.below_hi)


@pytest.mark.parametrize(
    ("n", "n_draws", "rope", "decimals"),
    [
        (500, 3992, 0.01, 3),  # a report's batch at 500 data sets
        (500, 40, 0.01, 3),  # its last batch
        (129, 5000, 0.0, 8),
        (300, 513, 0.02, 2),  # a last block of one column joins the one before
        (200, 1, 0.0, 2),
        (150, 63, 0.005, 2),  # under 64 columns: np.cumsum
        (140, 1100, 0.005, 12),
    ],
)
def test_signed_rank_blocks_equal_the_whole_batch_bit_for_bit(
    n, n_draws, rope, decimals
):
    """H: _SortedWalsh.masses, which runs the draws in column blocks, gives bit
    for bit the masses of the same operations on the whole batch at once (the
    code before the blocks), with and without Walsh sums on the ROPE's edges,
    read-only (shared) draws or not."""
    from sklearn_bench.stats import _bayesian

    rng = np.random.default_rng(n + n_draws)
    d = np.round(rng.normal(0.01, 0.02, n), decimals)
    d[: n // 5] = 0.0
    z = np.concatenate([[0.0], d])
    alpha = np.concatenate([[0.5], np.ones(n)])
    sums = np.round(z[:, None] + z[None, :], _bayesian._DECIMALS)
    bound = np.round(2 * rope, _bayesian._DECIMALS)
    walsh = _bayesian._SortedWalsh(z, sums, bound)
    w = _bayesian._dirichlet(alpha, n_draws, np.random.default_rng(1))
    wt = np.ascontiguousarray(w.T)
    for shared in (False, True):
        wt.flags.writeable = not shared
        blocks = walsh.masses(wt)
        whole = _masses_whole(walsh, wt)
        for got, expected in zip(blocks, whole, strict=True):
            np.testing.assert_array_equal(got, expected)
            assert got.tobytes() == expected.tobytes()


# ------------------------------------------------------------ batches (axis)
_rng = np.random.default_rng(2024)
N, M = 12, 5
REFERENCE = _rng.normal(0.2, 0.03, N)
OTHERS = REFERENCE[:, None] + _rng.normal(0.01, 0.02, (N, M))


@pytest.mark.parametrize("delta", [0.0, 0.005])
def test_correlated_t_batch_equals_the_one_pair_test(delta):
    """H: every column of a batch is bayesian_correlated_t of that pair, to the
    last bit, and its decision is the one-pair result's decision."""
    for gib in (True, False):
        res = bayesian_correlated_t(
            REFERENCE[:, None], OTHERS, rho=0.1, delta=delta, greater_is_better=gib
        )
        decisions = res.decide(0.9)
        assert res.n == N and res.rope == delta and decisions.shape == (M,)
        for j in range(M):
            one = bayesian_correlated_t(
                REFERENCE, OTHERS[:, j], delta=delta, rho=0.1, greater_is_better=gib
            )
            assert (res.p_greater[j], res.p_rope[j], res.p_less[j]) == (
                one.p_greater,
                one.p_rope,
                one.p_less,
            )
            assert decisions[j] == one.decide(0.9)


@pytest.mark.parametrize("delta", [0.0, 0.01, 0.05])
def test_correlated_t_batch_point_mass_as_the_one_pair_test(delta):
    """H: zero-variance comparisons of a batch get the one-pair test's
    point-mass probabilities (0, ½ or 1) and scale 0, with one RuntimeWarning."""
    y = np.column_stack([REFERENCE - 0.02, REFERENCE, OTHERS[:, 0]])
    with pytest.warns(RuntimeWarning, match="2 of 3 comparisons"):
        res = bayesian_correlated_t(
            REFERENCE[:, None], y, rho=0.2, delta=delta, greater_is_better=True
        )
    assert (res.details["scale"] == 0).tolist() == [True, True, False]
    for j in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            one = bayesian_correlated_t(
                REFERENCE, y[:, j], delta=delta, rho=0.2, greater_is_better=True
            )
        assert (res.p_greater[j], res.p_rope[j], res.p_less[j]) == (
            one.p_greater,
            one.p_rope,
            one.p_less,
        )


@pytest.mark.parametrize(
    ("n", "delta", "prior_strength", "n_draws"),
    [
        (12, 0.01, 0.5, 3000),  # the quadratic form, comparison by comparison
        (150, 0.0, 0.5, 4000),  # sorted sums, no ROPE, many zero differences
        (200, 0.01, 0.5, 993),  # ties on the ROPE's edges; a last column alone
        (130, 0.005, 0.0, 700),  # no pseudo-observation
    ],
)
def test_signed_rank_batch_equals_the_one_pair_test(n, delta, prior_strength, n_draws):
    """H: every comparison of a batch (the reference against 5 others, along
    axis 0 and along axis 1) is bayesian_signed_rank of that pair with the same
    integer seed to the last bit: samples, probabilities, standard error and
    decision, whether the masses are sorted sums of all comparisons at once or
    quadratic forms."""
    rng = np.random.default_rng(n)
    reference = np.round(rng.uniform(0.1, 0.4, n), 3)
    others = np.round(reference[:, None] + rng.normal(0.004, 0.01, (n, 5)), 3)
    others[: n // 4, 1] = reference[: n // 4]
    kw = {"delta": delta, "prior_strength": prior_strength, "n_draws": n_draws}
    kw.update(random_state=3, greater_is_better=False)
    res = bayesian_signed_rank(reference[:, None], others, **kw)
    rows = bayesian_signed_rank(reference[None, :], others.T, axis=1, **kw)
    assert res.samples.shape == (5, n_draws, 3) and res.n == n
    np.testing.assert_array_equal(rows.samples, res.samples)
    decisions = res.decide(0.9)
    for j in range(5):
        one = bayesian_signed_rank(reference, others[:, j], **kw)
        assert res.samples[j].tobytes() == one.samples.tobytes()
        assert (res.p_greater[j], res.p_rope[j], res.p_less[j]) == (
            one.p_greater,
            one.p_rope,
            one.p_less,
        )
        assert res.standard_error[j] == one.standard_error
        assert decisions[j] == one.decide(0.9)
