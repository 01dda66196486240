"""Cost of the SQLite store: wall time, and memory with predictions kept.

(a) Wall time of BenchmarkExperiment with ``store=`` divided by the wall time
    without, at n_jobs=1 on 3 data sets (iris, wine, breast cancer) with
    out-of-bootstrap validation, one task committed per transaction; best of
    ``--repeats`` alternating runs, with the ratio of this process's CPU times
    beside it (less disturbed by other processes on a shared machine). Two
    workloads: "realistic", 4 learners of the
    papers' kind (random forest of 100 trees, scaled logistic regression, a tree,
    kNN) x 20 replicates; "tiny fits", 4 learners that fit in about a millisecond
    (naive Bayes, a stump-like tree, kNN, LDA) x 50 replicates, the worst case for a
    per-task commit. Target: <= 1.03.
(b) Peak memory of a run that keeps its predictions: a simulated data set with a
    test sample of 10,000 rows, 200 replicates (learning samples of 200 rows) and
    4 fast learners (DummyClassifier, GaussianNB, LDA, DiagonalLDA), i.e.
    8,000,000 kept predictions. Each run is a fresh subprocess that reports the
    peak of Python/numpy allocations during ``fit`` (tracemalloc) and its maximum
    resident set size, with the store and without it (predictions in a DataFrame),
    beside the size of the predictions as float64 in RAM.

Run from the repository root:  python benchmarks/store_overhead.py
"""

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import tracemalloc
from functools import partial
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from sklearn.datasets import (  # noqa: E402
    load_breast_cancer,
    load_iris,
    load_wine,
    make_classification,
)
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.dummy import DummyClassifier  # noqa: E402
from sklearn.ensemble import RandomForestClassifier  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.naive_bayes import GaussianNB  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import StandardScaler  # noqa: E402
from sklearn.tree import DecisionTreeClassifier  # noqa: E402
from threadpoolctl import threadpool_limits  # noqa: E402

from sklearn_bench import BenchmarkExperiment  # noqa: E402
from sklearn_bench.datasets import SimulatedDataset  # noqa: E402
from sklearn_bench.estimators import DiagonalLDA  # noqa: E402
from sklearn_bench.model_selection import BootstrapOOB  # noqa: E402

N_TEST, N_REPLICATES, N_LEARNERS = 10_000, 200, 4


def overhead(workload, repeats):
    datasets = {
        name: loader(return_X_y=True)
        for name, loader in [
            ("iris", load_iris),
            ("wine", load_wine),
            ("cancer", load_breast_cancer),
        ]
    }
    if workload == "tiny fits":
        n_replicates = 50
        learners = {
            "nb": GaussianNB(),
            "tree": DecisionTreeClassifier(max_depth=3, random_state=0),
            "knn": KNeighborsClassifier(),
            "lda": LinearDiscriminantAnalysis(),
        }
    else:
        n_replicates = 20
        learners = {
            "forest": RandomForestClassifier(n_estimators=100),
            "logreg": make_pipeline(StandardScaler(), LogisticRegression()),
            "tree": DecisionTreeClassifier(),
            "knn": KNeighborsClassifier(),
        }
    folder = tempfile.TemporaryDirectory()
    kw = {
        "cv": BootstrapOOB(n_bootstraps=n_replicates, random_state=0),
        "random_state": 0,
        "progress": False,
    }

    def without():
        return BenchmarkExperiment(learners, **kw).fit(datasets)

    def with_store():
        path = Path(folder.name) / "run.sqlite"
        return BenchmarkExperiment(learners, store=path, overwrite=True, **kw).fit(
            datasets
        )

    best = {key: float("inf") for key in ["without", "with", "cpu without", "cpu with"]}
    for _ in range(repeats):
        for name, func in [("without", without), ("with", with_store)]:
            start, cpu = time.perf_counter(), time.process_time()
            exp = func()
            best[name] = min(best[name], time.perf_counter() - start)
            best[f"cpu {name}"] = min(best[f"cpu {name}"], time.process_time() - cpu)
    folder.cleanup()
    return exp.n_tasks_, best


def memory_child(store):
    """One run of (b) in this process; prints a JSON line with its figures."""
    sampler = partial(make_classification, n_features=5, n_informative=3, n_redundant=0)
    data = SimulatedDataset(
        sampler, n_train=200, n_test=N_TEST, n_replicates=N_REPLICATES
    )
    learners = {
        "dummy": DummyClassifier(),
        "nb": GaussianNB(),
        "lda": LinearDiscriminantAnalysis(),
        "dlda": DiagonalLDA(),
    }
    with tempfile.TemporaryDirectory() as folder:
        exp = BenchmarkExperiment(
            learners,
            random_state=0,
            keep_predictions=True,
            progress=False,
            store=Path(folder) / "run.sqlite" if store else None,
        )
        baseline = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        tracemalloc.start()
        start = time.perf_counter()
        exp.fit({"sim": data})
        wall = time.perf_counter() - start
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        store_bytes = (
            sum(p.stat().st_size for p in Path(folder).iterdir()) if store else 0
        )
        n_pred = len(exp.results_.predictions) if not store else None
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: kB
    print(
        json.dumps(
            {
                "peak": peak,
                "maxrss": maxrss,
                "baseline": baseline,
                "wall": wall,
                "store_bytes": store_bytes,
                "n_pred": n_pred,
            }
        )
    )


def memory():
    out = {}
    for store in (True, False):
        proc = subprocess.run(
            [sys.executable, __file__, "--memory-child", "store" if store else "ram"],
            capture_output=True,
            text=True,
            check=True,
            env=dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1"),
        )
        out[store] = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--memory-child", choices=["store", "ram"])
    parser.add_argument("--skip-memory", action="store_true")
    args = parser.parse_args()
    if args.memory_child:
        with threadpool_limits(1):
            memory_child(args.memory_child == "store")
        return
    print(f"load average: {os.getloadavg()}")
    for workload in ["realistic", "tiny fits"]:
        with threadpool_limits(1):
            n_tasks, best = overhead(workload, args.repeats)
        ratio = best["with"] / best["without"]
        cpu = best["cpu with"] / best["cpu without"]
        print(
            f"(a) {workload}: {n_tasks} tasks, best of {args.repeats}: without "
            f"store {best['without']:.3f} s, with store {best['with']:.3f} s; "
            f"ratio {ratio:.3f} (target <= 1.03); CPU time ratio {cpu:.3f}"
        )
    if args.skip_memory:
        return
    mb = 1e6
    figures = memory()
    n_pred = N_TEST * N_REPLICATES * N_LEARNERS
    print(
        f"(b) {N_TEST} test rows x {N_REPLICATES} replicates x {N_LEARNERS} learners"
        f" = {n_pred:,} kept predictions; as float64 in RAM: {8 * n_pred / mb:.0f} MB"
    )
    for store, label in [(True, "with store"), (False, "without store")]:
        f = figures[store]
        extra = (
            f", store file {f['store_bytes'] / mb:.1f} MB"
            if store
            else f", predictions frame of {f['n_pred']:,} rows"
        )
        print(
            f"    {label:14s}: peak traced allocations during fit "
            f"{f['peak'] / mb:.1f} MB, max RSS {f['maxrss'] / mb:.0f} MB "
            f"({f['baseline'] / mb:.0f} MB before fit), "
            f"wall {f['wall']:.1f} s{extra}"
        )


if __name__ == "__main__":
    main()
