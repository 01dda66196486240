"""The checksums of many tasks at once: the bytes :func:`~._integrity.task_digest`
feeds one value at a time (27 s for a million tasks) laid out with numpy, the same
digests; odd values are left to ``task_digest``."""

import hashlib

import numpy as np
import pandas as pd

from ._integrity import TAGS, _Pieces, read_task, task_digest
from ._schema import (
    DIGEST_KEYS,
    CorruptStoreError,
    _feed,
    settings_digest,
    table_part,
    task_tables,
)

# SQLite types of a number column read by read_store: 0 the expected type
# (real for a score or a time, integer for a size), 1 NULL, 2 anything else.
REAL_TYPE = "CASE typeof({0}) WHEN 'real' THEN 0 WHEN 'null' THEN 1 ELSE 2 END"
INT_TYPE = "CASE typeof({0}) WHEN 'integer' THEN 0 WHEN 'null' THEN 1 ELSE 2 END"
_CHUNK = 20_000  # tasks laid out at a time (bounds the index arrays)


# The columns a reader takes from a store: the task records and the score rows
# as numpy record arrays (numbers with their SQLite type: 0 the expected one,
# 1 NULL, 2 another), the failure texts apart.
TASKS_QUERY = (
    "SELECT ordinal, split, replicate, fold, dataset, learner FROM tasks "
    "ORDER BY ordinal"
)
FAILURES_QUERY = (
    "SELECT ordinal, metric_index, error_type, error_message, traceback FROM "
    "scores WHERE error_type != '' OR error_message != '' OR traceback != '' "
    "ORDER BY ordinal, metric_index"
)
TASK_DTYPE = [(c, "i8") for c in ("ordinal", "split", "replicate", "fold")] + [
    ("dataset", object),
    ("learner", object),
]
_NUMBERS = dict.fromkeys(("value", "fit_time", "score_time"), "f8")
_NUMBERS |= {"n_train": "i8", "n_test": "i8"}
ROW_DTYPE = [
    ("ordinal", "i8"),
    ("metric_index", "i8"),
    *[(c + e, t) for c, k in _NUMBERS.items() for e, t in [("", k), ("_type", "i1")]],
    *[(f"s_{c}", "i8") for c in ("split", "replicate", "fold")],
]
ROWS_QUERY = (
    "SELECT ordinal, metric_index, "
    + ", ".join(
        f"CAST(ifnull({c}, 0.0) AS REAL), {REAL_TYPE.format(c)}"
        if k == "f8"
        else f"CAST(ifnull({c}, -1) AS INTEGER), {INT_TYPE.format(c)}"
        for c, k in _NUMBERS.items()
    )
    + ", CAST(split AS INTEGER), CAST(replicate AS INTEGER), CAST(fold AS INTEGER) "
    "FROM scores ORDER BY ordinal, metric_index"
)
# The texts of the score rows of a range of tasks, read a chunk at a time (a
# million rows' texts held at once cost a few hundred MB).
TEXTS_QUERY = (
    "SELECT dataset, learner, metric FROM scores WHERE ordinal BETWEEN ? AND ? "
    "ORDER BY ordinal, metric_index"
)


def records(cursor, dtype, chunk=65536):
    """A query's rows as a numpy record array, converted chunk by chunk (so that
    at most ``chunk`` rows are Python tuples at a time)."""
    parts = []
    while rows := cursor.fetchmany(chunk):
        try:
            parts.append(np.array(rows, dtype=dtype))
        except (ValueError, TypeError, OverflowError):  # a number of 1e308, a blob
            raise CorruptStoreError(
                "The store holds a task or score row whose ordinal, index or ids "
                "are not integers, which sklearn_bench never writes: tampered "
                "with or damaged; it was refused and left untouched."
            ) from None
    return np.concatenate(parts) if parts else np.array([], dtype=dtype)


def _numbers(values, tag, dtype, null=None):
    """Tagged 9-byte numbers (``N`` alone where ``null``), as a piece:
    ``(pool, starts, lens, sizes)``."""
    n = len(values)
    pool = np.empty((n, 9), dtype=np.uint8)
    pool[:, 0] = ord(tag)
    pool[:, 1:] = np.ascontiguousarray(values, dtype=dtype).view(np.uint8).reshape(n, 8)
    lens = np.full(n, 9, dtype=np.int64)
    sizes = [9]
    if null is not None and null.any():
        pool[null, 0] = ord("N")
        lens[null] = 1
        sizes = [1, 9]
    return pool.ravel(), np.arange(n, dtype=np.int64) * 9, lens, sizes


