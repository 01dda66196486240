"""The store's schema, task record and errors, and the checks of an opened file.

An SQLite journal (WAL mode) of an experiment, written task by task by the driver
(docs/cli.rst). Layout (schema version 5):

- ``meta(key, value)``: ``schema_version``, ``format``, ``config`` (JSON, the union
  of the runs' configurations, :func:`combine_configs`), ``result`` (JSON: metrics
  with their direction, data sets, learners, info), ``keep_predictions``, the
  digests ``digest`` (of the other rows) and ``tasks_digest``, and ``sealed`` once
  every task is committed (a finished store that loses tasks is refused).
- ``tasks(ordinal, dataset, split, replicate, fold, learner)``.
- ``scores``: one row per (task, metric), the columns of ``BenchmarkResult.scores``;
  untyped float columns keep every double exactly (-0.0 too), NaN as NULL.
- ``predictions`` and ``losses``: kept predictions and pointwise losses as raw
  little-endian arrays (losses zlib-compressed), never pickled.
- ``checksums(ordinal, digest)``: BLAKE2b of a task's rows in every table with an
  ``ordinal`` column, committed with them (:mod:`._integrity`).

Versions 1 to 4 (development versions before 0.2) are refused with a message.
"""

import functools
import hashlib
import json
import re
import sqlite3
import struct
from typing import NamedTuple

from .._metrics import wrong_direction
from .._validation import info_problem

SCHEMA_VERSION = 5
_FORMAT = "sklearn_bench store"

_TABLES = ("meta", "tasks", "scores", "predictions", "losses", "checksums")
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
CREATE TABLE losses (
    ordinal INTEGER PRIMARY KEY REFERENCES tasks (ordinal), n INTEGER NOT NULL,
    metrics TEXT NOT NULL, rows BLOB NOT NULL, loss BLOB NOT NULL);
CREATE TABLE checksums (
    ordinal INTEGER PRIMARY KEY REFERENCES tasks (ordinal), digest BLOB NOT NULL);
"""
_SCORE_FIELDS = (
    "dataset learner split replicate fold metric value fit_time score_time n_train "
    "n_test error_type error_message traceback"
).split()
_INSERT_SCORES = (
    f"INSERT INTO scores VALUES ({', '.join('?' * (len(_SCORE_FIELDS) + 2))})"
)


class Task(NamedTuple):
    """One learner on one split of one data set; ``(dataset, split, learner)`` is
    its stable id."""

    dataset: str
    split: int
    replicate: int
    fold: int
    learner: str


class NotAStoreError(ValueError):
    """A path that is not a sklearn_bench store this version can use."""


class StoreMismatchError(ValueError):
    """A store that holds a run of another configuration."""


class CorruptStoreError(ValueError):
    """A store whose SQLite file is damaged."""


def _is_corruption(exc):
    """SQLite's "malformed" (not its subclasses: a lock, a full disk)."""
    return type(exc) is sqlite3.DatabaseError


def corrupt_store_error(path, detail, *, source="SQLite"):
    """The :class:`CorruptStoreError` of a store, saying what can be done."""
    detail = " ".join(str(detail).split())
    if len(detail) > 200 and source == "SQLite":
        detail = detail[:200] + " ..."
    return CorruptStoreError(
        f"The store {str(path)!r} is corrupt ({source}: {detail}). Its committed "
        "tasks that can still be read can be salvaged into a new store with "
        f"`sklearn-bench store salvage {path} NEW.sqlite` (or "
        "sklearn_bench.store.salvage_store); fitting the same experiment on the "
        "new store reruns only the lost tasks. Or pass `overwrite=True` to replace "
        "it (every task reruns). A store copied without its '-wal' file loses the "
        "tasks committed since the last checkpoint."
    )


def check_integrity(conn, path, *, full=False):
    """SQLite's ``quick_check`` (``full``: ``integrity_check``), else a
    ``CorruptStoreError``."""
    pragma = "integrity_check" if full else "quick_check"
    try:
        rows = conn.execute(f"PRAGMA {pragma}").fetchall()
    except sqlite3.DatabaseError as exc:
        if not _is_corruption(exc):
            raise
        raise corrupt_store_error(path, exc) from exc
    if rows != [("ok",)]:
        raise corrupt_store_error(path, "; ".join(str(r[0]) for r in rows[:3]))


def _checked(conn, path, check):
    """``check(conn)``, closing the connection when it fails."""
    try:
        return check(conn)
    except sqlite3.DatabaseError as exc:
        conn.close()
        if _is_corruption(exc):
            raise corrupt_store_error(path, exc) from exc
        raise
    except BaseException:
        conn.close()
        raise


