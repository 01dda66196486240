"""Tests of sklearn_bench/stats/_leaderboard.py: bencheval (TabArena's engine) and
csranks' algorithm (Mogstad, Romano, Shaikh & Wilhelm 2024).

bencheval is a test extra: its ``BenchmarkEvaluator`` computes the Elo ratings,
win rates, win-rate matrix, average ranks and improvability of the same
per-data-set errors, here in long form (method / task / metric_error). The rank
sets are checked on a case worked by hand and against a line-by-line
transcription of csranks' ``csdiffmeans`` / ``csranks_simul`` / ``csranks_marg``
(R/diffmeans.R and R/ranks.R, github.com/danielwilhelm/R-CS-ranks at bd4f755),
fed with the same bootstrap deviations in place of its normal draws.
"""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench.stats import (
    LeaderboardResult,
    leaderboard_table,
    rank_confidence_sets,
    win_rate_matrix,
)
from sklearn_bench.stats._leaderboard import _rank_stability as rank_stability

bencheval = pytest.importorskip("bencheval.evaluator")

ELO_ATOL = 1e-4  # Elo points: both solve to ~1e-10 in log-strength
RTOL = 1e-9


def _errors(seed, n=40, p=6, missing=0.0, decimals=2):
    rng = np.random.default_rng(seed)
    err = np.round(rng.uniform(0.1, 0.3, (n, p)) + np.linspace(0, 0.08, p), decimals)
    if missing:
        err[rng.random((n, p)) < missing] = np.nan
    return pd.DataFrame(
        err, columns=[f"m{i}" for i in range(p)], index=[f"t{i}" for i in range(n)]
    )


def _bencheval(wide, rounds=0, **elo_kwargs):
    """bencheval's numbers for a wide table of errors (NaN = missing)."""
    long = (
        wide.reset_index(names="task")
        .melt(id_vars="task", var_name="method", value_name="metric_error")
        .dropna()
    )
    ev = bencheval.BenchmarkEvaluator(columns_to_agg_extra=None)
    per_task = ev.compute_results_per_task(long)
    out = ev.compute_elo(
        per_task,
        BOOTSTRAP_ROUNDS=rounds,
        include_quantiles=rounds > 1,
        round_decimals=None,
        **elo_kwargs,
    )
    out["winrate"] = ev.compute_winrate(per_task)
    out["improvability"] = per_task.groupby("method")["improvability"].mean()
    out["rank"] = per_task.groupby("method")["rank"].mean()
    matrix = ev.compute_winrate_matrix(per_task)
    return out.loc[list(wide.columns)], matrix.loc[wide.columns, wide.columns]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_point_estimates_match_bencheval_on_complete_tables(seed):
    """H: on a complete table with ties (errors rounded to 2 decimals), rating,
    win rate, mean rank, improvability and win-rate matrix equal bencheval's
    (Elo within 1e-4 points, the rest to rtol 1e-9)."""
    wide = _errors(seed)
    ref, ref_matrix = _bencheval(wide)
    res = leaderboard_table(
        wide, n_resamples=50, random_state=0, greater_is_better=False
    )
    table = res.table.loc[wide.columns]
    np.testing.assert_allclose(table["rating"], ref["elo"], atol=ELO_ATOL, rtol=0)
    np.testing.assert_allclose(table["win_rate"], ref["winrate"], rtol=RTOL)
    np.testing.assert_allclose(table["mean_rank"], ref["rank"], rtol=RTOL)
    np.testing.assert_allclose(table["improvability"], ref["improvability"], rtol=RTOL)
    ours = res.win_rate_matrix.loc[wide.columns, wide.columns].to_numpy()
    # bencheval accumulates in float32.
    np.testing.assert_allclose(ours, ref_matrix.to_numpy(), rtol=1e-6)
    matrix = win_rate_matrix(wide, greater_is_better=False)
    np.testing.assert_allclose(
        matrix.loc[wide.columns, wide.columns].to_numpy(),
        ref_matrix.to_numpy(),
        rtol=1e-6,
    )
    # ordered by rating, best first, as the leaderboard with rank_by="rating"
    by_rating = res.table.sort_values("rating", ascending=False, kind="stable")
    assert list(matrix.index) == list(by_rating.index) == list(matrix.columns)


