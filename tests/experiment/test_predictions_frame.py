import numpy as np
import pandas as pd

from sklearn_bench.experiment._experiment import _predictions_frame


def _out(dataset, learner, split, predictions):
    head = {
        "dataset": dataset,
        "learner": learner,
        "split": split,
        "replicate": split // 2,
        "fold": split % 2,
    }
    return {"rows": [head], "predictions": predictions}


def _naive(outs):
    parts = []
    for out in outs:
        pred = out["predictions"]
        if pred is None:
            continue
        n = len(pred["rows"])
        part = {
            k: [out["rows"][0][k]] * n
            for k in ["dataset", "learner", "split", "replicate", "fold"]
        }
        part["row"] = pred["rows"]
        for key in ["correct", "y_pred"]:
            if key in pred:
                part[key] = pred[key]
        parts.append(pd.DataFrame(part))
    return pd.concat(parts, ignore_index=True)


def test_predictions_frame_equals_row_by_row_construction():
    """H: the column-wise frame holds exactly the rows of a per-task concatenation,
    with categorical keys, for classifier tasks and failed tasks (None) mixed in."""
    rng = np.random.default_rng(0)
    outs = [
        _out(
            d, lrn, s, {"rows": rng.permutation(5)[:3], "correct": rng.random(3) < 0.5}
        )
        for d in ["b", "a"]
        for lrn in ["x", "y"]
        for s in range(4)
    ]
    outs.insert(3, _out("a", "z", 0, None))
    got = _predictions_frame(outs)
    expected = _naive(outs)
    assert isinstance(got["dataset"].dtype, pd.CategoricalDtype)
    pd.testing.assert_frame_equal(
        got.astype({"dataset": str, "learner": str}), expected, check_dtype=False
    )


def test_predictions_frame_keeps_classifier_and_regressor_tasks_apart():
    """H: when classifier and regressor tasks share a run, each keeps its own column
    (correct or y_pred) and the other is missing for its rows."""
    outs = [
        _out("d", "clf", 0, {"rows": np.arange(2), "correct": np.array([True, False])}),
        _out("d", "reg", 0, {"rows": np.arange(2), "y_pred": np.array([0.5, 1.5])}),
    ]
    got = _predictions_frame(outs)
    assert got["correct"].tolist()[:2] == [True, False]
    assert got["correct"].isna().tolist()[2:] == [True, True]
    assert np.isnan(got["y_pred"].to_numpy(float)[:2]).all()
    assert got["y_pred"].tolist()[2:] == [0.5, 1.5]
