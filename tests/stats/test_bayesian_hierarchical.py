"""stats.bayesian_hierarchical against baycomp's HierarchicalTest (pystan).

The reference posteriors in ``tests/reference/bayes_hierarchical/reference.json``
were made by ``make_reference.py`` beside them (baycomp 1.0.3 + pystan 3.14, 4 chains x
25 000 draws per case); the suite does not need pystan. The model needs the optional
NumPyro back end (``pip install "sklearn-bench[bayes]"``; CI installs
``.[test,bayes]``): outside CI its tests skip without it, under ``CI=true`` they fail.
"""

import json
import os
import sys
from pathlib import Path

import numpy as np
import pytest

from sklearn_bench.stats import bayesian_hierarchical

REFERENCE = (
    Path(__file__).resolve().parents[1]
    / "reference"
    / "bayes_hierarchical"
    / "reference.json"
)


def _backend_available():
    try:
        import numpyro  # noqa: F401
    except ImportError:
        if os.environ.get("CI", "").lower() == "true":
            raise
        return False
    return True


needs_backend = pytest.mark.skipif(
    not _backend_available(),
    reason='NumPyro back end not installed (pip install "sklearn-bench[bayes]")',
)

# Monte Carlo error of our probabilities at the default draws (4 x 1000 after 500
# warm-up, the per-data-set means integrated out), measured as the standard deviation
# over 16 seeds on the four reference cases (benchmarks/bayesian_hierarchical_speed.py
# --mc-error 16): 0 on the clear winner and the equivalence case, at most 0.0105 on
# "disagreeing" and 0.0070 on "near_rope" (at 4 x 2000: 0.0075 and 0.0069), as
# sqrt(p(1-p)/ESS) predicts with an ESS of about 2 300; MC_SD is the largest. The
# reference's own error, sqrt(p(1-p)/ESS) with an ESS of about 20 000 of baycomp's
# 100 000 draws, is at most 0.004 (two baycomp runs of "disagreeing" differed by
# 0.0017). Agreement is required within 4 combined SDs. Measured agreement (mean over
# 16 seeds): "disagreeing" ours 0.4289/0.3848/0.1863, baycomp 0.4281/0.3865/0.1854;
# "near_rope" ours 0.3297/0.6546/0.0158, baycomp 0.3274/0.6569/0.0158.
MC_SD = 0.0105
REF_SE = 0.004
TOL = 4 * np.hypot(MC_SD, REF_SE)


@pytest.fixture(scope="module")
def reference():
    return json.loads(REFERENCE.read_text())


@needs_backend
@pytest.mark.parametrize(
    "case", ["clear_winner", "equivalence", "disagreeing", "near_rope"]
)
def test_probabilities_match_baycomp_pystan(reference, case):
    """H: on each reference case (clear winner, practical equivalence, data sets
    disagreeing, differences near the ROPE's edge; baycomp's rho = runs /
    n_scores) our three probabilities and mean predictive probabilities equal
    baycomp + pystan's within the Monte Carlo error (TOL), and the shrunken
    per-data-set means agree within 0.2 posterior sd."""
    c = reference[case]
    res = bayesian_hierarchical(
        np.array(c["x"]),
        np.array(c["y"]),
        delta=c["rope"],
        rho=c["rho"],
        random_state=0,
        greater_is_better=True,
    )
    assert res.details["divergences"] == 0 and res.details["r_hat"] <= 1.01
    assert res.reliable and not res.details["retried"]
    ours = (res.p_greater, res.p_rope, res.p_less)
    assert ours == pytest.approx(tuple(c["probabilities"]), abs=TOL)
    assert res.details["mean_probabilities"] == pytest.approx(
        tuple(c["mean_probabilities"]), abs=TOL
    )
    means = np.array([d["mean"] for d in res.details["datasets"]])
    widths = np.array([d["high"] - d["low"] for d in res.details["datasets"]])
    # 95% interval width ~ 3.92 posterior sd
    assert np.abs(means - np.array(c["delta_means"])) == pytest.approx(
        0, abs=0.2 * widths.max() / 3.92 + 1e-4
    )


