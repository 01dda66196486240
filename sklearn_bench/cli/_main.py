"""The ``sklearn-bench`` command line. Exit codes: 0 success, 1 a failure while
running (a learner that fails on every task, a data set that cannot be fetched), 2 a
usage, configuration or input error (one line on standard error naming the key, file
or data set and what was expected)."""

import argparse
import sys
import time
import traceback
import warnings
from pathlib import Path

from .._io import UnsafePathError, open_for_write, write_csv
from .._version import __version__
from ..analysis import AnalysisPlan
from ..analysis._plan import plan_settings
from ._config import plan_of
from ._files import (
    _DEMO_OUTPUTS,
    _REPORT_OUTPUTS,
    _RUN_OUTPUTS,
    _flag_look_alike,
    _load_stored,
    _manifest,
    _names,
    _output_folder,
    _present,
    _refuse_non_finite,
    _refuse_own_input,
    _refuse_unknown,
    _require_matplotlib,
    _say,
    _study,
    _UsageError,
)
from ._leaderboard import _add_leaderboard_parser

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
  store = "run.sqlite"              # resumable; a grown config runs only its
                                    # new tasks (learners, data sets, replicates)
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
  run = ["effects", "friedman", "pairwise", "bayesian", "power", "win_tie_loss"]
  confidence_level = 0.95
  delta = 0.02                      # difference the power analysis should detect
  target_power = 0.8
  posthoc = "nemenyi"               # or conover, siegel, miller, quade, exact_ranksum
  adjust = "single_step"            # or holm, shaffer, finner, ... (not for nemenyi)
  bayesian = "signed_rank"          # or hierarchical (needs sklearn-bench[bayes])

  [output]
  dir = "report"                    # default: sklearn_bench_report
  figure_formats = ["png", "svg"]
  title = "My benchmark"

