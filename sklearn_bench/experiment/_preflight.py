"""Pre-flight checks of data sets against learners, before anything is fitted: a
problem that would make every task fail is one ``ValueError`` naming the data set
(and the learner), not hours of fitting and a flood of warnings."""

import numpy as np
import pandas as pd
from sklearn.base import is_classifier
from sklearn.utils.multiclass import type_of_target

from .._validation import first_non_numeric

__all__ = ["check_dataset_for_learners"]

#: A numeric classification target with more than this many distinct values ...
REGRESSION_LIKE_MIN_VALUES = 10
#: ... and on average fewer than this many rows per value is taken for a
#: regression target (e.g. scikit-learn's ``diabetes``: 214 values on 442 rows,
#: whose ``type_of_target`` is 'multiclass' because the values are integers).
#: Labels given as strings are never taken for a regression target.
REGRESSION_LIKE_MAX_ROWS_PER_VALUE = 5


def check_target(dataset, y, *, name="y"):
    """Refuse missing labels and labels that mix types (``name``: for messages)."""
    y = np.asarray(y)
    missing = np.flatnonzero(pd.isna(y)) if y.ndim == 1 else []
    if len(missing):
        raise ValueError(
            f"Data set {dataset!r}: `{name}` has {len(missing)} missing value(s) "
            f"(NaN or None; rows {missing[:10].tolist()}); drop or fill those rows."
        )
    if y.dtype == object:
        examples = {}  # a label of each type, numbers as one type
        for value in pd.unique(y.ravel()):
            if isinstance(value, bool | np.bool_):
                examples.setdefault("bool", value)
            elif isinstance(value, int | float | np.number):
                examples.setdefault("number", value)
            else:
                examples.setdefault(type(value).__name__, value)
        if len(examples) > 1:
            raise ValueError(
                f"Data set {dataset!r}: the labels in `{name}` mix types "
                f"({', '.join(sorted(examples))}; e.g. {list(examples.values())!r}); "
                "give every label the same type (e.g. all strings)."
            )


def _allow_nan(estimator):
    """Whether a learner (a Pipeline's first step) takes NaN, from its tags."""
    from sklearn.pipeline import Pipeline
    from sklearn.utils import get_tags

    if isinstance(estimator, Pipeline):
        steps = [s for _, s in estimator.steps if s not in (None, "passthrough")]
        return _allow_nan(steps[0]) if steps else None
    try:
        return bool(get_tags(estimator).input_tags.allow_nan)
    except Exception:  # a third-party estimator without tags
        return None


def _takes_text(estimator):
    """Whether a learner takes features that are not numbers (its first step
    encodes columns, or its tags say so); ``None`` when unknown."""
    from sklearn.compose import ColumnTransformer
    from sklearn.pipeline import FeatureUnion, Pipeline
    from sklearn.preprocessing import FunctionTransformer
    from sklearn.utils import get_tags

    if isinstance(estimator, Pipeline):
        steps = [s for _, s in estimator.steps if s not in (None, "passthrough")]
        return _takes_text(steps[0]) if steps else None
    inner = getattr(estimator, "estimator", None)  # GridSearchCV and the like
    if inner is not None and hasattr(inner, "fit"):
        return _takes_text(inner)
    if isinstance(estimator, ColumnTransformer | FeatureUnion | FunctionTransformer):
        return True
    try:
        tags = get_tags(estimator).input_tags
    except Exception:  # a third-party estimator without tags
        return None
    return bool(tags.categorical or tags.string)


