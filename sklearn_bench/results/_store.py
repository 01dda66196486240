"""The store: an SQLite journal of a benchmark experiment, written task by task.

Plain-data persistence (like :meth:`BenchmarkResult.save`), at the results level so
that :meth:`BenchmarkResult.from_store` reads a store without importing the
experiment; :class:`~sklearn_bench.BenchmarkExperiment` drives the writer.

A store grows with its study. A task is identified by its content: the data
set's fingerprint, the split's rows (see
:func:`~sklearn_bench.experiment._config.split_fingerprints`), the learner's name
and all its parameters, under the store's metrics, seed, ``error_score`` and
package versions. Fitting a larger experiment on a store adds its new tasks and
reuses the stored ones; several stores of one study merge into one
(:func:`merge_stores`). :func:`combine_configs` decides what may share a store.

Layout (schema version 3), all in one SQLite file in WAL mode:

- ``meta(key, value)``: ``schema_version``, ``format`` (a marker), ``config`` (JSON:
  the configuration of every run of the store: the union of their learners, data
  set fingerprints and split fingerprints, and the settings they share),
  ``result`` (JSON: metrics, data sets, learners and provenance of the
  :class:`BenchmarkResult`), ``keep_predictions``.
- ``tasks(ordinal, dataset, split, replicate, fold, learner)``: every task
  registered by a run, in canonical order within a run, runs one after another.
- ``scores``: one row per (task, metric) with the columns of
  ``BenchmarkResult.scores``, failures (type, message, traceback) included; a task
  is done when its rows are there. The
  float columns have no type affinity, so SQLite keeps every IEEE-754 double
  exactly (a ``REAL`` column would turn -0.0 into 0.0); NaN is stored as NULL.
- ``predictions(ordinal, n, rows, correct, y_pred)``: the kept predictions of a
  task as raw little-endian arrays (``rows`` int64, ``correct`` uint8 0/1,
  ``y_pred`` float64), never pickled.
- ``checksums(ordinal, digest)``: a 128-bit BLAKE2b digest of each committed
  task's task row, score rows and predictions, committed with them (see
  :mod:`._store_integrity`); salvage keeps only tasks whose digest matches.

A task is committed with its rows and predictions in one transaction, so a process
killed at any moment loses at most the tasks in flight. The writer holds SQLite's
write lock (``BEGIN IMMEDIATE``) for the whole run, which keeps a second writer
out while readers still see every committed task (WAL).

Schema version 1 (sklearn_bench 0.1) has the same tables; its ``config`` has no
split fingerprints, so a version-1 store grows only under the same ``cv`` (then
it is migrated in the same transaction) and is read as it is. Versions 1 and 2
have no ``checksums``; a store is migrated to version 3 (the digests of its
committed tasks computed, after SQLite's quick_check) the next time a run opens
it, and is read as it is until then.
"""

import json
import sqlite3
import urllib.parse
from pathlib import Path

import numpy as np
import pandas as pd

from ._store_integrity import (
    add_missing_checksums,
    has_checksums,
    store_checksum,
    task_digest,
    wal_damage,
)
from ._store_repair import (
    _is_corruption,
    check_integrity,
    corrupt_store_error,
    leftover_of_salvage,
)

SCHEMA_VERSION = 3
_FORMAT = "sklearn_bench store"
_LOCK_TIMEOUT = 1.0  # seconds a writer waits for SQLite's write lock
_SQLITE_HEADER = b"SQLite format 3\x00"
_TABLES = ("meta", "tasks", "scores", "predictions")  # required (version >= 1)
_ALL_TABLES = (*_TABLES, "checksums")  # version >= 3
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
CREATE TABLE checksums (
    ordinal INTEGER PRIMARY KEY REFERENCES tasks (ordinal), digest BLOB NOT NULL);
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


class NotAStoreError(ValueError):
    """A path that is not a sklearn_bench store this version can use (a folder,
    another file, another SQLite database, a newer schema); left untouched."""


