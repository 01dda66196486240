"""Tests of sklearn_bench/stats/_effect_size.py against hand-coded base R.

The reference values come from ``tests/stats/reference/effect_size.R`` (R 4.2.2,
base R only), written to ``effect_size.json`` beside it.
"""

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import EffectSizeResult, effect_size


def _method(name):
    """``effect_size`` with ``method=name``, under the method's own name."""

    def call(x, y=None, **kwargs):
        return effect_size(x, y, method=name, **kwargs)

    return call


cohens_dz, rank_biserial, sign_dominance, cliffs_delta, cohens_d, akinshin_gamma = (
    _method(m)
    for m in (
        "cohens_dz",
        "rank_biserial",
        "sign_dominance",
        "cliffs_delta",
        "cohens_d",
        "akinshin_gamma",
    )
)

RTOL = 1e-8
REF = json.loads(
    (Path(__file__).parent / "reference" / "effect_size.json").read_text("utf-8")
)


def _f(v):
    return float(v)  # parses "Inf" / "-Inf"


@pytest.mark.parametrize("case", REF["dz"], ids=lambda c: f"n{len(c['x'])}")
def test_cohens_dz_and_noncentral_t_interval_match_r(case):
    """H: d_z and its noncentral-t intervals (two- and one-sided) equal base R's."""
    # R: mean(d)/sd(d); uniroot(function(ncp) pt(t, n-1, ncp) - prob)/sqrt(n)
    res = cohens_dz(case["x"], case["y"])
    assert isinstance(res, EffectSizeResult)
    assert res.estimate == pytest.approx(case["dz"], rel=RTOL)
    for key, level in (("ci95_two_sided", 0.95), ("ci90_two_sided", 0.90)):
        ci = res.confidence_interval(level)
        assert ci.low == pytest.approx(case[key][0], rel=1e-7, abs=1e-10)
        assert ci.high == pytest.approx(case[key][1], rel=1e-7, abs=1e-10)
    for alt in ("greater", "less"):
        ci = cohens_dz(case["x"], case["y"], alternative=alt).confidence_interval()
        exp = [_f(v) for v in case[f"ci95_{alt}"]]
        assert ci.low == pytest.approx(exp[0], rel=1e-7, abs=1e-10)
        assert ci.high == pytest.approx(exp[1], rel=1e-7, abs=1e-10)


def test_dz_interval_covers_at_its_level():
    """H: the 90% d_z interval covers the true δ = 0.5 in 90% ± 4 SE of normal draws."""
    rng = np.random.default_rng(1)
    reps, n = 400, 8
    d = rng.normal(0.5, 1.0, size=(reps, n))
    cover = 0
    for row in d:
        ci = cohens_dz(row).confidence_interval(0.90)
        cover += ci.low <= 0.5 <= ci.high
    se = math.sqrt(0.9 * 0.1 / reps)
    assert abs(cover / reps - 0.90) < 4 * se


def test_dz_is_t_over_root_n():
    """H: d_z equals scipy's paired t statistic divided by sqrt(n)."""
    rng = np.random.default_rng(0)
    x, y = rng.normal(size=15), rng.normal(0.3, size=15)
    t = stats.ttest_rel(x, y).statistic
    assert cohens_dz(x, y).estimate == pytest.approx(t / math.sqrt(15), rel=1e-12)


@pytest.mark.parametrize(
    ("d", "label"),
    [
        ([0.1, -0.9, 0.5], "negligible"),
        ([1.0, 2.0, -1.2], "small"),
        ([1.0, 2.0, -0.5], "medium"),
        ([1.0, 2.0, 0.5], "large"),
    ],
)
def test_dz_magnitude_labels_follow_cohen_1988(d, label):
    """H: the label uses Cohen's (1988) 0.2 / 0.5 / 0.8 thresholds and says so."""
    res = cohens_dz(d)
    assert res.magnitude == label
    assert "Cohen (1988)" in res.magnitude_source
    expected = ["negligible", "small", "medium", "large"][
        int(np.searchsorted([0.2, 0.5, 0.8], abs(res.estimate), side="right"))
    ]
    assert res.magnitude == expected


