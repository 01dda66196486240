import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_regression
from sklearn.linear_model import LinearRegression
from sklearn.metrics import (
    accuracy_score,
    get_scorer,
    log_loss,
    mean_absolute_error,
    mean_squared_error,
)
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench.experiment import Metric, make_metric
from sklearn_bench.experiment._scoring import check_scoring

X_CLF, Y_CLF = load_iris(return_X_y=True)
TREE = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X_CLF, Y_CLF)
X_REG, Y_REG = make_regression(n_samples=40, n_features=2, noise=3.0, random_state=0)
OLS = LinearRegression().fit(X_REG[:20], Y_REG[:20])


def test_error_rate_is_one_minus_accuracy_and_lower_is_better():
    """H: 'error_rate' equals 1 - sklearn's accuracy_score and is a loss."""
    metric = Metric.from_name("error_rate")
    expected = 1 - accuracy_score(Y_CLF, TREE.predict(X_CLF))
    assert metric(TREE, X_CLF, Y_CLF) == expected
    assert (metric.greater_is_better, metric.task) == (False, "classification")


@pytest.mark.parametrize(
    "name, func",
    [
        ("mean_squared_error", mean_squared_error),
        ("mean_absolute_error", mean_absolute_error),
    ],
)
def test_loss_names_without_neg_give_the_loss_itself(name, func):
    """H: a loss name without 'neg_' gives sklearn's loss in natural units, lower
    is better."""
    metric = Metric.from_name(name)
    expected = func(Y_REG[20:], OLS.predict(X_REG[20:]))
    assert metric(OLS, X_REG[20:], Y_REG[20:]) == pytest.approx(expected, rel=1e-15)
    assert metric.greater_is_better is False


def test_log_loss_name_is_the_positive_log_loss():
    """H: 'log_loss' is sklearn's log_loss of predict_proba, lower is better."""
    metric = Metric.from_name("log_loss")
    expected = log_loss(Y_CLF, TREE.predict_proba(X_CLF))
    assert metric(TREE, X_CLF, Y_CLF) == pytest.approx(expected, rel=1e-15)


def test_sklearn_scorer_names_keep_sklearn_sign():
    """H: a sklearn scorer name is used as sklearn defines it (greater is better)."""
    metric = Metric.from_name("neg_mean_squared_error")
    sk = get_scorer("neg_mean_squared_error")(OLS, X_REG, Y_REG)
    assert metric(OLS, X_REG, Y_REG) == sk < 0
    assert metric.greater_is_better is True
    assert Metric.from_name("roc_auc").binary_only


def test_make_metric_one_line_quantile_loss():
    """H: make_metric keeps a custom loss in natural units with its direction."""
    q95 = make_metric(
        lambda y, p: np.quantile(np.abs(y - p), 0.95, method="inverted_cdf"),
        greater_is_better=False,
        name="q95",
    )
    abs_err = np.sort(np.abs(Y_REG - OLS.predict(X_REG)))
    # ceil(0.95 * 40) = 38th ordered absolute error (Hothorn et al. 2005, Sec. 5.3)
    assert q95(OLS, X_REG, Y_REG) == abs_err[37]
    assert (q95.name, q95.greater_is_better) == ("q95", False)


def test_make_metric_with_probabilities_and_kwargs():
    """H: response_method and extra kwargs reach the score function."""
    metric = make_metric(
        log_loss,
        greater_is_better=False,
        response_method="predict_proba",
        labels=[0, 1, 2],
    )
    assert metric.name == "log_loss"
    expected = log_loss(Y_CLF, TREE.predict_proba(X_CLF), labels=[0, 1, 2])
    assert metric(TREE, X_CLF, Y_CLF) == expected


def test_make_metric_rejects_unnamed_lambda_and_bad_direction():
    """H: a lambda needs a name and the direction must be a bool."""
    with pytest.raises(ValueError, match="`name` is required"):
        make_metric(lambda y, p: 0.0, greater_is_better=False)
    with pytest.raises(ValueError, match="`greater_is_better` must be True or False"):
        make_metric(mean_squared_error, greater_is_better="no")


