import warnings
import zlib

import numpy as np
import pandas as pd
import pytest
from sklearn.base import BaseEstimator, ClassifierMixin, clone
from sklearn.datasets import load_breast_cancer, load_iris, make_regression
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.metrics import accuracy_score
from sklearn.model_selection import (
    GridSearchCV,
    KFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    cross_validate,
)
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.datasets import Dataset, SimulatedDataset
from sklearn_bench.estimators import DiagonalLDA, welch_t_score
from sklearn_bench.experiment import make_metric

TIMES = ["fit_time", "score_time"]


def _seed(base, dataset, purpose, replicate=0):
    # The documented derivation, written out independently of _tasks.derive_seed.
    words = [base, zlib.crc32(dataset.encode()), purpose, replicate]
    return int(np.random.SeedSequence(words).generate_state(1, dtype=np.uint32)[0])


def _small_datasets():
    X_bc, y_bc = load_breast_cancer(return_X_y=True)
    rng = np.random.RandomState(0)
    rows = rng.choice(len(y_bc), 120, replace=False)
    X_ir, y_ir = load_iris(return_X_y=True)
    return {"cancer": (X_bc[rows, :8], y_bc[rows]), "iris": (X_ir, y_ir)}


def _learners():
    return {
        "logreg": make_pipeline(StandardScaler(), LogisticRegression()),
        "forest": RandomForestClassifier(n_estimators=5),  # seeded by the experiment
        "tree": make_pipeline(StandardScaler(), DecisionTreeClassifier(max_features=2)),
    }


def test_matches_hand_written_cross_validate_loop():
    """H: every score equals a hand loop of cross_validate over the same splits,
    with the learners' random_state set to the documented per-replicate seeds."""
    cv = RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=1)
    datasets = _small_datasets()
    experiment = BenchmarkExperiment(
        _learners(),
        cv=cv,
        scoring=["error_rate", "neg_log_loss"],
        random_state=42,
        progress=False,
    )
    scores = experiment.fit(datasets).results_.scores
    assert experiment.n_tasks_ == 2 * 6 * 3
    checked = 0
    for dname, (X, y) in datasets.items():
        splits = list(cv.split(X, y))
        for lname, learner in _learners().items():
            for rep in (0, 1):
                est = clone(learner)
                key = {
                    "logreg": "logisticregression__random_state",
                    "forest": "random_state",
                    "tree": "decisiontreeclassifier__random_state",
                }[lname]
                est.set_params(**{key: _seed(42, dname, 0, rep)})
                hand = cross_validate(
                    est,
                    X,
                    y,
                    cv=splits[3 * rep : 3 * rep + 3],
                    scoring=["accuracy", "neg_log_loss"],
                )
                ours = scores[
                    (scores.dataset == dname)
                    & (scores.learner == lname)
                    & (scores.replicate == rep)
                ].sort_values("fold")
                err = ours[ours.metric == "error_rate"]["value"].to_numpy()
                nll = ours[ours.metric == "neg_log_loss"]["value"].to_numpy()
                np.testing.assert_array_equal(err, 1 - hand["test_accuracy"])
                np.testing.assert_array_equal(nll, hand["test_neg_log_loss"])
                checked += 1
    assert checked == 12
    # The unseeded forest really depends on the seed: replicates differ in seed.
    assert _seed(42, "iris", 0, 0) != _seed(42, "iris", 0, 1)


def test_user_integer_seed_of_a_learner_is_kept():
    """H: a learner whose random_state the user fixed to an int keeps it."""
    X, y = load_iris(return_X_y=True)
    cv = StratifiedKFold(n_splits=3, shuffle=True, random_state=0)
    exp = BenchmarkExperiment(
        {"forest": RandomForestClassifier(n_estimators=5, random_state=7)},
        cv=cv,
        random_state=3,
        progress=False,
    ).fit(X, y)
    hand = cross_validate(
        RandomForestClassifier(n_estimators=5, random_state=7), X, y, cv=cv
    )
    np.testing.assert_array_equal(exp.results_.scores["value"], 1 - hand["test_score"])


