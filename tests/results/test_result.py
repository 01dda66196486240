import json
import warnings

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import load_iris, make_regression
from sklearn.dummy import DummyClassifier
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import RepeatedKFold
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import Dataset


class _Fails(DummyClassifier):
    def fit(self, X, y, sample_weight=None):
        if len(X) < 110:
            raise ValueError('bad, "quoted", multi\nline message')
        return super().fit(X, y, sample_weight)


@pytest.fixture(scope="module")
def experiment_result():
    X, y = load_iris(return_X_y=True)
    X_r, y_r = make_regression(n_samples=40, n_features=2, random_state=0)
    rows = np.arange(150)
    splits = [(rows[:100], rows[100:]), (rows[30:], rows[:30]), (rows[20:], rows[:20])]
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier(), "fails": _Fails()},
        cv=splits,
        scoring=["error_rate", "accuracy"],
        random_state=0,
        keep_predictions=True,
        progress=False,
    )
    with pytest.warns(Warning, match="1 of the 3 tasks failed|tasks failed"):
        exp.fit({"iris": (X, y), "iris test": Dataset(X, y, X_test=X, y_test=y)})
    reg = BenchmarkExperiment(
        {"ols": LinearRegression(), "tree": DecisionTreeRegressor()},
        cv=RepeatedKFold(n_splits=2, n_repeats=3, random_state=0),
        random_state=1,
        keep_predictions=True,
        progress=False,
    ).fit(X_r, y_r)
    return exp.results_, reg.results_


def test_scores_have_the_documented_columns(experiment_result):
    """H: .scores is long, one row per task and metric, with the documented columns
    and experiment order in its categoricals."""
    result, _ = experiment_result
    assert list(result.scores.columns) == [
        "dataset", "learner", "split", "replicate", "fold", "metric", "value",
        "fit_time", "score_time", "n_train", "n_test", "failed", "error_type",
        "error_message", "traceback",
    ]  # fmt: skip
    assert len(result.scores) == 2 * 3 * 2 * 2
    assert list(result.scores["learner"].cat.categories) == ["tree", "fails"]
    assert result.datasets == {"iris": "real world", "iris test": "competition"}
    assert result.metrics == {"error_rate": False, "accuracy": True}


def test_performance_is_the_fold_mean_within_replicates(experiment_result):
    """H: performance() averages fold scores within each replicate (RepeatedKFold:
    2 folds per repetition) and keeps one row per dataset, learner, replicate."""
    _, reg = experiment_result
    perf = reg.performance()
    assert perf.shape == (2 * 3, 4)
    s = reg.scores
    for _, row in perf.iterrows():
        folds = s[(s.learner == row.learner) & (s.replicate == row.replicate)]["value"]
        assert len(folds) == 2
        assert row.value == folds.mean()
    table = reg.aggregate(stat="median")
    assert list(table.columns) == ["ols", "tree"]
    assert table.loc["data", "ols"] == perf[perf.learner == "ols"]["value"].median()


def test_failed_fold_makes_replicate_performance_nan(experiment_result):
    """H: a failed task (error_score=nan) gives NaN performance for its replicate."""
    result, _ = experiment_result
    perf = result.performance("accuracy")
    fails = perf[(perf.learner == "fails") & (perf.dataset == "iris")]
    assert fails["value"].isna().tolist() == [True, False, False]  # 100 < 110 rows


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_save_load_round_trip_is_exact(experiment_result, tmp_path, fmt):
    """H: save/load reproduces scores, predictions, pointwise losses (kept with
    the predictions) and metadata exactly, in plain files (no pickle)."""
    if fmt == "parquet":
        pytest.importorskip("pyarrow")
    for i, result in enumerate(experiment_result):
        path = tmp_path / f"r{i}"
        result.save(path, format=fmt)
        assert sorted(p.name for p in path.iterdir()) == sorted(
            ["metadata.json", *(f"{n}.{fmt}" for n in ("scores", "predictions",
                                                        "losses"))]
        )  # fmt: skip
        back = BenchmarkResult.load(path)
        pd.testing.assert_frame_equal(back.scores, result.scores, check_exact=True)
        pd.testing.assert_frame_equal(
            back.predictions, result.predictions, check_exact=True
        )
        pd.testing.assert_frame_equal(back.losses, result.losses, check_exact=True)
        assert (back.metrics, back.datasets, back.learners) == (
            result.metrics, result.datasets, result.learners,
        )  # fmt: skip
        assert back.info == result.info
        meta = json.loads((path / "metadata.json").read_text())
        directions = {m["name"]: m["greater_is_better"] for m in meta["metrics"]}
        assert directions == result.metrics


