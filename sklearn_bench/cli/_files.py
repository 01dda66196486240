"""What the commands read and write: a stored run in; an output folder out (its
overwrite policy, manifest, lock and staging folder); the usage error."""

import contextlib
import os
import re
import secrets
import stat
import sys
import warnings
from pathlib import Path

from .._io import (
    Folder,
    FolderLockedError,
    UnsafePathError,
    folder_lock,
    held,
    refuse_links_below,
)
from .._text import look_alike, terminal_text


class _UsageError(Exception):
    """A problem with what the user asked for (exit code 2)."""


def _refuse_unknown(flag, value, options, what):
    """A usage error unless ``value`` (``None``: not given) is one of ``options``."""
    if value is not None and value not in options:
        raise _UsageError(
            f"{flag} {value!r} is not a {what}; expected one of {list(options)}"
        )


def _require_matplotlib():
    """The report needs matplotlib (the ``plot`` extra); say so before any fit."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise _UsageError(
            "the report needs matplotlib; install it with "
            '`python -m pip install "sklearn-bench[plot]"`'
        ) from None


def _say(message, stream=None, *, names=()):
    # Names are the user's text: no control character reaches the terminal (an
    # ESC sequence in a learner's name could retitle or recolour it), and a
    # newline in one of ``names`` is shown as \n (it could forge a line).
    stream = sys.stdout if stream is None else stream
    try:
        print(terminal_text(message, names=names), file=stream, flush=True)
    except BrokenPipeError:  # the reader has gone (`| head`): the work goes on
        with contextlib.suppress(OSError, ValueError, AttributeError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


# The files and folders the commands write into an output folder, and the
# manifest that lists what they wrote there (so that --force replaces only the
# package's own files, never a file of the user's).
_MANIFEST = ".sklearn_bench_outputs.json"
_REPORT_OUTPUTS = ("report.html", "methods.md", "methods.tex", "figures", "tables")
_RUN_OUTPUTS = _REPORT_OUTPUTS + ("performance.csv", "scores.parquet", "results")
_DEMO_OUTPUTS = _RUN_OUTPUTS + tuple(f"results.sqlite{s}" for s in ("", "-wal", "-shm"))


def _manifest(folder):
    """``(files, study, staging)`` of the manifest in ``folder`` (a path or a held
    :class:`Folder`): the files written, their study, killed commands' staging."""
    import json

    if not isinstance(folder, Folder):
        try:
            with Folder.open(folder) as own:
                return _manifest(own)
        except UnsafePathError:
            return set(), None, []
    try:
        data = json.loads(folder.read_text(_MANIFEST) or "")
        files = data["files"]
    except (ValueError, KeyError, TypeError):
        return set(), None, []
    if not isinstance(files, list):
        return set(), None, []
    study, staging = data.get("study"), data.get("staging", [])
    return (
        {f for f in files if isinstance(f, str)},
        study if isinstance(study, dict) else None,
        [s for s in staging if isinstance(s, str)] if isinstance(staging, list) else [],
    )


def _study(*, store=None, config=None):
    """A study's identity in the manifest: the real path of its store (the next
    run on it refreshes the outputs), else of its config file."""
    if store is not None:
        return {"store": os.path.realpath(store)}
    return {"config": os.path.realpath(config)}


def _shown_study(study):
    if not study:
        return "an unknown study (an older manifest)"
    kind, path = next(iter(study.items()))
    return f"the {kind} {path}"


def _lstat(folder, rel):
    """``lstat`` of the relative path ``rel`` below the held ``folder`` (its
    folders opened without following a link), or ``None``."""
    rel = Path(rel)
    try:
        with folder.child(rel.parent) as parent:
            return parent.lstat(rel.name)
    except UnsafePathError:
        return None


def _present(out, names):
    """Files (relative paths) under ``out`` (a path or a held :class:`Folder`)
    among ``names`` (folders expanded)."""
    if not isinstance(out, Folder):
        if not out.is_dir():
            return []
        with Folder.open(out) as folder:
            return _present(folder, names)
    found = []
    for name in names:
        st = out.lstat(name)
        if st is None:
            continue
        if stat.S_ISDIR(st.st_mode):
            with out.child(name) as below:
                found += [f"{name}/{rel}" for rel in below.files()]
        else:
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


