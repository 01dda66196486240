"""The files of a store: header, -wal, read-only access, working copies."""

import contextlib
import os
import re
import shutil
import stat
import tempfile
import urllib.parse
from pathlib import Path

from ._schema import NotAStoreError, _connect, corrupt_store_error
from ._wal import wal_damage

_LOCK_TIMEOUT = 1.0  # seconds a writer waits for SQLite's write lock
_SQLITE_HEADER = b"SQLite format 3\x00"
_SIDE_FILES = ("-wal", "-shm", "-journal")  # SQLite's files beside a store


def _header(path):
    with open(path, "rb") as file:
        return file.read(len(_SQLITE_HEADER))


def _check_file(path, *, work=False):
    """Refuse a path that is not an SQLite file (``work``: our working copy)."""
    if path.is_dir():
        raise NotAStoreError(f"The store {str(path)!r} is a directory, not a file.")
    leftover = None if work else leftover_of_salvage(path)
    if leftover:
        raise NotAStoreError(leftover)
    if path.exists() and path.stat().st_size > 0 and _header(path) != _SQLITE_HEADER:
        raise NotAStoreError(
            f"{str(path)!r} is not an SQLite file, so not a sklearn_bench "
            "store; it was left untouched. Pass another path as `store`."
        )


def _refuse_link(path):
    """Refuse to write a store (or its -wal, -shm, -journal) through a symbolic
    or hard link, before SQLite opens it."""
    for suffix in ("", *_SIDE_FILES):
        part = f"{path}{suffix}"
        what = "is" if not suffix else f"has a {suffix[1:]} file that is"
        if os.path.islink(part):
            raise NotAStoreError(
                f"The store {str(path)!r} {what} a symbolic link (to "
                f"{os.readlink(part)!r}); a store is written only at its own "
                "path, never through a link. Use the path of the file itself, "
                "or another path."
            )
        if os.path.exists(part) and os.lstat(part).st_nlink > 1:
            raise NotAStoreError(
                f"The store {str(path)!r} {what} a hard link (one file with "
                f"{os.lstat(part).st_nlink} names): writing it would change the "
                "file at its other names. Copy it to a file of its own, or use "
                "another path."
            )


def _read_only_uri(path):
    """An SQLite URI that reads ``path`` without changing anything beside it
    (``immutable=1`` too when there is no -wal or -journal to read)."""
    path = Path(path).resolve()  # a store read through a link: its -wal too
    uri = f"file:{urllib.parse.quote(str(path))}?mode=ro"
    if not any(Path(f"{path}{s}").exists() for s in ("-wal", "-journal")):
        uri += "&immutable=1"
    return uri


def _check_wal(path):
    """Refuse a -wal, -shm or -journal that is not a regular file (a FIFO hangs
    readers), or a -wal whose commits SQLite would silently drop."""
    for suffix in _SIDE_FILES:
        with contextlib.suppress(FileNotFoundError):
            if not stat.S_ISREG(os.stat(f"{path}{suffix}").st_mode):
                raise NotAStoreError(
                    f"The store {str(path)!r} has a {suffix[1:]} file that is not "
                    "a regular file (a FIFO, a device or a folder); it was "
                    "refused and left untouched."
                )
    damage = wal_damage(path)
    if damage:
        raise corrupt_store_error(path, damage, source="checked by sklearn_bench")


def _read_only(path, **kwargs):
    """A read-only connection that creates nothing beside ``path`` (a -wal
    without its -shm is read from a copy, held in memory)."""
    path = Path(path).resolve()
    if not Path(f"{path}-wal").exists() or Path(f"{path}-shm").exists():
        return _connect(_read_only_uri(path), uri=True, **kwargs)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "store.sqlite"
        for suffix in ("", "-wal"):
            shutil.copyfile(f"{path}{suffix}", f"{copy}{suffix}")
        source = _connect(_read_only_uri(copy), uri=True)
        try:
            data = bytearray(source.serialize())
        finally:
            source.close()
    data[18:20] = b"\x01\x01"  # no WAL in memory: the legacy journal's marks
    conn = _connect(":memory:", **kwargs)
    conn.deserialize(bytes(data))
    return conn


def _remove_store_files(path):
    """Delete a store file and its -wal, -shm and -journal files."""
    for suffix in ("", *_SIDE_FILES):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _as_path(path, name="path"):
    """``path`` as a Path, else a TypeError naming ``name``."""
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"`{name}` must be a file path; got {path!r}.")
    return Path(path)


def _store_path(path, name):
    """``path`` as a Path to an existing, non-empty SQLite file, naming ``name``."""
    path = _as_path(path, name)
    if not path.is_file():
        raise FileNotFoundError(f"`{name}`: no store at {str(path)!r}.")
    try:
        _check_file(path)
    except ValueError as exc:
        raise NotAStoreError(f"`{name}`: {exc}") from None
    if path.stat().st_size == 0:
        raise ValueError(f"`{name}`: the store {str(path)!r} is empty (no run).")
    return path


_SALVAGING = ".salvaging-"
_MERGING = ".merging-"
_WORK = {_SALVAGING: ("`sklearn-bench store salvage`", "the salvage"),
         _MERGING: ("`sklearn-bench merge`", "the merge")}  # fmt: skip


def _leftovers(new_path, marker=_SALVAGING):
    """Working copies a killed salvage (or merge) into ``new_path`` left: exactly
    its name ``.NEW.salvaging-PID`` of an ended PID, an SQLite file or empty."""
    prefix = f".{new_path.name}{marker}"
    out = []
    for p in new_path.parent.glob(f"{prefix}*"):
        pid = _pid(p.name[len(prefix) :])
        if pid is None or _alive(pid) or p.is_symlink() or not p.is_file():
            continue
        if _header(p) in (b"", _SQLITE_HEADER):
            out.append(p)
    return out


def _pid(text):
    """The pid a leftover's name ends with (ASCII digits, below 2**31), or None."""
    if re.fullmatch(r"[0-9]{1,10}", text) and int(text) < 2**31:
        return int(text)
    return None


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # e.g. another user's process
        pass
    return True


def leftover_of_salvage(path):
    """The message for the working copy of a killed salvage (or merge), or None."""
    name = Path(path).name
    for marker, (command, what) in _WORK.items():
        if name.startswith(".") and marker in name:
            target = name[1 : name.index(marker)]
            return (
                f"{str(path)!r} is the leftover of a killed {command} into "
                f"{target!r}, not a store: delete it and run {what} again."
            )
    return None


def _work_path(target, marker):
    """The hidden working copy beside ``target`` (leftovers of killed ones go)."""
    for leftover in _leftovers(target, marker):
        leftover.unlink(missing_ok=True)
    work = target.parent / f".{target.name}{marker}{os.getpid()}"
    _remove_store_files(work)
    return work
