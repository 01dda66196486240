"""A study on a dask.distributed cluster survives losing workers and its driver
(sklearn_bench/experiment/_dask.py).

The tests share one ``LocalCluster`` of two worker processes (each under a
nanny, which starts a new worker when one is killed, as a cluster's job queue
would). Kills are triggered by the driver's own commits, not by timers.
"""

import importlib.util
import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import joblib
import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin
from sklearn.datasets import load_iris

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.experiment import _experiment

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "examples" / "cluster" / "study_on_dask.py"
VALUES = ["dataset", "learner", "split", "replicate", "fold", "metric", "value"]


def _load_script():
    spec = importlib.util.spec_from_file_location("study_on_dask", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


STUDY = _load_script()


@pytest.fixture(scope="module")
def cluster():
    """The cluster of the docs page (docs/user_guide/cluster.rst)."""
    with distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster


@pytest.fixture
def client(cluster):
    with distributed.Client(cluster) as client:
        client.wait_for_workers(2, timeout=60)
        yield client
        client.wait_for_workers(2, timeout=60)  # the nanny's new worker, if any


@pytest.fixture(scope="module")
def serial():
    """The study's scores at n_jobs=1, without a cluster."""
    learners, datasets, settings = STUDY.study()
    experiment = BenchmarkExperiment(learners, progress=False, **settings)
    return experiment.fit(datasets).results_


def _assert_same_scores(a, b):
    pd.testing.assert_frame_equal(a.scores[VALUES], b.scores[VALUES])
    assert np.array_equal(
        a.scores["value"].to_numpy().view(np.int64),
        b.scores["value"].to_numpy().view(np.int64),
    )  # bit for bit


def _kill_on_commit(monkeypatch, client, n, choose):
    """SIGKILL the worker ``choose(client)`` names when the driver commits the
    batch of its ``n``-th task (from the driver's thread, between two commits).
    Returns a dict that records the kill."""
    record = {}
    open_writer = _experiment.open_writer

    def patched(*args, **kwargs):
        writer = open_writer(*args, **kwargs)
        write_many = writer.write_many

        def write_then_kill(items):  # one commit per batch of tasks
            write_many(items)
            before = record.get("n_committed", 0)
            record["n_committed"] = before + len(items)
            if before < n <= record["n_committed"]:
                address = choose(client)
                pid = client.run(os.getpid, workers=[address])[address]
                os.kill(pid, signal.SIGKILL)
                record["address"] = address

        writer.write_many = write_then_kill
        return writer

    monkeypatch.setattr(_experiment, "open_writer", patched)
    return record


def _busy_worker(client):
    """A worker running a task of the run."""
    processing = client.processing()
    return next(w for w, keys in processing.items() if keys)


def _loaded_worker(client):
    """The worker holding the most tasks: running, queued or kept in memory
    (the data sets among them)."""
    processing, has_what = client.processing(), client.has_what()
    return max(processing, key=lambda w: len(processing[w]) + len(has_what.get(w, ())))


def _n_rows_per_task(path):
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        return dict(
            conn.execute("SELECT ordinal, count(*) FROM scores GROUP BY ordinal")
        )


@pytest.mark.parametrize("choose", [_busy_worker, _loaded_worker])
def test_run_survives_a_killed_worker(tmp_path, monkeypatch, client, serial, choose):
    """H: a worker SIGKILLed mid-run (a busy one; the one holding the most tasks)
    costs nothing: the fit ends without error, the store holds every task once,
    the scores equal a serial run's bit for bit, and the lost worker is named in a
    warning and in ``results_.info["cluster"]``."""
    learners, datasets, settings = STUDY.study()
    n_tasks = serial.scores.drop_duplicates(["dataset", "split", "learner"]).shape[0]
    record = _kill_on_commit(monkeypatch, client, n_tasks // 4, choose)
    path = tmp_path / "run.sqlite"
    experiment = BenchmarkExperiment(learners, store=path, progress=False, **settings)
    with (
        joblib.parallel_config(backend="dask"),
        pytest.warns(RuntimeWarning, match="was lost") as warned,
    ):
        experiment.fit(datasets)
    assert record["n_committed"] == n_tasks  # the kill came a quarter in
    assert experiment.n_tasks_ == n_tasks
    assert _n_rows_per_task(path) == dict.fromkeys(range(n_tasks), 1)
    _assert_same_scores(experiment.results_, serial)
    _assert_same_scores(BenchmarkResult.from_store(path), serial)
    lost = experiment.results_.info["cluster"]["lost_workers"]
    assert [w["address"] for w in lost] == [record["address"]]
    assert record["address"] in str(warned[0].message)
    assert not experiment.results_.scores["error_type"].astype(bool).any()


def test_failures_are_recorded_on_the_cluster(client):
    """H: on the cluster as locally, a learner that fails on some tasks gives
    recorded failures with the worker's traceback and one FitFailedWarning, and
    the other tasks' scores equal the serial run's; with error_score="raise" the
    driver raises the learner's exception with the note naming the task."""
    from sklearn.exceptions import FitFailedWarning

    learners, datasets, settings = STUDY.study(n_bootstraps=3)
    learners["broken"] = _FailsOnWine()
    kw = {"progress": False, **settings}
    with pytest.warns(FitFailedWarning, match="3 of the 18 tasks failed"):
        reference = BenchmarkExperiment(learners, **kw).fit(datasets).results_
    with (
        joblib.parallel_config(backend="dask"),
        pytest.warns(FitFailedWarning, match="3 of the 18 tasks failed"),
    ):
        result = BenchmarkExperiment(learners, **kw).fit(datasets).results_
    _assert_same_scores(result, reference)
    failed = result.scores[result.scores["error_type"] != ""]
    assert set(failed["dataset"]) == {"wine"} and set(failed["learner"]) == {"broken"}
    assert failed["traceback"].str.contains("ValueError: no wine").all()
    assert result.info["cluster"]["lost_workers"] == []
    # error_score="raise": the learner's own exception, raised in the driver
    raising = BenchmarkExperiment(learners, error_score="raise", **kw)
    with (
        joblib.parallel_config(backend="dask"),
        pytest.raises(ValueError, match="no wine") as raised,
    ):
        raising.fit(datasets)
    assert "learner 'broken' on data set 'wine'" in "".join(raised.value.__notes__)


class _FailsOnWine(ClassifierMixin, BaseEstimator):
    """Predicts the first class; fails on the wine data (13 features)."""

    def fit(self, X, y):
        if X.shape[1] == 13:
            raise ValueError("no wine")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_driver_resumes(tmp_path, cluster, serial):
    """H: the driver (examples/cluster/study_on_dask.py) SIGKILLed mid-run on the
    cluster and started again runs only the missing tasks, and the store then
    holds the serial run's scores bit for bit."""
    path = tmp_path / "run.sqlite"
    n_tasks = serial.scores.drop_duplicates(["dataset", "split", "learner"]).shape[0]
    command = [sys.executable, str(SCRIPT), cluster.scheduler_address, str(path)]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    driver = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, text=True)
    # Kill once a few tasks are committed (the store is the driver's progress).
    deadline = time.monotonic() + 60
    while _n_committed(path) < 5 and time.monotonic() < deadline:
        assert driver.poll() is None, "the driver ended before it was killed"
        time.sleep(0.01)
    driver.send_signal(signal.SIGKILL)
    driver.wait()
    before = _n_committed(path)
    assert 5 <= before < n_tasks
    again = subprocess.run(command, env=env, capture_output=True, text=True)
    assert again.returncode == 0, again.stderr
    assert f"ran {n_tasks - before} tasks, reused {before}" in again.stdout
    assert _n_rows_per_task(path) == dict.fromkeys(range(n_tasks), 1)
    _assert_same_scores(BenchmarkResult.from_store(path), serial)


def _n_committed(path):
    try:
        with sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=0.1) as conn:
            return conn.execute(
                "SELECT count(DISTINCT ordinal) FROM scores"
            ).fetchone()[0]
    except sqlite3.Error:  # not created yet
        return 0


