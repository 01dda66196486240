"""The reader of a store: scores, kept predictions and losses, checksums verified."""

import contextlib
import json
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd

from .._metrics import out_of_bounds
from ._digests import (
    FAILURES_QUERY,
    ROW_DTYPE,
    ROWS_QUERY,
    TASK_DTYPE,
    TASKS_QUERY,
    _digests,
    check_sealed,
    records,
    task_list_matches,
)
from ._files import _LOCK_TIMEOUT, _as_path, _check_file, _check_wal, _read_only
from ._schema import (
    _TEXT_FIELDS,
    CorruptStoreError,
    _check_meta,
    _checked,
    check_integrity,
)


def _open_reader(path):
    """A read-only connection to a store that passed every check, and its meta."""
    path = _as_path(path)
    if not path.exists():
        raise FileNotFoundError(f"No store at {str(path)!r}.")
    _check_file(path)
    if path.stat().st_size == 0:
        raise ValueError(f"The store {str(path)!r} is empty (no run was started).")
    _check_wal(path.resolve())  # through a link: the -wal beside the file
    # Read-only: a read-write connection would checkpoint a damaged -wal.
    conn = _read_only(path, timeout=_LOCK_TIMEOUT)

    def check(conn):
        check_integrity(conn, path)
        meta = _check_meta(conn, path)
        if not meta:
            raise ValueError(f"The store {str(path)!r} holds no run yet.")
        return meta

    return conn, _checked(conn, path, check)


@contextlib.contextmanager
def _snapshot(path, *, full=False):
    """``(conn, meta)`` of a checked store, every query in one read transaction
    (``full``: SQLite's full ``integrity_check`` first)."""
    conn, meta = _open_reader(path)
    try:
        if full:
            check_integrity(conn, path, full=True)  # every index against its table
        conn.execute("BEGIN")
        yield conn, meta
        conn.execute("COMMIT")
    finally:
        conn.close()


def read_store(path, tasks=None):
    """What a :class:`BenchmarkResult` needs from a store, predictions aside: a dict
    of ``scores``, ``result``, ``keep_predictions``, ``has_losses``, ``n_tasks``,
    ``n_missing_tasks`` and ``done`` (ordinals read, in the order of ``scores``).
    ``tasks``: only these ``(dataset, split, learner)`` ids, in this order."""
    with _snapshot(path) as (conn, meta):
        task_rows, rows, failures, failed = _read_verified(conn, path, meta)
        metric_names = dict(
            conn.execute("SELECT DISTINCT metric_index, metric FROM scores")
        )
        has_losses = conn.execute("SELECT 1 FROM losses LIMIT 1").fetchone()
    if failed:
        _refuse_tampered(path, failed)
    result = json.loads(meta["result"])
    scores, done, n_tasks = _scores_frame(
        task_rows, rows, failures, metric_names, tasks, result
    )
    return {
        "scores": scores,
        "result": result,
        "keep_predictions": json.loads(meta["keep_predictions"]),
        "has_losses": has_losses is not None,
        "n_tasks": n_tasks,
        "n_missing_tasks": n_tasks - len(done),
        "done": done,
    }


def _read_verified(conn, path, meta):
    """Task records, score rows, failure texts and the tasks whose checksum fails."""
    task_rows = records(conn.execute(TASKS_QUERY), TASK_DTYPE)
    rows = records(conn.execute(ROWS_QUERY), ROW_DTYPE)
    failures = conn.execute(FAILURES_QUERY).fetchall()
    failed = _check_digests(conn, path, meta, task_rows, rows, failures)
    if not failed:
        _check_values(path, meta, task_rows, rows, failures)
    return task_rows, rows, failures, failed