@needs_backend
def test_seed_reproduces_and_orientation_flips(reference):
    """H: the same random_state gives identical numbers; swapping x and y swaps
    p_greater and p_less (the model is symmetric under d -> -d)."""
    c = reference["disagreeing"]
    x, y = np.array(c["x"]), np.array(c["y"])
    kw = {"delta": 0.01, "rho": c["rho"], "n_draws": 1000, "n_warmup": 500}
    kw["greater_is_better"] = True
    a = bayesian_hierarchical(x, y, random_state=3, **kw)
    b = bayesian_hierarchical(x, y, random_state=3, **kw)
    assert (a.p_greater, a.p_rope, a.p_less) == (b.p_greater, b.p_rope, b.p_less)
    assert a.details["datasets"] == b.details["datasets"]
    f = bayesian_hierarchical(y, x, random_state=3, **kw)
    assert f.p_greater == pytest.approx(a.p_less, abs=TOL)
    assert f.p_less == pytest.approx(a.p_greater, abs=TOL)


@needs_backend
def test_result_reports_diagnostics_and_intervals(reference):
    """H: the result carries R-hat, ESS, divergences, the diagnostics in words,
    per-data-set credible intervals containing their means, labels and the
    metric's direction."""
    c = reference["clear_winner"]
    res = bayesian_hierarchical(
        np.array(c["x"]),
        np.array(c["y"]),
        delta=0.01,
        rho=c["rho"],
        random_state=1,
        labels=("A", "B"),
        greater_is_better=False,
    )
    d = res.details
    assert {"r_hat", "ess", "divergences", "diagnostics"} <= set(d)
    assert d["r_hat"] < 1.05 and d["ess"] > 400
    assert all(r["low"] <= r["mean"] <= r["high"] for r in d["datasets"])
    # x scores are higher; with greater_is_better=False that makes B better
    assert res.probabilities["B"] == res.p_greater
    assert res.decision == "B"
    assert res.method == "hierarchical" and res.n == len(c["x"])


def test_without_backend_names_the_extra(monkeypatch):
    """H: without NumPyro the model raises ImportError naming the [bayes] extra
    (the core package imports without it), also when its sampler is already
    compiled in memory (the answer does not depend on what a cache holds)."""
    import warnings

    x = np.random.default_rng(0).normal(size=(3, 5))
    kw = {"delta": 0.01, "rho": 0.2, "greater_is_better": True, "random_state": 0}
    kw.update(n_draws=30, n_warmup=30)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # poor diagnostics of 30 draws
        bayesian_hierarchical(x, x + 0.1, **kw)
    monkeypatch.setitem(sys.modules, "numpyro", None)
    with pytest.raises(ImportError, match=r"sklearn-bench\[bayes\]"):
        bayesian_hierarchical(x, x + 0.1, **kw)


@pytest.mark.parametrize(
    ("x", "y", "kw", "match"),
    [
        (np.zeros((3, 5)), np.zeros((3, 4)), {}, "same shape"),
        (np.zeros(5), np.zeros(5), {}, "2-D"),
        (np.zeros((3, 1)), np.zeros((3, 1)), {}, "at least"),
        (np.array([[np.nan, 1.0], [1.0, 2.0]]), np.ones((2, 2)), {}, "NaN"),
        (np.ones((2, 4)), np.zeros((2, 4)), {}, "constant within every"),
        (np.ones((2, 4)), np.zeros((2, 4)), {"rho": 1.0}, "rho"),
        (np.ones((2, 4)), np.zeros((2, 4)), {"delta": -1}, "delta"),
        (np.ones((2, 4)), np.zeros((2, 4)), {"lower_alpha": 3}, "lower_alpha"),
    ],
)
def test_bad_inputs_raise_value_error(x, y, kw, match):
    """H: wrong shapes, NaN, data without any within-data-set variance, rho
    outside [0, 1), a negative rope and inverted prior bounds raise ValueError
    naming the problem, before the back end is needed."""
    args = {"delta": 0.01, "rho": 0.2, "greater_is_better": True, **kw}
    with pytest.raises(ValueError, match=match):
        bayesian_hierarchical(x, y, **args)


@needs_backend
def test_constant_row_with_rope_zero_raises():
    """H: a data set whose differences are all equal cannot get baycomp's jitter
    within the ROPE when rope = 0: ValueError naming the row."""
    rng = np.random.default_rng(0)
    y = rng.normal(size=(3, 6))
    x = y + rng.normal(0.1, 0.05, (3, 6))
    y[1], x[1] = 0.5, 0.75  # exactly constant differences (0.25 is a binary fraction)
    with pytest.raises(ValueError, match=r"rows \[1\]"):
        bayesian_hierarchical(x, y, delta=0.0, rho=0.2, greater_is_better=True)


