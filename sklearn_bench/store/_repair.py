"""Checkpoint a store into one file; salvage what a damaged one can prove intact
(docs/cli.rst)."""

import contextlib
import json
import os
import shutil
import sqlite3
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from ._files import (
    _LOCK_TIMEOUT,
    _SALVAGING,
    _as_path,
    _check_wal,
    _refuse_link,
    _remove_store_files,
    _store_path,
    _work_path,
)
from ._integrity import RunFacts, _is_int, consensus, read_rows, task_digest
from ._schema import (
    _FORMAT,
    _TABLES,
    CorruptStoreError,
    NotAStoreError,
    Task,
    _check_directions,
    _connect,
    _foreign_objects,
    _refuse_foreign,
    check_integrity,
    check_version,
    settings_digest,
)
from ._wal import reseal_wal, wal_damage
from ._writer import StoreWriter


def _padded_copy(path, folder):
    """A copy of the store whose missing pages are 0xFF bytes, which SQLite
    reads as invalid instead of refusing the whole file."""
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


@dataclass(frozen=True)
class SalvageReport:
    """What :func:`salvage_store` copied.

    Attributes
    ----------
    source, target : str
        The damaged store and the new one.
    n_tasks : int
        Tasks of the run registered in the new store.
    n_committed : int
        Tasks committed in the damaged store that were read, checked and kept.
    n_lost : int
        Tasks with rows in the damaged store that could not be read or did not
        pass the checks (they rerun on the new store).
    lost : list of (dataset, split, learner)
        The lost tasks (at most the first 20).
    reasons : dict of str to int
        Why tasks were dropped, with counts.
    """

    source: str
    target: str
    n_tasks: int
    n_committed: int
    n_lost: int
    lost: list = field(default_factory=list, repr=False)
    reasons: dict = field(default_factory=dict, repr=False)

    def __str__(self):
        text = (
            f"Salvaged {self.n_committed} committed task(s) of {self.n_tasks} from "
            f"{self.source!r} into {self.target!r}; {self.n_lost} unreadable "
            "or unverifiable task(s) dropped (they rerun when the experiment is "
            f"fitted on the new store); {self.n_tasks - self.n_committed} task(s) "
            "to run in all."
        )
        if self.reasons:
            shown = sorted(self.reasons.items(), key=lambda kv: -kv[1])[:5]
            text += " Dropped: " + "; ".join(f"{n} x {why}" for why, n in shown) + "."
        return text


@dataclass
class Salvageable:
    """What a damaged store still holds that can be proven intact."""

    meta: dict
    tasks: list  # task rows to register (valid ones), by ordinal
    good: dict  # ordinal -> (task row, {table: rows}, checksum)
    lost: list  # task rows with rows that were dropped
    reasons: dict  # why -> count


@contextlib.contextmanager
def _beyond_salvage(path, what, errors=sqlite3.DatabaseError):
    """Turn ``errors`` reading the store's ``what`` into a CorruptStoreError."""
    try:
        yield
    except (NotAStoreError, CorruptStoreError):
        raise
    except errors as exc:
        source = "SQLite" if isinstance(exc, sqlite3.Error) else type(exc).__name__
        raise CorruptStoreError(
            f"`path`: the store {str(path)!r} is damaged beyond salvage: its {what} "
            f"cannot be read ({source}: {exc}). Run the experiment afresh on a new "
            "store."
        ) from exc


