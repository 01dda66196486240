"""Tests of sklearn_bench/plotting/_critical_difference.py by inspecting the artists."""

import subprocess
import sys
from itertools import combinations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from sklearn_bench.plotting import plot_critical_difference  # noqa: E402
from sklearn_bench.stats import friedman_test  # noqa: E402


def _maximal_cliques(ranks, cd):
    """Maximal cliques (size >= 2) of the graph |R_i - R_j| < cd (Bron–Kerbosch, pivot).

    Written independently of the plotting code (which uses runs in rank order).
    """
    k = len(ranks)
    adj = {
        i: {j for j in range(k) if j != i and abs(ranks[i] - ranks[j]) < cd}
        for i in range(k)
    }
    out = []

    def expand(r, p, x):
        if not p and not x:
            if len(r) >= 2:
                out.append(frozenset(r))
            return
        pivot = max(p | x, key=lambda u: len(p & adj[u]))
        for v in list(p - adj[pivot]):
            expand(r | {v}, p & adj[v], x & adj[v])
            p = p - {v}
            x = x | {v}

    expand(set(), set(range(k)), set())
    return set(out)


def _bars(ax):
    return [line for line in ax.lines if line.get_gid() == "cd-group"]


def _members(bar, ranks):
    x0, x1 = sorted(bar.get_xdata())
    return frozenset(i for i, r in enumerate(ranks) if x0 <= r <= x1)


def _check_diagram(res, ax, alpha=0.05):
    ranks = res.average_ranks.to_numpy()
    cd = res.critical_difference(alpha=alpha)
    bars = _bars(ax)
    groups = [_members(bar, ranks) for bar in bars]
    # One bar per maximal group, no duplicates, and every learner whose line a bar
    # crosses belongs to its group.
    assert len(groups) == len(set(groups))
    assert set(groups) == _maximal_cliques(ranks, cd)
    # Bars in one row never overlap.
    for a, b in combinations(bars, 2):
        if a.get_ydata()[0] == b.get_ydata()[0]:
            a0, a1 = sorted(a.get_xdata())
            b0, b1 = sorted(b.get_xdata())
            assert a1 < b0 or b1 < a0
    # Every learner named once; no two texts overlap on the canvas.
    names = [t for t in ax.texts if t.get_gid() == "cd-name"]
    assert len(names) == res.n_learners
    for name in map(str, res.average_ranks.index):
        assert sum(name in t.get_text() for t in names) >= 1
    fig = ax.figure
    fig.canvas.draw()
    boxes = [t.get_window_extent() for t in ax.texts]
    for (i, a), (j, b) in combinations(enumerate(boxes), 2):
        assert not a.overlaps(b), (ax.texts[i].get_text(), ax.texts[j].get_text())
    # Texts lie inside the figure (names are not cut off).
    fig_box = fig.bbox
    for box in boxes:
        assert box.x0 >= fig_box.x0 - 1 and box.x1 <= fig_box.x1 + 1
        assert box.y0 >= fig_box.y0 - 1 and box.y1 <= fig_box.y1 + 1
    # Each learner's line starts on the axis at its average rank.
    starts = sorted(
        line.get_xdata()[0] for line in ax.lines if line.get_gid() == "cd-learner"
    )
    np.testing.assert_allclose(starts, np.sort(ranks))


def test_demsar_table6_diagram(reference_table):
    """H: Demšar's Table 6 at alpha 0.10 gives his two groups, drawn once each."""
    # Demsar (2006) Fig. 1 / Sec. 3.2.4: CD = 1.12; C4.5 differs from C4.5+m(+cf).
    auc = reference_table("demsar2006_table6_auc.csv")
    res = friedman_test(auc, greater_is_better=True)
    ax = plot_critical_difference(res, alpha=0.10)
    _check_diagram(res, ax, alpha=0.10)
    learners = list(res.average_ranks.index)
    groups = {
        frozenset(learners[i] for i in _members(b, res.average_ranks.to_numpy()))
        for b in _bars(ax)
    }
    assert groups == {
        frozenset({"C4.5+m+cf", "C4.5+m", "C4.5+cf"}),
        frozenset({"C4.5+cf", "C4.5"}),
    }
    cd_label = [t.get_text() for t in ax.texts if t.get_gid() == "cd-label"]
    assert cd_label == ["CD = 1.12"]


def test_riddle_table_diagram(reference_table):
    """H: the seed 002 table draws C4.5 apart and one bar for the three ensembles."""
    errors = reference_table("riddle_c45_variants_error.csv")
    res = friedman_test(errors, greater_is_better=False)
    ax = plot_critical_difference(res)
    _check_diagram(res, ax)
    assert len(_bars(ax)) == 1


@settings(max_examples=25, deadline=None)
@given(
    k=st.integers(2, 30),
    n=st.integers(2, 40),
    seed=st.integers(0, 2**16),
    long_names=st.booleans(),
)
def test_diagram_random(k, n, seed, long_names):
    """H: for 2-30 learners and long names, bars are the maximal cliques, no overlap."""
    rng = np.random.default_rng(seed)
    names = [
        f"Pipeline(StandardScaler(), SVC(C={i}))" if long_names else f"L{i}"
        for i in range(k)
    ]
    scores = rng.random((n, k)) + rng.random() * np.linspace(0, 1, k)
    res = friedman_test(pd.DataFrame(scores, columns=names), greater_is_better=False)
    ax = plot_critical_difference(res)
    _check_diagram(res, ax)
    plt.close(ax.figure)


