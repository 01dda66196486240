"""Time the hierarchical Bayesian model: ours (NumPyro) beside baycomp + pystan.

Run from the repository root with the ``bayes`` extra installed (and, for the
comparison, ``pip install pystan baycomp``)::

    PYTHONPATH=. python benchmarks/bayesian_hierarchical_speed.py
    PYTHONPATH=. python benchmarks/bayesian_hierarchical_speed.py --mc-error [SEEDS]

Prints, for 8 data sets x 10 folds (the size of baycomp's example) at our defaults
(4 chains x 1000 draws after 500 warm-up steps, a Monte Carlo error of each
probability of about 0.01): the wall-clock and CPU time of a fit in a first fresh
Python process (imports and JAX's compile included) and in a second one, which
reads the program the first kept in JAX's persistent compilation cache
(``JAX_COMPILATION_CACHE_DIR``, turned on by the user: here a new folder for the
two; goal <= 3.5 s), and of the first call in this process and of a
second call on new data of the same shape (the compiled sampler reused), each with
the load average; CPU seconds (this process's threads plus its finished child
processes) are less sensitive to a loaded machine; R-hat, ESS and divergent
transitions; then baycomp's ``HierarchicalTest`` (pystan; Stan's compile included
on its first call) on the same data at the same draws, side by side: time and the
three probabilities.
``--mc-error`` instead runs our sampler with 8 seeds (or SEEDS) on the reference
cases of ``tests/reference/bayes_hierarchical`` and prints the standard deviation of
each probability over seeds (the Monte Carlo error the tests' tolerance rests on).

Measured (session 13, 2 CPUs shared, load average 7, so wall times ~2.5 x CPU):
second fresh process 2.7 s CPU (2.96 s median of 4 interleaved with the previous
sampler's 4.31 s: ratio 0.69; that one took 3.5 s CPU at load 1.3), of which about
1.1 s importing JAX and NumPyro, 0.4 s tracing and lowering, 0.2 s loading the
program from JAX's cache and 0.4 s sampling; first process 6.4-7.1 s CPU (was
10.5), nearly all of it XLA's compile. ``--mc-error 16``: sd at most 0.0105.
"""

import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

from sklearn_bench.stats import bayesian_hierarchical

CHAINS, DRAWS, WARMUP, ROPE = 4, 1000, 500, 0.01


def data(rng, q, n, shift=0.005):
    y = rng.uniform(0.7, 0.9, (q, 1)) + rng.normal(0, 0.02, (q, n))
    x = y + shift + rng.normal(0, 0.004, (q, 1)) + rng.normal(0, 0.015, (q, n))
    return x, y


