"""Coverage of the paired intervals against the level they claim to achieve.

For each method and number of pairs n, draw many difference vectors from a
known distribution with true location 0 (mean for the t and BCa intervals;
median / pseudo-median for the sign and Hodges–Lehmann intervals, which are 0
for the symmetric distributions used here), compute the 95% interval and count
how often it covers 0. Prints the achieved level the interval reports (its
``confidence_level``) beside the simulated coverage and its Monte Carlo SE.
An honest interval covers at least its achieved level (up to Monte Carlo
error); a rank interval's achieved level is the smallest level of its discrete
null distribution at or above 95%, or 100% (the whole line) when n is too small.

    python benchmarks/interval_coverage.py [--reps 2000]
"""

import argparse
import time
import warnings

import numpy as np

from sklearn_bench.stats import paired_test

DISTRIBUTIONS = {
    "normal": lambda rng, n: rng.normal(0, 1, n),
    "t3 (heavy tails)": lambda rng, n: rng.standard_t(3, n),
    # symmetric and discrete: ties and zeros, as error-rate differences have
    "ties (-2..2)/100": lambda rng, n: rng.integers(-2, 3, n) / 100,
}
METHODS = ("t", "wilcoxon", "sign")


def coverage(method, dist, n, reps, rng):
    covered, levels = 0, []
    for _ in range(reps):
        d = DISTRIBUTIONS[dist](rng, n)
        if np.all(d == d[0]):  # constant: the t-test refuses, skip the draw
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            res = paired_test(d, np.zeros(n), method=method)
            ci = res.confidence_interval(0.95)
        covered += ci.low <= 0 <= ci.high
        levels.append(ci.confidence_level)
    m = len(levels)
    rate = covered / m
    return rate, np.sqrt(rate * (1 - rate) / m), np.median(levels), m


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    start = time.perf_counter()
    print(f"{args.reps} draws per cell; nominal level 0.95")
    print(
        f"{'method':<10}{'distribution':<20}{'n':>4}{'achieved level':>16}"
        f"{'coverage':>10}{'MC SE':>8}"
    )
    for method in METHODS:
        for dist in DISTRIBUTIONS:
            for n in (3, 4, 6, 10, 20, 40):
                rate, se, level, m = coverage(method, dist, n, args.reps, rng)
                flag = "" if rate >= level - 3 * se else "  <- below"
                print(
                    f"{method:<10}{dist:<20}{n:>4}{level:>16.4f}{rate:>10.3f}"
                    f"{se:>8.3f}{flag}"
                )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
