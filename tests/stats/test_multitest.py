import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from sklearn_bench.stats import adjust_pvalues

RTOL, ATOL = 1e-8, 1e-12


@pytest.mark.parametrize("method", ["holm", "hochberg", "bonferroni", "BH"])
def test_adjust_pvalues_matches_r_p_adjust(reference_cases, method):
    """H: adjust_pvalues equals R's p.adjust(p, method) on the reference case."""
    case = reference_cases["p_adjust_six"]
    got = adjust_pvalues(case["input"]["p"], method=method.lower())
    np.testing.assert_allclose(got, case["expected"][method], rtol=RTOL, atol=ATOL)


@pytest.mark.parametrize("seed", range(20))
@pytest.mark.parametrize(
    "method, sm_method",
    [
        ("holm", "holm"),
        ("hochberg", "simes-hochberg"),
        ("hommel", "hommel"),
        ("bonferroni", "bonferroni"),
        ("bh", "fdr_bh"),
    ],
)
def test_adjust_pvalues_matches_statsmodels(seed, method, sm_method):
    """H: on random p-values (with ties) all methods agree with statsmodels."""
    rng = np.random.default_rng(seed)
    m = rng.integers(1, 15)
    p = np.round(rng.uniform(0, 0.3, size=m) ** 2, 3)  # rounding makes ties
    expected = multipletests(p, method=sm_method)[1]
    np.testing.assert_allclose(adjust_pvalues(p, method=method), expected, rtol=1e-12)


def test_adjust_pvalues_hommel_hand_value():
    """H: Hommel on (0.01, 0.02, 0.04) gives R's p.adjust values (0.03, 0.04, 0.04)."""
    # R: p.adjust(c(0.01, 0.02, 0.04), "hommel") -> 0.03 0.04 0.04
    np.testing.assert_allclose(
        adjust_pvalues([0.01, 0.02, 0.04], method="hommel"), [0.03, 0.04, 0.04]
    )


def test_adjust_pvalues_single_pvalue_is_unchanged():
    """H: with one hypothesis no adjustment happens."""
    for method in ["holm", "hochberg", "bonferroni", "hommel", "bh"]:
        assert adjust_pvalues([0.2], method=method).tolist() == [0.2]


@pytest.mark.parametrize(
    "pvalues, method, match",
    [
        ([0.1, np.nan], "holm", "NaN"),
        ([0.1, 1.2], "holm", r"\[0, 1\]"),
        ([], "holm", "empty"),
        ([[0.1]], "holm", "one-dimensional"),
        ([0.1], "sidak", "`method` must be one of"),
    ],
)
def test_adjust_pvalues_bad_input(pvalues, method, match):
    """H: invalid p-values or methods raise a ValueError naming the problem."""
    with pytest.raises(ValueError, match=match):
        adjust_pvalues(pvalues, method=method)