def test_dz_zero_variance_is_documented():
    """H: constant differences give ±inf (all zero: NaN) and no interval."""
    inf = cohens_dz([0.3, 0.4, 0.5], [0.2, 0.3, 0.4])
    assert inf.estimate == math.inf and inf.magnitude == "large"
    nan = cohens_dz([0.3, 0.4], [0.3, 0.4])
    assert math.isnan(nan.estimate) and nan.magnitude is None
    with pytest.raises(ValueError, match="No confidence interval"):
        inf.confidence_interval()
    with pytest.raises(ValueError, match="at least 2 pairs"):
        cohens_dz([0.1], [0.2])
    with pytest.raises(ValueError, match="NaN"):
        cohens_dz([0.1, np.nan], [0.2, 0.3])


@pytest.mark.parametrize("case", REF["rank_biserial"], ids=lambda c: str(len(c["x"])))
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit", "demsar"])
def test_rank_biserial_matches_r(case, zero_method):
    """H: the matched-pairs rank-biserial equals base R's (and King–Minium's via V)."""
    # R: (sum(r[d>0]) - sum(r[d<0]))/(n(n+1)/2); zeros dropped: 4V/(n(n+1)) - 1
    res = rank_biserial(case["x"], case["y"], zero_method=zero_method)
    assert res.estimate == pytest.approx(case[zero_method], rel=RTOL)
    assert res.magnitude is None and res.magnitude_source is None
    with pytest.raises(ValueError, match="No confidence interval"):
        res.confidence_interval()


@pytest.mark.parametrize("case", REF["rank_biserial"], ids=lambda c: str(len(c["x"])))
def test_sign_dominance_matches_r(case):
    """H: (wins − losses)/n equals R's (sum(d > 0) − sum(d < 0))/n."""
    res = sign_dominance(case["x"], case["y"])
    assert res.estimate == pytest.approx(case["sign_dominance"], rel=RTOL)


def test_rank_biserial_extremes_and_all_zero():
    """H: all positive gives 1, all negative −1, all zero (wilcox) NaN."""
    assert rank_biserial([1.0, 2.0, 3.0]).estimate == 1.0
    assert rank_biserial([-1.0, -2.0]).estimate == -1.0
    assert math.isnan(rank_biserial([0.0, 0.0]).estimate)
    assert rank_biserial([0.0, 0.0], zero_method="zsplit").estimate == 0.0
    with pytest.raises(ValueError, match="zero_method"):
        rank_biserial([1.0], zero_method="nope")


@pytest.mark.parametrize("case", REF["cliff"], ids=lambda c: str(len(c["x"])))
def test_cliffs_delta_matches_r(case):
    """H: Cliff's δ equals R's mean(sign(outer(x, y, "-"))) and 2W/(mn) − 1."""
    res = cliffs_delta(case["x"], case["y"])
    assert res.estimate == pytest.approx(case["delta"], rel=RTOL, abs=1e-15)
    assert res.n == len(case["x"]) * len(case["y"])


@pytest.mark.parametrize(
    ("n_wins", "label"),
    [
        (14, "negligible"),
        (15, "small"),
        (32, "small"),
        (33, "medium"),
        (47, "medium"),
        (48, "large"),
    ],
)
def test_cliffs_delta_labels_follow_romano_2006(n_wins, label):
    """H: labels use Romano et al.'s (2006) 0.147 / 0.33 / 0.474 thresholds."""
    x = np.r_[np.ones(n_wins), np.zeros(100 - n_wins)]  # δ = n_wins / 100 against 0
    res = cliffs_delta(x, [0.0])
    assert res.estimate == pytest.approx(n_wins / 100)
    assert res.magnitude == label
    assert "Romano" in res.magnitude_source
    assert cliffs_delta(-x, [0.0]).magnitude == label


def test_effect_size_to_dict_has_nan_interval_when_none():
    """H: to_dict gives the estimate, its label and NaN bounds where no interval."""
    row = rank_biserial([0.2, 0.3, -0.1]).to_dict()
    assert row["effect_size"] == "rank_biserial"
    assert math.isnan(row["effect_size_ci_low"])
    row = cohens_dz([0.2, 0.3, -0.1]).to_dict(0.9)
    assert row["effect_size_ci_low"] < row["effect_size_estimate"]