@pytest.mark.slow
def test_cli_run_on_a_scheduler(tmp_path, monkeypatch, cluster):
    """H: `sklearn-bench run CONFIG --scheduler ADDRESS` runs the config's tasks on
    the cluster (its store records the scheduler) with the scores of a local run."""
    from sklearn_bench.cli import main

    config = tmp_path / "study.toml"
    config.write_text(
        (ROOT / "examples" / "configs" / "demo.toml")
        .read_text()
        .replace("n_jobs = 1", 'n_jobs = 1\nstore = "run.sqlite"')
        .replace("n_bootstraps = 5", "n_bootstraps = 3")
        .replace('run = ["effects", "friedman", "pairwise", "bayesian", "power", '
                 '"win_tie_loss"]', 'run = ["effects"]')
    )  # fmt: skip
    monkeypatch.chdir(tmp_path)
    address = cluster.scheduler_address
    code = main(["run", str(config), "--out", "dask", "--scheduler", address])
    assert code == 0
    on_dask = BenchmarkResult.from_store(tmp_path / "run.sqlite")
    assert on_dask.info["cluster"]["scheduler"] == address
    config.write_text(config.read_text().replace("run.sqlite", "local.sqlite"))
    assert main(["run", str(config), "--out", "local"]) == 0
    _assert_same_scores(on_dask, BenchmarkResult.from_store(tmp_path / "local.sqlite"))