def test_n_jobs_1_and_2_give_bit_identical_scores():
    """H: scores (all but timings) are bit-identical for n_jobs=1 and n_jobs=2."""
    datasets = _small_datasets()
    kwargs = {
        "cv": ShuffleSplit(n_splits=4, test_size=0.3),  # unseeded: seeded per data set
        "random_state": 5,
        "keep_predictions": True,
        "progress": False,
    }
    one = BenchmarkExperiment(_learners(), n_jobs=1, **kwargs).fit(datasets).results_
    two = BenchmarkExperiment(_learners(), n_jobs=2, **kwargs).fit(datasets).results_
    pd.testing.assert_frame_equal(
        one.scores.drop(columns=TIMES), two.scores.drop(columns=TIMES)
    )
    pd.testing.assert_frame_equal(one.predictions, two.predictions)


def test_same_random_state_same_scores_and_splits_matched():
    """H: two runs with one random_state agree, and on a data set every learner
    sees the same validation rows (matched pairs)."""
    X, y = load_iris(return_X_y=True)
    kw = {"cv": ShuffleSplit(n_splits=3), "random_state": 9, "keep_predictions": True}
    a = BenchmarkExperiment(_learners(), progress=False, **kw).fit(X, y).results_
    b = BenchmarkExperiment(_learners(), progress=False, **kw).fit(X, y).results_
    pd.testing.assert_series_equal(a.scores["value"], b.scores["value"])
    rows = a.predictions.groupby(["split", "learner"], observed=True)["row"].apply(
        tuple
    )
    for split in range(3):
        assert rows[split].nunique() == 1


def test_real_world_problem_keeps_validation_rows_and_correctness():
    """H: real world: tasks score on cv's validation rows, and kept predictions
    are those rows with correct = (prediction == truth)."""
    X, y = load_iris(return_X_y=True)
    cv = KFold(n_splits=3, shuffle=True, random_state=0)
    tree = DecisionTreeClassifier(random_state=0)
    res = (
        BenchmarkExperiment(
            {"tree": tree}, cv=cv, keep_predictions=True, progress=False
        )
        .fit({"iris": Dataset(X, y)})
        .results_
    )
    assert res.datasets == {"iris": "real world"}
    for split, (train, test) in enumerate(cv.split(X, y)):
        pred = res.predictions[res.predictions.split == split]
        np.testing.assert_array_equal(pred["row"], test)
        fitted = clone(tree).fit(X[train], y[train])
        np.testing.assert_array_equal(
            pred["correct"], fitted.predict(X[test]) == y[test]
        )
        row = res.scores[res.scores.split == split].iloc[0]
        assert (row.n_train, row.n_test) == (len(train), len(test))
        assert row.value == 1 - accuracy_score(y[test], fitted.predict(X[test]))


def test_competition_problem_scores_on_the_fixed_test_sample():
    """H: competition: learners fit on cv's training parts of the learning sample
    and are all scored on the same fixed test sample."""
    X, y = load_breast_cancer(return_X_y=True)
    X_learn, y_learn, X_test, y_test = X[:200], y[:200], X[200:], y[200:]
    cv = ShuffleSplit(n_splits=3, test_size=0.25, random_state=0)
    learners = {
        "tree": DecisionTreeClassifier(max_depth=2, random_state=0),
        "dummy": DummyClassifier(),
    }
    res = (
        BenchmarkExperiment(learners, cv=cv, keep_predictions=True, progress=False)
        .fit({"bc": Dataset(X_learn, y_learn, X_test=X_test, y_test=y_test)})
        .results_
    )
    assert res.datasets == {"bc": "competition"}
    assert (res.scores["n_test"] == len(y_test)).all()
    for split, (train, _) in enumerate(cv.split(X_learn)):
        for name, learner in learners.items():
            fitted = clone(learner).fit(X_learn[train], y_learn[train])
            expected = 1 - accuracy_score(y_test, fitted.predict(X_test))
            got = res.scores[(res.scores.split == split) & (res.scores.learner == name)]
            assert got["value"].item() == expected
            assert got["n_train"].item() == len(train)
            pred = res.predictions[
                (res.predictions.split == split) & (res.predictions.learner == name)
            ]
            np.testing.assert_array_equal(pred["row"], np.arange(len(y_test)))


