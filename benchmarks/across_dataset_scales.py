"""Calibration of the across-data-set scales of BenchmarkResult (issue 15, item 4).

Ten data sets whose performance scales differ by up to 4.5 orders of magnitude
(s_i = 10^U(-1, 3.5), as MSEs of ~3000 and ~1 do), three learners with multiplicative
noise (sd 5%) on each data set's mean performance:

- H0: learners a and b are exchangeable on every data set (c is 10% worse);
- H1: b is 5% worse than a on every data set.

For each scale (raw, relative, rank) the paired t-test of a − b across data sets
(``BenchmarkResult.paired_test(..., scale=...)``, through the same transforms)
is run on R simulated studies; printed: rejection rate at alpha = 0.05 under H0
(type I error, nominal 0.05) and under H1 (power), with Monte Carlo SEs, and the
coverage of the 95% interval under H0 (the true difference is 0 on every scale by
exchangeability).

Run from the repository root: PYTHONPATH=. python benchmarks/across_dataset_scales.py
(about 2 CPU-minutes; ``R=100`` in the environment for a quick look).
Measured (R = 1000, seed 20261123; ± one Monte Carlo SE):

    truth           scale     rejection rate  coverage of 0
    H0              raw       0.001 ± 0.001   0.999 ± 0.001
    H0              relative  0.053 ± 0.007   0.947 ± 0.007
    H0              rank      0.065 ± 0.008   0.935 ± 0.008
    H1: b 5% worse  raw       0.030 ± 0.005   0.970 ± 0.005
    H1: b 5% worse  relative  0.498 ± 0.016   0.502 ± 0.016
    H1: b 5% worse  rank      0.455 ± 0.016   0.545 ± 0.016

On raw differences the t-test is dominated by the largest-scale data set: far too
conservative under H0 and nearly powerless against a 5% difference on every data
set. The relative scale holds its level (0.053) and has power 0.50; the t-test on
rank differences (few distinct values with 3 learners and 10 data sets) is slightly
liberal (0.065, 1.9 SE above 0.05): use method="wilcoxon" or "sign" for an exact
level on ranks.

A study whose differences are constant (on ranks under H1: a ahead of b on all
10 data sets) has no t statistic (``paired_test`` refuses it); it is counted at
the t-test's limit, a rejection with the point interval [d, d] (d from the
Wilcoxon estimate, which is d itself), and the count is printed.
"""

import os
import warnings

import numpy as np
import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.results._scales import IncommensurableScalesWarning

N_DATASETS = 10
R = int(os.environ.get("R", 1000))
ALPHA = 0.05


def study(rng, effect):
    scales = 10.0 ** rng.uniform(-1, 3.5, N_DATASETS)
    factors = {"a": 1.0, "b": 1.0 + effect, "c": 1.1}
    rows = [
        (f"d{i}", learner, 0, s * f * (1 + 0.05 * rng.normal()))
        for i, s in enumerate(scales)
        for learner, f in factors.items()
    ]
    df = pd.DataFrame(rows, columns=["d", "l", "r", "v"])
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", replicate="r", value="v",
        greater_is_better=False,
    )  # fmt: skip


def main():
    rng = np.random.default_rng(20261123)
    rows = []
    for label, effect in [("H0", 0.0), ("H1: b 5% worse", 0.05)]:
        reject = dict.fromkeys(("raw", "relative", "rank"), 0)
        cover = dict.fromkeys(reject, 0)
        constant = dict.fromkeys(reject, 0)
        for _ in range(R):
            result = study(rng, effect)
            for scale in reject:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore", IncommensurableScalesWarning)
                    try:
                        res = result.paired_test("a", "b", scale=scale)
                    except ValueError as exc:  # constant differences: no t
                        if "constant" not in str(exc):
                            raise
                        # the t-test's limit: the point interval [d, d]
                        d = result.paired_test(
                            "a", "b", scale=scale, method="wilcoxon"
                        ).estimate
                        constant[scale] += 1
                        reject[scale] += d != 0
                        cover[scale] += d == 0
                        continue
                ci = res.confidence_interval(0.95)
                reject[scale] += res.pvalue < ALPHA
                cover[scale] += ci.low <= 0 <= ci.high
        for scale in reject:
            p = reject[scale] / R
            c = cover[scale] / R
            rows.append(
                {
                    "truth": label,
                    "scale": scale,
                    "rejection rate": f"{p:.3f} ± {np.sqrt(p * (1 - p) / R):.3f}",
                    "coverage of 0": f"{c:.3f} ± {np.sqrt(c * (1 - c) / R):.3f}",
                    "constant differences": constant[scale],
                }
            )
    print(f"{N_DATASETS} data sets, scales 10^U(-1, 3.5), R = {R} studies, alpha 0.05")
    print(pd.DataFrame(rows).to_string(index=False))


if __name__ == "__main__":
    main()