def _read_salvageable(conn, path):
    """The task rows and committed tasks of a store that can be proven intact."""
    with _beyond_salvage(path, "schema"):
        objects = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"
        ).fetchall()
    foreign = _foreign_objects(objects)
    if foreign:  # its own SQL would run as its rows are read
        _refuse_foreign(path, foreign)
    with _beyond_salvage(path, "configuration"):
        meta = dict(conn.execute("SELECT key, value FROM meta"))
    if meta.get("format") != _FORMAT:
        raise NotAStoreError(f"`path`: {str(path)!r} is not a sklearn_bench store.")
    with _beyond_salvage(path, "schema version", (TypeError, ValueError)):
        version = int(meta.get("schema_version"))
    check_version(version, path)  # a newer one is never down-converted
    tables = {name for kind, name, _, _ in objects if kind == "table"}
    if not set(_TABLES) <= tables:
        raise NotAStoreError(
            f"`path`: the store {str(path)!r} has no table "
            f"{', '.join(sorted(set(_TABLES) - tables))}: its values cannot be "
            "verified, so none is salvaged. Run the experiment afresh."
        )
    unreadable = (KeyError, TypeError, ValueError, AttributeError, RecursionError)
    with _beyond_salvage(path, "settings", (*unreadable, sqlite3.DatabaseError)):
        if meta.get("digest") != settings_digest(conn):
            raise CorruptStoreError(
                f"`path`: the store {str(path)!r} is damaged beyond salvage: its "
                "settings (the metrics and their directions, the configuration) "
                "do not match their checksum (changed or damaged after they were "
                "written), so nothing of it can be proven. Run the experiment "
                "afresh on a new store."
            )
        facts = RunFacts(meta)
        _check_directions(json.loads(meta["result"])["metrics"], path)
    with _beyond_salvage(path, "task list"):
        try:
            rows = conn.execute("SELECT * FROM tasks ORDER BY ordinal").fetchall()
        except sqlite3.DatabaseError:
            # A lost page of the task list: look each task up on its own (its
            # ordinal is below the number of tasks the run's configuration makes).
            rows = _probe_tasks(conn, facts)
            if not rows:
                raise
    reasons = Counter()  # why tasks were dropped
    # Task rows: of this run, and the replicate and fold of a split the same
    # for every learner (a strict majority decides).
    problems = [(t, facts.task_problem(t)) for t in rows]
    bad = {t[0] if t and _is_int(t[0]) else id(t): (t, p) for t, p in problems if p}
    valid = [t for t, p in problems if not p]
    groups = {}
    for t in valid:
        groups.setdefault((t[1], t[2]), {})[t[0]] = (t[3], t[4])
    for ordinal in consensus(groups):
        t = next(t for t in valid if t[0] == ordinal)
        bad[ordinal] = (t, "a replicate or fold that differs from other learners'")
    tasks = [t for t in valid if t[0] not in bad]
    try:
        with_rows = {o for (o,) in conn.execute("SELECT DISTINCT ordinal FROM scores")}
    except sqlite3.DatabaseError:
        with_rows = {t[0] for t in rows if _is_int(t[0])}  # probe every task
    dropped = [(t, why) for o, (t, why) in bad.items() if o in with_rows]
    lost = [t for t, _ in dropped]
    reasons.update(f"task row with {why}" for _, why in dropped)
    good = {}
    for task in tasks:
        ordinal = task[0]
        if ordinal not in with_rows:
            continue
        try:
            own = read_rows(conn, ordinal)
            digest = conn.execute(
                "SELECT digest FROM checksums WHERE ordinal = ?", (ordinal,)
            ).fetchone()
        except (sqlite3.DatabaseError, ValueError, OverflowError):
            lost.append(task)
            reasons["rows that SQLite cannot read"] += 1
            continue
        if not own["scores"]:  # not run, as far as the readable pages tell
            continue
        if digest is None:
            problem = "no checksum"
        elif digest[0] != task_digest(task, own):
            problem = "a checksum that differs"
        else:
            problem = facts.rows_problem(task, own)
            if problem is None and own["predictions"] and not facts.keep_predictions:
                problem = "kept predictions in a run that keeps none"
        if problem:
            lost.append(task)
            reasons[problem] += 1
        else:
            good[ordinal] = (task, own, digest[0])
    # Sizes: a split has the same n_train and n_test for every learner.
    groups = {}
    for ordinal, (task, own, _) in good.items():
        groups.setdefault((task[1], task[2]), {})[ordinal] = own["scores"][0][11:13]
    for ordinal in consensus(groups):
        lost.append(good.pop(ordinal)[0])
        reasons["sizes that differ from other learners' on the same split"] += 1
    lost.sort(key=lambda t: t[0] if _is_int(t[0]) else -1)
    return Salvageable(meta, tasks, good, lost, reasons)


def _probe_tasks(conn, facts):
    """The task rows that read, one lookup per ordinal."""
    n = sum(facts.splits.values()) * max(len(facts.learners), 1)
    n = max(n, len(facts.learners) * len(facts.datasets), 1)
    rows = []
    for ordinal in range(n):
        try:
            row = conn.execute(
                "SELECT * FROM tasks WHERE ordinal = ?", (ordinal,)
            ).fetchone()
        except (sqlite3.DatabaseError, ValueError, OverflowError):
            continue
        if row is not None:
            rows.append(row)
    return rows


