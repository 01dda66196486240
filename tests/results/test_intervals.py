"""How good is one learner from a run (issue 40, items 1-3): the interval of a
learner's error, ``BenchmarkResult.confidence_interval(a)`` of
sklearn_bench/results/_intervals.py, from memory and from a store; the primary
splits every other analysis reads (results/_select.py)."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from sklearn.base import clone
from sklearn.datasets import load_breast_cancer
from sklearn.metrics import log_loss
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    PredefinedSplit,
    RepeatedKFold,
    ShuffleSplit,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import Dataset
from sklearn_bench.model_selection import BootstrapOOB, NestedCV, PairedSubsampling
from sklearn_bench.stats import generalization_error_interval

X, Y = load_breast_cancer(return_X_y=True)
X, Y = X[::2], Y[::2]  # 285 rows
LEARNERS = {
    "nb": GaussianNB(),
    "tree": DecisionTreeClassifier(max_depth=2, random_state=0),
}
RTOL = 1e-12


def _run(cv, *, store=None, scoring=("error_rate", "log_loss"), **kwargs):
    return (
        BenchmarkExperiment(
            LEARNERS,
            cv=cv,
            scoring=list(scoring),
            random_state=0,
            progress=False,
            store=store,
            **kwargs,
        )  # fmt: skip
        .fit({"bc": (X, Y)})
        .results_
    )


@pytest.fixture(scope="module")
def nested(tmp_path_factory):
    """A nested-CV run (3 repeats x 4 folds) in memory and read from its store."""
    store = tmp_path_factory.mktemp("nested") / "run.sqlite"
    cv = NestedCV(4, n_repeats=3, random_state=1)
    return cv, _run(cv), (_run(cv, store=store), BenchmarkResult.from_store(store))


def _hand_table(cv, learner, loss):
    """The pointwise losses of a hand loop over ``cv``'s splits (no runner),
    with its split roles: the table stats.generalization_error_interval reads."""
    rows = []
    for split, (train, test) in enumerate(cv.split(X, Y)):
        model = clone(LEARNERS[learner]).fit(X[train], Y[train])
        if loss == "error_rate":
            values = model.predict(X[test]) != Y[test]
        else:
            p = model.predict_proba(X[test])[:, 1]
            values = [
                log_loss([y], [q], labels=[0, 1])
                for y, q in zip(Y[test], p, strict=True)
            ]
        rows.append(pd.DataFrame({"split": split, "row": test, "loss": values}))
    return pd.concat(rows).merge(cv.split_roles(), on="split")


@pytest.mark.parametrize("metric", ["error_rate", "log_loss"])
def test_nested_cv_interval_equals_a_hand_loop(nested, metric):
    """H: on a study run with NestedCV, confidence_interval("nb", dataset="bc")
    (method=None) is the nested-CV interval of the pointwise losses of a hand
    loop over the same splits (fit, predict, loss by scikit-learn), from memory
    and from the store, at the level asked for (rtol 1e-12)."""
    cv, memory, (fitted, stored) = nested
    ref = generalization_error_interval(
        _hand_table(cv, "nb", metric), method="nested_cv", metric=metric
    )
    ci = ref.confidence_interval(0.9)
    for result in (memory, fitted, stored):
        res = result.confidence_interval(
            "nb", dataset="bc", confidence_level=0.9, metric=metric
        )
        assert res.method == "nested_cv" and res.confidence_level == 0.9
        np.testing.assert_allclose(
            [res.estimate, res.standard_error, res.low, res.high],
            [ref.estimate, ref.standard_error, ci.low, ci.high],
            rtol=RTOL,
        )
        assert (
            res.design
            == ref.design
            == "nested CV, 3 repeats x 4 folds (48 fits), n=285"
        )


def test_difference_of_two_learners_by_nested_cv(nested):
    """H: confidence_interval("nb", "tree", method="nested_cv") is the nested-CV
    interval of the pointwise differences (stats' baseline=) of the hand loop;
    without a method the two-learner call is paired_test's corrected t interval
    (as the same kind of result)."""
    cv, result, _ = nested
    a, b = _hand_table(cv, "nb", "error_rate"), _hand_table(cv, "tree", "error_rate")
    ref = generalization_error_interval(a, method="nested_cv", baseline=b)
    res = result.confidence_interval("nb", "tree", dataset="bc", method="nested_cv")
    assert res.difference
    np.testing.assert_allclose(
        [res.estimate, res.low, res.high],
        [ref.estimate, *ref.confidence_interval()],
        rtol=RTOL,
    )
    old = result.confidence_interval("nb", "tree", dataset="bc")
    test = result.paired_test("nb", "tree", dataset="bc")
    assert old.confidence_interval() == test.confidence_interval(0.95)


def test_other_analyses_read_the_outer_splits(nested):
    """H: every other analysis of a nested-CV run reads its outer splits only
    (ordinary repeated K-fold CV): the mean performance is the mean of the
    outer split scores, a replicate is a repeat of K outer folds, and the
    within-data-set test is the corrected t on the K·R outer folds; the scores
    table keeps every split."""
    cv, result, _ = nested
    roles = cv.split_roles()
    outer = roles["split"][roles["inner"] == -1]
    scores = result.scores
    rows = scores[(scores["metric"] == "error_rate") & scores["split"].isin(outer)]
    mean = rows.groupby("learner", observed=True)["value"].mean()
    np.testing.assert_allclose(result.aggregate().loc["bc"], mean[result.learners])
    assert len(result.performance()) == 2 * 3
    test = result.paired_test("nb", "tree", dataset="bc")
    assert (test.method, test.n) == ("corrected_t", 12)
    assert scores["split"].nunique() == 48


@pytest.mark.parametrize(
    ("cv", "method", "kwargs"),
    [
        (PairedSubsampling(3, n_pairs=2, train_size=0.8, random_state=0),
         "conservative_z", {}),
        (ShuffleSplit(5, test_size=0.25, random_state=0), "corrected_t", {}),
        (RepeatedKFold(n_splits=3, n_repeats=2, random_state=0), "corrected_t", {}),
        (ShuffleSplit(1, test_size=0.3, random_state=0), "holdout",
         {"keep_predictions": True}),
    ],
)  # fmt: skip
def test_the_method_of_each_splitter(cv, method, kwargs):
    """H: method=None picks the method of the run's splitter (PairedSubsampling
    → conservative_z, ShuffleSplit → corrected_t, RepeatedKFold → corrected_t
    on its K·R folds, one split → holdout), and the interval is the stats
    function's on the table of the run's own split scores (or pointwise
    losses) with the splitter's roles."""
    result = _run(cv, **kwargs)
    res = result.confidence_interval("tree", dataset="bc")
    assert res.method == method
    scores = result.scores
    rows = scores[(scores["learner"] == "tree") & (scores["metric"] == "error_rate")]
    if method == "holdout":
        losses = result.losses
        table = losses[(losses["learner"] == "tree")
                       & (losses["metric"] == "error_rate")]  # fmt: skip
    else:
        table = rows.rename(columns={"value": "loss"})
        if hasattr(cv, "split_roles"):
            table = table.merge(cv.split_roles(), on="split")
    ref = generalization_error_interval(table, method=method)
    np.testing.assert_allclose(
        [res.estimate, res.standard_error],
        [ref.estimate, ref.standard_error],
        rtol=RTOL,
    )


