"""Calibration of the Bayesian Plackett–Luce model on rankings simulated from PL.

Run from the repository root with the ``bayes`` extra installed::

    PYTHONPATH=. python benchmarks/bayesian_plackett_luce_calibration.py [REPS] [PART]

``PART`` runs one part only (``coverage``, ``clear``, ``tied`` or ``equal``), each
with its own seed, so that parts can run in parallel.

Two studies, K = 5 learners, N = 30 data sets, 4 chains x 1000 draws per fit:

1. **Coverage.** In each repetition the true weights are drawn from the prior,
   Dirichlet(1), and N rankings from PL(w). The share of the 95% credible
   intervals of the weights (``p_first_interval``) that contain the true w_i is,
   for an exact sampler, 0.95 (a posterior drawn from the prior the data came
   from is calibrated); printed with its Monte Carlo SE (binomial, over the
   5 x REPS intervals: an upper bound, the intervals of one fit are dependent).
2. **Wrong picks.** With fixed weights, how often ``best(0.95)`` (posterior
   probability >= 0.95 that a learner's weight is the largest) names a learner
   that is not truly first, and how often it names the true first; for a clear
   leader (w = 0.4, 0.2, 0.15, 0.15, 0.1), two tied leaders (0.3, 0.3, 0.2,
   0.1, 0.1) and all equal (0.2 each); with tied leaders no learner is truly
   first alone, so any pick is wrong.
"""

import sys

import numpy as np

from sklearn_bench.stats import bayesian_plackett_luce

K, N, DRAWS = 5, 30, 1000


def scores(rng, w, n):
    """Scores (lower is better) whose rankings follow PL(w) (Gumbel trick)."""
    return -(np.log(w) + rng.gumbel(size=(n, len(w))))


def fit(s, seed):
    return bayesian_plackett_luce(
        s, greater_is_better=False, n_draws=DRAWS, random_state=seed
    )


def coverage(reps, rng):
    hits = total = 0
    for r in range(reps):
        w = rng.dirichlet(np.ones(K))
        res = fit(scores(rng, w, N), r)
        low = res.p_first_interval["low"].to_numpy()
        high = res.p_first_interval["high"].to_numpy()
        hits += int(((low <= w) & (w <= high)).sum())
        total += K
    p = hits / total
    print(
        f"coverage of the 95% intervals of the weights (w ~ Dirichlet(1), K={K}, "
        f"N={N}, {reps} reps): {p:.3f} (SE {np.sqrt(p * (1 - p) / total):.3f})",
        flush=True,
    )


SETTINGS = {
    "clear": ("clear leader", np.array([0.4, 0.2, 0.15, 0.15, 0.1])),
    "tied": ("two tied leaders", np.array([0.3, 0.3, 0.2, 0.1, 0.1])),
    "equal": ("all equal", np.full(K, 0.2)),
}


def wrong_picks(reps, rng, parts=tuple(SETTINGS)):
    for part in parts:
        name, w = SETTINGS[part]
        top = set(np.flatnonzero(w == w.max()).tolist())
        unique = len(top) == 1
        wrong = right = 0
        for r in range(reps):
            pick = fit(scores(rng, w, N), 10_000 + r).best(0.95)
            if pick is None:
                continue
            if unique and pick in top:
                right += 1
            else:
                wrong += 1
        pw, pr = wrong / reps, right / reps
        print(
            f"{name} (w = {w.tolist()}): best(0.95) wrong in {pw:.3f} "
            f"(SE {np.sqrt(pw * (1 - pw) / reps):.3f}), right in {pr:.3f} "
            f"(SE {np.sqrt(pr * (1 - pr) / reps):.3f}) of {reps} reps",
            flush=True,
        )


if __name__ == "__main__":
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    part = sys.argv[2] if len(sys.argv) > 2 else None
    seeds = {"coverage": 2026, "clear": 2027, "tied": 2028, "equal": 2029}
    if part is None:
        rng = np.random.default_rng(2026)
        coverage(reps, rng)
        wrong_picks(reps, rng)
    elif part == "coverage":
        coverage(reps, np.random.default_rng(seeds[part]))
    else:
        wrong_picks(reps, np.random.default_rng(seeds[part]), parts=(part,))
