"""Tests of quade_test, durbin_test and friedman_aligned_ranks_test (issue 24).

References: ``tests/reference/posthoc/rank_posthoc.R`` (R 4.2.2: R's
quade.test, PMCMRplus's durbinTest, scmamp's friedmanAlignedRanksTest and
quadeTest, a hand-coded aligned-ranks formula; output ``rank_posthoc.json``),
scikit-posthocs' test_durbin, and Conover's (1999) ice-cream example by hand.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sklearn_bench.stats import (
    durbin_test,
    friedman_aligned_ranks_test,
    friedman_test,
    quade_test,
)

REF = json.loads(
    (
        Path(__file__).parents[1] / "reference" / "posthoc" / "rank_posthoc.json"
    ).read_text()
)
CASES = REF["cases"]
RTOL = 1e-10
# ids of the tables whose aligned values or block ranges have exact ties
_TIED = {"gh2008", "gh2010", "ties_10x4"}


def _array(rows):
    return np.array([[np.nan if v is None else v for v in row] for row in rows], float)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_quade_matches_r_quade_test(case):
    """H: Quade's F and p-value equal R's quade.test, ties included, to 1e-10."""
    res = quade_test(_array(case["scores"]), greater_is_better=False)
    ref = case["quade_test"]
    assert res.statistic == pytest.approx(ref["statistic"], rel=RTOL)
    assert res.pvalue == pytest.approx(ref["pvalue"], rel=RTOL)
    assert res.df == (res.n_learners - 1, (res.n_blocks - 1) * (res.n_learners - 1))


@pytest.mark.parametrize(
    "case", [c for c in CASES if c["id"] not in _TIED], ids=lambda c: c["id"]
)
def test_quade_matches_scmamp_without_ties(case):
    """H: without ties Quade's F equals scmamp's quadeTest to 1e-10 (scmamp uses
    the untied formula for A, so it differs on tied tables; we follow R)."""
    res = quade_test(_array(case["scores"]), greater_is_better=False)
    assert res.statistic == pytest.approx(case["quade_scmamp"]["statistic"], rel=RTOL)


def test_quade_r_documentation_example_and_degenerate_blocks():
    """H: ?quade.test's example (Conover 1999, p. 375) gives F = 3.8293,
    p = 0.01519 (R prints); when every block ranks alike with equal ranges
    (A = B) F is NaN with R's p-value (k!)^(1 − N) and a note; when every block
    ties all learners there is no information: F = 0, p = 1 (R: (k!)^(1 − N))."""
    freq = [[5, 4, 7, 10, 12], [1, 3, 1, 0, 2], [16, 12, 22, 22, 35], [5, 4, 3, 5, 4],
            [10, 9, 7, 13, 10], [19, 18, 28, 37, 58], [10, 7, 6, 8, 7]]  # fmt: skip
    res = quade_test(freq, greater_is_better=False)
    assert round(res.statistic, 4) == 3.8293 and round(res.pvalue, 5) == 0.01519
    same = quade_test([[1, 2, 3], [2, 3, 4], [0, 1, 2]], greater_is_better=False)
    assert np.isnan(same.statistic) and same.pvalue == pytest.approx(6.0**-2)
    assert "undefined" in same.notes[0]
    tied = quade_test(
        [[1, 1, 1], [2, 2, 2], [3, 3, 3]], greater_is_better=False
    )  # R: (k!)^(1 - N)
    assert tied.statistic == 0.0 and tied.pvalue == 1.0 and "ties" in tied.notes[0]


@pytest.mark.parametrize("name", ["icecream", "bibd_4_3_8"])
def test_durbin_matches_pmcmrplus_and_scikit_posthocs(name):
    """H: Durbin's T1 and its chi2 p-value equal PMCMRplus's durbinTest (R) to
    1e-10, and scikit-posthocs' test_durbin on the same design in long form."""
    case = REF["durbin"][name]
    y = _array(case["scores"])
    res = durbin_test(y, greater_is_better=False)
    assert res.statistic == pytest.approx(case["statistic"], rel=RTOL)
    assert res.pvalue == pytest.approx(case["pvalue"], rel=RTOL)
    sp = pytest.importorskip("scikit_posthocs")
    rows, cols = np.nonzero(~np.isnan(y))
    long = pd.DataFrame({"y": y[rows, cols], "g": cols, "b": rows})
    p, stat, df = sp.test_durbin(
        long, y_col="y", group_col="g", block_col="b", block_id_col="b", melted=True
    )
    assert res.statistic == pytest.approx(stat, rel=RTOL)
    assert res.pvalue == pytest.approx(p, rel=RTOL) and res.df == (df,)


