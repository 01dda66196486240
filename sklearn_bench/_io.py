"""Safe writes of output files: through a folder held open, never through a link.

Every writer of an output folder goes through here: a file is opened relative to
a :class:`Folder` held open, one level at a time with ``O_NOFOLLOW``
(:class:`UnsafePathError` on a link); an existing file is written only when it
is a regular file with one link. CSV text cells a spreadsheet would read as a
formula get a leading apostrophe (OWASP's rule). Without ``openat`` (Windows)
the same checks go by path."""

import contextlib
import contextvars
import functools
import inspect
import os
import stat
import time
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = [
    "Folder",
    "FolderLockedError",
    "UnsafePathError",
    "escape_cell",
    "escape_frame",
    "folder_lock",
    "held",
    "make_folder",
    "open_for_write",
    "refuse_links_below",
    "remove_file",
    "unescape_cell",
    "unescape_frame",
    "write_bytes",
    "write_csv",
    "write_text",
    "writes_into",
]

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_QUOTE = "'"
_AT = os.open in os.supports_dir_fd  # openat: False on Windows (paths instead)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC


class UnsafePathError(ValueError):
    """An output path goes through a link, or is not a plain file or folder."""


class FolderLockedError(ValueError):
    """Another process holds the write lock of an output folder."""


def _unsafe(target, what, path=None, read_link=None):
    """The refusal to write ``target`` because ``what``; a link at ``path``
    (``read_link()`` its target) is named with where it points."""
    if read_link is not None:
        with contextlib.suppress(OSError):
            what += f" (to {read_link()!r})"
    advice = " Remove it or choose another output folder." if path else ""
    return UnsafePathError(f"refusing to write {target}: {what}.{advice}")


def _kind(st):
    """What an ``lstat`` result is, in words."""
    if st is None:
        return "missing"
    if stat.S_ISLNK(st.st_mode):
        return "a symbolic link"
    if stat.S_ISDIR(st.st_mode):
        return "a folder"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    return f"a hard link ({st.st_nlink} names for one file)"