def _sampler(n_samples, random_state):
    rng = np.random.default_rng(random_state)
    X = rng.normal(size=(n_samples, 3))
    return X, X @ np.array([1.0, -2.0, 0.5]) + rng.normal(size=n_samples)


def test_simulation_problem_fresh_learning_samples_one_test_sample():
    """H: simulation: replicate b fits on a fresh learning sample drawn with its
    own seed, and every replicate is scored on one test sample drawn once."""
    calls = []

    def sampler(n_samples, random_state):
        calls.append((n_samples, random_state))
        return _sampler(n_samples, random_state)

    data = SimulatedDataset(sampler, n_train=30, n_test=500, n_replicates=4)
    res = (
        BenchmarkExperiment(
            {"ols": LinearRegression(), "tree": DecisionTreeRegressor(max_depth=2)},
            scoring="mean_squared_error",
            random_state=11,
            progress=False,
        )
        .fit({"sim": data})
        .results_
    )
    assert res.datasets == {"sim": "simulation"}
    test_seed = _seed(11, "sim", 3)
    assert calls[0] == (500, test_seed)
    learn_seeds = [_seed(11, "sim", 2, b) for b in range(4)]
    # Drawn again (identically) for each of the two learners, learner by learner.
    assert calls[1:] == [(30, s) for s in learn_seeds] * 2
    X_test, y_test = _sampler(500, test_seed)
    for b, seed in enumerate(learn_seeds):
        X, y = _sampler(30, seed)
        pred = LinearRegression().fit(X, y).predict(X_test)
        got = res.scores[(res.scores.replicate == b) & (res.scores.learner == "ols")]
        assert got["value"].item() == pytest.approx(
            np.mean((y_test - pred) ** 2), rel=1e-12
        )
        assert (got["n_train"].item(), got["n_test"].item()) == (30, 500)
    assert res.performance().shape == (8, 4)


class _FailsOnSmallTrain(ClassifierMixin, BaseEstimator):
    """Fails to fit when the training part has fewer than ``min_rows`` rows."""

    def __init__(self, min_rows=100):
        self.min_rows = min_rows

    def fit(self, X, y):
        if len(X) < self.min_rows:
            raise ValueError(f"too few rows: {len(X)}")
        self.classes_ = np.unique(y)
        return self

    def predict(self, X):
        return np.full(len(X), self.classes_[0])


def _unbalanced_splits(n=30):
    # Training parts of 20, 24 and 28 rows.
    rows = np.arange(n)
    return [(rows[:m], rows[m:]) for m in (20, 24, 28)]


