"""Performance measures that know their direction (lower or higher is better)."""

from collections.abc import Callable
from dataclasses import dataclass, field, replace

import numpy as np
from sklearn.metrics import accuracy_score, get_scorer, get_scorer_names, make_scorer

from .._metrics import wrong_direction

__all__ = ["Metric", "make_metric"]

_CLASSIFICATION_PREFIXES = tuple(
    "accuracy balanced_accuracy top_k_accuracy average_precision d2_brier_score "
    "d2_log_loss_score f1 jaccard matthews_corrcoef neg_brier_score brier_score "
    "neg_log_loss log_loss neg_negative_likelihood_ratio negative_likelihood_ratio "
    "positive_likelihood_ratio precision recall roc_auc error_rate".split()
)
# Binary averaging (pos_label) or a binary-only score function.
_BINARY_ONLY = set(
    "average_precision f1 precision recall jaccard roc_auc positive_likelihood_ratio "
    "neg_negative_likelihood_ratio negative_likelihood_ratio".split()
)
_REGRESSION_PREFIXES = tuple(
    "explained_variance r2 d2_absolute_error_score neg_max_error max_error neg_mean_ "
    "mean_ neg_median_absolute_error median_absolute_error neg_root_ root_".split()
)


def _task_of(name):
    if name.startswith(_CLASSIFICATION_PREFIXES):
        return "classification"
    if name.startswith(_REGRESSION_PREFIXES):
        return "regression"
    return None


@dataclass(frozen=True)
class Metric:
    """A performance measure with its direction.

    Calling the metric as ``metric(estimator, X, y)`` returns the measure in its
    natural units (an error rate as a proportion, a squared error as a squared
    error, never negated); ``greater_is_better`` says how to read it.

    Parameters
    ----------
    name : str
        Name used in results tables.
    scorer : callable
        ``scorer(estimator, X, y) -> float``, in natural units.
    greater_is_better : bool
        ``False`` for losses such as the error rate (the papers' default).
    task : {"classification", "regression"} or None, default=None
        The kind of learning problem the metric applies to; ``None`` if any. The
        experiment refuses a classification metric on a continuous target or a
        regressor.
    binary_only : bool, default=False
        The metric needs a target with two classes (e.g. ``"roc_auc"``).
    needs_split : bool, default=False
        The scorer is called as ``scorer(estimator, X, y, train=, test=)`` with the
        whole learning sample (as
        :class:`~sklearn_bench.model_selection.Bootstrap632Scorer`); real-world
        data sets only.
    reads_predictions : bool, default=False
        The scorer reads nothing but the estimator's predictions (as the metrics
        of :meth:`from_name` and :func:`make_metric`), so learners that share a
        pipeline prefix are scored on validation rows it transformed once.

    See Also
    --------
    make_metric : Build a metric from a function ``f(y_true, y_pred)``.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bench.experiment import Metric
    >>> X, y = load_iris(return_X_y=True)
    >>> tree = DecisionTreeClassifier(max_depth=1, random_state=0).fit(X, y)
    >>> error = Metric.from_name("error_rate")
    >>> error.greater_is_better
    False
    >>> round(error(tree, X, y), 3)
    0.333
    """

    name: str
    scorer: Callable = field(repr=False)
    greater_is_better: bool
    task: str | None = None
    binary_only: bool = False
    needs_split: bool = False
    reads_predictions: bool = False

    def __call__(self, estimator, X, y):
        return float(self.scorer(estimator, X, y))

    @classmethod
    def from_name(cls, name):
        """The metric of a name.

        ``"error_rate"`` is 1 - accuracy (lower is better). Every scikit-learn
        scorer name (``sklearn.metrics.get_scorer_names()``) is accepted as it
        is, greater is better, so ``"neg_mean_squared_error"`` stays negated as in
        scikit-learn. A loss name without the ``neg_`` prefix, such as
        ``"mean_squared_error"``, ``"mean_absolute_error"`` or ``"log_loss"``,
        gives the loss itself in natural units, lower is better.

        Parameters
        ----------
        name : str

        Returns
        -------
        metric : Metric
        """
        if not isinstance(name, str):
            raise ValueError(f"`scoring` names must be strings; got {name!r}.")
        names, binary = set(get_scorer_names()), name in _BINARY_ONLY
        task = _task_of(name)
        if name in ("error_rate", "accuracy"):  # accuracy_score's checks if needed
            greater = name == "accuracy"
            scorer = make_scorer(_accuracy if greater else _error_rate)
        elif name in names:
            scorer, greater = get_scorer(name), True
        elif "neg_" + name in names:
            scorer, greater = _Negated(get_scorer("neg_" + name)), False
            binary = "neg_" + name in _BINARY_ONLY
        else:
            raise ValueError(
                f"Unknown `scoring` name {name!r}: use 'error_rate', a loss such as "
                "'mean_squared_error', or a name from "
                "sklearn.metrics.get_scorer_names()."
            )
        return cls(name, scorer, greater, task, binary, reads_predictions=True)


