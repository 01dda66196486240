"""The store's schema: its tables, its task record, its errors and the checks of
what an opened file holds.

The store is an SQLite journal of a benchmark experiment, written task by task by
the driver (plain data below the results, so :meth:`BenchmarkResult.from_store`
reads it without the experiment). It grows with its study: a task is identified by
its content (the data set's fingerprint, the split's rows, the learner's name and
parameters) under the store's shared settings (:func:`combine_configs`).

Layout (schema version 5), all in one SQLite file in WAL mode:

- ``meta(key, value)``: ``schema_version``, ``format`` (a marker), ``config`` (JSON:
  the configuration of every run of the store: the union of their learners, data
  set fingerprints and split fingerprints, and the settings they share),
  ``result`` (JSON: metrics with their direction, data sets, learners and
  provenance of the :class:`BenchmarkResult`), ``keep_predictions``, and the
  store's own digests ``digest`` (of every other row of ``meta``) and
  ``tasks_digest`` (of the task list), and, once every task is committed,
  ``sealed`` (the digest of the set of committed tasks: a finished store that
  loses tasks is refused, a killed run, never sealed, resumes).
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
- ``losses(ordinal, n, metrics, rows, loss)``: the pointwise validation losses
  of a task (kept for the metrics that are means of pointwise losses, when the
  splitter has ``split_roles()`` or predictions are kept): ``metrics`` the
  metric indices (``"0,2"``), ``rows`` the n validation rows (uint32) and
  ``loss`` the losses metric by metric (float64), each a zlib-compressed
  little-endian array, never pickled.
- ``checksums(ordinal, digest)``: a 128-bit BLAKE2b digest of each committed
  task's task row and its rows in every table that has an ``ordinal`` column
  (scores, predictions, losses, and any table a later version adds), committed with
  them (see :mod:`._integrity`); salvage keeps only tasks whose digest matches.

Every row is covered by a digest, by a rule read from the schema itself
(:func:`task_tables`): a table with an ``ordinal`` column by its task's checksum,
``tasks`` by the task-list digest, every other table by the settings digest. A
task is committed with its rows in one transaction (a killed process loses at most
the tasks in flight), and the writer holds SQLite's write lock (``BEGIN
IMMEDIATE``) for the whole run while readers see every committed task (WAL).

Versions 1 to 4 were written by development versions before 0.2 (never
released): the settings of versions 1 to 3 are not covered by a digest and
version 4 has no ``losses`` table; they are refused with a message (run the
study afresh).
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


class Task(NamedTuple):
    """One learner on one split of one data set: the record a store keeps of a
    task; ``(dataset, split, learner)`` is its stable id, ``replicate`` and ``fold``
    say which learning sample the split belongs to."""

    dataset: str
    split: int
    replicate: int
    fold: int
    learner: str


class NotAStoreError(ValueError):
    """A path that is not a sklearn_bench store this version can use (a folder,
    another file, another SQLite database, a newer schema); left untouched."""


class StoreMismatchError(ValueError):
    """A store that holds a run of another configuration; the message lists the
    differences."""


class CorruptStoreError(ValueError):
    """A store whose SQLite file is damaged; the message names it and the way out."""


def _is_corruption(exc):
    """SQLite's "malformed" / "not a database": a plain ``DatabaseError``.

    Its subclass ``OperationalError`` is a lock, a full disk, a missing folder:
    not damage to the file.
    """
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
    """SQLite's ``PRAGMA quick_check`` (every page once, a few ms per MB) or,
    with ``full``, ``integrity_check`` (also every index against its table) on an
    open store; a ``CorruptStoreError`` when it fails."""
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
    """``check(conn)``; when it fails the connection is closed, and SQLite's
    "malformed" becomes the store's :class:`CorruptStoreError`."""
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
    """``sqlite3.connect`` for a store: the SQL a store file holds is never
    trusted (``PRAGMA trusted_schema=OFF``: no function with side effects in a
    view, trigger, index or generated column of the file)."""
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
    """Create the tables of a store (one statement at a time: ``executescript``
    would commit the open transaction)."""
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
        columns = {
            name: [(c[1], c[5]) for c in conn.execute(f"PRAGMA table_info({name})")]
            for kind, name, _, _ in rows
            if kind == "table"
        }
        return rows, columns
    finally:
        conn.close()


