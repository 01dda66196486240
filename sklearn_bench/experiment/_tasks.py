"""Tasks of a benchmark experiment and the worker that runs one of them.

A task is one learner on one split of one data set. :func:`run_task` is a
module-level function of plain inputs that returns plain rows, so it can run in
any joblib backend (loky, threading, dask) and a store written only by the driver
can record its rows; tasks are identified by :class:`Task`, whose fields are stable
across runs of the same configuration.
"""

import os
import threading
import time
import traceback
import zlib

import numpy as np
from sklearn.base import clone
from sklearn.utils import _safe_indexing

from ..store import Task  # noqa: F401  (the record a store keeps of a task)

# Purposes of the seeds derived from (random_state, data set, replicate).
SEED_LEARNER, SEED_CV, SEED_LEARNING_SAMPLE, SEED_TEST_SAMPLE = 0, 1, 2, 3


def stable_hash(name):
    """A 32-bit hash of a string that is the same in every process and run.

    Python's ``hash`` of a string is salted per process, so it cannot be used to
    derive seeds; this is CRC-32 of the UTF-8 bytes.
    """
    return zlib.crc32(name.encode("utf-8"))


def derive_seed(base, dataset, purpose, replicate=0):
    """Seed in [0, 2**32) from the experiment seed, a data set, a purpose, a replicate.

    ``SeedSequence([base, stable_hash(dataset), purpose, replicate])`` and its first
    32-bit word, so every (data set, replicate) gets its own independent stream.
    """
    seq = np.random.SeedSequence([base, stable_hash(dataset), purpose, replicate])
    return int(seq.generate_state(1, dtype=np.uint32)[0])


_WATCHING_DRIVER = False


def _watch_driver(driver_pid):
    """In a worker process that the driver started itself (loky's workers),
    end the worker when the driver is gone.

    A driver killed with SIGKILL cannot shut its workers down, and loky's
    workers were seen still running 35 minutes later. A daemon thread polls the
    parent pid once a second and exits the process when it changes (the worker
    was re-parented). Nothing happens in the driver itself (``n_jobs=1``) or in
    workers the driver did not start (a dask cluster's).
    """
    global _WATCHING_DRIVER
    if _WATCHING_DRIVER or os.getpid() == driver_pid or os.getppid() != driver_pid:
        return
    _WATCHING_DRIVER = True

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != driver_pid:
                os._exit(1)

    name = "sklearn_bench-driver-watch"
    threading.Thread(target=watch, name=name, daemon=True).start()


def run_task(
    task,
    estimator,
    seed_params,
    X,
    y,
    train,
    test,
    X_test,
    y_test,
    metrics,
    error_score,
    keep_predictions,
    *,
    driver_pid=None,
):
    """Fit a clone of ``estimator`` on ``train`` rows and score it; return plain rows.

    Parameters
    ----------
    task : Task
    estimator : estimator
        The unfitted learner; a clone is fitted.
    seed_params : dict
        ``random_state`` parameters to set on the clone.
    X, y : array-like
        The learning sample.
    train : ndarray of int
        Training rows of ``X``.
    test : ndarray of int or None
        Validation rows of ``X``; ``None`` to score on ``X_test, y_test``.
    X_test, y_test : array-like or None
        The fixed test sample (competition, simulation).
    metrics : dict of str to Metric
    error_score : float or "raise"
    keep_predictions : bool
    driver_pid : int, default=None
        The process id of the driver; a worker it started ends itself when the
        driver is gone (see :func:`_watch_driver`).

    Returns
    -------
    out : dict
        ``"rows"``: one dict per metric with the columns of
        ``BenchmarkResult.scores``; ``"predictions"``: ``None`` or a dict with the
        validation ``rows`` and either ``correct`` (classifiers) or ``y_pred``.
    """
    if driver_pid is not None:
        _watch_driver(driver_pid)
    X_train, y_train = _safe_indexing(X, train), _safe_indexing(y, train)
    if test is None:
        X_val, y_val, rows = X_test, y_test, None
    else:
        X_val, y_val, rows = _safe_indexing(X, test), _safe_indexing(y, test), test
    n_train, n_test = (
        len(train),
        X_val.shape[0] if hasattr(X_val, "shape") else len(X_val),
    )
    base = _task_columns(task, n_train, n_test)
    failure = None
    values = {}
    est = clone(estimator)
    if seed_params:
        est.set_params(**seed_params)
    start = time.perf_counter()
    try:
        est.fit(X_train, y_train)
    except Exception as exc:
        fit_time = time.perf_counter() - start
        if error_score == "raise":
            _add_context(exc, task, "fitting")
            raise
        failure = _failure(exc)
        score_time = 0.0
        values = dict.fromkeys(metrics, error_score)
    else:
        fit_time = time.perf_counter() - start
        start = time.perf_counter()
        for name, metric in metrics.items():
            try:
                if metric.needs_split:
                    values[name] = float(
                        metric.scorer(est, X, y, train=train, test=test)
                    )
                else:
                    values[name] = metric(est, X_val, y_val)
            except Exception as exc:
                if error_score == "raise":
                    _add_context(exc, task, f"scoring {name!r} of")
                    raise
                values[name] = error_score
                failure = failure or _failure(exc)
        score_time = time.perf_counter() - start
    out_rows = []
    for name, value in values.items():
        row = dict(base, metric=name, value=float(value))
        row.update(fit_time=fit_time, score_time=score_time)
        row.update(failure or _NO_FAILURE)
        out_rows.append(row)
    predictions = None
    if keep_predictions and failure is None:
        predictions = _predictions(est, X_val, y_val, rows, n_test)
    return {"rows": out_rows, "predictions": predictions}


_NO_FAILURE = {"error_type": "", "error_message": "", "traceback": ""}


def _task_columns(task, n_train, n_test):
    """The columns of each score row of a task that say which task it was."""
    return {
        "dataset": task.dataset,
        "learner": task.learner,
        "split": task.split,
        "replicate": task.replicate,
        "fold": task.fold,
        "n_train": n_train,
        "n_test": n_test,
    }


def _failure(exc):
    return {
        "error_type": type(exc).__name__,
        "error_message": str(exc),
        "traceback": "".join(traceback.format_exception(exc)),
    }


def _add_context(exc, task, what):
    exc.add_note(
        f"sklearn_bench: raised while {what} learner {task.learner!r} on data set "
        f"{task.dataset!r}, split {task.split} (replicate {task.replicate}, fold "
        f"{task.fold})."
    )


def _predictions(est, X_val, y_val, rows, n_test):
    """Compact per-task predictions: classifiers keep correct/incorrect."""
    from sklearn.base import is_classifier

    try:
        y_pred = est.predict(X_val)
    except Exception:  # a learner that cannot predict keeps no predictions
        return None
    rows = np.arange(n_test) if rows is None else np.asarray(rows)
    if is_classifier(est):
        return {"rows": rows, "correct": np.asarray(y_pred) == np.asarray(y_val)}
    return {"rows": rows, "y_pred": np.asarray(y_pred, dtype=float)}
