"""A store that never leaves the user stuck: integrity checks, salvage, checkpoint.

A store is one SQLite file in WAL mode. Committed tasks sit in the ``-wal`` file
beside it until SQLite checkpoints them into the main file (every ~40 MB of
commits and when the run ends), so **a store copied without its ``-wal`` file
loses the tasks committed since the last checkpoint**; :func:`checkpoint_store`
(``sklearn-bench store checkpoint STORE``) makes it one self-contained file first.

A store damaged on disk (truncated, pages overwritten) is detected when it is
opened, by SQLite's own ``PRAGMA quick_check``, and refused with a
:class:`CorruptStoreError` naming the file and the way out:
:func:`salvage_store` (``sklearn-bench store salvage STORE NEW``) copies every
committed task that can still be read into a new store, which a ``fit`` with the
same configuration then resumes (only the lost tasks rerun); or
``fit(..., overwrite=True)`` replaces it.
"""

import json
import os
import sqlite3
import warnings
from dataclasses import dataclass, field
from pathlib import Path

__all__ = ["CorruptStoreError", "SalvageReport", "checkpoint_store", "salvage_store"]


class CorruptStoreError(ValueError):
    """A store whose SQLite file is damaged; the message names it and the way out."""


def _is_corruption(exc):
    """SQLite's "malformed" / "not a database": a plain ``DatabaseError``.

    Its subclass ``OperationalError`` is a lock, a full disk, a missing folder:
    not damage to the file.
    """
    return type(exc) is sqlite3.DatabaseError


def corrupt_store_error(path, detail):
    """The :class:`CorruptStoreError` of a store, saying what can be done."""
    detail = " ".join(str(detail).split())
    if len(detail) > 200:
        detail = detail[:200] + " ..."
    return CorruptStoreError(
        f"The store {str(path)!r} is corrupt (SQLite: {detail}). Its committed "
        "tasks that can still be read can be salvaged into a new store with "
        f"`sklearn-bench store salvage {path} NEW.sqlite` (or "
        "sklearn_bench.results.salvage_store); fitting the same experiment on the "
        "new store reruns only the lost tasks. Or pass `overwrite=True` to replace "
        "it (every task reruns). A store copied without its '-wal' file loses the "
        "tasks committed since the last checkpoint."
    )


def check_integrity(conn, path):
    """Run SQLite's ``PRAGMA quick_check`` on an open store.

    ``quick_check`` reads every page once (a few ms per MB) and checks the
    b-trees, without the index cross-check of ``integrity_check``.

    Raises
    ------
    CorruptStoreError
        The check fails or the file cannot be read.
    """
    try:
        rows = conn.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:
        if not _is_corruption(exc):
            raise
        raise corrupt_store_error(path, exc) from exc
    if rows != [("ok",)]:
        raise corrupt_store_error(path, "; ".join(str(r[0]) for r in rows[:3]))


def _padded_copy(path, folder):
    """A copy of the store whose missing pages are filled with 0xFF bytes.

    A truncated file still counts its lost pages in its header (bytes 28-31), and
    SQLite refuses it whole. In the padded copy those pages exist but read as
    invalid: a b-tree page of 0xFF is corrupt, a text of 0xFF is not UTF-8, and a
    blob of 0xFF has negative row numbers (see :func:`_whole_predictions`), so a
    row that lived on a lost page is never read back as data.
    """
    import shutil

    copy = Path(folder) / "store.sqlite"
    shutil.copyfile(path, copy)
    wal = Path(f"{path}-wal")
    if wal.is_file():
        shutil.copyfile(wal, Path(f"{copy}-wal"))
    with open(copy, "r+b") as file:
        header = file.read(100)
        size = file.seek(0, 2)
        if len(header) == 100:
            page_size = int.from_bytes(header[16:18], "big")
            page_size = 65536 if page_size == 1 else page_size
            n_pages = int.from_bytes(header[28:32], "big")
            missing = max(n_pages * page_size - size, (-size) % page_size)
            if 0 < missing < 2**31:
                file.write(b"\xff" * missing)
    return copy


def _connect_for_salvage(path):
    """A read-only connection that never writes to (or checkpoints) the file."""
    try:
        conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
        conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.DatabaseError as exc:
        raise CorruptStoreError(
            f"`path`: the store {str(path)!r} is damaged beyond salvage: its schema "
            f"cannot be read (SQLite: {exc}). Pass `overwrite=True` to "
            "replace it."
        ) from exc


