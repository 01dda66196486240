"""A store makes runs resumable: kill, resume, refuse, scale out on dask."""

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
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import SimulatedDataset, make_angle_classification
from sklearn_bench.model_selection import BootstrapOOB

ROOT = Path(__file__).resolve().parents[2]
VALUES = ["dataset", "learner", "split", "replicate", "fold", "metric", "value"]


def resume_datasets():
    X, y = load_breast_cancer(return_X_y=True)
    X_ir, y_ir = load_iris(return_X_y=True)
    return {"cancer": (X[:200, :10], y[:200]), "iris": (X_ir, y_ir)}


def resume_experiment(store, **kwargs):
    """The experiment of the kill-and-resume test (also run by its subprocess)."""
    learners = {
        "forest": RandomForestClassifier(n_estimators=4),  # seeded per replicate
        "logreg": make_pipeline(StandardScaler(), LogisticRegression()),
        "tree": DecisionTreeClassifier(max_depth=3),
    }
    params = {
        "cv": BootstrapOOB(n_bootstraps=8, random_state=3),
        "scoring": ["error_rate", "neg_log_loss"],
        "random_state": 7,
        "keep_predictions": True,
        "progress": False,
        "store": store,
    }
    return BenchmarkExperiment(learners, **{**params, **kwargs})


_SCRIPT = """
import sys
from tests.experiment.test_resume import resume_datasets, resume_experiment
resume_experiment(sys.argv[1]).fit(resume_datasets())
"""


def _n_done(path):
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            return conn.execute(
                "SELECT count(DISTINCT ordinal) FROM scores"
            ).fetchone()[0]
    except sqlite3.Error:  # not created yet
        return 0


def _assert_same_scores(a, b):
    pd.testing.assert_frame_equal(a.scores[VALUES], b.scores[VALUES])
    assert np.array_equal(
        a.scores["value"].to_numpy().view(np.int64),
        b.scores["value"].to_numpy().view(np.int64),
    )  # bit for bit, NaN and signed zeros included


def test_killed_run_resumes_bit_identical(tmp_path):
    """H: a run SIGKILLed after some committed tasks leaves a readable partial
    store; fit on it runs only the missing tasks and ends bit-identical (scores and
    predictions) to an uninterrupted run without store."""
    path = tmp_path / "run.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT, str(path)],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while _n_done(path) < 6 and proc.poll() is None:
            assert time.monotonic() < deadline, "the run never committed a task"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
        stderr = proc.stderr.read().decode()
    assert proc.returncode == -signal.SIGKILL, stderr
    n_tasks = 2 * 8 * 3
    with pytest.warns(UserWarning, match="tasks are missing|are missing"):
        partial = BenchmarkResult.from_store(path)
    n_done = n_tasks - partial.n_missing_tasks
    assert 6 <= n_done < n_tasks
    assert len(partial.scores) == 2 * n_done  # two metrics per task

    resumed = resume_experiment(path).fit(resume_datasets())
    assert resumed.n_tasks_ == n_tasks - n_done  # the tasks run by this fit
    reference = resume_experiment(None).fit(resume_datasets())
    _assert_same_scores(resumed.results_, reference.results_)
    pd.testing.assert_frame_equal(
        resumed.results_.predictions, reference.results_.predictions
    )
    back = BenchmarkResult.from_store(path)
    assert back.n_missing_tasks == 0
    _assert_same_scores(back, reference.results_)


class _Interrupting(ClassifierMixin, BaseEstimator):
    """A tree that raises KeyboardInterrupt (a Ctrl-C) on fit while STOP is set."""

    STOP = {"after": None, "fits": 0}

    def __init__(self, max_depth=2):
        self.max_depth = max_depth

    def fit(self, X, y):
        stop = _Interrupting.STOP
        stop["fits"] += 1
        if stop["after"] is not None and stop["fits"] > stop["after"]:
            raise KeyboardInterrupt
        self.tree_ = DecisionTreeClassifier(max_depth=self.max_depth).fit(X, y)
        self.classes_ = self.tree_.classes_
        return self

    def predict(self, X):
        return self.tree_.predict(X)


def _interruptible(store, **kwargs):
    params = {
        "cv": BootstrapOOB(n_bootstraps=5, random_state=0),
        "progress": False,
        "store": store,
        **kwargs,
    }
    return BenchmarkExperiment({"nb": GaussianNB(), "stop": _Interrupting()}, **params)