Parameter values that are tables build objects ({class, params}) or import
functions ({function = "pkg.mod.name"}). See docs/cli.rst and
examples/configs/demo.toml.
"""


def _out_and_force(command, out_help, force_help):
    command.add_argument("--out", type=Path, metavar="DIR", help=out_help)
    command.add_argument("--force", action="store_true", help=force_help)


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
            "Run a real benchmark (breast cancer; wine and digits restricted to "
            "two classes; a simulated microarray): DLDA with Welch t-test "
            "selection inside pipelines, logistic regression, a random forest and "
            "an RBF SVM, over nested cross-validation. Prints a summary and writes "
            "the report, results and store into --out; the default size takes "
            "about a minute on 2 cores."
        ),
    )
    size = demo.add_mutually_exclusive_group()
    size.add_argument(
        "--quick", action="store_true", help="a few seconds (fewer data, learners)"
    )
    size.add_argument(
        "--full", action="store_true", help="more data sets and replicates (minutes)"
    )
    _out_and_force(
        demo,
        "output directory (default: ./sklearn_bench_demo)",
        "replace an earlier demo in --out (only the files the demo wrote there; "
        "never a file of yours)",
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
    _out_and_force(
        run,
        "output directory (overrides output.dir)",
        "replace the report and results that a run of another study (or an older "
        "version) wrote into the output folder (only those; never a file of "
        "yours); a run on the same store refreshes its own without it",
    )
    run.add_argument(
        "--n-jobs", type=int, metavar="N", help="parallel jobs (overrides n_jobs)"
    )
    run.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="run the tasks on the dask.distributed cluster of this scheduler "
        "(e.g. tls://host:8786); the driver keeps the store. The scheduler and "
        "its workers run code in this process: use a cluster you control, with "
        "TLS (a tcp:// address off this machine warns)",
    )
    run.add_argument(
        "--verify",
        type=float,
        metavar="FRACTION",
        help="fit this fraction of the tasks (a seeded random sample) again on "
        "this machine and refuse the run if a score differs (a check against "
        "faulty or untrusted workers; overrides verify)",
    )
    run.add_argument(
        "--check",
        action="store_true",
        help="validate the config (and load the data sets) without running",
    )
    run.add_argument(
        "--sequential",
        action="store_true",
        help="run the data sets one at a time in a seeded order and stop when the "
        "comparison is decided, with anytime-valid statistics (racing for more "
        "than two learners); settings in the config's [sequential] table",
    )
    run.set_defaults(func=_cmd_run)

    report = sub.add_parser(
        "report",
        help="re-analyse a stored run (also a partial one) without refitting",
        description=(
            "Read a stored run -- the SQLite store of a run, or a results "
            "directory written by BenchmarkResult.save -- and write report.html, "
            "the figures, the LaTeX tables and the methods paragraph again, "
            "without refitting. A partial run (killed, or still running) is "
            "reported with the number of missing tasks. The analysis settings "
            "stored with the run ([analysis] of its config) are reused; the "
            "options below override them, and the report says so."
        ),
    )
    report.add_argument("store", type=Path, metavar="STORE")
    _out_and_force(
        report,
        "output directory (default: STEM-report beside STORE, or a new "
        "STEM-report-N if that already holds a report)",
        "overwrite a report already in the output directory",
    )
    for setting in plan_settings():  # the plan's settings, declared once
        meta, key = setting.metadata, setting.metadata["key"] or setting.name
        report.add_argument(
            f"--{setting.name.replace('_', '-')}",
            type=float if meta["type"] is float else str,
            nargs="+" if meta["type"] is tuple else None,
            choices=meta["choices"],
            metavar=setting.name.split("_")[-1].upper(),
            help=f"override the run's analysis.{key}: {meta['help']}"
            + (f"; one of {', '.join(meta['choices'])}" if meta["choices"] else ""),
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
    for action, what in {
        "check": "run SQLite's integrity check; count the tasks, or what can be "
        "salvaged",
        "checkpoint": "copy the '-wal' file into the store, so it can be copied on "
        "its own",
        "salvage": "copy the readable committed tasks of a damaged store into NEW",
    }.items():
        command = actions.add_parser(action, help=what)
        command.add_argument("store", type=Path, metavar="STORE")
    command.add_argument("new", type=Path, metavar="NEW")  # salvage's
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
    _add_leaderboard_parser(sub)
    return parser


def _analysis_info(plan, given):
    """The JSON-safe ``info["analysis"]`` of a run: the settings of its plan and
    the names of those its config set."""
    settings = {f.name: getattr(plan, f.name) for f in plan_settings()}
    settings["analyses"] = list(settings["analyses"])
    if "adjust" not in given:  # the posthoc's own: follows a --posthoc override
        settings["adjust"] = None
    return {"settings": settings, "from_config": sorted(given)}


def _analyse(result, plan):
    """``analyse(result, plan)``; a setting the run cannot give
    (a method of the intervals of each learner that its splitter cannot
    support) is a usage error."""
    from ..analysis import analyse

    try:
        return analyse(result, plan)
    except ValueError as exc:
        raise _UsageError(f"the analysis cannot run: {str(exc).rstrip('.')}") from exc


def _formats(folder):
    """The formats of the figures in ``folder`` as written (e.g. "SVG")."""
    return ", ".join(sorted({p.suffix[1:].upper() for p in folder.glob("*.*")}))


def _write_report(result, plan, stage, shown, sources=None, **report_kwargs):
    """Analyse ``result`` by ``plan``, write its report into the staging folder
    ``stage`` and print its summary, naming the files as in ``shown`` (the output
    folder they are moved to)."""
    from ..report import format_summary, write_report

    analysis = _analyse(result, plan)
    write_report(analysis, stage, sources=sources, **report_kwargs)
    _say("")
    _say(format_summary(analysis), names=_names(result))
    _say("")
    _say(f"Report: {shown / 'report.html'} (self-contained; open it in a browser)")
    _say(
        f"Figures: {shown / 'figures'} ({_formats(stage / 'figures')}); tables: "
        f"{shown / 'tables'} (CSV, LaTeX); methods paragraph: "
        f"{shown / 'methods.md'}, {shown / 'methods.tex'}"
    )


def _write_outputs(result, out, shown, plan, sources=None, **report_kwargs):
    """Results (CSV, Parquet) and :func:`_write_report`, into the staging folder
    ``out`` and named as in ``shown``."""
    result.save(out / "results", format="csv")
    write_csv(result.performance(), out / "performance.csv", index=False)
    written = [shown / "results", shown / "performance.csv"]
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        pass
    else:
        with open_for_write(out / "scores.parquet", "wb") as f:
            result.scores.to_parquet(f, index=False)
        written.append(shown / "scores.parquet")
    _write_report(result, plan, out, shown, sources, **report_kwargs)
    _say("Results: " + ", ".join(map(str, written)))


def _on_scheduler(address):
    """A context that sends the run's tasks to the dask scheduler at ``address``
    (``None``: run locally)."""
    import contextlib

    if address is None:
        return contextlib.nullcontext()
    try:
        import joblib
        from distributed import Client
    except ImportError as exc:
        raise _UsageError(
            "--scheduler needs dask.distributed: pip install 'sklearn-bench[dask]'"
        ) from exc
    if _plain_remote(address):
        _say(
            f"Warning: --scheduler {address!r} is reached without TLS off this "
            "machine. The scheduler and its workers run code in this process and "
            "send the scores: anyone on the network path can read or change "
            "them. Use a cluster you control, with a tls:// address (see the "
            "cluster page of the docs).",
            sys.stderr,
        )
    try:
        client = Client(address, timeout="30s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise _UsageError(
            f"--scheduler: cannot connect to {address!r} ({exc})"
        ) from None
    stack = contextlib.ExitStack()
    stack.enter_context(client)
    stack.enter_context(joblib.parallel_config(backend="dask"))
    return stack


def _plain_remote(address):
    """Whether a scheduler address is reached without TLS off this machine."""
    import ipaddress
    from urllib.parse import urlsplit

    scheme, _, rest = str(address).rpartition("://")
    if scheme.lower() in ("tls", "inproc"):
        return False
    host = urlsplit(f"//{rest}").hostname or ""
    if host == "localhost":
        return False
    try:
        return not ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name other than localhost
        return True


def _fit(experiment, datasets, info=None, stopping=None):
    """Fit; a store that is refused is a usage error (``main`` puts its advice in
    the command line's words)."""
    from ..store import CorruptStoreError, NotAStoreError, StoreMismatchError

    start = time.perf_counter()
    try:
        experiment.fit(datasets, info=info, stopping=stopping)
    except (NotAStoreError, StoreMismatchError, CorruptStoreError) as exc:
        raise _UsageError(str(exc)) from None
    took = time.perf_counter() - start
    if experiment.n_reused_tasks_:
        _say(
            f"Fitted {experiment.n_tasks_} new task(s) in {took:.1f} s; reused "
            f"{experiment.n_reused_tasks_} task(s) stored in {experiment.store}."
        )
    else:
        _say(f"Fitted {experiment.n_tasks_} tasks in {took:.1f} s.")
    return experiment.results_


def _cmd_demo(args):
    from ._demo import demo_experiment, describe

    _require_matplotlib()
    size = "quick" if args.quick else "full" if args.full else "default"
    # Checked before anything runs: an existing demo is replaced only with
    # --force, and then only the files the demo wrote (never the user's).
    out = args.out or Path("sklearn_bench_demo")
    store = out / "results.sqlite"
    with _output_folder(
        out,
        _DEMO_OUTPUTS,
        force=args.force,
        named=args.out is not None,
        study=_study(store=store),
        in_place=_DEMO_OUTPUTS[len(_RUN_OUTPUTS) :],  # the store and its files
    ) as stage:
        experiment, datasets = demo_experiment(size, n_jobs=args.n_jobs, store=store)
        _say(f"sklearn-bench demo ({size}): {describe(size)}")
        plan = AnalysisPlan()
        info = {"analysis": _analysis_info(plan, given=())}
        result = _fit(experiment, datasets, info=info)
        _write_outputs(result, stage, out, plan, title="sklearn-bench demo")
    _say(f"Store: {store} (re-analyse with `sklearn-bench report {store}`)")
    return EXIT_OK


def _cmd_run(args):
    from ..experiment import BenchmarkExperiment
    from ._config import ConfigError, load_config

    config = load_config(args.config)
    if not args.check:
        _require_matplotlib()
    given = {"n_jobs": args.n_jobs, "verify": args.verify}  # override the config
    params = config.experiment | {k: v for k, v in given.items() if v is not None}
    experiment = BenchmarkExperiment(config.learners, **params)
    out = args.out or config.out_dir or Path("sklearn_bench_report")
    store = params.get("store")
    if store is not None and not Path(store).parent.is_dir():
        raise _UsageError(
            f"config key `experiment.store`: the folder {str(Path(store).parent)!r} "
            f"of the store {str(store)!r} does not exist; create it or point "
            "experiment.store at a file in an existing folder"
        )
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
        summary = experiment.check(datasets)
    except ValueError as exc:
        raise _UsageError(f"config: {exc}") from exc
    metric = config.plan.metric
    flag = "config key `analysis.metric`:"
    _refuse_unknown(flag, metric, summary["metrics"], "metric of the experiment")
    stopping = None
    if args.sequential:
        from ..experiment import SequentialRule

        plan = config.plan
        stopping = SequentialRule(
            delta=plan.delta, alpha=plan.alpha, metric=metric, **config.sequential
        )
        try:
            stopping.check(summary["metrics"])
        except ValueError as exc:
            raise _UsageError(f"--sequential: {exc}") from exc
    if args.check:
        _say(f"Config OK: {summary['n_tasks']} tasks would run.")
        return EXIT_OK
    # Before fitting: a bad --out, or outputs that are not to be replaced, must
    # not cost the whole run. Outputs written for the same store (a resumed or
    # grown study; without a store, the same config file) are refreshed.
    with _output_folder(
        out,
        _RUN_OUTPUTS,
        force=args.force,
        study=_study(store=store, config=args.config),
        named=bool(args.out or config.out_dir),
        refresh=True,
    ) as stage:
        return _fit_and_write(args, config, experiment, datasets, out, stage, stopping)


def _fit_and_write(args, config, experiment, datasets, out, stage, stopping=None):
    """The fit of ``run``, then its outputs, written into ``stage``."""
    store = experiment.store
    analysis = _analysis_info(config.plan, given=config.plan_keys)
    analysis["title"] = config.title  # `report STORE` keeps the config's title
    # The analysis settings go into the store when the run starts, so that
    # `report STORE` reuses them even if the run is killed.
    with _on_scheduler(args.scheduler):
        result = _fit(
            experiment, datasets, info={"analysis": analysis}, stopping=stopping
        )
    for worker in result.info.get("cluster", {}).get("lost_workers", []):
        _say(
            f"Worker {worker['address']} was lost at {worker['time']} UTC; its "
            f"{worker['n_tasks']} running task(s) were re-run on other workers."
        )
    if stopping is not None:
        study = experiment.sequential_
        _say(
            f"Sequential study: {study.decision} after {study.stopping_time} data "
            f"sets ({study.reason}); {study.n_fits} of {study.n_fits_full} fits."
        )
    sources = dict.fromkeys(config.plan_keys, "the run's config")
    kept = (
        f"The run is kept in the store {store}: `sklearn-bench report {store} "
        f"--out {out} --force` writes its report without refitting."
        if store is not None
        else "The run was not stored (set experiment.store to keep runs)."
    )
    _refuse_non_finite(result, "The run", error=lambda m: RuntimeError(f"{m} {kept}"))
    _flag_look_alike(result)
    try:
        _write_outputs(
            result,
            stage,
            out,
            config.plan,
            sources,
            title=config.title,
            figure_formats=config.figure_formats,
        )
    except _UsageError as exc:
        raise _UsageError(f"{str(exc).rstrip('.')}. {kept}") from exc
    except OSError as exc:
        import errno

        if exc.errno != errno.ENOSPC:
            raise
        raise RuntimeError(
            f"The disk is full: the report could not be written to {out} ({exc}). "
            f"{kept.replace('writes', 'writes, once there is space,')}"
        ) from exc
    return EXIT_OK


def _report_dir(args):
    """Where ``report`` writes and whether ``--force`` applies: ``--out``, else
    ``STEM-report`` beside the store (``STEM-report-N`` if that holds a report to
    keep), never the store's own folder."""
    if args.out is not None:
        return args.out, args.force
    first = args.store.parent / f"{args.store.stem}-report"
    out, n = first, 1
    while _present(out, _REPORT_OUTPUTS):
        if args.force and set(_present(out, _REPORT_OUTPUTS)) <= _manifest(out)[0]:
            return out, True
        n += 1
        out = first.with_name(f"{first.name}-{n}")
    if out != first:
        _say(
            f"{first} already holds a report, which is kept; writing this report "
            f"to {out} (--force replaces the files sklearn-bench wrote there)."
        )
    return out, False


def _report_settings(result, args):
    """The plan of ``report``: the run's own settings (stored with it),
    overridden by the command line; ``(plan, sources)``."""
    stored = result.info.get("analysis") or {}
    from_config = set(stored.get("from_config", ()))
    saved = stored.get("settings", {})
    values, sources, overridden = {}, {}, []
    for setting in plan_settings():
        name = setting.name
        cli = getattr(args, name, None)
        if cli is not None:
            values[name], sources[name] = cli, "command line"
            if saved.get(name) is not None and saved[name] != cli:
                overridden.append(f"{name} {saved[name]!r} -> {cli!r}")
        elif name in saved:  # None: the plan's default, as the run used it
            if saved[name] is not None:
                values[name] = saved[name]
            sources[name] = (
                "the run's config" if name in from_config else "the run's default"
            )
        else:
            sources[name] = "default" + ("" if stored else " (none stored)")
    options = {f.name: f"--{f.name.replace('_', '-')}" for f in plan_settings()}
    plan, error = plan_of(values, options)
    if error is not None:
        option, message = error
        name = option.removeprefix("--").replace("-", "_")
        if sources.get(name, "").startswith("the run's"):
            message = f"the {name} setting ({sources[name]}): {message}"
        raise _UsageError(f"{option}: {message}")
    _refuse_unknown("--metric", plan.metric, result.metrics, "metric of the run")
    if overridden:
        _say("Overriding the run's analysis settings: " + "; ".join(overridden) + ".")
    return plan, sources


def _cmd_report(args):
    _require_matplotlib()
    result, missing = _load_stored(args.store)
    plan, sources = _report_settings(result, args)
    out, force = _report_dir(args)
    _refuse_own_input(out, [args.store], names=_REPORT_OUTPUTS)
    # A report replaces an earlier one only with --force (it may hold other
    # settings), also of the same store; the manifest records the store.
    with _output_folder(
        out,
        _REPORT_OUTPUTS,
        force=force,
        study=_study(store=args.store),
        named=args.out is not None,
    ) as stage:
        if missing:
            _say(
                f"Partial run: {missing} task(s) missing from {args.store}; "
                "reporting the finished ones."
            )
        title = (result.info.get("analysis") or {}).get("title")
        if not (isinstance(title, str) and title):
            title = f"Report of {args.store.name}"
        _write_report(result, plan, stage, out, sources, title=title)
    return EXIT_OK


def _cmd_store(args):
    """``sklearn-bench store check|checkpoint|salvage``."""
    from ..store import checkpoint_store, salvage_store

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
                f"Set experiment.store = {str(args.new)!r} in the run's config and "
                "run it again (`sklearn-bench run CONFIG.toml`) to rerun only the "
                "missing tasks."
            )
        else:
            _store_check(path)
    except (ValueError, FileNotFoundError) as exc:
        raise _UsageError(str(exc)) from exc
    return EXIT_OK