@dataclass(frozen=True)
class SalvageReport:
    """What :func:`salvage_store` copied.

    Attributes
    ----------
    source, target : str
        The damaged store and the new one.
    n_tasks : int
        Tasks of the run.
    n_committed : int
        Tasks committed in the damaged store that could be read and checked.
    n_lost : int
        Tasks that had rows in the damaged store but could not be read; they
        rerun when the experiment is fitted on the new store.
    lost : list of (dataset, split, learner)
        The lost tasks (at most the first 20).
    """

    source: str
    target: str
    n_tasks: int
    n_committed: int
    n_lost: int
    lost: list = field(default_factory=list, repr=False)

    def __str__(self):
        return (
            f"Salvaged {self.n_committed} committed task(s) of {self.n_tasks} from "
            f"{self.source!r} into {self.target!r}; {self.n_lost} unreadable "
            "task(s) lost (they rerun when the experiment is fitted on the new "
            f"store); {self.n_tasks - self.n_committed} task(s) to run in all."
        )


def _read_salvageable(conn, path):
    """Meta, tasks, and the readable (score rows, prediction row) of each task."""
    from ._store import _FORMAT

    try:
        meta = dict(conn.execute("SELECT key, value FROM meta"))
        tasks = conn.execute("SELECT * FROM tasks ORDER BY ordinal").fetchall()
    except sqlite3.DatabaseError as exc:
        raise CorruptStoreError(
            f"`path`: the store {str(path)!r} is damaged beyond salvage: its "
            "configuration "
            f"and task list cannot be read (SQLite: {exc}). Pass `overwrite=True` "
            "to replace it."
        ) from exc
    if meta.get("format") != _FORMAT:
        raise ValueError(f"`path`: {str(path)!r} is not a sklearn_bench store.")
    n_metrics = len(json.loads(meta["result"])["metrics"])
    keep_predictions = json.loads(meta["keep_predictions"])
    try:
        with_rows = {o for (o,) in conn.execute("SELECT DISTINCT ordinal FROM scores")}
    except sqlite3.DatabaseError:
        with_rows = {t[0] for t in tasks}  # probe every task
    good, lost = {}, []
    for task in tasks:
        ordinal = task[0]
        if ordinal not in with_rows:
            continue
        try:
            rows = conn.execute(
                "SELECT * FROM scores WHERE ordinal = ? ORDER BY metric_index",
                (ordinal,),
            ).fetchall()
            pred = None
            if keep_predictions:
                pred = conn.execute(
                    "SELECT * FROM predictions WHERE ordinal = ?", (ordinal,)
                ).fetchone()
        except sqlite3.DatabaseError:
            lost.append(task)
            continue
        if not rows:  # not run, as far as the readable pages tell
            continue
        # The rows must be whole and belong to their task: (dataset, learner,
        # split, replicate, fold) as in the task list, one row per metric; a
        # task that did not fail must have its kept predictions.
        ok = len(rows) == n_metrics and all(
            (r[2], r[3], r[4], r[5], r[6]) == (task[1], task[5], *task[2:5])
            for r in rows
        )
        failed = any(r[13] for r in rows)  # error_type
        if keep_predictions and pred is None and not failed:
            ok = False
        if pred is not None and not _whole_predictions(pred):
            ok = False
        if ok:
            good[ordinal] = (rows, pred)
        else:
            lost.append(task)
    return meta, tasks, good, lost


def _whole_predictions(pred):
    """A predictions row whose arrays have the stored length ``n``."""
    import numpy as np

    _, n, rows, correct, y_pred = pred
    if not isinstance(rows, bytes) or len(rows) != 8 * n:
        return False
    if (np.frombuffer(rows, dtype="<i8") < 0).any():  # 0xFF: a lost page
        return False
    if correct is not None:
        return (
            isinstance(correct, bytes)
            and len(correct) == n
            and (np.frombuffer(correct, dtype="u1") <= 1).all()
        )
    if not isinstance(y_pred, bytes) or len(y_pred) != 8 * n:
        return False
    return not (np.frombuffer(y_pred, dtype="<u8") == 2**64 - 1).any()


def read_salvageable(path):
    """What :func:`salvage_store` would copy: ``meta, tasks, good, lost``.

    ``good`` maps the ordinal of each readable committed task to its score rows
    and predictions row; ``lost`` lists the task rows that could not be read.
    """
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        conn = _connect_for_salvage(_padded_copy(path, folder))
        try:
            return _read_salvageable(conn, path)
        finally:
            conn.close()


def _store_path(path, name):
    """``path`` as a Path to an existing, non-empty SQLite file, naming ``name``."""
    from ._store import _check_file

    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"`{name}` must be a file path; got {path!r}.")
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"`{name}`: no store at {str(path)!r}.")
    try:
        _check_file(path)
    except ValueError as exc:
        raise ValueError(f"`{name}`: {exc}") from None
    if path.stat().st_size == 0:
        raise ValueError(f"`{name}`: the store {str(path)!r} is empty (no run).")
    return path


