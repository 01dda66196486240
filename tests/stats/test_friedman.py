"""Tests of sklearn_bench/stats/_friedman.py: R (cases.json) and Demšar (2006)."""

import itertools
import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import FriedmanResult, friedman_test


def critical_difference(k, n, **kwargs):
    """The critical difference of k learners over n blocks (it needs no data)."""
    return FriedmanResult.from_average_ranks(
        np.arange(1, k + 1), n
    ).critical_difference(**kwargs)


RTOL = 1e-8
FRIEDMAN_CASES = [
    "friedman_demsar_table6_auc",
    "friedman_demsar_table6_printed_ranks",
    "friedman_random_10x5_no_ties",
]


def _case_frame(case):
    inp = case["input"]
    return pd.DataFrame(inp["scores"], columns=inp["learners"], index=inp["datasets"])


@pytest.mark.parametrize("case_id", FRIEDMAN_CASES)
@pytest.mark.parametrize("as_array", [False, True])
def test_friedman_matches_r(reference_cases, case_id, as_array):
    """H: χ²_F, p, average ranks and Iman–Davenport F equal R's friedman.test."""
    # R 4.2.2: friedman.test(scores); hand formulas in R for Demsar / Iman-Davenport.
    case = reference_cases[case_id]
    exp = case["expected"]
    frame = _case_frame(case)
    scores = frame.to_numpy() if as_array else frame
    higher = case["input"]["higher_is_better"]
    res = friedman_test(scores, greater_is_better=higher, exact=False)
    assert isinstance(res, FriedmanResult) and res.null_distribution == "chi2"
    assert res.n_blocks == exp["N"] and res.n_learners == exp["k"]
    assert res.statistic == pytest.approx(exp["chi2_friedman_R"], rel=RTOL)
    assert res.pvalue == pytest.approx(exp["p_value_R"], rel=RTOL)
    id_ = exp["iman_davenport"]
    assert res.iman_davenport_statistic == pytest.approx(id_["F_from_R_chi2"], rel=RTOL)
    assert res.iman_davenport_pvalue == pytest.approx(id_["p_from_R_chi2"], rel=RTOL)
    assert res.df == (id_["df1"], id_["df2"])
    expected_ranks = list(exp["average_ranks"].values())
    np.testing.assert_allclose(res.average_ranks.to_numpy(), expected_ranks, rtol=RTOL)
    if not as_array:
        assert list(res.average_ranks.index) == list(exp["average_ranks"])

    plain = friedman_test(
        scores, greater_is_better=higher, tie_correction=False, exact=False
    )
    assert plain.statistic == pytest.approx(exp["chi2_friedman_demsar"], rel=RTOL)
    assert plain.pvalue == pytest.approx(exp["p_value_demsar"], rel=RTOL)
    assert plain.iman_davenport_statistic == pytest.approx(
        id_["F_from_demsar_chi2"], rel=RTOL
    )
    assert plain.iman_davenport_pvalue == pytest.approx(
        id_["p_from_demsar_chi2"], rel=RTOL
    )


@pytest.mark.parametrize("case_id", FRIEDMAN_CASES)
def test_critical_differences_match_r(reference_cases, case_id):
    """H: Nemenyi and Bonferroni–Dunn CDs equal R's ptukey/qnorm values to 1e-8."""
    # R: q = uniroot(ptukey(q, k, Inf) - (1 - alpha), tol = 1e-14)$root / sqrt(2);
    # CD = q * sqrt(k (k + 1) / (6 N)); Bonferroni-Dunn q = qnorm(1 - alpha/(2(k-1))).
    exp = reference_cases[case_id]["expected"]
    k, n = exp["k"], exp["N"]
    res = friedman_test(_case_frame(reference_cases[case_id]), greater_is_better=False)
    for alpha, key in [(0.05, "CD_05"), (0.10, "CD_10")]:
        nemenyi = exp["nemenyi"][key]
        assert critical_difference(k, n, alpha=alpha) == pytest.approx(
            nemenyi, rel=RTOL
        )
        assert res.critical_difference(alpha=alpha) == pytest.approx(nemenyi, rel=RTOL)
        bd = exp["bonferroni_dunn"][key]
        assert critical_difference(
            k, n, alpha=alpha, method="bonferroni-dunn"
        ) == pytest.approx(bd, rel=RTOL)


