"""The reader of a store: read-only access to its scores, kept predictions and
checksums (reading never changes a store)."""

import json

import numpy as np
import pandas as pd

from ._files import _LOCK_TIMEOUT, _as_path, _check_file, _check_wal, _read_only_uri
from ._integrity import has_checksums, read_task, task_digest
from ._schema import _TEXT_FIELDS, _check_meta, _checked, _connect, check_integrity


def _open_reader(path):
    """A read-only connection to a store that passed every check, and its meta."""
    path = _as_path(path)
    if not path.exists():
        raise FileNotFoundError(f"No store at {str(path)!r}.")
    _check_file(path)
    if path.stat().st_size == 0:
        raise ValueError(f"The store {str(path)!r} is empty (no run was started).")
    _check_wal(path)
    # Read-only: reading (report, from_store, store check, merge's sources)
    # never changes a store. A read-write connection checkpoints the -wal file
    # into the database when it closes, which made a damaged -wal permanent.
    conn = _connect(_read_only_uri(path), uri=True, timeout=_LOCK_TIMEOUT)

    def check(conn):
        check_integrity(conn, path)
        meta = _check_meta(conn, path)
        if not meta:
            raise ValueError(f"The store {str(path)!r} holds no run yet.")
        return meta

    return conn, _checked(conn, path, check)


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

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import read_store
    >>> store = Path(tempfile.mkdtemp()) / "run.sqlite"
    >>> exp = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...                           progress=False, store=store)
    >>> _ = exp.fit({"iris": load_iris(return_X_y=True)})
    >>> content = read_store(store)
    >>> content["n_tasks"], content["n_missing_tasks"], len(content["scores"])
    (3, 0, 3)
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

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import read_predictions
    >>> store = Path(tempfile.mkdtemp()) / "run.sqlite"
    >>> exp = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...                           progress=False, store=store,
    ...                           keep_predictions=True)
    >>> _ = exp.fit({"iris": load_iris(return_X_y=True)})
    >>> predictions = read_predictions(store)
    >>> len(predictions), list(predictions.columns[-2:])
    (150, ['row', 'correct'])
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


def verify_checksums(path):
    """SQLite's full ``integrity_check`` and every committed task of a store
    against its checksum (read-only).

    Returns
    -------
    report : dict
        ``n_committed``, ``n_verified`` (digest matches), ``n_unverified`` (no
        digest: written before checksums), ``mismatched`` (list of
        ``(dataset, split, learner)`` whose rows differ from their digest).

    Examples
    --------
    >>> import tempfile
    >>> from pathlib import Path
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import verify_checksums
    >>> store = Path(tempfile.mkdtemp()) / "run.sqlite"
    >>> exp = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...                           progress=False, store=store)
    >>> _ = exp.fit({"iris": load_iris(return_X_y=True)})
    >>> report = verify_checksums(store)
    >>> report["n_committed"], report["n_verified"], report["mismatched"]
    (3, 3, [])
    """
    conn, _ = _open_reader(path)
    try:
        check_integrity(conn, path, full=True)  # every index against its table
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