def salvage_store(path, new_path):
    """Copy the committed tasks of a damaged store that can still be read.

    Each task is read on its own, so a damaged page loses only the tasks whose
    rows sit on it; a task is kept only when all its score rows (and its kept
    predictions) read back and match the task list. The new store has the
    configuration of the old one, so fitting the same experiment on it resumes
    the run: only the lost and the never-run tasks run.

    Parameters
    ----------
    path : str or path-like
        The damaged store (left untouched).
    new_path : str or path-like
        The new store; must not exist yet.

    Returns
    -------
    SalvageReport

    Raises
    ------
    CorruptStoreError
        Not even the configuration and task list can be read.
    ValueError
        ``new_path`` exists, or ``path`` is not a store.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.results import salvage_store
    >>> folder = Path(tempfile.mkdtemp())
    >>> exp = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...                           progress=False, store=folder / "run.sqlite")
    >>> _ = exp.fit({"iris": load_iris(return_X_y=True)})
    >>> print(salvage_store(folder / "run.sqlite", folder / "new.sqlite"))
    Salvaged 3 committed task(s) of 3 from '...run.sqlite' into '...new.sqlite'; 0
    unreadable task(s) lost (...); 0 task(s) to run in all.
    """
    from ..experiment._tasks import Task
    from ._store import StoreWriter

    path = _store_path(path, "path")
    if not isinstance(new_path, str | os.PathLike):
        raise TypeError(f"`new_path` must be a file path; got {new_path!r}.")
    new_path = Path(new_path)
    if new_path.exists():
        raise ValueError(
            f"`new_path` {str(new_path)!r} exists; salvage writes a new store."
        )
    meta, tasks, good, lost = read_salvageable(path)
    writer = StoreWriter(new_path)
    try:
        writer.start(
            json.loads(meta["config"]),
            [Task(t[1], t[2], t[3], t[4], t[5]) for t in tasks],
            json.loads(meta["result"]),
            keep_predictions=json.loads(meta["keep_predictions"]),
        )
        n_columns = len(next(iter(good.values()))[0][0]) if good else 0
        for rows, pred in good.values():
            writer.conn.executemany(
                f"INSERT INTO scores VALUES ({', '.join('?' * n_columns)})", rows
            )
            if pred is not None:
                writer.conn.execute(
                    "INSERT INTO predictions VALUES (?, ?, ?, ?, ?)", pred
                )
        writer._commit()
    finally:
        writer.close()
    return SalvageReport(
        source=str(path),
        target=str(new_path),
        n_tasks=len(tasks),
        n_committed=len(good),
        n_lost=len(lost),
        lost=[(t[1], t[2], t[5]) for t in lost[:20]],
    )


def checkpoint_store(path):
    """Copy a store's ``-wal`` file into the store, so the store is one file.

    Tasks are committed to the ``-wal`` file beside the store and copied into
    the store by SQLite's checkpoints; a copy of the store alone loses those not
    yet copied. After this, the store file holds every committed task (the
    ``-wal`` file is emptied and removed) and can be copied on its own.

    Parameters
    ----------
    path : str or path-like
        A store no experiment is writing to.

    Returns
    -------
    n_frames : int
        Frames (page versions) the ``-wal`` file held (0 when it was empty).

    Raises
    ------
    RuntimeError
        A running experiment (or another connection) is using the store.
    CorruptStoreError
        The store is damaged (salvage it instead).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.results import checkpoint_store
    >>> store = Path(tempfile.mkdtemp()) / "run.sqlite"
    >>> exp = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...                           progress=False, store=store)
    >>> _ = exp.fit({"iris": load_iris(return_X_y=True)})
    >>> checkpoint_store(store) >= 0, Path(f"{store}-wal").exists()
    (True, False)
    """
    from ._store import _LOCK_TIMEOUT

    path = _store_path(path, "path")
    wal = Path(f"{path}-wal")
    wal_size = wal.stat().st_size if wal.is_file() else 0
    conn = sqlite3.connect(path, timeout=_LOCK_TIMEOUT, isolation_level=None)
    try:
        check_integrity(conn, path)
        (page_size,) = conn.execute("PRAGMA page_size").fetchone()
        (busy, _, _) = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
    except sqlite3.OperationalError as exc:
        raise RuntimeError(
            f"The store {str(path)!r} is in use by a running experiment or another "
            f"connection ({exc}); checkpoint it when the run has finished."
        ) from exc
    finally:
        conn.close()
    if busy:
        raise RuntimeError(
            f"The store {str(path)!r} is in use by a running experiment or another "
            "connection; checkpoint it when the run has finished."
        )
    # A WAL file is a 32-byte header and frames of a 24-byte header and a page.
    return max(wal_size - 32, 0) // (page_size + 24)


def open_writer(path, *, overwrite):
    """A :class:`StoreWriter`; with ``overwrite``, a corrupt store is replaced."""
    from ._store import StoreWriter

    try:
        return StoreWriter(path)
    except CorruptStoreError:
        if not overwrite:
            raise
        path = Path(path)
        for part in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            part.unlink(missing_ok=True)
        warnings.warn(
            f"The corrupt store {str(path)!r} was deleted and replaced by a new "
            "store (overwrite=True).",
            UserWarning,
            stacklevel=3,
        )
        return StoreWriter(path)