def _texts(values):
    """Tagged texts (``S``, length, UTF-8), each distinct one encoded once, as a
    piece; ``None`` when some value is not a ``str``."""
    codes, uniques = pd.factorize(np.asarray(values, dtype=object))
    if not all(type(u) is str for u in uniques):
        return None
    data = [u.encode("utf-8", "surrogatepass") for u in uniques]
    parts = [b"S" + len(d).to_bytes(8, "little") + d for d in data]
    lengths = np.array([len(p) for p in parts], dtype=np.int64)
    starts = np.concatenate([[0], np.cumsum(lengths)[:-1]]).astype(np.int64)
    pool = np.frombuffer(b"".join(parts), dtype=np.uint8)
    sizes = np.unique(lengths).tolist() if len(parts) <= 1000 else None
    return pool, starts[codes], lengths[codes], sizes


def _constant(data, n):
    pool = np.frombuffer(data, dtype=np.uint8)
    lens = np.full(n, len(data), dtype=np.int64)
    return pool, np.zeros(n, dtype=np.int64), lens, [len(data)]


def _only(piece, units, where):
    """A per-task piece spread over the rows: ``units`` is each row's task, and
    the piece is put only on the rows ``where`` is true (empty elsewhere)."""
    pool, starts, lens, sizes = piece
    return pool, starts[units], np.where(where, lens[units], 0), sizes


def _concatenate(pieces, n):
    """Per unit, the concatenation of its pieces (each ``(pool, starts, lens,
    sizes)`` with one entry per unit; ``sizes``: the distinct lengths, or
    ``None``): one flat buffer and the units' offsets."""
    lens = np.stack([p[2] for p in pieces])
    within = np.cumsum(lens, axis=0) - lens
    offsets = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(lens.sum(axis=0), out=offsets[1:])
    out = np.empty(offsets[-1], dtype=np.uint8)
    for k, (pool, starts, length, sizes) in enumerate(pieces):
        dst = offsets[:-1] + within[k]
        if sizes is not None and len(sizes) <= 16:  # by length: 2-D gathers
            every = len(sizes) == 1 and bool((length == sizes[0]).all())
            for size in sizes:
                at = slice(None) if every else np.flatnonzero(length == size)
                step = np.arange(size, dtype=np.int64)
                out[dst[at][:, None] + step] = pool[starts[at][:, None] + step]
            continue
        total = int(length.sum())
        before = np.cumsum(length) - length
        step = np.arange(total, dtype=np.int64)
        out[np.repeat(dst - before, length) + step] = pool[
            np.repeat(starts - before, length) + step
        ]
    return out, offsets


def task_digests(conn, tasks, rows, texts, predictions, others=None):
    """``(digests, odd)``: the digests of the committed ``tasks`` whose values
    have our types, and the ordinals of the others (for :func:`task_digest`)."""
    digests, odd_tasks = {}, []  # not `others`: the parameter
    for first in range(0, len(tasks), _CHUNK):
        chunk = tasks[first : first + _CHUNK]
        lo = np.searchsorted(rows["ordinal"], chunk["ordinal"][0])
        hi = np.searchsorted(rows["ordinal"], chunk["ordinal"][-1], side="right")
        names = conn.execute(
            TEXTS_QUERY, (int(chunk["ordinal"][0]), int(chunk["ordinal"][-1]))
        ).fetchall()
        got, odd = _chunk_digests(
            chunk, rows[lo:hi], names, texts, predictions, others or (b"", {})
        )
        digests.update(got)
        odd_tasks.extend(odd)
    return digests, odd_tasks


