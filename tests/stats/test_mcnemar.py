"""Tests of sklearn_bench/stats/_mcnemar.py against R, statsmodels and seed 001."""

import math

import numpy as np
import pytest
from scipy import stats
from statsmodels.stats.contingency_tables import mcnemar as sm_mcnemar

from sklearn_bench.stats import error_rate_intervals, mcnemar_test

RTOL, ATOL = 1e-8, 1e-12


def error_rate_difference_ci(b, c, n, *, confidence_level=0.95):
    """The Quesenberry–Hurst interval of McNemar's test on ``n`` test cases."""
    return mcnemar_test(b, c, n=n).confidence_interval(confidence_level)


def close(a, b):
    return math.isclose(a, b, rel_tol=RTOL, abs_tol=ATOL)


@pytest.mark.parametrize("case_id", ["mcnemar_berrar_table2", "mcnemar_b5_c5"])
def test_mcnemar_matches_r(reference_cases, case_id):
    """H: statistic and p of all three forms equal R's mcnemar.test / binom.test."""
    # R: mcnemar.test(matrix(c(a, c, b, d), 2, 2), correct = FALSE / TRUE);
    #    binom.test(b, b + c)$p.value  (see cases.json notes)
    case = reference_cases[case_id]
    rows = case["expected"].get("rows", [case["expected"]])
    for row in rows:
        b, c = row["b"], row["c"]
        plain = mcnemar_test(b, c, correction=False)
        yates = mcnemar_test(b, c)
        exact = mcnemar_test(b, c, exact=True)
        assert close(plain.statistic, row["statistic_uncorrected"])
        assert close(plain.pvalue, row["p_value_uncorrected"])
        assert close(yates.statistic, row["statistic_yates"])
        assert close(yates.pvalue, row["p_value_yates"])
        assert close(exact.pvalue, row["p_value_exact_binomial"])


@pytest.mark.parametrize("b, c", [(3, 21), (13, 10), (0, 2), (14, 15), (7, 7)])
def test_mcnemar_matches_statsmodels(b, c):
    """H: agrees with statsmodels' mcnemar (chi2 with/without Yates, exact)."""
    table = [[10, b], [c, 10]]
    # statsmodels.stats.contingency_tables.mcnemar(table, exact=..., correction=...)
    sm_yates = sm_mcnemar(table, exact=False, correction=True)
    sm_plain = sm_mcnemar(table, exact=False, correction=False)
    sm_exact = sm_mcnemar(table, exact=True)
    # statsmodels does not floor |b - c| - 1 at 0 (b = c gives 1/(b+c)); R does.
    if b != c:
        assert mcnemar_test(b, c).statistic == pytest.approx(sm_yates.statistic, 1e-12)
        assert mcnemar_test(b, c).pvalue == pytest.approx(sm_yates.pvalue, 1e-12)
    assert mcnemar_test(b, c, correction=False).pvalue == pytest.approx(
        sm_plain.pvalue, rel=1e-12
    )
    # statsmodels' exact statistic is min(b, c); ours is b as R's binom.test
    assert mcnemar_test(b, c, exact=True).pvalue == pytest.approx(
        sm_exact.pvalue, rel=1e-12
    )
    assert mcnemar_test(b, c, exact=True).pvalue == pytest.approx(
        stats.binomtest(b, b + c).pvalue, rel=1e-12
    )


def test_mcnemar_no_discordant_pairs():
    """H: b + c = 0 gives the documented statistic 0 and p = 1 for every form."""
    for kwargs in ({}, {"correction": False}, {"exact": True}):
        res = mcnemar_test(0, 0, **kwargs)
        assert res.statistic == 0 and res.pvalue == 1


@pytest.mark.parametrize(
    "b, c, match",
    [(-1, 2, "`b`"), (1.5, 2, "`b`"), (1, None, "`c`"), (np.nan, 1, "`b`")],
)
def test_mcnemar_rejects_bad_counts(b, c, match):
    """H: negative, fractional, missing or NaN counts raise a ValueError naming them."""
    with pytest.raises(ValueError, match=match):
        mcnemar_test(b, c)


def test_qh_interval_unadjusted_matches_reference(reference_cases):
    """H: the signed interval is the paper's |p_b - p_c| interval, negated if b < c."""
    # Berrar & Lozano (2013) eqs. (4)-(5) coded in R (cases.json qh_ci_berrar_alpha05)
    for row in reference_cases["qh_ci_berrar_alpha05"]["expected"]["rows"]:
        ci = error_rate_difference_ci(row["b"], row["c"], 50, confidence_level=0.95)
        lower, upper = row["lower"], row["upper"]
        if row["b"] < row["c"]:
            lower, upper = -upper, -lower
        assert close(ci.low, lower) and close(ci.high, upper), row["pair"]
        # the centre is shrunk towards 0: n (p_b - p_c)/(n + chi2)
        sign = 1 if row["b"] >= row["c"] else -1
        assert close((ci.low + ci.high) / 2, sign * row["centre"])


