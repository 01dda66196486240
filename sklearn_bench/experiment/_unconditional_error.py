"""Unconditional error of a learning method by simulation (Boulesteix et al.)."""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.stats import norm

from .._validation import check_confidence_level
from ..datasets import SimulatedDataset
from ..stats import ConfidenceInterval
from ._experiment import BenchmarkExperiment

__all__ = ["UnconditionalErrorResult", "unconditional_error"]


@dataclass(frozen=True)
class UnconditionalErrorResult:
    """Monte Carlo estimate of the unconditional error of each learner.

    Attributes
    ----------
    learners : list of str
    estimate : ndarray of shape (n_learners,)
        :math:`\\hat\\varepsilon(n, M, P) = B^{-1} \\sum_b
        \\hat\\varepsilon(\\hat f^{s^{(b)}}_M, P)` (procedure step 3).
    standard_error : ndarray of shape (n_learners,)
        Monte Carlo standard error over the training samples,
        ``std(errors, ddof=1) / sqrt(B)``. It does not include the error of the
        test-sample approximation, which is shared by all ``b`` (for the error
        rate at most :math:`\\sqrt{\\varepsilon(1-\\varepsilon)/n_{test}}`).
    n_train, n_test, n_replicates : int
        ``n``, :math:`n_{test}` and ``B``.
    metric : str
    errors : DataFrame
        The conditional errors :math:`\\hat\\varepsilon(\\hat f^{s^{(b)}}_M, P)`,
        one column per learner, one row per training sample.
    """

    learners: list
    estimate: np.ndarray
    standard_error: np.ndarray
    n_train: int
    n_test: int
    n_replicates: int
    metric: str
    errors: pd.DataFrame = field(repr=False, compare=False)

    def confidence_interval(self, confidence_level=0.95):
        """Normal-approximation interval ``estimate ± z · standard_error``.

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        ConfidenceInterval
            ``low`` and ``high`` arrays, one entry per learner.
        """
        confidence_level = check_confidence_level(confidence_level)
        z = norm.ppf(0.5 + confidence_level / 2)
        return ConfidenceInterval(
            self.estimate - z * self.standard_error,
            self.estimate + z * self.standard_error,
            confidence_level,  # normal approximation: the nominal level
        )

    def to_frame(self, confidence_level=0.95):
        """One row per learner: estimate, standard error, interval, sizes.

        Parameters
        ----------
        confidence_level : float, default=0.95

        Returns
        -------
        DataFrame
        """
        ci = self.confidence_interval(confidence_level)
        return pd.DataFrame(
            {
                "learner": self.learners,
                "estimate": self.estimate,
                "standard_error": self.standard_error,
                "ci_low": ci.low,
                "ci_high": ci.high,
                "n_train": self.n_train,
                "n_test": self.n_test,
                "n_replicates": self.n_replicates,
            }
        )


def unconditional_error(
    learners,
    sampler,
    *,
    n_train,
    n_replicates=1000,
    n_test=10000,
    scoring=None,
    n_jobs=None,
    random_state=None,
    progress=False,
    store=None,
):
    """Estimate the unconditional error :math:`\\varepsilon(n, M, P)` by simulation.

    Boulesteix et al. (2015), Section 2: fit the method on ``B`` training samples
    of ``n_train`` observations from ``P`` and average their errors on one test
    sample of ``n_test``: a :class:`~sklearn_bench.experiment.BenchmarkExperiment`
    on a :class:`~sklearn_bench.datasets.SimulatedDataset`.

    Parameters
    ----------
    learners : estimator or dict of str to estimator
        The method(s) :math:`M`.
    sampler : callable
        ``sampler(n_samples, random_state) -> (X, y)``, the distribution ``P``.
    n_train : int
        Training sample size ``n``.
    n_replicates : int, default=1000
        Number ``B`` of training samples (the paper: ``B >= 1000``).
    n_test : int, default=10000
        Test sample size (the paper: 10000).
    scoring : str or Metric, default=None
        The loss; ``None`` is the error rate for classifiers and the mean squared
        error for regressors.
    n_jobs, random_state, progress, store
        As in :class:`~sklearn_bench.experiment.BenchmarkExperiment` (``progress``
        defaults to False).

    Returns
    -------
    UnconditionalErrorResult

    See Also
    --------
    collect_rule_errors : each training sample's true error beside its
        estimates, to judge error estimators (Yousefi et al. 2011).

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
    >>> from sklearn_bench.datasets import make_angle_classification
    >>> from sklearn_bench.experiment import unconditional_error
    >>> res = unconditional_error(
    ...     LinearDiscriminantAnalysis(), partial(make_angle_classification, angle=90),
    ...     n_train=50, n_replicates=100, n_test=5000, random_state=0)
    >>> round(float(res.estimate[0]), 3), round(float(res.standard_error[0]), 4)
    (0.143, 0.0009)
    """
    if not isinstance(learners, dict):
        learners = {type(learners).__name__: learners}
    if not isinstance(n_replicates, int | np.integer) or n_replicates < 2:
        raise ValueError(
            f"`n_replicates` must be an integer >= 2 (for the standard error); got "
            f"{n_replicates!r}."
        )
    data = SimulatedDataset(sampler, n_train, n_test, n_replicates)
    experiment = BenchmarkExperiment(
        learners,
        scoring=scoring,
        n_jobs=n_jobs,
        random_state=random_state,
        progress=progress,
        store=store,
    )
    result = experiment.fit({"P": data}).results_
    metric = next(iter(result.metrics))
    perf = result.performance(metric)
    errors = perf.pivot_table(
        index="replicate", columns="learner", values="value", observed=True
    )[list(learners)]
    errors.columns = list(errors.columns)
    values = errors.to_numpy()
    return UnconditionalErrorResult(
        learners=list(learners),
        estimate=values.mean(axis=0),
        standard_error=values.std(axis=0, ddof=1) / np.sqrt(len(values)),
        n_train=data.n_train,
        n_test=data.n_test,
        n_replicates=data.n_replicates,
        metric=metric,
        errors=errors,
    )
