"""Tests of sklearn_bench/plotting/_bayesian.py by inspecting the artists."""

import warnings

import numpy as np
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")

from sklearn_bench.plotting import (  # noqa: E402
    plot_bayesian_posterior,
)
from sklearn_bench.stats import (  # noqa: E402
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
)


def _pair(seed=0, n=20, shift=0.004, spread=0.015):
    rng = np.random.default_rng(seed)
    y = rng.uniform(0.6, 0.9, n)
    return y + rng.normal(shift, spread, n), y


def _by_gid(artists, gid):
    return [a for a in artists if a.get_gid() == gid]


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_density_regions_have_the_stated_areas(greater_is_better):
    """H: the filled regions lie beyond +rope / inside / below −rope, belong to
    the learner they favour under the metric's direction, their areas (by the
    trapezoid rule) match the posterior probabilities to 2e-3, and the ROPE
    band spans [−rope, rope]."""
    x, y = _pair(1, 30, 0.002, 0.01)
    res = bayesian_correlated_t(
        x,
        y,
        delta=0.005,
        rho=0.1,
        labels=("A", "B"),
        greater_is_better=greater_is_better,
    )
    ax = plot_bayesian_posterior(res)
    (curve,) = _by_gid(ax.lines, "posterior")
    xs, ys = curve.get_xdata(), curve.get_ydata()
    probs = res.probabilities
    above = xs >= 0.005
    below = xs <= -0.005
    inside = ~above & ~below | np.isin(xs, [-0.005, 0.005])
    a_side, b_side = (above, below) if greater_is_better else (below, above)
    for key, mask, p in (
        ("a", a_side, probs["A"]),
        ("rope", inside, probs["equivalent"]),
        ("b", b_side, probs["B"]),
    ):
        (region,) = _by_gid(ax.collections, f"region-{key}")
        area = np.trapezoid(np.where(mask, ys, 0.0), xs)
        assert area == pytest.approx(p, abs=2e-3)
        assert f"{p:.3f}" in region.get_label()
    (band,) = _by_gid(ax.patches, "rope")
    xmin, xmax = band.get_x(), band.get_x() + band.get_width()
    assert (xmin, xmax) == pytest.approx((-0.005, 0.005))
    assert ax.get_xlabel() == "A − B"


def test_density_of_a_point_mass_is_a_line():
    """H: a zero-variance posterior is drawn as one vertical line at the mean in
    the colour of the favoured outcome (the ROPE here)."""
    x = np.array([0.2, 0.3, 0.25])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        res = bayesian_correlated_t(x, x, delta=0.01, rho=0.2, greater_is_better=True)
    ax = plot_bayesian_posterior(res)
    (line,) = _by_gid(ax.lines, "posterior")
    assert np.all(np.asarray(line.get_xdata()) == 0)


@pytest.mark.parametrize("greater_is_better", [True, False])
def test_simplex_points_fall_in_their_regions(greater_is_better):
    """H: every plotted sample is inside the triangle, at the barycentric
    position of (θ_a, θ_rope, θ_b); the share of shown points in each region
    matches the probability at its vertex within MC error, and max_points caps
    the number drawn."""
    x, y = _pair(2)
    res = bayesian_signed_rank(
        x,
        y,
        delta=0.01,
        random_state=0,
        labels=("A", "B"),
        greater_is_better=greater_is_better,
    )
    ax = plot_bayesian_posterior(res, max_points=2000)
    points = {
        key: _by_gid(ax.collections, f"samples-{key}")[0].get_offsets()
        for key in ("a", "rope", "b")
    }
    total = sum(len(p) for p in points.values())
    assert total <= 2000
    probs = list(res.probabilities.values())
    for pts, p in zip(points.values(), probs, strict=True):
        xs, ys = np.asarray(pts).T if len(pts) else (np.array([]), np.array([]))
        assert np.all(ys >= -1e-12) and np.all(ys <= np.sqrt(3) * xs + 1e-9)
        assert np.all(ys <= np.sqrt(3) * (1 - xs) + 1e-9)
        assert len(pts) / total == pytest.approx(p, abs=4.5 * 0.5 / np.sqrt(total))
    texts = " ".join(t.get_text() for t in ax.texts)
    assert f"A better\n{res.probabilities['A']:.3f}" in texts


def test_dispatch_and_wrong_inputs():
    """H: plot_bayesian_posterior picks the density for the correlated t and the
    simplex for the sign test; a non-result and a bad max_points raise
    ValueError."""
    x, y = _pair(3)
    t = bayesian_correlated_t(x, y, delta=0.01, rho=0.1, greater_is_better=True)
    s = bayesian_sign_test(x, y, delta=0.01, random_state=0, greater_is_better=True)
    assert _by_gid(plot_bayesian_posterior(t).lines, "posterior")
    assert _by_gid(plot_bayesian_posterior(s).collections, "samples-rope")
    with pytest.raises(ValueError, match="BayesianTestResult"):
        plot_bayesian_posterior({"p": 0.5})
    with pytest.raises(ValueError, match="`max_points`"):
        plot_bayesian_posterior(t, max_points=0)


# -- issue 23: the hierarchical model's simplex and the Plackett–Luce rank posteriors


def test_simplex_of_a_hierarchical_result_is_titled_as_the_model():
    """H: plot_bayesian_posterior draws the per-draw region probabilities of a
    hierarchical-model result (it used to fail on its method name) and says it
    is about the next data set."""
    from dataclasses import replace

    base = bayesian_signed_rank(
        *_pair(), delta=0.01, random_state=0, greater_is_better=True
    )
    res = replace(base, method="hierarchical")
    ax = plot_bayesian_posterior(res)
    assert "hierarchical model (next data set)" in ax.get_title()


def test_rank_posterior_rows_follow_expected_rank():
    """H: plot_rank_posterior shows one row per learner sorted by expected rank,
    the shaded cells are the rank probabilities, the dots sit at the expected
    ranks; a non-PL result is refused naming `result`."""
    pytest.importorskip("numpyro")
    from sklearn_bench.plotting import plot_rank_posterior
    from sklearn_bench.stats import bayesian_plackett_luce

    rng = np.random.default_rng(1)
    scores = rng.normal(size=(15, 3)) + [2.0, 0.0, 1.0]  # learner 1 best
    res = bayesian_plackett_luce(
        scores, n_draws=500, random_state=0, greater_is_better=False
    )
    ax = plot_rank_posterior(res, title="t")
    order = res.expected_rank.sort_values().index
    assert [t.get_text() for t in ax.get_yticklabels()] == [str(v) for v in order]
    np.testing.assert_allclose(
        ax.images[0].get_array(), res.rank_probabilities.loc[order].to_numpy()
    )
    dots = next(c for c in ax.collections if c.get_gid() == "expected-rank")
    np.testing.assert_allclose(
        dots.get_offsets()[:, 0], res.expected_rank.loc[order].to_numpy()
    )
    assert ax.get_title() == "t"
    with pytest.raises(ValueError, match="`result`"):
        plot_rank_posterior(
            bayesian_sign_test(*_pair(), delta=0.01, greater_is_better=True)
        )
