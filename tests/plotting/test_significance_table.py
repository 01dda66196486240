"""Tests of sklearn_bench/plotting/_significance_table.py, the Tukey CD-style diagram
and the learner colours of the CD diagrams (issue 24), by inspecting the artists.

Reference: scikit-posthocs' ``sign_table`` (the peer) on the same p-value matrices.
"""

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import to_rgba  # noqa: E402

from sklearn_bench.plotting import (  # noqa: E402
    plot_critical_difference,
    plot_pairwise_significance,
    plot_significance_table,
)
from sklearn_bench.stats import friedman_test, pairwise_tests, tukey_hsd  # noqa: E402


def _errors(seed=0, k=5):
    rng = np.random.default_rng(seed)
    values = rng.normal(0.2, 0.05, (20, k)) + np.linspace(0, 0.08, k)
    return pd.DataFrame(values, columns=[f"L{i}" for i in range(k)])


_STARS = {"NS": 0, "*": 1, "**": 2, "***": 3, "-": -1}


def _classes(result, **kwargs):
    """The significance class of each cell of the heat map (-1 on the diagonal)."""
    ax = plot_significance_table(result, **kwargs)
    return np.asarray(ax.images[0].get_array())


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_heat_map_classes_match_scikit_posthocs(seed):
    """H: the heat map's classes are scikit-posthocs' sign_table stars on the same
    adjusted p-values (no p-value equals a level exactly here), and it prints one
    p-value per off-diagonal cell."""
    import scikit_posthocs as sp

    res = pairwise_tests(_errors(seed), adjust="holm", greater_is_better=False)
    pv = res.pvalues_adjusted
    assert not np.isin(pv.to_numpy(), (0.001, 0.01, 0.05)).any()
    ref = np.vectorize(_STARS.get)(sp.sign_table(pv).to_numpy())
    np.testing.assert_array_equal(_classes(res), ref)
    ax = plt.gca()
    k = len(res.learners)
    assert len([t for t in ax.texts if t.get_gid() == "sign-cell"]) == k * (k - 1)


def test_heat_map_takes_any_post_hoc_and_matrices():
    """H: a TukeyHSDResult, a DataFrame and an array give the same classes; a
    p-value equal to a level is significant at it (p <= α, unlike
    scikit-posthocs)."""
    res = tukey_hsd(_errors(3), greater_is_better=False)
    a = _classes(res)
    np.testing.assert_array_equal(a, _classes(res.pvalues_adjusted))
    np.testing.assert_array_equal(a, _classes(res.pvalues_adjusted.to_numpy()))
    p = np.array([[1.0, 0.05], [0.05, 1.0]])
    assert _classes(p)[0, 1] == 1
    assert _classes(p, levels=[0.01])[0, 1] == 0


def test_heat_map_refuses_bad_matrices():
    """H: asymmetric, out-of-range or non-square matrices are refused by name."""
    with pytest.raises(ValueError, match="symmetric"):
        plot_significance_table(np.array([[1.0, 0.1], [0.2, 1.0]]))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        plot_significance_table(np.array([[1.0, 1.5], [1.5, 1.0]]))
    with pytest.raises(ValueError, match="`result`"):
        plot_significance_table(np.ones((2, 3)))


def test_tukey_diagram_bars_follow_the_hsd():
    """H: the Tukey diagram's axis is the mean performance, its CD bar is the HSD
    long, and each bar joins learners no two of which Tukey separates."""
    res = tukey_hsd(_errors(4, k=6), greater_is_better=False)
    ax = plot_critical_difference(res)
    cd = [line for line in ax.lines if line.get_gid() == "cd-bar"][0]
    assert np.ptp(cd.get_xdata()) == pytest.approx(res.details["hsd"])
    means = res.learner_means.to_numpy()
    sig = res.significant.to_numpy()
    for line in ax.lines:
        if line.get_gid() != "cd-group":
            continue
        lo, hi = sorted(line.get_xdata())
        inside = np.flatnonzero((means >= lo) & (means <= hi))
        assert len(inside) >= 2
        assert not sig[np.ix_(inside, inside)].any()


def test_colours_mark_groups_of_learners():
    """H: `colors` colours the named learners' lines and names, the others stay
    black, in the Friedman CD, the pairwise and the Tukey diagrams; an unknown
    learner or colour is refused."""
    errors = _errors(5, k=4)
    colors = {"L0": "tab:green", "L1": "tab:green"}
    for ax in (
        plot_critical_difference(
            friedman_test(errors, greater_is_better=False), colors=colors
        ),
        plot_pairwise_significance(
            pairwise_tests(errors, greater_is_better=False), colors=colors
        ),
        plot_critical_difference(
            tukey_hsd(errors, greater_is_better=False), colors=colors
        ),
    ):
        names = {
            t.get_text(): t.get_color() for t in ax.texts if t.get_gid() == "cd-name"
        }
        for text, colour in names.items():
            expected = "tab:green" if ("L0" in text or "L1" in text) else "black"
            assert to_rgba(colour) == to_rgba(expected)
        lines = [line for line in ax.lines if line.get_gid() == "cd-learner"]
        greens = [line for line in lines if line.get_color() == "tab:green"]
        assert len(greens) == 2
    with pytest.raises(ValueError, match="not in the result"):
        plot_critical_difference(
            friedman_test(errors, greater_is_better=False), colors={"X": "red"}
        )
    with pytest.raises(ValueError, match="colour"):
        plot_critical_difference(
            friedman_test(errors, greater_is_better=False), colors={"L0": "notacolour"}
        )
