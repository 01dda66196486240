"""stats.bayesian_plackett_luce against Stan (pystan) and choix's maximum likelihood.

The reference posteriors in ``tests/reference/bayes_plackett_luce/reference.json`` were
made by ``make_reference.py`` beside them: the Plackett–Luce model with a Dirichlet
prior of Calvo, Ceberio & Lozano (2018) as scmamp's ``bPlackettLuceModel`` fits it,
written in Stan from the paper's definition and sampled by pystan 3.10 (4 chains x
25 000 draws per case); the suite does not need pystan. Our sampler is Caron &
Doucet's (2012) Gibbs sampler in NumPy: no optional back end, every test runs.
"""

import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_bench.stats import PlackettLuceResult, bayesian_plackett_luce

REFERENCE = (
    Path(__file__).resolve().parents[1]
    / "reference"
    / "bayes_plackett_luce"
    / "reference.json"
)


# Monte Carlo error. Ours at 4 chains x 8000 draws after 200 warm-up sweeps (the
# fits below; a few tenths of a second per case): the standard deviation over 8 seeds
# of each posterior mean, measured on the four reference cases
# (benchmarks/bayesian_plackett_luce.py --mc-error --draws 8000), was at most 0.00069
# for the weights, 0.00094 for P(A above B), 0.0047 for the expected rank (15
# learners) and 0.0080 for scmamp's mode rank (a mean of integer positions,
# near-equal learners); MC_SD is 1.5 times the largest of the first two, rounded up
# to the NUTS sampler's 0.00096 this tolerance was first set from. The reference's
# own error is its batch-means standard error (``weights_mcse`` in reference.json, at
# most REF_SE). Agreement is required within 4 combined standard deviations (TOL =
# 0.0061) for the weights (= P(first)) and P(A above B) of every pair, K * TOL for
# the expected rank (its range is K) and 0.1 (> 4 x 1.5 x 0.0144) for the mode rank.
# Measured: the mean over the 8 seeds is within 0.00027 of Stan's weights, 0.00076 of
# its P(A above B) and 0.0025 of its expected ranks. At the defaults (2500 draws per
# chain here) the standard deviations are at most 0.00113 and 0.00153.
MC_SD = 1.5 * 0.00096
REF_SE = 0.0003
TOL = 4 * np.hypot(MC_SD, REF_SE)
CASES = ["clear_order", "near_equal", "many_learners", "dirichlet_prior"]


@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


@pytest.fixture(scope="module")
def fits(reference):
    """Our fit of every reference case at 8000 draws per chain, seed 0."""
    out = {}
    for case in CASES:
        c = reference[case]
        out[case] = bayesian_plackett_luce(
            np.array(c["scores"]),
            greater_is_better=c["greater_is_better"],
            prior=c["alpha"],
            n_draws=8000,
            random_state=0,
        )
    return out


@pytest.mark.parametrize("case", CASES)
def test_posterior_matches_stan(reference, fits, case):
    """H: on each reference case (a clear order, near-equal learners, 15 learners,
    an unequal Dirichlet prior) the posterior means of the weights (P(first)),
    of P(A above B) for every pair and of the expected rank equal Stan's within
    the Monte Carlo error (TOL; the rank within K·TOL), scmamp's mode rank
    within 0.1 and the posterior sd of the weights within 5%."""
    c = reference[case]
    res = fits[case]
    assert res.diagnostics_ok
    np.testing.assert_allclose(res.p_first.to_numpy(), c["weights_mean"], atol=TOL)
    ref_above = np.array(c["p_above"], dtype=float)
    ours = res.p_above.to_numpy()
    np.testing.assert_allclose(ours, ref_above, atol=TOL)
    k = len(c["weights_mean"])
    np.testing.assert_allclose(
        res.expected_rank.to_numpy(), c["expected_rank"], atol=k * TOL
    )
    np.testing.assert_allclose(res.mode_rank.to_numpy(), c["mode_rank"], atol=0.1)
    np.testing.assert_allclose(
        res.details["weights_sd"], c["weights_sd"], rtol=0.05, atol=TOL
    )