def _refuse_own_input(out, inputs, *, names=(), flag="--out"):
    """Refuse to write ``out`` (or its outputs ``names``) over one of the
    command's ``inputs`` (a store with its -wal and -shm, or a folder)."""
    real = os.path.realpath(out)
    targets = [os.path.join(real, n) for n in names] or [real]
    for source in inputs:
        for path in (source, f"{source}-wal", f"{source}-shm"):
            path = os.path.realpath(path)
            if any(path == t or path.startswith(t + os.sep) for t in targets) or any(
                t.startswith(path + os.sep) for t in targets
            ):
                raise _UsageError(
                    f"{flag} {out} would write over the command's own input "
                    f"{source}; choose another {flag}"
                )


def _few(names):
    """The first five of ``names`` for a message, and how many more."""
    more = f" and {len(names) - 5} more" if len(names) > 5 else ""
    return ", ".join(sorted(names)[:5]) + more


def _check_outputs(root, names, *, force, flag, study=None, refresh=False):
    """The outputs in the held ``root`` this command may replace: all with
    ``force`` (or ``refresh`` for the same ``study``), never a file not ours."""
    out = root.path
    present = _present(root, names)
    if not present:
        return present
    ours, written_for, _ = _manifest(root)
    same = refresh and study is not None and written_for == study
    if not force and not same:
        other = (
            f"; it was written for {_shown_study(written_for)}, not "
            f"{_shown_study(study)}"
            if refresh and study is not None and ours
            else ""
        )
        raise _UsageError(
            f"{out} already holds output ({_few(present)}){other}; run with --force to "
            f"replace what sklearn-bench wrote there, or choose another {flag}"
        )
    foreign = sorted(set(present) - ours)
    if foreign:
        raise _UsageError(
            f"{out} holds {_few(foreign)}, which sklearn-bench did not write; "
            f"--force replaces only its own files: move them or choose another {flag}"
        )
    return present


# The hidden folder inside an output folder that a command writes its outputs
# into before it moves them into place (same filesystem: each move is a
# rename): a random name, recorded in the manifest before it is made, so that
# only a folder a command made is ever removed (never one found by a pattern).
_STAGE = ".sklearn_bench-writing-"
_STAGE_NAME = re.compile(r"\.sklearn_bench-writing-[0-9a-f]{16}")


def _same_file(a, b):
    return None not in (a, b) and (a.st_dev, a.st_ino) == (b.st_dev, b.st_ino)


def _remove_stage(root, name, stage=None):
    """Remove the staging folder ``name`` of ``root``, if it is the folder
    ``stage`` held (or, for a recorded one of a killed command, a folder)."""
    st = root.lstat(name)
    if st is None or not stat.S_ISDIR(st.st_mode):
        return
    if stage is None or stage.fd is None or _same_file(st, os.fstat(stage.fd)):
        root.remove_tree(name)


@contextlib.contextmanager
def _output_folder(
    out,
    names,
    *,
    force,
    flag="--out",
    study=None,
    refresh=False,
    in_place=(),
    named=True,
):
    """Claim the output folder ``out`` (lock, no links below, the killed commands'
    staging removed, :func:`_check_outputs`); yield a held staging folder whose
    outputs are moved into place on success (:func:`_commit`), removed on error.
    Only a folder the user ``named`` may be a link."""
    _check_place(out, flag)
    with Folder.open(out, create=True, link=named) as root, _locked(root):
        refuse_links_below(root)  # a planted link would send writes elsewhere
        files, written_for, staging = _manifest(root)
        for name in staging:  # of a killed command (we hold the lock)
            if _STAGE_NAME.fullmatch(name):
                _remove_stage(root, name)
        present = _check_outputs(
            root, names, force=force, flag=flag, study=study, refresh=refresh
        )
        name = f"{_STAGE}{secrets.token_hex(8)}"
        _write_manifest_files(root, files, written_for, staging=[name])
        for rel in present:
            if rel.split("/")[0] in in_place:
                root.unlink(rel)
        try:
            with root.child(name, create=True) as stage, held(stage, new=True):
                try:
                    yield out / name
                    _commit(stage, root, name, names, study=study, in_place=in_place)
                finally:
                    _remove_stage(root, name, stage)
        finally:
            files, written_for, _ = _manifest(root)
            _write_manifest_files(root, files, written_for)


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
    """Write one output file whole or not at all, under its folder's lock, and
    list it in the manifest: ``write(tmp)`` writes a new hidden file beside ``path``,
    then renamed onto it."""
    with Folder.open(path.parent) as folder, _locked(folder):
        st = folder.lstat(path.name)
        if st is not None and not stat.S_ISREG(st.st_mode):
            raise UnsafePathError(
                f"refusing to write {path}: it is not a regular file (a link or "
                "a folder). Remove it or choose another output name."
            )
        tmp = f".{path.name}.sklearn_bench-tmp-{secrets.token_hex(8)}"
        try:
            with held(folder, new=True):
                write(folder.path / tmp)
            folder.replace(tmp, folder, path.name)
            files, study, staging = _manifest(folder)
            _write_manifest_files(folder, files | {path.name}, study, staging)
        finally:
            folder.unlink(tmp)


