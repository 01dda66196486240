"""The worker: :func:`run_tasks`, plain inputs to plain rows, in any backend."""

import copy
import functools
import os
import threading
import time
import traceback
import zlib
from collections import Counter, OrderedDict
from numbers import Integral

import joblib
import numpy as np
from sklearn.base import clone
from sklearn.utils import _safe_indexing

from ._scoring import pointwise_losses

# Purposes of the seeds derived from (random_state, data set, replicate).
SEED_LEARNER, SEED_CV, SEED_LEARNING_SAMPLE, SEED_TEST_SAMPLE = 0, 1, 2, 3


@functools.lru_cache(maxsize=4096)  # the learners of a replicate share it
def derive_seed(base, dataset, purpose, replicate=0):
    """The first word of ``SeedSequence([base, crc32, purpose, replicate])``."""
    name = zlib.crc32(dataset.encode("utf-8"))  # ``hash`` is salted per process
    seq = np.random.SeedSequence([base, name, purpose, replicate])
    return int(seq.generate_state(1, dtype=np.uint32)[0])


_WATCHING_DRIVER = False


def _watch_driver(driver_pid, *, child=False):
    """In a worker the driver started (loky's), a daemon thread that ends the
    process once the driver is gone (a driver killed by SIGKILL cannot stop its
    workers); a pool's ``child`` already orphaned exits at once."""
    global _WATCHING_DRIVER
    if _WATCHING_DRIVER or os.getpid() == driver_pid:
        return
    if os.getppid() != driver_pid:
        if child:
            os._exit(1)
        return
    _WATCHING_DRIVER = True

    def watch():
        while True:
            time.sleep(1.0)
            if os.getppid() != driver_pid:
                os._exit(1)

    name = "sklearn_bench-driver-watch"
    threading.Thread(target=watch, name=name, daemon=True).start()


def watching_workers():
    """:class:`joblib.Parallel` arguments that make loky or multiprocessing
    workers watch the driver from the moment they start."""
    from joblib.parallel import get_active_backend

    backend = type(get_active_backend()[0]).__name__
    if backend not in ("LokyBackend", "MultiprocessingBackend"):
        return {}
    return {"initializer": _watch_parent, "initargs": (os.getpid(),)}


def _watch_parent(driver_pid):
    """A pool worker's initializer: :func:`_watch_driver` of its parent."""
    _watch_driver(driver_pid, child=True)


# Bytes of transformed training data that one task keeps for the learners that
# share a pipeline prefix (BenchmarkExperiment's ``prefix_cache_bytes``).
PREFIX_CACHE_BYTES = 2**30


def run_tasks(
    tasks,
    estimators,
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
    keep_losses=False,
    prefix_cache_bytes=PREFIX_CACHE_BYTES,
    driver_pid=None,
    tests=None,
):
    """Fit clones of the learners of ``tasks`` on the ``train`` rows of one split
    and score them on ``test`` (``None``: on ``X_test, y_test``); one dict of
    ``"rows"`` (one per metric), ``"predictions"`` and ``"losses"`` per task.

    Learners whose pipelines begin with the same deterministic steps
    (:func:`prefix_keys`) fit that prefix once. ``tests`` gives each task its own
    validation rows: a learner's tasks then share its one fit."""
    if driver_pid is not None:
        _watch_driver(driver_pid)
    n_train = len(train)
    if tests is None:
        tests = [test] * len(tasks)
    clones = [
        clone(e).set_params(**p) if p else clone(e)
        for e, p in zip(estimators, seed_params, strict=True)
    ]
    keys = [prefix_keys(est) if prefix_cache_bytes > 0 else [] for est in clones]
    learners = [(id(e), repr(sorted((p or {}).items())))
                for e, p in zip(estimators, seed_params, strict=True)]  # fmt: skip
    # only prefixes that another learner of this split also begins with are kept
    used = Counter(k for ks in dict(zip(learners, keys, strict=True)).values()
                   for k in ks)  # fmt: skip
    cache = _PrefixCache(prefix_cache_bytes)

    def training_rows():  # a fresh copy each time: steps may write into it
        return _safe_indexing(X, train), _safe_indexing(y, train)

    outs, fits, where = [], {}, {}
    for task, est, ks, learner, test in zip(
        tasks, clones, keys, learners, tests, strict=True
    ):
        base = _task_columns(task, n_train, len(y_test) if test is None else len(test))
        # the validation rows transformed by a shared prefix: once per rows
        rows = where.setdefault(id(test), len(where))
        if learner in fits:  # fitted for another split of these training rows
            est, fitted, prefix = fits[learner]
            prefix = prefix and (prefix[0], (prefix[1][0], rows), cache)
        else:
            shared = [k for k in ks if used[k] > 1]
            fit = _fit_shared if shared else _fit_alone
            prefix = (len(shared), (shared[-1], rows), cache) if shared else None
            fitted = fit(est, ks[: len(shared)], cache, training_rows)
            fits[learner] = (est, fitted, prefix)
        out = _score(task, est, fitted, base, X, y, train, test, X_test, y_test,
                     metrics, error_score, keep_predictions, keep_losses,
                     prefix)  # fmt: skip
        outs.append(out)
    return outs