def test_tied_average_ranks_visible():
    """H: learners with equal average ranks form a group whose bar has a length."""
    scores = np.array([[1.0, 1.0, 3.0], [1.0, 1.0, 3.0], [1.0, 1.0, 3.0]])
    res = friedman_test(scores, greater_is_better=False)
    ax = plot_critical_difference(res, alpha=0.05)
    _check_diagram(res, ax)
    (bar,) = [b for b in _bars(ax) if _members(b, res.average_ranks.to_numpy())]
    x0, x1 = sorted(bar.get_xdata())
    assert x1 - x0 > 0


def test_given_axes_is_used_and_returned():
    """H: plot draws on the given Axes and returns it, without a new figure."""
    fig, ax = plt.subplots(figsize=(8, 3))
    res = friedman_test(
        np.random.default_rng(0).random((10, 4)), greater_is_better=False
    )
    assert plot_critical_difference(res, ax=ax) is ax
    assert plt.get_fignums() == [fig.number]
    assert len([t for t in ax.texts if t.get_gid() == "cd-name"]) == 4


def test_only_nemenyi():
    """H: methods without all-pairs groups are refused with a ValueError."""
    res = friedman_test(
        np.random.default_rng(0).random((10, 4)), greater_is_better=False
    )
    with pytest.raises(ValueError, match="`method`"):
        plot_critical_difference(res, method="bonferroni-dunn")


def test_stats_does_not_import_matplotlib():
    """H: importing sklearn_bench.stats (and plotting) leaves matplotlib unimported."""
    code = (
        "import sys, sklearn_bench.stats, sklearn_bench.plotting; "
        "print('matplotlib' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"


def test_example_tables_match_references(reference_table, monkeypatch):
    """H: the tables embedded in the gallery example equal the shared references."""
    import runpy
    from pathlib import Path

    monkeypatch.setattr(plt, "show", lambda *args, **kwargs: None)
    example = Path(__file__).resolve().parents[2] / "examples"
    env = runpy.run_path(str(example / "plot_critical_difference.py"))
    for name, table in [
        ("auc", "demsar2006_table6_auc.csv"),
        ("errors", "riddle_c45_variants_error.csv"),
    ]:
        ref = reference_table(table)
        got = env[name]
        assert list(got.columns) == list(ref.columns)
        np.testing.assert_array_equal(got.to_numpy(), ref.to_numpy())
        assert list(got.index) == list(ref.index)


def test_a_given_critical_difference_is_drawn_as_given():
    """H: with ``cd=`` (an analysis' own, at its plan's α) the diagram draws that
    critical difference and groups by it, computing none: Demšar's Table 6 with
    cd = CD at α = 0.10 (1.118 ranks) draws the bars of alpha=0.10, not those
    of the default 0.05 (1.254)."""
    from sklearn_bench.datasets import load_demsar2006

    res = friedman_test(load_demsar2006(wide=True), greater_is_better=True)
    cd = res.critical_difference(alpha=0.10)
    given = plot_critical_difference(res, cd=cd)
    at_010 = plot_critical_difference(res, alpha=0.10)
    default = plot_critical_difference(res)

    def drawn(ax):
        bar = next(line for line in ax.lines if line.get_gid() == "cd-bar")
        groups = [
            tuple(line.get_xdata()) for line in ax.lines if line.get_gid() == "cd-group"
        ]
        return float(np.ptp(bar.get_xdata())), groups

    assert drawn(given) == drawn(at_010)
    assert drawn(given)[0] == pytest.approx(1.118, abs=5e-4)
    assert drawn(default)[0] == pytest.approx(1.254, abs=5e-4)


def test_a_benchmark_result_draws_its_own_friedman_test():
    """H: plot_critical_difference(result) of a BenchmarkResult draws the
    diagram of result.friedman() (on 17a1a60: AttributeError), and any
    other object is a TypeError saying what it wants."""
    from sklearn_bench import BenchmarkResult
    from sklearn_bench.datasets import load_demsar2006

    result = BenchmarkResult.from_frame(
        load_demsar2006(), dataset="dataset", learner="learner", value="auc",
        greater_is_better=True,
    )  # fmt: skip
    names = [
        t.get_text()
        for t in plot_critical_difference(result, alpha=0.10).texts
        if t.get_gid() == "cd-name"
    ]
    expected = [
        t.get_text()
        for t in plot_critical_difference(result.friedman(), alpha=0.10).texts
        if t.get_gid() == "cd-name"
    ]
    assert names == expected == [
        "C4.5+m+cf (1.93)", "C4.5+m (2.00)", "(3.14) C4.5", "(2.93) C4.5+cf"
    ]  # fmt: skip
    with pytest.raises(TypeError, match="FriedmanResult .* BenchmarkResult; got"):
        plot_critical_difference(result.aggregate())