def test_split_score_methods_take_any_metric():
    """H: the corrected t of a ShuffleSplit run reads the split scores, so it
    gives the interval of a metric that is not a mean of pointwise losses (ROC
    AUC): the corrected t of the 5 split AUCs (n_train, n_test stored)."""
    result = _run(ShuffleSplit(5, test_size=0.25, random_state=0), scoring=["roc_auc"])
    res = result.confidence_interval("nb", dataset="bc")
    auc = result.scores[result.scores["learner"] == "nb"]["value"].to_numpy()
    se = auc.std(ddof=1) * np.sqrt(1 / 5 + 72 / 213)
    np.testing.assert_allclose([res.estimate, res.standard_error],
                               [auc.mean(), se], rtol=RTOL)  # fmt: skip
    assert (res.method, res.metric, res.df) == ("corrected_t", "roc_auc", 4)


def test_kfold_gives_naive_cv_with_a_warning_and_needs_the_losses():
    """H: one K-fold partition gives the naive CV interval with a UserWarning
    that it under-covers, from the pointwise losses a run keeps with
    keep_predictions=True; without them the ValueError says how to keep them."""
    cv = KFold(5, shuffle=True, random_state=0)
    with pytest.warns(UserWarning, match="covers the expected error less often"):
        res = _run(cv, keep_predictions=True).confidence_interval("nb", dataset="bc")
    assert res.method == "naive_cv" and res.n_samples == len(Y)
    with pytest.raises(ValueError, match="keep_predictions=True"):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            _run(cv).confidence_interval("nb", dataset="bc")


