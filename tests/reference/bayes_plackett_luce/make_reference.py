"""Reference posteriors of the Bayesian Plackett–Luce model, sampled by Stan (pystan).

Not run by the test suite. The model is the one of Calvo, Ceberio & Lozano (2018,
"Bayesian inference for algorithm ranking analysis", GECCO companion) as scmamp's
``bPlackettLuceModel`` fits it: the weights ``w`` of the K learners lie on the simplex
with a Dirichlet(alpha) prior, and each data set's ranking (best first) has the
Plackett–Luce probability ``prod_r w[o_r] / sum_{t >= r} w[o_t]``. The Stan program
below is written here from that definition (it is not scmamp's file); it samples the
same posterior. Run with pystan 3 (compiling takes about a minute)::

    /work/venv/bin/pip install pystan
    /work/venv/bin/python tests/reference/bayes_plackett_luce/make_reference.py

Writes ``reference.json`` beside this file: for each case the scores (data sets x
learners, ``greater_is_better``), the rankings as orders (learner indices, best
first, 0-based), the Dirichlet ``alpha``, the draws, and the posterior means of

- the weights ``w`` (= each learner's probability of ranking first on a new data set),
  with their posterior standard deviations and Monte Carlo standard errors
  (batch means: 50 batches per chain);
- ``p_above[i][j]`` = E[w_i / (w_i + w_j)], the probability that learner i ranks
  above learner j on a new data set;
- ``expected_rank[i]`` = E[1 + sum_{j != i} w_j / (w_i + w_j)], the expected
  position of learner i in a new data set's ranking;
- ``mode_rank[i]``: the mean over draws of i's position when the learners are
  ordered by weight (scmamp's ``expected.mode.rank``).
"""

import json
import os
import time

import numpy as np
import stan

HERE = os.path.dirname(os.path.abspath(__file__))
CHAINS, NSAMPLES, NWARMUP = 4, 25000, 1000  # 100 000 posterior draws per case
BATCHES = 50

# The Plackett–Luce likelihood of rankings, in our own words: position r of data set
# s holds learner order[s, r]; its chance to be chosen next is its weight over the
# total weight of the learners not yet placed.
PROGRAM = """
data {
  int<lower=1> N;
  int<lower=2> K;
  array[N, K] int<lower=1, upper=K> order;
  vector<lower=0>[K] alpha;
}
parameters {
  simplex[K] w;
}
model {
  w ~ dirichlet(alpha);
  for (s in 1:N) {
    real remaining = 0;
    for (back in 0:(K - 1)) {
      int r = K - back;
      remaining += w[order[s, r]];
      if (r < K)
        target += log(w[order[s, r]]) - log(remaining);
    }
  }
}
"""


def simulate(rng, weights, n):
    """Scores (higher is better) whose rankings follow PL(weights): Gumbel trick."""
    weights = np.asarray(weights, dtype=float)
    return np.log(weights) + rng.gumbel(size=(n, weights.size))


def cases():
    rng = np.random.default_rng(20261125)
    out = {}
    geometric = 0.8 ** np.arange(15)
    for name, w, n, alpha in [
        ("clear_order", [0.55, 0.25, 0.15, 0.05], 25, [1.0] * 4),
        ("near_equal", [0.22, 0.20, 0.20, 0.19, 0.19], 30, [1.0] * 5),
        ("many_learners", geometric / geometric.sum(), 40, [1.0] * 15),
        ("dirichlet_prior", [0.4, 0.3, 0.2, 0.1], 12, [0.5, 1.0, 2.0, 4.0]),
    ]:
        out[name] = {
            "scores": simulate(rng, w, n),
            "alpha": alpha,
            "true_weights": [float(v) for v in w],
        }
    return out


def batch_se(draws):
    """Monte Carlo SE of the mean of ``draws`` (samples, chains) by batch means."""
    s, c = draws.shape
    b = s // BATCHES
    means = draws[: b * BATCHES].reshape(BATCHES, b, c).mean(axis=1)
    return float(means.std(ddof=1) / np.sqrt(BATCHES * c))


def summarise(w):
    """``w``: (K, samples, chains) posterior draws of the weights."""
    k = w.shape[0]
    flat = w.reshape(k, -1)
    p_above = np.full((k, k), np.nan)
    for i in range(k):
        for j in range(k):
            if i != j:
                p_above[i, j] = float(np.mean(flat[i] / (flat[i] + flat[j])))
    pair = flat[:, None, :] / (flat[:, None, :] + flat[None, :, :])
    # P(j above i) = pair[j, i]; the sum over j includes j == i (0.5)
    expected = 1.0 + pair.sum(axis=0) - 0.5
    mode = np.argsort(np.argsort(-flat, axis=0), axis=0) + 1
    return {
        "weights_mean": flat.mean(axis=1).tolist(),
        "weights_sd": flat.std(axis=1).tolist(),
        "weights_mcse": [batch_se(w[i]) for i in range(k)],
        "p_above": [[None if np.isnan(v) else v for v in row] for row in p_above],
        "expected_rank": expected.mean(axis=1).tolist(),
        "mode_rank": mode.mean(axis=1).tolist(),
    }


def main():
    out = {}
    for name, case in cases().items():
        scores = case["scores"]
        order = np.argsort(-scores, axis=1, kind="stable")
        k = scores.shape[1]
        data = {
            "N": scores.shape[0],
            "K": k,
            "order": (order + 1).tolist(),
            "alpha": case["alpha"],
        }
        start = time.perf_counter()
        posterior = stan.build(PROGRAM, data=data, random_seed=1)
        fit = posterior.sample(
            num_chains=CHAINS, num_samples=NSAMPLES, num_warmup=NWARMUP
        )
        elapsed = time.perf_counter() - start
        # fit["w"] is (K, samples * chains) with the chains interleaved
        w = np.asarray(fit["w"]).reshape(k, NSAMPLES, CHAINS)
        summary = summarise(w)
        divergent = int(np.asarray(fit["divergent__"]).sum())
        out[name] = {
            "scores": scores.tolist(),
            "greater_is_better": True,
            "order": order.tolist(),
            "alpha": case["alpha"],
            "true_weights": case["true_weights"],
            "chains": CHAINS,
            "samples_per_chain": NSAMPLES,
            "warmup": NWARMUP,
            "divergences": divergent,
            "seconds": round(elapsed, 1),
            **summary,
        }
        weights = np.round(summary["weights_mean"], 4)
        print(
            f"{name}: {elapsed:.0f} s, divergences {divergent}, max mcse "
            f"{max(summary['weights_mcse']):.2e}, w {weights}"
        )
    out["_provenance"] = {
        "tool": f"pystan {stan.__version__ if hasattr(stan, '__version__') else '3'}",
        "model": "Dirichlet(alpha) prior on the simplex; Plackett-Luce likelihood "
        "of each data set's ranking (Calvo, Ceberio & Lozano 2018; scmamp's "
        "bPlackettLuceModel)",
        "script": "make_reference.py",
    }
    with open(os.path.join(HERE, "reference.json"), "w") as fh:
        json.dump(out, fh, indent=1)
        fh.write("\n")


if __name__ == "__main__":
    main()
