"""``sklearn-bench leaderboard``: a leaderboard of a stored run or of a CSV of
results from any tool, printed and written as CSV."""

import os
from pathlib import Path

from .._io import write_csv
from ._files import (
    _flag_look_alike,
    _load_stored,
    _manifest,
    _names,
    _refuse_own_input,
    _refuse_unknown,
    _replace_file,
    _say,
    _UsageError,
)

EXIT_OK = 0  # as the other commands (cli._main)


def _add_leaderboard_parser(sub):
    board = sub.add_parser(
        "leaderboard",
        help="print a leaderboard (ratings, win rates, rank confidence sets) and "
        "write it as CSV",
        description=(
            "Read a stored run (SQLite store or a folder written by "
            "BenchmarkResult.save) or a CSV of results from any tool (one row per "
            "data set and learner, e.g. a TabArena or OpenML export), print its "
            "leaderboard -- Bradley-Terry rating on the Elo scale, win rate, mean "
            "rank, improvability, each with a bootstrap interval over the data "
            "sets, and simultaneous confidence sets for the ranks -- and write it "
            "as CSV."
        ),
    )
    board.add_argument("source", type=Path, metavar="STORE_OR_CSV")
    board.add_argument(
        "--out",
        type=Path,
        metavar="FILE.csv",
        help="where to write the leaderboard (default: STEM-leaderboard.csv "
        "beside STORE_OR_CSV)",
    )
    board.add_argument(
        "--force", action="store_true", help="replace a leaderboard CSV it wrote"
    )
    board.add_argument("--metric", metavar="NAME", help="metric (default: the first)")
    board.add_argument(
        "--reference", metavar="NAME", help="learner to calibrate the ratings on"
    )
    for flag, kind, default, metavar, what in (
        ("n-resamples", int, 1000, "B", "bootstrap resamples of the data sets"),
        ("seed", int, 0, "SEED", "random seed"),
        ("confidence-level", float, 0.95, "LEVEL", "level of intervals and rank sets"),
        ("reference-rating", float, 1000.0, "R", "rating of --reference (or the mean)"),
    ):
        board.add_argument(
            f"--{flag}",
            type=kind,
            default=default,
            metavar=metavar,
            help=f"{what} (default: {default:g})",
        )
    board.add_argument(
        "--rank-by",
        choices=("score", "mean_rank", "rating"),
        default="score",
        help="statistic of the ranks and rank sets (default: score, the mean)",
    )
    csv = board.add_argument_group(
        "CSV input", "column names of a CSV (defaults: the first present of those)"
    )
    for role, what in (
        ("dataset", "data set"),
        ("learner", "learner"),
        ("value", "score"),
    ):
        defaults = " / ".join(_CSV_DEFAULTS[role])
        csv.add_argument(
            f"--{role}-col", metavar="COL", help=f"{what} column ({defaults})"
        )
    direction = csv.add_mutually_exclusive_group()
    direction.add_argument(
        "--greater-is-better",
        action="store_true",
        help="the score is better when greater (accuracy, AUC)",
    )
    direction.add_argument(
        "--lower-is-better",
        action="store_true",
        help="the score is better when lower (an error, a loss); without either "
        "flag the direction comes from a known column name (error, metric_error, "
        "accuracy, roc_auc, ...), else the command asks for one",
    )
    board.set_defaults(func=_cmd_leaderboard)


_CSV_DEFAULTS = {
    "dataset": ("dataset", "task", "data", "tid", "dataset_name"),
    "learner": ("learner", "method", "framework", "model", "config"),
    "value": ("value", "metric_error", "error", "score"),
}


_LEADERBOARD_SHOWN = [
    "rank", "rank_low", "rank_high", "may_be_best", "rating", "rating_low",
    "rating_high", "win_rate", "mean_rank", "improvability", "mean_score",
]  # fmt: skip