def test_failures_are_recorded_with_one_summarising_warning():
    """H: a learner failing on some splits gets error_score, its traceback is
    kept, and one FitFailedWarning groups the failures by message."""
    X, y = load_iris(return_X_y=True)
    X, y = X[::5], y[::5]
    learners = {"fragile": _FailsOnSmallTrain(min_rows=25), "dummy": DummyClassifier()}
    exp = BenchmarkExperiment(
        learners, cv=_unbalanced_splits(), error_score=0.75, progress=False
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        scores = exp.fit(X, y).results_.scores
    fit_failed = [w for w in caught if issubclass(w.category, FitFailedWarning)]
    assert len(fit_failed) == 1
    message = str(fit_failed[0].message)
    assert "2 of the 6 tasks failed" in message
    assert "too few rows: 20" in message and "too few rows: 24" in message
    failed = scores[scores.failed]
    assert failed["learner"].unique().tolist() == ["fragile"]
    assert failed["split"].tolist() == [0, 1]
    assert (failed["value"] == 0.75).all()
    assert (failed["error_type"] == "ValueError").all()
    assert failed["traceback"].str.contains("Traceback").all()
    assert not scores[~scores.failed]["error_message"].str.len().any()


def test_error_score_raise_names_dataset_learner_and_split():
    """H: error_score='raise' re-raises the learner's error with a note naming
    the data set, the learner and the split."""
    X, y = load_iris(return_X_y=True)
    exp = BenchmarkExperiment(
        {"fragile": _FailsOnSmallTrain(min_rows=25)},
        cv=_unbalanced_splits(),
        error_score="raise",
        progress=False,
    )
    with pytest.raises(ValueError, match="too few rows") as info:
        exp.fit({"iris30": (X[::5], y[::5])})
    note = " ".join(info.value.__notes__)
    assert "'fragile'" in note and "'iris30'" in note and "split 0" in note


def test_all_tasks_failed_raises():
    """H: when every task fails the experiment raises a ValueError."""
    X, y = load_iris(return_X_y=True)
    exp = BenchmarkExperiment(
        {"fragile": _FailsOnSmallTrain(min_rows=1000)}, cv=3, progress=False
    )
    with pytest.raises(ValueError, match="All the 3 tasks failed"):
        exp.fit(X, y)


def test_scoring_failure_is_recorded():
    """H: a metric that raises while scoring is a recorded failure of the task."""

    def broken(y_true, y_pred):
        raise RuntimeError("metric exploded")

    X, y = load_iris(return_X_y=True)
    bad = make_metric(broken, greater_is_better=False)
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier(random_state=0)},
        cv=3,
        scoring={"error": "error_rate", "bad": bad},
        progress=False,
    )
    with pytest.raises(ValueError, match="All the 3 tasks failed"):
        exp.fit(X, y)


@pytest.mark.parametrize(
    "learners, datasets, scoring, error, match",
    [
        (
            [("a", DummyClassifier()), ("a", DummyClassifier())],
            None,
            None,
            ValueError,
            "Duplicate learner name 'a'",
        ),
        ({"lr": LogisticRegression}, None, None, TypeError, "not a scikit-learn"),
        ({"x": "svm"}, None, None, TypeError, "not a scikit-learn"),
        (
            None,
            {"bad": (np.zeros((5, 2)), np.zeros(4))},
            None,
            ValueError,
            "`X` and `y` must have the same number of rows",
        ),
        (
            None,
            {"const": (np.zeros((6, 2)), np.ones(6))},
            None,
            ValueError,
            "Data set 'const' has only one class",
        ),
        (
            None,
            {"iris": load_iris(return_X_y=True)},
            "roc_auc",
            ValueError,
            "'roc_auc' needs a binary target",
        ),
        (
            {"ols": LinearRegression()},
            {"reg": make_regression(n_samples=20, random_state=0)},
            "error_rate",
            ValueError,
            "'error_rate' is for classification",
        ),
        (
            None,
            {"reg": make_regression(n_samples=20, random_state=0)},
            None,
            ValueError,
            "is a classifier, but data set 'reg' has a continuous target",
        ),
        (None, None, "no_such_metric", ValueError, "Unknown `scoring` name"),
        (
            {"ols": LinearRegression(), "knn": DummyClassifier()},
            None,
            None,
            ValueError,
            "`scoring` must be given",
        ),
    ],
)
def test_bad_input_gets_a_clear_error(learners, datasets, scoring, error, match):
    """H: each kind of bad input raises an error that names what is wrong."""
    learners = learners or {"dummy": DummyClassifier()}
    datasets = datasets or {"iris": load_iris(return_X_y=True)}
    exp = BenchmarkExperiment(learners, cv=3, scoring=scoring, progress=False)
    with pytest.raises(error, match=match):
        exp.fit(datasets)