def test_point_estimates_match_bencheval_with_missing_learners_and_reference():
    """H: with 10 % of the cells missing and the ratings calibrated on a
    reference learner (m2 at 1200), rating (bencheval's battle path), win rate
    (mean over opponents of per-pair rates on common tasks) and improvability
    (over each learner's tasks) equal bencheval's; the reference gets 1200."""
    wide = _errors(1, missing=0.1)
    ref, ref_matrix = _bencheval(wide, calibration_framework="m2", calibration_elo=1200)
    res = leaderboard_table(
        wide,
        reference="m2",
        reference_rating=1200,
        n_resamples=50,
        random_state=0,
        greater_is_better=False,
    )
    table = res.table.loc[wide.columns]
    np.testing.assert_allclose(table["rating"], ref["elo"], atol=ELO_ATOL, rtol=0)
    assert table.loc["m2", "rating"] == pytest.approx(1200, abs=1e-9)
    # With a missing cell bencheval averages its float32 matrix.
    np.testing.assert_allclose(table["win_rate"], ref["winrate"], rtol=1e-6)
    np.testing.assert_allclose(table["improvability"], ref["improvability"], rtol=RTOL)
    np.testing.assert_allclose(
        res.win_rate_matrix.loc[wide.columns, wide.columns].to_numpy(),
        ref_matrix.to_numpy(),
        rtol=1e-6,
    )
    assert res.n_complete_datasets < res.n_datasets
    assert any("lack a value" in note for note in res.notes)


def test_rating_interval_agrees_with_bencheval_within_monte_carlo_error():
    """H: the bootstrap percentile interval of the rating (resamples of the
    data sets, different random draws) is bencheval's within Monte Carlo
    error: each bound within 30 Elo points (150 resamples each; the MC SE of a
    2.5 % quantile is then about 10)."""
    wide = _errors(3, n=60, p=5)
    ref, _ = _bencheval(wide, rounds=150)
    table = leaderboard_table(
        wide, n_resamples=150, random_state=1, greater_is_better=False
    ).table
    table = table.loc[wide.columns]
    np.testing.assert_allclose(table["rating_low"], ref["elo"] - ref["elo-"], atol=30)
    np.testing.assert_allclose(table["rating_high"], ref["elo"] + ref["elo+"], atol=30)


def test_separable_learner_is_finite_like_bencheval_and_noted():
    """H: a learner that wins every comparison gets bencheval's finite, ridge-set
    rating (within 0.05 Elo of ~3200: the penalised likelihood is nearly flat
    there, and bencheval's L-BFGS stops at its gradient tolerance where Newton
    goes on) and a note says so."""
    wide = _errors(4, n=20, p=4)
    wide["m0"] = 0.0
    ref, _ = _bencheval(wide)
    res = leaderboard_table(
        wide, n_resamples=20, random_state=0, greater_is_better=False
    )
    np.testing.assert_allclose(
        res.table.loc[wide.columns, "rating"], ref["elo"], atol=0.05, rtol=0
    )
    assert any("m0 won or lost every comparison" in n for n in res.notes)


def test_improvability_for_greater_is_better_is_the_relative_shortfall():
    """H: with accuracies (greater is better), improvability is 1 − s/s* per data
    set (s* the best), averaged; the same table as errors 1 − s gives the same
    win rates and ratings."""
    acc = pd.DataFrame({"A": [0.9, 0.8, 0.5], "B": [0.6, 0.8, 1.0]})
    res = leaderboard_table(acc, greater_is_better=True, n_resamples=20, random_state=0)
    expected = {"A": np.mean([0, 0, 0.5]), "B": np.mean([1 - 0.6 / 0.9, 0, 0])}
    for name, value in expected.items():
        assert res.table.loc[name, "improvability"] == pytest.approx(value, rel=1e-12)
    err = leaderboard_table(
        1 - acc, n_resamples=20, random_state=0, greater_is_better=False
    )
    pd.testing.assert_series_equal(
        res.table["win_rate"].sort_index(), err.table["win_rate"].sort_index()
    )
    np.testing.assert_allclose(
        res.table["rating"].sort_index(), err.table["rating"].sort_index()
    )