def children_cpu():
    """CPU seconds (user + system) of the finished child processes, plus, with
    psutil, of the live ones (pystan samples in forked workers that outlive a
    call: getrusage does not see them until they exit)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    total = usage.ru_utime + usage.ru_stime
    try:
        import psutil
    except ImportError:
        return total
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
        except psutil.Error:
            continue
        total += times.user + times.system
    return total


def timed(func):
    """Wall time, CPU time of this process (all threads) and of its finished
    child processes (pystan's sampler, a fresh Python) during ``func()``."""
    start, cpu, child = time.perf_counter(), time.process_time(), children_cpu()
    out = func()
    return (
        time.perf_counter() - start,
        time.process_time() - cpu,
        children_cpu() - child,
    ), out


def words(t):
    wall, cpu, child = t
    return f"{wall:.1f} s wall, {cpu + child:.1f} s CPU" + (
        f" ({child:.1f} in child processes)" if child >= 0.05 else ""
    )


def ours(x, y, seed):
    return bayesian_hierarchical(
        x,
        y,
        delta=ROPE,
        rho=1 / x.shape[1],
        greater_is_better=True,
        n_chains=CHAINS,
        n_draws=DRAWS,
        n_warmup=WARMUP,
        random_state=seed,
    )


FRESH = """
import time
start = time.perf_counter()
import numpy as np
from sklearn_bench.stats import bayesian_hierarchical
imported = time.perf_counter()
rng = np.random.default_rng(5)
y = rng.uniform(0.7, 0.9, (8, 1)) + rng.normal(0, 0.02, (8, 10))
x = y + 0.005 + rng.normal(0, 0.004, (8, 1)) + rng.normal(0, 0.015, (8, 10))
bayesian_hierarchical(x, y, delta=0.01, rho=0.1, greater_is_better=True,
                      random_state=0)
print(time.perf_counter() - start, imported - start)
"""


def speed():
    import os
    import subprocess
    import tempfile

    root = Path(__file__).resolve().parents[1]
    print(f"ours: NumPyro NUTS, {CHAINS} chains x {DRAWS} draws, {WARMUP} warm-up")
    # a new cache folder: the first process compiles, the second loads
    with tempfile.TemporaryDirectory() as cache:
        env = {"PYTHONPATH": os.pathsep.join([str(root), *sys.path[1:]]),
               "PATH": "", "OMP_NUM_THREADS": "1",
               "JAX_COMPILATION_CACHE_DIR": cache}  # fmt: skip
        for which in ("first (compiles)", "second (reads JAX's cache)"):
            tf, out = timed(
                lambda: subprocess.run(
                    [sys.executable, "-c", FRESH],
                    capture_output=True,
                    text=True,
                    check=True,
                    env=env,
                )
            )
            inside, imports = (float(v) for v in out.stdout.split())
            print(
                f"  8 x 10 in a {which} fresh process: {words(tf)} (start-up, "
                f"imports and compilation included; {inside:.2f} s wall inside "
                f"it, {imports:.2f} s of them importing; JAX is imported by the "
                f"fit); load average {os.getloadavg()[0]:.1f} on "
                f"{os.cpu_count()} CPUs",
                flush=True,
            )
    rng = np.random.default_rng(0)
    first, second = data(rng, 8, 10), data(rng, 8, 10)
    t1, _ = timed(lambda: ours(*first, 0))
    t2, r2 = timed(lambda: ours(*second, 1))
    print(
        f"  8 x 10 in this process: first call {words(t1)}; second call (new "
        f"data, compiled program reused) {words(t2)}; R-hat "
        f"{r2.details['r_hat']:.3f}, ESS {r2.details['ess']:.0f}, divergences "
        f"{r2.details['divergences']}; P = {r2.p_greater:.3f}, {r2.p_rope:.3f}, "
        f"{r2.p_less:.3f}; load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    try:
        import stan  # noqa: F401
        from baycomp.multiple import HierarchicalTest
    except ImportError:
        print("baycomp + pystan not installed: no side-by-side comparison")
        return
    # first on our second call's data (probabilities side by side), then on new
    # data (pystan caches a fit of identical data: that would time nothing)
    for call, xy in (("first", second), ("second, new data", first)):
        tb, samples = timed(
            lambda xy=xy: HierarchicalTest.sample(
                *xy, ROPE, runs=1, chains=CHAINS, nsamples=DRAWS
            )
        )
        # baycomp's Posterior.probs: the share of draws where each region wins
        p = np.bincount(np.argmax(samples, axis=1), minlength=3) / len(samples)
        print(
            f"baycomp + pystan, 8 x 10, same draws, {call} call: {words(tb)} "
            f"(Stan's compile included when not cached); P = {p[0]:.3f}, "
            f"{p[1]:.3f}, {p[2]:.3f}",
            flush=True,
        )
        if call == "first":
            print(f"  ours on the same data: P = {r2.p_greater:.3f}, "
                  f"{r2.p_rope:.3f}, {r2.p_less:.3f}")  # fmt: skip
        else:
            print(
                f"  ratio baycomp / ours (second calls): wall {tb[0] / t2[0]:.1f}, "
                f"CPU {(tb[1] + tb[2]) / (t2[1] + t2[2]):.1f}"
            )


def mc_error(seeds=8):
    path = Path(__file__).resolve().parents[1] / "tests/reference/bayes_hierarchical"
    ref = json.loads((path / "reference.json").read_text())
    for name, c in ref.items():
        x, y = np.array(c["x"]), np.array(c["y"])
        draws = []
        for seed in range(seeds):
            r = bayesian_hierarchical(
                x,
                y,
                delta=c["rope"],
                rho=c["rho"],
                greater_is_better=True,
                random_state=seed,
            )
            draws.append((r.p_greater, r.p_rope, r.p_less))
        draws = np.array(draws)
        print(
            f"{name:13s} mean {np.round(draws.mean(0), 4)} sd over {seeds} seeds "
            f"{np.round(draws.std(0, ddof=1), 4)}; baycomp {c['probabilities']}",
            flush=True,
        )


if __name__ == "__main__":
    if "--mc-error" in sys.argv:
        rest = sys.argv[sys.argv.index("--mc-error") + 1 :]
        mc_error(int(rest[0]) if rest else 8)
    else:
        speed()