def _accuracy(y_true, y_pred):
    """``accuracy_score``, the same float, without its checks (1 ms a call) on
    1-D arrays of one shape and label kind."""
    if (
        type(y_true) is np.ndarray
        and type(y_pred) is np.ndarray
        and y_true.ndim == 1
        and y_true.shape == y_pred.shape
        and y_true.size > 0
        and y_true.dtype.kind in "biuU"
        and y_pred.dtype.kind == y_true.dtype.kind
    ):
        return float(np.average(y_true == y_pred))
    return accuracy_score(y_true, y_pred)


def _error_rate(y_true, y_pred):
    """Misclassification rate, 1 - accuracy."""
    return 1.0 - _accuracy(y_true, y_pred)


class _Negated:
    """A scikit-learn ``neg_*`` scorer turned back into its loss (picklable)."""

    def __init__(self, scorer):
        self.scorer = scorer

    def __call__(self, estimator, X, y):
        return -self.scorer(estimator, X, y)

    def __repr__(self):
        return f"-{self.scorer!r}"


def _proba(estimator, X, y):
    """Predicted probabilities, the true class' column and the number of columns."""
    proba = np.asarray(estimator.predict_proba(X), dtype=float)
    classes = np.asarray(estimator.classes_)
    return proba, np.searchsorted(classes, np.asarray(y)), proba.shape[1]


def _log_loss(estimator, X, y):
    proba, at, k = _proba(estimator, X, y)
    if k == 2:  # the scorer's positive column, as 1 - p and p
        p1 = proba[:, 1]
        p = np.where(at == 1, p1, 1 - p1)
    else:
        p = proba[np.arange(len(at)), at]
    eps = np.finfo(p.dtype).eps
    return -np.log(np.clip(p, eps, 1 - eps))


def _brier(estimator, X, y):
    proba, at, k = _proba(estimator, X, y)
    if k == 2:  # half the sum over both columns: (p1 - [y is positive])**2
        return (proba[:, 1] - (at == 1)) ** 2
    onehot = np.zeros_like(proba)
    onehot[np.arange(len(at)), at] = 1.0
    return ((proba - onehot) ** 2).sum(axis=1)


# The metrics that are means of a pointwise loss, by name (``neg_``: negated).
POINTWISE_LOSSES = {
    "error_rate": lambda est, X, y: est.predict(X) != np.asarray(y),
    "accuracy": lambda est, X, y: est.predict(X) == np.asarray(y),
    "log_loss": _log_loss,
    "brier_score": _brier,
    "mean_squared_error": lambda est, X, y: (np.asarray(y) - est.predict(X)) ** 2,
    "mean_absolute_error": lambda est, X, y: np.abs(np.asarray(y) - est.predict(X)),
}


def pointwise_losses(metrics, values, estimator, X, y):
    """``{"metrics": indices, "loss": (k, n)}`` of the metrics that are means of
    pointwise losses and whose mean equals the score (else a custom scorer under
    a known name), or ``None``."""
    index, losses = [], []
    for i, (name, metric) in enumerate(metrics.items()):
        base = name.removeprefix("neg_")
        if metric.needs_split or base not in POINTWISE_LOSSES:
            continue
        try:
            loss = np.asarray(POINTWISE_LOSSES[base](estimator, X, y), dtype=float)
        except Exception:  # e.g. no predict_proba: the score says why, if any
            continue
        loss = -loss if name.startswith("neg_") else loss
        value = values.get(name)
        if loss.ndim != 1 or not np.isfinite(loss).all() or value is None:
            continue
        if np.isclose(loss.mean(), value, rtol=1e-9, atol=1e-12):
            index.append(i)
            losses.append(loss)
    if not index:
        return None
    return {"metrics": index, "loss": np.vstack(losses)}