@settings(max_examples=30, deadline=None)
@given(
    st.lists(
        st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=1, max_size=6
    )
)
def test_csv_round_trip_of_any_float_is_bit_exact(tmp_path_factory, values):
    """H: any float64 (NaN, inf, subnormal) survives save/load as CSV bit-exactly."""
    df = pd.DataFrame(
        {"d": "a", "l": [f"m{i}" for i in range(len(values))], "v": values}
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", greater_is_better=True
    )
    path = tmp_path_factory.mktemp("floats")
    result.save(path)
    back = BenchmarkResult.load(path).scores["value"].to_numpy()
    np.testing.assert_array_equal(
        back.view(np.uint64)[~np.isnan(back)],
        np.asarray(values).view(np.uint64)[~np.isnan(values)],
    )
    assert np.array_equal(np.isnan(back), np.isnan(values))


def test_from_frame_published_table(reference_table):
    """H: a published data set x learner table (Riddle's C4.5 variants) enters as
    one replicate per cell and aggregate() gives the table back."""
    wide = reference_table("riddle_c45_variants_error.csv")
    long = wide.reset_index().melt(
        id_vars="dataset", var_name="learner", value_name="error"
    )
    result = BenchmarkResult.from_frame(
        long, dataset="dataset", learner="learner", value="error",
        greater_is_better=False,
    )  # fmt: skip
    assert result.learners == list(wide.columns)
    assert list(result.datasets) == list(wide.index)
    assert result.metrics == {"error": False}
    table = result.aggregate()
    np.testing.assert_array_equal(table.to_numpy(), wide.to_numpy())
    assert (result.performance()["replicate"] == 0).all()