def _timed(fit, *args):
    """``(seconds, exception or None)`` of ``fit(*args)``."""
    start = time.perf_counter()
    try:
        fit(*args)
    except Exception as exc:
        return time.perf_counter() - start, exc
    return time.perf_counter() - start, None


def _fit_alone(est, keys, cache, training_rows):
    """Fit ``est`` on the training rows: ``(fit_time, exception or None)``."""
    return _timed(est.fit, *training_rows())


def _fit_shared(est, keys, cache, training_rows):
    """Fit the pipeline ``est`` reusing the longest of its shared steps ``keys``
    kept in ``cache`` (and keeping those it fits)."""
    from sklearn.pipeline import Pipeline

    j = max((i + 1 for i, k in enumerate(keys) if k in cache), default=0)
    if j:
        steps, Xt, y_train, seconds, failure = cache.get(keys[j - 1])
        Xt = _copy(Xt)
    else:
        (Xt, y_train), steps, seconds, failure = training_rows(), [], 0.0, None
    for i in range(j, len(keys)):
        if failure is not None:
            break
        step = est.steps[i][1]
        start = time.perf_counter()
        try:  # as Pipeline._fit (it does not clone the step without memory)
            if step is not None and step != "passthrough":
                if hasattr(step, "fit_transform"):
                    Xt = step.fit_transform(Xt, y_train)
                else:
                    Xt = step.fit(Xt, y_train).transform(Xt)
        except Exception as exc:
            failure = exc
        seconds += time.perf_counter() - start
        steps = [*steps, step]
        cache.put(keys[i], (steps, Xt, y_train, seconds, failure))
        Xt = _copy(Xt)
    if failure is not None:
        return seconds, failure
    n = len(keys)
    est.steps = [
        *((name, s) for (name, _), s in zip(est.steps[:n], steps, strict=True)),
        *est.steps[n:],
    ]
    # fits those steps in place
    fit_time, failure = _timed(Pipeline(est.steps[n:]).fit, Xt, y_train)
    return seconds + fit_time, failure


def _validation_through(est, n, key, cache, X_val):
    """``(rest of the pipeline, a copy of X_val transformed by its n shared steps
    once per key, seconds)``; ``(None, None, 0.0)`` when that failed."""
    from sklearn.pipeline import Pipeline

    key = ("validation", key)
    if key not in cache:
        start = time.perf_counter()
        try:
            Xt = X_val
            for _, step in est.steps[:n]:
                if step is not None and step != "passthrough":
                    Xt = step.transform(Xt)
        except Exception:
            Xt = None
        cache.put(key, (None, Xt, None, time.perf_counter() - start, None))
    if key not in cache:  # beyond the byte budget: each learner transforms alone
        return None, None, 0.0
    _, Xt, _, seconds, _ = cache.get(key)
    if Xt is None:
        return None, None, 0.0
    return Pipeline(est.steps[n:]), _copy(Xt), seconds


