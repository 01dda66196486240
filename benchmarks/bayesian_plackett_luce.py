"""Time the Bayesian Plackett–Luce model (NumPyro), and measure its Monte Carlo error.

Run from the repository root with the ``bayes`` extra installed::

    PYTHONPATH=. python benchmarks/bayesian_plackett_luce.py
    PYTHONPATH=. python benchmarks/bayesian_plackett_luce.py --mc-error

Prints, for K = 5, 10, 20 learners x N = 30, 100 data sets, the wall-clock time of
the first call for that shape in this process (JAX's JIT compile included) and of a
second call on new rankings of the same shape (sampling only), with the CPU time of
this process in parentheses (less sensitive to a loaded machine), at the defaults:
4 chains x 2500 draws after 1000 warm-up steps; with the smallest effective sample
size and the largest R-hat of the second call. ``--mc-error`` instead fits the
reference cases of ``tests/reference/bayes_plackett_luce`` with 8 seeds and prints
the largest standard deviation over seeds of the posterior means of the weights,
of P(A above B) and of the expected ranks (the Monte Carlo error the tests'
tolerance rests on), and the largest distance of the mean over seeds from Stan's.
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

from sklearn_bench.stats import bayesian_plackett_luce


def rankings(rng, k, n):
    """Scores (lower is better) of n data sets whose rankings follow PL(0.85^i)."""
    w = 0.85 ** np.arange(k)
    return -(np.log(w / w.sum()) + rng.gumbel(size=(n, k)))


def timed(func):
    """Wall time and CPU time (all threads of this process) of ``func()``."""
    start, cpu = time.perf_counter(), time.process_time()
    out = func()
    return (time.perf_counter() - start, time.process_time() - cpu), out


def speed():
    rng = np.random.default_rng(0)
    print("ours: NumPyro NUTS, 4 chains x 2500 draws, 1000 warm-up (the defaults)")
    print(f"{'K':>3} {'N':>4} {'first call s (CPU)':>19} "
          f"{'second call s (CPU)':>20} {'min ESS':>8} {'max R-hat':>10}")  # fmt: skip
    for k in (5, 10, 20):
        for n in (30, 100):
            t1, _ = timed(
                lambda k=k, n=n: bayesian_plackett_luce(
                    rankings(rng, k, n), random_state=0
                )
            )
            t2, res = timed(
                lambda k=k, n=n: bayesian_plackett_luce(
                    rankings(rng, k, n), random_state=1
                )
            )
            first = f"{t1[0]:.1f} ({t1[1]:.1f})"
            second = f"{t2[0]:.1f} ({t2[1]:.1f})"
            print(f"{k:>3} {n:>4} {first:>19} {second:>20} {res.ess:>8.0f} "
                  f"{res.r_hat:>10.4f}", flush=True)  # fmt: skip


def mc_error(seeds=8):
    path = Path(__file__).resolve().parents[1] / "tests/reference/bayes_plackett_luce"
    reference = json.loads((path / "reference.json").read_text())
    for case, c in reference.items():
        if case.startswith("_"):
            continue
        fits = [
            bayesian_plackett_luce(
                np.array(c["scores"]),
                greater_is_better=c["greater_is_better"],
                prior=c["alpha"],
                random_state=seed,
            )
            for seed in range(seeds)
        ]
        w = np.array([f.p_first.to_numpy() for f in fits])
        above = np.array([f.p_above.to_numpy() for f in fits])
        rank = np.array([f.expected_rank.to_numpy() for f in fits])
        mode = np.array([f.mode_rank.to_numpy() for f in fits])
        ref_above = np.array(c["p_above"], dtype=float)
        print(
            f"{case}: sd over {seeds} seeds: weights {w.std(0, ddof=1).max():.5f}, "
            f"P(above) {np.nanmax(above.std(0, ddof=1)):.5f}, expected rank "
            f"{rank.std(0, ddof=1).max():.5f}, mode rank "
            f"{mode.std(0, ddof=1).max():.5f}; |mean - Stan|: weights "
            f"{np.abs(w.mean(0) - c['weights_mean']).max():.5f}, P(above) "
            f"{np.nanmax(np.abs(above.mean(0) - ref_above)):.5f}, expected rank "
            f"{np.abs(rank.mean(0) - c['expected_rank']).max():.5f}, mode rank "
            f"{np.abs(mode.mean(0) - c['mode_rank']).max():.5f}; Stan's MCSE of "
            f"the weights <= {max(c['weights_mcse']):.5f}",
            flush=True,
        )


if __name__ == "__main__":
    mc_error() if "--mc-error" in sys.argv else speed()
