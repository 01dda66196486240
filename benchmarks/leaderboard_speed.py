"""Time the leaderboard at 50 learners × 480 data sets: ours vs bencheval.

Ours: ``BenchmarkResult.leaderboard`` (ratings, win rates, mean ranks,
improvability, each with a bootstrap interval, *and* simultaneous and marginal
rank confidence sets) and the pure ``stats.leaderboard_table`` under it. bencheval
(TabArena's engine, a test extra): ``BenchmarkEvaluator.leaderboard`` with Elo,
win rate and improvability (its defaults), ``BOOTSTRAP_ROUNDS`` = 100 and 1000.
Same per-data-set errors for both. Best of ``REPEATS`` runs each, measured in one
run; prints the times and the ratio bencheval / ours (> 1: ours is faster).

Run from the repository root: PYTHONPATH=. python benchmarks/leaderboard_speed.py
"""

import sys
import time

import numpy as np
import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.stats import leaderboard_table

N_LEARNERS = 50
N_DATASETS = 480
ROUNDS = (100, 1000)
REPEATS = 2


def best_time(fn):
    times = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    try:
        from bencheval.evaluator import BenchmarkEvaluator
    except ImportError:
        sys.exit("bencheval is not installed (pip install bencheval)")
    rng = np.random.default_rng(0)
    skill = np.linspace(0, 0.05, N_LEARNERS)
    errors = rng.uniform(0.05, 0.35, (N_DATASETS, 1)) + rng.normal(
        skill, 0.03, (N_DATASETS, N_LEARNERS)
    )
    learners = [f"learner_{j:02d}" for j in range(N_LEARNERS)]
    wide = pd.DataFrame(
        np.round(np.clip(errors, 0, None), 4),
        columns=learners,
        index=[f"dataset_{i:03d}" for i in range(N_DATASETS)],
    )
    long = wide.reset_index(names="task").melt(
        id_vars="task", var_name="method", value_name="metric_error"
    )
    result = BenchmarkResult.from_frame(
        long,
        dataset="task",
        learner="method",
        value="metric_error",
        greater_is_better=False,
    )
    evaluator = BenchmarkEvaluator(columns_to_agg_extra=None)
    print(
        f"{N_LEARNERS} learners x {N_DATASETS} data sets; best of {REPEATS} runs "
        "(seconds)"
    )
    print(
        f"{'rounds':>7} {'bencheval':>10} {'ours: result':>13} {'ours: stats':>12} "
        f"{'ratio':>6}"
    )
    for rounds in ROUNDS:
        theirs = best_time(
            lambda rounds=rounds: evaluator.leaderboard(
                long, elo_kwargs={"BOOTSTRAP_ROUNDS": rounds}
            )
        )
        ours = best_time(
            lambda rounds=rounds: result.leaderboard(n_resamples=rounds, random_state=0)
        )
        pure = best_time(
            lambda rounds=rounds: leaderboard_table(
                wide, n_resamples=rounds, random_state=0, greater_is_better=False
            )
        )
        print(
            f"{rounds:>7} {theirs:>10.2f} {ours:>13.2f} {pure:>12.2f} "
            f"{theirs / ours:>6.1f}"
        )


if __name__ == "__main__":
    main()
