"""Tests of sklearn_bench/stats/_anova.py: RM-ANOVA and Tukey's HSD (autorank's path).

The references are computed here, from the peers installed by the ``test`` extra:
statsmodels' ``AnovaRM`` and ``tukeyhsd``, scipy's ``tukey_hsd`` and autorank's own
internals (``autorank._util``), on the same tables.
"""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import (
    global_permutation_test,
    rm_anova,
    tukey_hsd,
)

RTOL = 1e-10


def _table(seed=0, n=12, k=4, shift=0.02):
    rng = np.random.default_rng(seed)
    base = rng.normal(0.25, 0.08, (n, 1))  # data sets differ a lot
    values = base + rng.normal(0, 0.02, (n, k)) + shift * np.arange(k)
    return pd.DataFrame(values, columns=[f"L{i}" for i in range(k)])


def _stacked(table):
    long = table.rename_axis("id").reset_index().melt(id_vars="id")
    return long.rename(columns={"variable": "treatment", "value": "result"})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_rm_anova_matches_statsmodels_anovarm(seed):
    """H: F, its df and p equal statsmodels' AnovaRM on the same long table."""
    from statsmodels.stats.anova import AnovaRM

    table = _table(seed, n=9 + seed, k=3 + seed)
    ref = AnovaRM(_stacked(table), "result", "id", within=["treatment"]).fit()
    row = ref.anova_table.iloc[0]
    res = rm_anova(table)
    assert res.statistic == pytest.approx(row["F Value"], rel=RTOL)
    assert res.pvalue == pytest.approx(row["Pr > F"], rel=RTOL)
    assert (res.df_learners, res.df_error) == (row["Num DF"], row["Den DF"])


def test_rm_anova_matches_autorank_internals(reference_table):
    """H: on Demšar's Table 6 the p-value equals autorank's parametric path."""
    from autorank._util import rank_multiple_normal_homoscedastic

    auc = reference_table("demsar2006_table6_auc.csv").reset_index(drop=True)
    ref = rank_multiple_normal_homoscedastic(auc, 0.05, False, "descending", None, None)
    assert ref.omnibus == "anova"
    assert rm_anova(auc).pvalue == pytest.approx(ref.pvalue, rel=RTOL)


def test_rm_anova_two_learners_is_paired_t_squared():
    """H: with K = 2, F = t² of the paired t-test and the p-values agree."""
    table = _table(3, k=2)
    t = stats.ttest_rel(table["L0"], table["L1"])
    res = rm_anova(table)
    assert res.statistic == pytest.approx(t.statistic**2, rel=RTOL)
    assert res.pvalue == pytest.approx(t.pvalue, rel=RTOL)


def test_rm_anova_sums_of_squares_and_effect_size():
    """H: SS partition the total (SS_l + SS_b + SS_e = SS_t), MSE = SS_e/df and
    partial η² = SS_l/(SS_l + SS_e) (statsmodels OLS of y ~ learner + block)."""
    import statsmodels.formula.api as smf
    from statsmodels.stats.anova import anova_lm

    table = _table(4)
    long = _stacked(table)
    fit = smf.ols("result ~ C(treatment) + C(id)", data=long).fit()
    aov = anova_lm(fit)
    res = rm_anova(table)
    assert res.ss_learners == pytest.approx(aov.loc["C(treatment)", "sum_sq"], rel=RTOL)
    assert res.ss_blocks == pytest.approx(aov.loc["C(id)", "sum_sq"], rel=RTOL)
    assert res.ss_error == pytest.approx(aov.loc["Residual", "sum_sq"], rel=RTOL)
    assert res.mse == pytest.approx(fit.mse_resid, rel=RTOL)
    assert res.partial_eta_squared == pytest.approx(
        res.ss_learners / (res.ss_learners + res.ss_error), rel=RTOL
    )


def test_rm_anova_degenerate_tables():
    """H: equal learners give F = 0, p = 1; an exactly additive table F = inf, p = 0."""
    same = np.tile(np.array([[0.1], [0.2], [0.3]]), (1, 3))
    res = rm_anova(same)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    additive = np.array([[0.1], [0.2], [0.3]]) + [0.0, 0.05, 0.1]
    res = rm_anova(additive)
    assert (res.statistic, res.pvalue) == (np.inf, 0.0)


def test_rm_anova_refuses_nan_and_one_block():
    """H: NaN names the learner and block; one block is refused."""
    with pytest.raises(ValueError, match="learner 'L1'"):
        rm_anova(_table().assign(L1=np.nan))
    with pytest.raises(ValueError, match="at least 2 blocks"):
        rm_anova([[0.1, 0.2, 0.3]])