def _job_and_result(keep_predictions=False, cv=3):
    """One job of a small experiment and the plain-data result of its task."""
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench.experiment._dask import encode
    from sklearn_bench.experiment._tasks import run_tasks

    X, y = load_iris(return_X_y=True)
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier()}, cv=cv, random_state=0,
        keep_predictions=keep_predictions, scoring=["error_rate", "accuracy"],
    )  # fmt: skip
    _, job = next(exp._jobs(exp._prepare(X, y)))
    return job, encode(run_tasks(**job)[0])


def _tampered(result, index, value):
    return result[:index] + (value,) + result[index + 1 :]


@pytest.mark.parametrize(
    ("change", "match"),
    [
        (lambda r: list(r), "not a tuple of 12 fields"),
        (lambda r: _tampered(r, 0, "other"), "names another task"),
        (lambda r: _tampered(r, 1, r[1] + 1), "names another task"),
        (lambda r: _tampered(r, 3, ("accuracy", "error_rate")), "metrics"),
        (lambda r: _tampered(r, 4, (1.5, 0.5)), r"error_rate = 1.5 is outside"),
        (lambda r: _tampered(r, 4, (-0.1, 0.5)), "outside its bounds"),
        (lambda r: _tampered(r, 4, (float("nan"), 0.5)), "outside its bounds"),
        (lambda r: _tampered(r, 4, ("0.1", 0.5)), "not one float per metric"),
        (lambda r: _tampered(r, 4, (0.1,)), "not one float per metric"),
        (lambda r: _tampered(r, 5, -1.0), "fit_time"),
        (lambda r: _tampered(r, 6, float("inf")), "score_time"),
        (lambda r: _tampered(r, 7, r[7] + 1), "split sizes"),
        (lambda r: _tampered(r, 9, ("E", 1, "")), "failure fields"),
        (lambda r: _tampered(r, 10, ("correct", np.arange(3), np.ones(3, bool))),
         "not asked for"),
    ],
)  # fmt: skip
def test_a_result_of_the_wrong_type_shape_or_bounds_is_refused(change, match):
    """H: the driver refuses a worker's result that is not the plain data of the
    task it sent (a list, another task's key, other metrics, a score out of its
    metric's bounds or NaN without a recorded failure, a score that is not a
    float, a negative or infinite time, another split size, failure fields that
    are not text, predictions nobody asked for) with a RuntimeError that names
    the task and says the run is refused; the honest result decodes to rows."""
    from sklearn_bench.experiment._dask import decode

    job, result = _job_and_result()
    assert decode(result, job, 0)["rows"][0]["learner"] == "tree"
    with pytest.raises(RuntimeError, match=match) as refused:
        decode(change(result), job, 0)
    assert "learner 'tree' on data set 'data', split 0" in str(refused.value)
    assert "on a cluster you control, with TLS" in str(refused.value)


def test_predictions_of_other_rows_or_dtype_are_refused():
    """H: kept predictions must be of the split's validation rows, int64 rows and
    a bool array of their length; other rows, another dtype or length are
    refused."""
    from sklearn_bench.experiment._dask import decode

    job, result = _job_and_result(keep_predictions=True)
    kind, rows, values = result[10]
    assert kind == "correct" and decode(result, job, 0)["predictions"] is not None
    for bad in [
        (kind, rows[::-1].copy(), values),
        (kind, rows.astype(np.int32), values),
        (kind, rows, values.astype(float)),
        (kind, rows, values[:-1]),
        ("y_pred", rows, values),
    ]:
        with pytest.raises(RuntimeError, match="predictions"):
            decode(_tampered(result, 10, bad), job, 0)


def test_pointwise_losses_must_be_of_the_rows_and_average_to_the_scores():
    """H: the pointwise losses of a result (asked for by a NestedCV run) decode
    when they are of the split's validation rows, of known metrics and average
    to the scores; losses nobody asked for, of other rows, of a metric index out
    of range, or whose mean is not the score (a lie within bounds) are refused."""
    from sklearn_bench.experiment._dask import decode
    from sklearn_bench.model_selection import NestedCV

    job, result = _job_and_result(cv=NestedCV(3, n_repeats=1, random_state=0))
    index, rows, loss = result[11]
    assert index == (0, 1) and decode(result, job, 0)["losses"]["metrics"] == [0, 1]
    lie = loss.copy()
    lie[0, np.argmax(lie[0])] = 0.0  # one error fewer: error_rate no longer fits
    for bad in [
        (index, rows[::-1].copy(), loss),
        ((0, 2), rows, loss),
        ((1, 0), rows, loss),
        (index, rows, loss[:, :-1]),
        (index, rows, lie),
        (index, rows.astype(np.int32), loss),
    ]:
        with pytest.raises(RuntimeError, match="pointwise losses are not"):
            decode(_tampered(result, 11, bad), job, 0)
    with pytest.raises(RuntimeError, match="not asked for"):
        decode(_tampered(result, 11, result[11]), {**job, "keep_losses": False}, 0)


