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


class _Config:
    """A stand-in for ``jax.config``: records the updates, sets nothing."""

    jax_compilation_cache_dir = None

    def __init__(self):
        self.updates = {}

    def update(self, name, value):
        self.updates[name] = value


def _fake_jax():
    from types import SimpleNamespace

    return SimpleNamespace(config=_Config(), __version__="0.0")


@pytest.mark.parametrize(
    ("value", "expected"),
    [("0", None), ("off", None), ("", None), ("relative/dir", None)],
)
def test_cache_folder_is_off_or_refused(monkeypatch, value, expected):
    """H: SKLEARN_BENCH_CACHE_DIR set to 0, off or empty turns the cache off, and
    a relative path is refused (nothing is written to the working directory)."""
    monkeypatch.setenv(_mcmc.CACHE_ENV, value)
    assert _mcmc.cache_folder() is expected


def test_cache_folder_is_the_users_cache_or_the_variable(monkeypatch, tmp_path):
    """H: without the variable the folder is sklearn_bench in $XDG_CACHE_HOME (on
    Linux); an absolute value is used as it is."""
    import sys

    monkeypatch.delenv(_mcmc.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    if sys.platform.startswith("linux"):
        assert _mcmc.cache_folder() == tmp_path / "sklearn_bench"
    monkeypatch.setenv(_mcmc.CACHE_ENV, str(tmp_path / "mine"))
    assert _mcmc.cache_folder() == tmp_path / "mine"


def test_persistent_cache_sets_a_private_folder_and_refuses_a_shared_one(
    monkeypatch, tmp_path
):
    """H: persistent_cache points JAX at a private folder under the cache folder
    (jax-<machine>, mode 700) with thresholds 0; a folder writable by others is
    refused with one RuntimeWarning and nothing set; a cache folder the user gave
    JAX is left alone."""
    import os
    import sys

    pytest.importorskip("jaxlib")
    monkeypatch.setenv(_mcmc.CACHE_ENV, str(tmp_path / "cache"))
    jax = _fake_jax()
    folder = _mcmc.persistent_cache(jax)
    assert folder.parent == tmp_path / "cache" and folder.name.startswith("jax-")
    assert jax.config.updates == {
        "jax_compilation_cache_dir": str(folder),
        "jax_persistent_cache_min_compile_time_secs": 0.0,
        "jax_persistent_cache_min_entry_size_bytes": 0,
    }
    if sys.platform != "win32":
        assert folder.stat().st_mode & 0o777 == 0o700
        os.chmod(folder, 0o777)
        jax = _fake_jax()
        with pytest.warns(RuntimeWarning, match="not private to this user"):
            assert _mcmc.persistent_cache(jax) is None
        assert jax.config.updates == {}
    jax = _fake_jax()
    jax.config.jax_compilation_cache_dir = "/the/users/own"
    assert _mcmc.persistent_cache(jax) is None and jax.config.updates == {}


_FRESH = """
import jax, numpy as np
events = []
jax.monitoring.register_event_listener(lambda name, **kw: events.append(name))
from sklearn_bench.stats import bayesian_hierarchical
rng = np.random.default_rng(0)
y = rng.normal(0.8, 0.02, (3, 5)); x = y + rng.normal(0.01, 0.01, (3, 5))
r = bayesian_hierarchical(x, y, delta=0.01, rho=0.2, random_state=0, n_draws=30,
                          n_warmup=30, greater_is_better=True)
import importlib.util, sys
print(events.count("/jax/compilation_cache/compile_requests_use_cache"),
      repr(r.p_greater), repr(float(r._samples.sum())),
      *(m in sys.modules for m in ("numpyro", "pandas", "scipy.stats", "sklearn")))
"""


def test_a_second_process_runs_the_stored_sampler(tmp_path):
    """H: with a new cache folder, a first process compiles the hierarchical
    model's sampler (JAX's compile requests) and keeps the executable in the
    folder (one .xla file); a second process runs it from there without
    compiling, lowering or tracing anything (no compile request: not even
    JAX's small PRNG programs) and without importing NumPyro, pandas,
    scipy.stats or scikit-learn, and draws the same samples bit for bit; a
    process that finds the program only in JAX's cache keeps it whole in the
    folder for the next."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    pytest.importorskip("numpyro")
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), OMP_NUM_THREADS="1")
    env[_mcmc.CACHE_ENV] = str(tmp_path)

    def fresh(code=_FRESH, env=env):
        """A new process running ``code``: what it prints, and its stderr."""
        done = subprocess.run(
            [sys.executable, "-W", "ignore", "-c", code],
            capture_output=True, text=True, env=env, check=True,
        )  # fmt: skip
        return done.stdout.split(), done.stderr

    runs = [fresh()[0] for _ in range(2)]
    assert int(runs[0][0]) >= 1 and runs[0][3] == "True"  # compiled, traced
    assert len(list(tmp_path.glob("jax-*/sklearn_bench-hierarchical-*.xla"))) == 1
    assert runs[1][0] == "0"
    assert runs[1][3:] == ["False"] * 4  # numpyro, pandas, scipy.stats, sklearn
    assert runs[0][1:3] == runs[1][1:3]
    # a process that does not import JAX first (as a report) says nothing on
    # stderr: the CPU client made while JAX loads printed jaxlib's INFO lines
    # (JAX sets TF_CPP_MIN_LOG_LEVEL when imported: this test's process has)
    printed, stderr = fresh(
        _FRESH.replace("import jax, numpy", "import numpy").replace(
            "jax.monitoring.", "0 and jax.monitoring."
        ),
        {k: v for k, v in env.items() if k != "TF_CPP_MIN_LOG_LEVEL"},
    )
    assert printed[1:3] == runs[0][1:3]
    assert stderr == ""
    # JAX's cache holds the program but the folder not (a new version of this
    # package: the same program, another digest): the process that reads it
    # from JAX's cache compiles it once more and keeps it whole (a program read
    # from JAX's cache serialises without some kernels: 20% smaller, and
    # compiled again at its first run), and the next process runs it from the
    # folder
    (kept,) = tmp_path.glob("jax-*/sklearn_bench-hierarchical-*.xla")
    size = kept.stat().st_size
    kept.unlink()
    again = [fresh()[0] for _ in range(2)]
    assert int(again[0][0]) >= 1 and kept.exists()  # read from JAX's cache
    assert abs(kept.stat().st_size - size) < 0.01 * size
    assert again[1][0] == "0" and again[1][3:] == ["False"] * 4
    assert again[0][1:3] == again[1][1:3] == runs[0][1:3]


def test_chain_keys_are_jaxs_split_keys():
    """H: chain_keys(seed, n) in NumPy equals jax.random.split(PRNGKey(seed), n)
    bit for bit, for small, large (up to 2**32 - 1) and beyond-32-bit seeds."""
    jax = pytest.importorskip("jax")
    for seed in (0, 1, 7, 12345, 2**31 - 1, 2**31, 2**32 - 1, 2**32 + 5):
        for n in (1, 2, 4, 7):
            np.testing.assert_array_equal(
                _mcmc.chain_keys(seed, n),
                np.asarray(jax.random.split(jax.random.PRNGKey(seed), n)),
            )


def _sampler(n_draws=30):
    from sklearn_bench.stats import _hierarchical

    args = tuple(
        np.asarray(a, dtype=np.float32)
        for a in ([0.01, 0.02], [1e-3, 2e-3], 5.0, [0.2, 0.2],
                  [1, 1, 1, 0.5, 5, 0.05, 0.15])
    )  # fmt: skip
    run = _mcmc.nuts_sampler(
        "test", _hierarchical._model_factory, args, size=(2,), n_chains=2,
        n_draws=n_draws, n_warmup=30,
    )  # fmt: skip
    return run(3, 0.8, *args)


def test_stored_sampler_draws_what_the_compiled_one_draws(monkeypatch, tmp_path):
    """H: a program compiled in this process is stored, and the sampler read
    back draws bit for bit what the compiled one drew; a damaged, truncated or
    foreign file is not run (the sampler is compiled again, same draws) and is
    replaced by a whole program (compiled past JAX's cache: XLA re-serialises
    an executable read from there without some of its kernels); a stored
    program that fails when run is deleted, the sampler compiled, same draws,
    and no program of it is stored again (it would fail again)."""
    pytest.importorskip("numpyro")
    import jax
    from jax.experimental.compilation_cache import compilation_cache

    monkeypatch.setenv(_mcmc.CACHE_ENV, str(tmp_path))
    own = jax.config.jax_compilation_cache_dir
    try:  # a new JAX cache: the first compile is not read from it
        compilation_cache.reset_cache()
        jax.config.update("jax_compilation_cache_dir", str(tmp_path / "jax"))
        _mcmc.release_compiled_samplers()
        compiled, _ = _sampler()
        (path,) = tmp_path.glob("jax-*/sklearn_bench-test-*.xla")
        good = path.read_bytes()
        loads = []
        real = _mcmc.stored_program
        monkeypatch.setattr(
            _mcmc, "stored_program", lambda *a: loads.append(real(*a)) or loads[-1]
        )
        damaged = bytearray(good)
        damaged[-100] ^= 1
        for data in (good, bytes(damaged), good[:-10], b"not a program"):
            path.write_bytes(data)
            _mcmc.release_compiled_samplers()
            draws, _ = _sampler()
            for site in compiled:
                np.testing.assert_array_equal(draws[site], compiled[site])
            # run, not failed (a failure deletes it); refused and replaced by
            # a whole program, compiled again
            kept = path.read_bytes()
            assert (kept == data) == (data == good)
            assert abs(len(kept) - len(good)) < 0.01 * len(good)
        assert [p is not None for p in loads] == [True, False, False, False]

        def failing(*args):
            raise RuntimeError("jaxlib changed")

        failing.stored = True
        path.write_bytes(good)
        monkeypatch.setattr(_mcmc, "stored_program", lambda *a: failing)
        _mcmc.release_compiled_samplers()
        draws, _ = _sampler()
        for site in compiled:
            np.testing.assert_array_equal(draws[site], compiled[site])
        assert not path.exists() and path.with_suffix(".failed").exists()
        monkeypatch.setattr(_mcmc, "stored_program", real)
        _mcmc.release_compiled_samplers()
        draws, _ = _sampler()
        assert not path.exists()
    finally:
        _mcmc.release_compiled_samplers()
        compilation_cache.reset_cache()
        jax.config.update("jax_compilation_cache_dir", own)
