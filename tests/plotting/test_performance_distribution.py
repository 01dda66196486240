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
    assert len(ax.collections[0].get_paths()) == k  # one filled density each
    plt.close(ax.figure)


def test_box_and_density_show_the_data():
    """H: each box's median line sits at the learner's median, and the density curve
    is scipy's gaussian_kde scaled by the common peak."""
    df, result = _result(2, seed=1)
    fig, ax = plt.subplots()
    assert performance_distribution(result, "d", ax=ax) is ax
    v0 = df.loc[df["learner"] == "learner 0", "error"].to_numpy()
    (medians,) = [c for c in ax.collections if c.get_gid() == "medians"]
    assert medians.get_segments()[0][0, 0] == pytest.approx(np.median(v0), rel=1e-12)
    x, y = _curves(ax)[0]
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


def _error_rates_near_zero():
    rng = np.random.default_rng(3)
    df = pd.DataFrame(
        {
            "dataset": "d",
            "learner": np.repeat(["svm", "tree"], 30),
            "replicate": np.tile(np.arange(30), 2),
            # error rates with many exact zeros, as on an easy data set
            "error_rate": np.r_[rng.binomial(40, 0.01, 30), rng.binomial(40, 0.05, 30)]
            / 40,
        }
    )
    return df, BenchmarkResult.from_frame(
        df,
        dataset="dataset",
        learner="learner",
        value="error_rate",
        replicate="replicate",
        greater_is_better=False,
    )


def test_error_rate_density_stays_in_its_range_and_is_reflected():
    """H: for an error rate with values at 0 the x-axis starts at 0, every density
    curve point has x >= 0, and the curve equals the reflected kernel density
    f(x) + f(−x) (scipy's gaussian_kde, Scott's bandwidth), scaled like the plot
    (issue 13: densities of error rates ran below 0)."""
    df, result = _error_rates_near_zero()
    ax = performance_distribution(result, "d")
    assert ax.get_xlim()[0] == 0.0
    curves = _curves(ax)
    assert len(curves) == 2
    raw = {}
    for (x, y), name in zip(curves, ["svm", "tree"], strict=True):
        assert x.min() >= 0.0
        kde = stats.gaussian_kde(df.loc[df["learner"] == name, "error_rate"])
        raw[name] = (x, kde(x) + kde(-x) + kde(2 - x), y)
    peak = max(np.nanmax(f) for _, f, _ in raw.values())
    for row, (_, f, y) in zip([1, 0], raw.values(), strict=True):
        expected = row - 0.12 + 0.55 * f / peak
        np.testing.assert_allclose(y, expected, rtol=1e-10)
    # Without bounds the Gaussian kernel puts mass below 0.
    ax = performance_distribution(result, "d", bounds=(None, None))
    assert ax.get_xlim()[0] < 0
    plt.close("all")


def test_metric_bounds_from_names():
    """H: proportions are bounded by [0, 1], non-negative losses below by 0, other
    metrics not at all; a neg_ prefix (negating the range) and a suffix are
    understood."""
    from sklearn_bench._metrics import metric_bounds

    assert metric_bounds("error_rate") == (0.0, 1.0)
    assert metric_bounds("f1_macro") == (0.0, 1.0)
    assert metric_bounds("neg_log_loss") == (None, 0.0)  # the loss's, negated
    assert metric_bounds("r2") == (None, None)


def test_densities_on_one_blas_thread_are_those_on_many():
    """H: the kernel densities computed with BLAS limited to one thread (as the
    figure computes them, to avoid thread start-up costs) are bit for bit those
    computed with the default threads, reflected at bounds or not."""
    from threadpoolctl import threadpool_limits

    from sklearn_bench.plotting._performance_distribution import _density

    rng = np.random.default_rng(3)
    for n in (2, 10, 100):
        values = np.round(rng.beta(4, 20, n), 3 if n > 2 else 8)
        for bounds in ((None, None), (0.0, 1.0), (0.0, None)):
            many = _density(values, (0, 1), bounds)[1]
            with threadpool_limits(limits=1, user_api="blas"):
                one = _density(values, (0, 1), bounds)[1]
            assert one.tobytes() == many.tobytes()


def _curves(ax):
    """Each learner's density curve ``(x, y)``: the collection "density"."""
    (lines,) = [c for c in ax.collections if c.get_gid() == "density"]
    return [segment.T for segment in lines.get_segments()]