@pytest.mark.parametrize("case_id", FRIEDMAN_CASES)
def test_posthoc_all_pairs_matches_r(reference_cases, case_id):
    """H: all-pairs z, raw p, Nemenyi p and Holm p equal R's ptukey / p.adjust."""
    # R: z = (R_i - R_j)/se; p = 2*pnorm(-|z|); ptukey(|z|*sqrt(2), k, Inf, lower=F);
    # p.adjust(p, "holm") over the k(k-1)/2 pairs in order (1,2),(1,3),...
    case = reference_cases[case_id]
    exp = pd.DataFrame(case["expected"]["all_pairs"])
    res = friedman_test(
        _case_frame(case), greater_is_better=case["input"]["higher_is_better"]
    )
    nemenyi = res.posthoc(method="nemenyi").to_frame()
    holm = res.posthoc(method="siegel", adjust="holm").to_frame()
    assert list(nemenyi["learner_i"]) == list(exp["learner_i"])
    assert list(nemenyi["learner_j"]) == list(exp["learner_j"])
    for col, ref in [("estimate", "rank_difference"), ("statistic", "z")]:
        np.testing.assert_allclose(holm[col], exp[ref], rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(nemenyi["statistic"], np.sqrt(2) * exp["z"].abs())
    np.testing.assert_allclose(nemenyi["pvalue"], exp["p_value"], rtol=RTOL)
    np.testing.assert_allclose(nemenyi["pvalue_adjusted"], exp["p_nemenyi"], rtol=RTOL)
    np.testing.assert_allclose(
        holm["pvalue_adjusted"], exp["p_holm_all_pairs"], rtol=RTOL
    )


@pytest.mark.parametrize("case_id", FRIEDMAN_CASES)
@pytest.mark.parametrize("method", ["holm", "hochberg", "bonferroni"])
def test_posthoc_vs_control_matches_r(reference_cases, case_id, method):
    """H: comparisons with a control give R's z, raw p and p.adjust'ed p-values."""
    # R: z = (R_i - R_control)/se, p = 2*pnorm(-|z|), p.adjust(p, method) over k - 1.
    case = reference_cases[case_id]
    exp = pd.DataFrame(case["expected"]["vs_control"])
    control = case["input"]["control"]
    res = friedman_test(
        _case_frame(case), greater_is_better=case["input"]["higher_is_better"]
    )
    table = res.posthoc(method="siegel", adjust=method, control=control).to_frame()
    assert list(table["learner_i"]) == list(exp["learner"])
    assert set(table["learner_j"]) == {control}
    np.testing.assert_allclose(table["statistic"], exp["z"], rtol=RTOL, atol=1e-12)
    np.testing.assert_allclose(table["pvalue"], exp["p_value"], rtol=RTOL)
    np.testing.assert_allclose(table["pvalue_adjusted"], exp[f"p_{method}"], rtol=RTOL)
    if method == "holm":
        for alpha, key in [(0.05, "holm_reject_05"), (0.10, "holm_reject_10")]:
            assert list(table["pvalue_adjusted"] <= alpha) == list(exp[key])


def test_demsar_published_numbers(reference_table):
    """H: Demšar's printed rank table gives χ²_F 9.28, F_F 3.69, CDs and Holm z."""
    # Demsar (2006), Section 3.2.4 and Table 6 (rank rows as printed there).
    auc = reference_table("demsar2006_table6_auc.csv")
    ranks = friedman_test(auc, greater_is_better=True).ranks
    # The printed ranks differ from the rounded table only on "voting" (2 and 3).
    ranks.loc["voting", ["C4.5+cf", "C4.5+m+cf"]] = [2.0, 3.0]
    res = friedman_test(ranks, tie_correction=False, greater_is_better=False)
    np.testing.assert_allclose(
        res.average_ranks, [3.143, 2.000, 2.893, 1.964], atol=5e-4
    )
    assert round(res.statistic, 2) == 9.28
    assert round(res.iman_davenport_statistic, 2) == 3.69
    assert round(res.critical_difference(alpha=0.05), 2) == 1.25
    assert round(res.critical_difference(alpha=0.10), 2) == 1.12
    # The paper prints 1.16; q = 2.394 * 0.488 = 1.168 (Demsar truncates).
    assert res.critical_difference(
        alpha=0.05, method="bonferroni-dunn"
    ) == pytest.approx(1.16, abs=0.01)
    holm = res.posthoc(method="siegel", adjust="holm", control="C4.5")
    holm = holm.to_frame().set_index("learner_i")
    z = holm["statistic"].abs().sort_values(ascending=False)
    # 2.4154 here; the paper's 2.416 comes from its rounded average ranks.
    np.testing.assert_allclose(z.to_numpy(), [2.416, 2.342, 0.512], atol=1e-3)
    assert list(z.index) == ["C4.5+m+cf", "C4.5+m", "C4.5+cf"]
    # Holm at 0.05: reject C4.5+m+cf and C4.5+m, keep C4.5+cf (as in the paper).
    assert list(holm.loc[z.index, "pvalue_adjusted"] <= 0.05) == [True, True, False]


def test_demsar_from_published_average_ranks():
    """H: the published average ranks reproduce every printed number of Demšar."""
    # Demsar (2006), Section 3.2.4: chi2_F = 9.28, F_F = 3.69, CD 1.25 / 1.12,
    # Bonferroni-Dunn CD 1.16 (q 2.394), Holm z = 2.416, 2.342, 0.512.
    ranks = pd.Series(
        [3.143, 2.000, 2.893, 1.964], index=["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
    )
    res = FriedmanResult.from_average_ranks(ranks, 14)
    assert round(res.statistic, 2) == 9.28
    assert round(res.iman_davenport_statistic, 2) == 3.69
    assert round(res.critical_difference(alpha=0.05), 2) == 1.25
    assert round(res.critical_difference(alpha=0.10), 2) == 1.12
    assert res.critical_difference(
        alpha=0.05, method="bonferroni-dunn"
    ) == pytest.approx(1.16, abs=0.01)
    post = res.posthoc(method="siegel", adjust="holm", control="C4.5").to_frame()
    np.testing.assert_allclose(
        post["statistic"].abs(), [2.342, 0.512, 2.416], atol=5e-4
    )
    with pytest.raises(ValueError, match="ranks of every block"):
        res.posthoc(method="conover")
    assert res.ranks is None
    # Demsar's formula on exact average ranks equals friedman_test without ties
    # correction (cases.json friedman_random_10x5_no_ties: chi2 = 5.12).
    exact = FriedmanResult.from_average_ranks([3.6, 3.6, 2.8, 2.4, 2.6], 10)
    assert exact.statistic == pytest.approx(5.12, rel=RTOL)
    with pytest.raises(ValueError, match="`n_blocks`"):
        FriedmanResult.from_average_ranks([1.5, 1.5], 1)
    with pytest.raises(ValueError, match="`average_ranks`"):
        FriedmanResult.from_average_ranks([0.5, 2.5], 4)


def test_demsar_table_as_printed(reference_table):
    """H: the printed AUC table ties 'voting', giving ranks 2.929/1.929 and χ² 9.857."""
    # cases.json friedman_demsar_table6_auc: R friedman.test = 10.952; Demsar 9.857.
    auc = reference_table("demsar2006_table6_auc.csv")
    res = friedman_test(auc, greater_is_better=True, tie_correction=False)
    np.testing.assert_allclose(
        res.average_ranks, [3.142857142857, 2.0, 2.928571428571, 1.928571428571]
    )
    assert res.statistic == pytest.approx(9.857142857142857, rel=RTOL)
    assert res.ranks.loc["voting", "C4.5+cf"] == res.ranks.loc["voting", "C4.5+m+cf"]
    tied = friedman_test(auc, greater_is_better=True)
    assert tied.statistic == pytest.approx(10.952380952381, rel=1e-10)


def test_riddle_table(reference_table):
    """H: the seed 002 table (33 x 4 error rates) agrees with scipy's Friedman test."""
    errors = reference_table("riddle_c45_variants_error.csv")
    assert errors.shape == (33, 4)
    res = friedman_test(errors, greater_is_better=False)  # lower error is better
    ref = stats.friedmanchisquare(*errors.to_numpy().T)
    assert res.statistic == pytest.approx(ref.statistic, rel=RTOL)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=RTOL)
    # Ranks by scipy.stats.rankdata row by row, independently of the code.
    ranks = np.array([stats.rankdata(row) for row in errors.to_numpy()])
    np.testing.assert_allclose(res.average_ranks, ranks.mean(axis=0), rtol=RTOL)
    assert res.average_ranks.idxmin() == "Adaboosted C4.5"
    assert res.average_ranks.idxmax() == "C4.5"
    # C4.5 is significantly worse than the best by the Nemenyi CD at 0.05.
    spread = res.average_ranks.max() - res.average_ranks.min()
    assert spread > res.critical_difference(alpha=0.05)


def test_greater_is_better_reverses_ranks():
    """H: negating the scores with the opposite direction gives the same result."""
    rng = np.random.default_rng(1)
    x = rng.random((8, 5))
    a = friedman_test(x, greater_is_better=False)
    b = friedman_test(-x, greater_is_better=True)
    np.testing.assert_allclose(a.average_ranks, b.average_ranks)
    assert a.statistic == pytest.approx(b.statistic)
    # Ranks sum to k (k + 1) / 2 per block.
    np.testing.assert_allclose(a.ranks.sum(axis=1), 15.0)


def test_complete_ties_and_perfect_agreement():
    """H: all-tied blocks give χ² 0, p 1; identical orderings leave F_F undefined."""
    tied = friedman_test(np.ones((4, 3)), greater_is_better=False)
    assert tied.statistic == 0.0 and tied.pvalue == 1.0
    assert tied.iman_davenport_statistic == 0.0
    same = friedman_test(np.tile([0.1, 0.2, 0.3], (5, 1)), greater_is_better=False)
    assert same.statistic == pytest.approx(5 * 2)  # N (k - 1)
    assert np.isnan(same.iman_davenport_statistic)
    assert np.isnan(same.iman_davenport_pvalue)
    assert any("undefined" in note for note in same.notes)
    # exact: 3! of the 6^5 configurations rank every block alike
    assert same.null_distribution == "exact"
    assert same.pvalue == pytest.approx(6 / 6**5, rel=1e-12)


def test_two_learners_nemenyi_equals_normal_quantile():
    """H: with k = 2 the Nemenyi q equals the two-sided normal quantile."""
    # studentized range of 2 means / sqrt(2) = |N(0,1)|: q = qnorm(1 - alpha/2).
    cd = critical_difference(2, 10, alpha=0.05)
    assert cd == pytest.approx(stats.norm.ppf(0.975) * np.sqrt(2 * 3 / 60), rel=1e-8)


@pytest.mark.parametrize(
    "scores, match",
    [
        (np.ones((5, 1)), "at least 2 learners"),
        (np.ones((1, 3)), "at least 2 blocks"),
        (np.ones(5), "two-dimensional"),
        (np.array([["a", "b"], ["c", "d"]]), "must hold numbers"),
    ],
)
def test_invalid_shapes(scores, match):
    """H: too few learners or blocks, or a wrong shape, raise a ValueError."""
    with pytest.raises(ValueError, match=match):
        friedman_test(scores, greater_is_better=False)


def test_nan_names_learner_and_block():
    """H: a NaN score raises a ValueError naming its learner and its block."""
    frame = pd.DataFrame(
        {"rf": [0.1, 0.2, 0.3], "svm": [0.2, np.nan, 0.1]}, index=["iris", "wine", "x"]
    )
    with pytest.raises(ValueError, match=r"learner 'svm' on block 'wine'"):
        friedman_test(frame, greater_is_better=False)


def test_invalid_options():
    """H: bad alpha, method, control or counts raise ValueErrors quoting the name."""
    res = friedman_test(
        np.random.default_rng(0).random((6, 3)), greater_is_better=False
    )
    with pytest.raises(ValueError, match="`alpha`"):
        res.critical_difference(alpha=1.5)
    with pytest.raises(ValueError, match="`method`"):
        res.critical_difference(method="tukey")
    with pytest.raises(ValueError, match="`method`"):
        res.posthoc(method="holm").to_frame()  # a correction: adjust="holm"
    with pytest.raises(ValueError, match="`control`"):
        res.posthoc(method="siegel", control="nope").to_frame()
    with pytest.raises(ValueError, match="is for all pairs"):
        res.posthoc(method="nemenyi", control=0).to_frame()
    with pytest.raises(ValueError, match="is for all pairs"):
        res.posthoc(method="siegel", adjust="shaffer", control=0).to_frame()
    with pytest.raises(ValueError, match="`n_blocks`"):
        FriedmanResult.from_average_ranks([1, 2, 3], 1)
    with pytest.raises(ValueError, match="`greater_is_better`"):
        friedman_test(np.ones((3, 3)), greater_is_better="yes")


def test_result_is_frozen():
    """H: the result is immutable, not tuple-unpackable, and has a dict form."""
    res = friedman_test(
        np.random.default_rng(0).random((6, 3)), greater_is_better=False
    )
    with pytest.raises(AttributeError):
        res.statistic = 1.0
    with pytest.raises(TypeError):
        _, _ = res
    d = res.to_dict()
    assert d["n_blocks"] == 6 and set(d["average_ranks"]) == {0, 1, 2}
    assert res.to_frame().loc[0, "statistic"] == res.statistic
    assert res == friedman_test(
        np.random.default_rng(0).random((6, 3)), greater_is_better=False
    )


# ------------------------------------------------------------ exact distribution
_EXACT_REFERENCE = json.loads(
    (Path(__file__).parent / "reference" / "friedman_exact.json").read_text()
)


@pytest.mark.parametrize("case", _EXACT_REFERENCE, ids=lambda c: c["id"])
def test_exact_pvalue_matches_r(case):
    """H: the exact p equals R's enumeration (brute force or convolution) and
    coin's Monte Carlo permutation p within 4 SE; exact=False gives R's χ² p."""
    # tests/stats/reference/friedman_exact.R (R 4.2.2, coin): brute = all
    # (k!)^N configurations, convolve = full rank-sum vectors, coin =
    # friedman_test(..., distribution = approximate(nresample = 2e5)).
    scores = np.array(case["scores"])
    res = friedman_test(scores, greater_is_better=False)
    assert res.null_distribution == "exact"
    assert res.statistic == pytest.approx(case["chi2"], rel=1e-10)
    if case["method"] == "coin":
        se = case["pvalue_se"]
        assert abs(res.pvalue - case["exact_pvalue"]) <= 4 * se
    else:
        assert res.pvalue == pytest.approx(case["exact_pvalue"], rel=1e-10)
    assert (
        friedman_test(scores, exact=True, greater_is_better=False).pvalue == res.pvalue
    )
    chi = friedman_test(scores, exact=False, greater_is_better=False)
    assert chi.null_distribution == "chi2"
    assert chi.pvalue == pytest.approx(case["chi2_pvalue"], rel=1e-10)


def _hand_exact(ranks):
    """P(sum S*^2 >= sum S^2) over every (k!)^N arrangement, by itertools."""
    blocks = [list(itertools.permutations(row)) for row in ranks]
    observed = np.sum(ranks.sum(axis=0) ** 2)
    hits = total = 0
    for conf in itertools.product(*blocks):
        total += 1
        hits += np.sum(np.sum(conf, axis=0) ** 2) >= observed - 1e-9
    return hits / total


@pytest.mark.parametrize("seed", range(4))
def test_exact_pvalue_matches_hand_enumeration(seed):
    """H: on small designs with ties the exact p equals a plain enumeration of
    all (k!)^N within-block arrangements of the mid-ranks."""
    rng = np.random.default_rng(seed)
    n, k = [(4, 3), (3, 4), (5, 3), (2, 5)][seed]
    scores = rng.integers(0, 3, size=(n, k)).astype(float)
    ranks = stats.rankdata(scores, axis=1)
    expected = _hand_exact(ranks)
    for tie_correction in (True, False):
        res = friedman_test(
            scores, tie_correction=tie_correction, greater_is_better=False
        )
        assert res.pvalue == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("n_blocks", "chi2", "published"),
    [
        (3, 6.0, 0.028),
        (3, 4.667, 0.194),
        (4, 8.0, 0.0046),
        (4, 6.5, 0.042),
        (4, 6.0, 0.069),
        (5, 10.0, 0.00077),
        (5, 8.4, 0.0085),
        (5, 7.6, 0.024),
        (5, 6.4, 0.039),
    ],
)
def test_exact_pvalue_matches_published_table(n_blocks, chi2, published):
    """H: for k = 3 the exact P(χ²_r >= c) equals Friedman's (1937) table as
    reprinted in Siegel (1956), Table N, to the printed digits."""
    # Find blocks of untied ranks with the requested statistic (search over
    # configurations), then compare the exact upper tail with the table.
    perms = list(itertools.permutations([1, 2, 3]))
    for conf in itertools.product(perms, repeat=n_blocks):
        res = friedman_test(np.array(conf, dtype=float), greater_is_better=False)
        if res.statistic == pytest.approx(chi2, abs=1e-3):
            break
    else:  # pragma: no cover - every value in the table is attainable
        pytest.fail(f"no configuration with chi2 = {chi2}")
    decimals = len(f"{published:.10g}".split(".")[1])
    assert abs(res.pvalue - published) <= 0.5 * 10.0**-decimals + 1e-12