def test_negative_values_leave_improvability_empty_and_say_why():
    """H: negative scores (e.g. R² or log-likelihoods) have no relative gap: the
    improvability column is NaN and a note says why; the rest is computed."""
    wide = _errors(0) - 0.2
    res = leaderboard_table(
        wide, n_resamples=20, random_state=0, greater_is_better=False
    )
    assert res.table["improvability"].isna().all()
    assert any("improvability is empty" in n for n in res.notes)
    assert res.table["rating"].notna().all()


# -------------------------------------------------------------- rank confidence sets
def test_rank_sets_on_a_case_worked_by_hand():
    """H: θ̂ = (3, 2, 0) with four bootstrap deviations (1, −1, 0), (−1, 1, 0),
    0, 0. By hand: σ_01 = √2, σ_02 = σ_12 = 1/√2 (population SD of the
    deviation differences); the maximum over all ordered pairs of the
    studentised deviations is (√2, √2, 0, 0), whose 0.95 quantile (type 7:
    position 2.85 of 0..3) is √2. z_02 = 3√2 and z_12 = 2√2 exceed it, z_01 =
    1/√2 does not; stepping down leaves the maximum (and √2) unchanged. So the
    simultaneous sets are [1, 2], [1, 2], [3, 3] and learners 0 and 1 may be
    best; the marginal ones are the same."""
    est = np.array([3.0, 2.0, 0.0])
    dev = np.array([[1, -1, 0], [-1, 1, 0], [0, 0, 0], [0, 0, 0]], dtype=float)
    res = rank_confidence_sets(est, est + dev, greater_is_better=True)
    assert res.low.tolist() == [1, 1, 3]
    assert res.high.tolist() == [2, 2, 3]
    assert res.may_be_best.tolist() == [True, True, False]
    assert res.rank.tolist() == [1, 2, 3]
    marg = rank_confidence_sets(
        est, est + dev, simultaneous=False, greater_is_better=True
    )
    assert (marg.low.tolist(), marg.high.tolist()) == ([1, 1, 3], [2, 2, 3])


def _csranks_transcription(x, z, coverage, indices):
    """csranks' csdiffmeans(stepdown=TRUE, cstype="symmetric") followed by
    csranks_simul, transcribed loop by loop (R/diffmeans.R, R/ranks.R), with the
    draws ``z`` (centred, R × p) given instead of MASS::mvrnorm's. R's quantile
    type 7 is numpy's default "linear"."""
    p = len(x)
    thetadiff = np.subtract.outer(x, x)
    zd = z[:, :, None] - z[:, None, :]
    sigmadiff = zd.std(axis=0)  # the SD of the draws' differences
    i0 = np.zeros((p, p), dtype=bool)
    i0[indices, :] = True
    i0[:, indices] = True  # stepdown & symmetric: cstype becomes "lower"
    np.fill_diagonal(i0, False)
    i1 = i0.copy()
    chat_l = np.zeros((p, p))
    while True:
        stats = []
        for r in range(z.shape[0]):
            values = [
                zd[r, j, k] / sigmadiff[j, k]
                for j in range(p)
                for k in range(p)
                if i1[j, k]
            ]
            stats.append(max(values))
        crit = np.quantile(stats, coverage)
        for j in range(p):
            for k in range(p):
                if i1[j, k]:
                    chat_l[j, k] = thetadiff[j, k] - sigmadiff[j, k] * crit
        i1[chat_l > 0] = False
        if i1.sum() == i0.sum() or i1.sum() == 0:
            break
        i0 = i1.copy()
    star = np.zeros((p, p), dtype=bool)
    star[indices, :] = True
    star[:, indices] = True
    np.fill_diagonal(star, False)
    rejected = star & (chat_l > 0)
    n_plus = rejected[indices, :].sum(axis=1)
    n_minus = rejected[:, indices].sum(axis=0)
    return n_minus + 1, p - n_plus


