"""Merge: the stores of one study, run on several machines, combined into one."""

import json
import os
import sqlite3
from pathlib import Path

from ._files import (
    _LOCK_TIMEOUT,
    _MERGING,
    _check_file,
    _read_only,
    _refuse_link,
    _remove_store_files,
    _work_path,
)
from ._reader import _open_reader, _read_verified, _snapshot
from ._schema import (
    _COMPARED,
    _TASK_COLUMNS,
    Task,
    corrupt_store_error,
    task_tables,
)
from ._writer import StoreWriter


def merge_stores(sources, target):
    """Combine the stores of one study, run on several machines, into one store.

    Each source is checked like a run that grows ``target`` and its committed
    tasks are copied, nothing refitted; a task stored in several stores with
    other scores is a ``ValueError`` naming it (see :ref:`large_studies`).

    Parameters
    ----------
    sources : list of str or Path
        The stores to copy from (read only).
    target : str or Path
        The store to write: created if missing, grown if it exists.

    Returns
    -------
    n_copied : int
        The number of tasks copied into ``target``.

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import merge_stores
    >>> folder = Path(tempfile.mkdtemp())
    >>> for name, learner in [("nb", GaussianNB()), ("tree", DecisionTreeClassifier())]:
    ...     _ = BenchmarkExperiment({name: learner}, cv=3, random_state=0,
    ...         store=folder / f"{name}.sqlite", progress=False,
    ...     ).fit(*load_iris(return_X_y=True))
    >>> merge_stores([folder / "nb.sqlite", folder / "tree.sqlite"],
    ...              folder / "study.sqlite")
    6
    """
    if not isinstance(sources, list | tuple) or not all(
        isinstance(source, str | os.PathLike) for source in sources
    ):
        raise TypeError(f"`sources` must be a list of store paths; got {sources!r}.")
    if not isinstance(target, str | os.PathLike):
        raise TypeError(f"`target` must be a store path; got {target!r}.")
    target = Path(target)
    _refuse_link(target)
    for source in sources:
        if Path(source).resolve() == target.resolve():
            raise ValueError(f"The store {str(source)!r} is also the target.")
    # All or nothing: merge into a copy beside the target and put it in place
    # with one atomic rename, so that a refused source, an error or a kill
    # midway leaves the target exactly as it was.
    work = _work_path(target, _MERGING)
    try:
        if target.exists() and target.stat().st_size > 0:
            _check_file(target)
            _open_reader(target)[0].close()  # a corrupt target is named as such
            src = _read_only(target, timeout=_LOCK_TIMEOUT)
            dst = sqlite3.connect(work)
            try:
                src.backup(dst)  # the target with its committed -wal content
            finally:
                src.close()
                dst.close()
        try:
            n_copied = _merge_into(sources, work, shown=target)
        except ValueError as exc:  # name the target, never the working copy
            raise type(exc)(str(exc).replace(str(work), str(target))) from None
        os.replace(work, target)
        for suffix in ("-wal", "-shm"):  # the old target's, now stale
            Path(f"{target}{suffix}").unlink(missing_ok=True)
    finally:
        _remove_store_files(work)
    return n_copied


def _same_rows(a, b):
    """Whether two tasks' score rows agree bit for bit (times aside)."""

    def key(row):  # the value (at 2) by its bits
        return (*row[:2], None if row[2] is None else float(row[2]).hex(), *row[3:])

    return [key(r) for r in a] == [key(r) for r in b]


def _read_source(source):
    """``(meta, task rows, {ordinal: {table: rows}}, {ordinal: checksum})`` of a
    source, every checksum verified (merge never makes one)."""
    with _snapshot(source) as (conn, meta):
        # every checksum and value verified, the task list and seal too
        failed = _read_verified(conn, source, meta)[-1]
        task_rows = conn.execute(
            f"SELECT {_TASK_COLUMNS} FROM tasks ORDER BY ordinal"
        ).fetchall()
        tables = {}
        for name, (at, key) in task_tables().items():
            for row in conn.execute(f"SELECT * FROM {name} ORDER BY ordinal, {key}"):
                tables.setdefault(row[at], {}).setdefault(name, []).append(row)
        digests = dict(conn.execute("SELECT * FROM checksums"))
    if failed:
        d, s, m = failed[0]
        what = f"task {s}" if d == "?" else f"learner {m!r} on data set {d!r} split {s}"
        raise corrupt_store_error(
            source, f"the checksum of {what} does not match its rows"
        )
    committed = {o: t for o, t in tables.items() if t.get("scores")}
    return meta, task_rows, committed, digests


def _check_conflicts(writer, rows_of, source_id, source, shown):
    """Refuse a source with a task stored with other scores in the target."""
    if not writer.meta:
        return
    stored = {
        (d, s, m): o
        for o, d, s, m in writer.conn.execute(
            "SELECT ordinal, dataset, split, learner FROM tasks"
        )
    }
    for ordinal, own in rows_of.items():
        there = stored.get(source_id[ordinal])
        if there is None:
            continue
        theirs = writer.conn.execute(
            f"SELECT {_COMPARED} FROM scores WHERE ordinal = ? ORDER BY metric_index",
            (there,),
        ).fetchall()
        mine = [(r[1], r[7], r[8], r[11], r[12], r[13]) for r in own]
        if theirs and not _same_rows(theirs, mine):
            d, s, m = source_id[ordinal]
            raise ValueError(
                f"Conflicting duplicate: learner {m!r} on data set {d!r} "
                f"split {s} has other scores in {str(source)!r} than in "
                f"{str(shown)!r}; the stores are not of one study. "
                "Nothing of this source was copied."
            )


def _merge_into(sources, target, *, shown):
    """Copy the committed tasks of ``sources`` into ``target`` (named ``shown``)."""
    writer = StoreWriter(target, _work=True)
    n_copied = 0
    try:
        for source in sources:
            if Path(source).resolve() == Path(target).resolve():
                raise ValueError(f"The store {str(source)!r} is also the target.")
            meta, task_rows, committed, digests = _read_source(source)
            source_id = {o: (d, s, m) for o, d, s, _, _, m in task_rows}
            # Conflicts first, so that a refused source changes nothing.
            rows_of = {o: tables["scores"] for o, tables in committed.items()}
            _check_conflicts(writer, rows_of, source_id, source, shown)
            done = writer.start(
                json.loads(meta["config"]),
                [Task(*row[1:]) for row in task_rows],
                json.loads(meta["result"]),
                keep_predictions=json.loads(meta["keep_predictions"]),
            )
            n_copied += writer.copy_tasks(
                (writer.ordinals[source_id[o]], tables, digests[o])
                for o, tables in committed.items()
                if source_id[o] not in done
            )
    finally:
        writer.close()
    return n_copied
