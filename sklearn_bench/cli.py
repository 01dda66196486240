"""The ``sklearn-bench`` command line: ``demo``, ``run CONFIG``, ``report STORE``,
``store check|checkpoint|salvage STORE`` and ``merge TARGET SOURCE...``.

Exit codes: 0 success, 1 a failure while running (a learner that fails on every
task, a data set that cannot be fetched), 2 a usage, configuration or input error
(bad data, a corrupt store; one line on standard error naming the key, file or
data set and what was expected).
"""

import argparse
import sys
import time
import traceback
import warnings
from pathlib import Path

from ._version import __version__

EXIT_OK, EXIT_FAILURE, EXIT_USAGE = 0, 1, 2

_RUN_HELP = """\
Run the benchmark experiment described by a TOML file, then write the report.

Relative CSV paths in the file are relative to the file's folder; relative
output paths (output.dir, experiment.store) to the current directory. Every
entry is checked, and the data sets loaded and checked against the learners,
before anything runs.

  [experiment]                      # all optional
  cv = {class = "sklearn_bench.model_selection.BootstrapOOB",
        params = {n_bootstraps = 25}}   # or an integer (k-fold)
  scoring = "error_rate"            # or a list; any scikit-learn scorer name
  n_jobs = 2
  random_state = 0
  store = "run.sqlite"              # resumable SQLite store; a grown config
                                    # (more learners, data sets, replicates)
                                    # runs only its new tasks
  overwrite = false
  error_score = "nan"               # or "raise", or a number

  [learners.logreg]                 # one table per learner
  class = "sklearn.linear_model.LogisticRegression"
  params = {max_iter = 1000}

  [learners.dlda_k10]               # a pipeline: a list of steps
  steps = [
    {class = "sklearn.feature_selection.SelectKBest",
     params = {score_func = {function = "sklearn_bench.estimators.welch_t_score"},
               k = 10}},
    {class = "sklearn_bench.estimators.DiagonalLDA"},
  ]

  [datasets.breast_cancer]          # one table per data set, exactly one source:
  sklearn = "breast_cancer"         #   a scikit-learn loader (load_ optional)
  [datasets.wine]
  sklearn = "wine"
  classes = [0, 1]                  #   optional: keep only these labels
  [datasets.mine]
  csv = "data/mine.csv"             #   a CSV file ...
  target = "label"                  #   ... and its label column
  [datasets.credit]
  openml = 31                       #   an OpenML data id (needs the network)

  [analysis]                        # all optional
  run = ["effects", "friedman", "power", "win_tie_loss"]
  confidence_level = 0.95
  delta = 0.02                      # difference the power analysis should detect
  target_power = 0.8

  [output]
  dir = "report"                    # default: sklearn_bench_report
  figure_formats = ["png", "svg"]
  title = "My benchmark"

Parameter values that are tables build objects ({class, params}) or import
functions ({function = "pkg.mod.name"}). See docs/cli.rst and
examples/configs/demo.toml.
"""


