"""The dask path of the runner (docs/user_guide/cluster.rst): jobs go through the
backend's ``Client`` itself, not joblib's dask backend (which scatters the data to
one worker, whose loss kills the run). Shared objects are tasks the scheduler can
recompute; jobs go in batches; a batch that killed its workers is split down to
the task, which becomes a recorded failure. Workers return plain data that the
driver checks (:func:`decode`) before anything is stored."""

import itertools
import math
import time
import uuid
import warnings
from datetime import UTC, datetime

import numpy as np

from .._metrics import metric_bounds, out_of_bounds
from ._tasks import _failure, _rows, _task_columns, run_tasks

# run_tasks's arguments shared by many jobs: sent once per run, not per job
# (and each of its ``estimators``).
_SHARED = ("X", "y", "X_test", "y_test", "metrics")
# A batch cancelled under the run (not by the driver) is re-sent this many times.
MAX_RESENDS = 3
# Most tasks in a batch, and about the most seconds of work in one (measured
# on the run's first results): a lost worker loses no more than that.
MAX_BATCH = 64
TARGET_BATCH_SECONDS = 2.0


def active_dask_client():
    """The ``Client`` of joblib's active dask backend, or ``None``."""
    from joblib.parallel import get_active_backend

    backend, _ = get_active_backend()
    if type(backend).__module__ != "joblib._dask":
        return None
    return backend.client


class _Ref(str):
    """A shared object in a batch, by the key of the task that returns it."""


class _Batch:
    """The jobs of one submission (an object, so that dask does not walk it)."""

    def __init__(self, jobs):
        self.jobs = jobs


def _run_batch(shared, batch):
    """The worker's side: each job's :func:`run_tasks`, :func:`encode`-d."""
    out = []
    for job in batch.jobs:
        kwargs = {k: shared[v] if type(v) is _Ref else v for k, v in job.items()}
        kwargs["estimators"] = [shared[e] for e in job["estimators"]]
        out.append([encode(o) for o in run_tasks(**kwargs)])
    return out


def _value(obj):
    """The task that returns a shared object (its copy is in the task itself)."""
    return obj


def encode(out):
    """A task's result as a tuple of plain data, in the order of ``_FIELDS``."""
    rows = out["rows"]
    first = rows[0]
    pred = out["predictions"]
    if pred is not None:
        kind = "correct" if "correct" in pred else "y_pred"
        dtype = bool if kind == "correct" else np.float64
        pred = (
            kind,
            np.asarray(pred["rows"], dtype=np.int64),
            np.asarray(pred[kind], dtype=dtype),
        )
    losses = out.get("losses")
    if losses is not None:
        losses = (
            tuple(int(i) for i in losses["metrics"]),
            np.asarray(losses["rows"], dtype=np.int64),
            np.asarray(losses["loss"], dtype=np.float64),
        )
    return (
        str(first["dataset"]),
        int(first["split"]),
        str(first["learner"]),
        tuple(str(r["metric"]) for r in rows),
        tuple(float(r["value"]) for r in rows),
        float(first["fit_time"]),
        float(first["score_time"]),
        int(first["n_train"]),
        int(first["n_test"]),
        (first["error_type"], first["error_message"], first["traceback"]),
        pred,
        losses,
    )


_FIELDS = (
    *("dataset", "split", "learner", "metrics", "scores", "fit_time"),
    *("score_time", "n_train", "n_test", "failure", "predictions", "losses"),
)


def _bits(value):
    """A value of :func:`encode` as comparable bits (-0.0 is not 0.0, NaN is NaN)."""
    if isinstance(value, tuple):
        return tuple(_bits(v) for v in value)
    if isinstance(value, np.ndarray):
        return (value.dtype.str, value.shape, value.tobytes())
    if isinstance(value, float):
        return np.float64(value).tobytes()
    return value


def first_difference(theirs, mine):
    """The first field in which two results of a task differ bit for bit (times
    and failure texts aside), or ``None``: what ``verify`` compares."""
    a, b = encode(theirs), encode(mine)
    for name, x, y in zip(_FIELDS, a, b, strict=True):
        if name == "failure":
            x, y = x[0], y[0]  # the type; messages hold addresses
        if name not in ("fit_time", "score_time") and _bits(x) != _bits(y):
            return name
    return None


