"""Tests of plotting.performance_distribution (Hothorn et al. 2005, Figures 3-5)."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from scipy import stats  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.plotting import performance_distribution  # noqa: E402


def _result(k, n=40, seed=0, greater_is_better=False):
    rng = np.random.default_rng(seed)
    names = [f"learner {i}" for i in range(k)]
    df = pd.DataFrame(
        {
            "dataset": "d",
            "learner": np.repeat(names, n),
            "replicate": np.tile(np.arange(n), k),
            "error": rng.beta(4, 20, size=n * k),
        }
    )
    return df, BenchmarkResult.from_frame(
        df,
        dataset="dataset",
        learner="learner",
        value="error",
        replicate="replicate",
        greater_is_better=greater_is_better,
    )


@pytest.mark.parametrize("k", [2, 30])
def test_one_row_per_learner_in_order(k):
    """H: there is one labelled row per learner, first learner on top, one density
    curve each, for 2 and 30 learners."""
    _, result = _result(k)
    ax = performance_distribution(result, "d")
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert labels == result.learners
    ticks = ax.get_yticks()
    assert np.all(np.diff(ticks) < 0)  # first learner at the top
    assert len(ax.collections) >= k  # one filled density per learner
    plt.close(ax.figure)


def test_box_and_density_show_the_data():
    """H: each box's median line sits at the learner's median, and the density curve
    is scipy's gaussian_kde scaled by the common peak."""
    df, result = _result(2, seed=1)
    fig, ax = plt.subplots()
    assert performance_distribution(result, "d", ax=ax) is ax
    v0 = df.loc[df["learner"] == "learner 0", "error"].to_numpy()
    medians = [
        line.get_xdata()[0]
        for line in ax.lines
        if len(line.get_xdata()) == 2 and line.get_linewidth() == 2
    ]
    assert medians[0] == pytest.approx(np.median(v0), rel=1e-12)
    curve = ax.lines[0]
    x, y = curve.get_xdata(), curve.get_ydata()
    dens = stats.gaussian_kde(v0)(x)
    scaled = (y - y.min()) / (y.max() - y.min())
    expected = (dens - dens.min()) / (dens.max() - dens.min())
    np.testing.assert_allclose(scaled, expected, rtol=1e-10, atol=1e-12)
    assert "lower is better" in ax.get_xlabel()
    plt.close(fig)


def test_constant_learner_and_errors():
    """H: a learner with constant performance gets a spike (no KDE failure); an
    unknown data set raises a ValueError that names it."""
    df, _ = _result(2)
    df.loc[df["learner"] == "learner 1", "error"] = 0.25
    result = BenchmarkResult.from_frame(
        df,
        dataset="dataset",
        learner="learner",
        value="error",
        replicate="replicate",
        greater_is_better=True,
    )
    ax = performance_distribution(result, "d")
    assert "higher is better" in ax.get_xlabel()
    plt.close(ax.figure)
    with pytest.raises(ValueError, match="Unknown `dataset` 'x'"):
        performance_distribution(result, "x")
    with pytest.raises(ValueError, match="Unknown `metric` 'auc'"):
        performance_distribution(result, "d", metric="auc")