def _chunk_digests(tasks, rows, names, texts, predictions, others):
    """The digests of a chunk of tasks, their bytes laid out in one buffer."""
    n_rows, n_tasks = len(rows), len(tasks)
    if len(names) != n_rows:  # not the rows read: value by value
        return {}, tasks["ordinal"].tolist()
    s_dataset, s_learner, metric = (
        np.array(column, dtype=object) for column in zip(*names, strict=True)
    ) if names else (np.array([], dtype=object),) * 3  # fmt: skip
    error = [np.full(n_rows, "", dtype=object) for _ in range(3)]
    if texts:
        keys = zip(rows["ordinal"].tolist(), rows["metric_index"].tolist(), strict=True)
        at = {key: i for i, key in enumerate(keys)}
        for key, values in texts.items():
            i = at.get(key)
            if i is not None:
                for column, value in zip(error, values, strict=True):
                    column[i] = value
    first = np.searchsorted(rows["ordinal"], tasks["ordinal"])
    last = np.searchsorted(rows["ordinal"], tasks["ordinal"], side="right")
    unit = np.repeat(np.arange(n_tasks), last - first)  # each row's task
    is_first = np.zeros(n_rows, dtype=bool)
    is_first[first] = True
    is_last = np.zeros(n_rows, dtype=bool)
    is_last[last - 1] = True
    header = [
        _constant(b"T" + (1).to_bytes(8, "little") + (6).to_bytes(2, "little"),
                  n_tasks),
        _texts(tasks["dataset"]),
        _numbers(tasks["split"], "I", "<i8"),
        _numbers(tasks["replicate"], "I", "<i8"),
        _numbers(tasks["fold"], "I", "<i8"),
        _texts(tasks["learner"]),
        _constant(b"R", n_tasks),
        _numbers(last - first, "I", "<i8"),  # the count, its tag cut off below
    ]  # fmt: skip
    count = header[-1]
    header[-1] = (count[0], count[1] + 1, count[2] - 1, [8])
    row = [
        _constant((16).to_bytes(2, "little"), n_rows),
        _numbers(rows["metric_index"], "I", "<i8"),
        _texts(s_dataset),
        _texts(s_learner),
        *[_numbers(rows[c], "I", "<i8") for c in ("s_split", "s_replicate", "s_fold")],
        _texts(metric),
        *[_numbers(rows[c], "F", "<f8", rows[f"{c}_type"] == 1)
          for c in ("value", "fit_time", "score_time")],
        *[_numbers(rows[c], "I", "<i8", rows[f"{c}_type"] == 1)
          for c in ("n_train", "n_test")],
        *[_texts(column) for column in error],
    ]  # fmt: skip
    if any(piece is None for piece in header + row):  # a text that is not text
        return {}, tasks["ordinal"].tolist()  # all of the chunk, value by value
    pieces = [_only(p, unit, is_first) for p in header] + row
    pieces.append(_only(_predictions(tasks, predictions), unit, is_last))
    data, offsets = _concatenate(pieces, n_rows)
    odd_rows = np.zeros(n_rows, dtype=bool)
    for c in ("value", "fit_time", "score_time", "n_train", "n_test"):
        odd_rows |= rows[f"{c}_type"] == 2  # another type: task_digest's
    odd = set(rows["ordinal"][odd_rows].tolist())
    view, starts, ends = memoryview(data), offsets[first].tolist(), offsets[last]
    digests = {}
    empty, extra = others
    for ordinal, start, end in zip(
        tasks["ordinal"].tolist(), starts, ends.tolist(), strict=True
    ):
        if ordinal not in odd:
            digest = hashlib.blake2b(view[start:end], digest_size=16)
            digest.update(extra.get(ordinal, empty))
            digests[ordinal] = digest.digest()
    return digests, sorted(odd)


def other_tables(conn):
    """``(empty, {ordinal: bytes})``: the per-task tables other than scores and
    predictions, as fed to a task's digest."""
    tables = [(n, at, key) for n, (at, key) in task_tables().items() if n not in TAGS]
    grouped = []
    for name, at, key in tables:
        rows = {}
        for row in conn.execute(f"SELECT * FROM {name} ORDER BY ordinal, {key}"):
            rows.setdefault(row[at], []).append(row)
        grouped.append(rows)

    def part(ordinal):
        fed = _Pieces()
        for (name, at, _), rows in zip(tables, grouped, strict=True):
            table_part(fed, name.encode(), rows.get(ordinal, ()), at)
        return b"".join(fed)

    return part(None), {o: part(o) for o in set().union(*grouped)}


def _predictions(tasks, predictions):
    """The predictions part of each task's bytes, as a per-task piece."""
    empty = b"P" + bytes(8)  # no kept predictions
    kept = [o for o in tasks["ordinal"].tolist() if o in predictions]
    if not kept:
        return _constant(empty, len(tasks))
    parts = [empty] * len(tasks)
    for i in np.searchsorted(tasks["ordinal"], kept).tolist():
        p, fed = predictions[int(tasks["ordinal"][i])], _Pieces()
        for value in p[1:]:
            _feed(fed, value)
        parts[i] = (
            b"P" + (1).to_bytes(8, "little") + len(p).to_bytes(2, "little")
            + b"".join(fed)
        )  # fmt: skip
    lens = np.array([len(part) for part in parts], dtype=np.int64)
    return np.frombuffer(b"".join(parts), np.uint8), np.cumsum(lens) - lens, lens, None


