"""Tests of sklearn_bench/experiment/_sequential.py: the sequential study."""

import json

import numpy as np
import pytest
from sklearn.datasets import make_classification, make_regression
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.linear_model import LinearRegression, LogisticRegression

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.experiment import SequentialRule
from sklearn_bench.experiment._sequential import dataset_order

POOL = {f"d{i}": make_classification(120, 4, random_state=i) for i in range(20)}
TWO = {"lr": LogisticRegression(), "dummy": DummyClassifier()}


def _experiment(learners=TWO, **kwargs):
    return BenchmarkExperiment(learners, cv=2, random_state=0, progress=False, **kwargs)


def test_stops_when_decided():
    """Hypothesis: a learner far better than the dummy is decided on a few data
    sets, in the seeded order, with far fewer fits than the full study; the
    result holds exactly the data sets run and says what it did."""
    exp = _experiment().fit(POOL, stopping=SequentialRule())
    study = exp.sequential_
    assert study.decision == "'lr' better than 'dummy'" and study.reason == "decided"
    assert study.order == dataset_order(POOL, 0)[: study.stopping_time]
    assert study.n_fits == 2 * 2 * study.stopping_time < study.n_fits_full
    assert list(exp.results_.datasets) == study.order
    assert study.interval["confidence_level"] == 0.975
    assert json.loads(json.dumps(exp.results_.info["sequential"])) == study.to_dict()


def test_order_is_a_function_of_the_seed_and_names():
    """Hypothesis: the order depends only on the seed and the names, and stored
    data sets come first."""
    names = list(POOL)
    assert dataset_order(names, 1) == dataset_order(names[::-1], 1)
    assert dataset_order(names, 1) != dataset_order(names, 2)
    assert dataset_order(names, 1, first={"d7"})[0] == "d7"


def test_resume_and_grow_give_the_same_decision(tmp_path):
    """Hypothesis: a study interrupted (here by its budget) and run again on its
    store reuses the stored fits and reaches the decision of one uninterrupted
    run; adding data sets to a pool that ran out continues the study."""
    whole = _experiment().fit(POOL, stopping=SequentialRule()).sequential_
    store = tmp_path / "run.sqlite"
    cut = _experiment(store=store).fit(POOL, stopping=SequentialRule(max_fits=8))
    assert cut.sequential_.reason == "budget" and cut.sequential_.n_fits == 8
    again = _experiment(store=store).fit(POOL, stopping=SequentialRule())
    assert again.sequential_ == whole and again.n_reused_tasks_ == 8
    assert BenchmarkResult.from_store(store).datasets.keys() == set(whole.order)
    fresh = _experiment(store=store, overwrite=True).fit(
        POOL, stopping=SequentialRule()
    )
    assert fresh.sequential_ == whole and fresh.n_reused_tasks_ == 0
    assert BenchmarkResult.from_store(store).datasets.keys() == set(whole.order)
    # killed in the middle of a data set: only lr's tasks of the first one stored
    store3 = tmp_path / "killed.sqlite"
    first_set = dataset_order(POOL, 0)[0]
    _experiment({"lr": TWO["lr"]}, store=store3).fit({first_set: POOL[first_set]})
    killed = _experiment(store=store3).fit(POOL, stopping=SequentialRule())
    assert killed.sequential_ == whole and killed.n_reused_tasks_ == 2
    # a pool that ran out, then grown
    store2 = tmp_path / "grow.sqlite"
    few = dict(list(POOL.items())[:2])
    first = _experiment(store=store2).fit(few, stopping=SequentialRule())
    assert first.sequential_.reason == "pool exhausted"
    grown = _experiment(store=store2).fit(POOL, stopping=SequentialRule())
    assert grown.sequential_.order[:2] == first.sequential_.order
    assert grown.sequential_.reason == "decided" and grown.n_reused_tasks_ == 8


def test_racing_drops_a_clearly_worse_learner():
    """Hypothesis: with three learners the dummy is dropped, says why, and is run
    on no later data set."""
    learners = {**TWO, "lr2": LogisticRegression(C=0.5)}
    exp = _experiment(learners).fit(POOL, stopping=SequentialRule())
    study = exp.sequential_
    after = study.dropped["dummy"]["after"]
    assert "anytime-valid" in study.dropped["dummy"]["why"]
    table = exp.results_.aggregate()
    assert table["dummy"].iloc[after:].isna().all()
    assert table["dummy"].iloc[:after].notna().all()
    assert study.n_fits < study.n_fits_full


@pytest.mark.parametrize(
    "rule, match",
    [
        (SequentialRule(max_fits=0), "max_fits"),
        (SequentialRule(max_fits=3), "smaller than the fits of one data set"),
        (SequentialRule(metric="accuracy"), "names no metric"),
        (SequentialRule(alpha=2), "alpha"),
        (SequentialRule(bounds=(1, 0)), "low < high"),
    ],
)
def test_invalid_rules(rule, match):
    """Hypothesis: each invalid setting is a ValueError naming it."""
    with pytest.raises(ValueError, match=match):
        _experiment().fit(POOL, stopping=rule)


def test_invalid_inputs():
    """Hypothesis: a metric without known bounds, an empty pool, one learner and
    a stopping that is no rule are refused with a clear error."""
    X, y = make_regression(60, 3, random_state=0)
    reg = BenchmarkExperiment(
        {"lm": LinearRegression(), "mean": DummyRegressor()}, cv=2, random_state=0
    )
    with pytest.raises(ValueError, match="bounds of metric 'mean_squared_error'"):
        reg.fit({"a": (X, y)}, stopping=SequentialRule())
    with pytest.raises(ValueError, match="no default Δ"):
        reg.fit({"a": (X, y)}, stopping=SequentialRule(bounds=(0, np.inf)))
    with pytest.raises(ValueError, match="empty"):
        _experiment().fit({}, stopping=SequentialRule())
    with pytest.raises(ValueError, match="two learners"):
        _experiment({"lr": LogisticRegression()}).fit(POOL, stopping=SequentialRule())
    with pytest.raises(TypeError, match="SequentialRule"):
        _experiment().fit(POOL, stopping=0.05)