@pytest.mark.parametrize("seed", range(6))
def test_rank_sets_equal_the_csranks_algorithm(seed):
    """H: simultaneous and marginal sets equal those of a loop-by-loop
    transcription of csranks' step-down procedure, on 7 learners with near ties
    and correlated bootstrap draws (200 draws)."""
    rng = np.random.default_rng(seed)
    p = 7
    est = np.sort(rng.normal(0, 1, p))[::-1] * 0.3
    est[1] = est[0] - 0.01  # a near tie at the top
    cov = 0.02 * (0.5 * np.eye(p) + 0.5)
    draws = est + rng.multivariate_normal(np.zeros(p), cov, size=200)
    z = draws - est
    res = rank_confidence_sets(est, draws, greater_is_better=True)
    low, high = _csranks_transcription(est, z, 0.95, list(range(p)))
    assert res.low.tolist() == low.tolist()
    assert res.high.tolist() == high.tolist()
    marg = rank_confidence_sets(est, draws, simultaneous=False, greater_is_better=True)
    for i in range(p):
        lo, hi = _csranks_transcription(est, z, 0.95, [i])
        assert (marg.low[i], marg.high[i]) == (lo[0], hi[0])


def test_bootstrap_t_reduces_to_the_csranks_studentisation():
    """H: the leaderboard's bootstrap-t (each resample studentised by its own
    standard errors) equals the csranks studentisation when every resample's
    standard error is the bootstrap SD; and _pair_standard_errors gives the SD
    of the paired differences over sqrt(N) on the data, and within a resample
    that repeats each data set once."""
    from sklearn_bench.stats._leaderboard import (
        _pair_standard_errors,
        _rank_sets_from,
        _studentised,
    )

    rng = np.random.default_rng(11)
    x = rng.normal(0, 1, (30, 5)) + np.arange(5) * 0.3
    est = x.mean(axis=0)
    counts = rng.multinomial(30, np.full(30, 1 / 30), size=300).astype(float)
    draws = counts @ x / 30
    dev = draws - est
    sigma = (dev[:, :, None] - dev[:, None, :]).std(axis=0)
    plain = _studentised(est, draws)
    fixed_se = _studentised(est, draws, sigma, np.broadcast_to(sigma, (300, 5, 5)))
    for a, b in zip(plain, fixed_se, strict=True):
        np.testing.assert_array_equal(a, b)
    se_hat, se_draws = _pair_standard_errors(x, np.ones((1, 30)))
    d = x[:, 0] - x[:, 1]
    assert se_hat[0, 1] == pytest.approx(d.std() / np.sqrt(30), rel=1e-12)
    np.testing.assert_allclose(se_draws[0], se_hat, rtol=1e-9, atol=1e-12)
    parts = _studentised(est, draws, *_pair_standard_errors(x, counts))
    low, high, _ = _rank_sets_from(parts, 0.95, marginal=False)
    assert (low <= high).all()


def test_rank_sets_contain_the_estimate_and_marginal_is_tighter():
    """H: every set contains the estimated rank, marginal sets lie inside the
    simultaneous ones, the estimated best may be best; and lower-is-better
    estimates give the mirrored answer of their negation."""
    rng = np.random.default_rng(5)
    est = rng.normal(0, 0.2, 12)
    draws = est + rng.normal(0, 0.1, (500, 12))
    sim = rank_confidence_sets(est, draws, greater_is_better=True)
    marg = rank_confidence_sets(est, draws, simultaneous=False, greater_is_better=True)
    assert ((sim.low <= sim.rank) & (sim.rank <= sim.high)).all()
    assert ((sim.low <= marg.low) & (marg.high <= sim.high)).all()
    assert sim.may_be_best[np.argmax(est)]
    neg = rank_confidence_sets(-est, -draws, greater_is_better=False)
    assert neg.low.tolist() == sim.low.tolist()
    assert neg.high.tolist() == sim.high.tolist()