@needs_backend
def test_benchmark_result_uses_every_split_and_its_rho():
    """H: BenchmarkResult.bayesian_test(method="hierarchical") runs the model on
    the split scores of every data set (the units of the correlated t) with rho
    from the stored split sizes (1/3 for 3-fold), the default ROPE of the metric,
    and equals the stats function on those arrays with the same seed."""
    from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.results._select import split_pair

    data = {
        name: loader(return_X_y=True)
        for name, loader in [
            ("iris", load_iris),
            ("wine", load_wine),
            ("cancer", load_breast_cancer),
        ]
    }
    result = (
        BenchmarkExperiment(
            {"tree": DecisionTreeClassifier(max_depth=1), "nb": GaussianNB()},
            cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0),
            random_state=0,
            progress=False,
        )
        .fit(data)
        .results_
    )
    res = result.bayesian_test("tree", "nb", method="hierarchical", random_state=0)
    assert res.method == "hierarchical" and res.n == 3 and res.rope == 0.01
    assert res.details["rho"] == pytest.approx(1 / 3, rel=1e-12)
    pairs = [
        split_pair(result, "tree", "nb", metric="error_rate", dataset=d)
        for d in result.datasets
    ]
    ref = bayesian_hierarchical(
        np.vstack([p.x for p in pairs]),
        np.vstack([p.y for p in pairs]),
        delta=0.01,
        rho=1 / 3,
        random_state=0,
        labels=("tree", "nb"),
        greater_is_better=False,
        n_draws=1000,  # per chain: the report's 4 x 1000, bayesian_test's default
    )
    assert (res.p_greater, res.p_rope, res.p_less) == pytest.approx(
        (ref.p_greater, ref.p_rope, ref.p_less), abs=1e-6
    )
    assert "rho = 0.3333" in res.description
    with pytest.raises(ValueError, match="prior_strength"):
        result.bayesian_test("tree", "nb", method="hierarchical", prior_strength=1)


@needs_backend
def test_constant_row_keeps_its_difference():
    """H: a data set whose differences all equal c = 0.25 (odd number of folds) is
    jittered within the ROPE around c, as baycomp does around 0 for identical
    scores: its credible interval contains c, not 0."""
    rng = np.random.default_rng(0)
    y = rng.normal(0.8, 0.02, (4, 7))
    x = y + rng.normal(0.02, 0.01, (4, 7))
    y[2], x[2] = 0.5, 0.75
    res = bayesian_hierarchical(
        x, y, delta=0.01, rho=0.1, random_state=0, n_draws=500, n_warmup=300,
        greater_is_better=True,
    )  # fmt: skip
    row = res.details["datasets"][2]
    assert row["observed_mean"] == 0.25
    assert row["low"] < 0.25 < row["high"] and row["low"] > 0.1


@needs_backend
def test_compiled_samplers_are_released_past_the_bound(monkeypatch):
    """H: past _MAX_COMPILED samplers the others are forgotten and their machine
    code freed (each compiled program holds ~1,400 memory mappings; XLA aborts
    past vm.max_map_count), without clearing JAX's own caches (the user's)."""
    import jax

    from sklearn_bench.stats import _mcmc

    calls = []
    monkeypatch.setattr(jax, "clear_caches", lambda: calls.append(1))
    monkeypatch.setattr(_mcmc, "_MAX_COMPILED", 2)
    _mcmc.release_compiled_samplers()
    rng = np.random.default_rng(0)
    maps = []
    for q in (3, 4, 5, 6, 7, 8, 9):
        x = rng.normal(0.8, 0.02, (q, 5))
        y = x + rng.normal(0.01, 0.01, (q, 5))
        bayesian_hierarchical(
            x, y, delta=0.01, rho=0.2, random_state=0, n_draws=20, n_warmup=20,
            n_chains=1, greater_is_better=True,
        )  # fmt: skip
        if os.path.exists("/proc/self/maps"):
            with open("/proc/self/maps") as f:
                maps.append(sum(1 for _ in f))
    # one program per shape (a retry at accept 0.99 reuses it): the bound is
    # kept, and what remains is of the last shape only
    assert calls == []
    shapes = [key[2][0] for key in _mcmc._COMPILED]  # of the data sets' means
    assert 1 <= len(shapes) <= 2 and all(s == (9,) for s in shapes)
    if maps:  # bounded: later shapes hold no more than the first three did
        assert max(maps[3:]) <= max(maps[:3]) + 500


