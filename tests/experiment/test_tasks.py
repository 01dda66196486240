"""Tests of sklearn_bench/experiment/_tasks.py: learners that share a pipeline
prefix fit it once per split, with the scores of fitting each alone."""

import time

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, TransformerMixin, clone
from sklearn.compose import ColumnTransformer
from sklearn.datasets import make_classification
from sklearn.decomposition import PCA
from sklearn.feature_selection import SelectKBest, f_classif
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ShuffleSplit
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.estimators import welch_t_score
from sklearn_bench.experiment._tasks import prefix_keys

CV = ShuffleSplit(n_splits=4, test_size=0.3, random_state=0)


@pytest.fixture(scope="module")
def data():
    return make_classification(90, 60, n_informative=6, random_state=0)


class _Counted(TransformerMixin, BaseEstimator):
    """Standardises; counts its fits in the class (n_jobs=1 runs in-process) and
    can sleep in fit, fail, or write into its input (``copy=False``)."""

    n_fits = 0
    validation_rows = []  # the row count of each transform outside fit

    def __init__(self, sleep=0.0, copy=True, fail=False):
        self.sleep = sleep
        self.copy = copy
        self.fail = fail

    def fit(self, X, y=None):
        type(self).n_fits += 1
        if self.fail:
            raise ValueError("this step fails")
        time.sleep(self.sleep)
        self.mean_, self.scale_ = X.mean(axis=0), X.std(axis=0) + 1.0
        return self

    def fit_transform(self, X, y=None):
        return self.fit(X, y)._transform(X)

    def transform(self, X):
        type(self).validation_rows.append(len(X))
        return self._transform(X)

    def _transform(self, X):
        X = np.array(X, copy=self.copy)
        X -= self.mean_
        X /= self.scale_
        return X


def _scores(learners, X, y, **kw):
    exp = BenchmarkExperiment(learners, cv=CV, random_state=0, progress=False, **kw)
    return exp.fit(X, y).results_.scores


def _by_hand(learners, X, y):
    """Each learner fitted alone on each split (the learners are seeded)."""
    out = []
    for est in learners.values():
        for train, test in CV.split(X, y):
            fitted = clone(est).fit(X[train], y[train])
            out.append(1.0 - fitted.score(X[test], y[test]))
    return np.array(out)


def _learners():
    """SelectKBest (f_classif, the Welch t selector), StandardScaler + PCA and a
    ColumnTransformer, each crossed with two or three classifiers."""
    ct = ColumnTransformer(
        [("a", StandardScaler(), list(range(30))), ("b", PCA(3), list(range(30, 60)))]
    )
    heads = {
        "lr": LogisticRegression(max_iter=500),
        "knn": KNeighborsClassifier(),
        "tree": DecisionTreeClassifier(random_state=1),
    }
    learners = {}
    for name, prefix in {
        "f": [SelectKBest(f_classif, k=8)],
        "welch": [SelectKBest(welch_t_score, k=8)],
        "pca": [StandardScaler(), PCA(4, svd_solver="full")],
        "ct": [ct],
    }.items():
        for head, est in heads.items():
            learners[f"{name}_{head}"] = make_pipeline(
                *(clone(s) for s in prefix), clone(est)
            )
    return learners


def test_shared_prefixes_give_the_scores_of_fitting_each_learner_alone(data):
    """H: with shared prefixes (SelectKBest with f_classif and with the Welch t
    score, StandardScaler + PCA, a ColumnTransformer, each crossed with three
    classifiers) the scores equal bit for bit those of each pipeline fitted alone
    by hand, and those of the experiment with sharing off."""
    X, y = data
    learners = _learners()
    shared = _scores(learners, X, y)
    alone = _scores(learners, X, y, prefix_cache_bytes=0)
    assert np.array_equal(shared["value"].to_numpy(), _by_hand(learners, X, y))
    assert np.array_equal(
        shared["value"].to_numpy().view(np.int64),
        alone["value"].to_numpy().view(np.int64),
    )


