"""Tests of sklearn_bench/stats/_mcmc.py: the rank-normalised split R-hat
(Vehtari, Gelman, Simpson, Carpenter & Bürkner 2021) that decides, with the
effective sample size and the divergences, whether an MCMC fit may decide."""

import numpy as np
import pytest
from scipy import special, stats

from sklearn_bench.stats import _mcmc


def _reference(draws):
    """Vehtari et al. (2021), eq. (14)-(16) written out for one parameter: the
    split R-hat of BDA3 §11.4 (chains cut in halves) on z = Φ^-1((r - 3/8) /
    (S + 1/4)) of the pooled ranks r, and on the same of |θ - median θ|; the
    larger of the two."""

    def split(x):
        m, n = x.shape
        h = n // 2
        x = x[:, : 2 * h].reshape(2 * m, h)
        w = x.var(axis=1, ddof=1).mean()
        b = h * x.mean(axis=1).var(ddof=1)
        return np.sqrt(((h - 1) / h * w + b / h) / w)

    def z(x):
        r = stats.rankdata(x.ravel()).reshape(x.shape)
        return special.ndtri((r - 3 / 8) / (x.size + 1 / 4))

    return max(split(z(draws)), split(z(np.abs(draws - np.median(draws)))))


def test_equals_the_papers_formula_and_numpyros_split_rhat():
    """H: for one parameter, split_rhat equals Vehtari et al.'s definition
    written out independently (to 1e-12), and its bulk part equals NumPyro's
    split_gelman_rubin applied to the rank-normalised draws (to 1e-6)."""
    rng = np.random.default_rng(0)
    draws = rng.standard_t(3, size=(4, 500)) + np.array([[0], [0], [0.1], [0]])
    assert _mcmc.split_rhat(draws) == pytest.approx(_reference(draws), rel=1e-12)
    diagnostics = pytest.importorskip("numpyro.diagnostics")
    z = _mcmc._rank_normal(draws[:, :, None])[:, :, 0]
    bulk = float(diagnostics.split_gelman_rubin(z))
    assert _mcmc._classic_split_rhat(z[:, :, None])[0] == pytest.approx(bulk, 1e-6)


def test_mixing_chains_pass_and_disagreeing_chains_fail():
    """H: four chains of the same distribution give R-hat below 1.01; chains
    shifted in location (bulk) or of a different scale (folded: the classic
    split R-hat misses this) give more than 1.01; the largest over
    parameters is returned."""
    rng = np.random.default_rng(1)
    same = rng.normal(size=(4, 2000, 3))
    assert _mcmc.split_rhat(same) < 1.01
    shifted = same.copy()
    shifted[0, :, 1] += 0.5
    assert _mcmc.split_rhat(shifted) > 1.01
    scaled = same.copy()
    scaled[0, :, 2] *= 3
    assert _mcmc._classic_split_rhat(scaled)[2] < 1.01 < _mcmc.split_rhat(scaled)


def test_heavy_tails_and_monotone_transforms_do_not_move_it():
    """H: the rank-normalised R-hat of well-mixed Cauchy draws (no finite
    variance) is below 1.01 before and after a monotone transform (exp), and
    its bulk part is unchanged by it (to 1e-12)."""
    rng = np.random.default_rng(2)
    draws = rng.standard_cauchy(size=(4, 1000))
    value = _mcmc.split_rhat(draws)
    assert value < 1.01
    assert _mcmc.split_rhat(np.exp(draws / 50)) < 1.01

    def bulk(x):
        return _mcmc._classic_split_rhat(_mcmc._rank_normal(x[:, :, None]))[0]

    assert bulk(np.exp(draws / 50)) == pytest.approx(bulk(draws), rel=1e-12)


def test_edge_cases_have_documented_answers():
    """H: fewer than 4 draws per chain give 1; a parameter constant in every
    chain is ignored (1 when all are)."""
    rng = np.random.default_rng(3)
    assert _mcmc.split_rhat(rng.normal(size=(4, 3))) == 1.0
    assert _mcmc.split_rhat(np.ones((4, 100, 2))) == 1.0
    mixed = np.concatenate([np.ones((4, 100, 1)), rng.normal(size=(4, 100, 1))], axis=2)
    assert _mcmc.split_rhat(mixed) == pytest.approx(_reference(mixed[:, :, 1]))


def test_ranks_are_scipys_average_ranks():
    """H: the ranks behind the rank-normalised R-hat, computed in NumPy so that a
    fit imports no scipy.stats, equal scipy.stats.rankdata(x, axis=0) exactly:
    distinct values, ties (runs at the start, middle and end of the order),
    constant columns, one row."""
    rng = np.random.default_rng(4)
    cases = [
        rng.normal(size=(200, 3)),
        rng.integers(0, 5, size=(60, 4)).astype(float),
        np.repeat(rng.normal(size=(20, 2)), 3, axis=0),  # every value tied
        np.ones((7, 2)),
        rng.normal(size=(1, 3)),
    ]
    for x in cases:
        np.testing.assert_array_equal(_mcmc._ranks(x), stats.rankdata(x, axis=0))


def test_a_fit_leaves_the_users_jax_state_alone():
    """H: a hierarchical fit changes none of JAX's settings (no compilation
    cache turned on, no threshold lowered) and never clears JAX's caches; two
    fits of one shape draw the same samples bit for bit (the compiled sampler
    reused)."""
    pytest.importorskip("numpyro")
    import jax

    from sklearn_bench.stats import bayesian_hierarchical

    names = [n for n in jax.config.values if "cache" in n or "x64" in n]
    before = {n: jax.config.values[n] for n in names}
    cleared = []
    real = jax.clear_caches
    try:
        jax.clear_caches = lambda: cleared.append(1)
        rng = np.random.default_rng(0)
        y = rng.normal(0.8, 0.02, (3, 5))
        x = y + rng.normal(0.01, 0.01, (3, 5))
        fits = [
            bayesian_hierarchical(
                x,
                y,
                delta=0.01,
                rho=0.2,
                random_state=0,
                n_draws=30,
                n_warmup=30,
                greater_is_better=True,
            )  # fmt: skip
            for _ in range(2)
        ]
        _mcmc.release_compiled_samplers()
    finally:
        jax.clear_caches = real
    assert {n: jax.config.values[n] for n in names} == before
    assert cleared == []
    assert fits[0]._samples.tobytes() == fits[1]._samples.tobytes()


def test_the_package_reaches_into_no_library():
    """H: no module of the package imports a private module of JAX or jaxlib
    (``jax._src``, ``jaxlib``), loky or tqdm's monitor, or calls ``os.fork``
    (issue 48: public APIs only, one process)."""
    import ast
    from pathlib import Path

    import sklearn_bench

    banned = ("jax._src", "jaxlib", "joblib.externals", "loky")
    found = []
    for path in Path(sklearn_bench.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [getattr(node, "module", None) or ""]
                names += [a.name for a in node.names]
                if any(n.startswith(banned) or n == "TMonitor" for n in names):
                    found.append(f"{path.name}:{node.lineno}")
            elif isinstance(node, ast.Attribute) and node.attr in ("fork", "_src"):
                found.append(f"{path.name}:{node.lineno}")
    assert found == []