def test_check_scoring_forms_and_defaults():
    """H: names, lists, dicts and callables become named metrics; None defaults to
    error_rate (classifiers) or mean_squared_error (regressors)."""
    assert list(check_scoring(None, all_classifiers=True, all_regressors=False)) == [
        "error_rate"
    ]
    assert list(check_scoring(None, all_classifiers=False, all_regressors=True)) == [
        "mean_squared_error"
    ]
    metrics = check_scoring(
        {"err": "error_rate", "acc": get_scorer("accuracy")},
        all_classifiers=True,
        all_regressors=False,
    )
    assert {k: m.greater_is_better for k, m in metrics.items()} == {
        "err": False,
        "acc": True,
    }
    assert metrics["err"].name == "err"
    with pytest.raises(ValueError, match="Duplicate metric name 'accuracy'"):
        check_scoring(
            ["accuracy", "accuracy"], all_classifiers=True, all_regressors=False
        )
    with pytest.raises(ValueError, match="`scoring` is empty"):
        check_scoring([], all_classifiers=True, all_regressors=False)


class _HalfSplitScorer:
    """A user's scorer that needs the split: the error on the training rows."""

    needs_split = True
    name = "train_error"
    greater_is_better = False
    task = "classification"

    def __call__(self, estimator, X, y, *, train, test):
        return float(np.mean(estimator.predict(X[train]) != y[train]))


def test_any_scorer_with_the_split_protocol_becomes_a_split_metric():
    """H: not only Bootstrap632Scorer: any callable with the public attributes
    needs_split, name, greater_is_better and task is taken as the Metric of these
    attributes with needs_split=True (so the experiment passes the split)."""
    scorer = _HalfSplitScorer()
    metric = check_scoring(
        ["error_rate", scorer], all_classifiers=True, all_regressors=False
    )["train_error"]
    assert metric == Metric(
        "train_error", scorer, False, task="classification", needs_split=True
    )


def test_a_dict_key_renames_a_split_metric_and_keeps_the_rest():
    """H: in scoring={"key": scorer} the key names the metric and nothing else: a
    scorer that needs the split keeps needs_split=True, its direction and its task
    (the dict path rebuilt the Metric and dropped needs_split, so a .632+ scorer
    given in a dict was called without the split)."""
    scorer = _HalfSplitScorer()
    metric = check_scoring(
        {"mine": scorer}, all_classifiers=True, all_regressors=False
    )["mine"]
    assert metric == Metric(
        "mine", scorer, False, task="classification", needs_split=True
    )
    plain = check_scoring(
        {"acc": "accuracy"}, all_classifiers=True, all_regressors=False
    )["acc"]
    named = Metric.from_name("accuracy")
    fields = ("greater_is_better", "task", "binary_only", "needs_split")
    assert plain.name == "acc"
    assert [getattr(plain, f) for f in fields] == [getattr(named, f) for f in fields]


_POINTWISE_CASES = {
    # name: (learner, X, y, sklearn's function of (y, prediction), response)
    "error_rate": (TREE, X_CLF, Y_CLF, lambda y, p: 1 - accuracy_score(y, p), "p"),
    "accuracy": (TREE, X_CLF, Y_CLF, accuracy_score, "p"),
    "log_loss": (TREE, X_CLF, Y_CLF, log_loss, "proba"),
    "neg_log_loss": (
        TREE, X_CLF, Y_CLF, lambda y, p, **k: -log_loss(y, p, **k), "proba"
    ),
    "mean_squared_error": (OLS, X_REG, Y_REG, mean_squared_error, "p"),
    "neg_mean_absolute_error": (
        OLS, X_REG, Y_REG, lambda y, p: -mean_absolute_error(y, p), "p"),
}  # fmt: skip