def _connect(database, **kwargs):
    """``sqlite3.connect`` that never trusts the SQL a store file holds."""
    conn = sqlite3.connect(database, **kwargs)
    conn.execute("PRAGMA trusted_schema=OFF")
    return conn


def _normal_sql(sql):
    """DDL text without the layout SQLite keeps verbatim (spaces, line breaks)."""
    if sql is None:
        return None
    sql = re.sub(r"\s+", " ", sql.strip())
    return re.sub(r" ?([(),;]) ?", r"\1", sql)


def create_tables(conn):
    """Create the tables (not ``executescript``: it would commit)."""
    for statement in _SCHEMA.split(";"):
        if statement.strip():
            conn.execute(statement)


@functools.cache
def _schema_rows():
    conn = sqlite3.connect(":memory:")
    try:
        create_tables(conn)
        rows = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid"
        ).fetchall()
        columns = {}  # table: (column names, its primary key as ORDER BY)
        for kind, name, _, _ in rows:
            if kind == "table":
                info = conn.execute(f"PRAGMA table_info({name})").fetchall()
                key = ", ".join(c[1] for c in sorted(info, key=lambda c: c[5]) if c[5])
                columns[name] = ([c[1] for c in info], key)
        return rows, columns
    finally:
        conn.close()


@functools.cache
def task_tables():
    """``{table: (index of its ordinal column, ORDER BY)}`` of the tables whose
    rows belong to a task (a task's checksum covers them)."""
    return {
        name: (names.index("ordinal"), key)
        for name, (names, key) in _schema_rows()[1].items()
        if "ordinal" in names and name not in ("tasks", "checksums")
    }


def _feed(digest, value):
    """Feed one SQLite value, tagged by its type, into ``digest``."""
    if value is None:
        digest.update(b"N")
    elif isinstance(value, int):
        digest.update(b"I" + int(value).to_bytes(8, "little", signed=True))
    elif isinstance(value, float):
        digest.update(b"F" + struct.pack("<d", value))
    elif isinstance(value, str):
        data = value.encode("utf-8", "surrogatepass")
        digest.update(b"S" + len(data).to_bytes(8, "little") + data)
    else:
        data = bytes(value)
        digest.update(b"B" + len(data).to_bytes(8, "little") + data)


def table_part(digest, tag, rows, ordinal_at=None):
    """Feed the rows of one table (tag, count, each row but its ordinal)."""
    digest.update(tag + len(rows).to_bytes(8, "little"))
    for row in rows:
        digest.update(len(row).to_bytes(2, "little"))
        for i, value in enumerate(row):
            if i != ordinal_at:
                _feed(digest, value)


# The keys of ``meta`` that hold the store's own digests (not digested).
DIGEST_KEYS = ("digest", "tasks_digest")


def settings_digest(conn):
    """Hex digest of every row of :func:`settings_tables` (digests aside)."""
    digest = hashlib.blake2b(digest_size=16)
    for table, key in settings_tables().items():
        rows = conn.execute(f"SELECT * FROM {table} ORDER BY {key}").fetchall()
        rows = [r for r in rows if not (table == "meta" and r[0] in DIGEST_KEYS)]
        table_part(digest, table.encode(), rows)
    return digest.hexdigest()


@functools.cache
def settings_tables():
    """``{table: ORDER BY}`` of the tables without an ``ordinal`` column."""
    return {
        name: key
        for name, (names, key) in _schema_rows()[1].items()
        if "ordinal" not in names
    }


def _foreign_objects(rows):
    """The rows of ``sqlite_master`` that a store of ours does not have."""
    ours = {(t, n, tb, _normal_sql(sql)) for t, n, tb, sql in _schema_rows()[0]}
    return [
        (kind, name, table)
        for kind, name, table, sql in rows
        if (kind, name, table, _normal_sql(sql)) not in ours
    ]


def _refuse_foreign(path, foreign):
    shown = ", ".join(f"{kind} {name!r}" for kind, name, _ in foreign[:5])
    shown += " ..." if len(foreign) > 5 else ""
    raise NotAStoreError(
        f"The store {str(path)!r} holds SQL that sklearn_bench does not write "
        f"({shown}): it was refused, and left untouched, because a store's own "
        "SQL (a trigger, a view, an index or a column of another definition) "
        "would run when it is read or grown. Use a store written by "
        "sklearn_bench, or run the experiment afresh on a new store."
    )


