"""``paired_test(method="corrected_t")`` with one ``test_train_ratio`` per
comparison of a batch (sklearn_bench/stats/_paired.py)."""

import numpy as np
import pytest

from sklearn_bench.stats import paired_test


def test_one_ratio_per_comparison_is_each_pair_alone():
    """H: a batch with a ratio per comparison gives each comparison's
    statistic, p-value and interval bit for bit as that pair alone."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(0.2, 0.02, (10, 4)), rng.normal(0.21, 0.02, (10, 4))
    ratio = np.array([0.1, 0.25, 0.5, 1.0])
    res = paired_test(x, y, method="corrected_t", test_train_ratio=ratio)
    ci = res.confidence_interval(0.9)
    for j in range(4):
        one = paired_test(x[:, j], y[:, j], method="corrected_t",
                          test_train_ratio=ratio[j])  # fmt: skip
        one_ci = one.confidence_interval(0.9)
        assert (res.statistic[j], res.pvalue[j]) == (one.statistic, one.pvalue)
        assert (ci.low[j], ci.high[j]) == (one_ci.low, one_ci.high)


@pytest.mark.parametrize("ratio", [[0.1, 0.0], [0.1, -1.0], None])
def test_ratios_must_be_positive(ratio):
    """H: a zero or negative ratio of any comparison (or none) is refused."""
    with pytest.raises(ValueError, match="test_train_ratio"):
        paired_test(np.ones((5, 2)), np.zeros((5, 2)) + np.arange(5)[:, None] / 7,
                    method="corrected_t", test_train_ratio=ratio)  # fmt: skip
