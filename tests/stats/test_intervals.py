"""Intervals of sklearn_bench/stats/_paired.py: the level they achieve, against R,
and their agreement with their own test (at level 1 − α the interval excludes 0
exactly when p <= α)."""

import json
import warnings
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sklearn_bench.stats import (
    n_datasets_needed,
    paired_test,
    power_paired_t,
    smallest_attainable_pvalue,
)

# R 4.2.2: tests/stats/reference/intervals_power.R -> intervals_power.json
_R = json.loads(
    (Path(__file__).parent / "reference" / "intervals_power.json").read_text()
)
RTOL = 1e-8


@pytest.mark.parametrize("case", _R["wilcoxon"], ids=lambda c: f"n{c['n']}")
def test_hodges_lehmann_interval_and_level_match_r(case):
    """H: on untied samples the Hodges–Lehmann interval equals R's
    wilcox.test(conf.int = TRUE) and carries R's achieved level; where R clamps
    (achieved level below 95%) the interval is the whole line with level 1."""
    d = np.array(case["d"])
    res = paired_test(d, np.zeros_like(d), method="wilcoxon")
    assert res.pvalue == pytest.approx(case["pvalue"], rel=RTOL)
    if case["achieved_level"] >= 0.95:
        ci = res.confidence_interval(0.95)
        assert ci.low == pytest.approx(case["low"], rel=RTOL)
        assert ci.high == pytest.approx(case["high"], rel=RTOL)
        assert ci.confidence_level == pytest.approx(case["achieved_level"], rel=RTOL)
    else:
        with pytest.warns(UserWarning, match="no finite"):
            ci = res.confidence_interval(0.95)
        assert (ci.low, ci.high, ci.confidence_level) == (-np.inf, np.inf, 1.0)


@pytest.mark.parametrize("case", _R["sign"], ids=lambda c: f"n{c['n']}")
def test_median_interval_and_level_match_r(case):
    """H: the sign test's median interval and its achieved level equal the
    binomial order-statistic interval computed in R."""
    d = np.array(case["d"])
    res = paired_test(d, np.zeros_like(d), method="sign")
    assert res.pvalue == pytest.approx(case["pvalue"], rel=RTOL)
    ci = res.confidence_interval(0.95)
    assert ci.low == pytest.approx(case["low"], rel=RTOL)
    assert ci.high == pytest.approx(case["high"], rel=RTOL)
    assert ci.confidence_level == pytest.approx(case["achieved_level"], rel=RTOL)


@pytest.mark.parametrize("case", _R["power"], ids=lambda c: f"sigma{c['sigma']}")
def test_two_sided_exact_power_matches_r(case):
    """H: the default power (two-sided, exact noncentral t) and the data sets
    needed equal R's power.t.test(type = "one.sample", strict = TRUE), also
    where scipy's noncentral t cdf is NaN far in the tail (sigma = 0.0125)."""
    got = power_paired_t(case["J"], 0.05, case["sigma"])
    np.testing.assert_allclose(got, case["power"], rtol=1e-7, atol=1e-12)
    assert n_datasets_needed(0.05, case["sigma"]) == case["J_needed"]


def test_t_interval_level_is_nominal():
    """H: t-family intervals carry the level asked for (exact under normality)."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=12), rng.normal(size=12)
    for kw in ({"method": "t"}, {"method": "corrected_t", "test_train_ratio": 0.2}):
        ci = paired_test(x, y, **kw).confidence_interval(0.9)
        assert ci.confidence_level == 0.9


def _agree(d, method, alternative, level):
    """(interval excludes 0, p <= alpha) for one difference vector."""
    alpha = 1 - level
    res = paired_test(d, np.zeros_like(d), method=method, alternative=alternative)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        ci = res.confidence_interval(level)
    excludes = ci.low > 0 or ci.high < 0
    return excludes, res.pvalue <= alpha, ci


_untied = st.integers(3, 40).flatmap(
    lambda n: st.lists(
        st.integers(-1000, 1000).filter(lambda v: v != 0),
        min_size=n,
        max_size=n,
        unique_by=abs,
    )
)


@settings(max_examples=1500, deadline=None)
@given(
    d=_untied,
    method=st.sampled_from(["t", "wilcoxon", "sign"]),
    alternative=st.sampled_from(["two-sided", "greater", "less"]),
    level=st.sampled_from([0.8, 0.9, 0.95, 0.99]),
)
def test_interval_excludes_zero_exactly_when_test_rejects(
    d, method, alternative, level
):
    """H: without ties or zeros, at level 1 − α the interval excludes 0 exactly
    when p <= α (t: same t quantile; Wilcoxon n < 50: the Hodges–Lehmann order
    statistic from the exact signed-rank null; sign: the binomial order
    statistic), and its achieved level is at least the level asked for."""
    d = np.array(d, dtype=float) / 1000
    excludes, rejects, ci = _agree(d, method, alternative, level)
    if method == "wilcoxon" and d.size >= 50:  # pragma: no cover (n <= 40 here)
        return
    assert excludes == rejects
    assert ci.confidence_level >= level - 1e-12


@settings(max_examples=1500, deadline=None)
@given(
    d=st.integers(3, 40).flatmap(
        lambda n: st.lists(st.integers(-4, 4), min_size=n, max_size=n)
    ),
    method=st.sampled_from(["wilcoxon", "sign"]),
    level=st.sampled_from([0.9, 0.95]),
)
def test_interval_with_ties_and_zeros_never_claims_more(d, method, level):
    """H: with ties and zero differences (where the test uses its normal
    approximation or Demšar's tie split, so exact duality cannot hold) the
    interval still reports a level at least the one asked for, and the sign
    interval never excludes 0 when the sign test does not reject."""
    d = np.array(d, dtype=float) / 100
    if np.all(d == 0):
        return
    excludes, rejects, ci = _agree(d, method, "two-sided", level)
    assert ci.confidence_level >= level - 1e-12
    if method == "sign":
        assert not excludes or rejects


@pytest.mark.parametrize(
    "method, n, alternative, expected",
    [
        ("wilcoxon", 4, "two-sided", 0.125),
        ("wilcoxon", 5, "two-sided", 0.0625),
        ("wilcoxon", 6, "two-sided", 0.03125),
        ("sign", 5, "greater", 1 / 32),
        ("permutation", 3, "two-sided", 0.25),
        ("t", 3, "two-sided", 0.0),
    ],
)
def test_smallest_attainable_pvalue(method, n, alternative, expected):
    """H: the smallest p equals the p-value the test gives on n differences all
    of one sign (its most extreme arrangement)."""
    assert smallest_attainable_pvalue(method, n, alternative=alternative) == expected
    if method != "t":
        d = np.arange(1, n + 1) / 100.0
        d = -d if alternative == "less" else d
        p = paired_test(d, np.zeros(n), method=method, alternative=alternative).pvalue
        assert p == pytest.approx(expected, rel=1e-12)


def test_smallest_attainable_pvalue_rejects_bad_arguments():
    """H: bad method, n or alternative raise a ValueError naming the argument."""
    with pytest.raises(ValueError, match="`method`"):
        smallest_attainable_pvalue("ttest", 4)
    with pytest.raises(ValueError, match="`n`"):
        smallest_attainable_pvalue("sign", 0)
    with pytest.raises(ValueError, match="`alternative`"):
        smallest_attainable_pvalue("sign", 4, alternative="both")
