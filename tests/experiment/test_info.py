"""Extra provenance given to BenchmarkExperiment.fit(info=...): in results_.info,
in the store from the start of a run, and replaced by a resumed run."""

import warnings

import numpy as np
import pytest
from sklearn.datasets import load_iris
from sklearn.dummy import DummyClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult

STOP = {"on": False}


class StopOnSecond(DummyClassifier):
    """Interrupts the run (like Ctrl-C) on the data set with 3 features while
    ``STOP["on"]``."""

    def fit(self, X, y, sample_weight=None):
        if STOP["on"] and np.shape(X)[1] == 3:
            raise KeyboardInterrupt
        return super().fit(X, y, sample_weight=sample_weight)


def _data():
    X, y = load_iris(return_X_y=True)
    return {"four": (X, y), "three": (X[:, :3], y)}


def _experiment(store=None):
    return BenchmarkExperiment(
        {"dummy": StopOnSecond()},
        cv=2,
        random_state=0,
        progress=False,
        store=store,
    )


def test_info_in_memory_and_store():
    """H: fit(info=...) adds the entries to results_.info (also without a store),
    next to the recorded provenance (learner parameters, data-set sizes)."""
    info = {"analysis": {"settings": {"delta": 0.02}}}
    result = _experiment().fit(_data(), info=info).results_
    assert result.info["analysis"] == info["analysis"]
    assert result.info["dataset_sizes"]["three"] == {"n_samples": 150, "n_features": 3}
    assert result.info["learner_params"]["dummy"]["params"]["strategy"] == "prior"


def test_info_is_stored_when_the_run_starts_and_replaced_on_resume(tmp_path):
    """H: a run interrupted on its second data set has the info in its store; the
    configuration check ignores info (resuming with other info is allowed), and
    the resumed run's info replaces the stored one."""
    store = tmp_path / "run.sqlite"
    STOP["on"] = True
    try:
        with pytest.raises(KeyboardInterrupt):
            _experiment(store).fit(_data(), info={"analysis": {"a": 1}})
    finally:
        STOP["on"] = False
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        partial = BenchmarkResult.from_store(store)
    assert partial.n_missing_tasks == 2
    assert partial.info["analysis"] == {"a": 1}
    resumed = _experiment(store).fit(_data(), info={"analysis": {"a": 2}}).results_
    assert resumed.n_missing_tasks == 0
    assert resumed.info["analysis"] == {"a": 2}
    assert BenchmarkResult.from_store(store).info["analysis"] == {"a": 2}
