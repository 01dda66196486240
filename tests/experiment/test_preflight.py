"""Tests of sklearn_bench/experiment/_preflight.py: problems that would make every
task fail or every number meaningless are refused before the first fit."""

import re
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_iris
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.impute import SimpleImputer
from sklearn.linear_model import LogisticRegression, Ridge
from sklearn.pipeline import make_pipeline
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.datasets import Dataset
from sklearn_bench.experiment._preflight import (
    REGRESSION_LIKE_MAX_ROWS_PER_VALUE,
    REGRESSION_LIKE_MIN_VALUES,
)


def _fit(learners, datasets, **kwargs):
    exp = BenchmarkExperiment(learners, progress=False, random_state=0, **kwargs)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no FitFailedWarning flood, no numpy warning
        return exp.fit(datasets)


def _iris_with_nan():
    X, y = load_iris(return_X_y=True)
    X = X.copy()
    X[[3, 50], 2] = np.nan
    return X, y


def test_nan_in_x_is_refused_for_a_learner_without_allow_nan():
    """H: NaN in X with LogisticRegression (allow_nan tag false) raises one
    ValueError naming the data set, the learner, the count and the column, before
    any fit (it used to run, exit 0, and print 50-line FitFailedWarnings)."""
    msg = (
        "Data set 'iris': `X` has 2 missing value(s) (NaN, in columns [2]), which "
        "learner 'lr' (LogisticRegression) cannot take (its scikit-learn tag "
        "allow_nan is false)"
    )
    with pytest.raises(ValueError, match=re.escape(msg)):
        _fit({"hgb": HistGradientBoostingClassifier(), "lr": LogisticRegression()},
             {"iris": _iris_with_nan()})  # fmt: skip


def test_nan_in_x_runs_for_learners_that_take_it():
    """H: the same data run when every learner takes NaN: a histogram gradient
    boosting (allow_nan true) and an imputing pipeline (its first step's tag)."""
    learners = {
        "hgb": HistGradientBoostingClassifier(max_iter=5),
        "imputed": make_pipeline(SimpleImputer(), DecisionTreeClassifier()),
    }
    result = _fit(learners, {"iris": _iris_with_nan()}, cv=2).results_
    assert result.scores["value"].notna().all()


def test_infinite_x_is_refused_naming_the_data_set():
    """H: an infinite value in X is refused for any learner, naming the data set."""
    X, y = load_iris(return_X_y=True)
    X = X.copy()
    X[7, 0] = np.inf
    match = r"Data set 'iris': `X` has infinite values \(rows \[7\]\)"
    with pytest.raises(ValueError, match=match):
        _fit({"tree": DecisionTreeClassifier()}, {"iris": (X, y)})


def test_integer_regression_target_is_refused_for_classifiers():
    """H: diabetes (integer-valued, 214 values on 442 rows; type_of_target says
    'multiclass') fitted by classifiers is refused as a regression target (it used
    to run and report 'best lr (mean 0.980)'); regressors run on it."""
    X, y = load_diabetes(return_X_y=True)
    n_values = len(np.unique(y))
    assert n_values > REGRESSION_LIKE_MIN_VALUES
    assert len(y) < REGRESSION_LIKE_MAX_ROWS_PER_VALUE * n_values
    match = (
        r"Data set 'diabetes': `y` has 214 distinct numeric values on 442 rows, "
        r"which looks like a regression target, but learner 'lr' is a classifier"
    )
    with pytest.raises(ValueError, match=match):
        _fit({"lr": LogisticRegression()}, {"diabetes": (X, y)})
    result = _fit({"ridge": Ridge()}, {"diabetes": (X, y)}, cv=2).results_
    assert result.scores["value"].notna().all()


def test_many_classes_with_enough_rows_are_classes():
    """H: the rule is about rows per value: 12 integer classes of 6 rows each (more
    than 10 values, but 5 or more rows per value) are a classification target, and
    the same target as strings is never refused."""
    rng = np.random.default_rng(0)
    X = rng.normal(size=(72, 3))
    y = np.repeat(np.arange(12), 6)
    _fit({"tree": DecisionTreeClassifier()}, {"d": (X, y)}, cv=3)
    y_few = np.arange(72) % 30  # 30 values, 2.4 rows each
    with pytest.raises(ValueError, match="looks like a regression target"):
        _fit({"tree": DecisionTreeClassifier()}, {"d": (X, y_few)}, cv=2)
    exp = BenchmarkExperiment({"tree": DecisionTreeClassifier()}, cv=2)
    assert exp.check({"d": (X, y_few.astype(str))})["n_tasks"] == 2