class Folder:
    """A folder held open by a command: every name below it is reached from this
    handle, one level at a time, never through a link (:meth:`open` the folder the
    user named, or :meth:`child`; close it when the command ends).

    Examples
    --------
    >>> import tempfile
    >>> from sklearn_bench._io import Folder
    >>> with Folder.open(tempfile.mkdtemp()) as out:
    ...     with out.child("tables", create=True) as tables:
    ...         with tables.open_file("a.csv", new=True) as f:
    ...             _ = f.write("x\\n")
    ...     out.files()
    ['tables/a.csv']
    """

    def __init__(self, fd, path):
        self.fd, self.path = fd, Path(path)

    @classmethod
    def open(cls, path, *, create=False, link=True):
        """Hold the folder ``path`` (made if ``create``); :class:`UnsafePathError`
        if it is not a folder or, without ``link`` (a name the package chose, where
        a planted link would redirect writes), if it is a link."""
        path = Path(path)
        if create:
            with contextlib.suppress(FileExistsError):
                os.makedirs(path, exist_ok=True)
        if not path.is_dir():
            if path.is_symlink():
                what = "it is a symbolic link to a missing folder"
                raise _unsafe(f"into {path}", what, path, lambda: os.readlink(path))
            what = "it is not a folder" if path.exists() else "it does not exist"
            raise _unsafe(f"into {path}", what, path if path.exists() else None)
        if not link and path.is_symlink():
            what = "it is a symbolic link, and only a folder you name may be one"
            raise _unsafe(f"into {path}", what, path, lambda: os.readlink(path))
        if not link and _AT:  # the name checked is the folder held
            return cls(os.open(path, _DIR | _NOFOLLOW), path)
        return cls(os.open(path, _DIR) if _AT else None, path)

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _at(self, name):
        """``(name, dir_fd)`` for an ``*at`` call (a path without openat)."""
        return (name, self.fd) if self.fd is not None else (str(self.path / name), None)

    def lstat(self, name):
        """``os.lstat`` of the name ``name`` in this folder, or ``None``."""
        at, fd = self._at(name)
        with contextlib.suppress(FileNotFoundError):
            return os.stat(at, dir_fd=fd, follow_symlinks=False)
        return None

    def _refuse(self, target, name, st, what=""):
        at, fd = self._at(name)
        return _unsafe(target, f"{what}{self.path / name} is {_kind(st)}", target,
                       lambda: os.readlink(at, dir_fd=fd))  # fmt: skip

    def child(self, rel, *, create=False):
        """The folder ``rel`` below this one, held open (made if ``create``);
        :class:`UnsafePathError` if a part of it is a link or not a folder."""
        folder = Folder(None if self.fd is None else os.dup(self.fd), self.path)
        try:
            for part in Path(rel).parts:
                at, fd = folder._at(part)
                if create:
                    with contextlib.suppress(FileExistsError):
                        os.mkdir(at, dir_fd=fd)
                st = folder.lstat(part)
                if st is None or not stat.S_ISDIR(st.st_mode):
                    raise folder._refuse(f"below {self.path}", part, st, "the folder ")
                new = None if fd is None else os.open(at, _DIR | _NOFOLLOW, dir_fd=fd)
                folder.close()
                folder = Folder(new, folder.path / part)
        except BaseException:
            folder.close()
            raise
        return folder

    def open_file(self, name, mode="w", *, new=False, encoding="utf-8", newline=None):
        """Open the file ``name`` of this folder for writing (``"w"`` or ``"wb"``),
        emptied: never through a link, an existing one only if it is a regular file
        with one link, and with ``new`` none may exist (``O_EXCL``)."""
        target, (at, fd) = self.path / name, self._at(name)
        st = self.lstat(name)
        if st is not None and new:
            raise _unsafe(target, "it appeared while this command ran", target)
        if st is not None and (not stat.S_ISREG(st.st_mode) or st.st_nlink > 1):
            raise self._refuse(target, name, st)
        flags = os.O_WRONLY | os.O_CREAT | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC
        handle = os.open(at, flags | (os.O_EXCL if new else 0), 0o666, dir_fd=fd)
        st = os.fstat(handle)  # what was opened, if the name changed meanwhile
        if not stat.S_ISREG(st.st_mode) or st.st_nlink > 1:
            os.close(handle)
            raise _unsafe(target, f"it is {_kind(st)}", target)
        os.ftruncate(handle, 0)
        if "b" in mode:
            return os.fdopen(handle, mode)
        return os.fdopen(handle, mode, encoding=encoding, newline=newline)

    def read_text(self, name, limit=2**24):
        """The text of the regular file ``name`` (at most ``limit`` bytes), or
        ``None`` (a link, a folder or a FIFO is not read)."""
        at, fd = self._at(name)
        try:
            handle = os.open(at, os.O_RDONLY | os.O_NONBLOCK | _NOFOLLOW, dir_fd=fd)
        except OSError:
            return None
        with os.fdopen(handle, "rb") as f:
            if not stat.S_ISREG(os.fstat(handle).st_mode):
                return None
            return f.read(limit).decode("utf-8", "replace")

    def replace(self, name, to, to_name=None):
        """Rename the entry ``name`` of this folder onto ``to_name`` in the
        folder ``to`` (one rename: a name is replaced, never followed)."""
        src, src_fd = self._at(name)
        dst, dst_fd = to._at(to_name or name)
        os.replace(src, dst, src_dir_fd=src_fd, dst_dir_fd=dst_fd)

    def unlink(self, name):
        at, fd = self._at(name)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(at, dir_fd=fd)

    def remove_tree(self, name):
        """Remove the folder ``name`` of this folder and all it holds, without
        following a link (a link below it is removed, not its target)."""
        at, fd = self._at(name)
        if fd is None:  # pragma: no cover - without openat
            import shutil

            return shutil.rmtree(at, ignore_errors=True)
        for _, dirs, files, root in os.fwalk(at, topdown=False, dir_fd=fd):
            for entry in files:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(entry, dir_fd=root)
            for entry in dirs:
                with contextlib.suppress(OSError):
                    os.rmdir(entry, dir_fd=root)
        with contextlib.suppress(OSError):
            os.rmdir(at, dir_fd=fd)

    def files(self):
        """The regular files below this folder (relative POSIX paths, sorted;
        links neither followed nor listed)."""
        return sorted(p.as_posix() for p in self._below(stat.S_ISREG))

    def links(self):
        """The first symbolic link below this folder, or ``None``."""
        return next(self._below(stat.S_ISLNK), None)

    def _below(self, kind):
        """Relative paths below this folder whose ``lstat`` mode is ``kind``."""
        if self.fd is None:  # pragma: no cover - without openat
            for p in self.path.rglob("*"):
                if kind(p.lstat().st_mode):
                    yield p.relative_to(self.path)
            return
        for folder, dirs, names, fd in os.fwalk(".", dir_fd=self.fd):
            for name in (*dirs, *names):
                if kind(os.stat(name, dir_fd=fd, follow_symlinks=False).st_mode):
                    yield Path(os.path.normpath(os.path.join(folder, name)))


# -- the folders held by the command (writers pass paths below them) ------------
_HELD = contextvars.ContextVar("sklearn_bench_held_folders", default=())


