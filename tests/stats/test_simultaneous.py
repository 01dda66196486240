"""Tests of sklearn_bench.stats._simultaneous: simultaneous intervals compatible
with the Bonferroni and Holm tests."""

import numpy as np
import pytest
from scipy import stats

from sklearn_bench.stats import (
    adjust_pvalues,
    simultaneous_intervals,
)


def test_bonferroni_equals_hand_computation():
    """Hypothesis: the Bonferroni intervals are θ̂ ± t_{1−α/(2m), df} s, computed
    by hand with scipy's t quantile, and each has marginal level 1 − α/m."""
    est, se = np.array([0.30, 0.12, 0.02]), np.array([0.10, 0.05, 0.05])
    res = simultaneous_intervals(est, se, df=20, adjust="bonferroni")
    q = stats.t.isf(0.05 / 3 / 2, 20)  # 2.6131...
    np.testing.assert_allclose(res.low, est - q * se, rtol=1e-12)
    np.testing.assert_allclose(res.high, est + q * se, rtol=1e-12)
    np.testing.assert_allclose(res.marginal_level, 1 - 0.05 / 3, rtol=1e-12)
    assert res.rejected.tolist() == [True, False, False]


def test_holm_one_sided_equals_strassburger_bretz_formulas():
    """Hypothesis: the Holm bounds follow Strassburger & Bretz (2008): with the
    one-sided p-values 0.0035, 0.0131, 0.347 Holm at 0.05 rejects the first two
    (0.0035 ≤ 0.05/3, 0.0131 ≤ 0.05/2, 0.347 > 0.05), so their bounds are 0 and
    the third's is θ̂ − t_{0.95, 20} s (|N| = 1)."""
    est, se = np.array([0.30, 0.12, 0.02]), np.array([0.10, 0.05, 0.05])
    res = simultaneous_intervals(est, se, df=20, adjust="holm", alternative="greater")
    assert res.rejected.tolist() == [True, True, False]
    expected = [0.0, 0.0, 0.02 - stats.t.isf(0.05, 20) * 0.05]  # -0.06624
    np.testing.assert_allclose(res.low, expected, rtol=1e-12, atol=0)
    assert np.isinf(res.high).all()
    np.testing.assert_allclose(res.marginal_level[2], 0.95, rtol=1e-12)


def test_holm_all_rejected_takes_bonferroni_bound_above_zero():
    """Hypothesis: when Holm rejects every hypothesis, each bound is
    max(0, θ̂ − z_{1−α/m} s) (Strassburger & Bretz 2008, the case R = I), here
    with the normal (df=None)."""
    est, se = np.array([5.0, 0.54]), np.array([1.0, 0.3])
    res = simultaneous_intervals(est, se, adjust="holm", alternative="greater")
    assert res.rejected.all()
    z = stats.norm.isf(0.05 / 2)
    np.testing.assert_allclose(res.low, np.maximum(0, est - z * se), rtol=1e-12)
    assert res.low[1] == 0.0 and res.low[0] > 0


def test_less_is_greater_mirrored():
    """Hypothesis: upper bounds (alternative="less") are minus the lower bounds of
    the negated estimates."""
    est, se = np.array([-0.3, 0.1, -0.05]), np.array([0.1, 0.05, 0.04])
    less = simultaneous_intervals(est, se, df=9, adjust="holm", alternative="less")
    greater = simultaneous_intervals(
        -est, se, df=9, adjust="holm", alternative="greater"
    )
    np.testing.assert_allclose(less.high, -greater.low, rtol=1e-12)
    assert less.rejected.tolist() == greater.rejected.tolist()


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"estimate": [], "standard_error": []}, "non-empty"),
        ({"estimate": [1.0], "standard_error": [0.0]}, "positive"),
        ({"estimate": [1.0, 2.0], "standard_error": [1.0]}, "shape"),
        ({"estimate": [np.nan], "standard_error": [1.0]}, "finite"),
        ({"estimate": [1.0], "standard_error": [1.0], "df": 0}, "`df`"),
        ({"estimate": [1.0], "standard_error": [1.0], "adjust": "x"}, "`adjust`"),
    ],
)
def test_invalid_input_is_a_clear_value_error(kwargs, message):
    """Hypothesis: empty, mismatched, non-finite or non-positive inputs and an
    unknown method raise a ValueError that names the argument."""
    with pytest.raises(ValueError, match=message):
        simultaneous_intervals(**kwargs)


def _studies(n_studies, seed):
    """Random studies: m estimates, standard errors and df, some effects real."""
    rng = np.random.default_rng(seed)
    for _ in range(n_studies):
        m = int(rng.integers(1, 12))
        df = float(rng.integers(2, 30))
        se = rng.uniform(0.01, 0.1, m)
        theta = rng.choice([0.0, 1.0, 3.0], m) * se * rng.choice([-1, 1], m)
        est = theta + se * rng.standard_t(df, m)
        yield est, se, df


def test_intervals_never_contradict_the_adjusted_test():
    """Hypothesis: over 3000 random studies (1 to 11 comparisons, t pivots, some
    real effects), a Bonferroni interval excludes 0 exactly when the Bonferroni
    p m·p < α, and then the Holm-adjusted p is ≤ α (never an interval excluding 0
    beside an adjusted p > α); a one-sided Holm bound excludes 0 exactly when
    Holm rejects; a two-sided Holm interval that excludes 0 has a two-sided
    Holm-adjusted p ≤ α."""
    checked = 0
    for est, se, df in _studies(3000, seed=1):
        p = 2 * stats.t.sf(np.abs(est / se), df)
        holm = adjust_pvalues(p, adjust="holm")
        bonf = simultaneous_intervals(est, se, df=df, adjust="bonferroni")
        excludes = (bonf.low > 0) | (bonf.high < 0)
        assert (excludes == (np.minimum(1, est.size * p) < 0.05)).all()
        assert (holm[excludes] <= 0.05).all()
        one = simultaneous_intervals(
            est, se, df=df, adjust="holm", alternative="greater"
        )
        p_one = adjust_pvalues(stats.t.sf(est / se, df), adjust="holm")
        assert ((one.low >= 0) == (p_one <= 0.05)).all()
        assert (one.low[~one.rejected] < 0).all()
        two = simultaneous_intervals(est, se, df=df, adjust="holm")
        assert (holm[two.rejected] <= 0.05 + 1e-12).all()
        assert (two.low[~two.rejected] < 0).all()
        assert (two.high[~two.rejected] > 0).all()
        checked += excludes.sum() + two.rejected.sum()
    assert checked > 1000  # the loop saw many rejections, not only nulls


def test_simultaneous_coverage_under_the_null():
    """Hypothesis: with every θ_i = 0, m = 6 and t pivots with 7 df, both methods
    cover all six parameters together in at least 95% of 4000 simulated studies
    (minus 3 Monte Carlo standard errors, 0.01)."""
    rng = np.random.default_rng(2)
    m, df, n = 6, 7, 4000
    se = np.linspace(0.02, 0.07, m)
    cover = {"bonferroni": 0, "holm": 0}
    for _ in range(n):
        est = se * rng.standard_t(df, m)
        for method in cover:
            res = simultaneous_intervals(est, se, df=df, adjust=method)
            # θ = 0 is covered unless the interval excludes it (a Holm bound at
            # exactly 0 of a rejected hypothesis is open: it excludes 0)
            cover[method] += bool(
                ((res.low <= 0) & (res.high >= 0) & ~res.rejected).all()
            )
    for method, hits in cover.items():
        assert hits / n >= 0.95 - 0.01, method