def test_leaderboard_rank_sets_use_the_chosen_statistic():
    """H: the leaderboard's rank columns are rank_confidence_sets of the mean
    score / mean rank / rating draws; ``rank`` is ordered and may_be_best is
    rank_low == 1; the table's sort follows ``rank``."""
    wide = _errors(7, n=50, p=8)
    for by in ("score", "mean_rank", "rating"):
        res = leaderboard_table(
            wide, rank_by=by, n_resamples=300, random_state=0, greater_is_better=False
        )
        t = res.table
        assert isinstance(res, LeaderboardResult) and res.rank_by == by
        assert t["rank"].is_monotonic_increasing
        assert (t["may_be_best"] == (t["rank_low"] == 1)).all()
        assert ((t["rank_low"] <= t["rank"]) & (t["rank"] <= t["rank_high"])).all()
        assert (t["rank_low"] <= t["rank_low_marginal"]).all()
        assert (t["rank_high_marginal"] <= t["rank_high"]).all()


def test_leaderboard_is_reproducible_and_uses_the_seed():
    """H: the same random_state gives the same table; another gives other
    intervals and the same point estimates."""
    wide = _errors(8)
    a = leaderboard_table(
        wide, n_resamples=100, random_state=3, greater_is_better=False
    ).table
    b = leaderboard_table(
        wide, n_resamples=100, random_state=3, greater_is_better=False
    ).table
    c = leaderboard_table(
        wide, n_resamples=100, random_state=4, greater_is_better=False
    ).table
    pd.testing.assert_frame_equal(a, b)
    pd.testing.assert_series_equal(a["rating"], c.loc[a.index, "rating"])
    assert not np.allclose(a["rating_low"], c.loc[a.index, "rating_low"])


# ------------------------------------------------------------------ stability
def test_stability_shrinks_with_more_datasets():
    """H: projected from the bootstrap, P(top stays on top) rises and the mean
    rank-set width falls (weakly) with the number of data sets; n_needed is the
    first grid point at or below the target width."""
    wide = _errors(9, n=40, p=6)
    res = leaderboard_table(
        wide, n_resamples=400, random_state=0, greater_is_better=False
    ).stability(target_width=0.5)
    t = res.table
    assert t["observed"].sum() == 1
    assert np.all(np.diff(t["mean_width"]) <= 1e-12)
    assert t["p_top_stays"].iloc[-1] >= t["p_top_stays"].iloc[0]
    if res.n_needed is not None:
        first = t.loc[t["mean_width"] <= 0.5, "n_datasets"].iloc[0]
        assert res.n_needed == first


def test_stability_of_tied_learners_never_reaches_width_zero():
    """H: two learners with the same estimate are never separated: their sets
    keep width >= 1 at every N, so a target width of 0 is never reached."""
    rng = np.random.default_rng(0)
    est = np.array([1.0, 1.0, 0.0])
    draws = est + rng.normal(0, 0.1, (500, 3))
    res = rank_stability(
        est, draws, n_datasets=30, target_width=0.0, greater_is_better=True
    )
    assert res.n_needed is None
    assert (res.table["max_width"] >= 1).all()


def test_input_validation_names_the_argument():
    """H: bad options raise ValueError/TypeError naming the argument."""
    wide = _errors(0)
    with pytest.raises(ValueError, match="`reference`"):
        leaderboard_table(wide, reference="nope", greater_is_better=False)
    with pytest.raises(ValueError, match="`rank_by`"):
        leaderboard_table(wide, rank_by="elo", greater_is_better=False)
    with pytest.raises(ValueError, match="`n_resamples`"):
        leaderboard_table(wide, n_resamples=1, greater_is_better=False)
    with pytest.raises(ValueError, match="`confidence_level`"):
        leaderboard_table(wide, confidence_level=1.5, greater_is_better=False)
    with pytest.raises(ValueError, match="`bootstrap_draws`"):
        rank_confidence_sets([1, 2], np.ones((5, 3)), greater_is_better=True)
    with pytest.raises(ValueError, match="`scores`"):
        leaderboard_table(wide.iloc[:1], greater_is_better=False)


