"""Reference posteriors of baycomp's HierarchicalTest (pystan) for our model.

Not run by the test suite. Made with baycomp 1.0.3 and pystan 3 in a scratch venv::

    python -m venv /tmp/stan && /tmp/stan/bin/pip install pystan baycomp
    /tmp/stan/bin/python tests/reference/bayes_hierarchical/make_reference.py

Writes ``reference.json`` beside this file: for each case the inputs ``x``, ``y``
(data sets x fold scores), ``rope``, ``runs`` (baycomp's rho = runs / n_scores), the
three probabilities of baycomp's ``Posterior.probs`` (share of draws in which each
region is the most probable), the mean predictive probabilities of the three regions,
and the posterior means of the per-data-set differences delta_i (in the scores' units,
oriented x - y). baycomp orients its columns as (x better, rope, y better) for
``HierarchicalTest(x, y)``.
"""

import json
import os
import time

import numpy as np
import stan  # noqa: F401  (pystan 3; baycomp imports it)
from baycomp.multiple import HierarchicalTest

HERE = os.path.dirname(os.path.abspath(__file__))
CHAINS, NSAMPLES = 4, 25000  # 100 000 posterior draws per case


def cases():
    rng = np.random.RandomState(20261124)
    out = {}
    # clear winner: x better by ~0.03 on every data set, 10 folds
    base = rng.uniform(0.7, 0.9, (8, 1))
    y = base + rng.normal(0, 0.02, (8, 10))
    x = y + 0.03 + rng.normal(0, 0.015, (8, 10))
    out["clear_winner"] = {"x": x, "y": y, "rope": 0.01, "runs": 1}
    # practical equivalence: differences ~0.002, rope 0.01
    base = rng.uniform(0.6, 0.9, (10, 1))
    y = base + rng.normal(0, 0.02, (10, 10))
    x = y + rng.normal(0.001, 0.004, (10, 10)) + rng.normal(0, 0.002, (10, 1))
    out["equivalence"] = {"x": x, "y": y, "rope": 0.01, "runs": 1}
    # a few data sets disagreeing: 12 data sets, 2 x 5-fold CV; 8 favour x, 4 favour y
    base = rng.uniform(0.6, 0.9, (12, 1))
    effect = np.r_[np.full(8, 0.02), np.full(4, -0.03)][:, None]
    y = base + rng.normal(0, 0.02, (12, 10))
    x = y + effect + rng.normal(0, 0.02, (12, 10))
    out["disagreeing"] = {"x": x, "y": y, "rope": 0.01, "runs": 2}
    # near the ROPE's edge: differences ~0.01 that vary between data sets (8 x 10)
    base = rng.uniform(0.7, 0.9, (8, 1))
    y = base + rng.normal(0, 0.02, (8, 10))
    x = y + rng.normal(0.01, 0.006, (8, 1)) + rng.normal(0, 0.015, (8, 10))
    out["near_rope"] = {"x": x, "y": y, "rope": 0.01, "runs": 1}
    return out


def per_dataset_means(x, y, rope, runs):
    """Posterior means of delta_i: rerun baycomp's Stan program to read ``delta``."""
    diff = x - y
    std_diff = np.mean(np.std(diff, axis=1))
    d = diff / std_diff
    nscores = d.shape[1]
    std_within = np.mean(np.std(d, axis=1))
    std_among = np.std(np.mean(d, axis=1))
    maxdiff = np.max(np.abs(d))
    data = {
        "x": d,
        "Nsamples": nscores,
        "q": d.shape[0],
        "rho": runs / nscores,
        "deltaLow": -maxdiff,
        "deltaHi": maxdiff,
        "lowerAlpha": 1,
        "upperAlpha": 2,
        "lowerBeta": 0.01,
        "upperBeta": 0.1,
        "stdLow": 0,
        "stdHi": std_within * 1000,
        "std0Low": 0,
        "std0Hi": std_among * 1000,
    }
    import baycomp

    code = open(
        os.path.join(os.path.dirname(baycomp.__file__), "hierarchical-t-test.stan")
    ).read()
    fit = stan.build(code, data=data, random_seed=1).sample(
        num_chains=CHAINS, num_samples=NSAMPLES // 5
    )
    return (fit["delta"].mean(axis=1) * std_diff).tolist()


def main():
    result = {}
    for name, c in cases().items():
        t0 = time.time()
        # baycomp's diff is y - x: pass (x, y) so that p_left = P(x better)
        sample = HierarchicalTest.sample(
            c["x"], c["y"], c["rope"], runs=c["runs"], chains=CHAINS, nsamples=NSAMPLES
        )
        if os.path.exists("last-sample.pickle"):
            os.remove("last-sample.pickle")
        winners = np.bincount(np.argmax(sample, axis=1), minlength=3) / len(sample)
        result[name] = {
            "x": c["x"].tolist(),
            "y": c["y"].tolist(),
            "rope": c["rope"],
            "runs": c["runs"],
            "rho": c["runs"] / c["x"].shape[1],
            "probabilities": winners.tolist(),
            "mean_probabilities": sample.mean(axis=0).tolist(),
            "n_draws": len(sample),
            "delta_means": per_dataset_means(c["x"], c["y"], c["rope"], c["runs"]),
            "seconds": time.time() - t0,
        }
        print(
            name,
            result[name]["probabilities"],
            f"{result[name]['seconds']:.1f}s",
            flush=True,
        )
    with open(os.path.join(HERE, "reference.json"), "w") as f:
        json.dump(result, f, indent=1)


if __name__ == "__main__":
    main()