def test_qh_interval_holm_levels_match_reference(reference_cases):
    """H: at each Holm level (both row orders) the interval equals R's values."""
    # cases.json qh_ci_berrar_holm: by_computed_rank and by_paper_table_order
    for row in reference_cases["qh_ci_berrar_holm"]["expected"]["rows"]:
        for key in ("by_computed_rank", "by_paper_table_order"):
            ref = row[key]
            ci = error_rate_difference_ci(
                row["b"], row["c"], 50, confidence_level=1 - ref["alpha"]
            )
            lower, upper = ref["lower"], ref["upper"]
            if row["b"] < row["c"]:
                lower, upper = -upper, -lower
            assert close(ci.low, lower) and close(ci.high, upper), (row["pair"], key)


def test_section8_intervals():
    """H: Holm-adjusted intervals of pairs (1,4) and (1,2) match Berrar Section 8."""
    table = error_rate_intervals(
        [3, 1, 4, 4, 2, 4, 13, 0, 11, 14],
        [21, 15, 20, 19, 14, 17, 10, 2, 15, 15],
        50,
        labels=["(1,4)", "(1,3)", "(2,4)", "(1,5)", "(2,3)"]
        + ["(2,5)", "(4,5)", "(1,2)", "(3,4)", "(3,5)"],
    )
    # paper, Sec. 8: (1,4) point estimate 0.31 (the shrunk centre), interval
    # [0.10, 0.54] read off Figure 4 -- computed [0.087, 0.535] (cases.json);
    # (1,2): [-0.03, 0.10]. Signed as err(1) - err(4) < 0, so negated here.
    low, high = table.loc["(1,4)", ["low", "high"]]
    assert (round(-high, 3), round(-low, 3)) == (0.087, 0.535)
    assert round(-(low + high) / 2, 2) == 0.31
    low, high = table.loc["(1,2)", ["low", "high"]]
    assert (round(-high, 2), round(-low, 2)) == (-0.03, 0.10)


def test_table2_reproduced(reference_cases):
    """H: error_rate_intervals reproduces every column of Berrar Table 2."""
    case = reference_cases["qh_ci_berrar_holm"]
    rows = case["expected"]["rows"]
    table = error_rate_intervals(
        case["input"]["b"], case["input"]["c"], 50, labels=case["input"]["pairs"]
    )
    # row order: decreasing Yates statistic (the paper's ranking, with (4,5) moved)
    expected_order = sorted(rows, key=lambda r: r["rank_by_statistic"])
    assert list(table.index) == [r["pair"] for r in expected_order]
    mc_rows = reference_cases["mcnemar_berrar_table2"]["expected"]["rows"]
    mc = {r["pair"]: r for r in mc_rows}
    for row in rows:
        got = table.loc[row["pair"]]
        ref = row["by_computed_rank"]
        assert (got["b"], got["c"]) == (row["b"], row["c"])
        assert close(got["statistic"], row["mcnemar_yates_statistic"])
        assert close(got["pvalue"], mc[row["pair"]]["p_value_yates"])
        assert close(got["exact_pvalue"], mc[row["pair"]]["p_value_exact_binomial"])
        assert close(got["alpha"], ref["alpha"])
        assert close(got["critical_value"], ref["chi2_crit"])
        sign = 1 if row["b"] >= row["c"] else -1
        assert close(got["estimate"], sign * ref["abs_diff"])
        lo, hi = sorted((sign * ref["lower"], sign * ref["upper"]))
        assert close(got["low"], lo) and close(got["high"], hi)

    # The paper's printed, rounded columns (Table 2). Its p-value column is
    # chi2.sf(X2 rounded to 1 decimal, 1): e.g. sf(12.0) = 5.3e-4 although the
    # unrounded 12.04 gives 5.2e-4, and (3,4): sf(0.3) = 0.58 (R: 0.556). Its row
    # (4,5) prints X2 = 0.7 (so p = sf(0.7) = 0.40) where b = 13, c = 10 give
    # 0.174: the one misprint, which also moved alpha/chi2 of three rows.
    printed = {
        "(1,4)": (12.0, 0.005, 7.9, 5.3e-4, 2.8e-4),
        "(1,3)": (10.6, 0.006, 7.7, 1.1e-3, 5.2e-4),
        "(2,4)": (9.4, 0.006, 7.5, 2.2e-3, 1.5e-3),
        "(1,5)": (8.5, 0.007, 7.2, 3.6e-3, 2.6e-3),
        "(2,3)": (7.6, 0.008, 7.0, 5.8e-3, 4.2e-3),
        "(2,5)": (6.9, 0.010, 6.6, 8.6e-3, 7.2e-3),
        "(1,2)": (0.5, None, None, 0.48, 0.50),
        "(3,4)": (0.3, None, None, 0.58, 0.56),
        "(3,5)": (0.0, 0.05, 3.8, None, None),
    }
    for pair, (x2, alpha, crit, p, p_exact) in printed.items():
        got = table.loc[pair]
        assert round(got["statistic"], 1) == x2, pair
        if alpha is not None:
            assert float(f"{got['alpha']:.1g}") == pytest.approx(alpha, abs=1e-3)
            assert round(got["critical_value"], 1) == crit
        if p is not None:
            p_from_rounded = stats.chi2.sf(round(got["statistic"], 1), 1)
            assert float(f"{p_from_rounded:.2g}") == pytest.approx(p, rel=1e-9)
            assert got["pvalue"] == pytest.approx(p, rel=0.05)  # unrounded: close
        if p_exact is not None:
            assert float(f"{got['exact_pvalue']:.2g}") == pytest.approx(
                p_exact, rel=1e-9
            )
    # the misprinted row: printed p = 0.40 follows from the printed X2 = 0.7
    assert float(f"{stats.chi2.sf(0.7, 1):.2g}") == 0.40
    assert round(table.loc["(4,5)", "statistic"], 3) == 0.174
    # the paper's "> 0.99" p-values of (3,5)
    assert table.loc["(3,5)", "pvalue"] > 0.99
    assert table.loc["(3,5)", "exact_pvalue"] > 0.99
    assert table.loc["(4,5)", "exact_pvalue"] == pytest.approx(0.68, abs=0.005)


