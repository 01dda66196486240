"""Calibration of the sequential study (issue 51, item 5): a pure simulation of
the statistics of ``sklearn_bench.stats.sequential_test`` and ``race``, no model
fitting.

A study looks after every data set, up to 100, at the paired differences d_j of an
error rate (a metric in [0, 1], so d_j in [-1, 1]) between two learners, drawn
N(mu, sigma) around a population mean difference mu in {0, Δ/2, Δ, 2Δ} with
Δ = 0.01 and sigma in {0.01, 0.02, 0.04}; R studies per cell. Printed per cell:
how often the sequential rule claims a difference (better or worse; under mu = 0
its type I error over all looks, with its Monte Carlo SE) next to a Wilcoxon
signed-rank test re-tested after every data set (from the 6th on), how often it
decides at all (equivalence included), the quartiles of the stopping time, and
its mean number of data sets against the fixed design that ``n_datasets_needed``
plans for Δ at 80% power.

Then a 10-learner race (five learners within Δ of the best, five worse by 5Δ to
9Δ; per-learner noise sd 0.02 around a common data-set effect), run on 100 data
sets: the fits saved against the full study and how often it names the full
study's best learner.

Run from the repository root:
PYTHONPATH=. python benchmarks/sequential_calibration.py [R] [R_race]
(defaults 2000 and 300: 74 s; the measured table is in
docs/user_guide/sequential.rst).
"""

import sys
import time

import numpy as np
from scipy import stats

from sklearn_bench.stats import n_datasets_needed, race
from sklearn_bench.stats._sequential import _decide

DELTA, ALPHA, T = 0.01, 0.05, 100


def one_cell(mu, sigma, R, rng):
    d = np.clip(rng.normal(mu, sigma, (R, T)), -1, 1)
    codes = _decide(d, 1.0, DELTA, ALPHA)
    decided = codes != 0
    stop = np.where(decided.any(1), decided.argmax(1) + 1, T)
    claims = np.isin(codes[np.arange(R), stop - 1], (1, -1)) & decided.any(1)
    wil = np.zeros(R, bool)
    for t in range(6, T + 1):
        wil |= stats.wilcoxon(d[:, :t], axis=1).pvalue < ALPHA
    return {
        "claims": claims.mean(),
        "claims_se": np.sqrt(claims.mean() * (1 - claims.mean()) / R),
        "wilcoxon": wil.mean(),
        "decides": decided.any(1).mean(),
        "quartiles": np.percentile(stop, [25, 50, 75]),
        "mean_stop": stop.mean(),
        "fixed": n_datasets_needed(DELTA, sigma),
    }


def racing(R, rng):
    mus = -DELTA * np.array([0, 0.25, 0.5, 0.75, 1, 5, 6, 7, 8, 9])
    same, saved = [], []
    for _ in range(R):
        perf = 0.8 + rng.normal(0, 0.05, (T, 1)) + mus + rng.normal(0, 0.02, (T, 10))
        perf = np.clip(perf, 0, 1)
        res = race(perf, bounds=(0, 1), delta=DELTA, alpha=ALPHA)
        same.append(res.best == str(int(np.argmax(perf.mean(0)))))
        saved.append(1 - res.n_evaluations / res.n_full)
    return np.mean(same), np.mean(saved)


def main(R=2000, R_race=300):
    rng = np.random.default_rng(20261207)
    start = time.perf_counter()
    print(
        f"R = {R} studies per cell, looks after every data set up to {T}, "
        f"Δ = {DELTA}, α = {ALPHA}\n"
    )
    head = (
        "mu      sigma  claims ± SE      re-tested Wilcoxon  decides  "
        "stop (Q1, median, Q3)  mean stop  fixed J (80% at Δ)"
    )
    print(head)
    for mu_name, mu in [("0", 0), ("Δ/2", DELTA / 2), ("Δ", DELTA), ("2Δ", 2 * DELTA)]:
        for sigma in (0.01, 0.02, 0.04):
            c = one_cell(mu, sigma, R, rng)
            q = ", ".join(f"{v:.0f}" for v in c["quartiles"])
            print(
                f"{mu_name:<7} {sigma:<6} {c['claims']:.3f} ± {c['claims_se']:.3f}"
                f"    {c['wilcoxon']:.3f}               {c['decides']:.3f}    "
                f"({q})".ljust(85)
                + f"{c['mean_stop']:6.1f}     {c['fixed']}"
            )
    same, saved = racing(R_race, rng)
    print(
        f"\nRacing, 10 learners (half worse by 5Δ-9Δ), {R_race} replicates of "
        f"{T} data sets: fits saved {saved:.1%}, same best learner as the full "
        f"study {same:.1%} ± {np.sqrt(same * (1 - same) / R_race):.1%}"
    )
    print(f"\n({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main(*map(int, sys.argv[1:]))