def test_a_shared_prefix_is_fitted_once_per_split(data):
    """H: three learners that begin with the same step fit it once per split (4
    fits for 4 splits, not 12); with prefix_cache_bytes=0, or for a learner named
    in fit_alone, each fits its own."""
    X, y = data
    learners = {
        name: make_pipeline(_Counted(), est)
        for name, est in [
            ("lr", LogisticRegression()),
            ("knn", KNeighborsClassifier()),
            ("tree", DecisionTreeClassifier(random_state=0)),
        ]
    }
    for kw, expected in [
        ({}, 4),
        ({"prefix_cache_bytes": 0}, 12),
        ({"fit_alone": ["tree"]}, 8),
    ]:
        _Counted.n_fits = 0
        _scores(learners, X, y, **kw)
        assert _Counted.n_fits == expected, kw


def test_a_prefix_left_out_of_the_budget_is_fitted_again_with_the_same_scores(data):
    """H: a byte budget smaller than the transformed training data keeps nothing,
    so every learner fits its prefix again; the scores do not change."""
    X, y = data
    learners = {
        "lr": make_pipeline(_Counted(), LogisticRegression()),
        "knn": make_pipeline(_Counted(), KNeighborsClassifier()),
    }
    _Counted.n_fits = 0
    small = _scores(learners, X, y, prefix_cache_bytes=100)
    assert _Counted.n_fits == 8
    assert np.array_equal(small["value"], _scores(learners, X, y)["value"])


def test_a_step_that_writes_into_its_input_does_not_change_other_learners(data):
    """H: steps that transform in place (copy=False) before and after the shared
    prefix do not reach the kept transformed data: the scores equal those of
    fitting each learner alone."""
    X, y = data
    two = [_Counted(copy=False), _Counted(copy=False)]
    learners = {
        "a": make_pipeline(*clone(two), KNeighborsClassifier()),
        "b": make_pipeline(_Counted(copy=False), KNeighborsClassifier()),
        "c": make_pipeline(*clone(two), LogisticRegression()),
    }
    shared = _scores(learners, X, y)
    assert np.array_equal(shared["value"].to_numpy(), _by_hand(learners, X, y))


def test_each_learner_is_charged_the_whole_shared_prefix(data):
    """H: a prefix that sleeps 0.05 s in fit, shared by two learners, is fitted
    once per split but each learner's fit_time includes it (what the learner
    costs alone)."""
    X, y = data
    learners = {
        "lr": make_pipeline(_Counted(sleep=0.05), LogisticRegression()),
        "knn": make_pipeline(_Counted(sleep=0.05), KNeighborsClassifier()),
    }
    _Counted.n_fits = 0
    scores = _scores(learners, X, y)
    assert _Counted.n_fits == 4
    assert (scores["fit_time"] >= 0.05).all()


def test_a_failing_prefix_is_a_recorded_failure_of_every_learner_sharing_it(data):
    """H: a shared step that fails in fit gives each learner that shares it a
    recorded failure with that error, fitted once per split; the other learners
    are scored."""
    X, y = data
    learners = {
        "lr": make_pipeline(_Counted(fail=True), LogisticRegression()),
        "knn": make_pipeline(_Counted(fail=True), KNeighborsClassifier()),
        "tree": DecisionTreeClassifier(random_state=0),
    }
    _Counted.n_fits = 0
    with pytest.warns(Warning, match="8 of the 12 tasks failed"):
        scores = _scores(learners, X, y)
    assert _Counted.n_fits == 4
    failed = scores[scores["error_type"] != ""]
    assert set(failed["learner"]) == {"lr", "knn"} and len(failed) == 8
    assert failed["error_message"].eq("this step fails").all()