@pytest.mark.parametrize("case", REF["rank_biserial"], ids=lambda c: str(len(c["x"])))
@pytest.mark.parametrize("zero_method", ["wilcox", "pratt", "zsplit", "demsar"])
def test_paired_wilcoxon_effect_size_is_r_rank_biserial(case, zero_method):
    """H: PairedTestResult.effect_size of a Wilcoxon test is R's rank-biserial."""
    from sklearn_bench.stats import paired_test

    res = paired_test(case["x"], case["y"], method="wilcoxon", zero_method=zero_method)
    es = res.effect_size
    assert es.name == "rank_biserial"
    assert es.estimate == pytest.approx(case[zero_method], rel=RTOL)


@pytest.mark.parametrize("case", REF["dz"][:3], ids=lambda c: str(len(c["x"])))
def test_paired_t_effect_size_is_r_dz_with_sided_interval(case):
    """H: t and permutation results carry R's d_z; the interval is sided as the test."""
    from sklearn_bench.stats import paired_test

    for method in ("t", "permutation"):
        es = paired_test(case["x"], case["y"], method=method).effect_size
        assert es.estimate == pytest.approx(case["dz"], rel=RTOL)
        ci = es.confidence_interval()
        assert ci.low == pytest.approx(case["ci95_two_sided"][0], rel=1e-7)
    es = paired_test(case["x"], case["y"], alternative="greater").effect_size
    assert es.confidence_interval().low == pytest.approx(
        _f(case["ci95_greater"][0]), rel=1e-7
    )
    row = paired_test(case["x"], case["y"]).to_dict()
    assert row["effect_size"] == "cohens_dz"
    assert row["effect_size_ci_high"] == pytest.approx(case["ci95_two_sided"][1], 1e-7)
    corrected = paired_test(
        case["x"], case["y"], method="corrected_t", test_train_ratio=0.25
    ).effect_size
    assert corrected.estimate == pytest.approx(case["dz"], rel=RTOL)
    with pytest.raises(ValueError, match="No confidence interval"):
        corrected.confidence_interval()


def test_paired_sign_effect_size_and_single_pair():
    """H: the sign test carries (wins − losses)/n; one pair gives NaN d_z in to_dict."""
    from sklearn_bench.stats import paired_test

    res = paired_test([0.2, 0.3, 0.1, 0.4], [0.1, 0.3, 0.2, 0.1], method="sign")
    assert res.effect_size.estimate == 0.25
    row = paired_test([0.2], [0.1], method="permutation").to_dict()
    assert row["effect_size"] is None and math.isnan(row["effect_size_estimate"])


@pytest.mark.parametrize("case", REF["kendall"], ids=lambda c: str(len(c["scores"])))
def test_kendalls_w_matches_r_rank_formula(case):
    """H: FriedmanResult.kendalls_w equals Kendall's W computed in R from the ranks
    (tie-corrected with R's friedman.test convention, uncorrected with Demšar's)."""
    from sklearn_bench.stats import friedman_test

    scores = np.array(case["scores"])
    assert friedman_test(scores, greater_is_better=False).kendalls_w == pytest.approx(
        case["w"], rel=RTOL
    )
    plain = friedman_test(scores, tie_correction=False, greater_is_better=False)
    assert plain.kendalls_w == pytest.approx(case["w_no_ties"], rel=RTOL)
    assert plain.to_dict()["kendalls_w"] == plain.kendalls_w


def test_confidence_level_is_checked():
    """H: a confidence level outside (0, 1) raises, quoting the argument."""
    with pytest.raises(ValueError, match="`confidence_level`"):
        cohens_dz([0.2, 0.3, -0.1]).confidence_interval(1.5)


# -------------------------------------------- autorank's effect sizes (issue 24)
def _autorank_pairs():
    rng = np.random.default_rng(24)
    for n in (5, 8, 13):
        x = rng.normal(0.80, 0.05, n)
        yield x, x - rng.normal(0.02, 0.04, n)
    yield rng.exponential(0.1, 11), rng.exponential(0.12, 11)