def _store_check(path):
    """``store check``: SQLite's integrity_check, the -wal file's frame
    checksums, the settings' and the task list's checksums and every task's
    own checksum, read-only."""
    from ..store import CorruptStoreError, verify_checksums
    from ..store._reader import read_store
    from ..store._repair import read_salvageable

    try:
        content = read_store(path)
        checks = verify_checksums(path)
    except CorruptStoreError as exc:
        try:
            found = read_salvageable(path)
        except ValueError:  # nothing can be salvaged: say why it is corrupt
            raise _UsageError(str(exc)) from exc
        _say(
            f"{path}: corrupt. {len(found.good)} committed task(s) of "
            f"{len(found.tasks)} can be salvaged (proven intact), "
            f"{len(found.lost)} cannot; run `sklearn-bench store salvage {path} "
            "NEW.sqlite`."
        )
        raise _UsageError(str(exc)) from exc
    if checks["mismatched"]:
        shown = ", ".join(
            f"{m!r} on {d!r} split {s}" for d, s, m in checks["mismatched"][:5]
        )
        _say(
            f"{path}: corrupt. {len(checks['mismatched'])} committed task(s) do not "
            f"match their checksum ({shown}); run `sklearn-bench store salvage "
            f"{path} NEW.sqlite` to keep the others and rerun these."
        )
        raise _UsageError(
            f"The store {str(path)!r} is corrupt: rows of "
            f"{len(checks['mismatched'])} task(s) differ from their checksum."
        )
    done = content["n_tasks"] - content["n_missing_tasks"]
    wal = Path(f"{path}-wal")
    _say(
        f"{path}: ok (SQLite integrity_check; the settings and the task list, and "
        f"{checks['n_verified']} of {checks['n_committed']} committed task(s) match "
        f"their checksum); {done} of "
        f"{content['n_tasks']} task(s) committed."
    )
    if wal.is_file() and wal.stat().st_size:
        _say(
            f"Its -wal file ({wal.stat().st_size} bytes) was read, and left as it "
            "is (not folded into the store); its frame checksums match up to its "
            "last commit."
        )


