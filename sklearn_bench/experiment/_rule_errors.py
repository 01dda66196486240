"""True and estimated errors of classification rules (Yousefi, Hua and Dougherty
2011), for :func:`sklearn_bench.stats.multiple_rule_bias`: a
:class:`~sklearn_bench.experiment.BenchmarkExperiment` of
:class:`ErrorEstimatedLearner`, whose metrics read the true and estimated errors.
"""

import copy
from dataclasses import dataclass, field

import numpy as np
from sklearn.base import BaseEstimator, ClassifierMixin, MetaEstimatorMixin, clone
from sklearn.model_selection import (
    LeaveOneOut,
    StratifiedKFold,
    StratifiedShuffleSplit,
    cross_val_predict,
)
from sklearn.utils import check_random_state, get_tags
from sklearn.utils.validation import check_is_fitted

from .._validation import check_positive_int
from ..datasets import Dataset, SimulatedDataset
from ._experiment import BenchmarkExperiment
from ._scoring import Metric

__all__ = ["ErrorEstimatedLearner", "RuleErrors", "collect_rule_errors"]


def default_error_estimators():
    """5-fold, 10-fold (stratified, shuffled) and leave-one-out CV (Table 3)."""
    return {
        "cv5": StratifiedKFold(5, shuffle=True),
        "cv10": StratifiedKFold(10, shuffle=True),
        "loo": LeaveOneOut(),
    }


