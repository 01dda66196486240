"""What the commands read and write: a stored run in, an output folder out (the
overwrite policy and its manifest), and the one exception of a usage error."""

import os
import sys
import warnings
from pathlib import Path

from .._io import refuse_links_below, write_text
from .._text import terminal_text


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
    # Names are the user's text: no control character reaches the terminal
    # (an ESC sequence in a learner's name could retitle or recolour it).
    print(
        terminal_text(message),
        file=sys.stdout if stream is None else stream,
        flush=True,
    )


# The files and folders the commands write into an output folder, and the
# manifest that lists what they wrote there (so that --force replaces only the
# package's own files, never a file of the user's).
_MANIFEST = ".sklearn_bench_outputs.json"


_REPORT_OUTPUTS = ("report.html", "methods.md", "methods.tex", "figures", "tables")


_RUN_OUTPUTS = _REPORT_OUTPUTS + ("performance.csv", "scores.parquet", "results")


_DEMO_OUTPUTS = _RUN_OUTPUTS + (
    "results.sqlite",
    "results.sqlite-wal",
    "results.sqlite-shm",
)


def _read_manifest(out):
    import json

    try:
        files = json.loads((out / _MANIFEST).read_text(encoding="utf-8"))["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return set()
    return {f for f in files if isinstance(f, str)}


def _present(out, names):
    """Files (relative paths) under ``out`` among ``names`` (folders expanded)."""
    found = []
    for name in names:
        path = out / name
        if path.is_dir():
            found += [
                p.relative_to(out).as_posix() for p in path.rglob("*") if p.is_file()
            ]
            if not any(path.iterdir()):
                continue
        elif path.exists():
            found.append(name)
    return found


def _claim_output(out, names, *, force, flag="--out"):
    """Check an output folder before any work: refuse a file, an unwritable
    place, or existing outputs (unless ``force``); with ``force``, refuse files
    the package did not write, and remove the stale ones it did. Returns the
    folder, created."""
    if out.exists() and not out.is_dir():
        raise _UsageError(f"{flag} {out} is a file, not a folder; choose a folder")
    parent = (
        out
        if out.exists()
        else next((p for p in out.absolute().parents if p.exists()), Path("."))
    )
    if not os.access(parent, os.W_OK):
        raise _UsageError(f"cannot write into {parent}; choose another {flag}")
    present = _present(out, names) if out.exists() else []
    if present:
        shown = ", ".join(sorted(present)[:5]) + (
            f" and {len(present) - 5} more" if len(present) > 5 else ""
        )
        if not force:
            raise _UsageError(
                f"{out} already holds output ({shown}); run with --force to replace "
                f"what sklearn-bench wrote there, or choose another {flag}"
            )
        ours = _read_manifest(out)
        foreign = sorted(set(present) - ours)
        if foreign:
            raise _UsageError(
                f"{out} holds {', '.join(foreign[:5])}"
                + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
                + ", which sklearn-bench did not write; --force replaces only its "
                f"own files: move them or choose another {flag}"
            )
        refuse_links_below(out)  # a planted link would send deletions elsewhere
        for rel in present:  # stale outputs of an earlier run, all ours
            (out / rel).unlink()
    out.mkdir(parents=True, exist_ok=True)
    return out


def _write_manifest(out, names):
    """List the files the command wrote (the outputs now present) in ``out``."""
    import json

    files = sorted(set(_present(out, names)) | _read_manifest(out))
    files = [f for f in files if (out / f).exists()]
    write_text(
        out / _MANIFEST,
        json.dumps({"written_by": "sklearn-bench", "files": files}, indent=1),
    )


def _load_stored(path):
    """A BenchmarkResult and its number of missing tasks, from a store or folder."""
    from ..results import BenchmarkResult

    if path.is_dir():
        if not (path / "metadata.json").is_file():
            raise _UsageError(
                f"{path} is a folder without metadata.json; expected a SQLite "
                "store or a folder written by BenchmarkResult.save"
            )
        try:
            result = BenchmarkResult.load(path)
        except (ValueError, OSError) as exc:  # names the file
            raise _UsageError(str(exc)) from exc
        _refuse_non_finite(result, path)
        return result, 0
    if not path.is_file():
        if not path.parent.is_dir():
            raise _UsageError(
                f"store not found: {path} (its folder {path.parent} does not exist)"
            )
        raise _UsageError(f"store not found: {path}")
    with warnings.catch_warnings():
        # A partial run is announced by the report command itself.
        warnings.simplefilter("ignore", UserWarning)
        try:
            result = BenchmarkResult.from_store(path)
        except ValueError as exc:
            message = str(exc)
            if repr(str(path)) not in message:
                message = f"{path}: {message}"
            raise _UsageError(message) from exc
    _refuse_non_finite(result, path)
    return result, int(result.n_missing_tasks)


def _refuse_non_finite(result, source, *, error=None):
    """An infinite score cannot be analysed: refuse it by name (it crashed the
    report's figures)."""
    import numpy as np

    values = result.scores["value"].to_numpy(dtype=float)
    bad = np.flatnonzero(np.isinf(values))
    if not len(bad):
        return
    rows = result.scores.iloc[bad[:3]]
    shown = "; ".join(
        f"learner {r.learner!r} on data set {r.dataset!r} split {r.split}, "
        f"metric {r.metric!r}: {r.value}"
        for r in rows.itertuples()
    )
    raise (error or _UsageError)(
        f"{source} holds {len(bad)} infinite score(s), which cannot be analysed "
        f"({shown}). Score with a metric that stays finite, or set error_score "
        "to a finite number for failures."
    )
