"""Time the hierarchical Bayesian model: ours (NumPyro) against baycomp + pystan.

Run from the repository root with the ``bayes`` extra installed (and, for the
comparison, ``pip install pystan baycomp``)::

    PYTHONPATH=. python benchmarks/bayesian_hierarchical_speed.py
    PYTHONPATH=. python benchmarks/bayesian_hierarchical_speed.py --mc-error

Prints the wall-clock time of the first call in this process (JAX's JIT compile
included) and of a second call on new data of the same shape, for 8 data sets x 10
folds (the size of baycomp's example) and 100 data sets x 100 folds, at 4 chains x
5000 draws after 1000 warm-up steps; then baycomp's ``HierarchicalTest`` (Stan
compile included on its first call) at the same draws on 8 x 10 and the ratio.
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

CHAINS, DRAWS, WARMUP, ROPE = 4, 5000, 1000, 0.01


def data(rng, q, n, shift=0.005):
    y = rng.uniform(0.7, 0.9, (q, 1)) + rng.normal(0, 0.02, (q, n))
    x = y + shift + rng.normal(0, 0.004, (q, 1)) + rng.normal(0, 0.015, (q, n))
    return x, y


def timed(func):
    start = time.perf_counter()
    out = func()
    return time.perf_counter() - start, out


def ours(x, y, seed):
    return bayesian_hierarchical(
        x,
        y,
        rope=ROPE,
        rho=1 / x.shape[1],
        n_chains=CHAINS,
        n_samples=DRAWS,
        n_warmup=WARMUP,
        random_state=seed,
    )


def speed():
    rng = np.random.default_rng(0)
    print(f"ours: NumPyro NUTS, {CHAINS} chains x {DRAWS} draws, {WARMUP} warm-up")
    for q, n in [(8, 10), (100, 100)]:
        first, second = data(rng, q, n), data(rng, q, n)
        t1, _ = timed(lambda: ours(*first, 0))  # noqa: B023
        t2, r2 = timed(lambda: ours(*second, 1))  # noqa: B023
        print(
            f"  {q:3d} x {n:3d}: first call {t1:6.1f} s (incl. JIT), second "
            f"{t2:6.1f} s; R-hat {r2.details['r_hat']:.3f}, ESS "
            f"{r2.details['ess']:.0f}, divergences {r2.details['divergences']}",
            flush=True,
        )
        if (q, n) == (8, 10):
            ours_small = t1
    try:
        import stan  # noqa: F401
        from baycomp.multiple import HierarchicalTest
    except ImportError:
        print("baycomp + pystan not installed: no comparison")
        return
    x, y = data(np.random.default_rng(1), 8, 10)
    tb, _ = timed(
        lambda: HierarchicalTest.sample(x, y, ROPE, chains=CHAINS, nsamples=DRAWS)
    )
    print(
        f"baycomp + pystan, 8 x 10, same draws: {tb:6.1f} s (Stan compile included "
        f"when not cached); ratio baycomp / ours (first calls) = {tb / ours_small:.1f}"
    )


def mc_error(seeds=8):
    path = Path(__file__).resolve().parents[1] / "tests/reference/bayes_hierarchical"
    ref = json.loads((path / "reference.json").read_text())
    for name, c in ref.items():
        x, y = np.array(c["x"]), np.array(c["y"])
        draws = []
        for seed in range(seeds):
            r = bayesian_hierarchical(
                x, y, rope=c["rope"], rho=c["rho"], random_state=seed
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