def _cmd_merge(args):
    """``sklearn-bench merge TARGET SOURCE...``: one store from several."""
    from ..store import merge_stores

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


_CLI_WORDS = {
    "Or pass `overwrite=True` to replace it (every task reruns).": (
        "Or set `overwrite = true` in the config's [experiment] table to replace "
        "it (every task reruns)."
    ),
    "pass `overwrite=True` to replace the store, or use another `store` path": (
        "point experiment.store in the config at another file, or move the old "
        "store away"
    ),
    "Pass `overwrite=True` to replace it.": "Run the experiment on a new store.",
    "Pass another path as `store`.": (
        "Point experiment.store in the config at another file."
    ),
    "fit the same experiment on it again to resume": (
        "run the same command again to resume"
    ),
    "fitting the same experiment on the new store reruns only the lost tasks": (
        "`sklearn-bench run` with experiment.store set to the new store reruns "
        "only the lost tasks"
    ),
    " (or sklearn_bench.store.salvage_store)": "",
    "(overwrite=True)": "(overwrite = true)",
}


# Advice for the commands that only read a store (report, leaderboard): the
# config-run advice ("point experiment.store ...", "overwrite") is not theirs.
_READ_WORDS = {
    "Pass another path as `store`.": (
        "Give `sklearn-bench {command}` a sklearn_bench store (a file written by "
        "`sklearn-bench run` or `demo`){other}."
    ),
    "fitting the same experiment on the new store reruns only the lost tasks": (
        "`sklearn-bench {command} NEW.sqlite` reads the salvaged tasks, and "
        "`sklearn-bench run` with experiment.store set to NEW.sqlite reruns the "
        "lost ones"
    ),
    " Or pass `overwrite=True` to replace it (every task reruns).": "",
}
_READ_OTHER = {
    "report": " or a folder written by BenchmarkResult.save",
    "leaderboard": ", a folder written by BenchmarkResult.save, or a CSV of results",
}