def test_durbin_ice_cream_by_hand():
    """H: Conover's (1999) ice-cream BIBD (t = b = 7, k = r = 3, λ = 1): rank sums
    8, 9, 4, 3, 5, 6, 7, A = 98, C = 84, so T1 = 6 · 28 / 14 = 12 and
    T2 = (12 / 6) / ((14 − 12) / 8) = 8 with F(6, 8), as computed by hand."""
    res = durbin_test(
        _array(REF["durbin"]["icecream"]["scores"]), greater_is_better=False
    )
    assert res.statistic == pytest.approx(12.0, rel=1e-12)
    assert res.f_statistic == pytest.approx(8.0, rel=1e-12) and res.f_df == (6, 8)
    np.testing.assert_allclose(
        res.learner_scores.to_numpy(), np.array([8, 9, 4, 3, 5, 6, 7]) / 3
    )
    assert "lambda = 1" in res.method


def test_durbin_with_complete_blocks_is_friedman():
    """H: with every learner in every block Durbin's T1 is Friedman's
    tie-corrected chi2_F (same ranks, same formula), ties included."""
    rng = np.random.default_rng(2)
    y = rng.integers(0, 4, size=(9, 4)).astype(float)
    assert durbin_test(y, greater_is_better=False).statistic == pytest.approx(
        friedman_test(y, exact=False, greater_is_better=False).statistic, rel=1e-12
    )


def test_durbin_refuses_unbalanced_designs():
    """H: unequal block sizes, unequal replication or unequal pair counts raise a
    ValueError that says the design is not a BIBD and names skillings_mack_test."""
    nan = np.nan
    with pytest.raises(ValueError, match="different numbers of learners"):
        durbin_test([[1, 2, nan], [1, 2, 3], [nan, 1, 2]], greater_is_better=False)
    with pytest.raises(ValueError, match="appear in different numbers"):
        durbin_test([[1, 2, nan], [1, 2, nan], [nan, 1, 2]], greater_is_better=False)
    with pytest.raises(ValueError, match="share different numbers"):
        # 4 learners in blocks of 2, each twice, but pairs meet 0 or 2 times
        durbin_test([[1, 2, nan, nan], [1, 2, nan, nan], [nan, nan, 1, 2],
                     [nan, nan, 1, 2]], greater_is_better=False)  # fmt: skip
    with pytest.raises(ValueError, match="holds 1 learner"):
        durbin_test([[1, nan], [1, 2]], greater_is_better=False)


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_aligned_ranks_match_hand_formula_and_scmamp(case):
    """H: the aligned-ranks T and p-value equal the formula of García et al.
    (2010) coded by hand in R to 1e-10 on every table, and scmamp's
    friedmanAlignedRanksTest on tables without exact ties in the aligned values
    (scmamp ranks those ties by floating-point noise)."""
    res = friedman_aligned_ranks_test(_array(case["scores"]), greater_is_better=True)
    hand = case["aligned_by_hand"]
    assert res.statistic == pytest.approx(hand["statistic"], rel=RTOL)
    assert res.pvalue == pytest.approx(hand["pvalue"], rel=RTOL)
    if case["id"] not in _TIED:
        scmamp = case["aligned_scmamp"]
        assert res.statistic == pytest.approx(scmamp["statistic"], rel=RTOL)
        assert res.pvalue == pytest.approx(scmamp["pvalue"], rel=RTOL)


def test_aligned_ranks_direction_median_and_small_example():
    """H: T does not depend on the direction (ranks reversed); the average aligned
    ranks do (they sum to (kN + 1) k / 2); median alignment subtracts medians; a
    2 x 2 table by hand: aligned (−.5, .5, −1, 1) ranks 2, 3, 1, 4 (lower better)
    give rank sums 3, 7 and T = 1 · (9 + 49 − 2·4/4·25) / (4·5·9/6 − (25 + 25)/2)
    = 8 / 5."""
    rng = np.random.default_rng(4)
    y = rng.normal(size=(7, 3))
    lo = friedman_aligned_ranks_test(y, greater_is_better=False)
    hi = friedman_aligned_ranks_test(y, greater_is_better=True)
    assert lo.statistic == pytest.approx(hi.statistic, rel=1e-12)
    assert lo.learner_scores.sum() == pytest.approx((3 * 7 + 1) * 3 / 2)
    assert friedman_aligned_ranks_test(
        [[0, 1], [0, 2]], greater_is_better=False
    ).statistic == pytest.approx(1.6)
    med = friedman_aligned_ranks_test(y, alignment="median", greater_is_better=False)
    assert "median" in med.method
    with pytest.raises(ValueError, match="`alignment`"):
        friedman_aligned_ranks_test(y, alignment="mode", greater_is_better=False)


def test_block_rank_results_state_hypotheses_and_serialise():
    """H: every result states H0, has plain-data to_dict/to_frame and is frozen."""
    rng = np.random.default_rng(0)
    y = pd.DataFrame(rng.normal(size=(6, 3)), columns=["a", "b", "c"])
    for res in (
        quade_test(y, greater_is_better=False),
        friedman_aligned_ranks_test(y, greater_is_better=False),
    ):
        assert res.null_hypothesis.startswith("H0:")
        assert json.dumps(res.to_dict())
        assert len(res.to_frame()) == 1
        with pytest.raises(AttributeError):
            res.statistic = 0.0
