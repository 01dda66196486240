"""Per-task checksums and the domain checks of a store's rows (docs/cli.rst).

A task's digest is of its rows as SQLite returns them, its ordinal left out, so
merge and salvage copy it with the rows they verified and never make a new one.
"""

import hashlib
import json
import math
import zlib
from collections import Counter

import numpy as np

from .._metrics import out_of_bounds
from ._schema import table_part, task_tables

# The tags of a table's part of a task's bytes (the names of other tables).
TAGS = {"scores": b"R", "predictions": b"P"}


def pack_losses(losses):
    """The ``losses`` row ``(n, metrics, rows, loss)`` of a worker's losses, the
    arrays zlib-compressed little-endian uint32 and float64."""
    rows = np.asarray(losses["rows"], dtype="<u4")
    loss = np.asarray(losses["loss"], dtype="<f8").reshape(-1, rows.size)
    return (
        int(rows.size),
        ",".join(str(int(i)) for i in losses["metrics"]),
        zlib.compress(rows.tobytes()),
        zlib.compress(loss.tobytes()),
    )


def _inflate(data, limit):
    """``data`` decompressed, refused beyond ``limit`` bytes (a zip bomb)."""
    inflate = zlib.decompressobj()
    out = inflate.decompress(data, limit + 1)
    if len(out) > limit or inflate.unconsumed_tail:
        raise ValueError("pointwise losses of another size than stated")
    return out


def unpack_losses(n, metrics, rows, loss, *, n_test=None):
    """``(metric indices, rows, losses (k, n))`` of a ``losses`` row, else a
    ``ValueError`` (``n`` must equal ``n_test``)."""
    if not _is_int(n) or n < 0 or (n_test is not None and n != n_test):
        raise ValueError("pointwise losses of another size than stated")
    try:
        index = [int(i) for i in metrics.split(",")]
        rows = np.frombuffer(_inflate(rows, 4 * n), dtype="<u4")
        loss = np.frombuffer(_inflate(loss, 8 * n * len(index)), dtype="<f8")
    except (AttributeError, TypeError, zlib.error) as exc:
        raise ValueError(f"pointwise losses that cannot be read ({exc})") from None
    if not (rows.size == n and loss.size == len(index) * n):
        raise ValueError("pointwise losses of another size than stated")
    if sorted(set(index)) != index or not index or index[0] < 0:
        raise ValueError("pointwise losses of unknown metrics")
    return index, rows.astype(np.int64), loss.reshape(len(index), n)


class _Pieces(list):
    """Pieces fed as to a hash, hashed in one call (small updates cost more)."""

    update = list.append


def task_digest(task, tables):
    """The digest of a task row and its ``{table: rows}`` (as ``SELECT *``)."""
    fed = _Pieces()
    table_part(fed, b"T", [task], 0)
    for name, (at, _) in task_tables().items():
        table_part(fed, TAGS.get(name, name.encode()), tables.get(name, ()), at)
    return hashlib.blake2b(b"".join(fed), digest_size=16).digest()


def read_rows(conn, ordinal):
    """``{table: rows}`` of one task in every per-task table, as stored."""
    return {
        name: conn.execute(
            f"SELECT * FROM {name} WHERE ordinal = ? ORDER BY {key}", (ordinal,)
        ).fetchall()
        for name, (_, key) in task_tables().items()
    }


def read_task(conn, ordinal):
    """``(task, {table: rows})`` of one task, as stored."""
    task = conn.execute("SELECT * FROM tasks WHERE ordinal = ?", (ordinal,)).fetchone()
    return task, read_rows(conn, ordinal)


# Ordinals per ``IN (...)`` query (below SQLite's limit on parameters).
_IN_CHUNK = 500


