"""Safe writes of output files: no symlink followed, text cells that stay text.

Bottom layer: imports nothing of the package. Every writer of an output folder
(report, tables, figures, leaderboard, saved results) goes through here, so that

- no file is written through a symbolic link, at its own name or at any folder
  between the output root and it (a planted link could otherwise send a write into
  ``site-packages`` or delete a user's files): :func:`check_no_symlink` and
  :func:`open_for_write` (``O_NOFOLLOW``) refuse with :class:`UnsafePathError`;
- text cells of a CSV that a spreadsheet would read as a formula (a leading ``=``,
  ``+``, ``-``, ``@``, tab or carriage return: OWASP's rule) are written with a
  leading apostrophe, so spreadsheets show them as text; numbers are untouched;
  :func:`unescape_cell` reads the names back exactly.
"""

import contextlib
import os
import stat
import time
from pathlib import Path

import pandas as pd

__all__ = [
    "FolderLockedError",
    "UnsafePathError",
    "check_no_symlink",
    "folder_lock",
    "escape_cell",
    "escape_frame",
    "open_for_write",
    "refuse_links_below",
    "unescape_cell",
    "unescape_frame",
    "write_bytes",
    "write_csv",
    "write_text",
]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_QUOTE = "'"


class UnsafePathError(ValueError):
    """An output path goes through a symbolic link (or is not a plain file)."""


class FolderLockedError(ValueError):
    """Another process holds the write lock of an output folder."""


def _link_error(target, what, link, *, missing=False):
    """The refusal to write ``target`` (a path, or ``"into <folder>"``) because
    ``what`` is the symbolic link ``link`` (to a missing folder: ``missing``)."""
    to = os.readlink(link)
    points = f"to a missing folder ({to!r})" if missing else f"(to {to!r})"
    return UnsafePathError(
        f"refusing to write {target}: {what} is a symbolic link {points}. Remove the "
        "link or choose another output folder."
    )


def check_no_symlink(path, root=None):
    """Refuse ``path`` if it, or a folder between ``root`` and it, is a symlink.

    ``root`` is the output folder the caller was given (it may itself be reached
    through links the user made: only what lies below it is checked); ``None``
    checks the path's own name only. A name that exists must be a regular file or
    a folder.

    Raises
    ------
    UnsafePathError

    See Also
    --------
    refuse_links_below : Refuses a link anywhere below an output folder, once,
        before a command writes into it.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> check_no_symlink(root / "out.csv", root)  # a new name: fine
    >>> os.symlink(tempfile.gettempdir(), root / "figures")
    >>> check_no_symlink(root / "figures" / "cd.png", root)
    Traceback (most recent call last):
    ...
    sklearn_bench._io.UnsafePathError: refusing to write ...: the folder ... is a ...
    """
    path = Path(path)
    if root is None:
        parts = [path]
    else:
        root = Path(root)
        try:
            rel = path.relative_to(root)
        except ValueError:
            raise UnsafePathError(
                f"refusing to write {path}: it is not inside the output folder {root}."
            ) from None
        parts = [root.joinpath(*rel.parts[: i + 1]) for i in range(len(rel.parts))]
    for i, part in enumerate(parts):
        try:
            st = os.lstat(part)
        except FileNotFoundError:
            continue
        if stat.S_ISLNK(st.st_mode):
            what = "it" if i == len(parts) - 1 else f"the folder {part}"
            raise _link_error(path, what, part)
        last = i == len(parts) - 1
        if not last and not stat.S_ISDIR(st.st_mode):
            raise UnsafePathError(f"refusing to write {path}: {part} is not a folder.")
        if last and not (stat.S_ISREG(st.st_mode) or stat.S_ISDIR(st.st_mode)):
            raise UnsafePathError(
                f"refusing to write {path}: it exists and is not a regular file."
            )