def make_metric(
    score_func,
    *,
    greater_is_better,
    name=None,
    response_method="predict",
    task=None,
    **kwargs,
):
    """Make a :class:`Metric` from a function of the true and predicted targets.

    :func:`sklearn.metrics.make_scorer` that records the direction instead of
    negating losses.

    Parameters
    ----------
    score_func : callable
        ``score_func(y_true, y_pred, **kwargs) -> float``.
    greater_is_better : bool
        ``False`` for a loss.
    name : str, default=None
        Name in results tables; defaults to ``score_func.__name__``.
    response_method : str or list of str, default="predict"
        What the learner is asked for (e.g. ``"predict_proba"``); passed to
        :func:`~sklearn.metrics.make_scorer`.
    task : {"classification", "regression"} or None, default=None
        The kind of problem the metric applies to, checked before running.
    **kwargs
        Further arguments for ``score_func``.

    Returns
    -------
    metric : Metric

    Examples
    --------
    The 95% quantile of the absolute prediction error, the loss of Hothorn et al.
    (2005, Section 5.3, Boston Housing): the :math:`\\lceil 0.95 m \\rceil`-th of
    the :math:`m` ordered absolute errors, numpy's ``"inverted_cdf"`` quantile:

    >>> import numpy as np
    >>> from sklearn.linear_model import LinearRegression
    >>> from sklearn_bench.experiment import make_metric
    >>> q95 = make_metric(
    ...     lambda y, p: np.quantile(np.abs(y - p), 0.95, method="inverted_cdf"),
    ...     greater_is_better=False, name="q95_abs_error")
    >>> X = np.arange(20.0).reshape(-1, 1)
    >>> y = 2 * X.ravel() + np.tile([-1.0, 1.0], 10)
    >>> round(q95(LinearRegression().fit(X, y), X, y), 3)
    1.128
    """
    if not callable(score_func):
        raise TypeError(f"`score_func` must be callable; got {score_func!r}.")
    if name is None:
        name = getattr(score_func, "__name__", None)
        if name is None or name == "<lambda>":
            raise ValueError("`name` is required for a lambda or unnamed function.")
    if not isinstance(greater_is_better, bool | np.bool_):
        raise ValueError("`greater_is_better` must be True or False.")
    if task not in (None, "classification", "regression"):
        raise ValueError(
            f"`task` must be 'classification', 'regression' or None; got {task!r}."
        )
    scorer = make_scorer(
        score_func, greater_is_better=True, response_method=response_method, **kwargs
    )
    return Metric(name, scorer, bool(greater_is_better), task, reads_predictions=True)


def check_scoring(scoring, *, all_classifiers, all_regressors):
    """``scoring`` as a dict ``name -> Metric``."""
    if scoring is None:
        if all_classifiers:
            return {"error_rate": Metric.from_name("error_rate")}
        if all_regressors:
            return {"mean_squared_error": Metric.from_name("mean_squared_error")}
        raise ValueError(
            "`scoring` must be given when the learners are not all classifiers or "
            "all regressors."
        )
    if isinstance(scoring, str | Metric) or callable(scoring):
        items = [scoring]
    elif isinstance(scoring, dict):
        items = list(scoring.items())
    elif isinstance(scoring, list | tuple | set):
        items = list(scoring)
    else:
        raise ValueError(
            "`scoring` must be a name, a callable, a Metric, or a list or dict of "
            f"them; got {type(scoring).__name__}."
        )
    if not items:
        raise ValueError("`scoring` is empty.")
    metrics = {}
    for item in items:
        if isinstance(item, tuple):  # from a dict
            key, item = item
            metric = replace(_as_metric(item), name=key)
        else:
            metric = _as_metric(item)
        if metric.name in metrics:
            raise ValueError(f"Duplicate metric name {metric.name!r} in `scoring`.")
        metrics[metric.name] = metric
    wrong = wrong_direction({m.name: m.greater_is_better for m in metrics.values()})
    if wrong is not None:  # a store of it would be refused when read
        raise ValueError(f"`scoring` was refused: {wrong}; rename the metric.")
    return metrics


def _as_metric(item):
    if isinstance(item, Metric):
        return item
    if isinstance(item, str):
        return Metric.from_name(item)
    if getattr(item, "needs_split", False):
        # The protocol of Bootstrap632Scorer: it says its name and direction.
        return Metric(
            item.name, item, item.greater_is_better, item.task, needs_split=True
        )
    if callable(item):
        # A scikit-learn scorer or any callable (estimator, X, y): greater is better.
        name = getattr(item, "__name__", None) or type(item).__name__
        return Metric(name, item, True)
    raise ValueError(
        f"`scoring` entries must be names, callables or Metric objects; got {item!r}."
    )