def _read_results_csv(args):
    """A BenchmarkResult from a CSV of results, through ``from_frame``."""
    import pandas as pd

    from ..results import BenchmarkResult

    try:
        df = pd.read_csv(args.source)
        # the name columns exactly as written: pandas would read learners "NA",
        # "null" or "None" as missing and data sets "01" and "1" as one number
        text = pd.read_csv(args.source, dtype=str, keep_default_na=False)
    except (OSError, ValueError) as exc:
        raise _UsageError(f"cannot read {args.source} as CSV: {exc}") from exc
    header = pd.read_csv(args.source, header=None, nrows=1, dtype=str)
    header = header.iloc[0].tolist() if len(header) else []
    twice = sorted({c for c in header if header.count(c) > 1}, key=str)
    if twice:  # pandas reads the second as "name.1": one would be dropped
        raise _UsageError(
            f"{args.source} has {len(twice)} column name(s) used twice "
            f"({', '.join(map(repr, twice[:5]))}); name every column once"
        )
    names = {}
    for role, flag in (("dataset", "--dataset-col"), ("learner", "--learner-col"),
                       ("value", "--value-col")):  # fmt: skip
        given = getattr(args, f"{role}_col")
        if given is not None:
            if given not in df.columns:
                raise _UsageError(
                    f"{flag} {given!r} is not a column of {args.source}; its "
                    f"columns are {list(df.columns)}"
                )
            names[role] = given
            continue
        found = [c for c in _CSV_DEFAULTS[role] if c in df.columns]
        if not found:
            raise _UsageError(
                f"{args.source} has no {role} column (looked for "
                f"{', '.join(_CSV_DEFAULTS[role])}); name it with {flag}. Its "
                f"columns are {list(df.columns)}"
            )
        names[role] = found[0]
    for role in ("dataset", "learner"):
        df[names[role]] = text[names[role]]
    greater_is_better = _csv_direction(args, names["value"])
    try:
        result = BenchmarkResult.from_frame(
            df, greater_is_better=greater_is_better, **names
        )
    except ValueError as exc:
        raise _UsageError(f"{args.source}: {exc}") from exc
    _flag_look_alike(result)
    return result


def _csv_direction(args, column):
    """Whether the CSV's score is better when greater: the flag, else what the
    column's name says (a known metric), else a usage error asking for a flag."""
    from .._metrics import known_direction

    if getattr(args, "greater_is_better", False):
        return True
    if getattr(args, "lower_is_better", False):
        return False
    name = column.lower()
    known = False if name in ("error", "metric_error", "loss") else None
    known = known_direction(name) if known is None else known
    if known is None:
        raise _UsageError(
            f"cannot tell whether a greater {column!r} is better; pass "
            "--greater-is-better (accuracy, AUC) or --lower-is-better (an error, "
            "a loss)"
        )
    return known


def _refuse_huge(result, metric, source):
    """Refuse scores whose squares, summed over the data sets, overflow: the
    leaderboard's bootstrap means and variances would be infinite or wrong (a
    single 1e308 printed ``mean_score inf`` with exit 0)."""
    import numpy as np

    scores = result.scores[result.scores["metric"] == metric]
    values = scores["value"].to_numpy(dtype=float)
    bound = np.sqrt(np.finfo(float).max / max(len(values), 1))
    big = np.flatnonzero(np.abs(np.nan_to_num(values)) > bound)
    if len(big):
        rows = scores.iloc[big[:3]]
        shown = "; ".join(
            f"learner {r.learner!r} on data set {r.dataset!r}: {r.value:g}"
            for r in rows.itertuples()
        )
        raise _UsageError(
            f"{source}: {len(big)} {metric} score(s) beyond ±{bound:.3g}, too large "
            f"to average and square without overflow ({shown}); rescale the scores"
        )


