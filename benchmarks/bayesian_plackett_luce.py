"""Time the Bayesian Plackett–Luce model (Gibbs, NumPy) against the NUTS path it
replaced, and measure its Monte Carlo error.

Run from the repository root::

    PYTHONPATH=. python benchmarks/bayesian_plackett_luce.py
    PYTHONPATH=. python benchmarks/bayesian_plackett_luce.py --nuts
    PYTHONPATH=. python benchmarks/bayesian_plackett_luce.py --mc-error [--draws N]

The default prints, for 50 learners x 500 data sets and 200 x 2,000, the wall-clock
time of a fit at the defaults in a first and a second fresh Python process
(interpreter start and imports included; the second finds the files in the
operating system's cache; goal at 50 x 500: < 3 s) and, in this process, the
wall and CPU time of a first and a second fit (the CPU time is less sensitive to
a loaded machine), with the smallest effective sample size, the largest R-hat
and the load average. ``--nuts`` adds the NUTS sampler of the model that was
``bayesian_plackett_luce`` up to 0.1 (NumPyro, the ``[bayes]`` extra; its model is
copied below) on 10 x 100 and 50 x 500 at 4 chains x 1000 draws after 1000 warm-up
steps, the report's setting, first call (JAX compile included) and second call,
and prints the ratio NUTS / Gibbs. ``--mc-error`` fits the reference cases of
``tests/reference/bayes_plackett_luce`` with 8 seeds (at ``--draws`` per chain, the
defaults without it) and prints the largest standard deviation over seeds of the
posterior means of the weights, of P(A above B) and of the expected ranks (the
Monte Carlo error the tests' tolerance rests on), and the largest distance of the
mean over seeds from Stan's.
"""

import json
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from sklearn_bench.stats import bayesian_plackett_luce

ROOT = Path(__file__).resolve().parents[1]


def rankings(rng, k, n):
    """Scores (lower is better) of n data sets whose rankings follow PL(0.97^i)."""
    w = 0.97 ** np.arange(k)
    return -(np.log(w / w.sum()) + rng.gumbel(size=(n, k)))


def timed(func):
    """Wall time and CPU time (all threads of this process) of ``func()``."""
    start, cpu = time.perf_counter(), time.process_time()
    out = func()
    return (time.perf_counter() - start, time.process_time() - cpu), out


FRESH = """
import time
start = time.perf_counter()
import numpy as np
from sklearn_bench.stats import bayesian_plackett_luce
imported = time.perf_counter()
w = 0.97 ** np.arange({k})
scores = -(np.log(w / w.sum()) + np.random.default_rng(0).gumbel(size=({n}, {k})))
res = bayesian_plackett_luce(scores, greater_is_better=False, random_state=0)
print(time.perf_counter() - start, imported - start)
"""


def fresh(k, n):
    """Seconds from interpreter start to a fitted model, in a new process (wall,
    measured outside), and the seconds it spent importing (measured inside)."""
    start = time.perf_counter()
    out = subprocess.run(
        [sys.executable, "-c", FRESH.format(k=k, n=n)],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "", "OMP_NUM_THREADS": "1"},
    )
    total = time.perf_counter() - start
    return total, float(out.stdout.split()[1])


def gibbs(scores, seed, **kw):
    return bayesian_plackett_luce(
        scores, greater_is_better=False, random_state=seed, **kw
    )


def speed():
    print("ours: Gibbs sampler (Caron & Doucet 2012), defaults: 4 chains, 200 warm-up")
    print(f"{'K':>4} {'N':>5} {'draws/chain':>11} {'fresh 1st s':>12} "
          f"{'fresh 2nd s':>12} {'(imports)':>9} {'1st call s (CPU)':>17} "
          f"{'2nd call s (CPU)':>17} {'min ESS':>8} {'max R-hat':>10} "
          f"{'load':>5}")  # fmt: skip
    rng = np.random.default_rng(1)
    for k, n in [(50, 500), (200, 2000)]:
        (first, _), (second, imports) = fresh(k, n), fresh(k, n)
        calls = [timed(lambda k=k, n=n: gibbs(rankings(rng, k, n), 1)) for _ in "12"]
        (t1, _), (t2, res) = calls
        draws = res.details["n_draws"] // 4
        print(f"{k:>4} {n:>5} {draws:>11} {first:>12.2f} {second:>12.2f} "
              f"{imports:>9.2f} {f'{t1[0]:.2f} ({t1[1]:.2f})':>17} "
              f"{f'{t2[0]:.2f} ({t2[1]:.2f})':>17} {res.ess:>8.0f} "
              f"{res.r_hat:>10.4f} {os.getloadavg()[0]:>5.1f}", flush=True)  # fmt: skip
    print(f"load average: 1-minute, on {os.cpu_count()} CPUs (goal at 50 x 500: "
          "< 3 s in a fresh process)")  # fmt: skip


