"""The dask path of the runner: tasks sent through a dask.distributed ``Client``.

Under ``joblib.parallel_config(backend="dask")`` the experiment does not hand its
tasks to joblib's dask backend, which scatters the data sets to one worker (a
lost worker then loses data that cannot be recovered and the whole run dies).
It submits them through the backend's ``Client`` itself:

- every object shared by many tasks (a data set, a learner, the metrics) is
  submitted once as a small task that returns it, so the scheduler keeps the
  driver's copy in the task's definition: when the worker holding the value is
  lost, the scheduler recomputes it on another worker;
- a task whose worker died is re-run elsewhere by the scheduler; a task cancelled
  under the run (e.g. its inputs were forgotten) is re-sent by the driver, which
  holds all the inputs; a task that killed every worker it ran on
  (``KilledWorker``) becomes a recorded failure;
- tasks are sent in batches of about 0.1 s of work (one task each until the
  first ones have been timed), so that dask's cost per submission stays small
  beside the fits; a batch that killed its workers is sent again task by task;
- at most ``window`` batches are in flight, and their results come back in
  completion order, so the driver commits each task as it arrives.

The workers only run :func:`~sklearn_bench.experiment._tasks.run_task`, as every
other backend does, so the scores are the same bit for bit.
"""

import inspect
import itertools
import time
import uuid
import warnings
from datetime import UTC, datetime

from ._tasks import _failure, _task_columns, run_task

# run_task's arguments shared by many tasks: sent once per run, not per task.
_SHARED = ("estimator", "X", "y", "X_test", "y_test", "metrics")
_SIGNATURE = inspect.signature(run_task)
# A task cancelled under the run (not by the driver) is re-sent this many times.
MAX_RESENDS = 3
# Tasks are sent in batches of about this much work (at most MAX_BATCH tasks):
# each submission costs the cluster some milliseconds of CPU, small beside 0.1 s
# (benchmarks/dask_scaling.py: batching cut the extra CPU per task by 40-60%).
TARGET_BATCH_SECONDS = 0.1
MAX_BATCH = 64


def active_dask_client():
    """The ``Client`` of joblib's active dask backend, or ``None``.

    The dask path is taken inside ``joblib.parallel_config(backend="dask")`` (or
    ``parallel_backend("dask")``); ``distributed`` is imported only then.
    """
    from joblib.parallel import get_active_backend

    backend, _ = get_active_backend()
    if type(backend).__module__ != "joblib._dask":
        return None
    return backend.client


def _bound(call):
    func, args, kwargs = call
    if func is not run_task:
        raise TypeError(f"Not a run_task call: {func!r}.")
    return _SIGNATURE.bind(*args, **kwargs)


def _run_batch(batch):
    """The worker's side: :func:`run_task` on each task of a batch, in order."""
    return [run_task(**kwargs) for kwargs in batch]


def _value(obj):
    """The task that returns a shared object (its copy is in the task itself)."""
    return obj


def _n_threads(client):
    workers = client.scheduler_info(n_workers=-1)["workers"]
    return sum(w.get("nthreads", 1) for w in workers.values())