def test_nested_tuning_inside_the_learner_is_seeded():
    """H: a GridSearchCV learner's nested random_state is set per replicate, so two
    runs agree and its inner search is redone on every training part."""
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(
        DecisionTreeClassifier(max_features=2), {"max_depth": [1, 3]}, cv=3
    )
    kw = {"cv": ShuffleSplit(n_splits=2, random_state=0), "random_state": 1}
    a = BenchmarkExperiment({"s": search}, progress=False, **kw).fit(X, y).results_
    b = BenchmarkExperiment({"s": search}, progress=False, **kw).fit(X, y).results_
    np.testing.assert_array_equal(a.scores["value"], b.scores["value"])
    train, test = next(ShuffleSplit(n_splits=2, random_state=0).split(X))
    est = clone(search).set_params(estimator__random_state=_seed(1, "data", 0, 0))
    expected = 1 - est.fit(X[train], y[train]).score(X[test], y[test])
    assert a.scores["value"].iloc[0] == expected


def test_estimator_api_get_set_params_and_clone():
    """H: BenchmarkExperiment behaves as an estimator: params round trip, clone
    copies the configuration without results."""
    exp = BenchmarkExperiment({"d": DummyClassifier()}, cv=3, random_state=0)
    assert exp.get_params()["cv"] == 3
    exp.set_params(cv=4, progress=False)
    assert exp.cv == 4
    X, y = load_iris(return_X_y=True)
    exp.fit(X, y)
    copy = clone(exp)
    assert copy.get_params()["cv"] == 4 and not hasattr(copy, "results_")
    assert "d" in copy.learners and copy.learners["d"] is not exp.learners["d"]


def test_regression_predictions_and_custom_quantile_loss():
    """H: regressors keep their predictions; a one-line custom loss (95% quantile of
    absolute error) equals the ceil(0.95 m)-th ordered absolute error."""
    X, y = make_regression(n_samples=60, n_features=3, noise=5.0, random_state=0)
    q95 = make_metric(
        lambda yt, yp: np.quantile(np.abs(yt - yp), 0.95, method="inverted_cdf"),
        greater_is_better=False,
        name="q95",
    )
    cv = KFold(n_splits=3)
    res = (
        BenchmarkExperiment(
            {"ols": LinearRegression()},
            cv=cv,
            scoring=q95,
            keep_predictions=True,
            progress=False,
        )
        .fit(X, y)
        .results_
    )
    assert res.metrics == {"q95": False}
    for split, (train, test) in enumerate(cv.split(X)):
        pred = LinearRegression().fit(X[train], y[train]).predict(X[test])
        kept = res.predictions[res.predictions.split == split]
        np.testing.assert_array_equal(kept["y_pred"], pred)
        ordered = np.sort(np.abs(y[test] - pred))
        expected = ordered[int(np.ceil(0.95 * len(ordered))) - 1]
        assert res.scores["value"].iloc[split] == expected


def test_progress_bar_can_be_switched_on_and_off(capsys):
    """H: progress=True writes a tqdm bar to stderr, progress=False writes nothing."""
    X, y = load_iris(return_X_y=True)
    BenchmarkExperiment({"d": DummyClassifier()}, cv=3, progress=True).fit(X, y)
    assert "BenchmarkExperiment" in capsys.readouterr().err
    BenchmarkExperiment({"d": DummyClassifier()}, cv=3, progress=False).fit(X, y)
    assert capsys.readouterr().err == ""


