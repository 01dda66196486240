"""Tests of sklearn_bench/results/_leaderboard.py: BenchmarkResult.leaderboard and
win_rate_matrix select the data sets × learners table and delegate."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import make_classification
from sklearn.dummy import DummyClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.stats import leaderboard_table, win_rate_matrix

COLUMNS = [
    "rating", "rating_low", "rating_high", "win_rate", "win_rate_low",
    "win_rate_high", "mean_rank", "rank_low", "rank_high", "rank_low_marginal",
    "rank_high_marginal", "improvability", "may_be_best",
]  # fmt: skip


def _long(seed=0, n=25, learners="ABCD", replicates=2):
    rng = np.random.default_rng(seed)
    rows = [
        (f"d{i}", name, r, rng.uniform(0.1, 0.3) + 0.03 * j)
        for i in range(n)
        for r in range(replicates)
        for j, name in enumerate(learners)
    ]
    return pd.DataFrame(rows, columns=["data", "model", "rep", "error"])


def _result(df, greater_is_better=False):
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error",
        replicate="rep",
        greater_is_better=greater_is_better,
    )


def test_leaderboard_has_the_issue_columns_and_delegates():
    """H: the columns the issue names are there; the table equals
    leaderboard_table on aggregate() (replicate means) with the same seed."""
    result = _result(_long())
    board = result.leaderboard(n_resamples=200, random_state=0)
    assert set(COLUMNS) <= set(board.columns)
    assert board.index.name == "learner"
    assert board["may_be_best"].dtype == bool
    direct = leaderboard_table(
        result.aggregate(), n_resamples=200, random_state=0, greater_is_better=False
    ).table
    pd.testing.assert_frame_equal(board[direct.columns], direct, check_names=False)
    assert board.attrs["notes"] == []
    assert "fit_time" not in board  # from_frame stores no times


def test_leaderboard_follows_the_metric_direction():
    """H: accuracies (greater is better) rank as their errors 1 − accuracy do."""
    df = _long(1)
    acc = df.assign(error=1 - df["error"])
    a = _result(acc, greater_is_better=True).leaderboard(
        n_resamples=100, random_state=0
    )
    e = _result(df).leaderboard(n_resamples=100, random_state=0)
    assert list(a.index) == list(e.index)
    np.testing.assert_allclose(a["rating"], e["rating"])
    np.testing.assert_array_equal(a["rank_high"], e["rank_high"])


def test_missing_learner_is_handled_per_column_and_said():
    """H: a learner without a score on some data sets keeps its rating and win
    rate (from the comparisons it has) while mean score and mean rank use the
    complete data sets; attrs["notes"] says so and n_datasets counts its sets."""
    df = _long(2)
    df = df[~((df["model"] == "D") & df["data"].isin(["d0", "d1", "d2"]))]
    board = _result(df).leaderboard(n_resamples=100, random_state=0)
    assert board.loc["D", "n_datasets"] == 22
    assert board.loc["A", "n_datasets"] == 25
    assert board["rating"].notna().all() and board["win_rate"].notna().all()
    assert board.attrs["n_complete_datasets"] == 22
    assert any("lack a value" in note for note in board.attrs["notes"])


def test_win_rate_matrix_is_ordered_by_rating():
    """H: win_rate_matrix() is stats.win_rate_matrix of the same table, rows and
    columns ordered by rating (best first)."""
    result = _result(_long(3))
    matrix = result.win_rate_matrix()
    board = result.leaderboard(n_resamples=50, random_state=0)
    assert list(matrix.index) == list(
        board["rating"].sort_values(ascending=False).index
    )
    direct = win_rate_matrix(result.aggregate(), greater_is_better=False)
    pd.testing.assert_frame_equal(
        matrix, direct.loc[matrix.index, matrix.columns], check_names=False
    )


def test_experiment_result_has_fit_and_score_times():
    """H: a result of an experiment stores times: the leaderboard shows the mean
    fit_time and score_time per learner (mean over data sets of task means)."""
    datasets = {f"s{i}": make_classification(60, 4, random_state=i) for i in range(3)}
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier(random_state=0), "dummy": DummyClassifier()},
        cv=3,
        random_state=0,
        progress=False,
    ).fit(datasets)
    result = exp.results_
    board = result.leaderboard(n_resamples=50, random_state=0)
    scores = result.scores[result.scores["metric"] == list(result.metrics)[0]]
    per = scores.groupby(["dataset", "learner"], observed=True)["fit_time"].mean()
    expected = per.groupby(level="learner", observed=True).mean()
    for name in board.index:
        assert board.loc[name, "fit_time"] == pytest.approx(expected[name])
    assert (board["score_time"] >= 0).all()


def test_blocks_with_missing_equals_pandas():
    """H: the table of the leaderboard, the pairwise tests and Skillings–Mack
    (_select.blocks_with_missing) equals pandas' grouped means with a cell
    missing where a learner has no score, a failed replicate or fewer
    replicates than another learner on the data set."""
    from sklearn_bench.results import _select

    df = _long(4, n=8, replicates=3)
    df = df[~((df["model"] == "B") & (df["data"] == "d1"))]  # missing
    df = df[~((df["model"] == "C") & (df["data"] == "d2") & (df["rep"] == 2))]
    df.loc[(df["model"] == "D") & (df["data"] == "d3") & (df["rep"] == 0), "error"] = (
        np.nan
    )
    result = _result(df)
    ours = _select.blocks_with_missing(result, result.learners, metric="error")
    perf = result.performance("error").astype({"dataset": str, "learner": str})
    grouped = perf.groupby(["dataset", "learner"])
    n_rep = grouped["replicate"].nunique().unstack()
    ok = (grouped["value"].count() == grouped.size()).unstack().fillna(False)
    ok &= n_rep.eq(perf.groupby("dataset")["replicate"].nunique(), axis=0)
    ref = grouped["value"].mean().unstack().where(ok.astype(bool))
    ref = ref.reindex(index=list(result.datasets), columns=result.learners)
    ref = ref.dropna(how="all").rename_axis(index="dataset", columns="learner")
    pd.testing.assert_frame_equal(ours, ref)
    assert ours.isna().sum().sum() == 3


def test_return_result_gives_the_same_board_and_its_leaderboard_result():
    """Hypothesis: ``leaderboard(return_result=True)`` returns the board that
    ``leaderboard()`` returns with the same seed, and the LeaderboardResult behind
    it (same ratings; ``n_units`` = the complete data sets for rank_by="score",
    every data set for "rating"), so the analysis needs no private method."""
    df = _long(n=12)
    df = df[~((df["data"] == "d0") & (df["model"] == "A"))]  # d0 incomplete
    result = _result(df)
    board = result.leaderboard(n_resamples=50, random_state=0)
    board2, res = result.leaderboard(n_resamples=50, random_state=0, return_result=True)
    pd.testing.assert_frame_equal(board, board2)
    np.testing.assert_array_equal(res.table["rating"], board["rating"])
    assert res.n_units == 11
    _, by_rating = result.leaderboard(
        n_resamples=50, random_state=0, rank_by="rating", return_result=True
    )
    assert by_rating.n_units == 12
    with pytest.raises(TypeError, match="return_result"):
        result.leaderboard(n_resamples=50, return_result="yes")
