"""Tests of the data collection for the multiple-rule bias (Yousefi et al. 2011)."""

from functools import partial

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from sklearn.feature_selection import SelectKBest
from sklearn.model_selection import KFold, LeaveOneOut, StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.pipeline import make_pipeline
from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_bench.datasets import make_microarray
from sklearn_bench.estimators import DiagonalLDA, welch_t_score
from sklearn_bench.experiment import ErrorEstimatedLearner, collect_rule_errors

SAMPLER = partial(make_microarray, n_features=200, n_high_variance=10)


def _rules():
    def select():
        return SelectKBest(welch_t_score, k=5)

    return {
        "3nn": make_pipeline(select(), KNeighborsClassifier(3)),
        "dlda": make_pipeline(select(), DiagonalLDA()),
        "nmc": make_pipeline(select(), NearestCentroid()),
    }


def test_error_estimates_are_counting_cv_errors():
    """H: estimated_errors_ are counting CV errors with selection refitted per fold."""
    # Details: estimated_errors_ is the proportion of rows misclassified when held
    # out, with feature selection refitted in every training fold (hand loop).
    X, y = SAMPLER(40, random_state=0)
    rule = _rules()["dlda"]
    fitted = ErrorEstimatedLearner(
        rule, error_estimators={"cv4": KFold(4), "loo": LeaveOneOut()}
    ).fit(X, y)
    for name, cv in [("cv4", KFold(4)), ("loo", LeaveOneOut())]:
        wrong = 0
        for tr, te in cv.split(X):
            pipe = _rules()["dlda"].fit(X[tr], y[tr])
            wrong += np.sum(pipe.predict(X[te]) != y[te])
        assert_allclose(fitted.estimated_errors_[name], wrong / len(y), rtol=1e-12)
    assert_array_equal(fitted.predict(X), _rules()["dlda"].fit(X, y).predict(X))


def test_model_shapes_and_determinism():
    """H: model errors have the documented shapes and do not depend on n_jobs."""
    # Details: a model gives (rules, samples, 1) true and (rules, estimators,
    # samples, 1) estimated errors in [0, 1], identical for the same random_state
    # and n_jobs=2.
    kw = {
        "n_train": 20,
        "n_samples": 3,
        "n_test": 300,
        "error_estimators": {
            "cv5": StratifiedKFold(5, shuffle=True),
            "loo": LeaveOneOut(),
        },
    }
    a = collect_rule_errors(_rules(), {"model": SAMPLER}, random_state=1, **kw)
    b = collect_rule_errors(
        _rules(), {"model": SAMPLER}, random_state=1, n_jobs=2, **kw
    )
    assert a.true_error.shape == (3, 3, 1)
    assert a.estimated_error.shape == (3, 2, 3, 1)
    assert a.rules == ["3nn", "dlda", "nmc"] and a.error_estimators == ["cv5", "loo"]
    assert_array_equal(a.true_error, b.true_error)
    assert_array_equal(a.estimated_error, b.estimated_error)
    assert np.all((a.true_error >= 0) & (a.true_error <= 1))
    # LOO estimates are multiples of 1/20, true errors of 1/300
    assert_allclose(
        a.estimated_error[:, 1] * 20, np.round(a.estimated_error[:, 1] * 20)
    )
    assert_allclose(a.true_error * 300, np.round(a.true_error * 300), atol=1e-9)
    # samples differ between replicates
    assert len(np.unique(a.true_error[0, :, 0])) > 1


def test_real_data_held_out_rest_and_two_datasets():
    """H: real data are scored on the held-out rest; K data sets stack."""
    # Details: a real data set is scored on its n - n_train held-out rows; two
    # data sets stack on the last axis and give the averaged analysis of eqs.
    # 9-10.
    X1, y1 = SAMPLER(70, random_state=2)
    X2, y2 = SAMPLER(50, random_state=3)
    errors = collect_rule_errors(
        _rules(),
        {"a": (X1, y1), "b": (X2, y2)},
        n_train=30,
        n_samples=2,
        error_estimators={"cv5": StratifiedKFold(5, shuffle=True)},
        random_state=0,
    )
    assert errors.true_error.shape == (3, 2, 2)
    scores = errors.result.scores
    true_rows = scores[scores["metric"] == "true_error"]
    n_test = true_rows.groupby("dataset", observed=True)["n_test"].unique()
    assert list(n_test["a"]) == [40] and list(n_test["b"]) == [20]
    res = errors.multiple_rule_bias()
    assert list(dict.fromkeys(res.to_frame()["dataset"])) == ["a", "b", "average"]


def test_store_resumes_to_the_same_arrays(tmp_path):
    """H: a collection written to a store reads back (resumes) bit-identically."""
    kw = {
        "n_train": 20,
        "n_samples": 2,
        "n_test": 200,
        "error_estimators": {"cv5": StratifiedKFold(5, shuffle=True)},
        "random_state": 4,
        "store": tmp_path / "rules.sqlite",
    }
    a = collect_rule_errors(_rules(), {"model": SAMPLER}, **kw)
    b = collect_rule_errors(_rules(), {"model": SAMPLER}, **kw)
    assert_array_equal(a.true_error, b.true_error)
    assert_array_equal(a.estimated_error, b.estimated_error)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"n_train": 0}, "`n_train` must be a positive integer"),
        ({"n_samples": 1.5}, "`n_samples` must be a positive integer"),
        ({"data": {"x": (np.zeros((10, 2)), np.arange(10) % 2)}}, "leaves no held-out"),
        ({"rules": {}}, "`rules` must be a non-empty dict"),
    ],
)
def test_invalid_arguments(kwargs, match):
    """H: bad arguments raise ValueError naming the argument."""
    args = {"rules": _rules(), "data": {"m": SAMPLER}, "n_train": 30, "n_samples": 2}
    args.update(kwargs)
    with pytest.raises(ValueError, match=match):
        collect_rule_errors(args.pop("rules"), args.pop("data"), **args)


def test_invalid_error_estimators():
    """H: error_estimators must be a dict of splitters."""
    X, y = SAMPLER(20, random_state=0)
    with pytest.raises(ValueError, match="`error_estimators"):
        ErrorEstimatedLearner(NearestCentroid(), error_estimators={"x": 3}).fit(X, y)


@parametrize_with_checks(
    [ErrorEstimatedLearner(NearestCentroid(), error_estimators={"cv3": KFold(3)})]
)
def test_sklearn_compatible(estimator, check):
    """H: ErrorEstimatedLearner follows scikit-learn's estimator API."""
    check(estimator)