def _check_file(path, *, work=False):
    """Refuse a path that is not an SQLite file (an empty file is a new store);
    ``work``: salvage's own working copy, not a leftover."""
    if path.is_dir():
        raise NotAStoreError(f"The store {str(path)!r} is a directory, not a file.")
    leftover = None if work else leftover_of_salvage(path)
    if leftover:
        raise NotAStoreError(leftover)
    if path.exists() and path.stat().st_size > 0:
        with open(path, "rb") as file:
            header = file.read(len(_SQLITE_HEADER))
        if header != _SQLITE_HEADER:
            raise NotAStoreError(
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
        raise NotAStoreError(
            f"{str(path)!r} is an SQLite database but not a sklearn_bench store "
            f"(its tables are {sorted(tables)}); it was left untouched."
        )
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    if meta.get("format") != _FORMAT:
        raise NotAStoreError(
            f"{str(path)!r} is an SQLite database but not a sklearn_bench store; "
            "it was left untouched."
        )
    try:
        version = int(meta.get("schema_version", -1))
    except ValueError:
        version = -1
    if version > SCHEMA_VERSION:
        raise NotAStoreError(
            f"The store {str(path)!r} has schema version {version}, written by a "
            f"newer sklearn_bench; this one reads versions <= {SCHEMA_VERSION}. "
            "Upgrade sklearn_bench; the store was left untouched."
        )
    if version < 1 or not set(_TABLES) <= tables:
        raise NotAStoreError(
            f"The store {str(path)!r} is incomplete (schema {version})."
        )
    for key in ("config", "result", "keep_predictions"):
        try:
            value = json.loads(meta[key])
            if key == "result":
                value["metrics"], value["datasets"], value["learners"]  # noqa: B018
        except (KeyError, TypeError, ValueError):
            raise NotAStoreError(
                f"The store {str(path)!r} lacks its metadata {key!r} (or it is "
                "not valid): damaged, or not written whole by sklearn_bench. "
                "Without it the store cannot be read, grown or salvaged; run the "
                "experiment afresh on a new store."
            ) from None
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


# What every run of a store shares; learners, data sets and splits may grow.
_GROWING = ("learners", "datasets", "splits", "cv")
_ADVICE = (
    "Results are never mixed: give a changed learner or data set a new name, "
    "pass `overwrite=True` to replace the store, or use another `store` path."
)


class StoreMismatchError(ValueError):
    """A store that holds a run of another configuration; the message lists the
    differences."""


def _refuse(path, what, diff):
    shown = "\n  ".join(diff[:10])
    more = f"\n  ... and {len(diff) - 10} more" if len(diff) > 10 else ""
    raise StoreMismatchError(
        f"The store {str(path)!r} holds a run of another configuration ({what}). "
        f"Differences:\n  {shown}{more}\n{_ADVICE}"
    )


def combine_configs(stored, current, *, path, legacy=False):
    """The configuration of a store that grows by ``current``, or a ValueError.

    Runs share a store when every setting that is not a learner, a data set or
    a split (the metrics, seed, ``error_score``, ``keep_predictions``, package
    versions) is equal; a learner name in both has the same parameters; a data
    set name in both has the same fingerprint; a split of a data set in both
    has the same rows. The union of their learners, data sets and splits is
    returned.

    Parameters
    ----------
    stored, current : dict
        JSON configurations (``experiment_config``).
    path : str or Path
        The store, for messages.
    legacy : bool, default=False
        ``stored`` is of schema version 1 (no split fingerprints): ``cv`` must
        be equal, and the current splits are adopted.

    Raises
    ------
    ValueError
        Naming the setting, learner or data set that differs.
    """
    shared = [k for k in dict.fromkeys([*stored, *current]) if k not in _GROWING]
    diff = config_diff(
        {k: stored[k] for k in shared if k in stored},
        {k: current[k] for k in shared if k in current},
    )
    if diff:
        _refuse(path, "settings shared by every run differ", diff)
    if legacy:
        diff = config_diff(stored.get("cv"), current.get("cv"), "cv")
        if diff:
            _refuse(
                path, "written by sklearn_bench 0.1, it grows only under its cv", diff
            )
    union = dict(stored)
    for key, kind in [("learners", "learner"), ("datasets", "data set")]:
        old, new = stored.get(key, {}), current.get(key, {})
        if legacy and key == "datasets":  # 0.1 fingerprinted n_replicates too
            old = {
                name: {k: v for k, v in fp.items() if k != "n_replicates"}
                for name, fp in old.items()
            }
        for name in new:
            if name in old:
                diff = config_diff(old[name], new[name], f"{key}[{name!r}]")
                if diff:
                    _refuse(path, f"{kind} {name!r} changed under its name", diff)
        union[key] = {**old, **{k: v for k, v in new.items() if k not in old}}
    old = {} if legacy else stored.get("splits", {})
    new = current.get("splits", {})
    splits = dict(old)
    for name, prints in new.items():
        common = old.get(name, [])[: len(prints)]
        changed = [
            i for i, (a, b) in enumerate(zip(common, prints, strict=False)) if a != b
        ]
        if changed:
            _refuse(
                path,
                f"the splits of data set {name!r} differ: another `cv`",
                [f"splits[{name!r}][{i}]: other rows" for i in changed],
            )
        longer = old.get(name, [])
        splits[name] = prints if len(prints) >= len(longer) else longer
    if splits or "splits" in stored:
        union["splits"] = splits
    if "cv" in current:
        union["cv"] = current["cv"]  # provenance; the splits decide
    return union


def _union_result(stored, current):
    """Metrics, data sets, learners and provenance of a grown store."""
    old, new = stored.get("info", {}), current.get("info", {})
    info = {**old, **new}
    for key, value in new.items():  # per-learner / per-data-set maps: union
        if isinstance(value, dict) and isinstance(old.get(key), dict):
            info[key] = {**old[key], **value}
    return {
        "metrics": stored["metrics"],
        "datasets": {**stored["datasets"], **current["datasets"]},
        "learners": list(dict.fromkeys([*stored["learners"], *current["learners"]])),
        "info": info,
    }


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

    def __init__(self, path, *, timeout=_LOCK_TIMEOUT, _work=False):
        self.path = Path(path)
        if not self.path.parent.is_dir():
            raise FileNotFoundError(
                f"The folder of the store {str(self.path)!r} does not exist."
            )
        _check_file(self.path, work=_work)
        _check_wal(self.path)  # before a connection that would checkpoint it
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
            if not new:
                check_integrity(self.conn, self.path)
            self.meta = _check_meta(self.conn, self.path)
        except sqlite3.DatabaseError as exc:
            self.close()
            if _is_corruption(exc):
                raise corrupt_store_error(self.path, exc) from exc
            raise
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
        """Check the configuration, register the tasks; the ids done.

        On an existing store, the configuration is combined with the stored one
        (:func:`combine_configs`, which refuses a changed learner, data set,
        split or shared setting), the tasks not yet registered are appended
        and the stored configuration and result description grow to the union.

        Parameters
        ----------
        config : dict
            JSON-safe configuration (``experiment_config``).
        tasks : list of Task
            Every task of this run, in canonical order.
        result : dict
            JSON-safe ``metrics``, ``datasets``, ``learners``, ``info`` of the
            result.
        keep_predictions : bool
        overwrite : bool, default=False
            Replace the store's content (in one transaction).

        Returns
        -------
        done : set of (dataset, split, learner)
            Ids of the committed tasks of the store (of any run). The store
            ordinal of each task of this run is in ``self.ordinals``.
        """
        config = json.loads(json.dumps(config))  # as it will read back
        result = json.loads(json.dumps(result))
        if self.meta and not overwrite:
            version = int(self.meta["schema_version"])
            union = combine_configs(
                self.config(), config, path=self.path, legacy=version < 2
            )
            stored_tasks = {
                (d, s, m): (o, r, f)
                for o, d, s, r, f, m in self.conn.execute(
                    "SELECT ordinal, dataset, split, replicate, fold, learner "
                    "FROM tasks"
                )
            }
            for t in tasks:
                known = stored_tasks.get((t.dataset, t.split, t.learner))
                if known is not None and known[1:] != (t.replicate, t.fold):
                    _refuse(
                        self.path,
                        f"the splits of data set {t.dataset!r} differ",
                        [
                            f"split {t.split}: replicate and fold {known[1:]} in the "
                            f"store, now {(t.replicate, t.fold)}"
                        ],
                    )
            (top,) = self.conn.execute("SELECT max(ordinal) FROM tasks").fetchone()
            top = -1 if top is None else top
            new = [
                t for t in tasks if (t.dataset, t.split, t.learner) not in stored_tasks
            ]
            self.conn.executemany(
                "INSERT INTO tasks VALUES (?, ?, ?, ?, ?, ?)",
                [
                    (
                        top + 1 + i,
                        t.dataset,
                        int(t.split),
                        int(t.replicate),
                        int(t.fold),
                        t.learner,
                    )
                    for i, t in enumerate(new)
                ],
            )
            if version < 3:  # checksums of the tasks committed so far
                add_missing_checksums(self.conn)
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
            self._commit()
            self.meta.update(grown)
            ids = {key: value[0] for key, value in stored_tasks.items()}
            ids.update(
                {
                    (t.dataset, t.split, t.learner): top + 1 + i
                    for i, t in enumerate(new)
                }
            )
            self.ordinals = {
                (t.dataset, t.split, t.learner): ids[t.dataset, t.split, t.learner]
                for t in tasks
            }
            return {
                (d, s, m)
                for d, s, m in self.conn.execute(
                    "SELECT dataset, split, learner FROM tasks WHERE ordinal IN "
                    "(SELECT DISTINCT ordinal FROM scores)"
                )
            }
        for table in _ALL_TABLES:
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
        self.ordinals = {
            (t.dataset, t.split, t.learner): i for i, t in enumerate(tasks)
        }
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
        # The task's digest, of its rows as SQLite stored them, in the same
        # transaction: salvage keeps only tasks whose digest matches.
        store_checksum(conn, ordinal)
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


def _read_only_uri(path):
    """An SQLite URI that reads ``path`` without changing anything beside it.

    With a -wal or -journal file present (a writer is running, or one was
    killed), ``mode=ro``: the committed -wal content is read, never folded into
    the database. Without one, ``immutable=1`` as well, so that reading a store
    in WAL mode does not leave empty -wal and -shm files beside it.
    """
    path = Path(path)
    uri = f"file:{urllib.parse.quote(str(path.resolve()))}?mode=ro"
    if not any(Path(f"{path}{s}").exists() for s in ("-wal", "-journal")):
        uri += "&immutable=1"
    return uri


def _check_wal(path):
    """Refuse a store whose -wal file has committed frames SQLite would drop
    (beyond a bad frame checksum): reading it would lose them silently."""
    damage = wal_damage(path)
    if damage:
        raise corrupt_store_error(path, damage, source="checked by sklearn_bench")


def _open_reader(path):
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(f"No store at {str(path)!r}.")
    _check_file(path)
    if path.stat().st_size == 0:
        raise ValueError(f"The store {str(path)!r} is empty (no run was started).")
    _check_wal(path)
    # Read-only: reading (report, from_store, store check, merge's sources)
    # never changes a store. A read-write connection checkpoints the -wal file
    # into the database when it closes, which made a damaged -wal permanent.
    conn = sqlite3.connect(_read_only_uri(path), uri=True, timeout=_LOCK_TIMEOUT)
    try:
        check_integrity(conn, path)
        meta = _check_meta(conn, path)
        if not meta:
            raise ValueError(f"The store {str(path)!r} holds no run yet.")
    except sqlite3.DatabaseError as exc:
        conn.close()
        if _is_corruption(exc):
            raise corrupt_store_error(path, exc) from exc
        raise
    except BaseException:
        conn.close()
        raise
    return conn, meta


def read_store(path, tasks=None):
    """Everything a :class:`BenchmarkResult` needs from a store, predictions aside.

    Parameters
    ----------
    path : str or Path
    tasks : list of (dataset, split, learner), default=None
        Read only these tasks, in this order (the tasks of one experiment);
        ``None`` reads every task of the store in the order of one run of them
        all: by data set, learner and split, in the order of the store's data
        sets and learners.

    Returns
    -------
    content : dict
        ``scores`` (DataFrame), ``result`` (metrics, data sets, learners,
        info), ``keep_predictions``, ``n_tasks``, ``n_missing_tasks`` (of the
        tasks asked for), ``done`` (ordinals of the committed tasks read, in
        the order of ``scores``).
    """
    conn, meta = _open_reader(path)
    try:
        conn.execute("BEGIN")  # one snapshot for every query
        task_rows = _records(
            conn.execute(
                "SELECT ordinal, split, replicate, fold, dataset, learner FROM "
                "tasks ORDER BY ordinal"
            ),
            _TASK_DTYPE,
        )
        # Numbers only (NULL as a flag), read into a numpy record array; the
        # texts of failures are read apart.
        rows = _records(
            conn.execute(
                "SELECT ordinal, metric_index, ifnull(value, 0.0), value IS NULL, "
                "ifnull(fit_time, 0.0), fit_time IS NULL, ifnull(score_time, 0.0), "
                "score_time IS NULL, ifnull(n_train, -1), ifnull(n_test, -1) "
                "FROM scores ORDER BY ordinal, metric_index"
            ),
            _ROW_DTYPE,
        )
        failures = conn.execute(
            "SELECT ordinal, metric_index, error_type, error_message, traceback "
            "FROM scores WHERE error_type != '' ORDER BY ordinal, metric_index"
        ).fetchall()
        metric_names = dict(
            conn.execute("SELECT DISTINCT metric_index, metric FROM scores")
        )
        conn.execute("COMMIT")
    finally:
        conn.close()
    result = json.loads(meta["result"])
    scores, done, n_tasks = _scores_frame(
        task_rows, rows, failures, metric_names, tasks, result
    )
    return {
        "scores": scores,
        "result": result,
        "keep_predictions": json.loads(meta["keep_predictions"]),
        "n_tasks": n_tasks,
        "n_missing_tasks": n_tasks - len(done),
        "done": done,
    }


_TASK_DTYPE = [
    ("ordinal", "i8"),
    ("split", "i8"),
    ("replicate", "i8"),
    ("fold", "i8"),
    ("dataset", object),
    ("learner", object),
]
_ROW_DTYPE = [
    ("ordinal", "i8"),
    ("metric_index", "i8"),
    ("value", "f8"),
    ("value_null", "?"),
    ("fit_time", "f8"),
    ("fit_time_null", "?"),
    ("score_time", "f8"),
    ("score_time_null", "?"),
    ("n_train", "i8"),
    ("n_test", "i8"),
]


def _records(cursor, dtype, chunk=65536):
    """A query's rows as a numpy record array, converted chunk by chunk (so that
    at most ``chunk`` rows are Python tuples at a time)."""
    parts = []
    while rows := cursor.fetchmany(chunk):
        parts.append(np.array(rows, dtype=dtype))
    return np.concatenate(parts) if parts else np.array([], dtype=dtype)


def _task_order(t, d_codes, d_names, m_codes, m_names, tasks, result):
    """Indices into the task records ``t``, in the order of the result."""
    if tasks is None:  # canonical order: data set, learner, split (as one run)
        d_rank = {name: i for i, name in enumerate(result["datasets"])}
        m_rank = {name: i for i, name in enumerate(result["learners"])}
        d = np.array([d_rank.get(n, len(d_rank)) for n in d_names], dtype=np.int64)
        m = np.array([m_rank.get(n, len(m_rank)) for n in m_names], dtype=np.int64)
        return np.lexsort((t["split"], m[m_codes], d[d_codes]))
    ids = pd.MultiIndex.from_arrays([t["dataset"], t["split"], t["learner"]])
    where = ids.get_indexer(pd.MultiIndex.from_tuples(tasks))
    if (where < 0).any():
        raise ValueError("Some tasks are not registered in the store.")
    return where


def _scores_frame(task_rows, rows, failures, metric_names, tasks, result):
    """The scores table from the store's rows (numpy record arrays)."""
    t = task_rows
    d_codes, d_names = pd.factorize(t["dataset"])
    m_codes, m_names = pd.factorize(t["learner"])
    order = _task_order(t, d_codes, d_names, m_codes, m_names, tasks, result)
    n_tasks = len(order)
    s = rows
    position = np.full(int(t["ordinal"].max(initial=-1)) + 1, -1, dtype=np.int64)
    position[t["ordinal"][order]] = np.arange(n_tasks)
    pos = position[s["ordinal"]]
    keep = np.flatnonzero(pos >= 0)
    take = keep[np.lexsort((s["metric_index"][keep], pos[keep]))]
    s, pos = s[take], pos[take]
    task = order[pos]  # record of each score row's task
    first = np.ones(pos.size, dtype=bool)
    first[1:] = pos[1:] != pos[:-1]  # pos is sorted
    done = t["ordinal"][order[pos[first]]].tolist()
    metric_keys = sorted(metric_names)
    out = pd.DataFrame(
        {
            "dataset": pd.Categorical.from_codes(
                d_codes[task], [str(n) for n in d_names]
            ),
            "learner": pd.Categorical.from_codes(
                m_codes[task], [str(n) for n in m_names]
            ),
            "split": t["split"][task],
            "replicate": t["replicate"][task],
            "fold": t["fold"][task],
            "metric": pd.Categorical.from_codes(
                np.searchsorted(metric_keys, s["metric_index"]),
                [metric_names[k] for k in metric_keys],
            ),
        }
    )
    for col in ["value", "fit_time", "score_time"]:  # NULL is NaN
        out[col] = np.where(s[f"{col}_null"], np.nan, s[col])
    for col in ["n_train", "n_test"]:
        out[col] = s[col]
    for col in ["error_type", "error_message", "traceback"]:
        out[col] = pd.Series(np.full(len(out), "", dtype=object), dtype=object)
    if failures:
        at = pd.Series(
            np.arange(len(out)),
            index=pd.MultiIndex.from_arrays([s["ordinal"], s["metric_index"]]),
        )
        fail = pd.DataFrame(
            failures,
            columns=["ordinal", "metric_index", *_TEXT_FIELDS],
        )
        where = at.reindex(pd.MultiIndex.from_frame(fail[["ordinal", "metric_index"]]))
        fail = fail[where.notna().to_numpy()]
        where = where.dropna().to_numpy(dtype=np.int64)
        for col in _TEXT_FIELDS:
            values = out[col].to_numpy(copy=True)
            values[where] = fail[col].fillna("").to_numpy(dtype=object)
            out[col] = pd.Series(values, dtype=object)
    return out, done, n_tasks


_TEXT_FIELDS = ["error_type", "error_message", "traceback"]


def read_predictions(path, ordinals=None):
    """The kept predictions of a store as a long DataFrame, in canonical order.

    Parameters
    ----------
    path : str or Path
    ordinals : sequence of int, default=None
        Read only these tasks, in this order (e.g. those committed when the
        scores were read).

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
    if ordinals is not None:  # in the order given
        rank = {o: i for i, o in enumerate(ordinals)}
        records = sorted((r for r in records if r[0] in rank), key=lambda r: rank[r[0]])
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


def _same_rows(a, b):
    """Whether two tasks' score rows agree bit for bit (times aside)."""

    def key(row):
        metric_index, metric, value, n_train, n_test, error_type = row
        value = None if value is None else float(value).hex()
        return metric_index, metric, value, n_train, n_test, error_type

    return [key(r) for r in a] == [key(r) for r in b]


_TASK_COLUMNS = "ordinal, dataset, split, replicate, fold, learner"
_COMPARED = "metric_index, metric, value, n_train, n_test, error_type"


def merge_stores(sources, target):
    """Combine the stores of one study, run on several machines, into one store.

    Each source is checked like a run that grows ``target`` (see
    :func:`combine_configs`: the same metrics, seed, ``error_score``,
    ``keep_predictions`` and package versions; a learner, data set or split
    stored in several stores the same in each). Its committed tasks are copied
    with their scores, failures and kept predictions; a task stored in
    several stores must have the same scores bit for bit (a conflicting
    duplicate raises a ``ValueError`` naming it, and ``target`` is left as it
    was before that source). Nothing is refitted.

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
    """
    import os

    if not isinstance(sources, list | tuple) or not all(
        isinstance(source, str | os.PathLike) for source in sources
    ):
        raise TypeError(f"`sources` must be a list of store paths; got {sources!r}.")
    if not isinstance(target, str | os.PathLike):
        raise TypeError(f"`target` must be a store path; got {target!r}.")
    target = Path(target)
    for source in sources:
        if Path(source).resolve() == target.resolve():
            raise ValueError(f"The store {str(source)!r} is also the target.")
    # All or nothing: merge into a copy beside the target and put it in place
    # with one atomic rename, so that a refused source, an error or a kill
    # midway leaves the target exactly as it was.
    from ._store_repair import _leftovers

    for leftover in _leftovers(target, ".merging-"):  # of a killed merge
        leftover.unlink(missing_ok=True)
    work = target.parent / f".{target.name}.merging-{os.getpid()}"
    _remove_store_files(work)
    try:
        if target.exists() and target.stat().st_size > 0:
            _check_file(target)
            _open_reader(target)[0].close()  # a corrupt target is named as such
            src = sqlite3.connect(
                _read_only_uri(target), uri=True, timeout=_LOCK_TIMEOUT
            )
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


def _remove_store_files(path):
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _merge_into(sources, target, *, shown):
    """Copy the committed tasks of ``sources`` into the store ``target``
    (``shown``: the target's name in messages)."""
    import sqlite3

    from ..experiment._tasks import Task

    writer = StoreWriter(target, _work=True)
    n_copied = 0
    try:
        for source in sources:
            if Path(source).resolve() == Path(target).resolve():
                raise ValueError(f"The store {str(source)!r} is also the target.")
            conn, meta = _open_reader(source)
            try:
                conn.execute("BEGIN")
                task_rows = conn.execute(
                    f"SELECT {_TASK_COLUMNS} FROM tasks ORDER BY ordinal"
                ).fetchall()
                scores = conn.execute(
                    "SELECT * FROM scores ORDER BY ordinal, metric_index"
                ).fetchall()
                predictions = conn.execute(
                    "SELECT * FROM predictions ORDER BY ordinal"
                ).fetchall()
                digests = None
                if has_checksums(conn):
                    digests = dict(conn.execute("SELECT * FROM checksums"))
                conn.execute("COMMIT")
            finally:
                conn.close()
            tasks = [Task(d, s, r, f, m) for _, d, s, r, f, m in task_rows]
            source_id = {o: (d, s, m) for o, d, s, _, _, m in task_rows}
            rows_of = {}
            for row in scores:
                rows_of.setdefault(row[0], []).append(row)
            if digests is not None:  # a task that does not match is not copied
                task_of = {row[0]: row for row in task_rows}
                pred_of = {p[0]: p for p in predictions}
                for ordinal, own in rows_of.items():
                    digest = task_digest(task_of[ordinal], own, pred_of.get(ordinal))
                    if digests.get(ordinal) != digest:
                        d, s, m = source_id[ordinal]
                        raise corrupt_store_error(
                            source,
                            f"the checksum of learner {m!r} on data set {d!r} "
                            f"split {s} does not match its rows",
                        )
            # Conflicts first, so that a refused source changes nothing.
            stored = {}
            if writer.meta:
                for o, d, s, m in writer.conn.execute(
                    "SELECT ordinal, dataset, split, learner FROM tasks"
                ):
                    stored[d, s, m] = o
            for ordinal, own in rows_of.items():
                there = stored.get(source_id[ordinal])
                if there is None:
                    continue
                theirs = writer.conn.execute(
                    f"SELECT {_COMPARED} FROM scores WHERE ordinal = ? "
                    "ORDER BY metric_index",
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
            done = writer.start(
                json.loads(meta["config"]),
                tasks,
                json.loads(meta["result"]),
                keep_predictions=json.loads(meta["keep_predictions"]),
            )
            ordinal_of = writer.ordinals
            copy = [o for o in rows_of if source_id[o] not in done]
            new_ordinal = {o: ordinal_of[source_id[o]] for o in copy}
            try:
                writer.conn.executemany(
                    _INSERT_SCORES,
                    [(new_ordinal[o], *row[1:]) for o in copy for row in rows_of[o]],
                )
                writer.conn.executemany(
                    "INSERT INTO predictions VALUES (?, ?, ?, ?, ?)",
                    [
                        (new_ordinal[p[0]], *p[1:])
                        for p in predictions
                        if p[0] in new_ordinal
                    ],
                )
                for o in copy:
                    store_checksum(writer.conn, new_ordinal[o])
            except sqlite3.Error:
                writer.conn.execute("ROLLBACK")
                writer._begin()
                raise
            writer._commit()
            n_copied += len(copy)
    finally:
        writer.close()
    return n_copied


def verify_checksums(path):
    """SQLite's full ``integrity_check`` and every committed task of a store
    against its checksum (read-only).

    Returns
    -------
    report : dict
        ``n_committed``, ``n_verified`` (digest matches), ``n_unverified`` (no
        digest: written before checksums), ``mismatched`` (list of
        ``(dataset, split, learner)`` whose rows differ from their digest).
    """
    from ._store_integrity import has_checksums, read_task

    conn, _ = _open_reader(path)
    try:
        # The full check: also every index against its table (a flipped bit in
        # an index entry passes quick_check, and a query using the index would
        # read the flipped name).
        rows = conn.execute("PRAGMA integrity_check").fetchall()
        if rows != [("ok",)]:
            raise corrupt_store_error(path, "; ".join(str(r[0]) for r in rows[:3]))
        conn.execute("BEGIN")
        done = [o for (o,) in conn.execute("SELECT DISTINCT ordinal FROM scores")]
        digests = {}
        if has_checksums(conn):
            digests = dict(conn.execute("SELECT ordinal, digest FROM checksums"))
        mismatched, n_verified = [], 0
        for ordinal in done:
            if ordinal not in digests:
                continue
            task, scores, prediction = read_task(conn, ordinal)
            if (
                task is not None
                and task_digest(task, scores, prediction) == digests[ordinal]
            ):
                n_verified += 1
            else:
                mismatched.append(
                    (task[1], task[2], task[5]) if task else ("?", ordinal, "?")
                )
        conn.execute("COMMIT")
    finally:
        conn.close()
    return {
        "n_committed": len(done),
        "n_verified": n_verified,
        "n_unverified": len(done) - n_verified - len(mismatched),
        "mismatched": mismatched,
    }
