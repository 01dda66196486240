"""Tests of the multiple-rule bias of Yousefi et al. (2011), eqs. (1)-(10)."""

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal

from sklearn_bench.stats import multiple_rule_bias
from sklearn_bench.stats._multiple_rule_bias import _collections

# Three rules, two error estimators, two samples (hand example).
# true[i, b]: mu = (0.3, 0.3, 0.4)
TRUE = np.array([[0.2, 0.4], [0.3, 0.3], [0.5, 0.3]])
# EST[i, j, b]
EST = np.array(
    [
        [[0.1, 0.5], [0.25, 0.35]],
        [[0.2, 0.2], [0.3, 0.1]],
        [[0.4, 0.3], [0.05, 0.6]],
    ]
)


def test_hand_example_every_equation():
    """H: eqs. (2)-(7) and the averages (4)-(5) equal a hand computation."""
    # Details: Bias (2), Var, RMS (3), A_true (6), A_est (7), C_bias and the
    # averages over all collections (4)-(5) equal a hand computation.
    res = multiple_rule_bias(TRUE, EST)
    assert_array_equal(res.m, [2, 4, 6])
    assert_array_equal(res.n_collections, [3, 3, 1])
    assert res.exact.all()
    # Hand computation. Deltas (est_min - mu[i_min]) per collection and sample:
    # r=1: {0}: est_min (0.1, 0.35) -> (-0.2, 0.05); {1}: (0.2, 0.1) -> (-0.1, -0.2);
    #      {2}: (0.05, 0.3) -> (-0.35, -0.1)
    # r=2: {0,1}: (0.1 @ (0,0), 0.1 @ (1,1)) -> (-0.2, -0.2);
    #      {0,2}: (0.05 @ (2,1), 0.3 @ (2,0)) -> (-0.35, -0.1);
    #      {1,2}: (0.05 @ (2,1), 0.1 @ (1,1)) -> (-0.35, -0.2)
    # r=3: (0.05 @ (2,1), 0.1 @ (1,1)) -> (-0.35, -0.2)
    bias = [
        np.mean([-0.075, -0.15, -0.225]),
        np.mean([-0.2, -0.225, -0.275]),
        -0.275,
    ]
    var = [
        np.mean([0.125**2, 0.05**2, 0.125**2]),
        np.mean([0.0, 0.125**2, 0.075**2]),
        0.075**2,
    ]
    rms = [
        np.mean(np.sqrt([(0.04 + 0.0025) / 2, 0.025, (0.1225 + 0.01) / 2])),
        np.mean(np.sqrt([0.04, (0.1225 + 0.01) / 2, (0.1225 + 0.04) / 2])),
        np.sqrt((0.1225 + 0.04) / 2),
    ]
    # A_est (eq. 7) with the estimator j_min; A_true (eq. 6) with mu:
    # {0,1}: A_est (0.1-0.2, 0.1-0.35), A_true (0, 0)
    # {0,2}: A_est (0.05-0.25, 0.3-0.5), A_true (0.1, 0.1)
    # {1,2}: A_est (0.05-0.3, 0.1-0.6), A_true (0.1, -0.1)
    # {0,1,2}: A_est (0.05-(0.25+0.3)/2, 0.1-(0.35+0.6)/2),
    #          A_true (0.4-0.3, 0.3-0.35)
    a_est = [np.nan, np.mean([-0.175, -0.2, -0.375]), np.mean([-0.225, -0.375])]
    a_true = [np.nan, np.mean([0.0, 0.1, 0.0]), np.mean([0.1, -0.05])]
    assert_allclose(res.bias, bias, rtol=1e-12)
    # est_min averaged: r=1 (0.1+0.35, 0.2+0.1, 0.05+0.3)/2, r=2 (0.1, 0.175, 0.075)
    assert_allclose(
        res.estimated_minimum, [np.mean([0.225, 0.15, 0.175]), 0.35 / 3, 0.075]
    )
    assert_allclose(res.estimated_minimum - res.true_of_chosen, res.bias, atol=1e-15)
    assert_allclose(res.variance, var, rtol=1e-12)
    assert_allclose(res.rms, rms, rtol=1e-12)
    assert_allclose(res.estimated_advantage, a_est, rtol=1e-12)
    assert_allclose(res.true_advantage, a_true, rtol=1e-12)
    assert_allclose(res.comparative_bias, np.subtract(a_est, a_true), rtol=1e-12)