def test_interrupted_run_resumes_with_drawn_seed(tmp_path):
    """H: after a Ctrl-C, fit with random_state=None reuses the seed stored by the
    first run, runs only the missing tasks and equals an uninterrupted run."""
    X, y = load_iris(return_X_y=True)
    path = tmp_path / "run.sqlite"
    _Interrupting.STOP.update(after=2, fits=0)
    with pytest.raises(KeyboardInterrupt):
        _interruptible(path).fit(X, y)
    with pytest.warns(UserWarning, match="3 are missing"):
        partial = BenchmarkResult.from_store(path)
    assert partial.n_missing_tasks == 3
    seed = partial.info["seed"]
    _Interrupting.STOP.update(after=None, fits=0)
    resumed = _interruptible(path).fit(X, y)
    assert _Interrupting.STOP["fits"] == 3  # only the missing tasks ran
    assert resumed.results_.info["seed"] == seed
    reference = _interruptible(None, random_state=seed).fit(X, y)
    _assert_same_scores(resumed.results_, reference.results_)


def test_nested_cv_run_resumes_and_grows_to_the_same_intervals(tmp_path):
    """H (issue 40, item 7): a nested-CV run interrupted after a few fits
    resumes, running only its missing tasks, to the scores, pointwise losses,
    split roles and interval of each learner of an uninterrupted run; grown
    from 1 to 2 repeats it runs only the new repeat's 9 splits per learner and
    equals a fresh 2-repeat run (interval and losses). Each distinct training
    set is fitted once: 6 of the 9 of a repeat (inner (o, j) and (j, o) share
    theirs)."""
    from sklearn_bench.model_selection import NestedCV

    X, y = load_iris(return_X_y=True)
    path = tmp_path / "run.sqlite"

    def nested(store, repeats=1, **kwargs):
        cv = NestedCV(3, n_repeats=repeats, random_state=0)
        return _interruptible(store, cv=cv, scoring=["error_rate", "accuracy"],
                              random_state=0, **kwargs)  # fmt: skip

    _Interrupting.STOP.update(after=4, fits=0)
    with pytest.raises(KeyboardInterrupt):
        nested(path).fit(X, y)
    _Interrupting.STOP.update(after=None, fits=0)
    resumed = nested(path).fit(X, y).results_
    # 4 fits stored 5 tasks (an inner split and its twin); the 4 missing tasks
    # are 2 training sets
    assert _Interrupting.STOP["fits"] == 2
    reference = nested(None).fit(X, y).results_
    _assert_same_scores(resumed, reference)
    pd.testing.assert_frame_equal(resumed.losses, reference.losses)
    assert resumed.info["split_roles"] == reference.info["split_roles"]
    for learner in ("nb", "stop"):
        a = resumed.confidence_interval(learner, metric="accuracy")
        b = reference.confidence_interval(learner, metric="accuracy")
        assert (a.estimate, a.low, a.high) == (b.estimate, b.low, b.high)

    _Interrupting.STOP.update(after=None, fits=0)
    grown = nested(path, repeats=2).fit(X, y)
    assert grown.n_tasks_ == 2 * 9 and _Interrupting.STOP["fits"] == 6
    fresh = nested(None, repeats=2).fit(X, y).results_
    pd.testing.assert_frame_equal(grown.results_.losses, fresh.losses)
    a = BenchmarkResult.from_store(path).confidence_interval("nb")
    b = fresh.confidence_interval("nb")
    assert a.design.startswith("nested CV, 2 repeats")
    assert (a.estimate, a.standard_error) == (b.estimate, b.standard_error)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"learners": {"nb": GaussianNB(var_smoothing=1e-3)}}, "var_smoothing"),
        (
            {"cv": BootstrapOOB(n_bootstraps=5, random_state=1)},
            "splits of data set 'data' differ: another `cv`",
        ),
        ({"random_state": 1}, "seed"),
        ({"scoring": "accuracy"}, "metrics"),
        ({"keep_predictions": True}, "keep_predictions"),
    ],
)
def test_store_of_another_configuration_is_refused(tmp_path, change, message):
    """H: fit on a store of another configuration raises a ValueError naming what
    differs, and leaves the store as it was; overwrite=True replaces it."""
    X, y = load_iris(return_X_y=True)
    path = tmp_path / "run.sqlite"
    base = {
        "learners": {"nb": GaussianNB()},
        "cv": BootstrapOOB(n_bootstraps=5, random_state=0),
        "random_state": 0,
        "progress": False,
        "store": path,
    }
    first = BenchmarkExperiment(**base).fit(X, y).results_
    before = path.read_bytes()
    other = BenchmarkExperiment(**{**base, **change})
    with pytest.raises(ValueError, match=f"another configuration(.|\n)*{message}"):
        other.fit(X, y)
    assert path.read_bytes() == before
    _assert_same_scores(BenchmarkResult.from_store(path), first)
    replaced = other.set_params(overwrite=True).fit(X, y).results_
    _assert_same_scores(BenchmarkResult.from_store(path), replaced)


