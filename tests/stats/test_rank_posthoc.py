"""Tests of the Friedman-type post-hocs of ``pairwise_tests`` (issue 24):
Conover, Siegel, Miller, Quade, Nemenyi and the exact rank-sum differences of
Eisinga et al. (2017), in sklearn_bench/stats/_rank_posthoc.py.

References: PMCMRplus's R code run by ``tests/reference/posthoc/rank_posthoc.R``
(output ``rank_posthoc.json``), scikit-posthocs 0.17 in-process, and brute-force
enumeration of every ranking for tiny k and N.
"""

import itertools
import json
from collections import Counter
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import pairwise_tests
from sklearn_bench.stats._rank_posthoc import (
    eisinga_pvalue,
    exact_ranksum_pvalues,
    ranksum_difference_distribution,
)

REF = json.loads(
    (
        Path(__file__).parents[1] / "reference" / "posthoc" / "rank_posthoc.json"
    ).read_text()
)
CASES = REF["cases"]
# R's ptukey is good to about 1e-8 in the tail (R's documentation); scipy's
# studentized_range, which we use, to ~1e-12: Nemenyi vs PMCMRplus at 1e-7.
RTOL, RTOL_PTUKEY = 1e-10, 1e-7


def _adjusted(scores, method, adjust=None):
    res = pairwise_tests(
        np.array(scores, float), method=method, adjust=adjust, greater_is_better=False
    )
    return res.to_frame()["pvalue_adjusted"].to_numpy()


_PMCMR = [
    ("conover", "none", "conover_none"),
    ("conover", "holm", "conover_holm"),
    ("siegel", "none", "siegel_none"),
    ("siegel", "holm", "siegel_holm"),
    ("quade", "none", "quade_none"),
    ("quade", "holm", "quade_holm"),
    ("miller", None, "miller"),
    ("nemenyi", None, "nemenyi"),
    # PMCMRplus's exact test assumes no ties: only the untied cases have it
    ("exact_ranksum", "none", "exact_none"),
]


@pytest.mark.parametrize(
    "case, method, adjust, key",
    [(c, *m) for c in CASES for m in _PMCMR if m[2] in c],
    ids=lambda v: v["id"] if isinstance(v, dict) else str(v),
)
def test_rank_posthocs_match_pmcmrplus(case, method, adjust, key):
    """H: each post-hoc's (adjusted) p-values equal PMCMRplus's
    frdAllPairs{Conover,Siegel,Miller,Nemenyi,Exact}Test / quadeAllPairsTest
    (t distribution) on data with and without ties, García & Herrera's 2008 and
    García et al.'s 2010 tables, to rtol 1e-10 (Nemenyi 1e-7: R's ptukey)."""
    rtol = RTOL_PTUKEY if method == "nemenyi" else RTOL
    got = _adjusted(case["scores"], method, adjust)
    np.testing.assert_allclose(got, case[key], rtol=rtol, atol=1e-300)


def _sp_upper(matrix):
    m = np.asarray(matrix)
    i, j = np.triu_indices(m.shape[0], 1)
    return m[i, j]


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
@pytest.mark.parametrize("adjust", [None, "holm"])
def test_rank_posthocs_match_scikit_posthocs(case, adjust):
    """H: Conover, Siegel, Quade (t), Miller and Nemenyi equal scikit-posthocs'
    posthoc_conover_friedman, posthoc_siegel_friedman, posthoc_quade,
    posthoc_miller_friedman and posthoc_nemenyi_friedman to rtol 1e-10."""
    sp = pytest.importorskip("scikit_posthocs")
    y = np.array(case["scores"], float)
    ours = "none" if adjust is None else adjust
    pairs = [
        ("conover", ours, sp.posthoc_conover_friedman(y, p_adjust=adjust)),
        ("siegel", ours, sp.posthoc_siegel_friedman(y, p_adjust=adjust)),
        ("quade", ours, sp.posthoc_quade(y, p_adjust=adjust)),
    ]
    if adjust is None:
        pairs += [
            ("miller", None, sp.posthoc_miller_friedman(y)),
            ("nemenyi", None, sp.posthoc_nemenyi_friedman(y)),
        ]
    for method, our_adjust, theirs in pairs:
        np.testing.assert_allclose(
            _adjusted(y, method, our_adjust),
            _sp_upper(theirs),
            rtol=RTOL,
            err_msg=method,
        )


