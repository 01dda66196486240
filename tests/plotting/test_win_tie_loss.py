"""Tests of sklearn_bench/plotting/_win_tie_loss.py: the map draws the counts of
BenchmarkResult.win_tie_loss, the package's one win/tie/loss rule."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.plotting import plot_win_tie_loss  # noqa: E402


def _brute_force(values, greater_is_better, tol):
    n, k = values.shape
    wins = np.zeros((k, k), int)
    ties = np.zeros((k, k), int)
    for d in range(n):
        for a in range(k):
            for b in range(k):
                x, y = values[d, a], values[d, b]
                if np.isnan(x) or np.isnan(y):
                    continue
                if abs(x - y) <= tol:
                    ties[a, b] += 1
                elif (x > y) == greater_is_better:
                    wins[a, b] += 1
    return wins, ties


def _result(values, greater_is_better):
    """A result with one value per data set (NaN: the learner did not run)."""
    n, k = values.shape
    df = pd.DataFrame(
        [
            (f"d{d}", f"m{j}", values[d, j])
            for d in range(n)
            for j in range(k)
            if not np.isnan(values[d, j])
        ],
        columns=["d", "m", "v"],
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="m", value="v", greater_is_better=greater_is_better
    )


@settings(max_examples=30, deadline=None)
@given(
    arrays(
        float,
        st.tuples(st.integers(1, 6), st.integers(2, 5)),
        elements=st.sampled_from([0.1, 0.2, 0.25, 0.3, np.nan]),
    ),
    st.booleans(),
    st.sampled_from([0.0, 0.06]),
)
def test_counts_equal_a_brute_force_loop(values, greater_is_better, tol):
    """H: the wins and ties of BenchmarkResult.win_tie_loss(delta=tol), the
    counts the map draws, equal a loop over data sets and ordered pairs (a data
    set where either learner has no value skipped); losses are the transposed
    wins."""
    values[0, :2] = [0.1, 0.2]  # two learners on a data set
    names = [f"m{i}" for i in range(values.shape[1])]
    present = [
        m for m, col in zip(names, values.T, strict=True) if not np.isnan(col).all()
    ]
    counts = _result(values, greater_is_better).win_tie_loss(delta=tol)
    keep = [names.index(m) for m in counts.index]
    exp_wins, exp_ties = _brute_force(values[:, keep], greater_is_better, tol)
    wins, ties, losses = (
        counts.xs(o, axis=1, level=1).to_numpy() for o in ("win", "tie", "loss")
    )
    assert sorted(counts.index) == present
    np.testing.assert_array_equal(wins, exp_wins)
    np.testing.assert_array_equal(ties, exp_ties)
    np.testing.assert_array_equal(losses, exp_wins.T)


def test_cells_read_wins_ties_losses_of_the_row_learner():
    """H: the cell (row A, column B) reads A's wins/ties/losses against B and is blue
    (positive) when A wins more; a BenchmarkResult uses its metric's direction."""
    df = pd.DataFrame(
        {
            "d": ["a", "a", "b", "b", "c", "c"],
            "m": ["A", "B"] * 3,
            "acc": [0.9, 0.8, 0.7, 0.6, 0.5, 0.5],
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="m", value="acc", greater_is_better=True
    )
    ax = plot_win_tie_loss(result)
    cells = {
        (round(t.get_position()[1]), round(t.get_position()[0])): t.get_text()
        for t in ax.texts
        if t.get_gid() == "wtl-cell"
    }
    assert cells == {(0, 1): "2/1/0", (1, 0): "0/1/2"}
    image = [im for im in ax.images if im.get_gid() == "wtl-image"][0]
    data = image.get_array()
    assert data[0, 1] == pytest.approx(2 / 3) and data[1, 0] == pytest.approx(-2 / 3)


@pytest.mark.parametrize("k", [2, 7, 30])
def test_texts_fit_their_cells_and_labels_do_not_overlap(k):
    """H: for 2 to 30 learners with long names, every cell text fits inside its cell,
    tick labels do not overlap, and everything stays inside the figure."""
    rng = np.random.default_rng(k)
    names = [f"learner_{i}" if i % 2 else f"a_long_pipeline_name_{i}" for i in range(k)]
    values = rng.integers(0, 30, (30, k)) / 30
    result = _result(values, False)
    result = BenchmarkResult(
        result.scores.assign(learner=result.scores["learner"].map(
            {f"m{i}": name for i, name in enumerate(names)}
        )),
        metrics=result.metrics,
        datasets=result.datasets,
        learners=names,
    )  # fmt: skip
    ax = plot_win_tie_loss(result.win_tie_loss())
    fig = ax.figure
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    x0 = ax.transData.transform((0, 0))
    x1 = ax.transData.transform((1, 1))
    cell_w, cell_h = abs(x1[0] - x0[0]), abs(x1[1] - x0[1])
    for t in ax.texts:
        if t.get_gid() == "wtl-cell":
            box = t.get_window_extent(r)
            assert box.width < cell_w and box.height < cell_h
    for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
        boxes = [t.get_window_extent(r) for t in labels]
        for a, b in combinations(boxes, 2):
            assert not a.overlaps(b)
        for box in boxes:
            assert fig.bbox.x0 - 1 <= box.x0 and box.x1 <= fig.bbox.x1 + 1
            assert fig.bbox.y0 - 1 <= box.y0 and box.y1 <= fig.bbox.y1 + 1


def test_bad_inputs():
    """H: a table of means (not counts) is refused with what the map wants; a
    negative delta is refused by the one rule."""
    with pytest.raises(TypeError, match="BenchmarkResult.win_tie_loss"):
        plot_win_tie_loss(pd.DataFrame({"A": [0.1], "B": [0.2]}))
    result = _result(np.array([[0.1, 0.2]]), False)
    with pytest.raises(ValueError, match="`delta`"):
        plot_win_tie_loss(result, delta=-1)