def test_summaries_are_consistent(fits):
    """H: the summaries of one posterior agree with each other: P(first) and
    P(best) sum to 1, p_above + p_above.T = 1, each learner's rank
    probabilities sum to 1, the expected ranks sum to K(K + 1)/2 and the
    credible intervals contain the means."""
    res = fits["clear_order"]
    assert res.p_first.sum() == pytest.approx(1.0, abs=1e-9)
    above = res.p_above.to_numpy()
    off = ~np.eye(res.n_learners, dtype=bool)
    np.testing.assert_allclose((above + above.T)[off], 1.0, atol=1e-9)
    np.testing.assert_allclose(res.rank_probabilities.sum(axis=1), 1.0, atol=1e-9)
    assert (res.p_first_interval["low"] <= res.p_first).all()
    assert (res.p_first <= res.p_first_interval["high"]).all()
    assert (res.expected_rank_interval["low"] <= res.expected_rank).all()
    assert (res.expected_rank <= res.expected_rank_interval["high"]).all()
    # the expected ranks of all learners sum to 1 + 2 + ... + K
    k = res.n_learners
    assert res.expected_rank.sum() == pytest.approx(k * (k + 1) / 2, abs=1e-9)
    assert res.p_best.sum() == pytest.approx(1.0, abs=1e-9)


def _pl_rankings(rng, weights, n):
    """Orders (best first) of n rankings drawn from PL(weights) (Gumbel trick)."""
    keys = np.log(weights) + rng.gumbel(size=(n, len(weights)))
    return np.argsort(-keys, axis=1)


def test_posterior_mean_tends_to_choix_mle_as_prior_weakens():
    """H: with the uniform Dirichlet(1) prior the posterior mode is the maximum
    likelihood estimate; as the data sets grow (30 -> 300 -> 3000) the prior's
    weight falls and the posterior mean of the weights approaches choix's ML
    Plackett–Luce weights (I-LSR, and Newton-CG as a second ML): the largest
    gap, in posterior standard deviations, shrinks, and is below 0.15 at 3000
    data sets."""
    choix = pytest.importorskip("choix")
    rng = np.random.default_rng(7)
    weights = np.array([0.35, 0.25, 0.2, 0.12, 0.08])
    gaps = []
    for n in (30, 300, 3000):
        orders = _pl_rankings(rng, weights, n)
        # scores lower is better: the position of each learner
        scores = np.argsort(orders, axis=1).astype(float)
        res = bayesian_plackett_luce(
            scores, greater_is_better=False, n_draws=2000, random_state=1
        )
        data = [tuple(row) for row in orders.tolist()]
        mle = np.exp(choix.ilsr_rankings(5, data))
        mle /= mle.sum()
        opt = np.exp(choix.opt_rankings(5, data, alpha=1e-9))
        opt /= opt.sum()
        np.testing.assert_allclose(mle, opt, atol=1e-4)
        sd = res.details["weights_sd"]
        gaps.append(float(np.max(np.abs(res.p_first.to_numpy() - mle) / sd)))
    assert gaps[2] < gaps[0] and gaps[2] < 0.15, gaps


def test_seed_reproduces_and_direction_flips():
    """H: the same random_state gives identical numbers (draws included);
    greater_is_better=True on the negated scores gives the same posterior."""
    rng = np.random.default_rng(2)
    scores = rng.normal(size=(10, 4)) + [0.0, 1.0, 2.0, 3.0]
    kw = {"n_draws": 500, "n_warmup": 300}
    a = bayesian_plackett_luce(scores, greater_is_better=False, random_state=5, **kw)
    b = bayesian_plackett_luce(scores, greater_is_better=False, random_state=5, **kw)
    np.testing.assert_array_equal(a.weights.to_numpy(), b.weights.to_numpy())
    assert a.p_above.equals(b.p_above) and a.description == b.description
    f = bayesian_plackett_luce(-scores, greater_is_better=True, random_state=5, **kw)
    np.testing.assert_array_equal(a.weights.to_numpy(), f.weights.to_numpy())
    # learner 0 has the lowest scores: best for an error rate
    assert a.expected_rank.idxmin() == 0


def test_ties_are_broken_at_random_and_counted():
    """H: ties within a data set are broken in a random order drawn from
    random_state (scmamp's ties.method = "random"): n_tied counts the data sets
    with ties, the same seed gives the same orders, and two learners tied on
    every data set get equal posterior weights up to Monte Carlo error."""
    rng = np.random.default_rng(3)
    scores = rng.normal(size=(40, 3))
    scores[:, 1] = scores[:, 0]  # learners 0 and 1 always tied
    kw = {"n_draws": 1000, "n_warmup": 500, "greater_is_better": False}
    res = bayesian_plackett_luce(pd.DataFrame(scores, columns=list("ABC")),
                                 random_state=0, **kw)  # fmt: skip
    assert res.n_tied == 40 and "ties on 40 data set(s) broken at random" in (
        res.description
    )
    again = bayesian_plackett_luce(scores, random_state=0, **kw)
    np.testing.assert_array_equal(res.details["orders"], again.details["orders"])
    orders = res.details["orders"]
    # about half of the data sets put A before B
    first_a = np.mean(
        [list(row).index(0) < list(row).index(1) for row in orders.tolist()]
    )
    assert 0.25 < first_a < 0.75
    assert abs(res.p_first["A"] - res.p_first["B"]) < 0.1


