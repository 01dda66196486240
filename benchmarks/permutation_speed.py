"""Time the paired permutation test: 10^5 sign-flip resamples on n = 250 pairs.

Compares ``sklearn_bench.stats.paired_test(method="permutation")`` with
``scipy.stats.permutation_test`` (permutation_type="samples", vectorised statistic)
on the same data and prints both times, their ratio and both p-values.

Run from the repository root: PYTHONPATH=. python benchmarks/permutation_speed.py
(measured 0.17-0.24 s for ours vs 2.1-5.0 s for scipy on a busy 2-core machine).
"""

import time

import numpy as np
from scipy import stats

from sklearn_bench.stats import paired_test

N_PAIRS = 250
N_RESAMPLES = 100_000
REPEATS = 3


def best_time(fn):
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return min(times), result


def main():
    rng = np.random.default_rng(0)
    x = rng.normal(0.80, 0.05, N_PAIRS)
    y = x - rng.normal(0.004, 0.03, N_PAIRS)

    ours_time, ours = best_time(
        lambda: paired_test(
            x, y, method="permutation", n_resamples=N_RESAMPLES, random_state=0
        )
    )
    scipy_time, ref = best_time(
        lambda: stats.permutation_test(
            (x - y,),
            lambda d, axis: np.sum(d, axis=axis),
            permutation_type="samples",
            n_resamples=N_RESAMPLES,
            vectorized=True,
            rng=0,
        )
    )
    print(f"n = {N_PAIRS}, resamples = {N_RESAMPLES}, best of {REPEATS}")
    print(
        f"sklearn_bench paired_test : {ours_time:8.3f} s   p = {ours.pvalue:.5f} "
        f"(MC se {ours.pvalue_standard_error:.5f})"
    )
    print(f"scipy permutation_test    : {scipy_time:8.3f} s   p = {ref.pvalue:.5f}")
    print(f"ratio scipy / ours        : {scipy_time / ours_time:8.2f}")


if __name__ == "__main__":
    main()