def test_leakage_canary_selection_inside_the_learner():
    """H: on pure noise (n=60, 2000 features, two classes) Welch t-test selection of
    10 features + DLDA inside the learner gives error near 0.5, while selecting them
    once on all rows beforehand gives a clearly lower, optimistically biased error
    (Simon et al. 2003, as discussed by Yousefi et al. 2011)."""
    rng = np.random.default_rng(0)
    X, y = rng.normal(size=(60, 2000)), np.repeat([0, 1], 30)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=4, random_state=0)
    inside = make_pipeline(SelectKBest(welch_t_score, k=10), DiagonalLDA())
    honest = BenchmarkExperiment({"inside": inside}, cv=cv, progress=False)
    honest = honest.fit({"noise": (X, y)}).results_.aggregate().iloc[0, 0]
    X_leaky = SelectKBest(welch_t_score, k=10).fit_transform(X, y)
    leaky = BenchmarkExperiment({"before": DiagonalLDA()}, cv=cv, progress=False)
    leaky = leaky.fit({"noise": (X_leaky, y)}).results_.aggregate().iloc[0, 0]
    # Seen with this seed: 0.479 inside, 0.150 with selection beforehand.
    assert abs(honest - 0.5) < 0.1
    assert leaky < 0.3 and honest - leaky > 0.2


def test_unseeded_inner_splitter_of_a_search_is_seeded():
    """H: GridSearchCV(cv=KFold(shuffle=True)) gets a seeded copy of its splitter per
    replicate, so repeated runs give identical scores."""
    X, y = load_iris(return_X_y=True)
    search = GridSearchCV(
        DecisionTreeClassifier(random_state=0),
        {"max_depth": [1, 2, 3]},
        cv=KFold(3, shuffle=True),
    )
    kw = {"cv": ShuffleSplit(n_splits=2, random_state=0), "random_state": 4}
    a = BenchmarkExperiment({"s": search}, progress=False, **kw).fit(X, y).results_
    b = BenchmarkExperiment({"s": search}, progress=False, **kw).fit(X, y).results_
    np.testing.assert_array_equal(a.scores["value"], b.scores["value"])
    assert search.cv.random_state is None  # the user's learner is left untouched
    seed = _seed(4, "data", 0, 1)
    train, test = list(ShuffleSplit(n_splits=2, random_state=0).split(X))[1]
    est = clone(search).set_params(cv=KFold(3, shuffle=True, random_state=seed))
    expected = 1 - est.fit(X[train], y[train]).score(X[test], y[test])
    assert a.scores["value"].iloc[1] == expected


def test_task_ids_are_stable_enumerable_and_skippable():
    """H: the experiment enumerates its tasks without running them, in the order of
    results_.scores; its jobs hold each task once and leave out those whose id is
    in `skip`."""
    datasets = _small_datasets()
    exp = BenchmarkExperiment(_learners(), cv=3, random_state=0, progress=False)
    setup = exp._prepare(datasets)
    tasks = list(exp._tasks(setup))
    assert len(tasks) == setup["n_tasks"] == 2 * 3 * 3
    assert len({(t.dataset, t.split, t.learner) for t in tasks}) == len(tasks)
    in_jobs = [t for job, _ in exp._jobs(setup) for t in job]
    assert sorted(in_jobs) == sorted(tasks)
    scores = exp.fit(datasets).results_.scores
    ran = list(zip(scores.dataset, scores.split, scores.learner, strict=True))
    assert ran == [(t.dataset, t.split, t.learner) for t in tasks]
    skip = {("iris", 1, "forest"), ("cancer", 0, "logreg")}
    left = [t for job, _ in exp._jobs(exp._prepare(datasets), skip=skip) for t in job]
    assert len(left) == len(tasks) - 2
    assert not {(t.dataset, t.split, t.learner) for t in left} & skip


def test_pandas_input_gives_the_same_scores_as_numpy():
    """H: a DataFrame/Series data set is scored exactly as its numpy arrays."""
    X, y = load_iris(return_X_y=True)
    frame = pd.DataFrame(X, columns=list("abcd"))
    kw = {"cv": ShuffleSplit(n_splits=3, random_state=0), "random_state": 0}
    a = BenchmarkExperiment(_learners(), progress=False, **kw).fit(X, y).results_
    b = BenchmarkExperiment(_learners(), progress=False, **kw)
    b = b.fit(frame, pd.Series(y)).results_
    np.testing.assert_array_equal(a.scores["value"], b.scores["value"])