def _score(task, est, fitted, base, X, y, train, test, X_test, y_test, metrics,
           error_score, keep_predictions, keep_losses=False,
           prefix=None):  # fmt: skip
    """The out of a fitted learner; ``prefix``: its shared ``(n, key, cache)``."""
    fit_time, failure = fitted
    values = {}
    if failure is not None:
        if error_score == "raise":
            _add_context(failure, task, "fitting")
            raise failure
        failure = _failure(failure)
        score_time = 0.0
        values = dict.fromkeys(metrics, error_score)
    else:
        if test is None:
            X_val, y_val, rows = X_test, y_test, None
        else:
            X_val, y_val, rows = _safe_indexing(X, test), _safe_indexing(y, test), test
        tail, X_tail, seconds = (
            _validation_through(est, *prefix, X_val)
            if prefix is not None
            else (None, None, 0.0)
        )
        start = time.perf_counter()
        for name, metric in metrics.items():
            try:
                if metric.needs_split:
                    values[name] = float(
                        metric.scorer(est, X, y, train=train, test=test)
                    )
                elif tail is not None and metric.reads_predictions:
                    values[name] = metric(tail, X_tail, y_val)
                else:
                    values[name] = metric(est, X_val, y_val)
            except Exception as exc:
                if error_score == "raise":
                    _add_context(exc, task, f"scoring {name!r} of")
                    raise
                values[name] = error_score
                failure = failure or _failure(exc)
        # the shared transform, timed once, is charged to every learner (as fit)
        score_time = time.perf_counter() - start + seconds
        if tail is not None:  # predictions and pointwise losses read predictions
            est, X_val = tail, X_tail
    out_rows = _rows(base, values, fit_time, score_time, failure)
    predictions = losses = None
    if keep_predictions and failure is None:
        predictions = _predictions(est, X_val, y_val, rows, base["n_test"])
    if keep_losses and failure is None:
        losses = pointwise_losses(metrics, values, est, X_val, y_val)
        if losses is not None:
            losses["rows"] = np.arange(base["n_test"]) if rows is None else rows
    return {"rows": out_rows, "predictions": predictions, "losses": losses}


def prefix_keys(estimator):
    """Keys of the shareable prefixes of a plain Pipeline, shortest first: steps
    keyed by class and ``get_params(deep=True)``, until one is not deterministic
    (a ``random_state`` not an integer) or cannot be hashed."""
    from sklearn.pipeline import Pipeline

    if (
        type(estimator) is not Pipeline
        or estimator.memory is not None
        or getattr(estimator, "transform_input", None) is not None
    ):
        return []
    keys, key = [], ""
    for _, step in estimator.steps[:-1]:
        if step is None or (isinstance(step, str) and step == "passthrough"):
            part = "passthrough"
        elif not (hasattr(step, "fit_transform") or hasattr(step, "transform")):
            break
        else:
            try:
                params = step.get_params(deep=True)
                if any(
                    k.rsplit("__", 1)[-1] == "random_state"
                    and (isinstance(v, bool) or not isinstance(v, Integral))
                    for k, v in params.items()
                ):
                    break
                part = joblib.hash((type(step), params))
            except Exception:  # parameters that cannot be hashed
                break
        key = joblib.hash((key, part))
        keys.append(key)
    return keys


class _PrefixCache:
    """Fitted prefixes with their transformed data, least recently used out first
    past ``max_bytes`` (in memory, unlike ``Pipeline(memory=...)``)."""

    def __init__(self, max_bytes):
        self.max_bytes, self.n_bytes, self.entries = max_bytes, 0, OrderedDict()

    def __contains__(self, key):
        return key in self.entries

    def get(self, key):
        self.entries.move_to_end(key)
        return self.entries[key][0]

    def put(self, key, value):
        size = _n_bytes(value[1])
        if size > self.max_bytes or key in self.entries:
            return
        self.entries[key] = (value, size)
        self.n_bytes += size
        while self.n_bytes > self.max_bytes:
            _, (_, dropped) = self.entries.popitem(last=False)
            self.n_bytes -= dropped


def _n_bytes(data):
    """Bytes of an array, sparse matrix or data frame (0 when unknown)."""
    if hasattr(data, "memory_usage"):  # pandas
        usage = data.memory_usage(deep=True)
        return int(getattr(usage, "sum", lambda: usage)())
    if hasattr(data, "nbytes"):
        return int(data.nbytes)
    if hasattr(data, "data") and hasattr(data, "indices"):  # scipy.sparse
        return sum(int(getattr(data, a).nbytes) for a in ("data", "indices", "indptr"))
    return 0


def _copy(data):
    """A copy that a step may write into without changing the kept one."""
    return data.copy() if hasattr(data, "copy") else copy.deepcopy(data)


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


def _rows(base, values, fit_time, score_time, failure=None):
    """A task's score rows, one per metric of ``values`` (name: value)."""
    times = {"fit_time": fit_time, "score_time": score_time}
    return [
        dict(base, metric=name, value=float(value)) | times | (failure or _NO_FAILURE)
        for name, value in values.items()
    ]


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
