"""The values the docstring of ``paired_test`` (sklearn_bench/stats/_paired.py)
showed beyond its first example, kept as tests when the docstring was cut."""

import numpy as np
import pytest

from sklearn_bench.stats import paired_test

X = [0.864, 0.872, 0.869, 0.730, 0.820, 0.712, 0.891, 0.787, 0.754]
Y = [0.857, 0.849, 0.848, 0.697, 0.791, 0.715, 0.866, 0.725, 0.719]


def test_demsar_drops_one_zero_then_scipy_exact():
    """H: with one zero difference Demšar's rule drops it and the 7 left get
    scipy's exact signed-rank p-value (0.0781)."""
    d = [0.01, -0.02, 0.03, 0.0, 0.04, 0.05, 0.015, 0.025]
    res = paired_test(d, [0.0] * 8, method="wilcoxon")
    assert res.n == 7
    assert res.pvalue == pytest.approx(0.078125, abs=5e-5)


def test_permutation_exact_one_sided():
    """H: 9 positive-leaning differences: the exact sign-flip p-value is
    2/512 (0.003906) with no Monte Carlo error."""
    res = paired_test(X, Y, method="permutation", alternative="greater")
    assert round(res.pvalue, 6) == 0.003906
    assert res.pvalue_standard_error == 0.0


def test_five_by_two_t_and_f():
    """H: Dietterich's 5×2cv t and Alpaydin's F of the docstring's folds
    (t = −2.025 on 5 df, p = 0.0987; F = 2.795 on (10, 5), p = 0.1341)."""
    a = [[0.10, 0.12], [0.11, 0.09], [0.12, 0.13], [0.10, 0.11], [0.09, 0.12]]
    b = [[0.14, 0.15], [0.13, 0.14], [0.15, 0.13], [0.12, 0.15], [0.14, 0.13]]
    res = paired_test(a, b, method="5x2cv")
    assert (round(res.statistic, 3), round(res.pvalue, 4), res.df) == (
        -2.025, 0.0987, 5,
    )  # fmt: skip
    res = paired_test(a, b, method="5x2cv_f")
    assert (round(res.statistic, 3), round(res.pvalue, 4), res.df) == (
        2.795, 0.1341, (10, 5),
    )  # fmt: skip


def test_wilcoxon_batch_is_each_pair_alone():
    """H: a batch of Wilcoxon tests, one comparison a column, gives each
    pair's own statistic, p-value and Hodges–Lehmann estimate."""
    res = paired_test(np.c_[X, Y], np.c_[Y, X], method="wilcoxon", zero_method="wilcox")
    assert res.statistic.tolist() == [44.0, 1.0]
    assert res.pvalue.tolist() == [0.0078125, 0.0078125]
    assert res.estimate.round(4).tolist() == [0.026, -0.026]


def test_wilcoxon_effect_size_is_the_rank_biserial_correlation():
    """H: the effect size of the Wilcoxon test on the docstring's nine pairs
    (one negative difference of rank 1) is the matched-pairs rank-biserial
    correlation (R+ − R−) / 45 = (44 − 1) / 45 = 0.956."""
    es = paired_test(X, Y, method="wilcoxon").effect_size
    assert (es.name, round(es.estimate, 3)) == ("rank_biserial", 0.956)
