"""What the commands read and write: a stored run in, an output folder out (the
overwrite policy and its manifest, the folder's lock and the staging folder its
outputs are written in before they are moved into place), and the one exception
of a usage error."""

import contextlib
import os
import shutil
import sys
import warnings
from pathlib import Path

from .._io import (
    FolderLockedError,
    check_no_symlink,
    folder_lock,
    refuse_links_below,
    write_text,
)
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


def _manifest(out):
    """``(files, study)`` of the manifest in ``out``: the files sklearn-bench
    wrote there, and the study they were written for (``None``: unknown, e.g. a
    manifest of an older version)."""
    import json

    try:
        data = json.loads((out / _MANIFEST).read_text(encoding="utf-8"))
        files = data["files"]
    except (OSError, ValueError, KeyError, TypeError):
        return set(), None
    if not isinstance(files, list):
        return set(), None
    study = data.get("study")
    return (
        {f for f in files if isinstance(f, str)},
        study if isinstance(study, dict) else None,
    )


def _read_manifest(out):
    """The files the manifest in ``out`` lists as written by sklearn-bench."""
    return _manifest(out)[0]


def _study(*, store=None, config=None):
    """The identity of a study, as the manifest records it: the real path of its
    store (a run's outputs are refreshed by the next run on the same store: a
    resume or a grown config), else of its config file (a run without a store
    refits from the config)."""
    if store is not None:
        return {"store": os.path.realpath(store)}
    return {"config": os.path.realpath(config)}


def _shown_study(study):
    if not study:
        return "an unknown study (an older manifest)"
    kind, path = next(iter(study.items()))
    return f"the {kind} {path}"


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


def _check_place(out, flag):
    """Refuse an output folder that is a file, or that cannot be written."""
    if out.exists() and not out.is_dir():
        raise _UsageError(f"{flag} {out} is a file, not a folder; choose a folder")
    parent = (
        out
        if out.exists()
        else next((p for p in out.absolute().parents if p.exists()), Path("."))
    )
    if not os.access(parent, os.W_OK):
        raise _UsageError(f"cannot write into {parent}; choose another {flag}")


def _check_outputs(out, names, *, force, flag, study=None, refresh=False):
    """The outputs in ``out`` that this command may replace, or a refusal:
    existing outputs need ``force``, unless ``refresh`` and the manifest says
    they were written for ``study``; a file sklearn-bench did not write is
    never replaced."""
    present = _present(out, names) if out.exists() else []
    if not present:
        return present
    shown = ", ".join(sorted(present)[:5]) + (
        f" and {len(present) - 5} more" if len(present) > 5 else ""
    )
    ours, written_for = _manifest(out)
    same = refresh and study is not None and written_for == study
    if not force and not same:
        other = (
            f"; it was written for {_shown_study(written_for)}, not "
            f"{_shown_study(study)}"
            if refresh and study is not None and ours
            else ""
        )
        raise _UsageError(
            f"{out} already holds output ({shown}){other}; run with --force to "
            f"replace what sklearn-bench wrote there, or choose another {flag}"
        )
    foreign = sorted(set(present) - ours)
    if foreign:
        raise _UsageError(
            f"{out} holds {', '.join(foreign[:5])}"
            + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            + ", which sklearn-bench did not write; --force replaces only its "
            f"own files: move them or choose another {flag}"
        )
    return present


# The hidden folder inside an output folder that a command writes its outputs
# into before it moves them into place (same filesystem: each move is a rename).
_STAGE = ".sklearn_bench-writing-"


@contextlib.contextmanager
def _output_folder(
    out, names, *, force, flag="--out", study=None, refresh=False, in_place=()
):
    """Claim the output folder ``out`` for one command; yields the staging
    folder to write the outputs ``names`` into.

    In order: refuse a file or an unwritable place; take the folder's lock (a
    second writer exits 2 naming the lock file); refuse links below the folder;
    remove the staging folders of killed commands; check the outputs already
    there (:func:`_check_outputs`: ``force``, or ``refresh`` for the same
    ``study``; never a file sklearn-bench did not write). The names in
    ``in_place`` (the demo's store) are written in the folder itself, so an old
    one is removed now. When the block ends without an error the outputs are
    moved into place (:func:`_commit`); on an error the staging folder is
    removed and the earlier outputs stay as they were. A process killed at any
    moment leaves the earlier outputs, or outputs that the manifest lists as
    written for ``study``, which the next run replaces.
    """
    _check_place(out, flag)
    out.mkdir(parents=True, exist_ok=True)
    with _locked(out):
        refuse_links_below(out)  # a planted link would send writes elsewhere
        for leftover in out.glob(f"*{_STAGE}*"):  # of a killed command (we
            if leftover.is_dir() and not leftover.is_symlink():  # hold the lock)
                shutil.rmtree(leftover, ignore_errors=True)
            else:
                leftover.unlink(missing_ok=True)
        present = _check_outputs(
            out, names, force=force, flag=flag, study=study, refresh=refresh
        )
        for rel in present:
            if rel.split("/")[0] in in_place:
                (out / rel).unlink()
        stage = out / f"{_STAGE}{os.getpid()}"
        stage.mkdir()
        try:
            yield stage
        except BaseException:
            shutil.rmtree(stage, ignore_errors=True)
            raise
        _commit(stage, out, names, study=study, in_place=in_place)


