"""Tests of sklearn_bench/plotting/_win_tie_loss.py."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.plotting import plot_win_tie_loss, win_tie_loss_counts  # noqa: E402


@pytest.fixture(autouse=True)
def _close_figures():
    yield
    plt.close("all")


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
    """H: wins/ties/losses equal a loop over data sets and ordered pairs (NaN rows
    skipped), and losses are the transposed wins."""
    table = pd.DataFrame(values, columns=[f"m{i}" for i in range(values.shape[1])])
    wins, ties, losses = win_tie_loss_counts(
        table, greater_is_better=greater_is_better, delta=tol
    )
    exp_wins, exp_ties = _brute_force(values, greater_is_better, tol)
    np.testing.assert_array_equal(wins.to_numpy(), exp_wins)
    np.testing.assert_array_equal(ties.to_numpy(), exp_ties)
    np.testing.assert_array_equal(losses.to_numpy(), exp_wins.T)


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
    table = pd.DataFrame(rng.integers(0, 30, (30, k)) / 30, columns=names)
    ax = plot_win_tie_loss(table, greater_is_better=False)
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
    """H: one learner or a negative delta raise a ValueError."""
    with pytest.raises(ValueError, match="two learners"):
        win_tie_loss_counts(pd.DataFrame({"A": [0.1]}), greater_is_better=False)
    with pytest.raises(ValueError, match="`delta`"):
        win_tie_loss_counts(
            pd.DataFrame({"A": [0.1], "B": [0.2]}), delta=-1, greater_is_better=False
        )


def test_counts_agree_with_benchmark_result_win_tie_loss():
    """H: win_tie_loss_counts on the mean table equals BenchmarkResult.win_tie_loss
    (the two ways a heat map can be fed)."""
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(6)], 4),
            "m": ["A", "B", "C", "D"] * 6,
            "e": rng.integers(0, 5, 24) / 10,
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="m", value="e", greater_is_better=False
    )
    wins, ties, losses = win_tie_loss_counts(
        result.aggregate(), greater_is_better=False
    )
    counts = result.win_tie_loss()
    for outcome, mine in (("win", wins), ("tie", ties), ("loss", losses)):
        theirs = counts.xs(outcome, axis=1, level=1)
        off_diagonal = ~np.eye(4, dtype=bool)
        np.testing.assert_array_equal(
            mine.to_numpy()[off_diagonal], theirs.to_numpy()[off_diagonal]
        )