@pytest.mark.parametrize(
    "cv", [PredefinedSplit(np.arange(len(Y)) % 5), GroupKFold(5)], ids=type
)
def test_partitions_a_splitter_is_not_named_for_get_the_naive_cv(cv):
    """H: a 5-fold PredefinedSplit and a GroupKFold (groups of 3 rows) run
    with kept predictions are one 5-fold partition read from the stored
    splits, so method=None gives the naive CV interval (with its warning),
    equal to a hand computation of the package's definition (Bayle et al.
    2020, stats.generalization_error_interval's "naive_cv"): over the n
    pointwise 0-1 losses of one partition, mean ± z_{0.975} · sd / √n with
    sd the standard deviation dividing by n (rtol 1e-12)."""
    groups = np.arange(len(Y)) // 3 if isinstance(cv, GroupKFold) else None
    data = {"bc": Dataset(X, Y, groups=groups)}
    result = (
        BenchmarkExperiment(LEARNERS, cv=cv, scoring=["error_rate"], random_state=0,
                            progress=False, keep_predictions=True)
        .fit(data)
        .results_
    )  # fmt: skip
    with pytest.warns(UserWarning, match="covers the expected error less often"):
        res = result.confidence_interval("nb", dataset="bc")
    wrong = np.zeros(len(Y))
    for train, test in cv.split(X, Y, groups):
        fit = clone(LEARNERS["nb"]).fit(X[train], Y[train])
        wrong[test] = fit.predict(X[test]) != Y[test]
    half = stats.norm.ppf(0.975) * wrong.std(ddof=0) / np.sqrt(len(Y))
    assert res.method == "naive_cv" and res.n_samples == len(Y)
    np.testing.assert_allclose(
        [res.estimate, res.low, res.high],
        [wrong.mean(), wrong.mean() - half, wrong.mean() + half],
        rtol=RTOL,
    )


@pytest.mark.parametrize(
    ("method", "needs"),
    [
        ("nested_cv", "NestedCV"),
        ("conservative_z", "PairedSubsampling"),
        ("holdout", "one split"),
        ("five_by_two", r"RepeatedKFold\(n_splits=2, n_repeats=5\)"),
        ("oob", "count in every bootstrap sample"),
        ("bogus", "must be one of"),
    ],
)
def test_a_method_the_splitter_cannot_support_is_refused(method, needs):
    """H: a method the run's design (one KFold partition) cannot support is a
    ValueError that names the splitters it needs and the design read from the
    stored splits."""
    result = _run(KFold(4), keep_predictions=True)
    with pytest.raises(ValueError, match=needs) as refused:
        result.confidence_interval("nb", dataset="bc", method=method)
    if method not in ("oob", "bogus"):
        assert "was split as one 4-fold partition" in str(refused.value)


def test_bootstrap_and_unknown_designs_say_why():
    """H: a bootstrap run has no method from a run (the out-of-bootstrap
    interval needs the bootstrap counts, which it does not keep), and a
    two-learner method that has no A − B form is refused."""
    result = _run(BootstrapOOB(5, random_state=0))
    with pytest.raises(ValueError, match="generalization_error_interval"):
        result.confidence_interval("nb", dataset="bc")
    with pytest.raises(ValueError, match="not an interval of A − B"):
        _run(KFold(4)).confidence_interval("nb", "tree", method="holdout")