def check_features(dataset, X, learners, *, name="X"):
    """Refuse text features or NaN for learners that cannot take them, and
    infinite values."""
    if X is None:
        return
    text = first_non_numeric(X)
    if text is not None:
        refusing = [n for n, est in learners.items() if _takes_text(est) is False]
        if refusing:
            column, row, value = text
            raise ValueError(
                f"Data set {dataset!r}: column {column!r} of `{name}` is not "
                f"numeric ({value!r} in row {row}), and learner {refusing[0]!r} "
                f"({type(learners[refusing[0]]).__name__}) takes numbers only"
                + (f", as do {refusing[1:]}" if len(refusing) > 1 else "")
                + ". Encode it as numbers (inside the learner, e.g. "
                "make_pipeline(make_column_transformer((OneHotEncoder(), "
                f"[{column!r}]), remainder='passthrough'), learner)) or drop it."
            )
    try:
        values = np.asarray(X, dtype=float)
    except (TypeError, ValueError):  # not all numbers
        return
    if values.size == 0:
        return
    if np.isinf(values).any():
        rows = np.flatnonzero(np.isinf(values).reshape(len(values), -1).any(axis=1))
        raise ValueError(
            f"Data set {dataset!r}: `{name}` has infinite values (rows "
            f"{rows[:10].tolist()}); scikit-learn's learners do not take them."
        )
    nan = np.isnan(values)
    if not nan.any():
        return
    refusing = [n for n, est in learners.items() if _allow_nan(est) is False]
    if refusing:
        columns = np.flatnonzero(nan.reshape(len(values), -1).any(axis=0))
        if isinstance(X, pd.DataFrame):
            columns = [X.columns[c] for c in columns]
        else:
            columns = columns.tolist()
        raise ValueError(
            f"Data set {dataset!r}: `{name}` has {int(nan.sum())} missing value(s) "
            f"(NaN, in columns {list(columns)[:10]}), which learner "
            f"{refusing[0]!r} ({type(learners[refusing[0]]).__name__}) cannot take "
            "(its scikit-learn tag allow_nan is false)"
            + (f"; so cannot {refusing[1:]}" if len(refusing) > 1 else "")
            + ". Put an imputer inside the learner, e.g. "
            "make_pipeline(SimpleImputer(), learner), or drop those rows."
        )


def check_classification_target(dataset, y, learners, *, name="y"):
    """Refuse classifiers on a numeric target that looks like a regression one
    (scikit-learn calls any integer-valued target 'multiclass')."""
    classifiers = [n for n, est in learners.items() if is_classifier(est)]
    y = np.asarray(y)
    if not classifiers or y.dtype.kind not in "iuf" or y.ndim != 1:
        return
    if type_of_target(y) != "multiclass":  # 'continuous' is refused elsewhere
        return
    n_values = len(np.unique(y))
    if (
        n_values > REGRESSION_LIKE_MIN_VALUES
        and len(y) < REGRESSION_LIKE_MAX_ROWS_PER_VALUE * n_values
    ):
        raise ValueError(
            f"Data set {dataset!r}: `{name}` has {n_values} distinct numeric values "
            f"on {len(y)} rows, which looks like a regression target, but learner "
            f"{classifiers[0]!r} is a classifier. Use regressors (and a regression "
            "metric), or, if these are class labels, give them as strings."
        )


def check_dataset_for_learners(dataset, data, learners):
    """Every pre-flight check of one data set (learning and test sample).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.linear_model import LogisticRegression
    >>> from sklearn_bench.datasets import Dataset
    >>> from sklearn_bench.experiment._preflight import check_dataset_for_learners
    >>> X = np.array([[0.0], [np.nan], [1.0], [2.0]])
    >>> data = Dataset(X, np.array([0, 1, 0, 1]))
    >>> check_dataset_for_learners("toy", data, {"lr": LogisticRegression()})
    Traceback (most recent call last):
    ...
    ValueError: Data set 'toy': `X` has 1 missing value(s) (NaN, in columns [0]), ...
    """
    for X_name, y_name, X, y in [
        ("X", "y", getattr(data, "X", None), getattr(data, "y", None)),
        ("X_test", "y_test", getattr(data, "X_test", None), data.y_test),
    ]:
        if y is None:
            continue
        check_target(dataset, y, name=y_name)
        check_features(dataset, X, learners, name=X_name)
        check_classification_target(dataset, y, learners, name=y_name)
