"""Tests of sklearn_bench/stats/_bootstrap_ci.py against scipy and the t-interval."""

import numpy as np
import pytest
from scipy import stats

from sklearn_bench.stats import bootstrap_ci

D = np.array([0.017, -0.007, 0.024, 0.018, -0.005, 0.027, 0.007, 0.023, 0.011, 0.002])


@pytest.mark.parametrize("method", ["BCa", "percentile", "basic"])
def test_equals_scipy_bootstrap_with_same_generator(method):
    """H: the interval is scipy.stats.bootstrap's for the same seed and method."""
    ci = bootstrap_ci(D, method=method, n_resamples=2000, random_state=4)
    ref = stats.bootstrap(
        (D,), np.mean, method=method, n_resamples=2000, rng=np.random.default_rng(4)
    ).confidence_interval
    assert (ci.low, ci.high) == pytest.approx((ref.low, ref.high), rel=1e-12)


def test_paired_is_bootstrap_of_differences():
    """H: with y the interval is the one-sample interval of x - y."""
    x = np.linspace(0.7, 0.9, 10)
    y = x - D
    assert bootstrap_ci(x, y, random_state=1) == pytest.approx(
        bootstrap_ci(x - y, random_state=1), rel=1e-12
    )


def test_close_to_t_interval_for_normal_data():
    """H: for n = 400 normal data the BCa interval of the mean is near the t one."""
    rng = np.random.default_rng(0)
    x = rng.normal(0.02, 0.05, 400)
    ci = bootstrap_ci(x, n_resamples=4000, random_state=0)
    # t-interval: scipy.stats.ttest_1samp(x, 0).confidence_interval(0.95)
    ref = stats.ttest_1samp(x, 0).confidence_interval(0.95)
    width = ref.high - ref.low
    assert abs(ci.low - ref.low) < 0.05 * width
    assert abs(ci.high - ref.high) < 0.05 * width


def test_one_sided_bounds_are_infinite():
    """H: 'greater' gives (low, inf) and 'less' gives (-inf, high)."""
    assert bootstrap_ci(D, alternative="greater", random_state=0).high == np.inf
    assert bootstrap_ci(D, alternative="less", random_state=0).low == -np.inf


def test_other_statistic_and_random_state_types():
    """H: median works; int, Generator and RandomState seeds are reproducible."""
    a = bootstrap_ci(D, statistic=np.median, random_state=np.random.RandomState(3))
    b = bootstrap_ci(D, statistic=np.median, random_state=np.random.RandomState(3))
    assert a == b and a.low <= np.median(D) <= a.high
    g = bootstrap_ci(D, random_state=np.random.default_rng(9))
    assert g == bootstrap_ci(D, random_state=9)


def test_constant_sample_and_n_one():
    """H: a constant sample (and n = 1) gives the degenerate interval (s, s)."""
    assert tuple(bootstrap_ci([0.1, 0.1, 0.1])) == pytest.approx((0.1, 0.1), rel=1e-15)
    assert tuple(bootstrap_ci([0.3])) == (0.3, 0.3)
    assert tuple(bootstrap_ci([0.0] * 4, alternative="greater")) == (0.0, np.inf)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"x": [0.1, np.nan]}, "`x`"),
        ({"x": []}, "`x`"),
        ({"y": [0.1]}, "same length"),
        ({"method": "bca"}, "`method`"),
        ({"n_resamples": 0}, "`n_resamples`"),
        ({"confidence_level": 1.0}, "`confidence_level`"),
        ({"alternative": "both"}, "`alternative`"),
        ({"statistic": "mean"}, "`statistic`"),
    ],
)
def test_invalid_input_raises(kwargs, match):
    """H: NaN, empty input and bad options raise a ValueError naming the argument."""
    args = {"x": D} | kwargs
    with pytest.raises(ValueError, match=match):
        bootstrap_ci(args.pop("x"), **args)
