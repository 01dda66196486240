import numpy as np
import pytest
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
