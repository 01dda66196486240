"""Coverage of the intervals for one learner's generalization error (issue 40).

A Schulz-Kümpel et al. (2024)-style table on simulated data whose expected error
is known. Data: X ~ N(0, I_p), P(y = 1 | x) = 1 / (1 + exp(-(x_1 + ... + x_4))),
with p = 10 features ("low") or p = 1000 ("high", Bates et al.'s (2024)
high-dimensional logistic design: many features relative to n). In each
replicate, n rows are drawn and every method's splitter is run with a plain
loop of scikit-learn fits (one pointwise-loss table per design, both losses
from the same fits):

- holdout: one 2/3 : 1/3 split;
- naive CV (both variances): KFold(5);
- 5x2cv: RepeatedKFold(n_splits=2, n_repeats=5);
- conservative Z: PairedSubsampling(J, M, train_size=0.9); corrected t reads
  its first J splits (a ShuffleSplit design with train size 0.9);
- nested CV: NestedCV(5, n_repeats=R);
- out-of-bootstrap and .632+: BootstrapOOB(B), apparent error and γ̂ of the
  learner fitted on all n rows; each also with its standard error corrected for
  the internal Monte Carlo error of B (``oob_corrected``, ``632plus_corrected``:
  Efron & Tibshirani 1997, eqs. 42-43), whose coverage does not ride on a small B.

The truth, Err (Bates et al.'s expected error at training size n), is the mean
over replicates of the error of the learner fitted on all n rows, each
measured on one independent sample of ``--truth-size`` rows (100,000 by
default); its Monte Carlo SE is printed. Coverage is the share of replicates
whose interval at ``--level`` contains Err; its Monte Carlo SE is
sqrt(c (1 − c) / replicates).

Run from the repository root, e.g. the reduced check::

    PYTHONPATH=. OMP_NUM_THREADS=1 python benchmarks/generalization_error_coverage.py \\
        --n 100 --learners linear --designs low high --replicates 100

The out-of-bootstrap check of issue 49 (coverage at B = 50 and 400)::

    PYTHONPATH=. OMP_NUM_THREADS=1 python benchmarks/generalization_error_coverage.py \
        --n 100 --learners linear --designs low --methods oob 632plus \
        --replicates 100 --bootstraps 50     # and --bootstraps 400

The full table of the user guide: ``--n 100 500 1000 --learners linear forest
--designs low high --replicates 500`` (about 5 × 10^6 fits: hours on a quiet
machine with ``--n-jobs`` set to its cores).
"""

import argparse
import os
import time

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from scipy import stats
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, RepeatedKFold, ShuffleSplit

from sklearn_bench.model_selection import BootstrapOOB, NestedCV, PairedSubsampling
from sklearn_bench.stats import generalization_error_interval

DESIGNS = {"low": 10, "high": 1000}  # features p; the first 4 carry the signal
LOSSES = ("zero_one", "brier")


def _learner(name, seed):
    if name == "linear":  # L1-penalised logistic regression, a fixed penalty
        return LogisticRegression(l1_ratio=1.0, C=0.5, solver="liblinear")
    return RandomForestClassifier(n_estimators=50, random_state=seed, n_jobs=1)


def _draw(rng, n, p):
    X = rng.normal(size=(n, p))
    y = (rng.random(n) < 1 / (1 + np.exp(-X[:, :4].sum(axis=1)))).astype(int)
    return X, y


def _losses(model, X, y):
    """Pointwise 0-1 and Brier losses of a fitted binary classifier."""
    prob = model.predict_proba(X)[:, 1]
    return {"zero_one": ((prob > 0.5) != y).astype(float), "brier": (prob - y) ** 2}


def _truth_risk(model, p, truth_size, seed):
    """Error of a fitted model on an independent sample, drawn in chunks."""
    rng, total = np.random.default_rng(seed), dict.fromkeys(LOSSES, 0.0)
    for start in range(0, truth_size, 10_000):
        X, y = _draw(rng, min(10_000, truth_size - start), p)
        for loss, values in _losses(model, X, y).items():
            total[loss] += values.sum()
    return {loss: value / truth_size for loss, value in total.items()}