def _check_ordinals(conn, path):
    """Refuse ordinals outside ``[0, number of tasks)``, which we never write."""
    (low, high, n) = conn.execute(
        "SELECT min(ordinal), max(ordinal), count(*) FROM tasks"
    ).fetchone()
    (s_low, s_high) = conn.execute(
        "SELECT min(ordinal), max(ordinal) FROM scores"
    ).fetchone()
    bad = [
        v
        for v in (low, high, s_low, s_high)
        if v is not None and not (type(v) is int and 0 <= v < n)
    ]
    if bad:
        raise CorruptStoreError(
            f"The store {str(path)!r} has task ordinals outside [0, {n}) "
            f"(e.g. {bad[0]!r}), which sklearn_bench never writes: tampered with "
            "or damaged; it was refused and left untouched. Salvage it with "
            f"`sklearn-bench store salvage {path} NEW.sqlite`."
        )


def check_version(version, path):
    """Refuse a schema version other than ours."""
    if version > SCHEMA_VERSION:
        raise NotAStoreError(
            f"The store {str(path)!r} has schema version {version}, written by a "
            f"newer sklearn_bench; this one reads versions <= {SCHEMA_VERSION}. "
            "Upgrade sklearn_bench; the store was left untouched."
        )
    if version < SCHEMA_VERSION:
        raise NotAStoreError(
            f"The store {str(path)!r} has schema version {version}, written by a "
            "development version of sklearn_bench before 0.2 (another layout"
            + (", settings without a checksum" if version < 4 else "")
            + f"); this version reads schema {SCHEMA_VERSION} only. It was left "
            "untouched: run the experiment afresh on a new store (or read it "
            "with the version that wrote it)."
        )


def _check_meta(conn, path):
    """The store's meta dict (``{}``: an empty database), its schema checked
    before any row is read."""
    rows = conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_master"
    ).fetchall()
    if not rows:
        return {}
    tables = {name for kind, name, _, _ in rows if kind == "table"}
    if "meta" not in tables:
        raise NotAStoreError(
            f"{str(path)!r} is an SQLite database but not a sklearn_bench store "
            f"(its tables are {sorted(tables)}); it was left untouched."
        )
    foreign = _foreign_objects(rows)
    if any(table == "meta" for _, _, table in foreign):
        _refuse_foreign(path, foreign)  # before a row of it is read
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    if meta.get("format") != _FORMAT:
        raise NotAStoreError(
            f"{str(path)!r} is an SQLite database but not a sklearn_bench store; "
            "it was left untouched."
        )
    try:
        version = int(meta.get("schema_version", -1))
    except (TypeError, ValueError):
        version = -1
    if version >= 1:  # else incomplete, below
        check_version(version, path)
    if foreign:
        _refuse_foreign(path, foreign)
    if version < 1 or not set(_TABLES) <= tables:
        missing = sorted(set(_TABLES) - tables)
        raise NotAStoreError(
            f"The store {str(path)!r} is incomplete (schema {version}"
            + (f"; no table {', '.join(missing)}" if missing else "")
            + "): a store of this version has all its tables, its checksums "
            "included, so it was refused (its values could not be verified). "
            "Run the experiment afresh on a new store."
        )
    if meta.get("digest") != settings_digest(conn):
        raise CorruptStoreError(
            f"The store {str(path)!r} is corrupt: its settings (the metrics and "
            "their directions, the configuration, the data sets and learners) "
            "do not match their checksum: changed after they were written, so "
            "none of its values is used. Run the experiment afresh on a new "
            "store."
        )
    for key in ("config", "result", "keep_predictions"):
        try:
            value = json.loads(meta[key])
            if key == "result":
                value["metrics"], value["datasets"], value["learners"]  # noqa: B018
                if info_problem(value.get("info", {})) is not None:
                    raise ValueError(info_problem(value.get("info", {})))
        except (KeyError, TypeError, ValueError, RecursionError, AttributeError):
            raise NotAStoreError(
                f"The store {str(path)!r} lacks its metadata {key!r} (or it is "
                "not valid): damaged, or not written whole by sklearn_bench. "
                "Without it the store cannot be read, grown or salvaged; run the "
                "experiment afresh on a new store."
            ) from None
    _check_directions(json.loads(meta["result"])["metrics"], path)
    _check_ordinals(conn, path)
    return meta


def _check_directions(metrics, path):
    """Refuse a known metric stored with the wrong direction."""
    if not isinstance(metrics, dict):
        raise NotAStoreError(f"The store {str(path)!r} lists no metric directions.")
    wrong = wrong_direction(metrics)
    if wrong is not None:
        raise NotAStoreError(
            f"The store {str(path)!r} was refused, and left untouched: {wrong}. A "
            "store cannot change the direction of a known metric."
        )


_TEXT_FIELDS = ["error_type", "error_message", "traceback"]
_TASK_COLUMNS = "ordinal, dataset, split, replicate, fold, learner"
_COMPARED = "metric_index, metric, value, n_train, n_test, error_type"