def test_mixed_label_types_name_the_data_set():
    """H: labels ["a", 1, ...] raise a ValueError naming the data set and the types
    (it used to be numpy's "'<' not supported between 'int' and 'str'")."""
    X = np.arange(40.0).reshape(20, 2)
    y = np.array(["a", 1] * 10, dtype=object)
    match = r"Data set 'mixed': the labels in `y` mix types \(number, str"
    with pytest.raises(ValueError, match=match):
        _fit({"lr": LogisticRegression()}, {"mixed": (X, y)})


@pytest.mark.parametrize("bad", [np.nan, None])
def test_missing_label_names_the_data_set(bad):
    """H: a NaN or None label raises naming the data set and the row, without a
    numpy RuntimeWarning (it used to be "Input y contains NaN." without a name)."""
    X, y = load_iris(return_X_y=True)
    y = y.astype(object if bad is None else float)
    y[4] = bad
    match = r"Data set 'iris': `y` has 1 missing value\(s\) \(NaN or None; rows \[4\]\)"
    with pytest.raises(ValueError, match=match):
        _fit({"lr": LogisticRegression()}, {"iris": (X, y)})


def test_cv_with_more_folds_than_rows_names_the_data_set():
    """H: cv=5 on 5 rows raises naming the data set and its size, then sklearn's
    own reason (it used to be a bare sklearn error)."""
    X = np.arange(10.0).reshape(5, 2)
    y = np.array([0, 1, 0, 1, 0])
    match = r"`cv` cannot split data set 'tiny' \(5 rows\): n_splits=5"
    with pytest.raises(ValueError, match=match):
        _fit({"lr": LogisticRegression()}, {"tiny": (X, y)}, cv=5)


def test_competition_test_sample_is_checked_too():
    """H: NaN in a fixed test sample is refused naming `X_test`."""
    X, y = load_iris(return_X_y=True)
    X_test = X[:10].copy()
    X_test[0, 0] = np.nan
    data = Dataset(X, y, X_test=X_test, y_test=y[:10])
    match = r"Data set 'iris': `X_test` has 1 missing"
    with pytest.raises(ValueError, match=match):
        _fit({"lr": LogisticRegression()}, {"iris": data})


def test_a_text_column_is_refused_before_any_fit_as_the_cli_refuses_it():
    """H: a DataFrame with a text column (the CSV the CLI refuses with "column
    'b' ... is not numeric ('x' ...)") is one ValueError from fit() naming the
    data set, the column, the value and the learner, before any task runs (on
    17a1a60: ten failed tasks, a FitFailedWarning and an all-NaN row); a
    learner that encodes the column itself runs."""
    import pandas as pd
    from sklearn.compose import make_column_transformer
    from sklearn.preprocessing import OneHotEncoder

    from sklearn_bench._validation import first_non_numeric

    rng = np.random.default_rng(0)
    frame = pd.DataFrame(
        {"a": rng.normal(size=40), "b": ["x", "y"] * 20},
    )
    y = np.repeat([0, 1], 20)
    assert first_non_numeric(frame) == ("b", 0, "x")  # the CLI's check too
    msg = (
        "Data set 'd': column 'b' of `X` is not numeric ('x' in row 0), and "
        "learner 'lr' (LogisticRegression) takes numbers only"
    )
    with pytest.raises(ValueError, match=re.escape(msg)):
        _fit({"lr": LogisticRegression()}, {"d": (frame, y)}, cv=2)
    encoded = make_pipeline(
        make_column_transformer((OneHotEncoder(), ["b"]), remainder="passthrough"),
        LogisticRegression(),
    )
    result = _fit({"encoded": encoded}, {"d": (frame, y)}, cv=2).results_
    assert result.scores["value"].notna().all()