def test_perfect_agreement_two_learners_three_blocks():
    """H: the issue's case: 2 learners with the same winner on 3 blocks give the
    exact p = 1/4 (not p = 0), F_F undefined (NaN) with a note."""
    res = friedman_test([[0.1, 0.2], [0.3, 0.4], [0.2, 0.25]], greater_is_better=False)
    assert res.pvalue == 0.25 and res.null_distribution == "exact"
    assert np.isnan(res.iman_davenport_statistic)
    assert np.isnan(res.iman_davenport_pvalue)
    assert any("undefined" in n for n in res.notes)
    assert any("exact" in n for n in res.notes)
    three = friedman_test(np.tile([0.1, 0.2, 0.3], (3, 1)), greater_is_better=False)
    assert three.pvalue == pytest.approx(1 / 36, rel=1e-12)
    frame = three.to_frame()
    assert frame.loc[0, "null_distribution"] == "exact"
    assert "undefined" in frame.loc[0, "notes"]


def test_too_large_falls_back_to_chi2():
    """H: beyond the enumeration budget exact=None uses χ² and says so,
    exact=True raises, and perfect agreement still gives NaN F_F, not inf."""
    scores = np.tile(np.arange(8.0), (3, 1))  # k = 8, N = 3: over budget
    res = friedman_test(scores, greater_is_better=False)
    assert res.null_distribution == "chi2"
    assert res.pvalue == pytest.approx(stats.chi2.sf(3 * 7, 7), rel=1e-12)
    assert any("too large" in n for n in res.notes)
    assert np.isnan(res.iman_davenport_statistic)
    with pytest.raises(ValueError, match="too large to enumerate"):
        friedman_test(scores, exact=True, greater_is_better=False)
    with pytest.raises(ValueError, match="`exact`"):
        friedman_test(scores, exact="yes", greater_is_better=False)