def test_from_frame_replicates_metrics_and_folds():
    """H: from_frame with replicate and metric columns keeps both; repeated keys
    become folds of one replicate."""
    df = pd.DataFrame(
        {
            "d": ["a"] * 6,
            "l": ["x"] * 6,
            "r": [0, 0, 1, 1, 0, 1],
            "m": ["err", "err", "err", "err", "auc", "auc"],
            "v": [0.1, 0.3, 0.2, 0.4, 0.9, 0.8],
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", replicate="r", metric="m",
        greater_is_better={"err": False, "auc": True},
    )  # fmt: skip
    assert result.metrics == {"err": False, "auc": True}
    assert result.performance("err")["value"].tolist() == pytest.approx([0.2, 0.3])
    assert result.performance("auc")["value"].tolist() == [0.9, 0.8]
    with pytest.raises(ValueError, match="`greater_is_better` lacks"):
        BenchmarkResult.from_frame(
            df, dataset="d", learner="l", value="v", metric="m",
            greater_is_better={"err": False},
        )  # fmt: skip
    with pytest.raises(ValueError, match="no columns"):
        BenchmarkResult.from_frame(
            df, dataset="d", learner="nope", value="v", greater_is_better=True
        )
    with pytest.raises(ValueError, match="Unknown `metric`"):
        result.performance("rmse")


def test_load_rejects_unknown_format_version(experiment_result, tmp_path):
    """H: a directory written by another format version is refused clearly."""
    experiment_result[1].save(tmp_path)
    meta = json.loads((tmp_path / "metadata.json").read_text())
    meta["format_version"] = 99
    (tmp_path / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="format version 99"):
        BenchmarkResult.load(tmp_path)


@pytest.mark.parametrize(
    "entry",
    [
        {"name": "error_rate", "greater_is_better": True},
        {"name": "neg_log_loss", "greater_is_better": False},
    ],
)
def test_load_refuses_a_flipped_metric_direction(experiment_result, tmp_path, entry):
    """H: a saved result whose metadata.json says a known metric is better the
    other way round (a hand edit that would rank the worst learner first) is
    refused, as a store with the same edit is; a custom metric's direction is
    the user's to state and loads as written."""
    experiment_result[1].save(tmp_path)
    meta = json.loads((tmp_path / "metadata.json").read_text())
    meta["metrics"] = [entry]
    (tmp_path / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="cannot change the direction"):
        BenchmarkResult.load(tmp_path)


def test_load_keeps_a_custom_metric_direction(tmp_path):
    """H: a metric of no known name saved with either direction loads with it."""
    df = pd.DataFrame({"d": ["a", "a"], "l": ["x", "y"], "v": [0.1, 0.3]})
    for greater in (True, False):
        result = BenchmarkResult.from_frame(
            df, dataset="d", learner="l", value="v", greater_is_better=greater
        )
        result.save(tmp_path)
        assert BenchmarkResult.load(tmp_path).metrics == {"v": greater}


def test_predictions_given_as_a_reader_are_read_once_when_first_used(
    experiment_result,
):
    """H: a callable `predictions` (how a result read from a store gets its
    predictions) is not called by the constructor, is called exactly once when
    `predictions` is first used, and gives the table it returns, checked as a
    table given directly would be."""
    result, _ = experiment_result
    calls = []

    def reader():
        calls.append(1)
        return result.predictions

    lazy = BenchmarkResult(
        result.scores,
        metrics=result.metrics,
        datasets=result.datasets,
        learners=result.learners,
        predictions=reader,
    )
    assert calls == []
    pd.testing.assert_frame_equal(lazy.predictions, result.predictions)
    pd.testing.assert_frame_equal(lazy.predictions, result.predictions)
    assert calls == [1]
    bad = result.predictions.assign(learner="nobody")
    lazy.predictions = lambda: bad
    with pytest.raises(ValueError, match="learner values"):
        _ = lazy.predictions


def test_competition_predictions_index_the_fixed_test_sample(experiment_result):
    """H: for the competition problem, kept correctness vectors of two learners are
    over the same fixed test rows, so McNemar's b and c can be counted."""
    result, _ = experiment_result
    pred = result.predictions[result.predictions.dataset == "iris test"]
    tree = pred[(pred.learner == "tree") & (pred.split == 0)]
    assert tree["row"].tolist() == list(range(150))
    assert tree["correct"].dtype == "boolean"


def _two_learner_result():
    """Learners A and B on 6 data sets, one score each (B − A = 0.0292 on average)."""
    a = [0.80, 0.75, 0.90, 0.70, 0.85, 0.60]
    b = [0.83, 0.78, 0.92, 0.74, 0.88, 0.625]
    frame = pd.DataFrame(
        {
            "dataset": [f"d{i}" for i in range(6)] * 2,
            "learner": ["A"] * 6 + ["B"] * 6,
            "value": a + b,
        }
    )
    return BenchmarkResult.from_frame(
        frame, dataset="dataset", learner="learner", value="value",
        greater_is_better=True,
    )  # fmt: skip


def test_scores_edited_in_place_never_leave_stale_numbers():
    """H: (issue 36) an in-place edit of the frame read from ``result.scores``
    cannot make a test disagree with the scores the result shows: the result's
    scores are unchanged (its frame is a copy) and its tests are those of a
    result built fresh from ``result.scores``; assigning the edited frame to
    ``result.scores`` gives the fresh result's numbers (0.0792, not the stale
    0.0292 of 17a1a60, which kept arrays keyed by id(scores))."""
    result = _two_learner_result()
    before = result.paired_test("B", "A").estimate
    assert before == pytest.approx(0.0292, abs=5e-5)
    scores = result.scores
    scores.loc[scores["learner"] == "B", "value"] += 0.05
    fresh = BenchmarkResult(
        result.scores,
        metrics=result.metrics,
        datasets=result.datasets,
        learners=result.learners,
    )
    assert result.paired_test("B", "A").estimate == fresh.paired_test("B", "A").estimate
    assert result.paired_test("B", "A").estimate == before
    result.scores = scores
    edited = BenchmarkResult(
        scores, metrics=result.metrics, datasets=result.datasets, learners=["A", "B"]
    )
    estimate = result.paired_test("B", "A").estimate
    assert estimate == edited.paired_test("B", "A").estimate
    assert estimate == pytest.approx(0.0792, abs=5e-5)


def test_no_frame_a_result_hands_out_can_edit_it():
    """H: (issue 47) on every pandas the project allows (pandas 2 has no
    Copy-on-Write: a shallow copy shares its arrays), the frames a result hands
    out share nothing with it: after ``sc = result.scores; sc.loc[sc.learner
    == "B", "value"] += 0.10`` and in-place edits of ``result.losses`` and
    ``result.predictions``, the result's own tables are unchanged, so the mean
    B − A of its scores and its paired_test estimate still agree (0.0292); a
    column assigned to a read frame changes nothing either."""
    result = _two_learner_result()
    before = result.paired_test("B", "A").estimate
    sc = result.scores
    sc.loc[sc.learner == "B", "value"] += 0.10
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # pandas 3 warns of chained assignment
        result.scores["value"] = 0.0
    means = result.scores.groupby("learner", observed=True)["value"].mean()
    assert means["B"] - means["A"] == pytest.approx(before, rel=1e-12)
    assert result.paired_test("B", "A").estimate == before
    X, y = load_iris(return_X_y=True)
    run = BenchmarkExperiment(
        {"dummy": DummyClassifier()}, cv=3, keep_predictions=True, progress=False
    ).fit({"iris": (X, y)}).results_  # fmt: skip
    for name, column, value in (("losses", "loss", 9.0), ("predictions", "row", -1)):
        kept = getattr(run, name)
        kept.loc[:, column] = value
        assert (getattr(run, name)[column] != value).all()
    with pytest.raises(ValueError, match="columns"):
        result.scores = result.scores.drop(columns="value")