def decode(result, job, i):
    """What ``run_tasks`` returned for the ``i``-th task of ``job``; a
    ``RuntimeError`` refuses a result the task could not give."""
    task = job["tasks"][i]

    def refuse(what):
        raise RuntimeError(
            f"A result from the cluster was refused ({what}) for the task of "
            f"learner {task.learner!r} on data set {task.dataset!r}, split "
            f"{task.split}: a worker is faulty or not to be trusted. Nothing of "
            "its batch was stored; the tasks of this run stored before it came "
            "from the same cluster: start the store again (overwrite=True) on a "
            "cluster you control, with TLS (its scheduler and workers run code "
            "in this process)."
        )

    if type(result) is not tuple or len(result) != 12:
        refuse(f"not a tuple of 12 fields but {type(result).__name__}")
    (dataset, split, learner, names, values, fit, score, n_train, n_test, err, pred,
     losses) = result  # fmt: skip
    if (dataset, split, learner) != (task.dataset, task.split, task.learner):
        refuse(f"it names another task: {(dataset, split, learner)!r}"[:200])
    metrics = job["metrics"]
    if type(names) is not tuple or names != tuple(metrics):
        refuse("the metrics are not the experiment's")
    if (
        type(values) is not tuple
        or len(values) != len(names)
        or not all(type(v) is float for v in values)
    ):
        refuse("the scores are not one float per metric")
    if not (type(err) is tuple and len(err) == 3 and all(type(e) is str for e in err)):
        refuse("the failure fields are not text")
    failed = err[0] != ""
    for name, value in zip(names, values, strict=True):
        if failed and np.array_equal([value], [job["error_score"]], equal_nan=True):
            continue  # error_score, for a recorded failure
        if not math.isfinite(value) or out_of_bounds(name, value):
            refuse(f"{name} = {value!r} is outside its bounds {metric_bounds(name)}")
    for name, t in (("fit_time", fit), ("score_time", score)):
        if type(t) is not float or not (math.isfinite(t) and t >= 0):
            refuse(f"{name} = {t!r}"[:200])
    train = job["train"]
    test = job["test"] if job.get("tests") is None else job["tests"][i]
    rows = np.arange(len(job["y_test"])) if test is None else np.asarray(test)
    sizes = (len(train), len(rows))
    if (type(n_train), type(n_test)) != (int, int) or (n_train, n_test) != sizes:
        refuse("the split sizes are not the split's")
    if pred is not None:
        if failed or not job["keep_predictions"] or type(pred) is not tuple:
            refuse("predictions that were not asked for")
        kind, p_rows, p_values = pred if len(pred) == 3 else (None, None, None)
        dtype = {"correct": np.bool_, "y_pred": np.float64}.get(kind)
        if (
            dtype is None
            or type(p_rows) is not np.ndarray
            or type(p_values) is not np.ndarray
            or p_rows.dtype != np.int64
            or p_values.dtype != dtype
            or p_values.shape != rows.shape
            or not np.array_equal(p_rows, rows)
        ):
            refuse("the predictions are not of the validation rows")
        if kind == "correct" and p_values.size:  # the scores they imply
            implied = {"error_rate": 1 - p_values.mean(), "accuracy": p_values.mean()}
            for name, value in zip(names, values, strict=True):
                if name in implied and not math.isclose(
                    value, implied[name], rel_tol=1e-9, abs_tol=1e-12
                ):
                    refuse(f"the predictions imply {name} = {implied[name]!r}")
        pred = {"rows": p_rows, kind: p_values}
    if losses is not None:
        losses = _decode_losses(losses, job, failed, values, rows, refuse)
    base = _task_columns(task, n_train, n_test)
    failure = dict(zip(("error_type", "error_message", "traceback"), err, strict=True))
    values = dict(zip(names, values, strict=True))
    rows = _rows(base, values, fit, score, failure)
    return {"rows": rows, "predictions": pred, "losses": losses}


