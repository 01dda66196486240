"""What the report's Monte Carlo error target does to its Bayesian probabilities.

The report's signed-rank test across data sets (each learner against the best)
draws ``results._bayesian.N_SAMPLES`` Dirichlet weights, chosen so that every
probability's Monte Carlo standard error is at most ``MC_ERROR`` (issue 48).
For two studies, Demšar's 4 x 14 AUC table and the 50 x 480 synthetic study of
``report_scale.py``, this prints, against 10,000 draws (session 13's default):
the largest change of a probability at seed 0, how many decisions (at 0.95)
changed, and, over 16 seeds at the default, the largest standard deviation of a
probability beside ``MC_ERROR``, and the CPU seconds of one batch.

Run from the repository root:
    OMP_NUM_THREADS=1 python benchmarks/bayesian_draws.py
"""

import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from report_scale import synthetic_frame  # noqa: E402

from sklearn_bench.datasets import load_demsar2006  # noqa: E402
from sklearn_bench.results._bayesian import MC_ERROR, N_SAMPLES  # noqa: E402
from sklearn_bench.stats import bayesian_signed_rank  # noqa: E402

OLD, SEEDS, THRESHOLD = 10_000, 16, 0.95


def best_against_others(table, greater_is_better):
    """The per-data-set means, the best learner (by mean) first."""
    order = table.mean().sort_values(ascending=not greater_is_better).index
    values = table[order].to_numpy()
    return values[:, :1], values[:, 1:]


def probabilities(x, y, gib, n_draws, seed):
    start = time.process_time()
    res = bayesian_signed_rank(
        x, y, delta=0.01, n_draws=n_draws, random_state=seed, greater_is_better=gib
    )
    cpu = time.process_time() - start
    p = np.stack([res.p_greater, res.p_rope, res.p_less])
    return p, res.decide(THRESHOLD), cpu


def main():
    print(f"2 cores; load average {os.getloadavg()[0]:.1f}")
    print(f"default: {N_SAMPLES} draws (MC_ERROR {MC_ERROR}); against {OLD} draws")
    frame = synthetic_frame(50, 480, 10)
    studies = {
        "Demšar 4 x 14 (AUC)": (load_demsar2006(wide=True), True),
        "synthetic 50 x 480 (error)": (
            frame.groupby(["data", "model"])["error_rate"].mean().unstack(),
            False,
        ),
    }
    for name, (table, gib) in studies.items():
        x, y = best_against_others(table, gib)
        new, new_dec, cpu_new = probabilities(x, y, gib, N_SAMPLES, 0)
        old, old_dec, cpu_old = probabilities(x, y, gib, OLD, 0)
        changed = int(np.sum(np.asarray(new_dec) != np.asarray(old_dec)))
        seeds = range(SEEDS)
        runs = np.stack([probabilities(x, y, gib, N_SAMPLES, s)[0] for s in seeds])
        sd = runs.std(axis=0, ddof=1).max()
        print(
            f"{name}: {y.shape[1]} comparisons; largest |change| of a probability "
            f"{np.abs(new - old).max():.4f}; decisions changed {changed}; largest sd "
            f"over {SEEDS} seeds {sd:.4f} (target {MC_ERROR}); CPU {cpu_new:.2f} s "
            f"({cpu_old:.2f} s at {OLD})"
        )


if __name__ == "__main__":
    main()