def test_values_whose_squares_overflow_are_refused_and_large_ones_are_not():
    """H: scores of 1e155 (finite, but their squares summed over the data sets
    overflow, which gave an infinite bootstrap standard error) raise a ValueError
    that says so; the same table scaled to 1e150 gives finite numbers, the
    table at scale 1 times 1e150, in the same order."""
    wide = _errors(0)
    with pytest.raises(ValueError, match="too large to average and square"):
        leaderboard_table(wide * 1e155, greater_is_better=False)
    big = leaderboard_table(wide * 1e150, greater_is_better=False, random_state=0)
    small = leaderboard_table(wide, greater_is_better=False, random_state=0)
    assert np.isfinite(big.table["mean_score"]).all()
    np.testing.assert_allclose(
        big.table["mean_score"] / 1e150, small.table["mean_score"]
    )
    assert big.table["rank"].tolist() == small.table["rank"].tolist()


def test_stability_with_delta_orders_the_pairs_that_matter():
    """H: with Δ, pairs closer than Δ need not be ordered: two learners 0.001
    apart never are, yet every pair at least Δ = 0.05 apart is ordered from some
    N on (n_needed_delta), while the width target 0 is never met."""
    rng = np.random.default_rng(1)
    est = np.array([1.0, 0.999, 0.8, 0.6])
    draws = est + rng.normal(0, 0.05, (800, 4))
    res = rank_stability(
        est, draws, n_datasets=20, target_width=0.0, delta=0.05, greater_is_better=True
    )
    assert res.n_needed is None
    assert res.n_needed_delta is not None
    t = res.table.set_index("n_datasets")
    assert t.loc[res.n_needed_delta, "p_ordered_delta"] == 1.0
    assert t["p_ordered_delta"].iloc[0] < 1.0
    with pytest.raises(ValueError, match="`delta`"):
        rank_stability(est, draws, n_datasets=20, delta=-1, greater_is_better=True)


def _bt_fit_with_copies(wins, n, t0, max_iter=200, tol=1e-10):
    """The Newton iteration of _bt_fit as first written (a copy of the active
    rows, the Hessian by np.where, a shifted copy to solve): the reference."""
    from sklearn_bench.stats._leaderboard import RIDGE, _bt_loglik, expit

    t = np.array(t0, dtype=float)
    n_problems, p = t.shape
    shared, active, eye = n.ndim == 2, np.arange(n_problems), np.eye(p, dtype=bool)
    for _ in range(max_iter):
        if active.size == 0:
            break
        ta = t[active]
        na = n if shared else n[active]
        prob = expit(ta[:, :, None] - ta[:, None, :])
        grad = wins[active] - (na * prob).sum(-1) - 2 * RIDGE * ta
        v = na * prob * (1 - prob)
        diag = v.sum(-1) + 2 * RIDGE
        hess = np.where(eye, diag[:, :, None], -v)
        scale = diag.mean(-1, keepdims=True)[:, :, None] / p + 1e-12
        step = np.linalg.solve(hess + scale, grad[:, :, None])[:, :, 0]
        big = np.flatnonzero(np.abs(step).max(-1) > 0.5)
        if big.size:
            wb, nb, tb = wins[active][big], (na if shared else na[big]), ta[big]
            old = _bt_loglik(wb, nb, tb)
            sb = step[big]
            for _ in range(60):
                worse = _bt_loglik(wb, nb, tb + sb) < old - 1e-12 * np.abs(old)
                if not worse.any():
                    break
                sb[worse] *= 0.5
            step[big] = sb
        t[active] = ta + step
        active = active[np.abs(step).max(-1) > tol]
    return t - t.mean(-1, keepdims=True)


def test_bt_fit_in_place_gives_the_floats_of_the_copying_iteration():
    """H: _bt_fit, 128 problems at a time and with one Hessian for a shared warm
    start, gives bit for bit the strengths of the iteration that fitted all
    problems at once, copied the active rows and built every Hessian anew, for
    a shared and a per-problem comparison matrix, from a cold start (long steps
    halved) and a warm one (problems converging at different iterations)."""
    from sklearn_bench.stats._leaderboard import _bt_fit

    rng = np.random.default_rng(11)
    p, b = 8, 300
    n = rng.integers(0, 12, (b, p, p)).astype(float)
    n = n + n.transpose(0, 2, 1)
    wins = (n * rng.uniform(0, 1, (b, p, p)) ** 3).sum(-1)
    for start in (np.zeros((b, p)), np.tile(rng.normal(0, 0.3, p), (b, 1))):
        for comparisons in (n, n[0]):
            w = wins if comparisons.ndim == 3 else wins[:1].repeat(b, 0)
            got = _bt_fit(w, comparisons, start)
            assert got.tobytes() == _bt_fit_with_copies(w, comparisons, start).tobytes()


