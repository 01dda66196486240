"""Type I error and power of the tests within one data set, by simulation.

The question is the practitioner's: "is learner A better than learner B on data
like this?", i.e. on a new learning sample from the same population, not on
the one sample at hand. Under an exact null of that question we count how
often each method × splitter combination of ``BenchmarkResult.paired_test``
rejects at alpha = 0.05; under one alternative, how often it detects it.

Design (exact null by symmetry)
-------------------------------
Each Monte Carlo run draws a fresh data set of n = 120 rows and 2m = 6
standard normal features; the class is ``y = 1{0.35 (sum of all 6 features)
+ e > 0}``, e ~ N(0, 1). Learner A is a two-class LDA on features 1-3, learner
B the same LDA on features 4-6. Swapping the two halves of the features maps
the distribution of (X, y) onto itself and A onto B, so for every training-set
size the expected error of A equals that of B: the null of the generalisation
question holds exactly. (For the one data set drawn, one half usually happens
to fit better: the conditional null of Hothorn et al. (2005) does not hold.)
Under the alternative the second half enters y with weight 0.35 / 2.

Every splitter runs on the same data set per run; the fold scores (error
rates) go into a :class:`~sklearn_bench.BenchmarkResult` with the splitter's
repr in ``info["cv"]`` and the stored split sizes, exactly as an experiment
writes them, and every method goes through ``result.paired_test``. LDA is
fitted with numpy (pooled covariance, class priors; the decision rule of
scikit-learn's LinearDiscriminantAnalysis) to keep the study fast.

Splitters: RepeatedStratifiedKFold 10 × 10 and 2 × 5 (5 × 2cv), ShuffleSplit
(20 splits, 20 % test), BootstrapOOB (20 replicates), BootstrapCV (10 bootstrap
samples × 5 folds). Reference rows (``*``) show two wrong units for contrast:
the corrected t on fold means (the pre-issue-11 path) and the plain t on all
folds (Dietterich's "10-fold cv t", also on out-of-bootstrap replicates with the
stored draws as n_train).

Run from the repository root:

    PYTHONPATH=. python benchmarks/calibration.py [--runs 400] [--seed 0]

About 6 minutes for 400 runs on one busy core (the default). Monte Carlo
standard errors are sqrt(p (1 - p) / runs), printed beside each rate. The
permutation test uses 999 Monte Carlo resamples when it cannot enumerate.
"""

import argparse
import time
import warnings

import numpy as np
import pandas as pd
from sklearn.model_selection import RepeatedStratifiedKFold, ShuffleSplit

from sklearn_bench import BenchmarkResult
from sklearn_bench.model_selection import BootstrapCV, BootstrapOOB, replicate_ids
from sklearn_bench.results._select import split_pair
from sklearn_bench.stats import paired_test

N, M, SIGNAL, ALPHA = 120, 3, 0.35, 0.05
REPLICATE_METHODS = ("t", "permutation", "wilcoxon", "sign")
SPLITTERS = {
    "RepeatedStratifiedKFold 10x10": (
        lambda s: RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=s),
        (*REPLICATE_METHODS, "corrected_t"),
    ),
    "RepeatedStratifiedKFold 2x5": (
        lambda s: RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=s),
        (*REPLICATE_METHODS, "corrected_t", "5x2cv", "5x2cv_f"),
    ),
    "ShuffleSplit 20 x 20%": (
        lambda s: ShuffleSplit(n_splits=20, test_size=0.2, random_state=s),
        (*REPLICATE_METHODS, "corrected_t"),
    ),
    "BootstrapOOB 20": (
        lambda s: BootstrapOOB(n_bootstraps=20, random_state=s),
        (*REPLICATE_METHODS, "corrected_t"),
    ),
    "BootstrapCV 10 x 5": (
        lambda s: BootstrapCV(n_bootstraps=10, n_folds=5, random_state=s),
        (*REPLICATE_METHODS, "corrected_t"),
    ),
}
UNIT = {
    "t": "replicates",
    "permutation": "replicates",
    "wilcoxon": "replicates",
    "sign": "replicates",
    "5x2cv": "10 folds",
    "5x2cv_f": "10 folds",
}


def draw(rng, weight_b):
    """A fresh learning sample: 2M features, A's half and B's half."""
    X = rng.standard_normal((N, 2 * M))
    score = X[:, :M].sum(axis=1) + weight_b * X[:, M:].sum(axis=1)
    y = (SIGNAL * score + rng.standard_normal(N) > 0).astype(int)
    return X, y