@pytest.mark.parametrize("pair", list(_autorank_pairs()))
def test_cohens_d_and_gamma_match_autorank(pair):
    """H: cohens_d, akinshin_gamma and cliffs_delta equal autorank's _cohen_d,
    _akinshin_gamma and _cliffs_delta to 1e-10, their labels its _effect_level, and
    rope(0.1) its rope_mode="effsize" ROPE (0.1 x pooled SD or pooled MAD)."""
    from autorank._util import (
        _akinshin_gamma,
        _cliffs_delta,
        _cohen_d,
        _effect_level,
        _pooled_mad,
        _pooled_std,
    )

    x, y = (pd.Series(a) for a in pair)
    assert cliffs_delta(x, y).estimate == pytest.approx(_cliffs_delta(x, y), abs=1e-12)
    assert cliffs_delta(x, y).magnitude == _effect_level(
        _cliffs_delta(x, y), "cliff_delta"
    )
    d, g = cohens_d(x, y), akinshin_gamma(x, y)
    assert d.estimate == pytest.approx(_cohen_d(x, y), rel=1e-10)
    assert g.estimate == pytest.approx(_akinshin_gamma(x, y), rel=1e-10)
    assert d.magnitude == _effect_level(_cohen_d(x, y), "cohen_d")
    assert g.magnitude == _effect_level(_akinshin_gamma(x, y), "akinshin_gamma")
    assert d.rope(0.1) == pytest.approx(0.1 * _pooled_std(x, y), rel=1e-10)
    assert g.rope(0.25) == pytest.approx(0.25 * _pooled_mad(x, y), rel=1e-10)


def test_autorank_effect_sizes_in_its_result_table(reference_table):
    """H: autorank's effect_size column (best vs each, Demšar's Table 6) is
    cohens_d of the best learner against each (all columns normal there)."""
    from autorank._util import _create_result_df_skeleton

    auc = reference_table("demsar2006_table6_auc.csv").reset_index(drop=True)
    rankdf, method, _ = _create_result_df_skeleton(auc, 0.05, True, "descending")
    assert method == "cohen_d"
    best = rankdf.index[0]
    for name in rankdf.index:
        ours = cohens_d(auc[best], auc[name])
        assert ours.estimate == pytest.approx(rankdf.at[name, "effect_size"], abs=1e-12)
        assert ours.magnitude == rankdf.at[name, "magnitude"]


def test_gamma_and_d_degenerate_and_no_rope_for_others():
    """H: zero spread gives ±inf (nan for equal centres); other effect sizes have
    no ROPE and say so."""
    assert cohens_d([1.0, 1.0], [0.0, 0.0]).estimate == np.inf
    assert np.isnan(akinshin_gamma([1.0, 1.0, 1.0], [1.0, 1.0, 1.0]).estimate)
    with pytest.raises(ValueError, match="defines no ROPE"):
        cliffs_delta([0.1, 0.2], [0.3, 0.4]).rope()
    with pytest.raises(ValueError, match="`x`"):
        cohens_d([0.1], [0.2, 0.3])


def test_two_sample_effect_sizes_check_their_inputs_alike():
    """H: Cliff's δ accepts one value per sample and Cohen's d needs two; both
    refuse a second dimension and NaN with a message that names the sample."""
    assert cliffs_delta([0.3], [0.2]).estimate == 1.0
    with pytest.raises(ValueError, match="`y` must be a non-empty one-dim"):
        cliffs_delta([0.3], [])
    with pytest.raises(ValueError, match="`x` must be a one-dimensional array of at"):
        cohens_d([[0.1, 0.2]], [0.2, 0.3])
    with pytest.raises(ValueError, match="at least 2 values"):
        cohens_d([0.1, 0.2], [0.3])
    for func in (cliffs_delta, cohens_d):
        with pytest.raises(ValueError, match=r"`y` must be finite \(no NaN\)"):
            func([0.1, 0.2], [0.3, np.nan])


def test_effect_size_refuses_a_missing_second_sample_and_unknown_methods():
    """H: the two-sample effect sizes need ``y`` and say so; an unknown method or
    zero_method is a ValueError naming the argument."""
    with pytest.raises(ValueError, match="pass `y`"):
        effect_size([0.1, 0.2], method="cohens_d")
    with pytest.raises(ValueError, match="`method`"):
        effect_size([0.1, 0.2], method="hedges_g")
    with pytest.raises(ValueError, match="`zero_method`"):
        effect_size([0.1, 0.2], method="rank_biserial", zero_method="x")