def store_checksums(conn, ordinals):
    """Insert the digests of tasks just written, read back in the transaction."""
    ordinals = list(ordinals)
    for first in range(0, len(ordinals), _IN_CHUNK):
        chunk = ordinals[first : first + _IN_CHUNK]
        where = f"WHERE ordinal IN ({', '.join('?' * len(chunk))})"
        tasks = {r[0]: r for r in conn.execute(f"SELECT * FROM tasks {where}", chunk)}
        tables = {}
        for name, (at, key) in task_tables().items():
            grouped = tables[name] = {}
            query = f"SELECT * FROM {name} {where} ORDER BY ordinal, {key}"
            for row in conn.execute(query, chunk):
                grouped.setdefault(row[at], []).append(row)
        digests = [
            (o, task_digest(tasks.get(o), {n: g.get(o, ()) for n, g in tables.items()}))
            for o in chunk
        ]
        conn.executemany("INSERT OR REPLACE INTO checksums VALUES (?, ?)", digests)


def _is_int(value):
    return type(value) is int


def _is_text(value):
    return type(value) is str


def _is_time(value):
    return value is None or (
        type(value) is float and math.isfinite(value) and value >= 0
    )


class RunFacts:
    """What the run's own ``meta`` says a task's rows must be."""

    def __init__(self, meta):
        config = json.loads(meta["config"])
        result = json.loads(meta["result"])
        self.metrics = list(result["metrics"])
        self.datasets = set(result["datasets"]) | set(config.get("datasets", {}))
        self.learners = set(result["learners"]) | set(config.get("learners", {}))
        self.splits = {
            name: len(prints) for name, prints in config.get("splits", {}).items()
        }
        self.sizes = result.get("info", {}).get("dataset_sizes", {}) or {}
        self.keep_predictions = json.loads(meta["keep_predictions"])

    def task_problem(self, task):
        """Why a task row is not one of this run (``None``: it is)."""
        if len(task) != 6:
            return "a task row of another shape"
        ordinal, dataset, split, replicate, fold, learner = task
        if not (_is_int(ordinal) and ordinal >= 0):
            return "an invalid ordinal"
        if not (_is_text(dataset) and dataset in self.datasets):
            return f"an unknown data set {dataset!r}"
        if not (_is_text(learner) and learner in self.learners):
            return f"an unknown learner {learner!r}"
        if not (_is_int(split) and split >= 0):
            return "an invalid split id"
        if dataset in self.splits and split >= self.splits[dataset]:
            return f"split {split} out of range (the run has {self.splits[dataset]})"
        if not (_is_int(replicate) and replicate >= 0):
            return "an invalid replicate id"
        if not (_is_int(fold) and fold >= 0):
            return "an invalid fold id"
        return None

    def rows_problem(self, task, tables):
        """Why a committed task's rows (``{table: rows}``) cannot be trusted
        (``None``: they pass)."""
        ordinal, dataset, split, replicate, fold, learner = task
        scores = tables.get("scores", [])
        prediction = next(iter(tables.get("predictions", [])), None)
        if len(scores) != len(self.metrics):
            return f"{len(scores)} score rows for {len(self.metrics)} metrics"
        failed = None
        sizes = None
        for index, row in enumerate(scores):
            if len(row) != 16:
                return "a score row of another shape"
            (o, m_index, d, m, s, r, f, metric, value, fit_time, score_time,
             n_train, n_test, error_type, error_message, tb) = row  # fmt: skip
            own = (ordinal, dataset, learner, split, replicate, fold)
            if (o, d, m, s, r, f) != own:
                return "a score row of another task"
            if not (_is_int(m_index) and m_index == index):
                return f"metric index {m_index!r} out of range"
            if metric != self.metrics[index]:
                return f"metric {metric!r} where the run has {self.metrics[index]!r}"
            if not all(map(_is_text, (error_type, error_message, tb))):
                return "a failure text that is not text"
            row_failed = error_type != ""
            if failed is not None and row_failed != failed:
                return "a failure on some metrics only"
            failed = row_failed
            if value is None:
                if not failed:
                    return "a missing score of a task that did not fail"
            elif type(value) is not float:
                return f"a score stored as {type(value).__name__}"
            elif not (math.isfinite(value) or failed):
                return f"a non-finite score {value!r}"
            elif not failed and out_of_bounds(metric, value):
                return f"a score {value!r} outside the bounds of {metric}"
            if not (_is_time(fit_time) and _is_time(score_time)):
                return "an invalid fit or score time"
            if not (_is_int(n_train) and _is_int(n_test)):
                return "sizes that are not integers"
            if sizes is not None and (n_train, n_test) != sizes:
                return "sizes that differ between metrics"
            sizes = (n_train, n_test)
        n_train, n_test = sizes
        problem = self._sizes_problem(dataset, n_train, n_test)
        if problem:
            return problem
        if self.keep_predictions and prediction is None and not failed:
            return "kept predictions missing"
        if prediction is not None:
            problem = self._prediction_problem(dataset, prediction, n_test)
            if problem:
                return problem
        losses = next(iter(tables.get("losses", [])), None)
        if losses is not None:
            return self._losses_problem(dataset, losses, n_test, failed)
        return None

    def _losses_problem(self, dataset, row, n_test, failed):
        if len(row) != 5:
            return "a losses row of another shape"
        try:
            index, rows, loss = unpack_losses(*row[1:], n_test=n_test)
        except ValueError as exc:
            return str(exc)
        if failed or rows.size != n_test or index[-1] >= len(self.metrics):
            return "pointwise losses of another task"
        bound = self._row_bound(dataset)
        if (bound is not None and (rows >= bound).any()) or not np.isfinite(loss).all():
            return "pointwise losses or rows out of range"
        return None

    def _row_bound(self, dataset):
        size = self.sizes.get(dataset)
        if isinstance(size, dict):
            return size.get("n_test") or size.get("n_samples")
        return None

    def _sizes_problem(self, dataset, n_train, n_test):
        if n_train < 1 or n_test < 0:
            return f"sizes n_train={n_train}, n_test={n_test} out of range"
        size = self.sizes.get(dataset)
        if not isinstance(size, dict):
            return None
        if "n_test" not in size and n_test > size.get("n_samples", n_test):
            return f"n_test={n_test} beyond the {size['n_samples']} samples"
        for key, value in (("n_test", n_test), ("n_train", n_train)):
            if key in size and "n_samples" not in size and value != size[key]:
                return f"{key}={value} where the data set has {size[key]}"
        if "n_test" in size and "n_samples" in size and n_test != size["n_test"]:
            return f"n_test={n_test} where the test sample has {size['n_test']}"
        return None

    def _prediction_problem(self, dataset, prediction, n_test):
        if len(prediction) != 5:
            return "a predictions row of another shape"
        _, n, rows, correct, y_pred = prediction
        if not (_is_int(n) and n == n_test):
            return f"{n!r} kept predictions for n_test={n_test}"
        if not (isinstance(rows, bytes) and len(rows) == 8 * n):
            return "kept prediction rows of the wrong length"
        index = np.frombuffer(rows, dtype="<i8")
        bound = self._row_bound(dataset)
        if (index < 0).any() or (bound is not None and (index >= bound).any()):
            return "kept prediction rows out of range"
        if correct is not None:
            if y_pred is not None or not isinstance(correct, bytes):
                return "kept predictions of another type"
            if len(correct) != n or (np.frombuffer(correct, dtype="u1") > 1).any():
                return "kept correct/incorrect flags that are not 0/1"
            return None
        if not (isinstance(y_pred, bytes) and len(y_pred) == 8 * n):
            return "kept predicted values of the wrong length"
        if (np.frombuffer(y_pred, dtype="<u8") == 2**64 - 1).any():
            return "kept predicted values of a lost page"
        return None


def consensus(groups):
    """The keys of ``{group: {key: value}}`` whose value is not that of a strict
    majority of their group."""
    out = set()
    for members in groups.values():
        counts = Counter(members.values())
        value, n = counts.most_common(1)[0]
        trusted = value if 2 * n > len(members) else object()
        out.update(k for k, v in members.items() if v != trusted)
    return out