def test_exact_pvalues_match_pexactfrsd_and_eisinga_example_1():
    """H: Eisinga et al.'s exact P(|D| >= d) equals PMCMRplus's pexactfrsd (Rmpfr,
    2048 bits) over a grid of d, k, n to rtol 1e-10, both by the closed form and
    by our convolution; d = k = n = 100 gives the paper's Example 1, 0.8085251."""
    for e in REF["exact"]:
        k, n = e["k"], e["n"]
        ranks = np.tile(np.arange(1.0, k + 1), (n, 1))
        conv = exact_ranksum_pvalues(ranks, np.array(e["d"], float))
        closed = [eisinga_pvalue(d, k, n) for d in e["d"]]
        np.testing.assert_allclose(closed, e["pvalue"], rtol=RTOL, atol=1e-300)
        np.testing.assert_allclose(conv, e["pvalue"], rtol=RTOL, atol=1e-300)
    assert round(eisinga_pvalue(100, 100, 100), 7) == 0.8085251


def _brute_force_tail(ranks, d):
    """P(|R*_0 − R*_1| >= |d|) over every arrangement of every block's ranks."""
    counts = Counter()
    per_block = [sorted(set(itertools.permutations(row))) for row in ranks]
    total = 0
    for config in itertools.product(*per_block):
        counts[sum(r[0] - r[1] for r in config)] += 1
        total += 1
    return sum(v for key, v in counts.items() if abs(key) >= abs(d) - 1e-9) / total


@pytest.mark.parametrize("k, n", [(2, 4), (3, 3), (4, 2), (3, 4), (5, 2)])
def test_exact_distribution_is_brute_force_enumeration(k, n):
    """H: without ties the exact p-value of every attainable d equals the
    enumeration of all (k!)^N rankings, to 1e-13."""
    ranks = np.tile(np.arange(1.0, k + 1), (n, 1))
    for d in range(n * (k - 1) + 1):
        brute = _brute_force_tail(ranks.tolist(), d)
        assert exact_ranksum_pvalues(ranks, np.array([d]))[0] == pytest.approx(
            brute, rel=1e-13
        )
        assert eisinga_pvalue(d, k, n) == pytest.approx(brute, rel=1e-13)


@pytest.mark.parametrize("seed", range(6))
def test_exact_with_ties_is_the_conditional_permutation_distribution(seed):
    """H: with tied mid-ranks the p-value equals the enumeration of all distinct
    arrangements of each block's observed mid-ranks (the permutation
    distribution given the ties), for every pair of a random tied table."""
    rng = np.random.default_rng(seed)
    scores = rng.integers(0, 3, size=(3, 4)).astype(float)
    res = pairwise_tests(
        scores, method="exact_ranksum", adjust="none", greater_is_better=False
    ).to_frame()
    ranks = stats.rankdata(scores, axis=1)
    for row in res.itertuples():
        # every pair has the same null distribution: use learners 0 and 1
        brute = _brute_force_tail(ranks.tolist(), row.statistic)
        assert row.pvalue == pytest.approx(brute, rel=1e-12)


def test_exact_tiny_tails_are_exact():
    """H: a tail near float64's smallest numbers (k = 5, N = 300, d = 1140,
    P ~ 1e-304, where float convolution would lose digits to subnormals) equals
    the exact closed form to 1e-10; the largest d gives 2 / 20^300 ~ 1e-390,
    below float64, so 0.0; d = 0 gives 1; the convolution sums to 1."""
    k, n = 5, 300
    ranks = np.tile(np.arange(1.0, k + 1), (n, 1))
    _, prob = ranksum_difference_distribution(ranks)
    assert prob.sum() == pytest.approx(1.0, rel=1e-12)
    p = exact_ranksum_pvalues(ranks, np.array([1140.0, n * (k - 1), 0.0]))
    assert p[0] == pytest.approx(eisinga_pvalue(1140, k, n), rel=1e-10)
    assert 1e-305 < p[0] < 1e-303 and p[1] == 0.0 and p[2] == 1.0


def test_nemenyi_equals_friedman_posthoc_and_rank_methods_ignore_direction():
    """H: FriedmanResult.posthoc is pairwise_tests on the same scores, the same
    table to the last bit, for every rank method, all pairs or against a
    control (one implementation, one result class); the two-sided
    rank post-hocs do not depend on greater_is_better (ranks reversed), while the
    average ranks and the estimate flip."""
    from sklearn_bench.stats import friedman_test

    rng = np.random.default_rng(3)
    y = pd.DataFrame(rng.normal(size=(15, 4)), columns=list("abcd"))
    fr = friedman_test(y, greater_is_better=False)
    for method in ["nemenyi", "siegel", "miller", "conover", "quade", "exact_ranksum"]:
        for adjust, control in [(None, None), ("holm", None), ("bonferroni", "c")]:
            if method in ("nemenyi", "miller") and adjust is not None:
                continue
            kwargs = {"method": method, "adjust": adjust, "control": control}
            ours = pairwise_tests(y, greater_is_better=False, **kwargs)
            theirs = fr.posthoc(**kwargs)
            pd.testing.assert_frame_equal(ours.to_frame(), theirs.to_frame())
            assert (ours.adjust, ours.control) == (theirs.adjust, theirs.control)
    for method in ["conover", "siegel", "quade", "exact_ranksum", "miller"]:
        lo = pairwise_tests(y, method=method, greater_is_better=False).to_frame()
        hi = pairwise_tests(y, method=method, greater_is_better=True).to_frame()
        np.testing.assert_allclose(lo["pvalue"], hi["pvalue"], rtol=1e-12)
        np.testing.assert_allclose(lo["estimate"], -hi["estimate"], rtol=1e-12)