class ErrorEstimatedLearner(MetaEstimatorMixin, ClassifierMixin, BaseEstimator):
    """A classification rule that also estimates its own error when fitted.

    ``fit`` runs every error estimator (a splitter) with a fresh clone of
    ``learner`` per fold (Yousefi et al., 2011, Section 2.2), then fits
    ``learner`` on all rows, with which it predicts.

    Parameters
    ----------
    learner : classifier
        The classification rule (e.g. a Pipeline of feature selection and a
        classifier).
    error_estimators : dict of str to splitter, default=None
        Partitioning splitters (every row validated exactly once); ``None`` is
        ``{"cv5": StratifiedKFold(5, shuffle=True), "cv10":
        StratifiedKFold(10, shuffle=True), "loo": LeaveOneOut()}``.
    random_state : int, RandomState instance or None, default=None
        Seeds the shuffling splitters whose ``random_state`` is ``None`` (each
        its own seed drawn from this one).

    Attributes
    ----------
    estimated_errors_ : dict of str to float
        Proportion of rows misclassified when validated, per error estimator.
    learner_ : classifier
        ``learner`` fitted on all rows.
    classes_ : ndarray

    Examples
    --------
    >>> from sklearn.datasets import make_classification
    >>> from sklearn.model_selection import KFold
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_bench.experiment import ErrorEstimatedLearner
    >>> X, y = make_classification(60, random_state=0)
    >>> rule = ErrorEstimatedLearner(
    ...     KNeighborsClassifier(3), error_estimators={"cv5": KFold(5)}).fit(X, y)
    >>> round(rule.estimated_errors_["cv5"], 3)
    0.317
    """

    def __init__(self, learner, *, error_estimators=None, random_state=None):
        self.learner = learner
        self.error_estimators = error_estimators
        self.random_state = random_state

    def _estimators(self):
        estimators = self.error_estimators
        if estimators is None:
            estimators = default_error_estimators()
        if not isinstance(estimators, dict) or not estimators:
            raise ValueError(
                "`error_estimators` must be a non-empty dict of name -> splitter; "
                f"got {estimators!r}."
            )
        try:
            rng = check_random_state(self.random_state)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"`random_state`: {exc}") from None
        out = {}
        for name, cv in estimators.items():
            if not hasattr(cv, "split"):
                raise ValueError(
                    f"`error_estimators[{name!r}]` must be a splitter; got {cv!r}."
                )
            seed = rng.randint(np.iinfo(np.int32).max)
            if getattr(cv, "shuffle", False) and cv.random_state is None:
                cv = copy.deepcopy(cv)
                cv.random_state = seed
            out[name] = cv
        return out

    def fit(self, X, y):
        """Estimate the error with every estimator, then fit on all rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
        y : array-like of shape (n_samples,)

        Returns
        -------
        self : ErrorEstimatedLearner
        """
        if y is None:
            raise ValueError(
                f"{type(self).__name__} requires y to be passed, but the target y "
                "is None."
            )
        y = np.asarray(y)
        self.estimated_errors_ = {
            name: float(
                np.mean(cross_val_predict(clone(self.learner), X, y, cv=cv) != y)
            )
            for name, cv in self._estimators().items()
        }
        self.learner_ = clone(self.learner).fit(X, y)
        self.classes_ = self.learner_.classes_
        for name in ("n_features_in_", "feature_names_in_"):
            if hasattr(self.learner_, name):
                setattr(self, name, getattr(self.learner_, name))
        return self

    def __sklearn_tags__(self):
        tags = super().__sklearn_tags__()
        inner = get_tags(self.learner)
        tags.input_tags.sparse = inner.input_tags.sparse
        tags.input_tags.allow_nan = inner.input_tags.allow_nan
        return tags

    def predict(self, X):
        """Predict with ``learner`` fitted on all rows.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        check_is_fitted(self, "learner_")
        return self.learner_.predict(X)


class _EstimatedError:
    """Scorer reading one stored estimate of an ErrorEstimatedLearner."""

    def __init__(self, name):
        self.name = name

    def __call__(self, estimator, X, y):
        return estimator.estimated_errors_[self.name]


@dataclass(frozen=True)
class RuleErrors:
    """True and estimated errors of rules over samples (and data sets).

    Attributes
    ----------
    true_error : ndarray of shape (n_rules, n_samples, n_datasets)
        True error of the classifier designed by each rule on each sample.
    estimated_error : ndarray of shape (n_rules, n_estimators, n_samples, n_datasets)
        Its estimates.
    rules, error_estimators, datasets : list of str
        Names along the axes.
    result : BenchmarkResult
        The experiment's scores (metrics ``"true_error"`` and one per estimator).
    """

    true_error: np.ndarray
    estimated_error: np.ndarray
    rules: list
    error_estimators: list
    datasets: list
    result: object = field(repr=False, compare=False)

    def multiple_rule_bias(self, **kwargs):
        """:func:`~sklearn_bench.stats.multiple_rule_bias` of these errors.

        One data set gives the single-population analysis (eqs. 2-7); several
        give each data set's curves and their average (eqs. 9-10).

        Parameters
        ----------
        **kwargs
            Passed on (``n_collections``, ``random_state``).

        Returns
        -------
        MultipleRuleBiasResult
        """
        from ..stats import multiple_rule_bias

        true, est = self.true_error, self.estimated_error
        if len(self.datasets) == 1:
            true, est = true[..., 0], est[..., 0]
        else:
            kwargs.setdefault("dataset_names", self.datasets)
        return multiple_rule_bias(true, est, **kwargs)


def collect_rule_errors(
    rules,
    data,
    *,
    n_train,
    n_samples,
    n_test=5000,
    error_estimators=None,
    n_jobs=None,
    random_state=None,
    progress=False,
    store=None,
):
    """True and estimated errors of classification rules on many samples.

    Yousefi, Hua and Dougherty (2011), Sections 2.1-2.3 (Figure 1): on each of
    ``n_samples`` samples of ``n_train`` rows, every rule is designed, its error
    estimated by every error estimator on the sample, and its true error measured
    on a test sample of ``n_test`` rows (a model) or on the rows not drawn (a real
    data set, stratified draws).

    Parameters
    ----------
    rules : dict of str to classifier
        The classification rules, feature selection inside (Pipelines).
    data : dict of str to callable or (X, y)
        Data sets by name: a sampler ``sampler(n_samples, random_state) -> (X,
        y)`` (a model) or a real data set; several are the :math:`F_k` of
        Section 3.3.
    n_train : int
        Sample size ``n``.
    n_samples : int
        Number of samples per data set (the paper: 10000).
    n_test : int, default=5000
        Test sample size for a model.
    error_estimators : dict of str to splitter, default=None
        As in :class:`ErrorEstimatedLearner`; ``None`` is 5-fold, 10-fold and
        leave-one-out cross-validation.
    n_jobs, random_state, progress, store
        As in :class:`~sklearn_bench.experiment.BenchmarkExperiment` (``progress``
        defaults to False); ``random_state`` seeds the samples, inner folds and
        rules.

    Returns
    -------
    RuleErrors

    See Also
    --------
    unconditional_error : the expected true error of a method over training
        samples (Boulesteix et al. 2013), without the error estimators.

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn.model_selection import StratifiedKFold
    >>> from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
    >>> from sklearn_bench.datasets import make_microarray
    >>> from sklearn_bench.experiment import collect_rule_errors
    >>> sampler = partial(make_microarray, n_features=200, n_high_variance=20)
    >>> errors = collect_rule_errors(
    ...     {"3nn": KNeighborsClassifier(3), "nmc": NearestCentroid()},
    ...     {"model": sampler}, n_train=30, n_samples=4, n_test=500,
    ...     error_estimators={"cv5": StratifiedKFold(5, shuffle=True)},
    ...     random_state=0)
    >>> errors.true_error.shape, errors.estimated_error.shape
    ((2, 4, 1), (2, 1, 4, 1))
    >>> res = errors.multiple_rule_bias()
    >>> res.m
    array([1, 2])
    """
    n_train = check_positive_int(n_train, "n_train")
    n_samples = check_positive_int(n_samples, "n_samples")
    n_test = check_positive_int(n_test, "n_test")
    if not isinstance(rules, dict) or not rules:
        raise ValueError("`rules` must be a non-empty dict of name -> classifier.")
    if not isinstance(data, dict) or not data:
        raise ValueError(
            "`data` must be a non-empty dict of name -> sampler or (X, y)."
        )
    if error_estimators is None:
        error_estimators = default_error_estimators()
    datasets = {}
    for name, d in data.items():
        if callable(d):
            datasets[name] = SimulatedDataset(d, n_train, n_test, n_samples)
        else:
            X, y = d
            if n_train >= len(y):
                raise ValueError(
                    f"`n_train`={n_train} leaves no held-out rows in data set "
                    f"{name!r} of {len(y)} rows."
                )
            datasets[name] = Dataset(X, y)
    learners = {
        name: ErrorEstimatedLearner(rule, error_estimators=error_estimators)
        for name, rule in rules.items()
    }
    scoring = {"true_error": "error_rate"}
    for name in error_estimators:
        scoring[name] = Metric(
            name, _EstimatedError(name), greater_is_better=False, task="classification"
        )
    experiment = BenchmarkExperiment(
        learners,
        cv=StratifiedShuffleSplit(n_splits=n_samples, train_size=n_train),
        scoring=scoring,
        n_jobs=n_jobs,
        random_state=random_state,
        progress=progress,
        store=store,
    )
    result = experiment.fit(datasets).results_

    def errors(metric):  # of shape (rules, samples, data sets)
        table = result.performance(metric).pivot_table(
            index="learner",
            columns=["dataset", "replicate"],
            values="value",
            observed=True,
            dropna=False,
        )
        values = table.loc[list(rules), list(datasets)].to_numpy()
        values = values.reshape(len(rules), len(datasets), n_samples)
        return np.ascontiguousarray(values.transpose(0, 2, 1))

    return RuleErrors(
        true_error=errors("true_error"),
        estimated_error=np.stack([errors(name) for name in error_estimators], axis=1),
        rules=list(rules),
        error_estimators=list(error_estimators),
        datasets=list(datasets),
        result=result,
    )