def _decode_losses(losses, job, failed, values, rows, refuse):
    """The pointwise losses of a result, checked (their means are the scores)."""
    if failed or not job.get("keep_losses") or type(losses) is not tuple:
        refuse("pointwise losses that were not asked for")
    index, l_rows, loss = losses if len(losses) == 3 else (None, None, None)
    ok = (
        type(index) is tuple
        and index
        and all(type(i) is int for i in index)
        and list(index) == sorted(set(index))
        and 0 <= index[0]
        and index[-1] < len(values)
        and type(l_rows) is np.ndarray
        and type(loss) is np.ndarray
        and l_rows.dtype == np.int64
        and loss.dtype == np.float64
        and loss.shape == (len(index), rows.size)
        and np.array_equal(l_rows, rows)
        and np.isfinite(loss).all()
    )
    if not ok or not np.allclose(
        loss.mean(axis=1), [values[i] for i in index], rtol=1e-9, atol=1e-12
    ):
        refuse("the pointwise losses are not of the validation rows and scores")
    return {"metrics": list(index), "rows": l_rows, "loss": loss}


def _alone(job):
    """The job's tasks, one job each."""
    per_task = ("tasks", "estimators", "seed_params", "tests")
    return [
        {**job, **{k: job[k][i : i + 1] for k in per_task if job.get(k) is not None}}
        for i in range(len(job["tasks"]))
    ]


