"""Tests of sklearn_bench/plotting/_forest.py by inspecting the artists."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from sklearn_bench.plotting import plot_confidence_intervals  # noqa: E402


def _table(n, seed=0, long_names=False):
    rng = np.random.default_rng(seed)
    est = rng.normal(0, 0.05, n)
    half = rng.uniform(0.01, 0.04, n)
    names = [
        (f"a_rather_long_learner_name_{i} − learner_{i + 1}" if long_names else f"p{i}")
        for i in range(n)
    ]
    return pd.DataFrame(
        {
            "estimate": est,
            "low": est - half,
            "high": est + half,
            "adjusted_low": est - 1.6 * half,
            "adjusted_high": est + 1.6 * half,
        },
        index=names,
    )


def _lines(ax, gid):
    """The (x, y) ends of each row's interval: the line of ``gid`` broken at NaN."""
    (line,) = [line for line in ax.lines if line.get_gid() == gid]
    x, y = np.asarray(line.get_xdata()), np.asarray(line.get_ydata())
    return [(x[i : i + 2], y[i : i + 2]) for i in range(0, len(x), 3)]


def test_one_row_per_comparison_in_order_with_nested_intervals():
    """H: each comparison gets one unadjusted and one adjusted interval at its row
    (one line of each kind, broken at NaN between rows), top to bottom in table
    order, the unadjusted inside the adjusted, the dot at the estimate."""
    table = _table(6)
    ax = plot_confidence_intervals(table)
    labels = [t.get_text() for t in ax.get_yticklabels()]
    ys = ax.get_yticks()
    assert labels == list(table.index)
    assert np.all(np.diff(ys) < 0)  # first row on top
    unadj, adj = _lines(ax, "ci-unadjusted"), _lines(ax, "ci-adjusted")
    assert len(unadj) == len(adj) == 6
    for row, (u, a) in enumerate(zip(unadj, adj, strict=True)):
        assert u[1][0] == a[1][0] == ys[row]
        np.testing.assert_allclose(u[0], table.iloc[row][["low", "high"]])
        ax0, ax1 = a[0]
        assert ax0 <= u[0][0] and u[0][1] <= ax1
    points = [c for c in ax.collections if c.get_gid() == "ci-estimate"][0]
    np.testing.assert_allclose(points.get_offsets()[:, 0], table["estimate"])


def test_null_line_and_infinite_bound():
    """H: the null value is a vertical line; an infinite bound is drawn to the axis
    edge (not dropped)."""
    table = _table(3)
    table.iloc[0, table.columns.get_loc("high")] = np.inf
    ax = plot_confidence_intervals(table, null_value=0.0)
    (null,) = [line for line in ax.lines if line.get_gid() == "ci-null"]
    assert list(null.get_xdata()) == [0, 0]
    first = _lines(ax, "ci-unadjusted")[0]
    assert first[0][1] == pytest.approx(ax.get_xlim()[1])


def test_without_adjusted_columns():
    """H: a table without adjusted bounds draws only the unadjusted intervals."""
    ax = plot_confidence_intervals(_table(4)[["estimate", "low", "high"]])
    assert len(_lines(ax, "ci-unadjusted")) == 4
    assert not [line for line in ax.lines if line.get_gid() == "ci-adjusted"]


@pytest.mark.parametrize("n", [1, 6, 29])
def test_labels_fit_and_do_not_overlap(n):
    """H: for 1 to 29 comparisons with long names, the labels neither overlap one
    another nor leave the figure, and the legend stays inside the figure."""
    ax = plot_confidence_intervals(_table(n, long_names=True), title="t")
    fig = ax.figure
    fig.canvas.draw()
    renderer = fig.canvas.get_renderer()
    boxes = [t.get_window_extent(renderer) for t in ax.get_yticklabels()]
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b)
    fig_box = fig.bbox
    for box in [*boxes, ax.get_legend().get_window_extent(renderer)]:
        assert box.x0 >= fig_box.x0 - 1 and box.x1 <= fig_box.x1 + 1
        assert box.y0 >= fig_box.y0 - 1 and box.y1 <= fig_box.y1 + 1


@pytest.mark.parametrize(
    ("table", "match"),
    [
        (pd.DataFrame({"estimate": [0.1], "low": [0.0]}), "lacks the columns"),
        (pd.DataFrame(columns=["estimate", "low", "high"]), "no rows"),
        (
            pd.DataFrame(
                {"estimate": [0.1], "low": [0], "high": [1], "adjusted_low": [0]}
            ),
            "both",
        ),
        ([[0.1, 0, 1]], "DataFrame"),
    ],
)
def test_bad_tables(table, match):
    """H: malformed tables raise a ValueError saying what is wrong."""
    with pytest.raises(ValueError, match=match):
        plot_confidence_intervals(table)


def test_legend_names_the_levels_of_both_intervals():
    """H: with ``confidence_level`` and ``adjusted_label`` the legend names the
    level of each kind of interval; without them it keeps the generic labels; a
    level outside (0, 1) is a ValueError naming the argument."""
    label = "simultaneous 95% (Bonferroni, each at 99.17%)"
    ax = plot_confidence_intervals(
        _table(4), confidence_level=0.95, adjusted_label=label
    )
    texts = sorted(t.get_text() for t in ax.get_legend().get_texts())
    assert texts == sorted([f"{label} interval", "unadjusted 95% interval"])
    ax = plot_confidence_intervals(_table(4))
    texts = sorted(t.get_text() for t in ax.get_legend().get_texts())
    assert texts == ["adjusted interval", "unadjusted interval"]
    with pytest.raises(ValueError, match="confidence_level"):
        plot_confidence_intervals(_table(2), confidence_level=95)