def _check_values(path, meta, task_rows, rows, failures):
    """Refuse (naming the first) a row whose value is of another type, a size or
    time below its range or a score outside its metric's bounds: the digests
    hold no secret, so anyone can sign a store."""
    metrics = list(json.loads(meta["result"])["metrics"])
    index = rows["metric_index"]
    known = (index >= 0) & (index < len(metrics))
    bad = {"a metric index outside the run's": ~known}
    for column in ("value", "fit_time", "score_time", "n_train", "n_test"):
        bad[f"a {column} that is not a number of its type"] = (
            rows[f"{column}_type"] == 2
        )
    plain = rows["n_train_type"] == 0
    bad["a negative size"] = (plain & (rows["n_train"] < 1)) | (
        (rows["n_test_type"] == 0) & (rows["n_test"] < 0)
    )
    for column in ("fit_time", "score_time"):
        bad[f"a negative {column}"] = (rows[f"{column}_type"] == 0) & ~(
            rows[column] >= 0
        )
    failed = {o for o, *_ in failures}
    scored = (rows["value_type"] == 0) & ~np.isin(rows["ordinal"], list(failed))
    scored &= np.isfinite(rows["value"])  # an infinity is named by the commands
    outside = np.zeros(len(rows), dtype=bool)
    for i, name in enumerate(metrics):
        at = scored & (index == i)
        outside[at] = out_of_bounds(name, rows["value"][at])
    bad["a score outside its metric's bounds"] = outside
    for what, mask in bad.items():
        if mask.any():
            r = rows[np.flatnonzero(mask)[0]]
            task = task_rows[np.searchsorted(task_rows["ordinal"], r["ordinal"])]
            i = int(r["metric_index"])
            metric = metrics[i] if 0 <= i < len(metrics) else "?"
            raise CorruptStoreError(
                f"The store {str(path)!r} was refused: learner {task['learner']!r} "
                f"on data set {task['dataset']!r} split {task['split']}, metric "
                f"{metric!r}, holds {what} (value {float(r['value'])!r}, "
                f"n_train {int(r['n_train'])}, n_test {int(r['n_test'])}), "
                "which sklearn_bench never writes; none of its values is used."
            )


def _check_digests(conn, path, meta, task_rows, rows, failures):
    """The ``(dataset, split, learner)`` of the tasks whose rows do not match
    their checksum; a task list that does not match is refused."""
    if not task_list_matches(meta, task_rows):
        raise CorruptStoreError(
            f"The store {str(path)!r} is corrupt: its task list does not match "
            "its checksum (tasks registered, removed or changed after they were "
            "written), so none of its values is used. Run the experiment afresh "
            "on a new store."
        )
    stored = dict(conn.execute("SELECT ordinal, digest FROM checksums"))
    digests = _digests(conn, task_rows, rows, failures)
    failed = {o for o, d in digests.items() if stored.get(o) != d}
    failed |= stored.keys() - digests.keys()  # rows deleted, checksum kept
    if not failed:  # every task intact: then none may be missing
        check_sealed(conn, meta, path)
    names = zip(
        task_rows["dataset"].tolist(),
        task_rows["split"].tolist(),
        task_rows["learner"].tolist(),
        strict=True,
    )
    known = dict(zip(task_rows["ordinal"].tolist(), names, strict=True))
    return [known.get(o, ("?", o, "?")) for o in sorted(failed)]


def _refuse_tampered(path, failed):
    shown = ", ".join(f"{m!r} on {d!r} split {s}" for d, s, m in failed[:5])
    more = f" and {len(failed) - 5} more" if len(failed) > 5 else ""
    raise CorruptStoreError(
        f"The store {str(path)!r} is corrupt: the rows of {len(failed)} committed "
        f"task(s) do not match their checksum ({shown}{more}): changed after "
        "they were written, so none of its values is used. Salvage the others "
        f"with `sklearn-bench store salvage {path} NEW.sqlite` (the changed "
        "tasks rerun when the experiment is fitted on the new store)."
    )


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
        out[col] = np.where(s[f"{col}_type"] == 1, np.nan, s[col])
    for col in ["n_train", "n_test"]:
        out[col] = s[col]
    texts = np.full((len(out), len(_TEXT_FIELDS)), "", dtype=object)
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
        texts[where] = fail[_TEXT_FIELDS].fillna("").to_numpy(dtype=object)
    for j, col in enumerate(_TEXT_FIELDS):
        out[col] = pd.Series(texts[:, j].copy(), dtype=object)
    return out, done, n_tasks