def test_paper_generator_runs_as_a_simulated_dataset():
    """H: a generator of sklearn_bench.datasets (angle classification, Hothorn et al.
    2005 Sec. 5.2) plugs in as a SimulatedDataset sampler through functools.partial,
    and its test sample is the one drawn with the documented seed."""
    from functools import partial

    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis

    from sklearn_bench.datasets import make_angle_classification

    sampler = partial(make_angle_classification, angle=30)
    data = SimulatedDataset(sampler, n_train=50, n_test=400, n_replicates=3)
    res = (
        BenchmarkExperiment(
            {"lda": LinearDiscriminantAnalysis()}, random_state=2, progress=False
        )
        .fit({"angle": data})
        .results_
    )
    X_test, y_test = sampler(400, random_state=_seed(2, "angle", 3))
    X, y = sampler(50, random_state=_seed(2, "angle", 2, 1))
    fitted = LinearDiscriminantAnalysis().fit(X, y)
    expected = 1 - accuracy_score(y_test, fitted.predict(X_test))
    assert res.scores["value"].iloc[1] == expected


def test_bootstrap_cv_replicates_average_their_folds():
    """H: with BootstrapCV (RW-CV of Hothorn et al. 2005) each replicate's
    performance is the mean of its n_folds fold scores, equal to a cross_validate
    loop over the same splits; BootstrapOOB gives one split per replicate."""
    from sklearn_bench.model_selection import BootstrapCV, BootstrapOOB

    X, y = load_iris(return_X_y=True)
    cv = BootstrapCV(n_bootstraps=3, n_folds=4, random_state=0)
    tree = DecisionTreeClassifier(random_state=0)
    res = BenchmarkExperiment({"tree": tree}, cv=cv, progress=False).fit(X, y)
    perf = res.results_.performance()
    assert perf["replicate"].tolist() == [0, 1, 2]
    splits = list(cv.split(X, y))
    hand = 1 - cross_validate(tree, X, y, cv=splits)["test_score"]
    np.testing.assert_array_equal(res.results_.scores["value"], hand)
    np.testing.assert_allclose(
        perf["value"], hand.reshape(3, 4).mean(axis=1), rtol=1e-15
    )
    oob = BenchmarkExperiment(
        {"tree": tree}, cv=BootstrapOOB(n_bootstraps=5), random_state=0, progress=False
    ).fit(X, y)
    assert oob.results_.performance().shape == (5, 4)


def test_check_summarises_the_experiment_fit_would_run(tmp_path):
    """H: check() validates without fitting or writing: it returns the task count
    and the metrics, data sets and learners that fit's result then has, and
    leaves no store file behind."""
    X, y = load_iris(return_X_y=True)
    store = tmp_path / "run.sqlite"
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier(), "nb": DummyClassifier()},
        cv=ShuffleSplit(n_splits=3, random_state=0),
        scoring=["error_rate", "accuracy"],
        random_state=0,
        progress=False,
        store=store,
    )
    datasets = {"iris": (X, y), "test": Dataset(X, y, X_test=X, y_test=y)}
    summary = exp.check(datasets)
    assert not store.exists()
    result = exp.fit(datasets).results_
    assert summary == {
        "n_tasks": exp.n_tasks_,
        "metrics": result.metrics,
        "datasets": result.datasets,
        "learners": result.learners,
    }
    assert summary["n_tasks"] == 2 * 2 * 3