def _rank_sets_by_rounds(parts, level, *, marginal):
    """csranks's step-down as first written (a masked copy of the statistics in
    every round): the reference of the maxima taken a block of draws at a time."""
    z, tstat, fixed, in_play = parts
    p = z.shape[0]
    if not marginal:
        rejected, active = fixed.copy(), in_play.copy()
        while active.any():
            stat = np.where(active[None], tstat, -np.inf).max(axis=(1, 2))
            new = active & (z > np.quantile(stat, level))
            if not new.any():
                break
            rejected |= new
            active &= ~new
        return 1 + rejected.sum(axis=0), p - rejected.sum(axis=1), rejected
    row_rej, col_rej = fixed.copy(), fixed.T.copy()
    row_act, col_act = in_play.copy(), in_play.T.copy()
    while row_act.any() or col_act.any():
        stat = np.maximum(
            np.where(row_act[None], tstat, -np.inf).max(axis=2),
            np.where(col_act[None], tstat.transpose(0, 2, 1), -np.inf).max(axis=2),
        )
        crit = np.quantile(stat, level, axis=0)
        new_row = row_act & (z > crit[:, None])
        new_col = col_act & (z.T > crit[:, None])
        if not (new_row.any() or new_col.any()):
            break
        row_rej, col_rej = row_rej | new_row, col_rej | new_col
        row_act, col_act = row_act & ~new_row, col_act & ~new_col
    return 1 + col_rej.sum(axis=1), p - row_rej.sum(axis=1), None


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("seed", range(6))
def test_rank_sets_and_stability_equal_the_step_down_by_rounds(seed):
    """H: the rank sets (simultaneous and marginal, plain and bootstrap-t, with
    ties, a learner without sampling error and a pair that never varies) equal
    the step-down that masks a copy of the statistics every round; and the
    stability grid, studentised once with its z-scores scaled by sqrt(m / N),
    gives the table of studentising each grid point's scaled draws anew."""
    from sklearn_bench.stats._leaderboard import (
        _pair_standard_errors,
        _rank_sets_from,
        _studentised,
    )

    rng = np.random.default_rng(seed)
    n, p = 40, 9
    x = np.round(rng.normal(0, 1, (n, p)) + np.linspace(0, 1.5, p), 1)
    x[:, 1] = x[:, 0] + 0.3  # a pair whose difference never varies
    counts = rng.multinomial(n, np.full(n, 1 / n), size=300).astype(float)
    est, draws = x.mean(axis=0), counts @ x / n
    draws[:, 2] = est[2]  # a learner without sampling error
    se = _pair_standard_errors(x, counts)
    for parts in (_studentised(est, draws), _studentised(est, draws, *se)):
        for level, marginal in [(0.9, False), (0.95, False), (0.95, True)]:
            got = _rank_sets_from(parts, level, marginal=marginal)
            want = _rank_sets_by_rounds(parts, level, marginal=marginal)
            for a, b in zip(got, want[:2], strict=False):
                np.testing.assert_array_equal(a, b)
    res = rank_stability(est, draws, n_datasets=n, greater_is_better=True, delta=0.2)
    rows = []
    for m in res.table["n_datasets"]:
        scaled = est + np.sqrt(n / m) * (draws - est)
        low, high, rejected = _rank_sets_by_rounds(
            _studentised(est, scaled), 0.95, marginal=False
        )
        apart = (est[:, None] - est[None, :]) >= 0.2
        rows.append(
            [(high - low).mean(), (high - low).max(), (low == 1).sum(),
             rejected[apart].mean()]
        )  # fmt: skip
    columns = ["mean_width", "max_width", "n_may_be_best", "p_ordered_delta"]
    np.testing.assert_array_equal(res.table[columns].to_numpy(float), rows)
