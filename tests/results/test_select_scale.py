"""The vectorised selection equals plain pandas on shuffled, folded, gappy scores."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.results import _select


def _scores(seed=0, n_datasets=7, n_learners=4, n_replicates=5, n_folds=3):
    """Scores in shuffled row order, with folds, sparse replicate ids, two metrics
    and integer labels (converted to str by the result)."""
    rng = np.random.default_rng(seed)
    index = pd.MultiIndex.from_product(
        [
            [f"d{i}" for i in range(n_datasets)],
            [10 + j for j in range(n_learners)],  # integer learner labels
            np.arange(n_replicates) * 1000,  # sparse replicate ids
            range(n_folds),
            ["loss", "gain"],
        ],
        names=["dataset", "learner", "replicate", "fold", "metric"],
    )
    df = index.to_frame(index=False)
    df["split"] = df["replicate"] // 1000 * n_folds + df["fold"]
    df["value"] = rng.normal(size=len(df)).round(2)
    df = df.sample(frac=1.0, random_state=seed).reset_index(drop=True)
    return df


def _result(df, datasets=None):
    return BenchmarkResult(
        df,
        metrics={"loss": False, "gain": True},
        datasets=dict.fromkeys(datasets or sorted(set(df["dataset"])), "unknown"),
        learners=[str(m) for m in sorted(set(df["learner"]))],
    )


def _plain_performance(df, metric):
    sub = df[df["metric"] == metric].astype({"learner": str})
    grouped = sub.groupby(["dataset", "learner", "replicate"], sort=True)["value"]
    out = grouped.mean()
    out[grouped.apply(lambda v: v.isna().any())] = np.nan
    return out


def test_performance_equals_a_plain_groupby():
    """H: performance() on shuffled rows with folds and sparse replicate ids equals
    pandas' groupby mean of the folds (NaN when any fold is NaN), bit for bit, in
    (data set, learner, replicate) order."""
    df = _scores()
    df.loc[3, "value"] = np.nan
    result = _result(df)
    for metric in ["loss", "gain"]:
        perf = result.performance(metric)
        expected = _plain_performance(df, metric)
        got = perf.set_index(["dataset", "learner", "replicate"])["value"]
        got.index = got.index.set_levels(
            [got.index.levels[0].astype(str), got.index.levels[1].astype(str)],
            level=[0, 1],
        )
        assert list(got.index) == list(expected.index)
        np.testing.assert_array_equal(got.to_numpy(), expected.to_numpy())


def test_blocks_and_aggregate_equal_plain_pivots():
    """H: blocks() across data sets and within one, and aggregate() for mean, std
    and count, equal pandas pivots of the plain performances, in the result's
    order of data sets (not sorted) and the requested order of learners."""
    df = _scores(seed=1)
    order = ["d3", "d0", "d6", "d1", "d5", "d2", "d4"]
    result = _result(df, datasets=order)
    perf = _plain_performance(df, "loss").reset_index()
    pivot = perf.groupby(["dataset", "learner"])["value"].mean().unstack()
    learners = ["13", "10", "12"]
    table = _select.blocks(result, learners, metric="loss")
    pd.testing.assert_frame_equal(
        table,
        pivot.loc[order, learners].rename_axis(index="dataset", columns="learner"),
        check_exact=True,
    )
    within = _select.blocks(result, learners, metric="loss", dataset="d5")
    expected = perf[perf["dataset"] == "d5"].pivot(
        index="replicate", columns="learner", values="value"
    )[learners]
    np.testing.assert_array_equal(within.to_numpy(), expected.to_numpy())
    assert within.index.tolist() == [0, 1000, 2000, 3000, 4000]
    for stat in ["mean", "std", "count"]:
        got = result.aggregate("loss", stat=stat)
        want = perf.groupby(["dataset", "learner"])["value"].agg(stat).unstack()
        want = want.loc[order, result.learners]
        np.testing.assert_array_equal(got.to_numpy(), want.to_numpy())
    assert result.aggregate("loss", stat="count").dtypes.eq(np.int64).all()


def test_cache_follows_new_scores_and_errors_still_name_the_block():
    """H: a result whose scores are replaced is analysed afresh (assigning
    ``result.scores`` drops what was read from the old ones); across data sets
    a data set where a learner is missing or has a NaN performance is left out
    and counted, within it the NaN performance is named as before."""
    df = _scores(seed=2)
    result = _result(df)
    first = _select.blocks(result, ["10", "11"], metric="loss")
    result.scores = df.assign(value=df["value"] + 1.0)
    second = _select.blocks(result, ["10", "11"], metric="loss")
    np.testing.assert_allclose(second.to_numpy(), first.to_numpy() + 1.0)
    gappy = _result(df[~((df["learner"] == 11) & (df["dataset"] == "d2"))])
    table = _select.blocks(gappy, ["10", "11"], metric="loss")
    assert "d2" not in table.index and table.attrs["n_dropped"] == 1
    nan = df.copy()
    nan.loc[(nan["learner"] == 12) & (nan["dataset"] == "d4"), "value"] = np.nan
    table = _select.blocks(_result(nan), ["10", "11"], metric="loss")
    assert "d4" not in table.index and table.attrs["n_dropped"] == 1
    with pytest.raises(ValueError, match="NaN performance on data set 'd4'"):
        _select.blocks(_result(nan), ["10", "12"], metric="loss", dataset="d4")


def test_from_frame_labels_are_factorised_once():
    """H: from_frame on string and numeric labels with a missing one gives the
    labels str() gives, in order of appearance, and folds numbered per (data set,
    learner, replicate) in order of appearance."""
    df = pd.DataFrame(
        {
            "d": ["b", "a", "b", "a", "b"],
            "m": [1, 1, 2, None, 1],
            "v": [0.1, 0.2, 0.3, 0.4, 0.5],
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="m", value="v", greater_is_better=False
    )
    assert list(result.datasets) == ["b", "a"]
    # str() of each value of the float column (float because of the missing one)
    assert result.learners == ["1.0", "2.0", "nan"]
    assert result.scores["fold"].tolist() == [0, 0, 0, 0, 1]
    assert result.scores["error_type"].tolist() == [""] * 5


def _split_outcome(func, *args, **kwargs):
    try:
        return func(*args, **kwargs)
    except ValueError as exc:
        return f"ValueError: {exc}"


@pytest.mark.parametrize("seed", range(6))
def test_indexed_split_pair_equals_the_pandas_path(seed):
    """H: split_pair, which indexes the split scores once per metric and selects
    two columns, gives exactly what the pandas path (a pivot of the whole table
    per pair) gives, on shuffled scores with folds, sparse replicate ids, failed
    tasks, NaN scores, learners missing on some splits and data sets, varying
    split sizes, for every pair and data set: the same arrays bit for bit, the
    same scheme and counts, or the same error."""
    rng = np.random.default_rng(seed)
    df = _scores(seed=seed, n_datasets=5, n_learners=4, n_replicates=4)
    df["n_train"] = 60
    df["n_test"] = 30 if seed % 2 else 20  # k-fold (3 x 30 = 90) or not
    if seed % 3 == 0:
        df.loc[df["dataset"] == "d1", "n_test"] = -1
    failed = rng.random(len(df)) < 0.03
    df["error_type"] = np.where(failed, "ValueError", "")
    df.loc[rng.random(len(df)) < 0.02, "value"] = np.nan
    drop = rng.random(len(df)) < 0.02
    drop |= (df["dataset"] == "d3") & (df["learner"] == 12)
    df = df[~drop]
    result = _result(df)
    for metric in ["loss", "gain"]:
        for dataset in result.datasets:
            for a in result.learners:
                for b in result.learners:
                    if a == b:
                        continue
                    fast = _split_outcome(
                        _select.split_pair, result, a, b, metric=metric,
                        dataset=dataset,
                    )  # fmt: skip
                    slow = _split_outcome(
                        _select._split_pair_frame, result, a, b, metric=metric,
                        dataset=dataset,
                    )  # fmt: skip
                    if isinstance(slow, str):
                        assert fast == slow
                        continue
                    for name in slow.__dataclass_fields__:
                        np.testing.assert_array_equal(
                            getattr(fast, name), getattr(slow, name), err_msg=name
                        )


def test_split_pair_averages_repeated_rows_as_before():
    """H: scores with two rows for one (data set, learner, split) take the pandas
    path (the rows are averaged, as pivot_table does), so the indexed path never
    silently keeps one of them."""
    df = _scores(seed=9, n_datasets=2, n_learners=2, n_replicates=3, n_folds=1)
    df = pd.concat([df, df.iloc[:1].assign(value=df["value"].iloc[0] + 1.0)])
    result = _result(df)
    a, b = result.learners
    row = df.iloc[0]
    first, second = (a, b) if str(row["learner"]) == a else (b, a)
    s = _select.split_pair(
        result, first, second, metric=row["metric"], dataset=row["dataset"]
    )
    slow = _select._split_pair_frame(
        result, first, second, metric=row["metric"], dataset=row["dataset"]
    )
    np.testing.assert_array_equal(s.x, slow.x)
    assert (row["value"] + 0.5) in s.x.round(12)
