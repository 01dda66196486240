"""Time the hierarchical Bayesian model: ours (NumPyro) beside baycomp + pystan.

Run from the repository root with the ``bayes`` extra installed (and, for the
comparison, ``pip install pystan baycomp``)::

    PYTHONPATH=. python benchmarks/bayesian_hierarchical_speed.py
    PYTHONPATH=. python benchmarks/bayesian_hierarchical_speed.py --mc-error

Prints, for 8 data sets x 10 folds (the size of baycomp's example) at our defaults
(4 chains x 2000 draws after 500 warm-up steps): the wall-clock time of a fit in a
fresh Python process (imports and JAX's compile included), of the first call in
this process and of a second call on new data of the same shape (the compiled
sampler reused), with CPU seconds in parentheses (less sensitive to a loaded
machine), R-hat, ESS and divergent transitions; then baycomp's
``HierarchicalTest`` (pystan; Stan's compile included on its first call) on the
same data at the same draws, side by side: time and the three probabilities.
``--mc-error`` instead runs our sampler with 8 seeds on the reference cases of
``tests/reference/bayes_hierarchical`` and prints the standard deviation of each
probability over seeds (the Monte Carlo error the tests' tolerance rests on).
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

from sklearn_bench.stats import bayesian_hierarchical

CHAINS, DRAWS, WARMUP, ROPE = 4, 2000, 500, 0.01


def data(rng, q, n, shift=0.005):
    y = rng.uniform(0.7, 0.9, (q, 1)) + rng.normal(0, 0.02, (q, n))
    x = y + shift + rng.normal(0, 0.004, (q, 1)) + rng.normal(0, 0.015, (q, n))
    return x, y


def timed(func):
    """Wall time and CPU time (all threads of this process) of ``func()``."""
    start, cpu = time.perf_counter(), time.process_time()
    out = func()
    return (time.perf_counter() - start, time.process_time() - cpu), out


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
rng = np.random.default_rng(5)
y = rng.uniform(0.7, 0.9, (8, 1)) + rng.normal(0, 0.02, (8, 10))
x = y + 0.005 + rng.normal(0, 0.004, (8, 1)) + rng.normal(0, 0.015, (8, 10))
bayesian_hierarchical(x, y, delta=0.01, rho=0.1, greater_is_better=True,
                      random_state=0)
print(time.perf_counter() - start)
"""


def speed():
    import subprocess

    root = Path(__file__).resolve().parents[1]
    out = subprocess.run(
        [sys.executable, "-c", FRESH],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(root), "PATH": ""},
    )
    print(f"ours, 8 x 10 in a fresh process: {float(out.stdout):.1f} s")
    rng = np.random.default_rng(0)
    print(f"ours: NumPyro NUTS, {CHAINS} chains x {DRAWS} draws, {WARMUP} warm-up")
    first, second = data(rng, 8, 10), data(rng, 8, 10)
    t1, _ = timed(lambda: ours(*first, 0))
    t2, r2 = timed(lambda: ours(*second, 1))
    print(
        f"  8 x 10: first call {t1[0]:.1f} s ({t1[1]:.1f} CPU), second "
        f"{t2[0]:.1f} s ({t2[1]:.1f} CPU); R-hat {r2.details['r_hat']:.3f}, ESS "
        f"{r2.details['ess']:.0f}, divergences {r2.details['divergences']}; "
        f"P = {r2.p_greater:.3f}, {r2.p_rope:.3f}, {r2.p_less:.3f}",
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
            f"baycomp + pystan, 8 x 10, same draws, {call} call: "
            f"{tb[0]:.1f} s ({tb[1]:.1f} CPU; Stan's compile included when not "
            f"cached); P = {p[0]:.3f}, {p[1]:.3f}, {p[2]:.3f}",
            flush=True,
        )
        if call == "first":
            print(f"  ours on the same data: P = {r2.p_greater:.3f}, "
                  f"{r2.p_rope:.3f}, {r2.p_less:.3f}")  # fmt: skip
        else:
            print(f"  ratio baycomp / ours (second calls, wall) = {tb[0] / t2[0]:.1f}")


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
    mc_error() if "--mc-error" in sys.argv else speed()