def _leaderboard_out(args):
    """The CSV to write: refused if it exists, unless --force and sklearn-bench
    wrote it (the manifest of its folder lists it)."""
    source = args.source
    out = args.out or source.parent / f"{source.stem}-leaderboard.csv"
    _refuse_own_input(out, [source])
    if out.is_dir():
        raise _UsageError(f"--out {out} is a folder; give a file name (FILE.csv)")
    if out.exists():
        if not args.force:
            raise _UsageError(
                f"{out} exists; run with --force to replace it (only if "
                "sklearn-bench wrote it) or choose another --out"
            )
        if out.name not in _manifest(out.parent)[0]:
            raise _UsageError(
                f"{out} was not written by sklearn-bench; --force replaces only "
                "its own files: move it or choose another --out"
            )
    if not out.parent.exists():
        raise _UsageError(f"the folder of --out {out} does not exist")
    if not os.access(out.parent, os.W_OK):
        raise _UsageError(f"cannot write into {out.parent}; choose another --out")
    return out


def _cmd_leaderboard(args):
    """``sklearn-bench leaderboard STORE_OR_CSV``."""
    import numpy as np
    import pandas as pd

    source = args.source
    if not source.exists():
        raise _UsageError(f"not found: {source}")
    if not 0 < args.confidence_level < 1:
        raise _UsageError(
            "--confidence-level must lie strictly between 0 and 1; got "
            f"{args.confidence_level}"
        )
    if args.n_resamples < 2:
        raise _UsageError(f"--n-resamples must be at least 2; got {args.n_resamples}")
    out = _leaderboard_out(args)
    if source.is_file() and source.suffix.lower() in (".csv", ".txt", ".gz"):
        result = _read_results_csv(args)
    else:
        result, missing = _load_stored(source)
        if missing:
            _say(f"Partial run: {missing} task(s) missing; using the finished ones.")
    _refuse_unknown("--metric", args.metric, result.metrics, f"metric of {source}")
    _refuse_unknown(
        "--reference", args.reference, result.learners, f"learner of {source}"
    )
    if len(result.learners) < 2:
        raise _UsageError(f"{source} holds fewer than 2 learners; nothing to rank")
    metric = args.metric or next(iter(result.metrics))
    _refuse_huge(result, metric, source)
    try:
        board = result.leaderboard(
            metric=args.metric,
            reference=args.reference,
            reference_rating=args.reference_rating,
            n_resamples=args.n_resamples,
            confidence_level=args.confidence_level,
            random_state=args.seed,
            rank_by=args.rank_by,
        )
    except ValueError as exc:  # data that cannot make a leaderboard
        raise _UsageError(f"{source}: {exc}") from exc
    checked = [c for c in ("mean_score", "rating") if c in board.columns]
    bad = board.index[~np.isfinite(board[checked].to_numpy(dtype=float)).all(axis=1)]
    if len(bad):  # finite scores whose mean overflows (1e308 and 1e308)
        raise _UsageError(
            f"{source}: the mean {metric} or the rating of {len(bad)} learner(s) "
            f"is not finite ({', '.join(map(repr, bad[:5].tolist()))}): scores "
            "too large to average; rescale the scores"
        )
    level = board.attrs["confidence_level"]
    _say(
        f"Leaderboard of {len(board)} learners over {board.attrs['n_datasets']} "
        f"data sets ({metric}, "
        f"{'higher' if result.greater_is_better(metric) else 'lower'} is better; "
        f"ranks by {board.attrs['rank_by']}, simultaneous "
        f"{level:g} rank sets; {args.n_resamples} bootstrap resamples, seed "
        f"{args.seed})"
    )
    shown = board[[c for c in _LEADERBOARD_SHOWN if c in board.columns]]
    with pd.option_context("display.max_rows", None, "display.width", 200):
        _say(shown.round(3).to_string(), names=_names(result))
    for note in board.attrs["notes"]:
        _say(f"Note: {note}", names=_names(result))
    _replace_file(out, lambda tmp: write_csv(board, tmp))
    _say(f"Leaderboard: {out}")
    return EXIT_OK
