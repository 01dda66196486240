"""Tests of sklearn_bench/stats/_skillings_mack.py against the CRAN package
Skillings.Mack and a hand-coded R version of Skillings & Mack (1981).

Reference values: ``tests/stats/reference/skillings_mack.R`` (output
``skillings_mack.json`` beside it).
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import (
    BlockTestResult,
    friedman_test,
    skillings_mack_test,
)

RTOL = 1e-8
REF = json.loads(
    (Path(__file__).parent / "reference" / "skillings_mack.json").read_text("utf-8")
)
CASES = {c["name"]: c for c in REF["cases"]}


def _scores(case):
    return np.array(
        [[np.nan if v is None else v for v in row] for row in case["scores"]]
    )


@pytest.mark.parametrize("name", list(CASES))
def test_matches_r_package_and_hand_coded_r(name):
    """H: SM, its df, χ² p-value and adjusted rank sums equal Skillings.Mack's."""
    # R: Ski.Mack(t(scores)) (CRAN Skillings.Mack); hand-coded eqs. (2.1)-(2.4)
    case = CASES[name]
    res = skillings_mack_test(_scores(case), greater_is_better=False)
    assert isinstance(res, BlockTestResult)
    assert res.statistic == pytest.approx(case["statistic"], rel=RTOL)
    assert res.df == (case["df"],)
    assert res.pvalue == pytest.approx(case["pvalue"], rel=RTOL)
    np.testing.assert_allclose(
        res.learner_scores, case["adjusted_sums"], rtol=RTOL, atol=1e-12
    )


def test_paper_table1_value():
    """H: Skillings & Mack's (1981) Table 1 example gives SM = 15.493 on 3 df."""
    res = skillings_mack_test(
        _scores(CASES["skillings_mack_1981_table1"]), greater_is_better=False
    )
    assert round(res.statistic, 3) == 15.493 and res.df == (3,)
    assert res.n_missing == 4 and res.n_blocks == 9


def test_complete_design_is_friedman():
    """H: without missing cells or ties SM equals Friedman's χ²_F (scipy and ours)."""
    scores = _scores(CASES["complete_10x4"])
    res = skillings_mack_test(scores, greater_is_better=False)
    assert res.statistic == pytest.approx(
        stats.friedmanchisquare(*scores.T).statistic, rel=1e-10
    )
    assert res.statistic == pytest.approx(
        friedman_test(scores, greater_is_better=False).statistic, rel=1e-10
    )
    assert res.statistic == pytest.approx(
        CASES["complete_10x4"]["friedman_uncorrected"]
    )


def test_direction_only_flips_rank_sums_and_blocks_with_one_learner_drop():
    """H: greater_is_better flips A's sign, not SM; a one-learner block is dropped
    and named, leaving SM unchanged."""
    scores = pd.DataFrame(_scores(CASES["random_15x6"]))
    low = skillings_mack_test(scores, greater_is_better=False)
    high = skillings_mack_test(scores, greater_is_better=True)
    assert high.statistic == pytest.approx(low.statistic, rel=1e-12)
    np.testing.assert_allclose(high.learner_scores, -low.learner_scores)
    extra = pd.concat([scores, pd.DataFrame([[0.3] + [np.nan] * 5], index=["lonely"])])
    res = skillings_mack_test(extra, greater_is_better=False)
    assert res.dropped_blocks == ("lonely",)
    assert res.statistic == pytest.approx(low.statistic, rel=1e-12)


def test_monte_carlo_pvalue_agrees_with_enumeration_size():
    """H: under H0 (uniform random scores) the Monte Carlo p-value is near the
    χ² one for a moderate design, and has a standard error."""
    scores = _scores(CASES["random_20x5_ties"])
    res = skillings_mack_test(
        scores, n_resamples=4000, random_state=0, greater_is_better=False
    )
    assert res.pvalue_standard_error > 0
    chi2 = skillings_mack_test(scores, greater_is_better=False)
    assert abs(res.pvalue - chi2.pvalue) < 4 * res.pvalue_standard_error + 0.01
    assert res.statistic == chi2.statistic and chi2.pvalue_standard_error == 0
    again = skillings_mack_test(
        scores, n_resamples=4000, random_state=0, greater_is_better=False
    )
    assert again.pvalue == res.pvalue


def test_monte_carlo_pvalue_is_exact_on_a_tiny_design():
    """H: the Monte Carlo p-value converges to the exact permutation p-value."""
    scores = np.array([[1.0, 2.0, np.nan], [1.0, np.nan, 3.0], [np.nan, 1.0, 2.0],
                       [1.0, 2.0, 3.0]])  # fmt: skip
    res = skillings_mack_test(scores, greater_is_better=False)
    # exact: enumerate the 2 * 2 * 2 * 6 = 48 within-block permutations
    from itertools import permutations, product

    rows = [np.array(r) for r in scores]
    perms = [[r.copy() for r in rows] for _ in range(1)]
    del perms
    options = []
    for r in rows:
        present = np.flatnonzero(~np.isnan(r))
        opts = []
        for p in permutations(r[present]):
            new = r.copy()
            new[present] = p
            opts.append(new)
        options.append(opts)
    sms = [
        skillings_mack_test(np.array(c), greater_is_better=False).statistic
        for c in product(*options)
    ]
    exact = np.mean(np.array(sms) >= res.statistic - 1e-9)
    mc = skillings_mack_test(
        scores, n_resamples=20000, random_state=1, greater_is_better=False
    )
    assert abs(mc.pvalue - exact) < 4 * mc.pvalue_standard_error


def test_bad_inputs():
    """H: one usable block, one learner, bad n_resamples raise ValueError."""
    with pytest.raises(ValueError, match="at least 2 blocks"):
        skillings_mack_test([[1.0, 2.0], [np.nan, 1.0]], greater_is_better=False)
    with pytest.raises(ValueError, match="at least 2 learners"):
        skillings_mack_test([[1.0], [2.0]], greater_is_better=False)
    with pytest.raises(ValueError, match="`n_resamples`"):
        skillings_mack_test(
            [[1.0, 2.0], [2.0, 1.0]], n_resamples=0, greater_is_better=False
        )