def test_rank_posthoc_arguments_and_degenerate_data():
    """H: single-step goes with Nemenyi/Miller only; missing='pairwise' is refused
    for rank post-hocs; Conover and Quade on perfectly concordant blocks raise
    (zero residual variance), while the exact test gives its smallest p."""
    y = np.array([[1, 2, 3], [1, 2, 3], [1, 2, 3], [1, 2, 3]], float)
    rng = np.random.default_rng(0)
    with pytest.raises(ValueError, match="single_step"):
        pairwise_tests(
            rng.random((6, 3)), method="nemenyi", adjust="holm", greater_is_better=False
        )
    with pytest.raises(ValueError, match="single_step"):
        pairwise_tests(
            rng.random((6, 3)),
            method="siegel",
            adjust="single_step",
            greater_is_better=False,
        )
    with pytest.raises(ValueError, match="`missing`"):
        pairwise_tests(
            rng.random((6, 3)),
            method="conover",
            missing="pairwise",
            greater_is_better=False,
        )
    for method in ["conover", "quade"]:
        with pytest.raises(ValueError, match="undefined"):
            pairwise_tests(y, method=method, greater_is_better=False)
    res = pairwise_tests(
        y, method="exact_ranksum", adjust="none", greater_is_better=False
    ).to_frame()
    # learners 0 and 2: d = -8 = -N (k - 1), P(|D| >= 8) = 2 / 6^4
    assert res.loc[1, "pvalue"] == pytest.approx(2 / 6**4, rel=1e-13)


def test_rank_posthoc_frame_and_hypothesis():
    """H: the frame holds one row per pair with the average-rank difference as
    estimate, no interval, and the null hypothesis names Friedman's null."""
    rng = np.random.default_rng(1)
    y = pd.DataFrame(rng.normal(size=(8, 3)), columns=["x", "y", "z"])
    res = pairwise_tests(y, method="conover", adjust="finner", greater_is_better=False)
    frame = res.to_frame()
    assert list(frame["learner_i"]) == ["x", "x", "y"]
    assert frame["ci_low"].isna().all() and frame["effect_size"].isna().all()
    avg = res.average_ranks
    assert frame.loc[0, "estimate"] == pytest.approx(avg["x"] - avg["y"])
    assert "exchangeable" in res.null_hypothesis and res.method == "conover"
    assert res.adjust == "finner"


@pytest.mark.parametrize("case", CASES, ids=lambda c: c["id"])
def test_friedman_family_matches_scmamp(case):
    """H: scmamp's friedmanTest and imanDavenportTest (Demšar's formulas, no tie
    correction, χ² p-value) equal friedman_test(tie_correction=False, exact=False)
    to 1e-10, its friedmanPost raw p-values equal FriedmanResult.posthoc's, and its
    getNemenyiCD, which takes the studentized range with k (N − 1) df where Demšar
    (and we) take infinite df, is reproduced with that df to 1e-7 (R's qtukey) and
    is larger than our critical difference."""
    from sklearn_bench.stats import friedman_test

    y = np.array(case["scores"], float)
    n, k = y.shape
    res = friedman_test(y, tie_correction=False, exact=False, greater_is_better=False)
    ref = case["scmamp_friedman"]
    assert res.statistic == pytest.approx(ref["statistic"], rel=RTOL)
    assert res.pvalue == pytest.approx(ref["pvalue"], rel=RTOL, abs=1e-15)
    ref = case["scmamp_iman_davenport"]
    assert res.iman_davenport_statistic == pytest.approx(ref["statistic"], rel=RTOL)
    assert res.iman_davenport_pvalue == pytest.approx(
        ref["pvalue"], rel=1e-8, abs=1e-15
    )
    np.testing.assert_allclose(
        res.posthoc(method="siegel", adjust="holm").to_frame()["pvalue"],
        case["scmamp_friedman_post"],
        rtol=RTOL,
        atol=1e-15,
    )
    se = np.sqrt(k * (k + 1) / (6.0 * n))
    scmamp_cd = stats.studentized_range.ppf(0.95, k, k * (n - 1)) / np.sqrt(2) * se
    assert scmamp_cd == pytest.approx(case["scmamp_nemenyi_cd"], rel=1e-7)
    assert res.critical_difference() < case["scmamp_nemenyi_cd"]
