"""The batched t paths of stats/_batched.py: :func:`paired_t_tests` and
:func:`bayesian_correlated_t_tests`.

Each entry must equal the one-comparison public function's result to the last bit
(``==``, not ``allclose``): the report takes its numbers from the batch and the
methods of BenchmarkResult from the one-pair functions.
"""

import warnings

import numpy as np
import pytest

from sklearn_bench.stats import (
    bayesian_correlated_t,
    bayesian_correlated_t_tests,
    paired_t_tests,
    paired_test,
)

rng = np.random.default_rng(2024)
N, M = 12, 5
REFERENCE = rng.normal(0.2, 0.03, N)
OTHERS = REFERENCE[:, None] + rng.normal(0.01, 0.02, (N, M))


@pytest.mark.parametrize("alternative", ["two-sided", "less", "greater"])
@pytest.mark.parametrize("ratio", [None, 0.25])
def test_paired_t_tests_equal_paired_test_column_by_column(alternative, ratio):
    """H: every column of the batch is paired_test's t (or corrected t) of that
    pair, to the last bit: statistic, p-value, estimate and interval."""
    res = paired_t_tests(
        OTHERS, REFERENCE[:, None], alternative=alternative, test_train_ratio=ratio
    )
    ci = res.confidence_interval(0.9)
    method = "t" if ratio is None else "corrected_t"
    assert res.method == method and res.df == N - 1 and res.n == N
    for j in range(M):
        one = paired_test(
            OTHERS[:, j],
            REFERENCE,
            method=method,
            alternative=alternative,
            test_train_ratio=ratio,
        )
        one_ci = one.confidence_interval(0.9)
        assert res.statistic[j] == one.statistic
        assert res.pvalue[j] == one.pvalue
        assert res.estimate[j] == one.estimate
        assert (ci.low[j], ci.high[j]) == (one_ci.low, one_ci.high)
    assert ci.confidence_level == 0.9


def test_paired_t_tests_axis_and_broadcasting():
    """H: the pairs may run along any axis; the result does not depend on it."""
    along_0 = paired_t_tests(OTHERS, REFERENCE[:, None])
    along_1 = paired_t_tests(OTHERS.T, REFERENCE[None, :], axis=1)
    along_last = paired_t_tests(OTHERS.T, REFERENCE, axis=-1)
    for other in (along_1, along_last):
        np.testing.assert_array_equal(other.pvalue, along_0.pvalue)
        np.testing.assert_array_equal(other.estimate, along_0.estimate)
    one_d = paired_t_tests(OTHERS[:, 0], REFERENCE)
    assert one_d.pvalue.shape == () and one_d.pvalue == along_0.pvalue[0]


def test_paired_t_tests_constant_differences_are_nan_and_flagged():
    """H: a comparison with constant differences (where paired_test raises) is
    flagged in `constant` with NaN statistic, p-value and interval; the others
    are unaffected."""
    x = np.column_stack([REFERENCE + 0.05, OTHERS[:, 0]])
    res = paired_t_tests(x, REFERENCE[:, None])
    assert res.constant.tolist() == [True, False]
    ci = res.confidence_interval()
    assert np.isnan([res.statistic[0], res.pvalue[0], ci.low[0], ci.high[0]]).all()
    assert res.pvalue[1] == paired_test(OTHERS[:, 0], REFERENCE).pvalue
    with pytest.raises(ValueError, match="constant"):
        paired_test(REFERENCE + 0.05, REFERENCE)


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"x": [[1.0, np.nan], [2.0, 3.0]], "y": [[0.0], [1.0]]}, ValueError, "finite"),
        ({"x": np.ones((3, 4)), "y": np.ones((3, 2))}, ValueError, "broadcast"),
        ({"x": np.ones((1, 3)), "y": np.zeros((1, 3))}, ValueError, "at least 2"),
        ({"axis": 2}, ValueError, "`axis`"),
        ({"axis": 0.5}, TypeError, "`axis`"),
        ({"test_train_ratio": 0}, ValueError, "`test_train_ratio`"),
        ({"alternative": "up"}, ValueError, "`alternative`"),
    ],
)
def test_paired_t_tests_invalid_input(kwargs, error, match):
    """H: bad arrays, axis, ratio or alternative raise an error naming them."""
    args = {"x": OTHERS, "y": REFERENCE[:, None], **kwargs}
    with pytest.raises(error, match=match):
        paired_t_tests(args.pop("x"), args.pop("y"), **args)


@pytest.mark.parametrize("delta", [0.0, 0.005])
def test_correlated_t_tests_equal_the_one_pair_test(delta):
    """H: every column of the batch is bayesian_correlated_t of that pair, to the
    last bit, and its decision is the one-pair result's decision."""
    res = bayesian_correlated_t_tests(REFERENCE[:, None], OTHERS, rho=0.1, delta=delta)
    names = [f"L{j}" for j in range(M)]
    for gib in (True, False):
        decisions = res.decisions(
            threshold=0.9, greater_is_better=gib, labels=("ref", names)
        )
        for j in range(M):
            one = bayesian_correlated_t(
                REFERENCE,
                OTHERS[:, j],
                delta=delta,
                rho=0.1,
                labels=("ref", names[j]),
                greater_is_better=gib,
            )
            assert (res.p_greater[j], res.p_rope[j], res.p_less[j]) == (
                one.p_greater,
                one.p_rope,
                one.p_less,
            )
            assert decisions[j] == one.decision(0.9)
    assert res.n == N and res.rope == delta and not res.constant.any()


@pytest.mark.parametrize("delta", [0.0, 0.01, 0.05])
def test_correlated_t_tests_point_mass_as_the_one_pair_test(delta):
    """H: zero-variance comparisons get the one-pair test's point-mass
    probabilities (0, ½ or 1), flagged in `constant`, with one RuntimeWarning."""
    y = np.column_stack([REFERENCE - 0.02, REFERENCE, OTHERS[:, 0]])
    with pytest.warns(RuntimeWarning, match="2 of 3 comparisons"):
        res = bayesian_correlated_t_tests(REFERENCE[:, None], y, rho=0.2, delta=delta)
    assert res.constant.tolist() == [True, True, False]
    for j in range(3):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            one = bayesian_correlated_t(
                REFERENCE, y[:, j], delta=delta, rho=0.2, greater_is_better=True
            )
        assert (res.p_greater[j], res.p_rope[j], res.p_less[j]) == (
            one.p_greater,
            one.p_rope,
            one.p_less,
        )


def test_correlated_t_tests_invalid_input():
    """H: bad rho, delta, threshold or direction raise errors naming them."""
    with pytest.raises(ValueError, match="`rho`"):
        bayesian_correlated_t_tests(REFERENCE, OTHERS[:, 0], rho=1.0)
    with pytest.raises(ValueError, match="`delta`"):
        bayesian_correlated_t_tests(REFERENCE, OTHERS[:, 0], rho=0.1, delta=-1)
    res = bayesian_correlated_t_tests(REFERENCE, OTHERS[:, 0], rho=0.1)
    with pytest.raises(ValueError, match="`threshold`"):
        res.decisions(threshold=0.4, greater_is_better=True)
    with pytest.raises(TypeError, match="`greater_is_better`"):
        res.decisions(threshold=0.9, greater_is_better="yes")