def _table(cv, X, y, learner, seed):
    """Loss table of one splitter: split, row, n_train, one column per loss."""
    parts, counts = [], []
    for split, (train, test) in enumerate(cv.split(X, y)):
        if len(np.unique(y[train])) < 2:  # a one-class training set: skip draw
            raise _OneClass
        model = _learner(learner, seed).fit(X[train], y[train])
        parts.append(
            pd.DataFrame({"split": split, "row": test, "n_train": len(train),
                          **_losses(model, X[test], y[test])})
        )  # fmt: skip
        counts.append(np.bincount(train, minlength=len(y)))
    roles = cv.split_roles() if hasattr(cv, "split_roles") else None
    table = pd.concat(parts, ignore_index=True)
    if roles is not None:
        table = table.merge(roles, on="split")
    return table, np.array(counts)


class _OneClass(Exception):
    pass


# The splitter of each method (corrected t reads the J whole-data subsamples of
# the paired-subsampling design, so the two share their fits).
SPLITTERS = {
    "holdout": lambda cfg, rs: ShuffleSplit(1, test_size=1 / 3, random_state=rs),
    "naive_cv": lambda cfg, rs: KFold(5, shuffle=True, random_state=rs),
    "five_by_two": lambda cfg, rs: RepeatedKFold(
        n_splits=2, n_repeats=5, random_state=rs
    ),
    "paired": lambda cfg, rs: PairedSubsampling(
        cfg.subsamples, n_pairs=cfg.pairs, random_state=rs
    ),
    "nested_cv": lambda cfg, rs: NestedCV(
        5, n_repeats=cfg.nested_repeats, random_state=rs
    ),
    "bootstrap": lambda cfg, rs: BootstrapOOB(cfg.bootstraps, random_state=rs),
}
METHODS = {  # method -> its splitter
    "holdout": "holdout",
    "naive_cv": "naive_cv",
    "five_by_two": "five_by_two",
    "corrected_t": "paired",
    "conservative_z": "paired",
    "nested_cv": "nested_cv",
    "oob": "bootstrap",
    "632plus": "bootstrap",
}


def _intervals(X, y, learner, seed, cfg):
    """(method, loss, estimate, standard error, df) of the chosen methods."""
    draws = np.random.default_rng(seed).integers(0, 2**31, len(SPLITTERS))
    seeds = dict(zip(SPLITTERS, draws, strict=True))
    full = _learner(learner, seed).fit(X, y)
    apparent = _losses(full, X, y)
    prob = full.predict_proba(X)[:, 1]
    gamma = {  # Efron & Tibshirani (1997) eq. (27), 0-1 and squared error
        "zero_one": y.mean() * (1 - (prob > 0.5).mean())
        + (1 - y.mean()) * (prob > 0.5).mean(),
        "brier": np.mean(y**2) - 2 * y.mean() * prob.mean() + np.mean(prob**2),
    }
    tables = {
        name: _table(SPLITTERS[name](cfg, seeds[name]), X, y, learner, seed)
        for name in {METHODS[m] for m in cfg.methods}
    }
    out = []
    for method in cfg.methods:
        table, counts = tables[METHODS[method]]
        options = {"": {}}
        if method == "naive_cv":
            options = {"_" + v: {"variance": v} for v in ("all_pairs", "within_fold")}
        elif method == "corrected_t":
            table = table[table["pair"] == -1]
        elif method in ("oob", "632plus"):  # SE_del as eq. (40), and eq. (43)
            fixed = {"train_counts": counts, "internal_error": True}
            options = {"": {"train_counts": counts}, "_corrected": fixed}
        for loss in LOSSES:
            for suffix, kw in options.items():
                if method == "632plus":
                    kw = {**kw, "apparent": apparent[loss].mean(),
                          "no_information": gamma[loss]}  # fmt: skip
                res = generalization_error_interval(
                    table.assign(loss=table[loss]), method=method, **kw
                )
                out.append((method + suffix, loss, res.estimate, res.standard_error,
                            res.df))  # fmt: skip
    return full, out


