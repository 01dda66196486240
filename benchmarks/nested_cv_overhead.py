"""The runner's overhead on a nested-CV study, and what the pointwise losses add
(issue 40, item 7).

A study of ``--repeats`` x ``--folds`` x ``--folds`` nested cross-validation
(:class:`~sklearn_bench.model_selection.NestedCV`, 10 x 5 x 5 = 250 fits per
learner by default) on ``--n`` rows (1,000) of ``make_classification`` (20
features), one learner (a logistic regression, about a millisecond a fit: the
overhead is the part of the time that is not fitting), two metrics that keep
pointwise losses (``error_rate`` and ``log_loss``), one thread:

(a) a hand loop over the same splits: clone, fit, score both metrics with
    scikit-learn, the pointwise losses of both into a table, then
    ``generalization_error_interval(method="nested_cv")``;
(b) ``BenchmarkExperiment(cv=NestedCV(...), n_jobs=1)`` in memory, then
    ``results_.confidence_interval(...)``;
(c) the same with a store (every task committed, with its losses), then
    ``BenchmarkResult.from_store(...).confidence_interval(...)``.

Prints each wall time (the best of ``--runs``, runs alternating), the ratios
(b)/(a) and (c)/(a), the load average beside them, and checks that the three
intervals are equal. Then what the losses add: their bytes in the store (the
``losses`` table's blobs, zlib-compressed) against the file, and the memory of
``result.losses``.

Run from the repository root:  python benchmarks/nested_cv_overhead.py
"""

import argparse
import os
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import accuracy_score, log_loss
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from sklearn_bench import BenchmarkExperiment, BenchmarkResult  # noqa: E402
from sklearn_bench.model_selection import NestedCV  # noqa: E402
from sklearn_bench.stats import generalization_error_interval  # noqa: E402

METRICS = ["error_rate", "log_loss"]


def hand_loop(cv, learner, X, y):
    """The nested-CV interval of a plain loop of scikit-learn fits."""
    rows = []
    for split, (train, test) in enumerate(cv.split(X, y)):
        model = clone(learner).fit(X[train], y[train])
        pred, proba = model.predict(X[test]), model.predict_proba(X[test])
        1 - accuracy_score(y[test], pred), log_loss(y[test], proba)  # the scores
        p = np.clip(proba[np.arange(len(test)), y[test]], 1e-15, 1 - 1e-15)
        rows.append(
            pd.DataFrame(
                {
                    "split": split,
                    "row": test,
                    "error_rate": pred != y[test],
                    "log_loss": -np.log(p),
                }  # fmt: skip
            )
        )
    table = pd.concat(rows).merge(cv.split_roles(), on="split")
    return generalization_error_interval(
        table.rename(columns={"error_rate": "loss"}), method="nested_cv"
    )


def runner(cv, learner, X, y, store=None):
    experiment = BenchmarkExperiment(
        {"lr": learner}, cv=cv, scoring=METRICS, n_jobs=1, random_state=0,
        progress=False, store=store, overwrite=True,
    )  # fmt: skip
    result = experiment.fit({"d": (X, y)}).results_
    if store is not None:
        result = BenchmarkResult.from_store(store)
    return result.confidence_interval("lr", dataset="d"), result


def best(runs, funcs):
    times, values = [np.inf] * len(funcs), [None] * len(funcs)
    for _ in range(runs):
        for i, func in enumerate(funcs):
            start = time.perf_counter()
            values[i] = func()
            times[i] = min(times[i], time.perf_counter() - start)
    return times, values


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=1000)
    parser.add_argument("--folds", type=int, default=5)
    parser.add_argument("--repeats", type=int, default=10)
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    X, y = make_classification(args.n, n_features=20, random_state=0)
    cv = NestedCV(args.folds, n_repeats=args.repeats, random_state=0)
    learner = LogisticRegression(max_iter=1000)
    n_fits = args.repeats * args.folds**2
    folder = Path(tempfile.mkdtemp())
    store = folder / "run.sqlite"
    with threadpool_limits(1):
        (hand, memory, stored), (a, b, c) = best(
            args.runs,
            [
                lambda: hand_loop(cv, learner, X, y),
                lambda: runner(cv, learner, X, y),
                lambda: runner(cv, learner, X, y, store),
            ],
        )
    load = os.getloadavg()
    print(f"nested CV {args.repeats} x {args.folds} x {args.folds} = {n_fits} fits, "
          f"n = {args.n}, one logistic regression, metrics {METRICS}")  # fmt: skip
    print(f"(a) hand loop + interval:        {hand:7.2f} s")
    print(
        f"(b) runner in memory + interval: {memory:7.2f} s  ratio {memory / hand:.2f}"
    )
    print(
        f"(c) runner with a store:         {stored:7.2f} s  ratio {stored / hand:.2f}"
    )
    print(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    for name, res in (("memory", b[0]), ("store", c[0])):
        same = (res.estimate, res.standard_error) == (a.estimate, a.standard_error)
        print(f"interval {name} == hand loop: {same} ({res.estimate:.4f} "
              f"[{res.low:.4f}, {res.high:.4f}])")  # fmt: skip
    with sqlite3.connect(store) as conn:
        n_obs, rows, loss = conn.execute(
            "SELECT sum(n), sum(length(rows)), sum(length(loss)) FROM losses"
        ).fetchone()
    size = store.stat().st_size
    raw = n_obs * (4 + 8 * len(METRICS))
    print(f"losses: {n_obs:,} validation rows x {len(METRICS)} metrics; stored "
          f"{(rows + loss) / 1e3:,.0f} kB (rows {rows / 1e3:,.0f} kB, losses "
          f"{loss / 1e3:,.0f} kB; {raw / 1e3:,.0f} kB raw) of a "
          f"{size / 1e3:,.0f} kB store")  # fmt: skip
    frame = c[1].losses
    print(f"result.losses in memory: {frame.memory_usage(deep=True).sum() / 1e6:.1f}"
          f" MB ({len(frame):,} rows)")  # fmt: skip


if __name__ == "__main__":
    main()