def test_from_average_ranks_perfect_agreement_is_undefined():
    """H: published average ranks 1..k give χ² N(k - 1) with its χ² p and an
    undefined F_F (NaN), not inf / 0."""
    res = FriedmanResult.from_average_ranks([1.0, 2.0, 3.0], 4)
    assert res.statistic == pytest.approx(8.0)
    assert res.null_distribution == "chi2"
    assert np.isnan(res.iman_davenport_statistic)
    assert np.isnan(res.iman_davenport_pvalue)


def test_posthoc_on_degenerate_blocks_is_finite():
    """H: Nemenyi and Holm post-hocs on perfect agreement give finite z and the
    normal p-values of Demšar's formula; on all-tied blocks z = 0 and p = 1."""
    same = friedman_test(np.tile([0.1, 0.2, 0.3], (3, 1)), greater_is_better=False)
    post = same.posthoc(method="siegel", adjust="holm").to_frame()
    se = np.sqrt(3 * 4 / (6 * 3))
    np.testing.assert_allclose(post["statistic"], [-1 / se, -2 / se, -1 / se])
    z = post["statistic"].abs()
    np.testing.assert_allclose(post["pvalue"], 2 * stats.norm.sf(z))
    assert np.isfinite(
        same.posthoc(method="nemenyi").to_frame()["pvalue_adjusted"]
    ).all()
    two = friedman_test([[0.1, 0.2], [0.3, 0.4], [0.2, 0.25]], greater_is_better=False)
    # the normal approximation (0.083) against the exact sign-flip p of 1/4
    assert two.posthoc(method="siegel").to_frame()["pvalue"].iloc[0] == pytest.approx(
        2 * stats.norm.sf(np.sqrt(3)), rel=1e-12
    )
    tied = friedman_test(np.ones((4, 3)), greater_is_better=False)
    assert (tied.posthoc(method="siegel").to_frame()["statistic"] == 0).all()
    assert (tied.posthoc(method="nemenyi").to_frame()["pvalue_adjusted"] == 1).all()
