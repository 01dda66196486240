"""NestedCV fits each distinct training set once (sklearn_bench/experiment): the
inner training set of (outer o, inner j) is that of (j, o)."""

import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.datasets import Dataset
from sklearn_bench.experiment import _experiment
from sklearn_bench.model_selection import NestedCV

FITS = []


class CountedTree(DecisionTreeClassifier):
    """A decision tree that records each fit."""

    def fit(self, X, y, sample_weight=None, check_input=True):
        FITS.append(len(X))
        return super().fit(X, y, sample_weight=sample_weight)


def _run(n_jobs=1):
    X, y = load_breast_cancer(return_X_y=True)
    learners = {
        "tree": CountedTree(max_depth=3),
        "scaled_lr": make_pipeline(StandardScaler(), LogisticRegression()),
        "scaled_tree": make_pipeline(StandardScaler(), CountedTree(max_depth=2)),
    }
    exp = BenchmarkExperiment(
        learners,
        cv=NestedCV(n_splits=5, n_repeats=2, random_state=0),
        scoring=["error_rate", "neg_log_loss"],
        random_state=3,
        n_jobs=n_jobs,
        progress=False,
    )
    FITS.clear()
    result = exp.fit({"bc": Dataset(X[:200], y[:200])}).results_
    return result, len(FITS)


def test_each_training_set_is_fitted_once_with_the_same_scores(monkeypatch):
    """H: NestedCV(K=5) fits 15 of its 25 training sets per repeat and learner
    (K(K+1)/2), and every score, pointwise loss and split size equals, bit for
    bit, a run that fits every split on its own (merging turned off)."""
    once, n_once = _run()
    monkeypatch.setattr(_experiment, "_same_training", lambda splits: {})
    alone, n_alone = _run()
    assert n_alone == 2 * 25 * 2  # 2 counted learners x 25 splits x 2 repeats
    assert n_once == 2 * 15 * 2
    times = ["fit_time", "score_time"]
    pd.testing.assert_frame_equal(
        once.scores.drop(columns=times), alone.scores.drop(columns=times)
    )
    pd.testing.assert_frame_equal(once.losses, alone.losses)


def test_twins_are_read_from_the_splits():
    """H: splits are twins only with the same replicate and the same training
    rows; a test set of None (a fixed test sample) is never merged."""
    a, b = np.arange(5), np.arange(5, 8)
    splits = [(a, b, 0, 0), (a, np.arange(8, 9), 0, 1), (a, b, 1, 0),
              (np.arange(4), b, 0, 2), (a, None, 0, 3)]  # fmt: skip
    assert _experiment._same_training(splits) == {0: [1]}


def test_a_dask_cluster_gives_the_same_scores():
    """H: on a dask cluster (joblib's dask backend) the jobs that fit a training
    set once for two splits pass the driver's checks (each task decoded with
    its own validation rows; a neg_ loss checked against the negated bounds of
    the loss: the check refused every neg_log_loss) and give the scores of one
    process bit for bit."""
    distributed = __import__("pytest").importorskip("distributed")
    import joblib

    serial, _ = _run()
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=1, processes=False,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):  # fmt: skip
        clustered, _ = _run(n_jobs=None)
    times = ["fit_time", "score_time"]
    pd.testing.assert_frame_equal(
        clustered.scores.drop(columns=times), serial.scores.drop(columns=times)
    )
    pd.testing.assert_frame_equal(clustered.losses, serial.losses)
