"""Tests of sklearn_bench/analysis/_learners.py: the parameters that tell learners
apart, against scikit-learn's own get_params."""

import pandas as pd
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import SelectKBest
from sklearn.pipeline import make_pipeline

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.analysis._learners import learner_table
from sklearn_bench.estimators import DiagonalLDA, welch_t_score


def _learners():
    return {
        f"dlda_k{k}": make_pipeline(SelectKBest(welch_t_score, k=k), DiagonalLDA())
        for k in (2, 10)
    } | {
        "forest": RandomForestClassifier(n_estimators=7, max_depth=3),
        "dummy": DummyClassifier(),
    }


def test_default_parameters_that_differ_between_learners_are_shown():
    """H: dlda_k10 shows k=10 (SelectKBest's default, which scikit-learn's repr
    hides) because dlda_k2 has k=2; every shown value equals the learner's
    get_params(deep=True); parameters at their defaults that no learner changes
    (e.g. the forest's criterion) are not shown; a learner at its defaults shows
    none."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    learners = _learners()
    assert "k=10" not in repr(learners["dlda_k10"])  # the problem of issue 13
    result = (
        BenchmarkExperiment(learners, cv=2, random_state=0, progress=False)
        .fit({"bc": (X[:80], y[:80])})
        .results_
    )
    table = learner_table(result)
    assert table.loc["dlda_k10", "learner"] == "Pipeline(SelectKBest, DiagonalLDA)"
    shown = {
        name: dict(kv.split("=", 1) for kv in row.split(", ")) if row else {}
        for name, row in table["parameters"].items()
    }
    assert shown["dlda_k10"]["selectkbest__k"] == "10"
    assert shown["dlda_k2"]["selectkbest__k"] == "2"
    assert shown["dlda_k2"]["selectkbest__score_func"] == "welch_t_score"
    assert shown["forest"] == {"max_depth": "3", "n_estimators": "7"}
    assert shown["dummy"] == {}
    for name, params in shown.items():
        deep = learners[name].get_params(deep=True)
        for key, value in params.items():
            expected = deep[key]
            text = getattr(expected, "__name__", repr(expected))
            assert value == text, (name, key)


def test_result_without_recorded_parameters_falls_back_to_the_repr():
    """H: a result from from_frame (no learner_params) lists each learner with its
    recorded repr, or empty, without failing."""
    df = pd.DataFrame({"d": ["a", "a"], "l": ["x", "y"], "v": [0.1, 0.2]})
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", greater_is_better=False
    )
    table = learner_table(result)
    assert list(table.index) == ["x", "y"]
    assert set(table["parameters"]) == {""}


def test_selectkbest_k_is_stated_even_at_its_default_alone():
    """H: a learner whose SelectKBest keeps its default k (10), with no other
    learner to differ from, still states selectkbest__k=10 (on ff4c58f the
    methods text dropped it), and nothing else at its default."""
    from sklearn.datasets import load_breast_cancer

    X, y = load_breast_cancer(return_X_y=True)
    learners = {"dlda": make_pipeline(SelectKBest(welch_t_score), DiagonalLDA())}
    result = (
        BenchmarkExperiment(learners, cv=2, random_state=0, progress=False)
        .fit({"bc": (X[:80], y[:80])})
        .results_
    )
    assert learner_table(result).loc["dlda", "parameters"] == (
        "selectkbest__k=10, selectkbest__score_func=welch_t_score"
    )