def test_a_failed_task_is_named(nested):
    """H: a learner whose task failed on a split has no interval: the
    ValueError names it and the split (the split-score and pointwise paths)."""
    _, result, _ = nested
    scores = result.scores
    at = (scores["learner"] == "nb") & (scores["split"] == 2)  # an outer split
    scores.loc[at, ["value", "error_type"]] = [np.nan, "ValueError"]
    broken = BenchmarkResult(
        scores, metrics=result.metrics, datasets=result.datasets,
        learners=result.learners, info=result.info,
        losses=result.losses[~((result.losses["learner"] == "nb")
                               & (result.losses["split"] == 2))],
    )  # fmt: skip
    with pytest.raises(ValueError, match=r"'nb' .*splits \[2\]"):
        broken.confidence_interval("nb", dataset="bc")
    with pytest.raises(ValueError, match="'nb' failed on data set 'bc'"):
        broken.confidence_interval("nb", dataset="bc", method="corrected_t")
    assert broken.confidence_interval("tree", dataset="bc").method == "nested_cv"


def test_saved_result_keeps_its_losses_and_roles(nested, tmp_path):
    """H: BenchmarkResult.save/load keeps the pointwise losses bit for bit and
    the split roles, so the interval is the same after a round trip."""
    _, result, _ = nested
    result.save(tmp_path / "saved")
    back = BenchmarkResult.load(tmp_path / "saved")
    pd.testing.assert_frame_equal(back.losses, result.losses)
    a = back.confidence_interval("tree", dataset="bc")
    b = result.confidence_interval("tree", dataset="bc")
    assert (a.estimate, a.standard_error) == (b.estimate, b.standard_error)


def test_a_proportion_interval_is_cut_to_its_range_and_its_estimate_is_not():
    """H: when the nested-CV interval of an error rate reaches below 0 (one
    wrong label among 120 well-separated rows), BenchmarkResult's low is 0 and
    its high and estimate are the uncut stats values; log_loss (no upper bound
    known) and the stats function itself are never cut."""
    from sklearn.datasets import make_blobs

    x, y = make_blobs(120, centers=[[-5, -5], [5, 5]], random_state=0)
    y[0] = 1 - y[0]
    cv = NestedCV(4, n_repeats=2, random_state=0)
    result = (
        BenchmarkExperiment(
            {"nb": GaussianNB()},
            cv=cv,
            scoring=["error_rate", "log_loss"],
            random_state=0,
            progress=False,
        )
        .fit({"blobs": (x, y)})
        .results_
    )
    res = result.confidence_interval("nb", dataset="blobs", metric="error_rate")
    rows = []
    for split, (train, test) in enumerate(cv.split(x, y)):
        wrong = GaussianNB().fit(x[train], y[train]).predict(x[test]) != y[test]
        rows.append(pd.DataFrame({"split": split, "row": test, "loss": wrong}))
    table = pd.concat(rows).merge(cv.split_roles(), on="split")
    raw = generalization_error_interval(table, method="nested_cv")
    assert raw.low < 0  # the case the cut is for
    assert res.low == 0.0
    assert res.high == pytest.approx(raw.high, rel=RTOL)
    assert res.estimate == pytest.approx(raw.estimate, rel=RTOL)
    ll = result.confidence_interval("nb", dataset="blobs", metric="log_loss")
    assert ll.low == pytest.approx(ll.estimate - (ll.high - ll.estimate), rel=1e-9)


def test_a_nested_run_asked_for_auc_names_the_method_that_works():
    """H: a NestedCV run keeps no pointwise losses of roc_auc, so its
    recommended nested-CV interval cannot run: the error names
    method='corrected_t', which then works on the same run's outer splits
    and states the training size of its target."""
    result = _run(NestedCV(3, n_repeats=1, random_state=0), scoring=["roc_auc"])
    with pytest.raises(ValueError, match="method='corrected_t' works"):
        result.confidence_interval("nb", dataset="bc", metric="roc_auc")
    res = result.confidence_interval(
        "nb", dataset="bc", metric="roc_auc", method="corrected_t"
    )
    assert res.method == "corrected_t" and res.n_train == pytest.approx(190)