@contextlib.contextmanager
def _locked(folder):
    """Hold ``folder``'s write lock for the ``with`` block; a folder that another
    command is writing is a usage error (exit 2) naming the lock file."""
    with contextlib.ExitStack() as stack:
        try:
            stack.enter_context(folder_lock(folder))
        except FolderLockedError as exc:
            raise _UsageError(str(exc)) from None
        yield


def _replace_file(path, write):
    """Write a single output file whole or not at all, under its folder's lock,
    and list it in the folder's manifest: ``write(tmp)`` writes a hidden file
    beside ``path``, which is then renamed onto ``path`` (a link at ``path`` is
    refused first)."""
    folder = path.parent
    tmp = folder / f".{path.name}{_STAGE}{os.getpid()}"
    with _locked(folder):
        try:
            check_no_symlink(path)
            write(tmp)
            os.replace(tmp, path)
            _write_manifest(folder, (path.name,))
        finally:
            with contextlib.suppress(OSError):
                tmp.unlink()


def _files_below(folder):
    return sorted(
        p.relative_to(folder).as_posix()
        for p in folder.rglob("*")
        if p.is_file() and not p.is_symlink()
    )


def _commit(stage, out, names, *, study, in_place=()):
    """Move the outputs written in ``stage`` into ``out`` (one rename each),
    replacing the command's earlier outputs and removing its stale ones.

    A file that appeared at an output name while the command ran and that the
    manifest does not list (the user's) is a usage error: nothing is moved.
    The manifest is written first, listing the old and the new files as
    sklearn-bench's own for ``study``: a process killed while the files move
    leaves a folder whose every output the next run (or ``--force``) may
    replace. Files of other commands that the manifest lists (a leaderboard
    CSV) stay listed.
    """
    new = set(_files_below(stage))
    old, _ = _manifest(out)
    # The lock keeps other sklearn-bench commands out, not the user: a file that
    # appeared at an output name while this command ran, and that no manifest
    # lists as ours, is never replaced (the same rule as _check_outputs).
    dropped = sorted(r for r in new if r not in old and os.path.lexists(out / r))
    if dropped:
        shutil.rmtree(stage, ignore_errors=True)
        raise _UsageError(
            f"{out} gained {', '.join(dropped[:5])}"
            + (f" and {len(dropped) - 5} more" if len(dropped) > 5 else "")
            + " while this command ran, which sklearn-bench did not write; "
            "nothing was replaced: move them and run the command again"
        )
    others = {f for f in old if f.split("/")[0] not in names and (out / f).exists()}
    kept = set(_present(out, in_place))
    stale = (set(_present(out, names)) & old) - new - kept
    _write_manifest_files(out, sorted(others | kept | new | stale), study)
    for rel in sorted(stale):
        (out / rel).unlink(missing_ok=True)
    for rel in sorted(new):
        dest = out / rel
        check_no_symlink(dest, out)
        dest.parent.mkdir(parents=True, exist_ok=True)
        os.replace(stage / rel, dest)
    _write_manifest_files(out, sorted(others | kept | new), study)
    shutil.rmtree(stage, ignore_errors=True)


def _write_manifest_files(out, files, study):
    """Write the manifest whole (a hidden file renamed onto it): a kill never
    leaves half a list, which would make every output look like a user's."""
    import json

    data = {"written_by": "sklearn-bench", "files": files}
    if study is not None:
        data["study"] = study
    path = out / _MANIFEST
    check_no_symlink(path)
    tmp = out / f"{_MANIFEST}{_STAGE}{os.getpid()}"
    write_text(tmp, json.dumps(data, indent=1))
    os.replace(tmp, path)


def _write_manifest(out, names):
    """List the files the command wrote (the outputs now present) in ``out``,
    keeping the files and the study the manifest already lists."""
    old, study = _manifest(out)
    files = sorted(set(_present(out, names)) | old)
    _write_manifest_files(out, [f for f in files if (out / f).exists()], study)


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