def committed_digests(conn):
    """``({ordinal: digest} of the committed tasks, task records)``."""
    task_rows = records(conn.execute(TASKS_QUERY), TASK_DTYPE)
    rows = records(conn.execute(ROWS_QUERY), ROW_DTYPE)
    failures = conn.execute(FAILURES_QUERY).fetchall()
    return _digests(conn, task_rows, rows, failures), task_rows


def _digests(conn, task_rows, rows, failures):
    predictions = {p[0]: p for p in conn.execute("SELECT * FROM predictions")}
    ordinals = rows["ordinal"]  # sorted
    done = (
        ordinals[np.r_[True, ordinals[1:] != ordinals[:-1]]] if len(rows) else ordinals
    )
    tasks = task_rows[np.searchsorted(task_rows["ordinal"], done)]
    texts = {(o, m): (t or "", e or "", b or "") for o, m, t, e, b in failures}
    digests, others = task_digests(
        conn, tasks, rows, texts, predictions, other_tables(conn)
    )
    for ordinal in others:
        digests[ordinal] = task_digest(*read_task(conn, ordinal))
    return digests


def task_list_digest(task_rows):
    """The digest of the task list (the records of :data:`TASKS_QUERY`), hex."""
    digest = hashlib.blake2b(digest_size=16)
    digest.update(len(task_rows).to_bytes(8, "little"))
    for column in ("ordinal", "split", "replicate", "fold"):
        digest.update(np.ascontiguousarray(task_rows[column], dtype="<i8").tobytes())
    for column in ("dataset", "learner"):
        codes, names = pd.factorize(task_rows[column])
        digest.update(np.ascontiguousarray(codes, dtype="<i8").tobytes())
        for name in names:
            _feed(digest, name)
    return digest.hexdigest()


def task_list_matches(meta, task_rows):
    """Whether ``task_rows`` is the task list of the store's ``tasks_digest``."""
    return meta.get("tasks_digest") == task_list_digest(task_rows)


def sealed_digest(conn):
    """Hex digest of the ordinals with a checksum (``meta.sealed``)."""
    ordinals = sorted(repr(o) for (o,) in conn.execute("SELECT ordinal FROM checksums"))
    return hashlib.blake2b(",".join(ordinals).encode(), digest_size=16).hexdigest()


def check_sealed(conn, meta, path):
    """Refuse a sealed store whose committed tasks are not those it was sealed
    with (e.g. a study thinned to favour a learner)."""
    if "sealed" in meta and meta["sealed"] != sealed_digest(conn):
        raise CorruptStoreError(
            f"The store {str(path)!r} is corrupt: it holds a finished run, but not "
            "the set of tasks that run committed (tasks were removed or added "
            "after it ended): tampered with, so none of its values is used. Run "
            "the experiment afresh on a new store."
        )


def seal(conn, *, tasks=True):
    """Write the task list's (with ``tasks``) and the settings' digests."""
    rows = []
    if tasks:
        task_rows = records(conn.execute(TASKS_QUERY), TASK_DTYPE)
        rows.append((DIGEST_KEYS[1], task_list_digest(task_rows)))
    conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", rows)
    conn.execute(
        "INSERT OR REPLACE INTO meta VALUES (?, ?)",
        (DIGEST_KEYS[0], settings_digest(conn)),
    )


def sign_store(conn):
    """Checksum the committed tasks without one, then :func:`seal`: for stores
    whose rows code wrote itself (the benchmarks'), never for a foreign one."""
    have = {o for (o,) in conn.execute("SELECT ordinal FROM checksums")}
    digests, task_rows = committed_digests(conn)
    missing = [(o, d) for o, d in digests.items() if o not in have]
    conn.executemany("INSERT INTO checksums VALUES (?, ?)", missing)
    conn.execute("DELETE FROM meta WHERE key = 'sealed'")
    if len(have) + len(missing) == len(task_rows):  # every task committed: finished
        conn.execute("INSERT INTO meta VALUES ('sealed', ?)", (sealed_digest(conn),))
    seal(conn)
    return len(missing)
