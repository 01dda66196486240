"""Tests of sklearn_bench/plotting/_power.py by inspecting the artists."""

import numpy as np
import pytest
from scipy import stats

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bench.plotting import plot_datasets_needed, plot_power_curve  # noqa: E402

# Seed 000's Figure 2: the one-sided test by the paper's approximation (the
# plots default to the two-sided exact power of the test the analyses run).
SEED = {"alternative": "greater", "method": "approx"}


def _approx_power(J, delta, sigma, alpha=0.05):
    # Boulesteix et al. (2013), Section 3: F_{t,J-1}(sqrt(J) delta/sigma - t_{1-a,J-1})
    J = np.asarray(J, dtype=float)
    return stats.t.cdf(
        np.sqrt(J) * delta / sigma - stats.t.ppf(1 - alpha, J - 1), J - 1
    )


def test_power_curves_follow_the_paper_formula():
    """H: each σ's curve is the paper's approximate power at every J (scipy formula),
    with labels "σ = ..." as in seed 000 Fig. 2 (right)."""
    sigmas = [0.03, 0.05, 0.075, 0.1]
    ax = plot_power_curve(0.05, sigmas, n_datasets=np.arange(2, 41), **SEED)
    curves = [line for line in ax.lines if line.get_gid() == "power-curve"]
    assert [c.get_label() for c in curves] == [f"σ = {s:g}" for s in sigmas]
    for curve, s in zip(curves, sigmas, strict=True):
        np.testing.assert_allclose(
            curve.get_ydata(), _approx_power(curve.get_xdata(), 0.05, s), rtol=1e-12
        )


def test_power_curve_default_range_reaches_the_target_and_marks_the_study():
    """H: by default the J axis extends past the J that reaches 80% for every σ, and
    ``mark`` puts one point per curve at the study's J with its power."""
    ax = plot_power_curve(0.02, [0.03, 0.06], mark=5, **SEED)
    curves = [line for line in ax.lines if line.get_gid() == "power-curve"]
    for curve in curves:
        assert curve.get_ydata()[-1] >= 0.8
    marks = [line for line in ax.lines if line.get_gid() == "power-mark"]
    assert len(marks) == 2
    for mark, s in zip(marks, [0.03, 0.06], strict=True):
        assert mark.get_xdata()[0] == 5
        assert mark.get_ydata()[0] == pytest.approx(_approx_power(5, 0.02, s))


def test_datasets_needed_is_the_smallest_j_reaching_the_power():
    """H: each point of the J-needed curve is the smallest J >= 2 whose approximate
    power reaches 80% (brute force with the scipy formula), decreasing in Δ."""
    deltas = [0.02, 0.05, 0.1]
    ax = plot_datasets_needed([0.05], delta=deltas, **SEED)
    (curve,) = [line for line in ax.lines if line.get_gid() == "needed-curve"]
    J = np.arange(2, 2000)
    expected = [int(J[_approx_power(J, d, 0.05) >= 0.8][0]) for d in deltas]
    assert [int(v) for v in curve.get_ydata()] == expected
    assert ax.get_yscale() == "log"


def test_texts_do_not_overlap():
    """H: the "this study" label, title and legend of the power plot do not overlap
    one another."""
    ax = plot_power_curve(0.05, [0.03, 0.05, 0.075, 0.1], mark=4)
    fig = ax.figure
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    label = [t for t in ax.texts if t.get_gid() == "power-study-label"][0]
    boxes = [
        label.get_window_extent(r),
        ax.get_legend().get_window_extent(r),
        ax.title.get_window_extent(r),
    ]
    assert not boxes[0].overlaps(boxes[1])
    assert not boxes[0].overlaps(boxes[2])


@pytest.mark.parametrize("mark", [2, 3, 10, 40])
def test_study_label_is_off_the_curves(mark):
    """H: no point of any power curve (drawn densely, 2000 points per curve) lies
    inside the "this study" label's box, wherever the study's J is (issue 13:
    the label sat on the curve)."""
    ax = plot_power_curve(
        0.005, [0.0025, 0.005, 0.01], mark=mark, n_datasets=np.arange(2, 108)
    )
    fig = ax.figure
    fig.canvas.draw()
    box = [t for t in ax.texts if t.get_gid() == "power-study-label"][0]
    box = box.get_window_extent(fig.canvas.get_renderer())
    for line in ax.lines:
        if line.get_gid() != "power-curve":
            continue
        x, y = line.get_xdata(), line.get_ydata()
        xs = np.linspace(x.min(), x.max(), 2000)
        pts = ax.transData.transform(np.column_stack([xs, np.interp(xs, x, y)]))
        inside = (
            (pts[:, 0] >= box.x0)
            & (pts[:, 0] <= box.x1)
            & (pts[:, 1] >= box.y0)
            & (pts[:, 1] <= box.y1)
        )
        assert not inside.any()


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: plot_power_curve(0.0, 0.1), "delta"),
        (lambda: plot_power_curve(0.05, [0.1, -1]), "sigma"),
        (lambda: plot_datasets_needed(0.05, delta=[0.1, 0]), "delta"),
    ],
)
def test_bad_arguments(call, match):
    """H: non-positive Δ or σ raise a ValueError naming the argument."""
    with pytest.raises(ValueError, match=match):
        call()