def open_for_write(path, mode="w", *, root=None, encoding="utf-8", newline=None):
    """Open ``path`` for writing without following a symlink at any step.

    The checks of :func:`check_no_symlink`, then ``O_NOFOLLOW`` on the file itself
    (a link planted between the check and the open is refused by the kernel).
    ``mode`` is ``"w"`` (text) or ``"wb"``.
    """
    check_no_symlink(path, root)
    flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(path, flags, 0o666)
    except OSError as exc:
        if os.path.islink(path):
            raise UnsafePathError(
                f"refusing to write {path}: it is a symbolic link."
            ) from None
        raise exc
    if "b" in mode:
        return os.fdopen(fd, mode)
    return os.fdopen(fd, mode, encoding=encoding, newline=newline)


def write_text(path, text, *, root=None, encoding="utf-8"):
    """Write ``text`` to ``path`` (see :func:`open_for_write`)."""
    with open_for_write(path, "w", root=root, encoding=encoding) as f:
        f.write(text)


def write_bytes(path, data, *, root=None):
    """Write ``data`` to ``path`` (see :func:`open_for_write`)."""
    with open_for_write(path, "wb", root=root) as f:
        f.write(data)


def escape_cell(value):
    """A text cell as spreadsheets will read it as text; other values unchanged.

    A string starting with ``=``, ``+``, ``-``, ``@``, tab, carriage return or an
    apostrophe gets one leading apostrophe (the apostrophe itself so that
    :func:`unescape_cell` is exact).

    Examples
    --------
    >>> escape_cell('=HYPERLINK("http://x")'), escape_cell("logreg"), escape_cell(-1.5)
    ('\\'=HYPERLINK("http://x")', 'logreg', -1.5)
    >>> unescape_cell(escape_cell("'quoted"))
    "'quoted"
    """
    if isinstance(value, str) and value.startswith((*_FORMULA_START, _QUOTE)):
        return _QUOTE + value
    return value


def unescape_cell(value):
    """The inverse of :func:`escape_cell`."""
    if isinstance(value, str) and value.startswith(_QUOTE):
        rest = value[1:]
        if rest.startswith((*_FORMULA_START, _QUOTE)):
            return rest
    return value


def _map_index(index, func):
    if isinstance(index, pd.MultiIndex):
        return index.set_levels([lvl.map(func) for lvl in index.levels])
    if isinstance(index.dtype, pd.CategoricalDtype):
        index = index.astype(object)
    if index.dtype == object or pd.api.types.is_string_dtype(index.dtype):
        return index.map(func)
    return index


def _map_frame(frame, func):
    out = frame.copy()
    for col in out.columns:
        s = out[col]
        if isinstance(s.dtype, pd.CategoricalDtype):
            s = s.astype(object)
        if s.dtype == object or pd.api.types.is_string_dtype(s.dtype):
            out[col] = s.map(func, na_action="ignore")
    out.columns = _map_index(out.columns, func)
    out.index = _map_index(out.index, func)
    return out


def escape_frame(frame):
    """``frame`` with every text cell, column name and index label escaped.

    Numeric columns are untouched (a negative number stays a number).
    """
    return _map_frame(frame, escape_cell)


def unescape_frame(frame):
    """The inverse of :func:`escape_frame` (for frames read back from CSV)."""
    return _map_frame(frame, unescape_cell)


def write_csv(frame, path, *, root=None, **to_csv_kwargs):
    """``frame.to_csv(path)`` with text cells escaped and no symlink followed."""
    if not isinstance(frame, pd.DataFrame | pd.Series):
        raise TypeError(f"`frame` must be a DataFrame; got {type(frame).__name__}.")
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    with open_for_write(path, "w", root=root, newline="") as f:
        escape_frame(frame).to_csv(f, **to_csv_kwargs)