def _nuts_model(numpyro, dist, jnp):
    """The NUTS model of versions up to 0.1 (Dirichlet prior, PL likelihood)."""

    def model(order, alpha):
        w = numpyro.sample("w", dist.Dirichlet(alpha))
        placed = w[order]
        remaining = jnp.cumsum(placed[:, ::-1], axis=1)[:, ::-1]
        loglik = jnp.sum(jnp.log(placed[:, :-1])) - jnp.sum(jnp.log(remaining[:, :-1]))
        numpyro.factor("loglik", loglik)

    return model


def nuts(scores, seed, draws=1000, warmup=1000):
    """Weights' posterior means by the old NUTS path (4 chains, vectorised)."""
    import jax
    import jax.numpy as jnp
    import numpyro
    from numpyro import distributions as dist
    from numpyro.infer import MCMC, NUTS

    order = np.argsort(scores, axis=1)
    k = scores.shape[1]
    mcmc = MCMC(
        NUTS(_nuts_model(numpyro, dist, jnp)),
        num_warmup=warmup,
        num_samples=draws,
        num_chains=4,
        chain_method="vectorized",
        progress_bar=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        mcmc.run(
            jax.random.PRNGKey(seed),
            jnp.asarray(order, dtype=jnp.int32),
            jnp.ones(k, dtype=jnp.float32),
        )
    return np.asarray(mcmc.get_samples()["w"]).mean(axis=0)


def versus_nuts():
    print("old path: NumPyro NUTS, 4 chains x 1000 draws, 1000 warm-up (report)")
    print(f"{'K':>4} {'N':>5} {'NUTS 1st s':>11} {'NUTS 2nd s':>11} "
          f"{'Gibbs s':>8} {'ratio 2nd/Gibbs':>16} {'max |dw|':>9}")  # fmt: skip
    rng = np.random.default_rng(2)
    for k, n in [(10, 100), (50, 500)]:
        first, second = rankings(rng, k, n), rankings(rng, k, n)
        t1, _ = timed(lambda s=first: nuts(s, 0))
        t2, w_nuts = timed(lambda s=second: nuts(s, 1))
        tg, res = timed(lambda s=second: gibbs(s, 1, n_draws=1000))
        gap = np.abs(res.p_first.to_numpy() - w_nuts).max()
        print(f"{k:>4} {n:>5} {t1[0]:>11.1f} {t2[0]:>11.1f} {tg[0]:>8.2f} "
              f"{t2[0] / tg[0]:>16.1f} {gap:>9.4f}", flush=True)  # fmt: skip


def mc_error(seeds=8, draws=None):
    path = ROOT / "tests/reference/bayes_plackett_luce"
    reference = json.loads((path / "reference.json").read_text())
    print(f"draws per chain: {draws or 'default'}")
    for case, c in reference.items():
        if case.startswith("_"):
            continue
        fits = [
            bayesian_plackett_luce(
                np.array(c["scores"]),
                greater_is_better=c["greater_is_better"],
                prior=c["alpha"],
                n_draws=draws,
                random_state=seed,
            )
            for seed in range(seeds)
        ]
        w = np.array([f.p_first.to_numpy() for f in fits])
        above = np.array([f.p_above.to_numpy() for f in fits])
        rank = np.array([f.expected_rank.to_numpy() for f in fits])
        mode = np.array([f.mode_rank.to_numpy() for f in fits])
        ref_above = np.array(c["p_above"], dtype=float)
        print(
            f"{case}: sd over {seeds} seeds: weights {w.std(0, ddof=1).max():.5f}, "
            f"P(above) {np.nanmax(above.std(0, ddof=1)):.5f}, expected rank "
            f"{rank.std(0, ddof=1).max():.5f}, mode rank "
            f"{mode.std(0, ddof=1).max():.5f}; |mean - Stan|: weights "
            f"{np.abs(w.mean(0) - c['weights_mean']).max():.5f}, P(above) "
            f"{np.nanmax(np.abs(above.mean(0) - ref_above)):.5f}, expected rank "
            f"{np.abs(rank.mean(0) - c['expected_rank']).max():.5f}, mode rank "
            f"{np.abs(mode.mean(0) - c['mode_rank']).max():.5f}; Stan's MCSE of "
            f"the weights <= {max(c['weights_mcse']):.5f}; min ESS "
            f"{min(f.ess for f in fits):.0f}",
            flush=True,
        )


if __name__ == "__main__":
    if "--mc-error" in sys.argv:
        draws = None
        if "--draws" in sys.argv:
            draws = int(sys.argv[sys.argv.index("--draws") + 1])
        mc_error(draws=draws)
    else:
        speed()
        if "--nuts" in sys.argv:
            versus_nuts()