def _one_artist_a_mark(ax, result):
    """The rows of performance_distribution(result, "d") drawn as before the
    collections: one plot and axhline each and ax.boxplot, with the figure's
    densities (its lines) and layout; the polygons of one fill_between each,
    gathered in one collection (Agg draws the edges of a collection of many
    paths a fraction of a pixel apart from those of one path)."""
    from matplotlib.collections import PolyCollection

    curves = _curves(ax)
    fig, ref = plt.subplots(figsize=ax.figure.get_size_inches())
    ref.set_position(ax.get_position())
    perf = result.performance()
    k, boxed, fills = len(result.learners), [], []
    for i, (name, (x, curve)) in enumerate(zip(result.learners, curves, strict=True)):
        y, color = k - 1 - i, f"C{i}"
        fill = ref.fill_between(x, y - 0.12, curve, color=color)
        fills.append(fill.get_paths()[0].vertices)
        fill.remove()
        ref.plot(x, curve, color=color, lw=1.2)
        boxed.append((y, perf.loc[perf["learner"] == name, "value"].to_numpy(), color))
    colors = [f"C{i}" for i in range(k)]
    ref.add_collection(PolyCollection(fills, color=colors, alpha=0.3, lw=0))
    parts = ref.boxplot(
        [v for _, v, _ in boxed],
        positions=[y - 0.27 for y, _, _ in boxed],
        widths=0.2,
        orientation="horizontal",
        manage_ticks=False,
        patch_artist=True,
        boxprops={"facecolor": "white"},
        medianprops={"lw": 2},
        flierprops={"marker": "o", "markersize": 3},
    )
    for j, (_, _, color) in enumerate(boxed):
        parts["boxes"][j].set_edgecolor(color)
        parts["fliers"][j].set_markeredgecolor(color)
        two = slice(2 * j, 2 * j + 2)
        for line in [parts["medians"][j], *parts["whiskers"][two], *parts["caps"][two]]:
            line.set_color(color)
    for y in range(k - 1):
        ref.axhline(y + 0.5, color="0.85", lw=0.6)
    ref.set_xlim(ax.get_xlim())
    ref.set_ylim(ax.get_ylim())
    return ref


def test_collections_draw_the_pixels_of_one_artist_a_mark():
    """H: the densities, boxes (with outliers) and row lines drawn as a few
    collections give the PNG pixels of one plot / axhline artist each, of
    ax.boxplot and of fill_between's polygons (the figure before the
    collections; a polygon's edge may round to one level of 255 apart), for 12
    learners (two of each of the first two colours)."""
    import io

    rng = np.random.default_rng(3)
    df, _ = _result(12, n=30)
    df["error"] = rng.beta(4, 20, size=len(df)) + 0.3 * (np.arange(len(df)) % 7 == 0)
    result = BenchmarkResult.from_frame(
        df,
        dataset="dataset",
        learner="learner",
        value="error",
        replicate="replicate",
        greater_is_better=False,
    )
    ax = performance_distribution(result, "d")
    ref = _one_artist_a_mark(ax, result)
    assert len(ax.lines) >= 3  # outliers of 3 learners or more
    images = []
    for axes in (ax, ref):
        axes.set_axis_off()  # the marks only
        axes.set_title("")
        buffer = io.BytesIO()
        axes.figure.savefig(buffer, format="rgba", dpi=80)
        images.append(np.frombuffer(buffer.getvalue(), np.uint8).astype(int))
    # the fills' edges rounded the other way: at most one level of 255
    assert np.abs(images[0] - images[1]).max() <= 1
    plt.close("all")


@pytest.mark.parametrize("n", [1, 2])
def test_one_or_two_values_are_drawn_as_points(n):
    """H: with one or two replicates per learner no box and no density is drawn
    (they would describe a distribution that is not there): each learner's
    values are points on its row, and the report's caption says so."""
    from sklearn_bench.analysis import AnalysisPlan, analyse
    from sklearn_bench.report._figures import make_figures

    _, result = _result(3, n=n)
    ax = performance_distribution(result, "d")
    points = [line for line in ax.lines if line.get_gid() == "few"]
    assert len(points) == 3 and all(len(p.get_xdata()) == n for p in points)
    assert not any(c.get_gid() == "medians" for c in ax.collections)
    plt.close(ax.figure)
    analysis = analyse(result, AnalysisPlan(analyses=("effects",)))
    figures = make_figures(analysis)
    (key,) = [k for k in figures if k.startswith("distribution_")]
    _, caption, _, _ = figures[key]
    assert f"the {n} value(s) of each learner as points" in caption
    assert "kernel density" not in caption
    plt.close("all")
