"""The store: an SQLite journal of a benchmark experiment, written task by task.

Plain-data persistence (like :meth:`BenchmarkResult.save`), at the results level so
that :meth:`BenchmarkResult.from_store` reads a store without importing the
experiment; :class:`~sklearn_bench.BenchmarkExperiment` drives the writer.

Layout (schema version 1), all in one SQLite file in WAL mode:

- ``meta(key, value)``: ``schema_version``, ``format`` (a marker), ``config`` (JSON:
  the experiment's configuration, compared on resume), ``result`` (JSON: metrics,
  data sets, learners and provenance of the :class:`BenchmarkResult`),
  ``keep_predictions``.
- ``tasks(ordinal, dataset, split, replicate, fold, learner)``: every task of the
  run in canonical order.
- ``scores``: one row per (task, metric) with the columns of
  ``BenchmarkResult.scores``, failures (type, message, traceback) included; a task
  is done when its rows are there. The
  float columns have no type affinity, so SQLite keeps every IEEE-754 double
  exactly (a ``REAL`` column would turn -0.0 into 0.0); NaN is stored as NULL.
- ``predictions(ordinal, n, rows, correct, y_pred)``: the kept predictions of a
  task as raw little-endian arrays (``rows`` int64, ``correct`` uint8 0/1,
  ``y_pred`` float64), never pickled.

A task is committed with its rows and predictions in one transaction, so a process
killed at any moment loses at most the tasks in flight. The writer holds SQLite's
write lock (``BEGIN IMMEDIATE``) for the whole run, which keeps a second writer
out while readers still see every committed task (WAL).
"""

import json
import sqlite3
from pathlib import Path

import numpy as np
import pandas as pd

SCHEMA_VERSION = 1
_FORMAT = "sklearn_bench store"
_LOCK_TIMEOUT = 1.0  # seconds a writer waits for SQLite's write lock
_SQLITE_HEADER = b"SQLite format 3\x00"
_TABLES = ("meta", "tasks", "scores", "predictions")
_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE tasks (
    ordinal INTEGER PRIMARY KEY, dataset TEXT NOT NULL, split INTEGER NOT NULL,
    replicate INTEGER NOT NULL, fold INTEGER NOT NULL, learner TEXT NOT NULL,
    UNIQUE (dataset, split, learner));
CREATE TABLE scores (
    ordinal INTEGER NOT NULL REFERENCES tasks (ordinal),
    metric_index INTEGER NOT NULL, dataset TEXT NOT NULL, learner TEXT NOT NULL,
    split INTEGER NOT NULL, replicate INTEGER NOT NULL, fold INTEGER NOT NULL,
    metric TEXT NOT NULL, value, fit_time, score_time, n_train INTEGER,
    n_test INTEGER, error_type TEXT, error_message TEXT, traceback TEXT,
    PRIMARY KEY (ordinal, metric_index)) WITHOUT ROWID;
CREATE TABLE predictions (
    ordinal INTEGER PRIMARY KEY REFERENCES tasks (ordinal), n INTEGER NOT NULL,
    rows BLOB NOT NULL, correct BLOB, y_pred BLOB);
"""
_SCORE_FIELDS = [
    "dataset",
    "learner",
    "split",
    "replicate",
    "fold",
    "metric",
    "value",
    "fit_time",
    "score_time",
    "n_train",
    "n_test",
    "error_type",
    "error_message",
    "traceback",
]
_INSERT_SCORES = (
    f"INSERT INTO scores VALUES ({', '.join('?' * (len(_SCORE_FIELDS) + 2))})"
)


def _check_file(path):
    """Refuse a path that is not an SQLite file (an empty file is a new store)."""
    if path.is_dir():
        raise ValueError(f"The store {str(path)!r} is a directory, not a file.")
    if path.exists() and path.stat().st_size > 0:
        with open(path, "rb") as file:
            header = file.read(len(_SQLITE_HEADER))
        if header != _SQLITE_HEADER:
            raise ValueError(
                f"{str(path)!r} is not an SQLite file, so not a sklearn_bench "
                "store; it was left untouched. Pass another path as `store`."
            )


def _check_meta(conn, path):
    """The store's meta dict; ``{}`` for an empty database; errors for others."""
    tables = {
        name
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")
    }
    if not tables:
        return {}
    if "meta" not in tables:
        raise ValueError(
            f"{str(path)!r} is an SQLite database but not a sklearn_bench store "
            f"(its tables are {sorted(tables)}); it was left untouched."
        )
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    if meta.get("format") != _FORMAT:
        raise ValueError(
            f"{str(path)!r} is an SQLite database but not a sklearn_bench store; "
            "it was left untouched."
        )
    version = int(meta.get("schema_version", -1))
    if version > SCHEMA_VERSION:
        raise ValueError(
            f"The store {str(path)!r} has schema version {version}, written by a "
            f"newer sklearn_bench; this one reads versions <= {SCHEMA_VERSION}. "
            "Upgrade sklearn_bench; the store was left untouched."
        )
    if version < 1 or not set(_TABLES) <= tables:
        raise ValueError(f"The store {str(path)!r} is incomplete (schema {version}).")
    return meta