def lda_error(X_train, y_train, X_test, y_test):
    """Two-class LDA (pooled covariance, empirical priors): test error rate."""
    m0 = X_train[y_train == 0].mean(axis=0)
    m1 = X_train[y_train == 1].mean(axis=0)
    resid = np.vstack([X_train[y_train == 0] - m0, X_train[y_train == 1] - m1])
    cov = resid.T @ resid / (len(y_train) - 2)
    w = np.linalg.solve(cov, m1 - m0)
    prior = y_train.mean()
    b = -w @ (m0 + m1) / 2 + np.log(prior / (1 - prior))
    return float(np.mean((X_test @ w + b > 0) != y_test))


def scores_of(cv, X, y):
    """The score rows an experiment would store for learners A and B."""
    rows = []
    reps = replicate_ids(cv, X, y)
    folds = pd.Series(reps).groupby(reps).cumcount().to_numpy()
    for split, (train, test) in enumerate(cv.split(X, y)):
        for learner, cols in (("A", slice(0, M)), ("B", slice(M, 2 * M))):
            err = lda_error(X[train][:, cols], y[train], X[test][:, cols], y[test])
            rows.append(
                (learner, split, reps[split], folds[split], err, len(train), len(test))
            )
    df = pd.DataFrame(
        rows,
        columns=["learner", "split", "replicate", "fold", "value", "n_train", "n_test"],
    )
    return df.assign(dataset="sim", metric="error_rate")


def pvalues(cv, X, y, methods, seed):
    result = BenchmarkResult(
        scores_of(cv, X, y),
        metrics={"error_rate": False},
        datasets={"sim": "real world"},
        learners=["A", "B"],
        info={"cv": repr(cv)},
    )
    s = split_pair(result, "A", "B", metric="error_rate", dataset="sim")
    unit = {"kfold": "fold scores", "bootstrap_cv": "fold scores"}.get(
        s.scheme, "replicates" if s.scheme == "bootstrap_oob" else "splits"
    )
    out = {}
    for method in methods:
        kw = (
            {"n_resamples": 999, "random_state": seed}
            if method == "permutation"
            else {}
        )
        try:
            res = result.paired_test("A", "B", dataset="sim", method=method, **kw)
            out[(method, UNIT.get(method, unit))] = res.pvalue
        except ValueError:  # e.g. zero variance of 5x2cv
            out[(method, UNIT.get(method, unit))] = 1.0
    # reference rows: wrong units, for contrast
    perf = result.performance()
    xa = perf.loc[perf.learner == "A", "value"].to_numpy()
    xb = perf.loc[perf.learner == "B", "value"].to_numpy()
    ratio = s.n_test.mean() / s.n_train.mean()
    if s.n_folds > 1:
        res = paired_test(xa, xb, method="corrected_t", test_train_ratio=ratio)
        out[("* corrected_t on fold means", "replicates")] = res.pvalue
    if len(s.x) > len(xa) or s.scheme == "bootstrap_oob":
        out[("* t on every split", unit)] = paired_test(s.x, s.y).pvalue
    if s.scheme == "bootstrap_oob":
        res = paired_test(s.x, s.y, method="corrected_t", test_train_ratio=ratio)
        out[("* corrected_t, n_train = draws", "replicates")] = res.pvalue
    return out


def simulate(runs, seed, weight_b):
    rng = np.random.default_rng(seed)
    rejections = {}
    for _ in range(runs):
        X, y = draw(rng, weight_b)
        for name, (make, methods) in SPLITTERS.items():
            split_seed = int(rng.integers(2**31 - 1))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                ps = pvalues(make(split_seed), X, y, methods, split_seed)
            for key, p in ps.items():
                rejections.setdefault((name, *key), []).append(p < ALPHA)
    return {key: np.mean(v) for key, v in rejections.items()}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=400)
    parser.add_argument("--power-runs", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    power_runs = args.runs // 2 if args.power_runs is None else args.power_runs
    start = time.perf_counter()
    size = simulate(args.runs, args.seed, weight_b=1.0)
    power = simulate(power_runs, args.seed + 1, weight_b=0.5)
    elapsed = time.perf_counter() - start

    def cell(p, runs):
        return f"{p:.3f} ({np.sqrt(p * (1 - p) / runs):.3f})"

    header = ("splitter", "method", "unit", "type I error (SE)", "power (SE)")
    lines = [
        (name, method, unit, cell(p, args.runs), cell(power[key], power_runs))
        for key, p in size.items()
        for name, method, unit in [key]
    ]
    widths = [max(len(str(r[i])) for r in [header, *lines]) for i in range(5)]
    rule = "  ".join("=" * w for w in widths)
    print(
        f"n = {N}, alpha = {ALPHA}, {args.runs} runs under H0 (exact null), "
        f"{power_runs} under the alternative; Monte Carlo SE in brackets; "
        f"{elapsed:.0f} s"
    )
    print(rule)
    print("  ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print(rule)
    for row in lines:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths, strict=True)))
    print(rule)


if __name__ == "__main__":
    main()