def _our_schema():
    """``(type, name, table, sql)`` of every object of a store, as this version
    creates them (tables and SQLite's own indexes of their keys)."""
    rows = _schema_rows()[0]
    return frozenset((t, n, tb, _normal_sql(sql)) for t, n, tb, sql in rows)


@functools.cache
def task_tables():
    """The tables whose rows belong to one task, read from the schema: every
    table with an ``ordinal`` column but ``tasks`` and ``checksums``, in the
    schema's order, as ``{name: (index of the ordinal column, ORDER BY of its
    primary key)}``. A task's checksum covers its rows in each of them."""
    out = {}
    for name, columns in _schema_rows()[1].items():
        names = [c for c, _ in columns]
        if "ordinal" in names and name not in ("tasks", "checksums"):
            key = [c for c, pk in sorted(columns, key=lambda c: c[1]) if pk]
            out[name] = (names.index("ordinal"), ", ".join(key))
    return out


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


# The keys of ``meta`` that hold the store's own digests (not digested).
DIGEST_KEYS = ("digest", "tasks_digest")


def settings_digest(conn):
    """The digest of the settings: every row of every table without an
    ``ordinal`` column (:func:`settings_tables`: ``meta``, its digests
    aside), as hex."""
    digest = hashlib.blake2b(digest_size=16)
    for table, key in settings_tables().items():
        rows = conn.execute(f"SELECT * FROM {table} ORDER BY {key}").fetchall()
        rows = [r for r in rows if not (table == "meta" and r[0] in DIGEST_KEYS)]
        digest.update(table.encode() + len(rows).to_bytes(8, "little"))
        for row in rows:
            digest.update(len(row).to_bytes(2, "little"))
            for value in row:
                _feed(digest, value)
    return digest.hexdigest()


@functools.cache
def settings_tables():
    """The tables the settings digest covers, read from the schema: every table
    without an ``ordinal`` column (``meta``), as ``{name: ORDER BY}``."""
    return {
        name: ", ".join(c for c, pk in sorted(columns, key=lambda c: c[1]) if pk)
        for name, columns in _schema_rows()[1].items()
        if "ordinal" not in [c for c, _ in columns]
    }


def _foreign_objects(rows):
    """The rows of ``sqlite_master`` that a store of ours does not have (a
    trigger, a view, another table or index, a table of other columns)."""
    ours = _our_schema()
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
    """Refuse task ordinals that no writer of ours makes: a run registers its
    tasks as 0, 1, 2, ... after the stored ones, so they lie in
    ``[0, number of tasks)``, and every score row belongs to a task."""
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


def _check_meta(conn, path):
    """The store's meta dict; ``{}`` for an empty database; errors for others.

    The objects of the file are checked against this version's schema before
    any row is read: a store holds exactly our tables, nothing else."""
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
    if version > SCHEMA_VERSION:
        raise NotAStoreError(
            f"The store {str(path)!r} has schema version {version}, written by a "
            f"newer sklearn_bench; this one reads versions <= {SCHEMA_VERSION}. "
            "Upgrade sklearn_bench; the store was left untouched."
        )
    if 1 <= version < SCHEMA_VERSION:
        raise NotAStoreError(
            f"The store {str(path)!r} has schema version {version}, written by a "
            "development version of sklearn_bench before 0.2 (another layout"
            + (", settings without a checksum" if version < 4 else "")
            + f"); this version reads schema {SCHEMA_VERSION} only. It was left "
            "untouched: run the experiment afresh on a new store (or read it "
            "with the version that wrote it)."
        )
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
    """Refuse a store that says a known metric is better the other way round
    (``{"error_rate": true}`` ranks the worst learner first)."""
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