def _held_for(path):
    """``(folder, relative path, new)`` of the innermost held folder that holds
    ``path`` (compared as absolute paths, without resolving), or ``None``."""
    path = os.path.abspath(path)
    for base, folder, new in reversed(_HELD.get()):
        if path == base or path.startswith(base.rstrip(os.sep) + os.sep):
            return folder, Path(os.path.relpath(path, base)), new
    return None


@contextlib.contextmanager
def held(folder, *, new=False):
    """Within the block, every write through this module to a path below the
    :class:`Folder` ``folder`` opens from its handle; with ``new``, every file
    written there must be new (a staging folder)."""
    token = _HELD.set((*_HELD.get(), (os.path.abspath(folder.path), folder, new)))
    try:
        yield folder
    finally:
        _HELD.reset(token)


@contextlib.contextmanager
def _holding(path):
    """Hold the folder ``path`` (created if missing) for the block; inside a
    held folder, it is opened from that one (never through a link)."""
    outer = _held_for(path)
    new = outer is not None and outer[2]
    if outer is None:
        folder = Folder.open(path, create=True)
    else:
        folder = outer[0].child(outer[1], create=True)
    with folder, held(folder, new=new):
        yield folder


def writes_into(argument):
    """Decorate a function that writes into the folder given as ``argument``: it is
    created if needed and held open while the function runs.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn_bench._io import write_text, writes_into
    >>> @writes_into("out")
    ... def save(out):
    ...     write_text(Path(out) / "a" / "b.txt", "held")
    >>> folder = Path(tempfile.mkdtemp())
    >>> save(folder / "new")
    >>> (folder / "new" / "a" / "b.txt").read_text()
    'held'
    """

    def decorate(func):
        signature = inspect.signature(func)

        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            try:
                path = signature.bind(*args, **kwargs).arguments.get(argument)
            except TypeError:
                path = None
            if not isinstance(path, str | os.PathLike):
                return func(*args, **kwargs)  # the function names the bad value
            with _holding(path):
                return func(*args, **kwargs)

        return wrapper

    return decorate


def _parent_of(path):
    """``path``'s folder held open (from the innermost held folder it lies below,
    else as named), its name and whether it must be new."""
    path = Path(path)
    held = _held_for(path)
    if held is None:
        return Folder.open(path.parent), path.name, False
    folder, rel, new = held
    if not rel.parts:
        raise UnsafePathError(f"refusing to write {path}: it is a folder.")
    return folder.child(rel.parent, create=True), rel.name, new


def open_for_write(path, mode="w", *, encoding="utf-8", newline=None):
    """Open ``path`` for writing (``"w"`` or ``"wb"``) without following a link at
    any step: from the innermost held folder it lies below (making the folders
    between), else from its own folder; see :meth:`Folder.open_file`.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> with Folder.open(root) as folder, held(folder):
    ...     with open_for_write(root / "tables" / "a.csv") as f:  # new: fine
    ...         _ = f.write("a,b\\n")
    ...     os.symlink(tempfile.gettempdir(), root / "figures")
    ...     open_for_write(root / "figures" / "cd.png")
    Traceback (most recent call last):
    ...
    sklearn_bench._io.UnsafePathError: refusing to write ...: the folder ... is a ...
    """
    folder, name, new = _parent_of(path)
    with folder:
        return folder.open_file(name, mode, new=new, encoding=encoding, newline=newline)


def make_folder(path):
    """Make the folder ``path`` (and its parents below a held folder), never
    through a link."""
    held = _held_for(path)
    if held is None:
        Folder.open(path, create=True).close()
    else:
        held[0].child(held[1], create=True).close()


def remove_file(path):
    """Delete the file ``path`` if it exists (a link is deleted, not followed)."""
    folder, name, _ = _parent_of(path)
    with folder:
        folder.unlink(name)


def write_text(path, text, *, encoding="utf-8"):
    """Write ``text`` to ``path`` (see :func:`open_for_write`)."""
    with open_for_write(path, "w", encoding=encoding) as f:
        f.write(text)


def write_bytes(path, data):
    """Write ``data`` to ``path`` (see :func:`open_for_write`)."""
    with open_for_write(path, "wb") as f:
        f.write(data)