# ------------------------------------------------------------------------ Tukey HSD
def test_tukey_blocks_matches_statsmodels_tukeyhsd_on_rcbd_mse():
    """H: design="blocks" equals statsmodels' tukeyhsd given the two-way ANOVA's
    residual mean square and its (K − 1)(N − 1) df (Montgomery's RCBD Tukey)."""
    import statsmodels.formula.api as smf
    from statsmodels.sandbox.stats.multicomp import tukeyhsd as sm_tukeyhsd

    table = _table(5, n=10, k=4)
    n, k = table.shape
    fit = smf.ols("result ~ C(treatment) + C(id)", data=_stacked(table)).fit()
    df = (k - 1) * (n - 1)
    # statsmodels: df_total = n_means * df for a scalar df
    ref = sm_tukeyhsd(table.mean().to_numpy(), n, fit.mse_resid, df=df / k, alpha=0.05)
    res = tukey_hsd(table, design="blocks", alpha=0.05, greater_is_better=False)
    frame = res.to_frame()
    # statsmodels' meandiffs are mean_j - mean_i
    np.testing.assert_allclose(-frame["mean_difference"], ref[2], rtol=RTOL)
    np.testing.assert_allclose(frame["pvalue_adjusted"], ref[8], rtol=RTOL)
    np.testing.assert_allclose(-frame["ci_high"], ref[4][:, 0], rtol=RTOL)
    d = res.details
    assert d["critical_value"] == pytest.approx(ref[5], rel=RTOL)
    assert d["df"] == df and d["mse"] == pytest.approx(fit.mse_resid, rel=RTOL)
    assert d["hsd"] == pytest.approx(ref[3][0] * ref[5], rel=RTOL)


def test_tukey_aligned_equals_scipy_and_global_follow_up_is_blocks():
    """H: design="aligned" equals scipy.stats.tukey_hsd on the aligned table; the
    Tukey follow-up of global_permutation_test is design="blocks" (one code path;
    the aligned design's K(N - 1) df is liberal, see peer_tests_calibration.py)."""
    table = _table(6, n=15, k=5)
    aligned = table.to_numpy() - table.to_numpy().mean(axis=1, keepdims=True)
    ref = stats.tukey_hsd(*aligned.T)
    ci = ref.confidence_interval(0.95)
    res = tukey_hsd(table, design="aligned", greater_is_better=False).to_frame()
    iu = np.triu_indices(5, 1)
    np.testing.assert_allclose(res["pvalue_adjusted"], ref.pvalue[iu], rtol=RTOL)
    np.testing.assert_allclose(res["ci_low"], ci.low[iu], rtol=RTOL)
    np.testing.assert_allclose(res["ci_high"], ci.high[iu], rtol=RTOL)
    follow = (
        global_permutation_test(table, n_resamples=9, random_state=0)
        .pairwise(method="tukey")
        .to_frame()
    )
    blocks = tukey_hsd(table, design="blocks", greater_is_better=False).to_frame()
    np.testing.assert_allclose(blocks["pvalue_adjusted"], follow["pvalue_adjusted"])
    np.testing.assert_allclose(blocks["pvalue"], follow["pvalue"])


def test_tukey_independent_matches_autorank_and_multicomparison(reference_table):
    """H: design="independent" equals statsmodels' MultiComparison.tukeyhsd on the
    stacked table, and its HSD/2 is autorank's confidence half-width of each mean."""
    import matplotlib

    matplotlib.use("Agg")
    from autorank._util import rank_multiple_normal_homoscedastic
    from statsmodels.stats.multicomp import MultiComparison

    auc = reference_table("demsar2006_table6_auc.csv").reset_index(drop=True)
    long = _stacked(auc)
    ref = MultiComparison(long["result"], long["treatment"]).tukeyhsd(alpha=0.05)
    res = tukey_hsd(auc, design="independent", greater_is_better=True)
    # MultiComparison sorts the groups by name; Demšar's columns are sorted too
    assert list(ref.groupsunique) == sorted(auc.columns)
    order = {name: i for i, name in enumerate(auc.columns)}
    frame = res.to_frame()
    assert all(
        order[a] < order[b]
        for a, b in zip(frame.learner_i, frame.learner_j, strict=True)
    )
    sorted_pairs = [
        tuple(sorted((a, b)))
        for a, b in zip(frame.learner_i, frame.learner_j, strict=True)
    ]
    ref_pairs = [(str(r[0]), str(r[1])) for r in ref._results_table.data[1:]]
    lookup = dict(zip(ref_pairs, ref.pvalues, strict=True))
    np.testing.assert_allclose(
        frame["pvalue_adjusted"], [lookup[p] for p in sorted_pairs], rtol=RTOL
    )
    assert res.details["critical_value"] == pytest.approx(ref.q_crit, rel=RTOL)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        auto = rank_multiple_normal_homoscedastic(
            auc, 0.05, False, "descending", None, None
        )
    half = (auto.rankdf["ci_upper"] - auto.rankdf["ci_lower"]).astype(float) / 2
    np.testing.assert_allclose(half, res.details["hsd"] / 2, rtol=RTOL)
    np.testing.assert_allclose(
        auto.rankdf["mean"].astype(float),
        res.learner_means[auto.rankdf.index],
        rtol=RTOL,
    )


