"""Time and peak memory of loading, analysing and reporting large results.

Synthetic error rates (one fold per replicate, stored split sizes n_train = 100,
n_test = 36, so the corrected resampled t and the Bayesian correlated t run
within each data set as on a real store), each size in a fresh process:
``10k`` (20 learners x 5 data sets x 100 replicates), ``100k`` (20 x 50 x 100),
``1M`` (20 x 500 x 100; issue 21: report under 60 s and 1 GB), ``wide``
(50 x 500 x 10; issue 22: ``write_report`` under 15 s, ``report.html`` under
3 MB) and ``wide480`` (50 x 480 x 10, issue 39's study). Issue 48's goal:
``--size wide480 --report-only`` (one process, split sizes included, every
learner interval computed, nothing capped) under 5 s on a 2-core machine at low
load, BLAS on one thread (``OMP_NUM_THREADS=1``).

Printed per size: wall-clock and CPU seconds (CPU is less sensitive to other
processes) and peak resident memory (Linux: the kernel's high-water mark; else
sampled every 20 ms) of loading (``from_frame``, or ``from_store`` of a store
written in bulk with ``--store``), of ``analyse`` without and with the Bayesian
and pairwise tests, and of ``analyse`` + ``write_report`` (SVG figures, as
``sklearn-bench report``), with the size of ``report.html``. ``--no-split-sizes``
drops ``n_train``/``n_test`` (the tests that need them cannot run);
``--profile`` prints cProfile's costliest functions; ``--bayes both`` measures
with and without the ``[bayes]`` extra importable.

Run from the repository root:
    OMP_NUM_THREADS=1 python benchmarks/report_scale.py --size wide480 --report-only
    python benchmarks/report_scale.py                 # every size
    python benchmarks/report_scale.py --size wide --report-only --bayes both
    python benchmarks/report_scale.py --size wide --store --keep out/
    python benchmarks/report_scale.py --size wide --report-only --profile
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SIZES = {
    "10k": (20, 5, 100),
    "100k": (20, 50, 100),
    "1M": (20, 500, 100),
    "wide": (50, 500, 10),
    "wide480": (50, 480, 10),
}
N_TRAIN, N_TEST = 100, 36


def synthetic_frame(n_learners, n_datasets, n_replicates, seed=0):
    """Error rates as a long frame: data, model, rep, error."""
    import numpy as np
    import pandas as pd

    rng = np.random.default_rng(seed)
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
            "error_rate": value,
        }
    )


def from_frame(df, split_sizes=True):
    """``BenchmarkResult.from_frame`` with the split sizes a store would have
    (without them when not ``split_sizes``)."""
    from sklearn_bench import BenchmarkResult

    result = BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error_rate",
        replicate="rep",
        greater_is_better=False,
    )
    if split_sizes:
        result.scores = result.scores.assign(n_train=N_TRAIN, n_test=N_TEST)
    result.datasets = dict.fromkeys(result.datasets, "real world")
    return result


def write_bulk_store(path, df):
    """A complete store of ``df``'s scores, written in one transaction."""
    import sqlite3

    import numpy as np

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
        ordinal = np.arange(len(df)).tolist()
        data, model = df["data"].tolist(), df["model"].tolist()
        rep = df["rep"].tolist()
        conn.executemany(
            "INSERT INTO tasks (ordinal, dataset, split, replicate, fold, learner) "
            "VALUES (?, ?, ?, ?, 0, ?)",
            zip(ordinal, data, rep, rep, model, strict=True),
        )
        conn.executemany(
            "INSERT INTO scores (ordinal, metric_index, dataset, learner, split, "
            "replicate, fold, metric, value, fit_time, score_time, n_train, n_test, "
            "error_type, error_message, traceback) VALUES "
            f"(?, 0, ?, ?, ?, ?, 0, 'error_rate', ?, 0.0, 0.0, {N_TRAIN}, {N_TEST}, "
            "'', '', '')",
            zip(ordinal, data, model, rep, rep, df["error_rate"].tolist(), strict=True),
        )
        # The per-task checksums a run commits with its rows, and the store's
        # digests of its settings and task list (reads verify them).
        _digests.sign_store(conn)
    conn.close()


