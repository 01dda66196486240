"""Posterior plots of the Bayesian comparisons (Benavoli et al. 2017, Figs. 3–9)
and of the Bayesian Plackett–Luce ranking (Calvo et al. 2018)."""

import numpy as np

from .._validation import check_positive_int
from ..stats import BayesianTestResult, PlackettLuceResult
from ._common import annotate_cells, check_text, figure_labels

_COLORS = {"a": "#1f77b4", "rope": "#e69f00", "b": "#d62728"}
_TEST_NAMES = {
    "signed_rank": "signed-rank test",
    "sign": "sign test",
    "hierarchical": "hierarchical model (next data set)",
}
_SQRT3_2 = np.sqrt(3) / 2
_VERTICES = np.array([[0.0, 0.0], [0.5, _SQRT3_2], [1.0, 0.0]])  # a, rope, b


def _plot_density(result, ax, title):
    """The correlated t-test's Student t posterior, the ROPE shaded."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(6, 3.5), layout="constrained")
    (a, b), probs, rope = result.labels, result.probabilities, result.rope
    mean = result.details["mean"]
    # region of x − y favouring a: above rope if greater is better, else below
    sign = 1.0 if result.greater_is_better else -1.0
    if rope > 0:
        ax.axvspan(-rope, rope, color=_COLORS["rope"], alpha=0.12, lw=0, gid="rope")
        for edge in (-rope, rope):
            ax.axvline(edge, color=_COLORS["rope"], lw=1.5)
    ax.axvline(0, color="black", lw=0.6, ls=":")
    la, lb = figure_labels((a, b))  # drawn literally, cut to one length
    labels = {
        "a": f"P({la} better) = {probs[a]:.3f}",
        "rope": f"P(equivalent) = {probs['equivalent']:.3f}",
        "b": f"P({lb} better) = {probs[b]:.3f}",
    }
    if result.details["scale"] == 0:
        ahead = mean * sign
        favoured = "a" if ahead > rope else "b" if ahead < -rope else "rope"
        ax.axvline(mean, color=_COLORS[favoured], lw=3, gid="posterior")
        half = max(rope, abs(mean), 1e-3) * 1.5
        ax.set_xlim(-half, half)
        for key, text in labels.items():
            ax.plot([], [], color=_COLORS[key], lw=6, label=text)
        ax.set_yticks([])
    else:
        post = result.posterior()
        lo = min(post.ppf(0.001), -1.2 * rope)
        hi = max(post.ppf(0.999), 1.2 * rope)
        xs = np.linspace(lo, hi, 600)
        if rope > 0:
            xs = np.union1d(xs, [-rope, rope])
        ys = post.pdf(xs)
        ax.plot(xs, ys, color="black", lw=1.5, gid="posterior")
        above, below = xs >= rope, xs <= -rope
        regions = {"a": above, "b": below} if sign > 0 else {"a": below, "b": above}
        regions["rope"] = (xs >= -rope) & (xs <= rope)
        for key in ("a", "rope", "b") if rope > 0 else ("a", "b"):
            kw = {"color": _COLORS[key], "alpha": 0.45, "lw": 0, "label": labels[key]}
            ax.fill_between(xs, 0, ys, where=regions[key], gid=f"region-{key}", **kw)
        ax.set_ylim(0, 1.3 * float(ys.max()))  # room for the legend
        ax.set_ylabel("posterior density")
    ax.set_xlabel(f"{la} − {lb}")
    ax.legend(loc="upper center", ncols=3, fontsize="small", frameon=False)
    ax.set_title(f"{la} vs {lb}: correlated t posterior" if title is None else title)
    return ax


def _plot_simplex(result, ax, title, max_points):
    """Monte Carlo samples of the three region probabilities in the simplex."""
    import matplotlib.pyplot as plt

    if ax is None:
        _, ax = plt.subplots(figsize=(5, 4.6), layout="constrained")
    a, b = result.labels
    # columns in the order (a better, rope, b better)
    thetas = result.samples[:, [0, 1, 2] if result.greater_is_better else [2, 1, 0]]
    step = max(1, int(np.ceil(len(thetas) / max_points)))
    shown = thetas[::step]
    winner = np.argmax(shown, axis=1)
    xy = shown @ _VERTICES  # barycentric (θ_a, θ_rope, θ_b) to the triangle's plane
    for k, key in enumerate(("a", "rope", "b")):
        pts = xy[winner == k]
        style = {"s": 6, "alpha": 0.4, "zorder": 2, "lw": 0, "rasterized": True}
        ax.scatter(*pts.T, color=_COLORS[key], gid=f"samples-{key}", **style)
    corners = np.vstack([_VERTICES, _VERTICES[:1]])
    ax.plot(*corners.T, color="black", lw=0.8, gid="simplex", zorder=1)
    centre = _VERTICES.mean(axis=0)
    for mid in (corners[:-1] + corners[1:]) / 2:
        ax.plot(*np.c_[centre, mid], color="black", lw=0.5, zorder=1)
    probs = result.probabilities
    la, lb = figure_labels((a, b))  # drawn literally, cut to one length
    ax.text(0, -0.05, f"{la} better\n{probs[a]:.3f}", ha="center", va="top")
    ax.text(1, -0.05, f"{lb} better\n{probs[b]:.3f}", ha="center", va="top")
    top = f"equivalent\n{probs['equivalent']:.3f}"
    ax.text(0.5, _SQRT3_2 + 0.03, top, ha="center", va="bottom")
    ax.set_xlim(-0.2, 1.2)
    ax.set_ylim(-0.22, _SQRT3_2 + 0.2)
    ax.set_aspect("equal")
    ax.axis("off")
    name = _TEST_NAMES.get(result.method, result.method)
    default = f"{la} vs {lb}: Bayesian {name}, rope = {result.rope:g}"
    ax.set_title(default if title is None else title)
    return ax


def plot_bayesian_posterior(result, *, ax=None, title=None, max_points=5000):
    """The posterior of a Bayesian comparison of two learners.

    For the correlated t-test (Corani & Benavoli 2015) the Student t posterior
    of the mean of ``x − y``, its regions filled in the colour of the learner
    they favour and the ROPE band shaded (a point mass: a vertical line). For
    the signed-rank and sign tests each Monte Carlo sample is a point
    ``(θ_a, θ_rope, θ_b)`` of the simplex (Benavoli et al. 2017, Fig. 6),
    coloured by its largest probability, with each region's probability at
    its vertex.

    Parameters
    ----------
    result : BayesianTestResult
    ax : matplotlib.axes.Axes, default=None
        Axes to draw on; ``None`` makes a new figure.
    title : str, default=None
        ``None`` draws ``"<a> vs <b>: correlated t posterior"`` or ``"<a> vs
        <b>: Bayesian <test>, rope = <rope>"``.
    max_points : int, default=5000
        The simplex draws at most this many samples (every k-th); the
        probabilities use all of them.

    Returns
    -------
    matplotlib.axes.Axes
        The density has gid ``"posterior"``, the ROPE band ``"rope"``, the
        filled regions ``"region-a"``, ``"region-rope"``, ``"region-b"`` (``a``
        is ``labels[0]``); the simplex's points are collections with gids
        ``"samples-a"``, ``"samples-rope"``, ``"samples-b"``, the triangle
        ``"simplex"``.

    Examples
    --------
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> from sklearn_bench.plotting import plot_bayesian_posterior
    >>> from sklearn_bench.stats import bayesian_sign_test
    >>> auc = load_demsar2006(wide=True)
    >>> res = bayesian_sign_test(auc["C4.5+m"], auc["C4.5"], delta=0.01,
    ...                          random_state=0, greater_is_better=True)
    >>> ax = plot_bayesian_posterior(res)
    >>> ax.get_title()  # without labels= the learners are x and y
    'x vs y: Bayesian sign test, rope = 0.01'
    >>> sorted(c.get_gid() for c in ax.collections)
    ['samples-a', 'samples-b', 'samples-rope']
    """
    if not isinstance(result, BayesianTestResult):
        raise ValueError(
            "`result` must be a BayesianTestResult (from bayesian_correlated_t, "
            "bayesian_signed_rank, bayesian_sign_test or "
            f"BenchmarkResult.bayesian_test); got {type(result).__name__}."
        )
    check_text(title)
    check_positive_int(max_points, "max_points")
    if result.method == "correlated_t":
        return _plot_density(result, ax, title)
    return _plot_simplex(result, ax, title, max_points)


def plot_rank_posterior(result, *, ax=None, title=None):
    """The rank posteriors of the Bayesian Plackett–Luce model of K learners.

    For :func:`~sklearn_bench.stats.bayesian_plackett_luce` (Calvo et al.
    2018): one row per learner, by expected rank, one column per position.
    A cell's shade is the posterior probability that the learner holds that
    position in the most probable ranking (printed from 0.01); a dot and a bar
    mark its expected rank on a new data set and its credible interval.

    Parameters
    ----------
    result : PlackettLuceResult
    ax : matplotlib.axes.Axes, default=None
        Axes to draw on; ``None`` makes a new figure.
    title : str, default=None
        ``None`` draws ``"Bayesian Plackett–Luce ranking, <J> data sets"``.

    Returns
    -------
    matplotlib.axes.Axes
        The shaded cells are an image with gid ``"rank-probabilities"``, the
        dots a collection with gid ``"expected-rank"``, the bars a collection
        with gid ``"rank-interval"``.

    Examples
    --------
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> from sklearn_bench.plotting import plot_rank_posterior
    >>> from sklearn_bench.stats import bayesian_plackett_luce
    >>> res = bayesian_plackett_luce(load_dietterich2000(wide=True),
    ...     greater_is_better=False, n_draws=500, random_state=0)
    >>> ax = plot_rank_posterior(res)
    >>> ax.images[0].get_gid(), sorted(c.get_gid() for c in ax.collections)
    ('rank-probabilities', ['expected-rank', 'rank-interval'])
    """
    import matplotlib.pyplot as plt

    if not isinstance(result, PlackettLuceResult):
        raise ValueError(
            "`result` must be a PlackettLuceResult (from bayesian_plackett_luce or "
            f"BenchmarkResult.bayesian_ranking); got {type(result).__name__}."
        )
    check_text(title)
    k = result.n_learners
    order = result.expected_rank.sort_values(kind="stable").index
    probs = result.rank_probabilities.loc[order].to_numpy()
    if ax is None:
        size = (1.6 + 0.55 * k, 1.0 + 0.42 * k)
        _, ax = plt.subplots(figsize=size, layout="constrained")
    cells = {"extent": (0.5, k + 0.5, k - 0.5, -0.5), "aspect": "auto"}
    ax.imshow(probs, cmap="Blues", vmin=0, vmax=1, gid="rank-probabilities", **cells)
    if k <= 12:
        texts = [[f"{p:.2f}" if p >= 0.01 else None for p in row] for row in probs]
        colors = np.where(probs > 0.6, "white", "black")
        annotate_cells(ax, texts, colors, fontsize=7, x0=1)  # positions 1..k
    rows = np.arange(k)
    low = result.expected_rank_interval["low"].loc[order].to_numpy()
    high = result.expected_rank_interval["high"].loc[order].to_numpy()
    red = {"color": "#d62728", "zorder": 3}
    ax.hlines(rows + 0.3, low, high, lw=2, gid="rank-interval", **red)
    expected = result.expected_rank.loc[order].to_numpy()
    ax.scatter(expected, rows + 0.3, s=18, gid="expected-rank", **{**red, "zorder": 4})
    ax.set_yticks(rows, figure_labels(order))
    ax.set_xticks(np.arange(1, k + 1))
    ax.set_xlim(0.5, k + 0.5)
    ax.set_ylim(k - 0.5, -0.5)
    ax.set_xlabel(
        "position (1 = best); shade: P(position in the most probable ranking); "
        f"red: expected rank, {result.confidence_level:.0%} interval",
        fontsize=8,
    )
    default = f"Bayesian Plackett–Luce ranking, {result.n_datasets} data sets"
    ax.set_title(default if title is None else title)
    return ax