def _replicate(design, n, learner, replicate, cfg):
    key = [cfg.seed, n, replicate, list(DESIGNS).index(design)]
    seed = int(np.random.SeedSequence(key).generate_state(1)[0])
    rng = np.random.default_rng(seed)
    for _attempt in range(20):
        X, y = _draw(rng, n, DESIGNS[design])
        try:
            full, rows = _intervals(X, y, learner, seed, cfg)
            break
        except _OneClass:
            continue
    risk = _truth_risk(full, DESIGNS[design], cfg.truth_size, seed + 1)
    return [
        {"design": design, "n": n, "learner": learner, "replicate": replicate,
         "method": m, "loss": loss, "estimate": est, "se": se, "df": df,
         "risk": risk[loss]}
        for m, loss, est, se, df in rows
    ]  # fmt: skip


def summarise(frame, level):
    """Coverage (and MC SE), mean width per design x n x learner x loss x method."""
    cell = ["design", "n", "learner", "loss"]
    err = frame.groupby(cell)["risk"].transform("mean")  # each replicate equally
    tail = (1 - level) / 2
    df = pd.to_numeric(frame["df"]).astype(float)
    q = np.where(df.isna(), stats.norm.isf(tail), stats.t.isf(tail, df.fillna(1.0)))
    frame = frame.assign(
        err=err,
        covered=(frame["estimate"] - q * frame["se"] <= err)
        & (err <= frame["estimate"] + q * frame["se"]),
        width=2 * q * frame["se"],
    )
    keys = [*cell, "method"]
    out = frame.groupby(keys).agg(
        coverage=("covered", "mean"), width=("width", "mean"),
        replicates=("covered", "size"), err=("err", "first"),
    )  # fmt: skip
    out["coverage_se"] = np.sqrt(
        out["coverage"] * (1 - out["coverage"]) / out["replicates"]
    )
    per_rep = frame.drop_duplicates([*cell, "replicate"]).groupby(cell)["risk"]
    out = out.join((per_rep.std() / np.sqrt(per_rep.size())).rename("err_se"), on=cell)
    return out.reset_index()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[100])
    parser.add_argument("--learners", nargs="+", default=["linear", "forest"])
    parser.add_argument("--designs", nargs="+", default=list(DESIGNS))
    parser.add_argument("--replicates", type=int, default=100)
    parser.add_argument("--level", type=float, default=0.90)
    parser.add_argument("--truth-size", type=int, default=100_000)
    parser.add_argument("--nested-repeats", type=int, default=5)
    parser.add_argument("--subsamples", type=int, default=10)
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--bootstraps", type=int, default=50)
    parser.add_argument("--n-jobs", type=int, default=1)
    parser.add_argument("--methods", nargs="+", default=list(METHODS))
    parser.add_argument("--seed", type=int, default=40)
    parser.add_argument("--out", help="CSV of every replicate's intervals")
    parser.add_argument("--summarise", help="print the table of such a CSV, no fits")
    cfg = parser.parse_args(argv)
    if cfg.summarise:
        table = summarise(pd.read_csv(cfg.summarise), cfg.level)
        print(table.round(4).to_string(index=False))
        return table
    cost = {
        "holdout": 1,
        "naive_cv": 5,
        "five_by_two": 10,
        "paired": cfg.subsamples * (2 * cfg.pairs + 1),
        "nested_cv": 25 * cfg.nested_repeats,
        "bootstrap": cfg.bootstraps,
    }
    fits = 1 + sum(cost[d] for d in {METHODS[m] for m in cfg.methods})
    print(
        f"load before: {os.getloadavg()}; {fits} fits per replicate; config {vars(cfg)}"
    )
    start = time.perf_counter()
    jobs = [(d, n, learner, r) for d in cfg.designs for n in cfg.n
            for learner in cfg.learners for r in range(cfg.replicates)]  # fmt: skip
    rows = Parallel(n_jobs=cfg.n_jobs)(delayed(_replicate)(*job, cfg) for job in jobs)
    frame = pd.DataFrame([row for rep in rows for row in rep])
    if cfg.out:
        frame.to_csv(cfg.out, index=False)
    table = summarise(frame, cfg.level)
    with pd.option_context("display.width", 200, "display.max_rows", 500):
        print(table.round(4).to_string(index=False))
    print(f"{time.perf_counter() - start:.0f} s; load after: {os.getloadavg()}")
    return table


if __name__ == "__main__":
    main()