def _build_parser():
    parser = argparse.ArgumentParser(
        prog="sklearn-bench",
        description=(
            "Benchmark experiments for scikit-learn, with honest statistics: "
            "effect sizes and confidence intervals first, then tests, power and "
            "the number of data sets a decisive study needs."
        ),
        epilog="Exit codes: 0 ok, 1 run-time failure, 2 usage or config error.",
    )
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__}"
    )
    parser.add_argument(
        "--traceback",
        action="store_true",
        help="on a run-time failure, print the full traceback",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")

    demo = sub.add_parser(
        "demo",
        help="run a small real benchmark and write its report",
        description=(
            "Run a real benchmark on data that ships with scikit-learn or is "
            "generated (breast cancer; wine and digits restricted to two "
            "classes; a simulated microarray): DiagonalLDA with Welch t-test "
            "selection of k genes inside pipelines, logistic regression, a random "
            "forest and an RBF SVM, over bootstrap out-of-bag replicates. Prints a "
            "summary and writes report.html, the figures, the results and the "
            "store into --out. The default size takes about a minute on 2 cores."
        ),
    )
    size = demo.add_mutually_exclusive_group()
    size.add_argument(
        "--quick", action="store_true", help="a few seconds (fewer data, learners)"
    )
    size.add_argument(
        "--full", action="store_true", help="more data sets and replicates (minutes)"
    )
    demo.add_argument(
        "--out",
        type=Path,
        default=Path("sklearn_bench_demo"),
        metavar="DIR",
        help="output directory (default: ./sklearn_bench_demo)",
    )
    demo.add_argument(
        "--n-jobs",
        type=int,
        default=-1,
        metavar="N",
        help="parallel jobs (default: -1, all cores)",
    )
    demo.set_defaults(func=_cmd_demo)

    run = sub.add_parser(
        "run",
        help="run the experiment of a TOML config and write its report",
        description=_RUN_HELP,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    run.add_argument("config", type=Path, metavar="CONFIG.toml")
    run.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="output directory (overrides output.dir)",
    )
    run.add_argument(
        "--n-jobs", type=int, metavar="N", help="parallel jobs (overrides n_jobs)"
    )
    run.add_argument(
        "--check",
        action="store_true",
        help="validate the config (and load the data sets) without running",
    )
    run.set_defaults(func=_cmd_run)

    report = sub.add_parser(
        "report",
        help="re-analyse a stored run (also a partial one) without refitting",
        description=(
            "Read a stored run -- the SQLite store of a run, or a results "
            "directory written by BenchmarkResult.save -- and write report.html "
            "and the figures again, without refitting. A partial run is "
            "reported with the number of missing tasks."
        ),
    )
    report.add_argument("store", type=Path, metavar="STORE")
    report.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="output directory (default: the folder of STORE)",
    )
    report.set_defaults(func=_cmd_report)

    store = sub.add_parser(
        "store",
        help="check, checkpoint or salvage a store",
        description=(
            "Maintain the SQLite store of a run. A store is one file plus, while "
            "tasks are being committed, a '-wal' file beside it that holds the "
            "tasks committed since the last checkpoint: a store copied without "
            "its '-wal' file loses those tasks, so checkpoint it first. A store "
            "damaged on disk is refused when opened; salvage copies its readable "
            "committed tasks into a new store, which the same experiment resumes."
        ),
    )
    actions = store.add_subparsers(dest="action", metavar="ACTION", required=True)
    check = actions.add_parser(
        "check",
        help="run SQLite's integrity check; count the tasks, or what can be salvaged",
    )
    check.add_argument("store", type=Path, metavar="STORE")
    checkpoint = actions.add_parser(
        "checkpoint",
        help="copy the '-wal' file into the store, so it can be copied on its own",
    )
    checkpoint.add_argument("store", type=Path, metavar="STORE")
    salvage = actions.add_parser(
        "salvage",
        help="copy the readable committed tasks of a damaged store into NEW",
    )
    salvage.add_argument("store", type=Path, metavar="STORE")
    salvage.add_argument("new", type=Path, metavar="NEW")
    store.set_defaults(func=_cmd_store)

    merge = sub.add_parser(
        "merge",
        help="combine the stores of one study (run on several machines) into one",
        description=(
            "Copy the committed tasks of each SOURCE store into TARGET (created "
            "if missing, grown if it exists), without refitting. The stores must "
            "be of one study: the same metrics, seed and versions, and a learner, "
            "data set or task stored twice the same in each; a conflicting "
            "duplicate is refused and names the learner and data set."
        ),
    )
    merge.add_argument("target", type=Path, metavar="TARGET")
    merge.add_argument("sources", type=Path, nargs="+", metavar="SOURCE")
    merge.set_defaults(func=_cmd_merge)
    return parser


class _UsageError(Exception):
    """A problem with what the user asked for (exit code 2)."""