def test_table_adjust_options():
    """H: Bonferroni gives alpha/m for every row and "none" leaves alpha unchanged;
    a 0.90 family gives alpha = 0.10 before the adjustment."""
    b, c = [3, 0, 13], [21, 2, 10]
    bonf = error_rate_intervals(b, c, 50, adjust="bonferroni")
    none = error_rate_intervals(b, c, 50, adjust="none")
    assert np.allclose(bonf["alpha"], 0.05 / 3)
    assert np.allclose(none["alpha"], 0.05)
    ci = error_rate_difference_ci(3, 21, 50, confidence_level=1 - 0.05 / 3)
    assert bonf.loc["0", "low"] == pytest.approx(ci.low, rel=1e-12)
    wide = error_rate_intervals(b, c, 50, adjust="none", confidence_level=0.9)
    assert np.allclose(wide["alpha"], 0.1)


def test_qh_interval_edge_cases():
    """H: b + c = 0 gives [0, 0]; b = c is symmetric about 0; bad n raises."""
    assert tuple(error_rate_difference_ci(0, 0, 10)) == (0.0, 0.0)
    ci = error_rate_difference_ci(5, 5, 10)
    assert ci.low == pytest.approx(-ci.high, abs=1e-15)
    # n = 1: the single case is discordant
    ci = error_rate_difference_ci(1, 0, 1)
    assert ci.low < 1 / (1 + stats.chi2.ppf(0.95, 1)) < ci.high
    with pytest.raises(ValueError, match="`n`"):
        error_rate_difference_ci(3, 4, 5)
    with pytest.raises(ValueError, match="`n`"):
        error_rate_difference_ci(0, 0, 0)
    with pytest.raises(ValueError, match="`confidence_level`"):
        error_rate_difference_ci(1, 2, 10, confidence_level=95)
    with pytest.raises(ValueError, match="`labels`"):
        error_rate_intervals([1, 2], [3, 4], 10, labels=["a"])
    with pytest.raises(ValueError, match="`adjust`"):
        error_rate_intervals([1, 2], [3, 4], 10, adjust="hommel")


def test_result_to_frame():
    """H: the McNemar result is a PairedTestResult: one row with the statistic and
    p, the counts in details, the interval and estimate only with the test-set
    size (NaN without it, and confidence_interval() says what is missing)."""
    res = mcnemar_test(3, 21)
    frame = res.to_frame()
    assert frame.shape[0] == 1 and frame.loc[0, "method"] == "mcnemar-chi2-yates"
    assert (res.details["b"], res.details["c"], res.n) == (3, 21, 24)
    assert math.isnan(frame.loc[0, "ci_low"]) and math.isnan(res.estimate)
    with pytest.raises(ValueError, match="pass `n`"):
        res.confidence_interval()
    frame = mcnemar_test(3, 21, n=50).to_frame()
    assert frame.loc[0, "estimate"] == pytest.approx(-18 / 50)
    assert frame.loc[0, "ci_high"] == pytest.approx(
        error_rate_difference_ci(3, 21, 50).high
    )
    assert mcnemar_test(3, 21, exact=True).method == "mcnemar-exact"