@needs_backend
def test_poor_diagnostics_decline_with_one_named_warning(reference):
    """H: a fit whose diagnostics fail (a forced tiny number of draws: 2 chains x
    8 draws after 5 warm-up steps) declines: decision is "unreliable fit" at
    any threshold, to_dict says why, and exactly one RuntimeWarning is raised,
    naming the comparison."""
    import warnings

    c = reference["disagreeing"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = bayesian_hierarchical(
            np.array(c["x"]), np.array(c["y"]), delta=0.01, rho=c["rho"],
            n_chains=2, n_draws=8, n_warmup=5, random_state=0, labels=("A", "B"),
            greater_is_better=True,
        )  # fmt: skip
    runtime = [w for w in caught if issubclass(w.category, RuntimeWarning)]
    assert len(runtime) == 1, [str(w.message) for w in runtime]
    assert "hierarchical model of A − B" in str(runtime[0].message)
    assert not res.reliable
    assert res.decision == res.decide(0.51) == "unreliable fit"
    d = res.to_dict()
    assert d["decision"] == "unreliable fit" and not d["diagnostics_ok"]
    assert "effective sample size" in d["diagnostics"]


@needs_backend
def test_potential_is_numpyros_density_of_the_model():
    """H: the hand-written log density (_potential) equals NumPyro's potential
    energy of the same model written with NumPyro's distributions (the former
    implementation: uniform priors, ν − 1 ~ Gamma(a, b), η_i standard normal
    turned into λ_i ~ Gamma(ν/2, ν/2), the data sets' means and sums of squares)
    in NumPyro's unconstrained coordinates, up to the constant q log(2π) / 2 of
    the normal likelihood, at random points."""
    import jax.numpy as jnp
    import numpyro
    from numpyro import distributions as dist
    from numpyro.infer.util import potential_energy

    from sklearn_bench.stats._hierarchical import _params, _potential

    def model(mean, ss, n, rho, bounds):
        d_hi, s0_hi, s_hi, a_lo, a_hi, b_lo, b_hi = bounds
        delta0 = numpyro.sample("delta0", dist.Uniform(-d_hi, d_hi))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, s0_hi))
        a = numpyro.sample("a", dist.Uniform(a_lo, a_hi))
        b = numpyro.sample("b", dist.Uniform(b_lo, b_hi))
        nu = numpyro.sample("nu_minus_one", dist.Gamma(a, b)) + 1.0
        with numpyro.plate("datasets", mean.shape[0]):
            eta = numpyro.sample("eta", dist.Normal(0.0, 1.0))
            sigma = numpyro.sample("sigma", dist.Uniform(0.0, s_hi))
        inv = 1.0 / nu
        log_sd = jnp.sqrt(2.0 * inv + 2.0 * inv**2 + 4.0 * inv**3 / 3.0)
        log_lam = -inv - inv**2 / 3.0 + log_sd * eta
        lam_density = (
            dist.Gamma(nu / 2, nu / 2).log_prob(jnp.exp(log_lam))
            + log_lam
            + jnp.log(log_sd)
            - dist.Normal(0.0, 1.0).log_prob(eta)
        )
        numpyro.factor("lam", jnp.sum(lam_density))
        c = (1.0 + (n - 1.0) * rho) / n
        spread = jnp.sqrt(std0**2 / jnp.exp(log_lam) + c * sigma**2)
        loglik = (
            -(n - 1.0) * jnp.log(sigma)
            - 0.5 * ss / ((1.0 - rho) * sigma**2)
            + dist.Normal(delta0, spread).log_prob(mean)
        )
        numpyro.factor("loglik", jnp.sum(loglik))

    q = 3
    rng = np.random.default_rng(0)
    bounds = np.array([2.5, 900.0, 1100.0, 1.0, 2.0, 0.01, 0.1], np.float32)
    args = (
        rng.normal(size=q).astype(np.float32),
        rng.uniform(5, 15, q).astype(np.float32),
        np.float32(10.0),
        np.array([0.1, 0.2, 0.1], np.float32),
        bounds,
    )
    for z in rng.uniform(-2, 2, (5, 5 + 2 * q)).astype(np.float32):
        params = {
            "delta0": z[0], "std0": z[1], "a": z[2], "b": z[3],
            "nu_minus_one": z[4], "eta": z[5 : 5 + q], "sigma": z[5 + q :],
        }  # fmt: skip
        theirs = potential_energy(model, args, {}, params)
        ours = _potential(jnp.asarray(z), *args) + q * 0.5 * np.log(2 * np.pi)
        assert float(ours) == pytest.approx(float(theirs), rel=1e-4, abs=1e-3)
    p = _params(np.zeros((1, 5 + 2 * q)), bounds.astype(float), np)
    assert p["delta0"][0] == 0 and p["sigma"][0, 0] == pytest.approx(550.0)