def _require_matplotlib():
    """The report needs matplotlib (the ``plot`` extra); say so before any fit."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise _UsageError(
            "the report needs matplotlib; install it with "
            '`python -m pip install "sklearn-bench[plot]"`'
        ) from None


def _say(message, stream=None):
    print(message, file=sys.stdout if stream is None else stream, flush=True)


def _write_outputs(result, out, *, report_kwargs, missing_tasks=0):
    """Results (CSV, Parquet), tables, the report and the printed summary."""
    from .report import format_summary, write_report

    out.mkdir(parents=True, exist_ok=True)
    result.save(out / "results", format="csv")
    written = [out / "results"]
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:
        result.scores.to_parquet(out / "scores.parquet", index=False)
        written.append(out / "scores.parquet")
    result.performance().to_csv(out / "performance.csv", index=False)
    analysis = write_report(result, out, missing_tasks=missing_tasks, **report_kwargs)
    tables = out / "tables"
    tables.mkdir(exist_ok=True)
    analysis.mean.rename_axis("dataset").to_csv(tables / "mean.csv")
    if len(analysis.pairs):
        analysis.pairs.to_csv(tables / "pairwise_intervals.csv")
    analysis.within.to_csv(tables / "within_dataset_intervals.csv", index=False)
    if analysis.posthoc is not None:
        analysis.posthoc.to_csv(tables / "nemenyi.csv", index=False)
    _say("")
    _say(format_summary(analysis, result))
    _say("")
    _say(f"Report: {out / 'report.html'}")
    _say(
        f"Figures: {out / 'figures'} (PNG, SVG); results: "
        + ", ".join(str(p) for p in written)
        + f"; tables: {tables}"
    )
    return analysis


def _fit(experiment, datasets):
    experiment.fit(datasets)
    return experiment.results_


def _cmd_demo(args):
    from ._demo import demo_experiment, describe

    _require_matplotlib()
    size = "quick" if args.quick else "full" if args.full else "default"
    out = args.out
    out.mkdir(parents=True, exist_ok=True)
    store = out / "results.sqlite"
    for old in (store, Path(f"{store}-wal"), Path(f"{store}-shm")):
        old.unlink(missing_ok=True)  # the demo always starts afresh
    experiment, datasets = demo_experiment(size, n_jobs=args.n_jobs, store=store)
    _say(f"sklearn-bench demo ({size}): {describe(size)}")
    start = time.perf_counter()
    result = _fit(experiment, datasets)
    _say(f"Fitted {experiment.n_tasks_} tasks in {time.perf_counter() - start:.1f} s.")
    _write_outputs(
        result,
        out,
        report_kwargs={"title": "sklearn-bench demo"},
    )
    _say(f"Store: {store} (re-analyse with `sklearn-bench report {store}`)")
    return EXIT_OK


def _cmd_run(args):
    from ._config import ConfigError, load_config
    from .experiment import BenchmarkExperiment
    from .results import CorruptStoreError

    config = load_config(args.config)
    if not args.check:
        _require_matplotlib()
    params = dict(config.experiment)
    if args.n_jobs is not None:
        params["n_jobs"] = args.n_jobs
    experiment = BenchmarkExperiment(config.learners, **params)
    out = args.out if args.out is not None else config.out_dir
    _say(
        f"sklearn-bench run {args.config}: {len(config.learners)} learners x "
        f"{len(config.datasets)} data sets"
    )
    datasets = {}
    for name, spec in config.datasets.items():
        try:
            datasets[name] = spec.load()
        except ConfigError:
            raise
        except ValueError as exc:  # bad data (e.g. no rows): a usage error
            raise _UsageError(
                f"data set {name!r} ({spec.source} {spec.location}): {exc}"
            ) from exc
        except Exception as exc:
            raise RuntimeError(
                f"data set {name!r} ({spec.source} {spec.location}) could not be "
                f"loaded: {type(exc).__name__}: {exc}"
            ) from exc
    try:
        setup = experiment._prepare(datasets)
    except ValueError as exc:
        raise _UsageError(f"config: {exc}") from exc
    if config.metric is not None and config.metric not in setup["metrics"]:
        raise _UsageError(
            f"config key `analysis.metric`: {config.metric!r} is not a metric of "
            f"the experiment; expected one of {list(setup['metrics'])}"
        )
    if args.check:
        _say(f"Config OK: {setup['n_tasks']} tasks would run.")
        return EXIT_OK
    start = time.perf_counter()
    try:
        result = _fit(experiment, datasets)
    except CorruptStoreError as exc:
        raise _UsageError(str(exc)) from exc
    took = time.perf_counter() - start
    if experiment.n_reused_tasks_:
        _say(
            f"Fitted {experiment.n_tasks_} new task(s) in {took:.1f} s; reused "
            f"{experiment.n_reused_tasks_} task(s) stored in {experiment.store}."
        )
    else:
        _say(f"Fitted {experiment.n_tasks_} tasks in {took:.1f} s.")
    _write_outputs(
        result,
        out,
        report_kwargs={
            "metric": config.metric,
            "analyses": config.analyses,
            "confidence_level": config.confidence_level,
            "delta": config.delta,
            "target_power": config.target_power,
            "title": config.title,
            "figure_formats": config.figure_formats,
        },
    )
    return EXIT_OK


_cmd_run.__doc__ = (
    "``sklearn-bench run CONFIG.toml``: the experiment of a TOML file, then the "
    "report.\n\n" + _RUN_HELP
)


def _load_stored(path):
    """A BenchmarkResult and its number of missing tasks, from a store or folder."""
    from .results import BenchmarkResult

    if path.is_dir():
        if not (path / "metadata.json").is_file():
            raise _UsageError(
                f"{path} is a folder without metadata.json; expected a SQLite "
                "store or a folder written by BenchmarkResult.save"
            )
        return BenchmarkResult.load(path), 0
    if not path.is_file():
        raise _UsageError(f"store not found: {path}")
    with warnings.catch_warnings():
        # A partial run is announced by the report command itself.
        warnings.simplefilter("ignore", UserWarning)
        try:
            result = BenchmarkResult.from_store(path)
        except ValueError as exc:
            raise _UsageError(f"{path}: {exc}") from exc
    return result, int(result.n_missing_tasks)


def _cmd_report(args):
    _require_matplotlib()
    result, missing = _load_stored(args.store)
    out = args.out
    if out is None:
        out = args.store if args.store.is_dir() else args.store.parent
        if args.store.is_dir():
            out = args.store.parent
    if missing:
        _say(
            f"Partial run: {missing} task(s) missing from {args.store}; reporting "
            "the finished ones."
        )
    from .report import format_summary, write_report

    analysis = write_report(
        result, out, missing_tasks=missing, title=f"Report of {args.store.name}"
    )
    _say(format_summary(analysis, result))
    _say("")
    _say(f"Report: {out / 'report.html'}")
    return EXIT_OK


def _cmd_store(args):
    """``sklearn-bench store check|checkpoint|salvage``."""
    from .results import CorruptStoreError, checkpoint_store, salvage_store
    from .results._store import read_store
    from .results._store_repair import read_salvageable

    path = args.store
    if not path.is_file():
        raise _UsageError(f"store not found: {path}")
    try:
        if args.action == "checkpoint":
            n = checkpoint_store(path)
            _say(
                f"{path}: checkpointed ({n} page(s) copied from its -wal file); "
                "it is one self-contained file now."
            )
        elif args.action == "salvage":
            _say(str(salvage_store(path, args.new)))
            _say(
                f"Fit the same experiment with store={str(args.new)!r} to rerun "
                "only the missing tasks."
            )
        else:
            try:
                content = read_store(path)
            except CorruptStoreError as exc:
                _, tasks, good, lost = read_salvageable(path)
                _say(
                    f"{path}: corrupt. {len(good)} committed task(s) of "
                    f"{len(tasks)} can be salvaged, {len(lost)} cannot be read; "
                    f"run `sklearn-bench store salvage {path} NEW.sqlite`."
                )
                raise _UsageError(str(exc)) from exc
            done = content["n_tasks"] - content["n_missing_tasks"]
            _say(
                f"{path}: ok (SQLite quick_check); {done} of "
                f"{content['n_tasks']} task(s) committed."
            )
    except (ValueError, FileNotFoundError) as exc:
        raise _UsageError(str(exc)) from exc
    return EXIT_OK


def _cmd_merge(args):
    """``sklearn-bench merge TARGET SOURCE...``: one store from several."""
    from .results import merge_stores

    for source in args.sources:
        if not source.is_file():
            raise _UsageError(f"store not found: {source}")
    try:
        n = merge_stores(args.sources, args.target)
    except ValueError as exc:
        raise _UsageError(str(exc).splitlines()[0]) from exc
    _say(
        f"Merged {n} task(s) from {len(args.sources)} store(s) into {args.target} "
        f"(re-analyse with `sklearn-bench report {args.target}`)."
    )
    return EXIT_OK


def main(argv=None):
    """Entry point of the ``sklearn-bench`` console script; returns the exit code."""
    from ._config import ConfigError

    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        return args.func(args) or EXIT_OK
    except (ConfigError, _UsageError) as exc:
        _say(f"sklearn-bench {args.command}: error: {exc}", sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        _say("sklearn-bench: interrupted", sys.stderr)
        return 130
    except Exception as exc:
        if args.traceback:
            traceback.print_exc()
        message = str(exc).splitlines()[0] if str(exc) else ""
        _say(
            f"sklearn-bench {args.command}: failed: {type(exc).__name__}: {message}"
            + ("" if args.traceback else " (run with --traceback for details)"),
            sys.stderr,
        )
        return EXIT_FAILURE