def test_result_fields_and_poor_diagnostics_warn():
    """H: the result names the learners from a DataFrame, has to_frame sorted by
    expected rank, to_dict in plain data, best() at a threshold; too few draws
    give a RuntimeWarning in words and diagnostics_ok False."""
    rng = np.random.default_rng(4)
    scores = pd.DataFrame(
        rng.normal(size=(20, 3)) + [0.0, 1.0, 2.0], columns=["x", "y", "z"]
    )
    res = bayesian_plackett_luce(
        scores, greater_is_better=False, n_draws=1000, n_warmup=500, random_state=0
    )
    assert isinstance(res, PlackettLuceResult) and res.learners == ["x", "y", "z"]
    assert res.to_frame().index.tolist() == ["x", "y", "z"]
    d = res.to_dict()
    json.dumps(d)
    assert d["learners"] == ["x", "y", "z"] and d["ess"] == res.ess
    assert res.best(0.5 + 1e-9) == "x"
    assert res.weights.shape == (4000, 3)
    with pytest.warns(RuntimeWarning, match="Plackett–Luce ranking of 3 learners"):
        poor = bayesian_plackett_luce(
            scores, greater_is_better=False, n_chains=2, n_draws=20, n_warmup=5,
            random_state=0,
        )  # fmt: skip
    assert not poor.diagnostics_ok and "effective sample size" in poor.diagnostics


def test_runs_without_the_optional_back_end(monkeypatch):
    """H: the Gibbs sampler needs neither NumPyro nor JAX: with both made
    unimportable the model fits and decides."""
    monkeypatch.setitem(sys.modules, "numpyro", None)
    monkeypatch.setitem(sys.modules, "jax", None)
    x = np.random.default_rng(0).normal(size=(30, 3)) + [0.0, 1.0, 2.0]
    res = bayesian_plackett_luce(x, greater_is_better=False, random_state=0)
    assert res.diagnostics_ok and res.best() == 0


@pytest.mark.parametrize(
    ("scores", "kw", "match"),
    [
        (np.zeros(5), {}, "two-dimensional"),
        (np.zeros((3, 1)), {}, "at least 2 learners"),
        (np.zeros((0, 3)), {}, "at least 1 data set"),
        (np.array([[np.nan, 1.0], [1.0, 2.0]]), {}, "NaN"),
        (np.ones((3, 3)), {"prior": 0.0}, "`prior`"),
        (np.ones((3, 3)), {"prior": [1.0, 2.0]}, "`prior`"),
        (np.ones((3, 3)), {"n_draws": 0}, "`n_draws`"),
        (np.ones((3, 3)), {"confidence_level": 1.5}, "`confidence_level`"),
        (np.ones((3, 3)), {"greater_is_better": "yes"}, "`greater_is_better`"),
        (np.ones((3, 3)), {"random_state": -1}, "`random_state`"),
    ],
)
def test_invalid_inputs(scores, kw, match):
    """H: invalid inputs raise ValueError naming the argument or the problem,
    before the back end is imported."""
    with pytest.raises(ValueError, match=match):
        bayesian_plackett_luce(scores, **{"greater_is_better": False, **kw})


def test_interval_level_is_confidence_level():
    """H: the result's interval level is `confidence_level` (one name per concept);
    the old `level` attribute is gone."""
    from sklearn_bench.stats import bayesian_plackett_luce

    scores = np.array([[0.1, 0.2, 0.3], [0.15, 0.1, 0.4], [0.2, 0.25, 0.3]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # few draws
        res = bayesian_plackett_luce(
            scores,
            greater_is_better=False,
            n_chains=2,
            n_draws=50,
            n_warmup=20,
            confidence_level=0.9,
            random_state=0,
        )
    assert res.confidence_level == 0.9
    assert not hasattr(res, "level")
    assert res.to_dict()["confidence_level"] == 0.9
