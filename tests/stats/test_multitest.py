import json
from pathlib import Path

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

from sklearn_bench.stats import adjust_pvalues

RTOL, ATOL = 1e-8, 1e-12


@pytest.mark.parametrize("method", ["holm", "hochberg", "bonferroni", "BH"])
def test_adjust_pvalues_matches_r_p_adjust(reference_cases, method):
    """H: adjust_pvalues equals R's p.adjust(p, method) on the reference case."""
    case = reference_cases["p_adjust_six"]
    got = adjust_pvalues(case["input"]["p"], adjust=method.lower())
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
    np.testing.assert_allclose(adjust_pvalues(p, adjust=method), expected, rtol=1e-12)


def test_adjust_pvalues_hommel_hand_value():
    """H: Hommel on (0.01, 0.02, 0.04) gives R's p.adjust values (0.03, 0.04, 0.04)."""
    # R: p.adjust(c(0.01, 0.02, 0.04), "hommel") -> 0.03 0.04 0.04
    np.testing.assert_allclose(
        adjust_pvalues([0.01, 0.02, 0.04], adjust="hommel"), [0.03, 0.04, 0.04]
    )


def test_adjust_pvalues_single_pvalue_is_unchanged():
    """H: with one hypothesis no adjustment happens."""
    for method in ["holm", "hochberg", "bonferroni", "hommel", "bh"]:
        assert adjust_pvalues([0.2], adjust=method).tolist() == [0.2]


@pytest.mark.parametrize(
    "pvalues, method, match",
    [
        ([0.1, np.nan], "holm", "NaN"),
        ([0.1, 1.2], "holm", r"\[0, 1\]"),
        ([], "holm", "empty"),
        ([[0.1]], "holm", "one-dimensional"),
        ([0.1], "sidak", "`adjust` must be one of"),
    ],
)
def test_adjust_pvalues_bad_input(pvalues, method, match):
    """H: invalid p-values or methods raise a ValueError naming the problem."""
    with pytest.raises(ValueError, match=match):
        adjust_pvalues(pvalues, adjust=method)


# --------------------------------------------------------------------------------
# Issue 24: scmamp's Finner, Li, Holland and Rom beside R's Hochberg and Hommel.
# Reference: tests/reference/posthoc/multitest.R (R 4.2.2, scmamp's R/post_hoc.R
# sourced as it is) -> multitest.json.
_MULTITEST = json.loads(
    (Path(__file__).parents[1] / "reference" / "posthoc" / "multitest.json").read_text()
)


@pytest.mark.parametrize("case", _MULTITEST["cases"], ids=lambda c: c["id"])
@pytest.mark.parametrize(
    "method", ["holm", "hochberg", "hommel", "finner", "holland", "li", "rom"]
)
def test_adjust_pvalues_matches_r_and_scmamp(case, method):
    """H: every adjustment equals R's p.adjust (holm, hochberg, hommel) or scmamp's
    adjustFinner / adjustHolland / adjustLi / adjustRom (alpha 0.05 and 0.1) on
    p-values with ties, zeros and ones, to rtol 1e-10."""
    p = case["p"]
    if method == "rom":
        if "rom_0.05" not in case:
            pytest.skip("scmamp's adjustRom is wrong for m <= 2 (tested by hand)")
        for alpha in (0.05, 0.1):
            got = adjust_pvalues(p, adjust="rom", alpha=alpha)
            np.testing.assert_allclose(
                got, case[f"rom_{alpha}"], rtol=1e-10, atol=1e-14
            )
        return
    got = adjust_pvalues(p, adjust=method)
    expected = np.array(case[method], dtype=float)  # JSON null -> nan
    # scmamp's Li gives NaN (0/0) for p = 0 when the largest p is 1; ours is 1
    # (test_li_with_a_largest_pvalue_of_one_rejects_nothing)
    known = ~np.isnan(expected)
    np.testing.assert_allclose(got[known], expected[known], rtol=1e-10, atol=1e-14)


def test_rom_constants_match_rom_1990_table_1():
    """H: Rom's critical values at alpha = 0.05 are those of Rom (1990, Table 1,
    printed to 3 significant digits: .05, .025, .0169, .0127, .0102, .00851,
    .00730, .00639, .00568, .00511) and equal scmamp's recursion to 1e-12."""
    from sklearn_bench.stats._multitest import _rom_critical_values

    got = _rom_critical_values(10, 0.05)
    np.testing.assert_allclose(got, _MULTITEST["rom_constants_0.05"], rtol=1e-12)
    table = [0.05, 0.025, 0.0169, 0.0127, 0.0102, 0.00851, 0.0073, 0.00639, 0.00568]
    np.testing.assert_allclose(got[:9], table, rtol=5e-3)


def test_rom_small_families_by_hand():
    """H: Rom with one p-value leaves it unchanged; with two it uses the constants
    alpha / 2 and alpha step-down, i.e. Holm's adjusted p-values."""
    assert adjust_pvalues([0.3], adjust="rom").tolist() == [0.3]
    p = [0.04, 0.01]
    np.testing.assert_allclose(adjust_pvalues(p, adjust="rom"), [0.04, 0.02])
    np.testing.assert_allclose(
        adjust_pvalues(p, adjust="rom"), adjust_pvalues(p, adjust="holm")
    )


def test_li_with_a_largest_pvalue_of_one_rejects_nothing():
    """H: Li's second step rejects nothing when the largest p-value is 1, so every
    adjusted p-value is 1 (also for a raw p-value of 0, where the formula is 0/0)."""
    assert adjust_pvalues([0.0, 0.2, 1.0], adjust="li").tolist() == [1.0, 1.0, 1.0]


@pytest.mark.parametrize("method", ["finner", "holland", "li", "rom"])
def test_new_adjustments_are_monotone_and_between_raw_and_bonferroni(method):
    """H: on random p-values each new adjustment is >= the raw p-value, <= 1, and
    preserves the order of the raw p-values."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        p = rng.uniform(0, 0.2, size=rng.integers(1, 12))
        adj = adjust_pvalues(p, adjust=method)
        assert np.all(adj >= p - 1e-15) and np.all(adj <= 1)
        order = np.argsort(p, kind="stable")
        assert np.all(np.diff(adj[order]) >= -1e-15)


def test_rom_alpha_is_validated():
    """H: Rom's `alpha` outside (0, 1) raises a ValueError naming it."""
    with pytest.raises(ValueError, match="`alpha`"):
        adjust_pvalues([0.1, 0.2, 0.3], adjust="rom", alpha=1.5)
