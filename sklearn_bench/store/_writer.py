"""The driver's writer of a store: a task and its checksum in one transaction."""

import json
import sqlite3
import warnings
from pathlib import Path

import numpy as np

from ._digests import (
    TASK_DTYPE,
    TASKS_QUERY,
    check_sealed,
    records,
    seal,
    sealed_digest,
    task_list_matches,
)
from ._files import _LOCK_TIMEOUT, _as_path, _check_file, _check_wal, _refuse_link
from ._integrity import pack_losses, read_task, store_checksums, task_digest
from ._provenance import _refuse, _union_result, combine_configs
from ._schema import (
    _FORMAT,
    _INSERT_SCORES,
    _SCORE_FIELDS,
    _TABLES,
    SCHEMA_VERSION,
    CorruptStoreError,
    _check_meta,
    _checked,
    _connect,
    check_integrity,
    create_tables,
    task_tables,
)


class StoreWriter:
    """Opens, checks, locks (for the whole run) and commits tasks to a store."""

    def __init__(self, path, *, timeout=_LOCK_TIMEOUT, _work=False):
        self.path = _as_path(path)
        _refuse_link(self.path)  # before SQLite opens (and follows) it
        if not self.path.parent.is_dir():
            raise FileNotFoundError(
                f"The folder of the store {str(self.path)!r} does not exist."
            )
        _check_file(self.path, work=_work)
        _check_wal(self.path)  # before a connection that would checkpoint it
        new = not self.path.exists() or self.path.stat().st_size == 0
        self.conn = _connect(self.path, timeout=timeout, isolation_level=None)
        self.meta = _checked(self.conn, self.path, lambda conn: self._open(new))

    def _open(self, new):
        """Set the connection up, take the write lock, check; the meta dict."""
        if new:
            self.conn.execute("PRAGMA journal_mode=WAL")
        # Durable against a killed process (not power loss), no fsync per commit.
        self.conn.execute("PRAGMA synchronous=NORMAL")
        # Checkpoint (copy the WAL into the database, with an fsync) every
        # ~40 MB rather than every 4 MB of commits, and when the run ends.
        self.conn.execute("PRAGMA wal_autocheckpoint=10000")
        self._begin()
        if not new:
            check_integrity(self.conn, self.path)
        return _check_meta(self.conn, self.path)

    def _begin(self):
        try:
            self.conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if "locked" in str(exc) or "busy" in str(exc):
                raise RuntimeError(
                    f"The store {str(self.path)!r} is locked by another writer (a "
                    "running experiment or another connection); nothing was "
                    "written. Wait for it to finish or use another path."
                ) from exc
            raise

    def config(self):
        """The stored configuration, or ``None`` for a new store."""
        return json.loads(self.meta["config"]) if self.meta else None

    def start(self, config, tasks, result, *, keep_predictions, overwrite=False):
        """Register a run's tasks (their ordinals in ``self.ordinals``), growing a
        stored run (:func:`combine_configs`) unless ``overwrite``; return the ids of
        the committed tasks."""
        config = json.loads(json.dumps(config))  # as it will read back
        result = json.loads(json.dumps(result))
        ids = [(t.dataset, t.split, t.learner) for t in tasks]
        if self.meta and not overwrite:
            ordinals = self._grow(config, tasks, ids, result)
        else:
            for table in _TABLES:
                self.conn.execute(f"DROP TABLE IF EXISTS {table}")
            create_tables(self.conn)
            meta = {
                "format": _FORMAT,
                "schema_version": str(SCHEMA_VERSION),
                "config": json.dumps(config, sort_keys=True),
                "result": json.dumps(result),
                "keep_predictions": json.dumps(bool(keep_predictions)),
            }
            self.conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
            self._insert_tasks(0, tasks)
            ordinals = {key: i for i, key in enumerate(ids)}
        seal(self.conn)
        self._commit()
        self.meta = dict(self.conn.execute("SELECT key, value FROM meta"))
        self.ordinals = {key: ordinals[key] for key in ids}
        self._count_unsealed()
        return set(
            self.conn.execute(
                "SELECT dataset, split, learner FROM tasks WHERE ordinal IN "
                "(SELECT DISTINCT ordinal FROM scores)"
            )
        )

    def _grow(self, config, tasks, ids, result):
        """Append the tasks not stored yet and grow ``meta``; every task's ordinal."""
        if not task_list_matches(
            self.meta, records(self.conn.execute(TASKS_QUERY), TASK_DTYPE)
        ):
            raise CorruptStoreError(
                f"The store {str(self.path)!r} is corrupt: its task list does "
                "not match its checksum (changed after it was written); "
                "nothing was written. Run the experiment afresh on a new "
                "store (overwrite=True)."
            )
        check_sealed(self.conn, self.meta, self.path)
        union = combine_configs(self.config(), config, path=self.path)
        stored = {
            (d, s, m): (o, r, f)
            for o, d, s, r, f, m in self.conn.execute(
                "SELECT ordinal, dataset, split, replicate, fold, learner FROM tasks"
            )
        }
        for t, key in zip(tasks, ids, strict=True):
            known = stored.get(key)
            if known is not None and known[1:] != (t.replicate, t.fold):
                _refuse(
                    self.path,
                    f"the splits of data set {t.dataset!r} differ",
                    [
                        f"split {t.split}: replicate and fold {known[1:]} in the "
                        f"store, now {(t.replicate, t.fold)}"
                    ],
                )
        (top,) = self.conn.execute(
            "SELECT coalesce(max(ordinal), -1) FROM tasks"
        ).fetchone()
        new = [t for t, key in zip(tasks, ids, strict=True) if key not in stored]
        self._insert_tasks(top + 1, new)
        if new:  # the study grows: no longer finished
            self.conn.execute("DELETE FROM meta WHERE key = 'sealed'")
        grown = {
            "config": json.dumps(union, sort_keys=True),
            "result": json.dumps(
                _union_result(json.loads(self.meta["result"]), result)
            ),
            "schema_version": str(SCHEMA_VERSION),
        }
        self.conn.executemany(
            "UPDATE meta SET value = ? WHERE key = ?",
            [(v, k) for k, v in grown.items()],
        )
        return {key: value[0] for key, value in stored.items()} | {
            (t.dataset, t.split, t.learner): top + 1 + i for i, t in enumerate(new)
        }

    def _count_unsealed(self):
        """Count the tasks without a checksum (for :meth:`_seal_if_done`)."""
        (self._to_do,) = self.conn.execute(
            "SELECT (SELECT count(*) FROM tasks) - (SELECT count(*) FROM checksums)"
        ).fetchone()
        self._seal_if_done(0)
        self._commit()

    def _seal_if_done(self, n_done):
        """Seal the committed tasks once all are (``n_done`` more just now)."""
        self._to_do -= n_done
        if self._to_do == 0 and "sealed" not in self.meta:
            self.conn.execute(
                "INSERT OR REPLACE INTO meta VALUES ('sealed', ?)",
                (sealed_digest(self.conn),),
            )
            seal(self.conn, tasks=False)
            self.meta = dict(self.conn.execute("SELECT key, value FROM meta"))

    def _insert_tasks(self, first, tasks):
        """Register ``tasks`` under the ordinals ``first``, ``first + 1``, ..."""
        self.conn.executemany(
            "INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?)",
            [
                (first + i, t.dataset, int(t.split), int(t.replicate), int(t.fold),
                 t.learner)
                for i, t in enumerate(tasks)
            ],
        )  # fmt: skip

    def update_info(self, extra):
        """Merge ``extra`` (JSON-safe) into the stored result's ``info``; commit."""
        result = json.loads(self.meta["result"])
        result["info"] = {**result.get("info", {}), **extra}
        value = json.dumps(result)
        self.conn.execute("UPDATE meta SET value = ? WHERE key = 'result'", (value,))
        seal(self.conn, tasks=False)
        self._commit()
        self.meta = dict(self.conn.execute("SELECT key, value FROM meta"))

    def _commit(self):
        self.conn.execute("COMMIT")
        self._begin()  # keep the write lock between tasks

    def write(self, ordinal, out):
        """Commit one finished task (what ``run_tasks`` returned for it)."""
        self.write_many([(ordinal, out)])

    def write_many(self, items):
        """Commit ``(ordinal, out)`` tasks in one transaction: all or none."""
        for ordinal, out in items:
            self._insert(ordinal, out)
        store_checksums(self.conn, [ordinal for ordinal, _ in items])
        self._seal_if_done(len(items))
        self._commit()

    def _insert(self, ordinal, out):
        conn = self.conn
        try:
            conn.executemany(
                _INSERT_SCORES,
                [
                    (ordinal, i, *[_plain(row[key]) for key in _SCORE_FIELDS])
                    for i, row in enumerate(out["rows"])
                ],
            )
        except sqlite3.IntegrityError as exc:
            conn.execute("ROLLBACK")
            raise RuntimeError(
                f"Task {ordinal} of the store {str(self.path)!r} was already "
                "written; is another writer using it?"
            ) from exc
        pred = out.get("predictions")
        if pred is not None:
            rows = np.asarray(pred["rows"], dtype="<i8")
            correct = y_pred = None
            if "correct" in pred:
                correct = np.asarray(pred["correct"], dtype=bool).astype("u1")
                correct = correct.tobytes()
            else:
                y_pred = np.asarray(pred["y_pred"], dtype="<f8").tobytes()
            conn.execute(
                "INSERT INTO predictions VALUES (?, ?, ?, ?, ?)",
                (ordinal, len(rows), rows.tobytes(), correct, y_pred),
            )
        losses = out.get("losses")
        if losses is not None:
            conn.execute(
                "INSERT INTO losses VALUES (?, ?, ?, ?, ?)",
                (ordinal, *pack_losses(losses)),
            )

    def copy_tasks(self, tasks, *, meta=None):
        """Commit verified ``(ordinal, {table: rows}, checksum)`` tasks of another
        store with their checksums (checked again) in one transaction; how many."""
        conn, n_copied = self.conn, 0
        layout = task_tables()
        try:
            for ordinal, tables, digest in tasks:
                for name, rows in tables.items():
                    at = layout[name][0]
                    values = [(*r[:at], ordinal, *r[at + 1 :]) for r in rows]
                    if values:
                        marks = ", ".join("?" * len(values[0]))
                        conn.executemany(f"INSERT INTO {name} VALUES ({marks})", values)
                if task_digest(*read_task(conn, ordinal)) != digest:
                    raise CorruptStoreError(
                        f"A task copied into {str(self.path)!r} does not match "
                        f"its checksum once stored (ordinal {ordinal}); nothing "
                        "was copied."
                    )
                conn.execute("INSERT INTO checksums VALUES (?, ?)", (ordinal, digest))
                n_copied += 1
            conn.executemany(
                "UPDATE meta SET value = ? WHERE key = ?",
                [(v, k) for k, v in (meta or {}).items()],
            )
            seal(conn, tasks=False)
            self._seal_if_done(n_copied)
        except (sqlite3.Error, CorruptStoreError):
            conn.execute("ROLLBACK")
            self._begin()
            raise
        self._commit()
        return n_copied

    def close(self):
        """Release the write lock (nothing is pending) and close."""
        if self.conn.in_transaction:
            self.conn.execute("ROLLBACK")
        self.conn.close()  # the last connection checkpoints the WAL


def _plain(value):
    """Python scalars for sqlite3 (numpy integers and floats are not bound)."""
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.floating):
        return float(value)
    return value


def open_writer(path, *, overwrite):
    """A :class:`StoreWriter`; ``overwrite`` replaces a corrupt store (warning)."""
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
