"""Pieces shared by the tests of :mod:`sklearn_bench.stats`."""

from collections import namedtuple

import numpy as np

ConfidenceInterval = namedtuple("ConfidenceInterval", ["low", "high"])
ConfidenceInterval.__doc__ = (
    """A confidence interval ``(low, high)``; bounds may be ``-inf``/``inf``."""
)


def monte_carlo_pvalue(n_extreme, n_resamples):
    """P-value and its Monte Carlo standard error from a randomised test.

    The observed arrangement is counted as one of the resamples, as in
    ``scipy.stats.permutation_test``: ``p = (n_extreme + 1) / (n_resamples + 1)``, so a
    Monte Carlo p-value is never 0 and the test is exact (valid) at every level.

    Parameters
    ----------
    n_extreme : int
        Number of random resamples whose statistic is at least as extreme as the
        observed one (the observed arrangement itself excluded).
    n_resamples : int
        Number of random resamples drawn.

    Returns
    -------
    pvalue : float
    standard_error : float
        ``sqrt(p (1 - p) / n_resamples)``, the binomial standard error of ``pvalue``.

    Examples
    --------
    >>> from sklearn_bench.stats._common import monte_carlo_pvalue
    >>> p, se = monte_carlo_pvalue(49, 999)
    >>> round(p, 3), round(se, 4)
    (0.05, 0.0069)
    """
    p = (n_extreme + 1) / (n_resamples + 1)
    return p, float(np.sqrt(p * (1 - p) / n_resamples))