@pytest.fixture(scope="module")
def threads_cluster():
    """A cluster whose workers are threads of this process, so that a test can
    make them lie by patching the module they run."""
    with distributed.LocalCluster(
        n_workers=1,
        threads_per_worker=2,
        processes=False,
        protocol="tcp",
        host="127.0.0.1",
        dashboard_address=None,
    ) as cluster:
        yield cluster


def _lying_worker(monkeypatch, value):
    """Workers (threads of this process) report ``value`` for every score of the
    learner 'forest'; the driver's own fits are untouched."""
    from sklearn_bench.experiment import _dask

    honest = _dask.run_tasks

    def lie(**kwargs):
        outs = honest(**kwargs)
        for task, out in zip(kwargs["tasks"], outs, strict=True):
            if task.learner == "forest":
                for row in out["rows"]:
                    row["value"] = value
        return outs

    monkeypatch.setattr(_dask, "run_tasks", lie)


def test_a_lying_worker_is_caught_by_verify(tmp_path, monkeypatch, threads_cluster):
    """H: workers that report an error rate of 0 (within bounds) for one learner
    pass the checks on arrival, but verify=0.2 re-fits a seeded sample on the
    driver and refuses the run with a RuntimeError naming a task of that learner
    (the store is left incomplete, to resume); a lie out of bounds (2.0) is
    refused without verify."""
    learners, datasets, settings = STUDY.study(n_bootstraps=3)
    _lying_worker(monkeypatch, 0.0)
    path = tmp_path / "run.sqlite"
    kw = {"progress": False, **settings}
    with distributed.Client(threads_cluster), joblib.parallel_config(backend="dask"):
        lied = BenchmarkExperiment(learners, **kw).fit(datasets).results_
        forest = lied.scores[lied.scores["learner"] == "forest"]
        assert (forest["value"] == 0).all()  # within bounds: not seen on arrival
        with pytest.raises(RuntimeError, match="`verify` refused the run") as caught:
            BenchmarkExperiment(learners, verify=0.2, store=path, **kw).fit(datasets)
        assert "learner 'forest'" in str(caught.value)
        with pytest.warns(UserWarning, match="are missing"):  # the run stopped
            BenchmarkResult.from_store(path)
        _lying_worker(monkeypatch, 2.0)
        with pytest.raises(RuntimeError, match="outside its bounds"):
            BenchmarkExperiment(learners, **kw).fit(datasets)


def test_verify_compares_every_field_bit_for_bit_and_predictions_imply_scores():
    """H: `verify`'s comparison (first_difference) finds forged kept predictions,
    forged pointwise losses with the right mean and zero spread, and another
    size, and nothing in an honest re-run (timings aside); kept correct/incorrect
    flags that imply another error rate are refused on arrival (on ff4c58f
    verify compared the scores only and such forgeries shrank the intervals
    sixteen-fold, exit 0)."""
    from sklearn_bench.experiment._dask import decode, first_difference
    from sklearn_bench.experiment._tasks import run_tasks
    from sklearn_bench.model_selection import NestedCV

    job, result = _job_and_result(keep_predictions=True)
    theirs = decode(result, job, 0)
    assert first_difference(theirs, run_tasks(**job)[0]) is None
    kind, rows, values = result[10]
    flipped = values.copy()
    flipped[0] = not flipped[0]
    with pytest.raises(RuntimeError, match="predictions imply error_rate"):
        decode(_tampered(result, 10, (kind, rows, flipped)), job, 0)
    forged = {**theirs, "predictions": {"rows": rows, "correct": flipped}}
    assert first_difference(forged, run_tasks(**job)[0]) == "predictions"
    sized = {**theirs, "rows": [{**r, "n_test": -1} for r in theirs["rows"]]}
    assert first_difference(sized, theirs) == "n_test"
    job, result = _job_and_result(cv=NestedCV(3, n_repeats=1, random_state=0))
    index, rows, loss = result[11]
    flat = np.repeat(loss.mean(axis=1, keepdims=True), loss.shape[1], axis=1)
    lied = decode(_tampered(result, 11, (index, rows, flat)), job, 0)  # passes
    assert first_difference(lied, run_tasks(**job)[0]) == "losses"
