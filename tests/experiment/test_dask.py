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