def refuse_links_below(root):
    """Refuse an output folder that holds a symbolic link anywhere below it.

    Called once before a command writes into (or, with ``--force``, deletes its
    own earlier files from) ``root``: a planted link at ``figures/``, ``tables/``
    or any output name would otherwise send the writes, or the deletions, where it
    points. ``root`` itself may be a link the user made.

    Raises
    ------
    UnsafePathError

    See Also
    --------
    check_no_symlink : Refuses the one path a write goes to (each write through
        :func:`open_for_write` checks it), for files made after this check.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "tables").mkdir()
    >>> refuse_links_below(root)
    >>> os.symlink(root / "elsewhere.csv", root / "tables" / "pairs.csv")
    >>> refuse_links_below(root)  # any link below, even one to nothing
    Traceback (most recent call last):
    ...
    sklearn_bench._io.UnsafePathError: refusing to write into ...: ... symbolic link...
    """
    root = Path(root)
    if not root.exists():
        if root.is_symlink():  # a link to nothing: writes would create its target
            raise _link_error(f"into {root}", "it", root, missing=True)
        return
    if not root.is_dir():
        raise UnsafePathError(
            f"refusing to write into {root}: it exists and is not a folder."
        )
    for folder, dirs, files in os.walk(root, followlinks=False):
        for name in (*dirs, *files):
            path = Path(folder) / name
            if path.is_symlink():
                raise _link_error(f"into {root}", path, path)


_LOCK_NAME = ".sklearn_bench.lock"


def _lock_holder(path):
    """``"pid N, since T"`` as the lock file says, or ``None``."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read(200).strip()
    except OSError:
        return None
    return text or None


def _locked_message(folder, path, holder):
    who = f" ({holder})" if holder else ""
    return (
        f"{folder} is being written by another sklearn-bench command{who}; its "
        f"lock file is {path}. Wait for that command to end, or choose another "
        "output folder. The lock ends with the process that holds it; if no "
        f"sklearn-bench command is running, delete {path}."
    )


@contextlib.contextmanager
def folder_lock(folder, *, name=_LOCK_NAME):
    """Hold the exclusive write lock of ``folder`` for the ``with`` block.

    The lock is ``fcntl.flock`` on a file ``name`` in the folder (opened with
    ``O_NOFOLLOW``: a link planted at the name is refused), which the kernel
    releases when the holding process ends, even when it is killed; the file
    (holding ``pid N, since T``) is removed when the block ends. Where there is
    no ``fcntl`` (Windows), the file is created with ``O_EXCL`` instead, and a
    file left by a killed process must be deleted by hand (the message says so).
    A second writer does not wait: it gets :class:`FolderLockedError` at once,
    naming the lock file.

    Parameters
    ----------
    folder : str or Path
        An existing folder.
    name : str, default=".sklearn_bench.lock"

    Raises
    ------
    FolderLockedError
        Another process (or another ``with folder_lock`` of this one) holds it.
    UnsafePathError
        The lock's name is a symbolic link.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> folder = Path(tempfile.mkdtemp())
    >>> with folder_lock(folder):
    ...     with folder_lock(folder):
    ...         pass
    Traceback (most recent call last):
    ...
    sklearn_bench._io.FolderLockedError: ... is being written by another ...
    >>> with folder_lock(folder):
    ...     print("the lock is free again")
    the lock is free again
    """
    folder = Path(folder)
    path = folder / name
    check_no_symlink(path)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        fcntl = None
    nofollow = getattr(os, "O_NOFOLLOW", 0)
    if fcntl is None:  # pragma: no cover - Windows
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | nofollow, 0o644)
        except FileExistsError:
            raise FolderLockedError(
                _locked_message(folder, path, _lock_holder(path))
            ) from None
    else:
        fd = os.open(path, os.O_RDWR | os.O_CREAT | nofollow, 0o644)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            # The holder before us may have removed the file between our open
            # and our lock: then we hold a lock on a file no one else sees.
            same = os.fstat(fd).st_ino == os.lstat(path).st_ino
        except (BlockingIOError, FileNotFoundError):
            same = False
        if not same:
            os.close(fd)
            raise FolderLockedError(_locked_message(folder, path, _lock_holder(path)))
    try:
        os.ftruncate(fd, 0)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
        os.write(fd, f"pid {os.getpid()}, since {stamp}".encode())
        yield path
    finally:
        with contextlib.suppress(OSError):
            os.unlink(path)  # while still held: no one can take a stale file
        os.close(fd)