def _cli_words(message, command=None):
    """A library message in the command line's words (options, config keys),
    never "pass `overwrite=True`"; for ``report`` and ``leaderboard``, which read
    a store and write none, advice for that command (not for a config run)."""
    if command in _READ_OTHER:
        for old, new in _READ_WORDS.items():
            new = new.format(command=command, other=_READ_OTHER[command])
            message = message.replace(old, new)
    for old, new in _CLI_WORDS.items():
        message = message.replace(old, new)
    return message


def _show_warning(message, category, filename, lineno, file=None, line=None):
    """Python's warning display, through the terminal's escapes (a warning
    quotes names, tracebacks and messages of the user's learners)."""
    text = warnings.formatwarning(message, category, filename, lineno, line)
    _say(text.rstrip("\n"), file or sys.stderr)


def main(argv=None):
    """Entry point of the ``sklearn-bench`` console script; returns the exit code."""
    from ._config import ConfigError

    parser = _build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return EXIT_USAGE
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _show_warning  # restored when the command ends
            return args.func(args) or EXIT_OK
    except (ConfigError, _UsageError, UnsafePathError) as exc:
        words = _cli_words(str(exc), args.command)
        _say(f"sklearn-bench {args.command}: error: {words}", sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        _say("sklearn-bench: interrupted", sys.stderr)
        return 130
    except Exception as exc:
        if args.traceback:
            traceback.print_exc()
        # In full (a message's later lines say what is wrong), up to 30 lines.
        lines = _cli_words(str(exc), args.command).splitlines()
        message = "\n".join(lines[:30]) + (
            f"\n... ({len(lines) - 30} more lines)" if len(lines) > 30 else ""
        )
        _say(
            f"sklearn-bench {args.command}: failed: {type(exc).__name__}: {message}"
            + ("" if args.traceback else " (run with --traceback for details)"),
            sys.stderr,
        )
        return EXIT_FAILURE
