"""Pieces shared by the tests of :mod:`sklearn_bench.stats`."""

import warnings
from collections import namedtuple
from numbers import Real

import numpy as np


class ConfidenceInterval(namedtuple("_ConfidenceInterval", ["low", "high"])):
    """A confidence interval ``(low, high)`` and the level it achieves.

    It unpacks as ``low, high = ci``; bounds may be ``-inf``/``inf``.

    Attributes
    ----------
    low, high : float
        The bounds.
    confidence_level : float or None
        The coverage the interval achieves, which is not always the level asked
        for: a rank-based interval on few observations can only take the levels
        of its discrete null distribution (R's ``wilcox.test`` warns "requested
        conf.level not achievable"). ``None`` where it is not known.

    Examples
    --------
    >>> from sklearn_bench.stats import ConfidenceInterval
    >>> ci = ConfidenceInterval(-0.5, 1.5, confidence_level=0.875)
    >>> low, high = ci
    >>> low, high, ci.confidence_level
    (-0.5, 1.5, 0.875)
    """

    def __new__(cls, low, high, confidence_level=None):
        self = super().__new__(cls, low, high)
        # An attribute, not a third field, so that ``low, high = ci`` still
        # unpacks and ``tuple(ci)`` stays ``(low, high)``.
        object.__setattr__(self, "_confidence_level", confidence_level)
        return self

    @property
    def confidence_level(self):
        return getattr(self, "_confidence_level", None)

    def _replace(self, **kwargs):
        low = kwargs.pop("low", self.low)
        high = kwargs.pop("high", self.high)
        level = kwargs.pop("confidence_level", self.confidence_level)
        if kwargs:
            raise ValueError(f"Got unexpected field names: {sorted(kwargs)!r}")
        return type(self)(low, high, level)

    def __repr__(self):
        if self.confidence_level is None:
            return f"ConfidenceInterval(low={self.low!r}, high={self.high!r})"
        return (
            f"ConfidenceInterval(low={self.low!r}, high={self.high!r}, "
            f"confidence_level={self.confidence_level!r})"
        )

    def __reduce__(self):
        return (type(self), (self.low, self.high, self.confidence_level))


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


def real_number(value, name):
    """``value`` as a float, or a ``TypeError`` naming the argument.

    Strings, ``None``, complex numbers, booleans and sequences are refused before
    ``float()`` would say "could not convert string to float" without a name.

    Examples
    --------
    >>> from sklearn_bench.stats._common import real_number
    >>> real_number(0.95, "confidence_level")
    0.95
    >>> real_number("0.95", "confidence_level")
    Traceback (most recent call last):
    ...
    TypeError: `confidence_level` must be a real number; got '0.95' (str).
    """
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, Real):
        raise TypeError(
            f"`{name}` must be a real number; got {value!r} ({type(value).__name__})."
        )
    return float(value)


def real_array(values, name):
    """``values`` as a float array, or a ``ValueError`` naming the argument.

    Strings, ragged nesting and complex numbers are refused (numpy would say
    "could not convert string to float", "inhomogeneous shape", or drop the
    imaginary part).

    Examples
    --------
    >>> from sklearn_bench.stats._common import real_array
    >>> real_array([1, 2], "x")
    array([1., 2.])
    >>> real_array([[1, 2], [3]], "x")
    Traceback (most recent call last):
    ...
    ValueError: `x` must be an array of real numbers: setting an array element ...
    """
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            if np.iscomplexobj(values):
                raise TypeError("complex numbers")
            if isinstance(values, str | bytes) or np.asarray(values).dtype.kind in "US":
                raise TypeError(f"text {values!r}")
            return np.asarray(values, dtype=float)
    except (TypeError, ValueError, np.exceptions.ComplexWarning) as exc:
        message = str(exc).splitlines()[0]
        raise ValueError(
            f"`{name}` must be an array of real numbers: {message}"
        ) from None