def test_validation_rows_go_through_a_shared_prefix_once_per_split(data):
    """H: three learners sharing a prefix, scored by error rate, ROC AUC, log
    loss and a make_metric loss, with predictions and pointwise losses kept: the
    prefix transforms the validation rows once per split (4 transforms, not 12),
    and every score, prediction and loss equals bit for bit the run with sharing
    off (each learner's whole pipeline on the validation rows)."""
    from sklearn.metrics import mean_absolute_error

    from sklearn_bench.experiment import make_metric

    X, y = data
    learners = {
        "lr": make_pipeline(_Counted(), LogisticRegression()),
        "knn": make_pipeline(_Counted(), KNeighborsClassifier()),
        "tree": make_pipeline(_Counted(), DecisionTreeClassifier(random_state=0)),
    }
    scoring = [
        "error_rate",
        "roc_auc",
        "log_loss",
        make_metric(mean_absolute_error, greater_is_better=False, name="mae"),
    ]
    runs = []
    # alone: each task's four metrics, its predictions and two pointwise losses
    for budget, n_transforms in [(2**30, 4), (0, 12 * 7)]:
        _Counted.validation_rows = []
        exp = BenchmarkExperiment(
            learners, cv=CV, scoring=scoring, random_state=0, progress=False,
            keep_predictions=True, prefix_cache_bytes=budget,
        )  # fmt: skip
        runs.append(exp.fit(X, y).results_)
        assert _Counted.validation_rows == [27] * n_transforms
    shared, alone = runs
    for name in ("value", "learner", "metric"):
        assert np.array_equal(shared.scores[name], alone.scores[name])
    pd.testing.assert_frame_equal(shared.predictions, alone.predictions)
    pd.testing.assert_frame_equal(shared.losses, alone.losses)


def test_a_scorer_that_reads_the_estimator_gets_the_whole_pipeline(data):
    """H: a plain callable scorer (it may read more than predictions) is given
    each learner's whole fitted pipeline and the untransformed validation rows,
    also when the learner shares its prefix."""
    X, y = data
    seen = []

    def n_steps(estimator, X_val, y_val):
        seen.append((len(estimator.steps), X_val.shape[1]))
        return 0.0

    learners = {
        "lr": make_pipeline(SelectKBest(f_classif, k=5), LogisticRegression()),
        "knn": make_pipeline(SelectKBest(f_classif, k=5), KNeighborsClassifier()),
    }
    exp = BenchmarkExperiment(
        learners, cv=CV, scoring=n_steps, random_state=0, progress=False
    )
    exp.fit(X, y)
    assert seen == [(2, 60)] * 8


def test_prefix_keys_share_only_deterministic_equal_steps():
    """H: prefix_keys gives one key per step before the last; equal steps give
    equal keys; a step whose random_state is None or a RandomState, whose
    parameters cannot be hashed (a lambda), a Pipeline subclass or one with
    memory gives no key from that step on."""
    a = make_pipeline(StandardScaler(), PCA(3, random_state=0), LogisticRegression())
    b = make_pipeline(StandardScaler(), PCA(3, random_state=0), KNeighborsClassifier())
    c = make_pipeline(StandardScaler(), PCA(4, random_state=0), KNeighborsClassifier())
    assert len(prefix_keys(a)) == 2 and prefix_keys(a) == prefix_keys(b)
    assert prefix_keys(c)[0] == prefix_keys(a)[0] != prefix_keys(c)[1]
    for unseeded in (None, np.random.RandomState(0)):
        pca = PCA(3, random_state=unseeded)
        est = make_pipeline(StandardScaler(), pca, KNeighborsClassifier())
        assert len(prefix_keys(est)) == 1
    lam = make_pipeline(SelectKBest(lambda X, y: X.var(0)), LogisticRegression())
    assert prefix_keys(lam) == []

    class Mine(Pipeline):
        pass

    assert (
        prefix_keys(Mine([("s", StandardScaler()), ("m", LogisticRegression())])) == []
    )
    cached = make_pipeline(StandardScaler(), LogisticRegression(), memory="x")
    assert prefix_keys(cached) == []
    assert prefix_keys(LogisticRegression()) == []


@pytest.mark.parametrize(
    ("kw", "match"),
    [
        ({"prefix_cache_bytes": -1}, "prefix_cache_bytes"),
        ({"fit_alone": "lr"}, "fit_alone"),
        ({"fit_alone": ["nope"]}, "names no learner 'nope'"),
    ],
)
def test_sharing_parameters_are_checked(data, kw, match):
    """H: a negative byte budget, a bare string or an unknown name in fit_alone
    raise a ValueError naming the parameter."""
    X, y = data
    learners = {"lr": make_pipeline(StandardScaler(), LogisticRegression())}
    with pytest.raises(ValueError, match=match):
        _scores(learners, X, y, **kw)
