"""Pieces shared by the tests of :mod:`sklearn_bench.stats`."""

import warnings
from collections import namedtuple
from numbers import Real

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