def escape_cell(value):
    """A text cell as spreadsheets read it as text: one leading apostrophe on a
    string starting with ``=``, ``+``, ``-``, ``@``, tab, carriage return or an
    apostrophe (so that :func:`unescape_cell` is exact); other values unchanged.

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
            # each distinct value once: a column repeats a few names
            codes, uniques = pd.factorize(s)
            mapped = [func(v) for v in uniques]
            if mapped != list(uniques):  # (an Arrow string is a new str each read)
                s = s.where(codes < 0, np.array(mapped, dtype=object)[codes])
            out[col] = s
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


def write_csv(frame, path, **to_csv_kwargs):
    """``frame.to_csv(path)`` with text cells escaped and no link followed; a text
    holding a carriage return makes the lines end in ``\\r\\n``, so that it is
    quoted and read back whole."""
    if not isinstance(frame, pd.DataFrame | pd.Series):
        raise TypeError(f"`frame` must be a DataFrame; got {type(frame).__name__}.")
    if isinstance(frame, pd.Series):
        frame = frame.to_frame()
    carriage_return = False

    def escape(value):
        nonlocal carriage_return
        carriage_return |= isinstance(value, str) and "\r" in value
        return escape_cell(value)

    frame = _map_frame(frame, escape)
    to_csv_kwargs.setdefault("lineterminator", "\r\n" if carriage_return else "\n")
    with open_for_write(path, "w", newline="") as f:
        frame.to_csv(f, **to_csv_kwargs)


def refuse_links_below(root):
    """Refuse (:class:`UnsafePathError`) an output folder (a path, which may be a
    link the user made, or a :class:`Folder`) with a symbolic link anywhere below
    it, which would send the writes or ``--force``'s deletions where it points.

    Examples
    --------
    >>> import os, tempfile
    >>> from pathlib import Path
    >>> root = Path(tempfile.mkdtemp())
    >>> (root / "tables").mkdir()
    >>> os.symlink(root / "elsewhere.csv", root / "tables" / "pairs.csv")
    >>> refuse_links_below(root)  # any link below, even one to nothing
    Traceback (most recent call last):
    ...
    sklearn_bench._io.UnsafePathError: refusing to write into ...: ... symbolic link...
    """
    if isinstance(root, Folder):
        folder, root = root.child("."), root.path
    else:
        root = Path(root)
        held = _held_for(root)
        if held is None and not os.path.lexists(root):
            return
        folder = held[0].child(held[1]) if held else Folder.open(root)
    with folder:
        link = folder.links()
    if link is not None:
        path = root / link
        what = f"{path} is a symbolic link"
        raise _unsafe(f"into {root}", what, path, lambda: os.readlink(path))


_LOCK_NAME = ".sklearn_bench.lock"


def _lock_holder(folder, name):
    """``"pid N, since T"`` as the lock file says, or ``None``."""
    return (folder.read_text(name, 200) or "").strip() or None


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
    """Hold the exclusive write lock of ``folder`` (a path or a :class:`Folder`)
    for the ``with`` block: ``fcntl.flock`` on the file ``name`` (``O_NOFOLLOW``;
    the kernel releases it when the process ends, even killed), removed when the
    block ends. A second writer gets :class:`FolderLockedError` at once. Without
    ``fcntl`` (Windows) the file is made with ``O_EXCL`` and one left by a killed
    process must be deleted by hand.

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
    """
    with contextlib.ExitStack() as stack:
        if not isinstance(folder, Folder):
            folder = stack.enter_context(Folder.open(folder))
        path = folder.path / name
        try:
            import fcntl
        except ImportError:  # pragma: no cover - Windows
            fcntl = None
        st = folder.lstat(name)
        if fcntl is None and st is not None:  # pragma: no cover - Windows
            raise FolderLockedError(
                _locked_message(folder.path, path, _lock_holder(folder, name))
            )
        if st is not None and (st.st_nlink > 1 or not stat.S_ISREG(st.st_mode)):
            stamp = ", at whose other names the lock's stamp would write"
            raise _unsafe(
                f"the lock {path}", f"it is {_kind(st)}"
                f"{stamp if stat.S_ISREG(st.st_mode) else ''}; sklearn-bench "
                "writes its lock only into a file of its own. Delete it, or "
                "choose another output folder",
            )  # fmt: skip
        at, dir_fd = folder._at(name)
        flags = os.O_RDWR | os.O_CREAT | os.O_NONBLOCK | _NOFOLLOW | _CLOEXEC
        if fcntl is None:  # pragma: no cover - Windows
            flags |= os.O_EXCL
        fd = os.open(at, flags, 0o644, dir_fd=dir_fd)
        try:
            same = True
            own = os.fstat(fd)
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                # The holder before us may have removed the file between our
                # open and our lock: then we hold a lock on a file no one sees.
                now = folder.lstat(name)
                same = now is not None and now.st_ino == own.st_ino
        except BlockingIOError:
            same = False
        if not same or own.st_nlink > 1 or not stat.S_ISREG(own.st_mode):
            os.close(fd)
            raise FolderLockedError(
                _locked_message(folder.path, path, _lock_holder(folder, name))
            )
        try:
            os.ftruncate(fd, 0)
            stamp = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
            os.write(fd, f"pid {os.getpid()}, since {stamp}".encode())
            yield path
        finally:
            folder.unlink(name)  # while still held: no one can take a stale file
            os.close(fd)
