"""Time Hothorn's global permutation test: 10^4 permutations of 250 x 10.

Run from the repository root:
``PYTHONPATH=. python benchmarks/global_permutation_speed.py``.
Prints the wall-clock time of :func:`sklearn_bench.stats.global_permutation_test`
(best of a few runs) and the time per permutation.
"""

import time

import numpy as np

from sklearn_bench.stats import global_permutation_test

N_REPLICATES, N_LEARNERS, N_RESAMPLES = 250, 10, 10_000


def main():
    rng = np.random.default_rng(0)
    performance = rng.normal(0.2, 0.03, (N_REPLICATES, N_LEARNERS))
    global_permutation_test(performance, n_resamples=100, random_state=0)  # warm up
    times = []
    for seed in range(3):
        start = time.perf_counter()
        res = global_permutation_test(
            performance, n_resamples=N_RESAMPLES, random_state=seed
        )
        times.append(time.perf_counter() - start)
    best = min(times)
    print(
        f"global_permutation_test: {N_RESAMPLES} permutations of "
        f"{N_REPLICATES} x {N_LEARNERS}: best {best:.3f} s of {len(times)} runs "
        f"({1e6 * best / N_RESAMPLES:.1f} us per permutation); "
        f"t* = {res.statistic:.3g}, p = {res.pvalue:.3f}"
    )


if __name__ == "__main__":
    main()
