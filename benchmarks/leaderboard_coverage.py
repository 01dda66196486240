"""Coverage and width of the rank confidence sets of the leaderboard.

Simulation: 10 learners on N data sets (N = 20, 100, 500). On data set d, learner
j's error is ``base_d + θ_j + ε_dj`` with ``base_d ~ U(0.05, 0.35)`` (data sets
differ in difficulty, so the learners' errors are correlated) and ``ε_dj ~
N(0, 0.03²)``. ``leaderboard_table`` ranks by mean error (``rank_by="score"``,
the default) with 500 resamples of the bootstrap over data sets and computes the
simultaneous and marginal 0.95 rank confidence sets (after Mogstad, Romano,
Shaikh & Wilhelm 2024) with the bootstrap-t (each resample studentised by its own
standard errors). For comparison, ``csranks-style``: the simultaneous sets of
``rank_confidence_sets`` from the same kind of draws, studentised by the
bootstrap standard deviation as ``csranks`` does with its normal draws.

Designs, chosen to be hard near the top:

- ``tie at top``: θ = (0, 0, .01, .01, .02, .03, .04, .05, .06, .08): two learners
  tied for first, two tied for third;
- ``all tied``: θ = 0 for every learner (the least favourable: every pair is a
  true null);
- ``spread``: θ evenly spread over [0, 0.05].

A learner's true rank is not one number when it is tied: the sets must cover the
whole range ``[1 + #{k better}, p − #{k worse}]``. Simultaneous coverage is the
share of simulated studies where every learner's set covers its range (no false
"better" claim at all); marginal coverage is averaged over learners. Both should
be at least 0.95. Widths are ``high − low`` averaged over learners (0 = the rank
is pinned down); ``top-1`` is the mean size of the top-1 confidence set. Monte
Carlo standard errors beside each rate.

Run from the repository root: PYTHONPATH=. python benchmarks/leaderboard_coverage.py
[--reps R] (default 300 studies per cell, a few minutes on 2 busy cores).
"""

import argparse
import time

import numpy as np
import pandas as pd

from sklearn_bench.stats import leaderboard_table, rank_confidence_sets

P = 10
LEVEL = 0.95
N_BOOTSTRAP = 500
DESIGNS = {
    "tie at top": np.array([0, 0, 0.01, 0.01, 0.02, 0.03, 0.04, 0.05, 0.06, 0.08]),
    "all tied": np.zeros(P),
    "spread": np.linspace(0, 0.05, P),
}
SIZES = (20, 100, 500)


def true_rank_range(theta):
    """``[1 + #{k: θ_k < θ_j}, p − #{k: θ_k > θ_j}]`` (lower error is better)."""
    better = (theta[None, :] < theta[:, None]).sum(axis=1)
    worse = (theta[None, :] > theta[:, None]).sum(axis=1)
    return 1 + better, len(theta) - worse


def one_study(theta, n, rng):
    errors = rng.uniform(0.05, 0.35, (n, 1)) + theta + rng.normal(0, 0.03, (n, P))
    board = leaderboard_table(
        pd.DataFrame(errors),
        n_resamples=N_BOOTSTRAP,
        confidence_level=LEVEL,
        random_state=rng,
        greater_is_better=False,
    ).table.sort_index()
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=N_BOOTSTRAP)
    plain = rank_confidence_sets(
        errors.mean(axis=0),
        counts @ errors / n,
        greater_is_better=False,
        confidence_level=LEVEL,
    )
    return board, plain


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=300)
    args = parser.parse_args()
    rng = np.random.default_rng(20240522)
    start = time.perf_counter()
    print(
        f"{P} learners, level {LEVEL}, {N_BOOTSTRAP} bootstrap resamples, "
        f"{args.reps} studies per cell"
    )
    header = (
        f"{'design':<11} {'N':>4}  {'simultaneous':>14}  {'marginal':>14}  "
        f"{'csranks-style':>14}  {'width':>5}  {'w marg':>6}  {'top-1':>5}"
    )
    print(header)
    for name, theta in DESIGNS.items():
        low_true, high_true = true_rank_range(theta)
        for n in SIZES:
            sim, marg, plain, w_sim, w_marg, n_best = [], [], [], [], [], []
            for _ in range(args.reps):
                board, other = one_study(theta, n, rng)
                lo, hi = board["rank_low"].to_numpy(), board["rank_high"].to_numpy()
                lo_m = board["rank_low_marginal"].to_numpy()
                hi_m = board["rank_high_marginal"].to_numpy()
                sim.append(np.all((lo <= low_true) & (hi >= high_true)))
                marg.append(np.mean((lo_m <= low_true) & (hi_m >= high_true)))
                plain.append(
                    np.all((other.low <= low_true) & (other.high >= high_true))
                )
                w_sim.append(np.mean(hi - lo))
                w_marg.append(np.mean(hi_m - lo_m))
                n_best.append(board["may_be_best"].sum())
            cells = []
            for rates in (sim, marg, plain):
                rate = np.mean(rates)
                se = np.std(rates) / np.sqrt(args.reps)
                cells.append(f"{rate:>6.3f} ± {se:.3f}")
            print(
                f"{name:<11} {n:>4}  {cells[0]:>14}  {cells[1]:>14}  {cells[2]:>14}  "
                f"{np.mean(w_sim):>5.2f}  {np.mean(w_marg):>6.2f}  "
                f"{np.mean(n_best):>5.2f}"
            )
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
