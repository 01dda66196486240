"""Cost of SQLite's ``PRAGMA quick_check`` when a store is opened (issue 15, item 1).

Every open of a store (``fit`` resuming it, ``BenchmarkResult.from_store``,
``sklearn-bench report``) runs ``quick_check`` to refuse a damaged file with a clear
error. This writes stores of 10^3 to 10^5 tasks (one score row each, kept
predictions of 50 rows) with ``StoreWriter`` and prints, per size, the file size,
the time of ``quick_check`` alone and of ``read_store`` (which includes it), and
their ratio.

Run from the repository root: PYTHONPATH=. python benchmarks/store_integrity_check.py
Measured on the shared 2-core machine (best of 3):

       tasks      MB  quick_check s  read_store s  ratio
        1000     0.6          0.001         0.009   0.09
       10000     6.2          0.006         0.041   0.14
      100000    62.0          0.105         0.706   0.15

so the check costs about a seventh of reading the store (0.1 s per 60 MB).
"""

import sqlite3
import tempfile
import time
from pathlib import Path

import numpy as np

from sklearn_bench.store._reader import read_store
from sklearn_bench.store._schema import Task
from sklearn_bench.store._writer import StoreWriter

RESULT = {
    "metrics": {"loss": False},
    "datasets": {"d": "real world"},
    "learners": ["m"],
    "info": {"seed": 0},
}


def write_store(path, n_tasks):
    tasks = [Task("d", i, i, 0, "m") for i in range(n_tasks)]
    writer = StoreWriter(path)
    writer.start({"a": 1}, tasks, RESULT, keep_predictions=True)
    rows = np.arange(50)
    for i in range(n_tasks):
        row = {
            "dataset": "d", "learner": "m", "split": i, "replicate": i, "fold": 0,
            "metric": "loss", "value": 0.1, "fit_time": 0.0, "score_time": 0.0,
            "n_train": 100, "n_test": 50, "error_type": "", "error_message": "",
            "traceback": "",
        }  # fmt: skip
        out = {"rows": [row], "predictions": {"rows": rows, "correct": rows % 2 == 0}}
        writer.write(i, out)
    writer.close()


def best(fn, repeats=3):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main():
    folder = Path(tempfile.mkdtemp())
    print(f"{'tasks':>8} {'MB':>7} {'quick_check s':>14} {'read_store s':>13} ratio")
    for n in (1_000, 10_000, 100_000):
        path = folder / f"s{n}.sqlite"
        write_store(path, n)

        def check(path=path):
            with sqlite3.connect(path) as conn:
                conn.execute("PRAGMA quick_check").fetchall()

        t_check = best(check)
        t_read = best(lambda path=path: read_store(path))
        size = path.stat().st_size / 1e6
        print(f"{n:>8} {size:>7.1f} {t_check:>14.3f} {t_read:>13.3f} "
              f"{t_check / t_read:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