class DaskRunner:
    """Run :func:`run_tasks` jobs on a dask.distributed cluster, surviving lost
    workers. ``window``: most batches in flight (``None``: two per worker thread
    plus two). After :meth:`run`, ``lost_workers`` lists each worker removed
    without being asked to (``address``, ``time``, ``n_tasks`` of this run it was
    running) and ``n_resent`` counts the tasks the cluster cancelled."""

    def __init__(self, client, *, window=None):
        self.client = client
        self.window = window
        self.lost_workers = []
        self.n_resent = 0

    def run(self, jobs, *, total=None):
        """Yield lists of ``(tasks, checked outs)`` of ``jobs``, a batch at a time
        in completion order; ``total`` (tasks) shrinks the last batches."""
        from distributed import KilledWorker, as_completed

        client = self.client
        run_id = uuid.uuid4().hex[:10]
        started = time.time()
        workers = client.scheduler_info(n_workers=-1)["workers"].values()
        n_threads = max(1, sum(w.get("nthreads", 1) for w in workers))
        window = self.window or 2 * n_threads + 2
        shared = {}  # id(obj) -> [obj, future, key, n jobs in flight using it]
        pending = {}  # future -> (list of jobs, n times re-sent)
        self._sizes = {}  # key -> number of tasks in its batch
        todo = (job for _, job in jobs)  # read lazily, a window at a time
        done = as_completed(with_results=True, raise_errors=False)
        timing = {"n_tasks": 0, "seconds": 0.0, "n_submitted": 0}

        def share(obj, refs):
            entry = shared.get(id(obj))
            if entry is None:
                with warnings.catch_warnings():  # the driver's copy, on purpose
                    warnings.filterwarnings("ignore", "Large object")
                    key = f"sklearn_bench-data-{run_id}-{uuid.uuid4().hex[:8]}"
                    future = client.submit(_value, obj, key=key, pure=False)
                entry = shared[id(obj)] = [obj, future, _Ref(key), 0]
            entry[3] += 1
            refs[entry[2]] = entry[1]
            return entry[2]

        def release(job):
            for obj in [job[name] for name in _SHARED] + list(job["estimators"]):
                entry = None if obj is None else shared.get(id(obj))
                if entry is not None:
                    entry[3] -= 1
                    if entry[3] == 0:
                        del shared[id(obj)]

        def submit(batch, resent=0):
            refs, sent = {}, []
            for job in batch:
                sent.append(
                    {k: v for k, v in job.items() if k not in _SHARED}
                    | {
                        n: None if job[n] is None else share(job[n], refs)
                        for n in _SHARED
                    }  # fmt: skip
                    | {"estimators": [share(e, refs) for e in job["estimators"]]}
                )
            n = sum(len(job["tasks"]) for job in batch)
            task = batch[0]["tasks"][0]
            key = (
                f"run_tasks-{task.dataset}-{task.split}-{task.learner}-x{n}"
                f"-{run_id}-{len(self._sizes)}"
            )
            future = client.submit(_run_batch, refs, _Batch(sent), key=key, pure=False)
            self._sizes[key] = n
            pending[future] = (batch, resent)
            done.add(future)

        def batch_size():
            """Tasks per submission (see the module's docstring)."""
            if timing["n_tasks"] == 0:
                return 1
            mean = timing["seconds"] / timing["n_tasks"]
            size = int(TARGET_BATCH_SECONDS / max(mean, 1e-6))
            if total is not None:  # keep every thread busy to the end
                left = total - timing["n_submitted"]
                size = min(size, math.ceil(left / (4 * n_threads)))
            return max(1, min(size, MAX_BATCH))

        def fill():
            while len(pending) < window:
                batch, n, size = [], 0, batch_size()
                for job in itertools.islice(todo, size):
                    batch.append(job)
                    n += len(job["tasks"])
                    if n >= size:
                        break
                if not batch:
                    return
                timing["n_submitted"] += n
                submit(batch)

        try:
            fill()
            for future, result in done:
                batch, resent = pending.pop(future)
                if future.status == "finished":
                    if type(result) is not list or len(result) != len(batch):
                        decode(None, batch[0], 0)  # refuses it
                    outs = []
                    for job, res in zip(batch, result, strict=True):
                        if type(res) is not list or len(res) != len(job["tasks"]):
                            decode(None, job, 0)
                        outs.append([decode(r, job, i) for i, r in enumerate(res)])
                elif future.status == "cancelled" and resent < MAX_RESENDS:
                    self.n_resent += sum(len(job["tasks"]) for job in batch)
                    submit(batch, resent + 1)  # the driver holds every input
                    for job in batch:
                        release(job)
                    continue
                elif (
                    future.status == "error"
                    and isinstance(future.exception(), KilledWorker)
                    and (len(batch) > 1 or len(batch[0]["tasks"]) > 1)
                ):
                    # find the task that kills its workers
                    for job in batch if len(batch) > 1 else _alone(batch[0]):
                        submit([job], resent)
                    for job in batch:
                        release(job)
                    continue
                else:
                    outs = [self._failed(future, job) for job in batch]
                future.release()
                for job, job_outs in zip(batch, outs, strict=True):
                    release(job)
                    for out in job_outs:
                        timing["n_tasks"] += 1
                        row = out["rows"][0] if out["rows"] else {}
                        timing["seconds"] += row.get("fit_time", 0.0)
                        timing["seconds"] += row.get("score_time", 0.0)
                fill()  # before the driver commits: workers never wait for it
                yield [
                    (job["tasks"], job_outs)
                    for job, job_outs in zip(batch, outs, strict=True)
                ]
        finally:
            if pending:
                client.cancel(list(pending))
            pending.clear()
            shared.clear()
            self.lost_workers = self._lost_workers(started, run_id)

    def _failed(self, future, job):
        """The rows of a job that killed its workers; other errors are raised."""
        from distributed import KilledWorker

        try:
            exc = future.exception()
        except Exception as cancelled:  # cancelled more than MAX_RESENDS times
            exc = cancelled
        if not isinstance(exc, KilledWorker) or job["error_score"] == "raise":
            future.result()  # raises the task's own exception, with its traceback
            raise exc
        return [_failed_out(task, job, exc) for task in job["tasks"]]

    def _lost_workers(self, started, run_id):
        """Workers removed (not retired) since ``started``, from the scheduler's log."""
        try:
            events = self.client.get_events("all")
        except Exception:  # the scheduler is gone: nothing more to say
            return []
        lost = []
        for when, msg in events:
            if (
                when < started
                or not isinstance(msg, dict)
                or msg.get("action") != "remove-worker"
                or msg.get("expected")
            ):
                continue
            ours = [
                self._sizes.get(str(k), 0)
                for k in msg.get("processing-tasks", ())
                if run_id in str(k)
            ]
            address = msg.get("worker", "")
            when = datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds")
            lost.append({"address": address, "time": when, "n_tasks": sum(ours)})
        return lost


def _failed_out(task, job, exc):
    """``run_tasks``'s out for a task of ``job`` whose worker died: ``error_score``."""
    test, value = job["test"], float(job["error_score"])
    n_test = len(job["y_test"]) if test is None else len(test)
    base = _task_columns(task, len(job["train"]), n_test)
    values = dict.fromkeys(job["metrics"], value)
    rows = _rows(base, values, 0.0, 0.0, _failure(exc))
    return {"rows": rows, "predictions": None, "losses": None}


def describe_lost_workers(lost):
    """One sentence per lost worker, for the run's warning and summary."""
    return [
        f"Worker {w['address']} was lost at {w['time']} UTC; the "
        f"{w['n_tasks']} task(s) of this run it was running were re-run on "
        "other workers."
        for w in lost
    ]
