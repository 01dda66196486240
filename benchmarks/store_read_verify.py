"""Cost of verifying the per-task checksums on every read of a store (issue 29,
item 3).

``read_store`` (so ``BenchmarkResult.from_store``, ``report`` and
``leaderboard``) checks every committed task against its checksum, with the
digests laid out and hashed in batches (sklearn_bench/store/_digests.py). This
writes stores of 10^4 to 10^6 tasks (one score row each, as
benchmarks/report_scale.py's 1M case) and prints, per size, the time of
``read_store`` with the verification and without it (the same store read
with the check of the checksums replaced by one that passes), their ratio,
and the batched digests' speed against ``task_digest`` one task at a time
(on 10^4 tasks). CPU seconds of this process are printed beside the wall
clock (less sensitive to other processes on a shared machine).

Run from the repository root (about 2 minutes on 2 cores):

    python benchmarks/store_read_verify.py
    python benchmarks/store_read_verify.py --sizes 10000 100000   # quicker

Measured on the shared 2-core machine (load average 11-15, so CPU seconds):

        tasks  verified s   (CPU)  unverified s   (CPU)  ratio CPU
        10000        0.20    0.14          0.09    0.06       2.37
       100000        1.47    0.93          0.93    0.46       2.00
      digests of 10000 tasks: batched 0.08 s CPU, one by one 0.25 s CPU

so verifying costs about 4.5 us of CPU per task (task_digest alone: 27 us),
about as much as reading the task. In benchmarks/report_scale.py's 1M case
(``--size 1M --store``) the report's load went from 5.0 to 10.9 s of CPU (peak
RSS 817 to 987 MB) and load + write_report from 46.6 to 46.0 s of CPU
(write_report's own CPU varies by a few seconds on the loaded machine): under
60 s.
"""

import argparse
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def timed(func):
    wall, cpu = time.perf_counter(), time.process_time()
    out = func()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def bulk_store(path, n_tasks):
    """A store of ``n_tasks`` one-row tasks, with their checksums."""
    import numpy as np
    import pandas as pd
    from report_scale import write_bulk_store

    n_learners, n_replicates = 20, 100
    n_datasets = max(n_tasks // (n_learners * n_replicates), 1)
    rng = np.random.default_rng(0)
    n = n_datasets * n_learners * n_replicates
    df = pd.DataFrame(
        {
            "data": np.repeat([f"d{i}" for i in range(n_datasets)], n // n_datasets),
            "model": np.tile(
                np.repeat([f"m{i}" for i in range(n_learners)], n_replicates),
                n_datasets,
            ),
            "rep": np.tile(np.arange(n_replicates), n_datasets * n_learners),
            "error_rate": rng.uniform(0.05, 0.3, n),
        }
    )
    write_bulk_store(path, df)
    return n


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000]
    )
    args = parser.parse_args()

    from unittest import mock

    from sklearn_bench.store import _reader
    from sklearn_bench.store._digests import committed_digests
    from sklearn_bench.store._integrity import read_task, task_digest
    from sklearn_bench.store._reader import read_store

    print(
        f"{'tasks':>9} {'verified s':>11} {'(CPU)':>7} {'unverified s':>13} "
        f"{'(CPU)':>7} {'ratio CPU':>10}"
    )
    with tempfile.TemporaryDirectory() as folder:
        for size in args.sizes:
            path = Path(folder) / f"s{size}.sqlite"
            n = bulk_store(path, size)
            (_, wall_v, cpu_v) = timed(lambda p=path: read_store(p))
            with mock.patch.object(_reader, "_check_digests", lambda *a: []):
                (_, wall_u, cpu_u) = timed(lambda p=path: read_store(p))
            print(
                f"{n:>9} {wall_v:>11.2f} {cpu_v:>7.2f} {wall_u:>13.2f} "
                f"{cpu_u:>7.2f} {cpu_v / cpu_u:>10.2f}"
            )
            if size == args.sizes[0]:
                conn = sqlite3.connect(path)
                try:
                    (_, _, cpu_batched) = timed(lambda c=conn: committed_digests(c))
                    done = [o for (o,) in conn.execute("SELECT ordinal FROM tasks")]
                    (_, _, cpu_single) = timed(
                        lambda c=conn, d=done: [
                            task_digest(*read_task(c, o)) for o in d
                        ]
                    )
                finally:
                    conn.close()
                print(
                    f"  digests of {n} tasks: batched {cpu_batched:.2f} s CPU, one "
                    f"by one {cpu_single:.2f} s CPU "
                    f"({cpu_single / cpu_batched:.0f} x faster batched)"
                )


if __name__ == "__main__":
    main()