def predictions_loader(path, content):
    """A lazy :func:`read_predictions` of ``content = read_store(path, ...)``."""
    if not content["keep_predictions"]:
        return None
    return partial(read_predictions, Path(path).resolve(), content["done"])


def _verified_records(path, sql):
    """``(records of sql, meta)``, read in the transaction that verified them."""
    with _snapshot(path) as (conn, meta):
        failed = _read_verified(conn, path, meta)[-1]
        if failed:
            _refuse_tampered(path, failed)
        return conn.execute(sql).fetchall(), meta


def _in_order(records, ordinals):
    """The records of the tasks ``ordinals`` in that order (all: ``None``)."""
    if ordinals is None:
        return records
    rank = {o: i for i, o in enumerate(ordinals)}
    return sorted((r for r in records if r[0] in rank), key=lambda r: rank[r[0]])


def read_predictions(path, ordinals=None):
    """The kept predictions of a store as a long DataFrame (``dataset``,
    ``learner``, ``split``, ``replicate``, ``fold``, ``row`` and ``correct`` or
    ``y_pred``), of the tasks ``ordinals`` in this order (default: all)."""
    records, _ = _verified_records(
        path,
        "SELECT p.ordinal, t.dataset, t.learner, t.split, t.replicate, t.fold, "
        "p.n, p.rows, p.correct, p.y_pred FROM predictions p JOIN tasks t "
        "USING (ordinal) ORDER BY p.ordinal",
    )
    for r in records:  # sizes from the blobs stored, before anything is sized
        n, rows, correct, y_pred = r[6:]
        if not (
            type(n) is int
            and isinstance(rows, bytes)
            and len(rows) == 8 * n
            and (correct is None) != (y_pred is None)
            and (correct is None or (isinstance(correct, bytes) and len(correct) == n))
            and (y_pred is None or (isinstance(y_pred, bytes) and len(y_pred) == 8 * n))
        ):
            raise CorruptStoreError(
                f"The store {str(path)!r} is corrupt: the kept predictions of "
                f"learner {r[2]!r} on data set {r[1]!r} split {r[3]} are not of "
                f"their stated size ({n!r} rows), which sklearn_bench never "
                "writes; nothing was read."
            )
    items = []
    for r in _in_order(records, ordinals):
        correct = None if r[8] is None else np.frombuffer(r[8], "u1").astype(bool)
        y_pred = None if r[9] is None else np.frombuffer(r[9], "<f8")
        items.append((*r[1:6], np.frombuffer(r[7], "<i8"), correct, y_pred))
    return predictions_table(items)


def predictions_table(items):
    """The long table (``dataset``, ``learner`` as categorical codes, ``split``,
    ``replicate``, ``fold``, ``row`` and ``correct`` or ``y_pred``, both when
    classifiers and regressors are mixed) of ``(dataset, learner, split,
    replicate, fold, rows, correct or None, y_pred or None)`` items."""
    keys = ["dataset", "learner", "split", "replicate", "fold"]
    if not items:
        return pd.DataFrame(columns=[*keys, "row"])
    n = np.array([len(item[5]) for item in items])
    frame = {}
    for i, key in enumerate(keys):
        values = np.array([item[i] for item in items], dtype=object)
        if i < 2:
            codes, names = pd.factorize(values)
            frame[key] = pd.Categorical.from_codes(np.repeat(codes, n), names)
        else:
            frame[key] = np.repeat(values.astype(np.int64), n)
    frame["row"] = np.concatenate([item[5] for item in items])
    for i, key, empty in [(6, "correct", None), (7, "y_pred", np.nan)]:
        if any(item[i] is not None for item in items):
            frame[key] = np.concatenate(
                [
                    np.full(k, empty) if item[i] is None else item[i]
                    for item, k in zip(items, n, strict=True)
                ]
            )
    return pd.DataFrame(frame)