def config_diff(stored, current, prefix=""):
    """Paths at which two JSON-like configurations differ, with both values."""
    if isinstance(stored, dict) and isinstance(current, dict):
        out = []
        for key in list(dict.fromkeys([*stored, *current])):
            where = f"{prefix}[{key!r}]" if prefix else str(key)
            if key not in stored:
                out.append(f"{where}: not in the store, now {current[key]!r}")
            elif key not in current:
                out.append(f"{where}: {stored[key]!r} in the store, now absent")
            else:
                out.extend(config_diff(stored[key], current[key], where))
        return out
    if stored != current:
        return [f"{prefix}: {stored!r} in the store, now {current!r}"]
    return []


class StoreWriter:
    """The driver's side of a store: opens, checks, locks and commits tasks.

    Parameters
    ----------
    path : str or Path
        The SQLite file; created if missing (its folder must exist).
    timeout : float, default=1.0
        Seconds to wait for SQLite's write lock before giving up.

    Raises
    ------
    ValueError
        The file is not an SQLite file, not a sklearn_bench store, or has a
        newer schema. Nothing is written.
    RuntimeError
        Another writer holds the store's write lock.
    """

    def __init__(self, path, *, timeout=_LOCK_TIMEOUT):
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise FileNotFoundError(
                f"The folder of the store {str(self.path)!r} does not exist."
            )
        _check_file(self.path)
        new = not self.path.exists() or self.path.stat().st_size == 0
        self.conn = sqlite3.connect(self.path, timeout=timeout, isolation_level=None)
        try:
            if new:
                self.conn.execute("PRAGMA journal_mode=WAL")
            # Durable against a killed process (not against power loss) and
            # without an fsync per commit.
            self.conn.execute("PRAGMA synchronous=NORMAL")
            # Checkpoint (copy the WAL into the database, with an fsync) every
            # ~40 MB rather than every 4 MB of commits, and when the run ends.
            self.conn.execute("PRAGMA wal_autocheckpoint=10000")
            self._begin()
            self.meta = _check_meta(self.conn, self.path)
        except BaseException:
            self.close()
            raise

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
        """Check or (re)write the configuration and task list; the ids done.

        Parameters
        ----------
        config : dict
            JSON-safe configuration; a stored one must be equal.
        tasks : list of Task
            Every task of the run, in canonical order.
        result : dict
            JSON-safe ``metrics``, ``datasets``, ``learners``, ``info`` of the
            result.
        keep_predictions : bool
        overwrite : bool, default=False
            Replace a store of another configuration (in one transaction).

        Returns
        -------
        done : set of (dataset, split, learner)
        """
        config = json.loads(json.dumps(config))  # as it will read back
        if self.meta and not overwrite:
            diff = config_diff(self.config(), config)
            stored_tasks = list(
                self.conn.execute(
                    "SELECT dataset, split, replicate, fold, learner FROM tasks "
                    "ORDER BY ordinal"
                )
            )
            if not diff and stored_tasks != [tuple(t) for t in tasks]:
                diff = ["the task list differs"]
            if diff:
                shown = "\n  ".join(diff[:10])
                more = f"\n  ... and {len(diff) - 10} more" if len(diff) > 10 else ""
                raise ValueError(
                    f"The store {str(self.path)!r} holds a run of another "
                    f"configuration; results are never mixed. Differences:\n  "
                    f"{shown}{more}\nPass `overwrite=True` to replace it, or "
                    "another `store` path."
                )
            return {
                (d, s, m)
                for d, s, m in self.conn.execute(
                    "SELECT dataset, split, learner FROM tasks WHERE ordinal IN "
                    "(SELECT DISTINCT ordinal FROM scores)"
                )
            }
        for table in _TABLES:
            self.conn.execute(f"DROP TABLE IF EXISTS {table}")
        for statement in _SCHEMA.split(";"):  # executescript would COMMIT
            if statement.strip():
                self.conn.execute(statement)
        meta = {
            "format": _FORMAT,
            "schema_version": str(SCHEMA_VERSION),
            "config": json.dumps(config, sort_keys=True),
            "result": json.dumps(result),
            "keep_predictions": json.dumps(bool(keep_predictions)),
        }
        self.conn.executemany("INSERT INTO meta VALUES (?, ?)", meta.items())
        self.conn.executemany(
            "INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?)",
            [
                (i, t.dataset, int(t.split), int(t.replicate), int(t.fold), t.learner)
                for i, t in enumerate(tasks)
            ],
        )
        self._commit()
        self.meta = meta
        return set()

    def update_info(self, extra):
        """Merge ``extra`` (JSON-safe) into the stored result's ``info``; commit."""
        result = json.loads(self.meta["result"])
        result["info"] = {**result.get("info", {}), **extra}
        value = json.dumps(result)
        self.conn.execute("UPDATE meta SET value = ? WHERE key = 'result'", (value,))
        self._commit()
        self.meta = {**self.meta, "result": value}

    def _commit(self):
        self.conn.execute("COMMIT")
        self._begin()  # keep the write lock between tasks

    def write(self, ordinal, out):
        """Commit one finished task: its score rows and predictions.

        Parameters
        ----------
        ordinal : int
            The task's position in the canonical order.
        out : dict
            What :func:`~sklearn_bench.experiment._tasks.run_task` returned.
        """
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
        self._commit()

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