class PeakRSS:
    """Wall-clock and CPU time (this process and the children it reaped) and
    peak resident memory of this process while the block runs. On Linux the
    kernel's high-water mark (``VmHWM``, reset at the start through
    ``/proc/self/clear_refs``); elsewhere sampled every ``interval`` seconds by
    a thread."""

    _CLEAR = Path("/proc/self/clear_refs")

    def __init__(self, interval=0.02):
        import psutil

        self._process = psutil.Process()
        self._interval = interval
        self._thread = None

    def _watch(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, self._process.memory_info().rss)
            self._stop.wait(self._interval)

    @staticmethod
    def _hwm():
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
        raise OSError("no VmHWM")

    def __enter__(self):
        self.peak = self._process.memory_info().rss
        try:
            self._CLEAR.write_text("5")  # the high-water mark := RSS now
            self._hwm()
        except OSError:
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._watch, daemon=True)
            self._thread.start()
        self._start = time.perf_counter()
        self._cpu = _cpu_seconds()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self._start
        self.cpu = _cpu_seconds() - self._cpu
        if self._thread is not None:
            self._stop.set()
            self._thread.join()
        else:
            self.peak = max(self.peak, self._hwm())
        self.peak = max(self.peak, self._process.memory_info().rss)


def _cpu_seconds():
    """CPU seconds of this process and of its reaped children."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def hide_bayes():
    """Make NumPyro unimportable in this process, as without the extra (the
    package asks for it, and JAX is imported only through it). Not JAX itself:
    SciPy's array-API checks read ``sys.modules["jax"]`` when the key exists."""
    sys.modules["numpyro"] = None  # importlib.util.find_spec then answers None


