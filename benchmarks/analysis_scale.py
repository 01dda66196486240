"""Analysis of millions of scores: our time against a plain pandas/scipy pipeline.

(a) Synthetic scores of ``n_datasets`` data sets x 30 learners x 100 replicates
    (one fold each, error rates), as a long DataFrame with string columns, at
    0.6 M rows (200 data sets) and 2.4 M rows (800 data sets). In one process, on
    the same frame, best of ``--repeats``:

    - ours: ``BenchmarkResult.from_frame``, ``friedman()``, ``win_tie_loss()``,
      ``paired_test(a, b)`` across data sets and ``aggregate()``;
    - plain: ``groupby`` + mean + ``unstack`` (the data set x learner table),
      ``scipy.stats.friedmanchisquare`` on its columns, wins/ties/losses as a
      numpy broadcast, ``scipy.stats.ttest_rel`` on two columns.

    Printed: each step's time, the ratio ours / plain (target <= 5 at 0.6 M) and
    the growth ratio time(2.4 M) / time(0.6 M) of ours (target <= 6 for 4x rows).
(b) ``--report``: a store of 2.4 M score rows (480 data sets x 50 learners x 100
    replicates) written in bulk with the store's schema, then
    ``BenchmarkResult.from_store`` and ``write_report`` timed; the report's
    figures are written as PNG files next to it for a look (``--out``).

Run from the repository root:
    python benchmarks/analysis_scale.py            # (a)
    python benchmarks/analysis_scale.py --report   # (a) and (b)
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402

N_LEARNERS = 30
N_REPLICATES = 100


def synthetic_frame(n_datasets, n_learners=N_LEARNERS, n_replicates=N_REPLICATES):
    """Error rates of ``n_learners`` on ``n_datasets`` x ``n_replicates``."""
    rng = np.random.default_rng(0)
    d = np.repeat(np.arange(n_datasets), n_learners * n_replicates)
    m = np.tile(np.repeat(np.arange(n_learners), n_replicates), n_datasets)
    r = np.tile(np.arange(n_replicates), n_datasets * n_learners)
    level = rng.uniform(0.05, 0.4, n_datasets)[d]
    skill = np.linspace(0, 0.03, n_learners)[m]
    # error rates lie in [0, 1]: a store refuses a score outside its bounds
    value = np.clip(np.round(level + skill + rng.normal(0, 0.02, d.size), 3), 0, 1)
    return pd.DataFrame(
        {
            "data": np.array([f"data{i:04d}" for i in range(n_datasets)])[d],
            "model": np.array([f"learner{j:02d}" for j in range(n_learners)])[m],
            "rep": r,
            "error": value,
        }
    )


def best_of(repeats, func):
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - start)
    return min(times), out


def ours(df):
    steps = {}
    start = time.perf_counter()
    result = BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error",
        replicate="rep",
        greater_is_better=False,
    )
    steps["from_frame"] = time.perf_counter() - start
    for name, call in {
        "friedman": lambda: result.friedman(),
        "win_tie_loss": lambda: result.win_tie_loss(),
        "paired_test": lambda: result.paired_test(
            result.learners[0], result.learners[1]
        ),
        "aggregate": lambda: result.aggregate(),
    }.items():
        start = time.perf_counter()
        call()
        steps[name] = time.perf_counter() - start
    return steps


def plain(df):
    steps = {}
    start = time.perf_counter()
    table = df.groupby(["data", "model"], sort=False)["error"].mean().unstack()
    steps["table"] = time.perf_counter() - start
    values = table.to_numpy()
    start = time.perf_counter()
    stats.friedmanchisquare(*values.T)
    steps["friedman"] = time.perf_counter() - start
    start = time.perf_counter()
    diff = values[:, :, None] - values[:, None, :]
    wins, losses = (diff < 0).sum(axis=0), (diff > 0).sum(axis=0)
    _ = values.shape[0] - wins - losses
    steps["win_tie_loss"] = time.perf_counter() - start
    start = time.perf_counter()
    stats.ttest_rel(values[:, 0], values[:, 1])
    steps["paired_test"] = time.perf_counter() - start
    return steps


def compare(sizes, repeats):
    totals = {}
    for n_datasets in sizes:
        df = synthetic_frame(n_datasets)
        best = {}
        for name, pipeline in {"ours": ours, "plain": plain}.items():
            runs = [pipeline(df) for _ in range(repeats)]
            best[name] = min(runs, key=lambda s: sum(s.values()))
        total = {name: sum(s.values()) for name, s in best.items()}
        totals[n_datasets] = total
        print(
            f"\n{len(df):,} rows ({n_datasets} data sets x {N_LEARNERS} learners x "
            f"{N_REPLICATES} replicates), best of {repeats}:"
        )
        for name, steps in best.items():
            detail = ", ".join(f"{k} {v:.3f}" for k, v in steps.items())
            print(f"  {name:5s} {total[name]:7.3f} s  ({detail})")
        print(f"  ours / plain = {total['ours'] / total['plain']:.2f}  (target <= 5)")
    if len(sizes) == 2:
        a, b = sizes
        rows = b / a
        growth = totals[b]["ours"] / totals[a]["ours"]
        plain_growth = totals[b]["plain"] / totals[a]["plain"]
        print(
            f"\ngrowth for {rows:.0f}x rows: ours {growth:.2f}x (target <= 6), "
            f"plain {plain_growth:.2f}x"
        )


def write_bulk_store(path, df):
    """A complete store of ``df``'s scores, written in one transaction."""
    import sqlite3

    from sklearn_bench.store import _digests
    from sklearn_bench.store._writer import StoreWriter

    datasets = list(dict.fromkeys(df["data"]))
    learners = list(dict.fromkeys(df["model"]))
    writer = StoreWriter(path)
    try:
        writer.start(
            {"synthetic": True},
            [],
            {
                "metrics": {"error_rate": False},
                "datasets": dict.fromkeys(datasets, "real world"),
                "learners": learners,
                "info": {"seed": 0},
            },
            keep_predictions=False,
        )
    finally:
        writer.close()
    conn = sqlite3.connect(path)
    with conn:
        n = len(df)
        ordinal = np.arange(n)
        conn.executemany(
            "INSERT INTO tasks (ordinal, dataset, split, replicate, fold, learner) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            zip(
                ordinal.tolist(),
                df["data"].tolist(),
                df["rep"].tolist(),
                df["rep"].tolist(),
                [0] * n,
                df["model"].tolist(),
                strict=True,
            ),
        )
        conn.executemany(
            "INSERT INTO scores (ordinal, metric_index, dataset, learner, split, "
            "replicate, fold, metric, value, fit_time, score_time, n_train, n_test, "
            "error_type, error_message, traceback) VALUES "
            "(?, 0, ?, ?, ?, ?, 0, 'error_rate', ?, 0.0, 0.0, 100, 36, '', '', '')",
            zip(
                ordinal.tolist(),
                df["data"].tolist(),
                df["model"].tolist(),
                df["rep"].tolist(),
                df["rep"].tolist(),
                df["error"].tolist(),
                strict=True,
            ),
        )
        # The per-task checksums a run commits with its rows, and the store's
        # digests of its settings and task list (reads verify them).
        _digests.sign_store(conn)
    conn.close()


def report(out, n_datasets=480):
    from sklearn_bench.analysis import analyse
    from sklearn_bench.report import write_report

    out = Path(out)
    df = synthetic_frame(n_datasets, n_learners=50)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "big.sqlite"
        start = time.perf_counter()
        write_bulk_store(path, df)
        took = time.perf_counter() - start
        print(f"\nwrote a store of {len(df):,} rows in bulk in {took:.1f} s")
        start = time.perf_counter()
        result = BenchmarkResult.from_store(path)
        took = time.perf_counter() - start
        print(f"from_store: {took:.2f} s")
    start = time.perf_counter()
    write_report(analyse(result), out, figure_formats=("png",), progress=False)
    took = time.perf_counter() - start
    print(
        f"write_report (50 learners, {n_datasets} data sets): {took:.1f} s; "
        f"{out / 'report.html'} and {out / 'figures'}"
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--sizes", type=int, nargs="+", default=[200, 800])
    parser.add_argument("--report", action="store_true")
    parser.add_argument("--out", default="analysis_scale_report")
    parser.add_argument("--report-datasets", type=int, default=480)
    args = parser.parse_args()
    compare(args.sizes, args.repeats)
    if args.report:
        report(args.out, args.report_datasets)


if __name__ == "__main__":
    main()