class DaskRunner:
    """Run ``run_task`` calls on a dask.distributed cluster, surviving lost workers.

    Parameters
    ----------
    client : distributed.Client
        A client of the cluster (any scheduler address: a ``LocalCluster``,
        dask-jobqueue, dask-kubernetes).
    window : int, default=None
        Most submissions (batches of tasks) in flight at a time; ``None`` is
        eight per worker thread (at least 32), so that workers never wait for
        the driver.

    Attributes
    ----------
    lost_workers : list of dict
        After :meth:`run`: each worker removed from the cluster during the run
        without being asked to (killed, pre-empted, out of memory), with its
        ``address``, the ``time`` (UTC, ISO 8601) and ``n_tasks``, the number of
        this run's tasks it was running (re-run elsewhere).
    n_resent : int
        Tasks the driver sent again because the cluster cancelled them.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from distributed import Client, LocalCluster
    >>> from sklearn_bench import BenchmarkExperiment
    >>> from sklearn_bench.experiment._dask import DaskRunner
    >>> experiment = BenchmarkExperiment(
    ...     {"tree": DecisionTreeClassifier()}, cv=3, random_state=0, progress=False)
    >>> setup = experiment._prepare(*load_iris(return_X_y=True))
    >>> calls = [call for _, call in experiment._task_calls(setup)]
    >>> with LocalCluster(n_workers=1, processes=False, protocol="tcp",
    ...                   host="127.0.0.1", dashboard_address=None) as cluster:
    ...     with Client(cluster) as client:
    ...         outs = dict(DaskRunner(client).run(calls))
    >>> sorted(outs), outs[0]["rows"][0]["metric"]
    ([0, 1, 2], 'error_rate')
    """

    def __init__(self, client, *, window=None):
        self.client = client
        self.window = window
        self.lost_workers = []
        self.n_resent = 0

    def run(self, calls, *, total=None):
        """Yield ``(i, out)`` for the ``i``-th call, in completion order.

        Parameters
        ----------
        calls : iterable of (callable, tuple, dict)
            joblib ``delayed`` calls of :func:`run_task`.
        total : int, default=None
            The number of calls, if known: batches are kept small enough that
            every worker thread has work until the end.

        Yields
        ------
        i : int
            The position of the call in ``calls``.
        out : dict
            What ``run_task`` returned (or the rows of a recorded failure, for a
            task that killed its workers).
        """
        from distributed import KilledWorker, as_completed

        client = self.client
        run_id = uuid.uuid4().hex[:10]
        started = time.time()
        n_threads = max(1, _n_threads(client))
        window = self.window or max(32, 8 * n_threads)
        shared = {}  # id(obj) -> [obj, future, n tasks in flight using it]
        pending = {}  # future -> (batch of (i, bound arguments), n times re-sent)
        self._sizes = {}  # key -> number of tasks in its batch
        todo = (
            (i, _bound(call)) for i, call in enumerate(calls)
        )  # read lazily: the driver holds only the window's inputs
        # Results are gathered in the client's background loop as they finish.
        done = as_completed(with_results=True, raise_errors=False)
        timing = {"n_tasks": 0, "seconds": 0.0, "n_submitted": 0}

        def share(args):
            kwargs = dict(args.arguments)
            for name in _SHARED:
                obj = kwargs[name]
                if obj is None:
                    continue
                entry = shared.get(id(obj))
                if entry is None:
                    with warnings.catch_warnings():  # the driver's copy, on purpose
                        warnings.filterwarnings("ignore", "Large object")
                        key = f"sklearn_bench-data-{run_id}-{uuid.uuid4().hex[:8]}"
                        future = client.submit(_value, obj, key=key, pure=False)
                    entry = shared[id(obj)] = [obj, future, 0]
                entry[2] += 1
                kwargs[name] = entry[1]
            return kwargs

        def submit(batch, resent=0):
            task = batch[0][1].arguments["task"]
            key = (
                f"run_task-{task.dataset}-{task.split}-{task.learner}-x{len(batch)}"
                f"-{run_id}-{len(self._sizes)}"
            )
            kwargs = [share(args) for _, args in batch]
            future = client.submit(_run_batch, kwargs, key=key, pure=False)
            self._sizes[key] = len(batch)
            pending[future] = (batch, resent)
            done.add(future)

        def release(args):
            for name in _SHARED:
                obj = args.arguments[name]
                entry = None if obj is None else shared.get(id(obj))
                if entry is not None:
                    entry[2] -= 1
                    if entry[2] == 0:
                        del shared[id(obj)]

        def batch_size():
            """Tasks per submission: about TARGET_BATCH_SECONDS of work, so that
            dask's cost per submission is small beside the fits."""
            if timing["n_tasks"] == 0:
                return 1
            mean = timing["seconds"] / timing["n_tasks"]
            size = int(TARGET_BATCH_SECONDS / max(mean, 1e-6))
            if total is not None:  # keep every thread busy to the end
                left = total - timing["n_submitted"]
                size = min(size, left // (2 * n_threads))
            return max(1, min(size, MAX_BATCH))

        def fill():
            while len(pending) < window:
                batch = list(itertools.islice(todo, batch_size()))
                if not batch:
                    return
                timing["n_submitted"] += len(batch)
                submit(batch)

        try:
            fill()
            for future, result in done:
                batch, resent = pending.pop(future)
                if future.status == "finished":
                    outs = result
                elif future.status == "cancelled" and resent < MAX_RESENDS:
                    self.n_resent += len(batch)
                    submit(batch, resent + 1)  # the driver holds every input
                    for _, args in batch:
                        release(args)
                    continue
                elif (
                    len(batch) > 1
                    and future.status == "error"
                    and isinstance(future.exception(), KilledWorker)
                ):
                    for item in batch:  # find the task that kills its workers
                        submit([item], resent)
                    for _, args in batch:
                        release(args)
                    continue
                else:
                    outs = [self._failed(future, args) for _, args in batch]
                future.release()
                for (_, args), out in zip(batch, outs, strict=True):
                    release(args)
                    timing["n_tasks"] += 1
                    row = out["rows"][0] if out["rows"] else {}
                    timing["seconds"] += row.get("fit_time", 0.0)
                    timing["seconds"] += row.get("score_time", 0.0)
                fill()  # before the driver commits: workers never wait for it
                for (i, _), out in zip(batch, outs, strict=True):
                    yield i, out
        finally:
            if pending:
                client.cancel(list(pending))
            pending.clear()
            shared.clear()
            self.lost_workers = self._lost_workers(started, run_id)

    def _failed(self, future, args):
        """The rows of a task that killed its workers; other errors are raised."""
        from distributed import KilledWorker

        try:
            exc = future.exception()
        except Exception as cancelled:  # cancelled more than MAX_RESENDS times
            exc = cancelled
        kwargs = args.arguments
        if not isinstance(exc, KilledWorker) or kwargs["error_score"] == "raise":
            future.result()  # raises the task's own exception, with its traceback
            raise exc
        return failed_out(
            kwargs["task"],
            kwargs["train"],
            kwargs["test"],
            kwargs["y_test"],
            kwargs["metrics"],
            kwargs["error_score"],
            exc,
        )

    def _lost_workers(self, started, run_id):
        """Workers removed (not retired) since ``started``, from the scheduler's
        event log."""
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
            lost.append(
                {
                    "address": msg.get("worker", ""),
                    "time": datetime.fromtimestamp(when, UTC).isoformat(
                        timespec="seconds"
                    ),
                    "n_tasks": sum(ours),
                }
            )
        return lost


def failed_out(task, train, test, y_test, metrics, error_score, exc):
    """What ``run_task`` returns for a task that failed outside the learner (its
    worker process died under it): ``error_score`` for every metric and the
    exception in the failure columns."""
    n_test = len(y_test) if test is None else len(test)
    base = _task_columns(task, len(train), n_test)
    failure = _failure(exc)
    rows = [
        dict(base, metric=name, value=float(error_score), fit_time=0.0, score_time=0.0)
        | failure
        for name in metrics
    ]
    return {"rows": rows, "predictions": None}


def describe_lost_workers(lost):
    """One sentence per lost worker, for the run's warning and summary."""
    return [
        f"Worker {w['address']} was lost at {w['time']} UTC; the "
        f"{w['n_tasks']} task(s) of this run it was running were re-run on "
        "other workers."
        for w in lost
    ]
