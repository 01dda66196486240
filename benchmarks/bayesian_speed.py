"""Time the Bayesian signed-rank and sign tests: 50 000 samples, 50 data sets.

Run from the repository root: ``PYTHONPATH=. python benchmarks/bayesian_speed.py``.
Prints the best wall-clock time of a few runs of
:func:`sklearn_bench.stats.bayesian_signed_rank` and
:func:`~sklearn_bench.stats.bayesian_sign_test` (vectorised: Dirichlet draws in
batches, region probabilities as matrix products) and, when baycomp is
installed, of baycomp 1.0's ``SignedRankTest`` (a Python loop over the samples)
and the ratio. Then the report's batch of issue 39 (the best of 49 learners
against each other one, 480 data sets, at the report's draws,
``results._bayesian.N_SAMPLES``: sorted sums in column blocks, one thread)
twice, with the load: wall and CPU seconds, and whether the samples are the
same bits.
"""

import os
import time

import numpy as np

from sklearn_bench.stats import (
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
)

N_DATASETS, N_SAMPLES, ROPE, REPEATS = 50, 50_000, 0.01, 3


def best_time(func):
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - start)
    return min(times), out


def main():
    rng = np.random.default_rng(0)
    y = rng.uniform(0.6, 0.9, N_DATASETS)
    x = y + rng.normal(0.005, 0.02, N_DATASETS)
    ours, res = best_time(
        lambda: bayesian_signed_rank(
            x, y, delta=ROPE, n_draws=N_SAMPLES, random_state=0, greater_is_better=True
        )
    )
    print(
        f"bayesian_signed_rank: {N_SAMPLES} samples, {N_DATASETS} data sets: "
        f"best {ours:.3f} s of {REPEATS}; p = ({res.p_greater:.4f}, "
        f"{res.p_rope:.4f}, {res.p_less:.4f}), MC SE <= {res.standard_error:.4f}"
    )
    sign, _ = best_time(
        lambda: bayesian_sign_test(
            x, y, delta=ROPE, n_draws=N_SAMPLES, random_state=0, greater_is_better=True
        )
    )
    print(f"bayesian_sign_test:   same input: best {sign:.4f} s")
    folds = rng.normal(0.01, 0.02, 100)
    corr, _ = best_time(
        lambda: bayesian_correlated_t(
            folds, np.zeros(100), delta=ROPE, rho=0.1, greater_is_better=True
        )
    )
    print(f"bayesian_correlated_t: 100 fold scores (closed form): {1e3 * corr:.2f} ms")
    batch()
    try:
        import baycomp
    except ImportError:
        print("baycomp not installed: no comparison")
        return
    theirs, _ = best_time(
        lambda: baycomp.SignedRankTest.probs(
            x, y, rope=ROPE, nsamples=N_SAMPLES, random_state=0
        )
    )
    print(
        f"baycomp 1.0 SignedRankTest.probs, same input: best {theirs:.3f} s; "
        f"ratio baycomp / sklearn_bench = {theirs / ours:.1f}"
    )


def batch():
    """The report's signed-rank batch, twice in this process (one thread)."""
    from sklearn_bench.results._bayesian import N_SAMPLES as n_draws

    rng = np.random.default_rng(0)
    best = np.round(rng.uniform(0.1, 0.4, 480), 3)
    others = np.round(best[:, None] + rng.normal(0.01, 0.02, (480, 49)), 3)
    samples = []
    for _ in range(2):
        wall, cpu = time.perf_counter(), time.process_time()
        res = bayesian_signed_rank(
            best[:, None], others, delta=ROPE, n_draws=n_draws, random_state=0,
            greater_is_better=False,
        )  # fmt: skip
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        samples.append(res.samples.tobytes())
        load = os.getloadavg()[0]
        print(f"signed-rank batch 49 x 480 x {n_draws:,}: wall {wall:.2f} s, "
              f"CPU {cpu:.2f} s (load {load:.1f})")  # fmt: skip
    print(f"same samples on both runs: {len(set(samples)) == 1}")


if __name__ == "__main__":
    main()