def losses_loader(path, content):
    """A lazy :func:`read_losses` of ``content = read_store(path, ...)``."""
    if not content.get("has_losses"):
        return None
    return partial(read_losses, Path(path).resolve(), content["done"])


def read_losses(path, ordinals=None):
    """The pointwise losses of a store (:func:`losses_table`), of the tasks
    ``ordinals`` in this order (default: all)."""
    from ._integrity import unpack_losses

    records, meta = _verified_records(
        path,
        "SELECT l.ordinal, t.dataset, t.learner, t.split, l.n, l.metrics, "
        "l.rows, l.loss, (SELECT s.n_test FROM scores s WHERE s.ordinal = "
        "l.ordinal AND s.metric_index = 0) FROM losses l JOIN tasks t USING "
        "(ordinal) ORDER BY l.ordinal",
    )
    names = list(json.loads(meta["result"])["metrics"])
    records = _in_order(records, ordinals)
    items = []
    for r in records:
        try:
            index, rows, loss = unpack_losses(*r[4:8], n_test=r[8])
            if index[-1] >= len(names):
                raise ValueError("pointwise losses of unknown metrics")
        except ValueError as exc:
            raise CorruptStoreError(
                f"The store {str(path)!r} is corrupt: the pointwise losses of "
                f"learner {r[2]!r} on data set {r[1]!r} split {r[3]}: {exc}, "
                "which sklearn_bench never writes; nothing was read."
            ) from None
        items.append((*r[1:4], index, rows, loss))
    return losses_table(items, names)


def losses_table(items, metric_names):
    """The long table (``dataset, learner, split, metric, row, loss``) of
    ``(dataset, learner, split, metric indices, rows, loss (k, n))`` items."""
    keys = ("dataset", "learner", "split", "metric", "row", "loss")
    parts = {k: [] for k in keys}
    names = np.array(metric_names, dtype=object)
    for dataset, learner, split, index, rows, loss in items:
        loss = np.asarray(loss, dtype=np.float64)
        k, n = loss.shape
        for key, value in zip(keys[:3], (dataset, learner, split), strict=True):
            parts[key].append(np.full(k * n, value, dtype=object))
        parts["metric"].append(np.repeat(names[list(index)], n))
        parts["row"].append(np.tile(np.asarray(rows, dtype=np.int64), k))
        parts["loss"].append(loss.ravel())
    frame = pd.DataFrame(
        {
            k: np.concatenate(v) if v else np.array([], dtype=object)
            for k, v in parts.items()
        }
    )
    return frame.astype({"split": np.int64, "row": np.int64, "loss": np.float64})


def verify_checksums(path):
    """SQLite's full ``integrity_check`` and every committed task of a store
    against its checksum (read-only).

    Returns
    -------
    report : dict
        ``n_committed``, ``n_verified`` (digest matches), ``mismatched`` (list
        of ``(dataset, split, learner)`` whose rows differ from their digest,
        that have none, or that have one but no rows).

    Raises
    ------
    CorruptStoreError
        The store is damaged, or its settings or task list do not match their
        checksums.

    Examples
    --------
    >>> import tempfile
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.naive_bayes import GaussianNB
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.store import verify_checksums
    >>> store = f"{tempfile.mkdtemp()}/run.sqlite"
    >>> _ = BenchmarkExperiment({"nb": GaussianNB()}, cv=3, random_state=0,
    ...     store=store, progress=False).fit(*load_iris(return_X_y=True))
    >>> report = verify_checksums(store)
    >>> report["n_committed"], report["n_verified"], report["mismatched"]
    (3, 3, [])
    """
    with _snapshot(path, full=True) as (conn, meta):
        _, rows, _, mismatched = _read_verified(conn, path, meta)
    n_committed = len(np.unique(rows["ordinal"]))
    return {
        "n_committed": n_committed,
        "n_verified": n_committed - len(mismatched),
        "mismatched": mismatched,
    }