@pytest.mark.parametrize("name", _POINTWISE_CASES)
def test_pointwise_losses_are_the_rows_of_sklearns_metric(name):
    """H: the pointwise losses a run keeps for a decomposable metric are, row
    by row, scikit-learn's metric of that row alone (its mean is the score,
    as scikit-learn computes it on all rows; rtol 1e-12)."""
    from sklearn_bench.experiment._scoring import pointwise_losses

    est, X, y, func, response = _POINTWISE_CASES[name]
    metrics = {"other": Metric.from_name("r2" if est is OLS else "f1_macro"),
               name: Metric.from_name(name)}  # fmt: skip
    values = {n: m(est, X, y) for n, m in metrics.items()}
    out = pointwise_losses(metrics, values, est, X, y)
    assert out["metrics"] == [1] and out["loss"].shape == (1, len(y))
    pred = est.predict_proba(X) if response == "proba" else est.predict(X)
    labels = {"labels": TREE.classes_} if response == "proba" else {}
    rows = [func(y[i : i + 1], pred[i : i + 1], **labels) for i in range(len(y))]
    np.testing.assert_allclose(out["loss"][0], rows, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(out["loss"][0].mean(), values[name], rtol=1e-12)


@pytest.mark.parametrize("n_classes", [2, 3])
def test_pointwise_brier_score_is_sklearns(n_classes):
    """H: the pointwise Brier score averages to scikit-learn's brier_score_loss
    (half the multiclass sum for two classes, the sum for three; rtol 1e-12)."""
    from sklearn.metrics import brier_score_loss

    from sklearn_bench.experiment._scoring import pointwise_losses

    keep = Y_CLF < n_classes
    X, y = X_CLF[keep], Y_CLF[keep]
    est = DecisionTreeClassifier(max_depth=2, random_state=0).fit(X[::2], y[::2])
    metrics = {"brier_score": Metric.from_name("brier_score")}
    value = metrics["brier_score"](est, X, y)
    proba = est.predict_proba(X)
    ref = brier_score_loss(y, proba[:, 1] if n_classes == 2 else proba)
    out = pointwise_losses(metrics, {"brier_score": value}, est, X, y)
    np.testing.assert_allclose([out["loss"].mean(), value], ref, rtol=1e-12)


def test_a_metric_named_like_a_loss_that_is_not_one_keeps_no_losses():
    """H: a metric called 'error_rate' that computes something else (here the
    balanced error rate) keeps no pointwise losses: their mean would not be
    its score; a learner without predict_proba keeps none for log loss."""
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.svm import LinearSVC

    from sklearn_bench.experiment._scoring import pointwise_losses

    fake = make_metric(lambda y, p: 1 - balanced_accuracy_score(y, p),
                       greater_is_better=False, name="error_rate")  # fmt: skip
    keep = Y_CLF > 0  # 50 and 50: balanced error = error at the full data ...
    X, y = X_CLF[keep][:70], Y_CLF[keep][:70]  # ... but not on 50 and 20
    est = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    metrics = {"error_rate": fake}
    assert pointwise_losses(metrics, {"error_rate": fake(est, X, y)}, est, X, y) is None
    svc = LinearSVC().fit(X, y)
    metrics = {"log_loss": Metric.from_name("log_loss")}
    assert pointwise_losses(metrics, {"log_loss": 0.1}, svc, X, y) is None


@settings(max_examples=200, deadline=None)
@given(
    n=st.integers(1, 40),
    n_classes=st.integers(1, 4),
    kind=st.sampled_from(["int64", "int8", "uint16", "bool", "str"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_accuracy_without_checks_is_accuracy_score_bit_for_bit(
    n, n_classes, kind, seed
):
    """H: the runner's accuracy (and error rate), which skips accuracy_score's
    checks for 1-D arrays of integer, bool or text labels of one kind, gives the
    very float accuracy_score gives, for any labels and predictions."""
    from sklearn.metrics import accuracy_score

    from sklearn_bench.experiment._scoring import _accuracy, _error_rate

    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, n_classes, (2, n))
    if kind == "str":
        y_true, y_pred = y_true.astype(str), y_pred.astype(str)
    else:
        y_true, y_pred = y_true.astype(kind), y_pred.astype(kind)
    expected = accuracy_score(y_true, y_pred)
    assert _accuracy(y_true, y_pred) == expected
    assert _error_rate(y_true, y_pred) == 1.0 - expected


def test_accuracy_keeps_accuracy_score_checks_where_they_matter():
    """H: what the shortcut does not cover goes through accuracy_score, with its
    errors: continuous predictions are refused, labels as lists, floats and a
    multilabel indicator are scored as accuracy_score scores them."""
    from sklearn.metrics import accuracy_score

    from sklearn_bench.experiment._scoring import _accuracy

    with pytest.raises(ValueError, match="continuous"):
        _accuracy(np.array([0, 1, 1]), np.array([0.2, 0.9, 0.4]))
    cases = [
        ([0, 1, 1], [0, 1, 0]),
        (np.array([0.0, 1.0, 1.0]), np.array([0.0, 1.0, 0.0])),
        (np.array([[0, 1], [1, 1]]), np.array([[0, 1], [1, 0]])),
        (np.array([0, 1, 1]), np.array(["0", "1", "1"], dtype=object)),
    ]
    for y_true, y_pred in cases[:3]:
        assert _accuracy(y_true, y_pred) == accuracy_score(y_true, y_pred)
    with pytest.raises(ValueError):  # a mix of label types, as accuracy_score
        accuracy_score(*cases[3])
    with pytest.raises(ValueError):
        _accuracy(*cases[3])