def test_check_refuses_what_fit_refuses():
    """H: check() raises the ValueError that fit raises before running a task,
    with the same message (here: a data set with one class)."""
    X, y = load_iris(return_X_y=True)
    exp = BenchmarkExperiment({"tree": DecisionTreeClassifier()}, progress=False)
    with pytest.raises(ValueError) as by_check:
        exp.check({"setosa": (X[:50], y[:50])})
    with pytest.raises(ValueError) as by_fit:
        exp.fit({"setosa": (X[:50], y[:50])})
    assert str(by_check.value) == str(by_fit.value)
    assert "'setosa' has only one class" in str(by_check.value)


def test_default_cv_is_shuffled_repeated_kfold_named_with_an_interval_each():
    """H: a first fit with every default draws 5-fold CV repeated 10 times on
    shuffled rows (stratified for classifiers; plain for a regressor), seeded
    from ``random_state`` per data set, names it in the provenance and the
    methods paragraph (never "None"), and gives a corrected-t interval for
    every learner on every data set."""
    from sklearn_bench.analysis import analyse
    from sklearn_bench.report._methods import _paragraph, methods_record

    X, y = load_iris(return_X_y=True)
    Xb, yb = load_breast_cancer(return_X_y=True)
    learners = {"tree": DecisionTreeClassifier(), "dummy": DummyClassifier()}
    exp = BenchmarkExperiment(learners, random_state=0, progress=False)
    res = exp.fit({"iris": (X, y), "cancer": (Xb, yb)}).results_
    assert res.info["cv"].startswith("RepeatedStratifiedKFold(n_repeats=10, n_split")
    s = res.scores
    rows = s[(s["dataset"] == "iris") & (s["learner"] == "tree")]
    assert rows["replicate"].nunique() == 10 and len(rows) == 50
    seed = _seed(0, "iris", 1)
    cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=10, random_state=seed)
    drawn = exp._prepare({"iris": (X, y)})["plans"]["iris"]["splits"]
    for (_, test), (_, stored, _, _) in zip(cv.split(X, y), drawn, strict=True):
        np.testing.assert_array_equal(np.sort(test), np.sort(stored))
    assert not np.array_equal(np.sort(drawn[0][1]), np.arange(30))  # shuffled
    text = " ".join(_paragraph(methods_record(analyse(res), versions={})))
    assert "drawn by RepeatedStratifiedKFold" in text and "by None" not in text
    for dataset in res.datasets:
        for learner in learners:
            ci = res.confidence_interval(learner, dataset=dataset)
            assert ci.method == "corrected_t" and np.isfinite(ci.standard_error)
    Xr, yr = make_regression(n_samples=40, n_features=3, random_state=0)
    reg = BenchmarkExperiment(
        {"lm": LinearRegression()}, random_state=0, progress=False
    )
    assert reg.check({"r": (Xr, yr)})["n_tasks"] == 50
    reg_res = reg.fit({"r": (Xr, yr)}).results_
    assert reg_res.info["cv"].startswith("RepeatedKFold(n_repeats=10, n_splits=5")


def test_learner_descriptions_hold_no_memory_address_and_errors_no_array():
    """H: the recorded repr of a learner with a function parameter names the
    function (``welch_t_score``), never ``<function … at 0x…>``, so two identical
    runs describe their learners identically; fit([(X, y)]) (a list without
    names) says what a list holds without printing the array."""
    from sklearn.feature_selection import SelectKBest

    X, y = load_iris(return_X_y=True)
    pipe = make_pipeline(SelectKBest(welch_t_score, k=2), DiagonalLDA())
    infos = [
        BenchmarkExperiment({"dlda": clone(pipe)}, cv=3, progress=False)
        .fit({"iris": (X[:100], y[:100])})
        .results_.info["learners"]
        for _ in range(2)
    ]
    assert infos[0] == infos[1] and "0x" not in infos[0]["dlda"]
    assert "score_func=welch_t_score" in infos[0]["dlda"]
    exp = BenchmarkExperiment({"dlda": pipe}, progress=False)
    with pytest.raises(ValueError, match=r"got ndarray \(a list holds \(name") as e:
        exp.fit([(X, y)])
    assert len(str(e.value)) < 200