def _commit(stage, root, name, names, *, study, in_place=()):
    """Move the outputs of the held ``stage`` into ``root`` by renames, replacing
    or removing the earlier ones; the manifest is written first, so a kill leaves
    outputs the next run may replace. A moved stage or a new file refuses."""
    out = root.path
    if stage.fd is not None and not _same_file(root.lstat(name), os.fstat(stage.fd)):
        raise UnsafePathError(
            f"refusing to write into {out}: its staging folder {out / name} was "
            "moved or replaced while this command ran; nothing was moved into "
            "place. Check who else writes into the folder, and run the command "
            "again."
        )
    new = set(stage.files())
    old, _, staging = _manifest(root)
    # The lock keeps other sklearn-bench commands out, not the user: a file that
    # appeared at an output name while this command ran, and that no manifest
    # lists as ours, is never replaced (the same rule as _check_outputs).
    dropped = sorted(r for r in new if r not in old and _lstat(root, r) is not None)
    if dropped:
        raise _UsageError(
            f"{out} gained {_few(dropped)} while this command ran, which "
            "sklearn-bench did not write; nothing was replaced: move them and run "
            "the command again"
        )
    others = {
        f for f in old if f.split("/")[0] not in names and _lstat(root, f) is not None
    }
    kept = set(_present(root, in_place))
    stale = (set(_present(root, names)) & old) - new - kept
    _write_manifest_files(root, sorted(others | kept | new | stale), study, staging)
    for rel in sorted(stale):
        with root.child(Path(rel).parent) as folder:
            folder.unlink(Path(rel).name)
    for rel in sorted(new):
        rel = Path(rel)
        with stage.child(rel.parent) as src, root.child(rel.parent, create=True) as dst:
            src.replace(rel.name, dst)
    _write_manifest_files(root, sorted(others | kept | new), study, staging)


def _write_manifest_files(root, files, study, staging=()):
    """Write the manifest of the held folder ``root`` whole (a new hidden file
    renamed onto it): a kill never leaves half a list."""
    import json

    data = {"written_by": "sklearn-bench", "files": sorted(files)}
    if study is not None:
        data["study"] = study
    if staging:
        data["staging"] = list(staging)
    tmp = f"{_MANIFEST}.sklearn_bench-tmp-{secrets.token_hex(8)}"
    try:
        with root.open_file(tmp, new=True) as f:
            f.write(json.dumps(data, indent=1))
        root.replace(tmp, root, _MANIFEST)
    finally:
        root.unlink(tmp)


def _names(result):
    """The names a result shows: its learners, data sets and metrics."""
    return [*result.learners, *result.datasets, *result.metrics]


def _flag_look_alike(result):
    """Warn of learners, data sets or metrics that look the same to a reader
    (:func:`~sklearn_bench._text.look_alike`)."""
    for kind, names in (("learners", result.learners), ("data sets",
                        result.datasets), ("metrics", result.metrics)):  # fmt: skip
        for group in look_alike(names):
            _say(
                f"Warning: the {kind} {' and '.join(map(ascii, group))} look the "
                "same (equal after Unicode NFKC normalization and removal of "
                "invisible characters); they are kept apart. Rename one if they "
                "are meant to be one.",
                sys.stderr,
            )


def _load_stored(path):
    """A BenchmarkResult and its number of missing tasks, from a store or folder."""
    from ..results import BenchmarkResult

    missing = 0
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
    elif not path.is_file():
        where = f" (its folder {path.parent} does not exist)"
        raise _UsageError(
            f"store not found: {path}{'' if path.parent.is_dir() else where}"
        )
    else:
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
        missing = int(result.n_missing_tasks)
    _refuse_non_finite(result, path)
    _flag_look_alike(result)
    return result, missing


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