def _open_reader(path):
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"No store at {str(path)!r}.")
    _check_file(path)
    if path.stat().st_size == 0:
        raise ValueError(f"The store {str(path)!r} is empty (no run was started).")
    conn = sqlite3.connect(path, timeout=_LOCK_TIMEOUT)
    try:
        meta = _check_meta(conn, path)
        if not meta:
            raise ValueError(f"The store {str(path)!r} holds no run yet.")
    except BaseException:
        conn.close()
        raise
    return conn, meta


def read_store(path):
    """Everything a :class:`BenchmarkResult` needs from a store, predictions aside.

    Parameters
    ----------
    path : str or Path

    Returns
    -------
    content : dict
        ``scores`` (DataFrame in canonical order), ``result`` (metrics, data
        sets, learners, info), ``keep_predictions``, ``n_tasks``,
        ``n_missing_tasks``, ``done`` (ordinals of the committed tasks).
    """
    conn, meta = _open_reader(path)
    try:
        conn.execute("BEGIN")  # one snapshot for every query
        scores = pd.DataFrame(
            conn.execute(
                f"SELECT {', '.join(_SCORE_FIELDS)} FROM scores "
                "ORDER BY ordinal, metric_index"
            ).fetchall(),
            columns=_SCORE_FIELDS,
        )
        done = [o for (o,) in conn.execute("SELECT DISTINCT ordinal FROM scores")]
        (n_tasks,) = conn.execute("SELECT count(*) FROM tasks").fetchone()
        conn.execute("COMMIT")
    finally:
        conn.close()
    for col in ["value", "fit_time", "score_time"]:  # NULL is NaN
        scores[col] = np.array(scores[col].tolist(), dtype=np.float64)
    return {
        "scores": scores,
        "result": json.loads(meta["result"]),
        "keep_predictions": json.loads(meta["keep_predictions"]),
        "n_tasks": n_tasks,
        "n_missing_tasks": n_tasks - len(done),
        "done": done,
    }


def read_predictions(path, ordinals=None):
    """The kept predictions of a store as a long DataFrame, in canonical order.

    Parameters
    ----------
    path : str or Path
    ordinals : collection of int, default=None
        Read only these tasks (e.g. those committed when the scores were read).

    Returns
    -------
    predictions : DataFrame
        Columns ``dataset``, ``learner``, ``split``, ``replicate``, ``fold``,
        ``row`` and ``correct`` or ``y_pred``.
    """
    conn, _ = _open_reader(path)
    try:
        records = conn.execute(
            "SELECT p.ordinal, t.dataset, t.learner, t.split, t.replicate, t.fold, "
            "p.n, p.rows, p.correct, p.y_pred FROM predictions p JOIN tasks t "
            "USING (ordinal) ORDER BY p.ordinal"
        ).fetchall()
    finally:
        conn.close()
    if ordinals is not None:
        keep = set(ordinals)
        records = [r for r in records if r[0] in keep]
    keys = ["dataset", "learner", "split", "replicate", "fold"]
    if not records:
        return pd.DataFrame(columns=[*keys, "row"])
    n = np.array([r[6] for r in records], dtype=np.int64)
    out = {key: np.repeat([r[1 + i] for r in records], n) for i, key in enumerate(keys)}
    out["row"] = np.concatenate([np.frombuffer(r[7], dtype="<i8") for r in records])
    if any(r[8] is not None for r in records):
        out["correct"] = np.concatenate(
            [np.frombuffer(r[8], dtype="u1") for r in records]
        ).astype(bool)
    else:
        out["y_pred"] = np.concatenate(
            [np.frombuffer(r[9], dtype="<f8") for r in records]
        )
    return pd.DataFrame(out)