def test_single_estimator_shape_of_true_error():
    """H: an estimate array shaped like the true errors means one estimator (m = r)."""
    est = EST[:, 0, :]
    res = multiple_rule_bias(TRUE, est)
    assert_array_equal(res.m, [1, 2, 3])
    # r=3, estimator 0 only: est (0.1 @ 0, 0.2 @ 1) -> deltas (-0.2, -0.1)
    assert_allclose(res.bias[-1], -0.15, rtol=1e-12)
    assert_allclose(res.variance[-1], 0.05**2, rtol=1e-12)


def test_rms_identity_for_one_collection():
    """H: for a single collection (r = R) RMS² = Bias² + Var exactly (eq. 3)."""
    rng = np.random.default_rng(1)
    true = rng.uniform(0.1, 0.4, size=(4, 30))
    est = true[:, None] + rng.normal(0, 0.05, size=(4, 3, 30))
    res = multiple_rule_bias(true, est)
    assert_allclose(res.rms[-1] ** 2, res.bias[-1] ** 2 + res.variance[-1], rtol=1e-12)


def test_datasets_average_is_eq_9_10():
    """H: the K-data-set curves are eqs. (9)-(10) and each data set's own analysis."""
    # Details: with K data sets the average curve equals the single-data-set
    # analysis of errors averaged over data sets (eqs. 9-10), and each data set's
    # curve equals its own analysis.
    rng = np.random.default_rng(2)
    true = rng.uniform(0.1, 0.4, size=(5, 40, 3))
    est = true[:, None] + rng.normal(0, 0.08, size=(5, 2, 40, 3))
    res = multiple_rule_bias(true, est, dataset_names=["a", "b", "c"])
    assert res.n_datasets == 3
    avg = multiple_rule_bias(true.mean(axis=2), est.mean(axis=3))
    assert_allclose(res.bias, avg.bias, rtol=1e-12)
    assert_allclose(res.rms, avg.rms, rtol=1e-12)
    assert_allclose(res.comparative_bias, avg.comparative_bias, rtol=1e-12)
    frame = res.to_frame()
    assert list(dict.fromkeys(frame["dataset"])) == ["a", "b", "c", "average"]
    one = multiple_rule_bias(true[..., 1], est[..., 1])
    assert_allclose(frame.loc[frame["dataset"] == "b", "bias"], one.bias, rtol=1e-12)


def test_hand_example_two_datasets():
    """H: B(m, n, K) of eq. (10) on a hand example with K = 2, one estimator."""
    # rules x samples x datasets
    true = np.array([[[0.2, 0.4], [0.2, 0.4]], [[0.3, 0.3], [0.3, 0.5]]])
    est = np.array([[[0.1, 0.3], [0.3, 0.3]], [[0.2, 0.4], [0.1, 0.2]]])
    res = multiple_rule_bias(true, est)
    # averaged over data sets: est rule0 (0.2, 0.3), rule1 (0.3, 0.15);
    # mu (over samples and data sets): rule0 0.3, rule1 0.35.
    # r=2: sample 0 picks rule 0 (0.2), sample 1 rule 1 (0.15):
    # deltas (0.2-0.3, 0.15-0.35) = (-0.1, -0.2)
    assert_allclose(res.bias[1], -0.15, rtol=1e-12)
    # A_est (0.2-0.3, 0.15-0.3), A_true (0.3-0.35, 0.35-0.3)
    assert_allclose(res.comparative_bias[1], -0.125 - 0.0, rtol=1e-12)


def test_ties_go_to_first_rule_then_estimator():
    """H: tied minimum estimates pick the first rule, then the first estimator."""
    true = np.array([[0.1, 0.1], [0.3, 0.3]])
    est = np.full((2, 2, 2), 0.2)
    res = multiple_rule_bias(true, est)
    # rule 0 chosen on both samples: delta = 0.2 - 0.1
    assert_allclose(res.bias[1], 0.1, rtol=1e-12)