def run_size(name, *, store, report_only, keep, split_sizes=True, profile=None):
    """Measure one size in this process; returns a dict of measurements."""
    import warnings

    import matplotlib

    matplotlib.use("Agg")
    from sklearn_bench import BenchmarkResult
    from sklearn_bench.analysis import AnalysisPlan, analyse
    from sklearn_bench.report import write_report

    warnings.simplefilter("ignore")
    n_learners, n_datasets, n_replicates = SIZES[name]
    df = synthetic_frame(n_learners, n_datasets, n_replicates)
    out = {"size": name, "rows": len(df), "shape": SIZES[name], "steps": {}}
    out["split_words"] = "" if split_sizes else ", no split sizes"
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        if store:
            path = folder / "big.sqlite"
            start = time.perf_counter()
            write_bulk_store(path, df)
            out["store_write"] = time.perf_counter() - start

            def load():
                return BenchmarkResult.from_store(path)
        else:

            def load():
                return from_frame(df, split_sizes)

        def step(key, func):
            with PeakRSS() as peak:
                value = func()
            out["steps"][key] = (peak.seconds, peak.cpu, peak.peak)
            return value

        if not report_only:
            result = step("load", load)
            core = ("effects", "friedman", "power", "win_tie_loss")
            step(
                "analyse core",
                lambda: analyse(result, AnalysisPlan(analyses=core)),
            )
            step("analyse", lambda: analyse(result))
            del result
        target = Path(keep) / name if keep else folder / "report"
        result = step("report: load", load)

        # the figure formats of ``sklearn-bench report`` (SVG)
        def report():
            analysis = analyse(result)
            return write_report(analysis, target, progress=False)

        if profile:
            import cProfile

            profiler = cProfile.Profile()
            step("report: write_report", lambda: profiler.runcall(report))
            profiler.dump_stats(profile)
        else:
            step("report: write_report", report)
        out["html_bytes"] = (target / "report.html").stat().st_size
        out["files"] = sum(1 for p in target.rglob("*") if p.is_file())
    import resource

    out["max_rss"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    return out


def _mb(n):
    return f"{n / 2**20:,.0f} MB"


def show(m):
    k, j, r = m["shape"]
    print(f"\n{m['size']}: {m['rows']:,} rows ({k} learners x {j} data sets x {r} "
          f"replicates{m['split_words']}; one process); wall-clock and CPU "
          "seconds (CPU: less sensitive to other processes)")  # fmt: skip
    if "store_write" in m:
        print(f"  (store written in bulk in {m['store_write']:.1f} s)")
    for key, (seconds, cpu, peak) in m["steps"].items():
        print(f"  {key:22s} {seconds:8.2f} s  CPU {cpu:8.2f} s   peak RSS {_mb(peak)}")
    wall = m["steps"]["report: load"][0] + m["steps"]["report: write_report"][0]
    cpu = m["steps"]["report: load"][1] + m["steps"]["report: write_report"][1]
    print(f"  {'report (load + write)':22s} {wall:8.2f} s  CPU {cpu:8.2f} s   max "
          f"RSS {_mb(m['max_rss'])}; report.html {m['html_bytes'] / 1e6:.2f} MB, "
          f"{m['files']} files")  # fmt: skip


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--size", choices=list(SIZES), action="append", help="repeatable"
    )
    parser.add_argument("--store", action="store_true", help="load from SQLite")
    parser.add_argument(
        "--no-split-sizes",
        action="store_true",
        help="a frame without n_train / n_test (not with --store)",
    )
    parser.add_argument(
        "--profile",
        action="store_const",
        const=True,
        dest="show_profile",
        help="profile analyse + write_report",
    )
    parser.add_argument("--report-only", action="store_true", help="skip the breakdown")
    parser.add_argument("--keep", help="write the reports under this folder")
    parser.add_argument("--timeout", type=float, default=1800.0)
    parser.add_argument(
        "--bayes", choices=["installed", "with", "without", "both"], default="installed"
    )
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--profile-to", dest="profile", help=argparse.SUPPRESS)
    parser.add_argument("--hide-bayes", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.store and args.no_split_sizes:
        parser.error("--no-split-sizes is for a frame, not --store")
    if args.child:
        if args.hide_bayes:
            hide_bayes()
        m = run_size(
            args.child,
            store=args.store,
            report_only=args.report_only,
            keep=args.keep,
            split_sizes=not args.no_split_sizes,
            profile=args.profile,
        )
        print("RESULT " + json.dumps(m))
        return
    times = {}
    variants = {"installed": [None], "with": [False], "without": [True]}
    variants["both"] = [False, True]
    for name, hide in (
        (n, h) for n in args.size or list(SIZES) for h in variants[args.bayes]
    ):
        print(f"\n{os.cpu_count()} cores; load average {os.getloadavg()[0]:.1f}")
        if hide is not None:
            print("[bayes] extra: " + ("hidden (without)" if hide else "installed"))
        cmd = [sys.executable, __file__, "--child", name] + ["--hide-bayes"] * bool(
            hide
        )
        cmd += ["--store"] * args.store + ["--report-only"] * args.report_only
        cmd += ["--keep", args.keep] if args.keep else []
        cmd += ["--no-split-sizes"] * args.no_split_sizes
        profile = None
        if args.show_profile:
            profile = tempfile.NamedTemporaryFile(suffix=".prof", delete=False).name
            cmd += ["--profile-to", profile]
        try:
            done = subprocess.run(
                cmd, capture_output=True, text=True, timeout=args.timeout
            )
        except subprocess.TimeoutExpired:
            print(f"\n{name}: did not finish in {args.timeout:.0f} s")
            continue
        lines = [ln for ln in done.stdout.splitlines() if ln.startswith("RESULT ")]
        if done.returncode or not lines:
            print(f"\n{name}: failed\n{done.stderr[-3000:]}")
            continue
        m = json.loads(lines[-1][len("RESULT ") :])
        show(m)
        if profile:
            import pstats

            print("\n  cProfile of analyse + write_report (slowed down by it):")
            stats = pstats.Stats(profile, stream=sys.stdout)
            stats.sort_stats("cumulative").print_stats(r"sklearn_bench", 30)
            stats.sort_stats("tottime").print_stats(15)
            os.unlink(profile)
        times[name, hide] = [
            sum(m["steps"][k][i] for k in ("report: load", "report: write_report"))
            for i in (0, 1)
        ]
    for name in args.size or list(SIZES):
        if (name, False) in times and (name, True) in times:
            (w1, c1), (w0, c0) = times[name, False], times[name, True]
            print(f"\n{name}: report with / without [bayes]: wall {w1:.1f} / "
                  f"{w0:.1f} s = {w1 / w0:.2f}x, CPU {c1:.1f} / {c0:.1f} s = "
                  f"{c1 / c0:.2f}x")  # fmt: skip


if __name__ == "__main__":
    main()