def test_default_curves_are_the_two_sided_exact_power():
    """H: by default the curves are the two-sided exact power of the test the
    analyses run (R's power.t.test(type = "one.sample", strict = TRUE) equals
    stats.power_paired_t's default, tested in tests/stats/test_intervals.py),
    and the title names that test."""
    from sklearn_bench.stats import power_paired_t

    ax = plot_power_curve(0.05, [0.05], n_datasets=np.arange(2, 21))
    (curve,) = [line for line in ax.lines if line.get_gid() == "power-curve"]
    np.testing.assert_allclose(
        curve.get_ydata(),
        power_paired_t(np.arange(2, 21), 0.05, 0.05, alternative="two-sided"),
        rtol=1e-12,
    )
    assert "two-sided paired t" in ax.get_title()
    plt.close("all")


def test_a_single_number_of_data_sets_is_refused_with_the_way_out():
    """H: plot_power_curve(0.01, 0.0512, n_datasets=8) raises a ValueError that
    names `n_datasets` and `mark` (on 17a1a60 it drew an empty plot: one point
    at J = 8); a list of J values draws a visible curve through them."""
    with pytest.raises(ValueError, match=r"`n_datasets` .* pass mark=J"):
        plot_power_curve(0.01, 0.0512, n_datasets=8)
    with pytest.raises(ValueError, match="`n_datasets`"):
        plot_power_curve(0.01, 0.0512, n_datasets=[1, 8])
    ax = plot_power_curve(0.01, 0.0512, n_datasets=range(2, 9), mark=8)
    (curve,) = [line for line in ax.lines if line.get_gid() == "power-curve"]
    assert curve.get_xdata().tolist() == list(range(2, 9))
    assert ax.get_xlim() == (2.0, 8.0)


def _inside_figure(text):
    fig = text.figure
    box = text.get_window_extent(fig.canvas.get_renderer())
    return box.x0 >= 0 and box.x1 <= fig.bbox.width


def test_titles_with_a_small_alpha_fit_the_figure():
    """H (issue 37.9): at Holm's first-step level of 21 pairs (α = 0.05/21) the
    titles of the power curve and of the data sets needed lie inside the figure,
    with α to three significant digits, "α = 0.00238" on one line (on 17a1a60
    they ran past the right edge: "(α = 0.0023809" with no closing
    parenthesis)."""
    alpha = 0.05 / 21
    for ax in (
        plot_power_curve(0.01, [0.0044, 0.0088, 0.0176], alpha=alpha, mark=4),
        plot_datasets_needed([0.0044, 0.0088], power=0.8, alpha=alpha, mark=(0.01, 17)),
    ):
        ax.figure.canvas.draw()
        title = ax.title
        text = title.get_text()
        assert "(α\u00a0=\u00a00.00238)" in text  # never broken inside
        assert "(α = 0.00238)" in text.replace("\n", " ").replace("\u00a0", " ")
        assert _inside_figure(title), title.get_text()


@pytest.mark.parametrize("n_datasets", [None, np.arange(2, 51)])
def test_a_study_beyond_the_curves_range_is_marked_inside_the_figure(n_datasets):
    """H: a study of 480 data sets, beyond the J where every curve reaches 80%
    (about 80) or beyond the J given, is marked inside the axes: the axes reach
    its J, its label and the title lie inside the figure, and constrained layout
    does not collapse (on 52ad8e3 the axes stopped at J = 78, the label sat
    hundreds of J off the right edge and the layout warned "axes sizes collapsed
    to zero")."""
    import warnings

    fig = plt.figure(layout="constrained")
    ax = fig.subplots()
    plot_power_curve(
        0.01, [0.0047, 0.0093, 0.0187], alpha=0.001, mark=480,
        n_datasets=n_datasets, ax=ax,
    )  # fmt: skip
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fig.canvas.draw()
    assert ax.get_xlim()[1] >= 480
    label = [t for t in ax.texts if t.get_gid() == "power-study-label"][0]
    assert _inside_figure(label) and _inside_figure(ax.title)
    box = label.get_window_extent(fig.canvas.get_renderer())
    assert box.y1 <= fig.bbox.height and ax.title.get_window_extent().y1 <= (
        fig.bbox.height
    )


def test_figures_made_here_keep_every_text_inside():
    """H: the fixed margins of the figures made here (no layout engine, issue
    48) leave room for every text: the label of a study at the right end of
    the curve, two-line titles, and the log axis of a J needed of five digits."""
    for ax in (
        plot_power_curve(0.01, [0.0047, 0.0093, 0.0187], alpha=0.001, mark=480),
        plot_datasets_needed([0.05, 0.1], delta=[0.002, 0.05], alpha=0.001),
    ):
        fig = ax.figure
        assert fig.get_layout_engine() is None
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        texts = [ax.title, ax.xaxis.label, ax.yaxis.label, *ax.texts]
        for i, labels in enumerate((ax.get_xticklabels(), ax.get_yticklabels())):
            lo, hi = sorted(ax.get_xlim() if i == 0 else ax.get_ylim())
            texts += [t for t in labels if lo <= t.get_position()[i] <= hi]
        for text in texts:
            if text.get_visible() and text.get_text():
                box = text.get_window_extent(renderer)
                assert box.x0 >= -1 and box.x1 <= fig.bbox.width + 1, text
                assert box.y0 >= -1 and box.y1 <= fig.bbox.height + 1, text
        assert max(np.max(line.get_ydata()) for line in ax.lines) > 1e4 or ax.texts
        plt.close(fig)