def test_tukey_designs_order_of_power():
    """H: with large differences between data sets, blocks < independent in the
    adjusted p-value (autorank's independent design loses the pairing)."""
    table = _table(7, n=12, k=3, shift=0.015)
    p_blocks = tukey_hsd(table, design="blocks", greater_is_better=False).to_frame()[
        "pvalue_adjusted"
    ]
    p_indep = tukey_hsd(
        table, design="independent", greater_is_better=False
    ).to_frame()["pvalue_adjusted"]
    assert (p_blocks < p_indep).all()


def test_tukey_result_matrices_and_follow_up_of_rm_anova():
    """H: RMAnovaResult.tukey_hsd is design="blocks"; the matrices are symmetric
    with the frame's values; reject iff pvalue_adjusted <= alpha iff |diff| > HSD."""
    table = _table(8, n=20, k=4, shift=0.01)
    res = rm_anova(table).tukey_hsd(alpha=0.1, greater_is_better=False)
    assert res.details["design"] == "blocks" and res.alpha == 0.1
    frame = res.to_frame()
    np.testing.assert_array_equal(
        frame["reject"], frame["mean_difference"].abs() > res.details["hsd"]
    )
    mat = res.pvalues_adjusted
    assert (mat.to_numpy() == mat.to_numpy().T).all()
    pair = frame.query("learner_i == 'L0' and learner_j == 'L2'")
    assert mat.loc["L0", "L2"] == pair["pvalue_adjusted"].item()
    assert res.significant.dtypes.eq(bool).all()


def test_tukey_intervals_at_their_own_level_and_tests_at_alpha():
    """H: alpha sets the rejections and the HSD only, confidence_level the
    intervals only (as confidence_interval(level) recomputes them); at the
    defaults an interval excludes 0 exactly when its pair is rejected."""
    table = _table(9, n=15, k=4, shift=0.01)
    base = tukey_hsd(table, greater_is_better=False)
    other = tukey_hsd(table, alpha=0.1, confidence_level=0.8, greater_is_better=False)
    b, o = base.to_frame(), other.to_frame()
    np.testing.assert_array_equal(b["pvalue_adjusted"], o["pvalue_adjusted"])
    np.testing.assert_array_equal(o["reject"], o["pvalue_adjusted"] <= 0.1)
    ci = base.confidence_interval(0.8)
    np.testing.assert_allclose(o["ci_low"], ci.low.to_numpy(), rtol=1e-12)
    assert (
        other.confidence_level == 0.8
        and other.confidence_interval().confidence_level == 0.8
    )
    assert base.details["hsd"] < other.details["hsd"] * 1.5
    assert other.details["hsd"] < base.details["hsd"]
    excludes = (b["ci_low"] > 0) | (b["ci_high"] < 0)
    np.testing.assert_array_equal(excludes, b["reject"])


def test_tukey_refuses_bad_design():
    """H: an unknown design is a ValueError naming `design`."""
    with pytest.raises(ValueError, match="`design`"):
        tukey_hsd(_table(), design="rm", greater_is_better=False)


def test_friedman_nemenyi_path_matches_autorank(reference_table):
    """H: autorank's non-parametric path equals ours on Demšar's Table 6: scipy's
    tie-corrected Friedman p = friedman_test(exact=False) to 1e-10, and its Nemenyi
    critical distance = critical_difference() to 1e-5 (autorank takes q from
    statsmodels' qsturng, an interpolated table good to about 1e-5; ours is
    scipy's studentized_range, exact)."""
    from autorank._util import rank_multiple_nonparametric

    from sklearn_bench.stats import friedman_test

    auc = reference_table("demsar2006_table6_auc.csv").reset_index(drop=True)
    ref = rank_multiple_nonparametric(auc, 0.05, False, False, "descending", None, None)
    res = friedman_test(auc, greater_is_better=True, exact=False)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=RTOL)
    assert res.critical_difference(alpha=0.05) == pytest.approx(ref.cd, rel=1e-5)
