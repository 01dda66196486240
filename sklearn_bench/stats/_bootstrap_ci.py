"""Bootstrap confidence intervals on top of :func:`scipy.stats.bootstrap`."""

import numpy as np
from scipy import stats

from .._validation import check_confidence_level, check_member, check_positive_int
from .._validation import check_random_state as _as_generator
from ._common import ConfidenceInterval, _differences

_METHODS = ("BCa", "percentile", "basic")
_ALTERNATIVES = ("two-sided", "less", "greater")


def bootstrap_ci(
    x,
    y=None,
    *,
    statistic=np.mean,
    method="BCa",
    confidence_level=0.95,
    alternative="two-sided",
    n_resamples=9999,
    random_state=None,
):
    """Bootstrap confidence interval of a statistic of a sample or of differences.

    A thin layer over :func:`scipy.stats.bootstrap` (Efron & Tibshirani 1993);
    with ``y``, of the paired differences ``x − y``.

    Parameters
    ----------
    x : array-like of shape (n,)
    y : array-like of shape (n,), default=None
        Paired sample; the interval is then for ``statistic(x − y)``.
    statistic : callable, default=numpy.mean
        ``statistic(sample, axis=-1)``, vectorised like numpy reductions.
    method : {"BCa", "percentile", "basic"}, default="BCa"
    confidence_level : float, default=0.95
    alternative : {"two-sided", "less", "greater"}, default="two-sided"
        ``"less"`` gives ``(-inf, high)``, ``"greater"`` gives ``(low, inf)``.
    n_resamples : int, default=9999
        Bootstrap resamples.
    random_state : int, numpy Generator or RandomState, default=None

    Returns
    -------
    ConfidenceInterval

    Notes
    -----
    A constant sample (``n = 1`` too) gives ``(s, s)``, ``s = statistic(sample)``
    (SciPy: NaN for BCa); one-sided forms keep their infinite bound.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import bootstrap_ci
    >>> x = np.array([0.81, 0.77, 0.85, 0.79, 0.80, 0.77, 0.85, 0.82])
    >>> y = np.array([0.80, 0.78, 0.83, 0.77, 0.81, 0.74, 0.84, 0.80])
    >>> ci = bootstrap_ci(x, y, random_state=0)
    >>> bool(ci.low < np.mean(x - y) < ci.high)
    True
    """
    sample = _differences(x, y)
    check_member(method, _METHODS, "method")
    check_member(alternative, _ALTERNATIVES, "alternative")
    level = check_confidence_level(confidence_level)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    if not callable(statistic):
        raise ValueError("`statistic` must be callable.")
    if np.all(sample == sample[0]):
        value = float(np.asarray(statistic(sample)))
        low = -np.inf if alternative == "less" else value
        high = np.inf if alternative == "greater" else value
        return ConfidenceInterval(low, high, level)
    res = stats.bootstrap(
        (sample,),
        statistic,
        n_resamples=int(n_resamples),
        method=method,
        confidence_level=level,
        alternative=alternative,
        rng=_as_generator(random_state),
    )
    ci = res.confidence_interval
    # approximate: the bootstrap's nominal level (its coverage in small
    # samples is measured in benchmarks/interval_coverage.py)
    return ConfidenceInterval(float(ci.low), float(ci.high), level)
