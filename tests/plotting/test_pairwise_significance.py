"""Tests of sklearn_bench/plotting/_pairwise_significance.py
by inspecting the artists."""

from itertools import combinations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from sklearn_bench.plotting import plot_pairwise_significance  # noqa: E402
from sklearn_bench.stats import pairwise_tests  # noqa: E402


def _expected_runs(ranks, sig):
    """Brute force: every run of consecutive learners (rank order) with no
    significant pair, kept when no longer such run contains it."""
    order = list(np.argsort(ranks, kind="stable"))
    k = len(order)
    runs = [
        frozenset(order[a : b + 1])
        for a in range(k)
        for b in range(a + 1, k)
        if not any(sig[i, j] for i, j in combinations(order[a : b + 1], 2))
    ]
    return {r for r in runs if not any(r < other for other in runs)}


def _bar_members(ax, ranks):
    out = []
    for line in ax.lines:
        if line.get_gid() == "cd-group":
            x0, x1 = sorted(line.get_xdata())
            out.append(frozenset(i for i, r in enumerate(ranks) if x0 <= r <= x1))
    return out


@pytest.mark.parametrize("seed", range(12))
def test_bars_are_the_maximal_nonsignificant_runs(seed):
    """H: one bar per maximal run of mutually non-significant learners; no bar
    spans a significant pair; names do not overlap."""
    rng = np.random.default_rng(seed)
    k = int(rng.integers(3, 9))
    ranks = rng.uniform(1, k, size=k)
    sig = rng.random((k, k)) < 0.35
    sig = np.triu(sig, 1)
    sig = sig | sig.T
    names = pd.Series(ranks, index=[f"learner {i}" for i in range(k)])
    ax = plot_pairwise_significance(significant=sig, average_ranks=names)
    bars = _bar_members(ax, ranks)
    assert len(bars) == len(set(bars))
    assert set(bars) == _expected_runs(ranks, sig)
    for members in bars:
        assert not any(sig[i, j] for i, j in combinations(members, 2))
    fig = ax.figure
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in ax.texts if t.get_gid() == "cd-name"]
    for a, b in combinations(boxes, 2):
        assert not a.overlaps(b)


def test_from_result_labels_the_test_and_correction():
    """H: a PairwiseTestResult gives its matrix, ranks and a label naming test,
    correction and α; the non-significant best pair shares a bar."""
    rng = np.random.default_rng(0)
    errors = pd.DataFrame(
        rng.normal(0.2, 0.05, (20, 4)) + [0, 0.01, 0.06, 0.07], columns=list("ABCD")
    )
    res = pairwise_tests(
        errors, adjust="bergmann_hommel", alpha=0.1, greater_is_better=False
    )
    ax = plot_pairwise_significance(res)
    label = [t.get_text() for t in ax.texts if t.get_gid() == "cd-label"]
    assert label == ["bars: no significant difference (Wilcoxon, Bergmann–Hommel, "
                     "α = 0.1)"]  # fmt: skip
    ranks = res.average_ranks.to_numpy()
    sig = res.significant.to_numpy()
    assert set(_bar_members(ax, ranks)) == _expected_runs(ranks, sig)
    assert not [line for line in ax.lines if line.get_gid() == "cd-bar"]


def test_bad_inputs():
    """H: missing, asymmetric or NaN inputs raise ValueError naming the problem."""
    with pytest.raises(ValueError, match="both required"):
        plot_pairwise_significance(significant=np.zeros((3, 3), bool))
    with pytest.raises(ValueError, match="symmetric"):
        plot_pairwise_significance(
            significant=np.triu(np.ones((3, 3), bool), 1), average_ranks=[1, 2, 3]
        )
    with pytest.raises(ValueError, match="NaN"):
        plot_pairwise_significance(
            significant=np.zeros((2, 2), bool), average_ranks=[1.0, np.nan]
        )
