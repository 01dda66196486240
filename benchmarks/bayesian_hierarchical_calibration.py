"""How often the hierarchical model makes a wrong call at the 0.95 threshold.

Run from the repository root with the ``bayes`` extra installed::

    PYTHONPATH=. python benchmarks/bayesian_hierarchical_calibration.py [REPS]

Data are simulated from the model itself (Corani et al. 2017): ``q`` data sets whose
true differences are ``δ_i ~ δ0 + σ0 t(ν)``, and on each ``n`` fold differences,
normal with mean ``δ_i``, sd ``σ_i`` and correlation ``rho`` between folds. The truth
for the *next* data set is the most probable of the three regions under the true
``t(ν, δ0, σ0)``. A wrong call is a decision at 0.95 (``result.decision``) for a
region other than the true one; "undecided" and "unreliable fit" (the
diagnostics declined) are not wrong. Prints, per scenario, the
rates of wrong calls, of right calls and of undecided with their Monte Carlo SE.
"""

import sys
import time
import warnings

import numpy as np
from scipy import stats

from sklearn_bench.stats import bayesian_hierarchical

Q, N, RHO, ROPE, NU, SIGMA = 10, 10, 0.1, 0.01, 5.0, 0.02
SCENARIOS = {
    # name: (delta0, sigma0)
    "inside the ROPE (δ0 = 0, σ0 = 0.003)": (0.0, 0.003),
    "outside the ROPE (δ0 = 0.03, σ0 = 0.005)": (0.03, 0.005),
    "near the edge (δ0 = 0.012, σ0 = 0.004)": (0.012, 0.004),
}


def simulate(rng, delta0, sigma0):
    delta = delta0 + sigma0 * rng.standard_t(NU, Q)
    cov = SIGMA**2 * ((1 - RHO) * np.eye(N) + RHO)
    d = np.array([rng.multivariate_normal(np.full(N, m), cov) for m in delta])
    y = rng.uniform(0.7, 0.9, (Q, 1)) + rng.normal(0, 0.02, (Q, N))
    return y + d, y


def truth(delta0, sigma0):
    t = stats.t(NU, delta0, sigma0)
    probs = {"x": t.sf(ROPE), "equivalent": t.cdf(ROPE) - t.cdf(-ROPE)}
    probs["y"] = t.cdf(-ROPE)
    return max(probs, key=probs.get), probs


def main(reps):
    rng = np.random.default_rng(2026)
    print(f"{Q} data sets x {N} folds, rho {RHO}, rope {ROPE}, nu {NU}, {reps} reps")
    start, cpu = time.perf_counter(), time.process_time()
    for name, (delta0, sigma0) in SCENARIOS.items():
        true, probs = truth(delta0, sigma0)
        calls = []
        for rep in range(reps):
            x, y = simulate(rng, delta0, sigma0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                res = bayesian_hierarchical(
                    x,
                    y,
                    delta=ROPE,
                    rho=RHO,
                    greater_is_better=True,
                    random_state=rep,  # the default draws and warm-up
                )
            calls.append(res.decision)
        calls = np.array(calls)
        declined = np.isin(calls, ["undecided", "unreliable fit"])
        wrong = np.mean((calls != true) & ~declined)
        right = np.mean(calls == true)
        undecided = np.mean(calls == "undecided")
        unreliable = np.mean(calls == "unreliable fit")

        def se(p):
            return np.sqrt(p * (1 - p) / reps)

        print(
            f"{name}: true region {true!r} (true probabilities "
            + ", ".join(f"{k} {v:.3f}" for k, v in probs.items())
            + f"): wrong {wrong:.3f} (SE {se(wrong):.3f}), right {right:.3f} "
            f"(SE {se(right):.3f}), undecided {undecided:.3f}, unreliable fit "
            f"{unreliable:.3f}",
            flush=True,
        )
    print(
        f"{time.perf_counter() - start:.0f} s wall, {time.process_time() - cpu:.0f} "
        "s CPU"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 40)