def test_random_collections():
    """H: random collections are distinct-rule, seeded and near the exact average."""
    # Details: beyond `n_collections` collections are random, distinct-rule,
    # sorted, reproducible with `random_state`, and their average is close to the
    # exact one.
    rng = np.random.default_rng(3)
    coll, exact = _collections(8, 4, 30, rng)
    assert not exact and coll.shape == (30, 4)
    assert all(len(set(c)) == 4 and list(c) == sorted(c) for c in coll)
    true = rng.uniform(0.1, 0.4, size=(8, 50))
    est = true[:, None] + rng.normal(0, 0.05, size=(8, 2, 50))
    a = multiple_rule_bias(true, est, n_collections=40, random_state=0)
    b = multiple_rule_bias(true, est, n_collections=40, random_state=0)
    full = multiple_rule_bias(true, est, n_collections=100)
    assert_array_equal(a.bias, b.bias)
    assert_array_equal(a.exact, [True, True, False, False, False, True, True, True])
    assert full.exact.all()
    # 40 random of 70 collections at r=4: the mean of a per-collection bias
    # (spread ~0.01) is within 0.01 of the exact average.
    assert_allclose(a.bias, full.bias, atol=0.01)


def test_estimated_minimum_never_increases_with_exact_averages():
    """H: with exact averages the mean minimum estimate never increases with m."""
    # Details: with all collections averaged, the mean minimum estimate is non-
    # increasing in m (each (r+1)-collection's minimum is at most that of each of
    # its r-subsets).
    rng = np.random.default_rng(6)
    true = rng.uniform(0.1, 0.4, size=(6, 25))
    est = rng.uniform(0, 0.5, size=(6, 2, 25))
    res = multiple_rule_bias(true, est)
    assert res.exact.all()
    assert np.all(np.diff(res.estimated_minimum) <= 1e-12)


def test_bias_grows_with_m_unbiased_noisy_estimates():
    """H: with unbiased noisy estimates Bias(m) falls with m (paper, Section 2)."""
    # Details: with unbiased noisy estimators and equal true errors, Bias(m) is
    # decreasing in m (more negative), as argued in Section 2 of the paper.
    rng = np.random.default_rng(4)
    true = np.full((6, 3000), 0.25)
    est = true + rng.normal(0, 0.05, size=(6, 3000))
    res = multiple_rule_bias(true, est)
    assert np.all(np.diff(res.bias) < 0)
    # E[min of m N(0, 0.05)] for m = 2 is -0.05/sqrt(pi) (order statistics)
    assert_allclose(res.bias[1], -0.05 / np.sqrt(np.pi), atol=0.003)


@pytest.mark.parametrize(
    ("true", "est", "kwargs", "match"),
    [
        (np.zeros(3), np.zeros(3), {}, "`true_error` must have shape"),
        (np.zeros((2, 3)), np.zeros((3, 3)), {}, "`estimated_error` must have"),
        (np.zeros((2, 3)), np.full((2, 3), np.nan), {}, "`estimated_error` contains"),
        (np.zeros((2, 3)), np.zeros((2, 3)), {"n_collections": 0}, "`n_collections`"),
        (
            np.zeros((2, 3, 2)),
            np.zeros((2, 3, 2)),
            {"dataset_names": ["a"]},
            "`dataset_names` must have 2",
        ),
    ],
)
def test_invalid_input(true, est, kwargs, match):
    """H: malformed inputs raise ValueError naming the argument."""
    with pytest.raises(ValueError, match=match):
        multiple_rule_bias(true, est, **kwargs)


def test_plot_four_panels():
    """H: plot_multiple_rule_bias draws one line per data set in each of the four
    panels."""
    pytest.importorskip("matplotlib")
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from sklearn_bench.plotting import plot_multiple_rule_bias

    rng = np.random.default_rng(5)
    true = rng.uniform(0.1, 0.4, size=(3, 20, 2))
    res = multiple_rule_bias(true, true + rng.normal(0, 0.05, size=(3, 20, 2)))
    axes = plot_multiple_rule_bias(res)
    curves = [[ln for ln in ax.lines if ln.get_label() != "_zero"] for ax in axes]
    assert [len(c) for c in curves] == [3, 3, 3, 3]
    # the comparative bias is not drawn at r = 1
    assert len(curves[3][0].get_xdata()) == 2
    # m counts rules: every tick on the m axis is a whole number
    for ax in axes:
        ax.figure.canvas.draw()
        ticks = ax.get_xticks()
        assert np.array_equal(ticks, np.round(ticks))
    plt.close("all")


def test_stats_does_not_import_matplotlib():
    """H: importing sklearn_bench.stats does not import matplotlib."""
    import subprocess
    import sys
    from pathlib import Path

    code = "import sys, sklearn_bench.stats; sys.exit(int('matplotlib' in sys.modules))"
    root = Path(__file__).resolve().parents[2]
    assert subprocess.run([sys.executable, "-c", code], cwd=root).returncode == 0