def read_salvageable(path):
    """The :class:`Salvageable` that :func:`salvage_store` would copy (read-only)."""
    path = _store_path(path, "path")
    with tempfile.TemporaryDirectory() as folder:
        copy = _padded_copy(path, folder)
        if wal_damage(path):
            # SQLite would drop every frame after the damaged one, committed
            # tasks included: reseal the copy's frames so that they are read,
            # and let the checksums judge each task.
            reseal_wal(f"{copy}-wal")
        with _beyond_salvage(path, "schema"):
            conn = _connect(f"file:{Path(copy).resolve()}?mode=ro", uri=True)
        try:
            return _read_salvageable(conn, path)
        finally:
            conn.close()


def salvage_store(path, new_path):
    """Copy the committed tasks of a damaged store that can be proven intact.

    A task is kept only when its checksum matches and its rows pass the domain
    checks against the run's own metadata; every other task reruns when the same
    experiment is fitted on the new store. What is checked, and how a killed
    salvage is cleaned up, is in the user guide (docs/cli.rst).

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
        ``new_path`` exists, or ``path`` is not a store (or of a newer schema
        version: it is never down-converted).

    Examples
    --------
    >>> import tempfile
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import salvage_store
    >>> folder = tempfile.mkdtemp()
    >>> _ = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...     store=f"{folder}/run.sqlite", progress=False,
    ... ).fit(*load_iris(return_X_y=True))
    >>> print(salvage_store(f"{folder}/run.sqlite", f"{folder}/new.sqlite"))
    Salvaged 3 committed task(s) of 3 from '...run.sqlite' into '...new.sqlite'; 0
    unreadable or unverifiable task(s) dropped (...); 0 task(s) to run in all.
    """
    path = _store_path(path, "path")
    new_path = _as_path(new_path, "new_path")
    _refuse_link(new_path)
    if new_path.exists():
        raise ValueError(
            f"`new_path` {str(new_path)!r} exists; salvage writes a new store."
        )
    if not new_path.parent.is_dir():
        raise FileNotFoundError(
            f"`new_path`: the folder {str(new_path.parent)!r} does not exist."
        )
    found = read_salvageable(path)
    work = _work_path(new_path, _SALVAGING)
    try:
        writer = StoreWriter(work, _work=True)
        try:
            writer.start(
                json.loads(found.meta["config"]),
                [Task(t[1], t[2], t[3], t[4], t[5]) for t in found.tasks],
                json.loads(found.meta["result"]),
                keep_predictions=json.loads(found.meta["keep_predictions"]),
            )
            writer.copy_tasks(  # with the checksums verified, never new ones
                (writer.ordinals[task[1], task[2], task[5]], own, digest)
                for task, own, digest in found.good.values()
            )
        finally:
            writer.close()
        if new_path.exists():
            raise ValueError(
                f"`new_path` {str(new_path)!r} appeared while salvaging; the "
                "salvaged store was not put in its place."
            )
        os.replace(work, new_path)
    finally:
        _remove_store_files(work)
    return SalvageReport(
        source=str(path),
        target=str(new_path),
        n_tasks=len(found.tasks),
        n_committed=len(found.good),
        n_lost=len(found.lost),
        lost=[(t[1], t[2], t[5]) for t in found.lost[:20]],
        reasons=dict(found.reasons),
    )


def checkpoint_store(path):
    """Copy a store's ``-wal`` file into the store, so the store is one file.

    A copy of a store without its ``-wal`` file loses the tasks committed since
    the last checkpoint; after this, the store file can be copied on its own.

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
        The store is damaged, or its ``-wal`` file has committed frames beyond
        a bad checksum (salvage it instead).

    Examples
    --------
    >>> import tempfile
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import checkpoint_store
    >>> store = f"{tempfile.mkdtemp()}/run.sqlite"
    >>> _ = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...     store=store, progress=False).fit(*load_iris(return_X_y=True))
    >>> import os
    >>> checkpoint_store(store) >= 0, os.path.exists(f"{store}-wal")
    (True, False)
    """
    path = _store_path(path, "path")
    _refuse_link(path)
    _check_wal(path)  # a checkpoint would make the frames SQLite drops lost
    wal = Path(f"{path}-wal")
    wal_size = wal.stat().st_size if wal.is_file() else 0
    conn = _connect(path, timeout=_LOCK_TIMEOUT, isolation_level=None)
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