def test_other_data_is_refused(tmp_path):
    """H: the same experiment on other data (one value changed) is refused, with
    the data set's fingerprint named in the message."""
    X, y = load_iris(return_X_y=True)
    path = tmp_path / "run.sqlite"
    exp = BenchmarkExperiment(
        {"nb": GaussianNB()}, cv=3, random_state=0, progress=False, store=path
    )
    exp.fit({"iris": (X, y)})
    X2 = X.copy()
    X2[0, 0] += 1e-9
    with pytest.raises(ValueError, match=r"datasets\['iris'\]\['X'\]"):
        exp.fit({"iris": (X2, y)})


def test_simulated_dataset_resumes_in_another_process_description(tmp_path):
    """H: a SimulatedDataset (a functools.partial sampler) is fingerprinted by its
    sampler's name, sizes and test sample, so refitting resumes (nothing runs)
    while another angle is refused."""
    from functools import partial

    path = tmp_path / "sim.sqlite"

    def experiment(angle):
        data = SimulatedDataset(
            partial(make_angle_classification, angle=angle),
            n_train=40,
            n_test=200,
            n_replicates=3,
        )
        exp = BenchmarkExperiment(
            {"dummy": DummyClassifier()}, random_state=0, progress=False, store=path
        )
        return exp, {"angle": data}

    exp, data = experiment(30)
    first = exp.fit(data).results_
    config = (
        sqlite3.connect(path)
        .execute("SELECT value FROM meta WHERE key='config'")
        .fetchone()[0]
    )
    assert "make_angle_classification" in config and " at 0x" not in config
    exp, data = experiment(30)
    _assert_same_scores(exp.fit(data).results_, first)
    exp, data = experiment(45)
    with pytest.raises(ValueError, match="sampler"):
        exp.fit(data)


def test_predictions_stream_to_the_store_and_read_back(tmp_path):
    """H: with a store, kept predictions are read back from it (lazily) equal to a
    run without store, for n_jobs=2 as for n_jobs=1; failures keep tracebacks."""
    X, y = load_iris(return_X_y=True)

    kw = {
        "cv": BootstrapOOB(n_bootstraps=4, random_state=0),
        "random_state": 0,
        "keep_predictions": True,
        "progress": False,
    }
    learners = {"nb": GaussianNB(), "bad": _Failing()}
    with pytest.warns(Warning, match="4 of the 8 tasks failed"):
        plain = BenchmarkExperiment(learners, **kw).fit(X, y).results_
    with pytest.warns(Warning, match="4 of the 8 tasks failed"):
        stored = BenchmarkExperiment(
            learners, n_jobs=2, store=tmp_path / "s.sqlite", **kw
        ).fit(X, y)
    assert stored.results_._predictions is None  # not loaded yet
    pd.testing.assert_frame_equal(stored.results_.predictions, plain.predictions)
    _assert_same_scores(stored.results_, plain)
    tracebacks = stored.results_.scores.loc[stored.results_.scores.failed, "traceback"]
    assert tracebacks.str.contains("ValueError: always fails").all()


class _Failing(ClassifierMixin, BaseEstimator):
    def fit(self, X, y):
        raise ValueError("always fails")


def test_dask_cluster_gives_bit_identical_scores(tmp_path):
    """H: under joblib's dask backend on a LocalCluster of 2 worker processes the
    scores are bit-identical to n_jobs=1, and the driver's store holds them all."""
    distributed = pytest.importorskip("distributed")
    X, y = load_breast_cancer(return_X_y=True)
    datasets = {"cancer": (X[:150, :6], y[:150]), "iris": load_iris(return_X_y=True)}
    learners = {
        "forest": RandomForestClassifier(n_estimators=5),
        "tree": DecisionTreeClassifier(),
    }
    kw = {"cv": BootstrapOOB(n_bootstraps=4), "random_state": 0, "progress": False}
    reference = BenchmarkExperiment(learners, n_jobs=1, **kw).fit(datasets).results_
    path = tmp_path / "dask.sqlite"
    with (
        distributed.LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as client,
        joblib.parallel_config(backend="dask"),
    ):
        result = BenchmarkExperiment(learners, store=path, **kw).fit(datasets)
        workers = client.run(os.getpid)
    assert len(workers) == 2 and os.getpid() not in workers.values()
    _assert_same_scores(result.results_, reference)
    _assert_same_scores(BenchmarkResult.from_store(path), reference)
