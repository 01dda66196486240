"""Size of the report of an imported study whose resampling scheme is unknown.

Results imported with ``BenchmarkResult.from_frame(..., replicate=...)`` and no
split sizes leave every comparison within a data set without an interval, for
one cause. Issue 28.9: at 50 learners x 480 data sets x 10 replicates one note
was repeated 23,520 times (9.5 of 10.6 MB of report.html). Printed: the size of
report.html and of the text summary, the number of notes and their bytes, and
the share of the page the notes take.

Run from the repository root (about a minute at the default size):
    python benchmarks/report_notes_size.py
    python benchmarks/report_notes_size.py --learners 50 --datasets 480 --replicates 10
"""

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main():
    import matplotlib

    matplotlib.use("Agg")
    from report_scale import synthetic_frame

    from sklearn_bench import BenchmarkResult
    from sklearn_bench.analysis import AnalysisPlan, analyse
    from sklearn_bench.report import format_summary, write_report

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--learners", type=int, default=50)
    parser.add_argument("--datasets", type=int, default=100)
    parser.add_argument("--replicates", type=int, default=10)
    args = parser.parse_args()
    frame = synthetic_frame(args.learners, args.datasets, args.replicates)
    result = BenchmarkResult.from_frame(
        frame, dataset="data", learner="model", value="error_rate",
        replicate="rep", greater_is_better=False,
    )  # fmt: skip
    analyses = ("effects", "friedman", "power", "win_tie_loss")
    start = time.process_time()
    analysis = analyse(result, AnalysisPlan(analyses=analyses))
    with tempfile.TemporaryDirectory() as out:
        write_report(analysis, out, figure_formats=("png",), progress=False)
        page = (Path(out) / "report.html").read_bytes()
    summary = format_summary(analysis).encode()
    cpu = time.process_time() - start
    note_bytes = sum(len(str(n).encode()) for n in analysis.notes)
    print(
        f"{args.learners} learners x {args.datasets} data sets x "
        f"{args.replicates} replicates, no split sizes ({cpu:.1f} s CPU)"
    )
    print(f"report.html: {len(page) / 1e6:.2f} MB")
    lines = summary.count(b"\n") + 1
    print(f"summary:     {len(summary) / 1e3:.1f} KB, {lines} lines")
    print(
        f"notes:       {len(analysis.notes)} ({note_bytes / 1e3:.1f} KB, "
        f"{note_bytes / len(page):.1%} of report.html)"
    )
    print(f"'No interval' in report.html: {page.count(b'No interval')} time(s)")


if __name__ == "__main__":
    main()
