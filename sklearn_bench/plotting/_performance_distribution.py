"""Performance distributions of learners on one data set (Hothorn et al. 2005);
matplotlib is imported inside the functions (the ``plot`` extra)."""

import numpy as np
from scipy import stats
from threadpoolctl import threadpool_limits  # a dependency of scikit-learn

from .._metrics import metric_bounds
from ..analysis._analysis import replicate_values
from ._common import _labelled_rows_axes, figure_label, figure_labels

# At most this many values per learner are drawn as points, not a boxplot and
# a density (which one or two values cannot define).
FEW_VALUES = 2
# Vertical layout of one learner's row, in row units (row centre at 0).
_DENSITY_BASE = -0.12  # baseline of the density curve
_DENSITY_HEIGHT = 0.55  # height of the tallest density of the figure
_BOX_CENTRE = -0.27
_BOX_HEIGHT = 0.2
_ROW_INCHES = 0.55
_GRID_POINTS = 64


def _density(values, span, bounds=(None, None)):
    """Gaussian kernel density (Scott's bandwidth) reflected at the bounds so
    that it has no mass outside them (Silverman 1986, Section 2.10), as ``(x,
    density)``: the ends of ``span`` and ``_GRID_POINTS`` points where it is
    not negligible (within 4 bandwidths of the values); ``None`` when undefined."""
    if values.size < 2 or np.ptp(values) == 0:
        return None
    kde, (low, high) = stats.gaussian_kde(values), bounds
    reach = 4 * np.sqrt(kde.covariance[0, 0])
    near = (max(span[0], values.min() - reach), min(span[1], values.max() + reach))
    x = np.union1d(span, np.linspace(*near, _GRID_POINTS))
    points = [x] + [2 * bound - x for bound in (low, high) if bound is not None]
    return x, kde(np.concatenate(points)).reshape(len(points), -1).sum(axis=0)


def performance_distribution(result, dataset, *, metric=None, ax=None, bounds="auto"):
    """Boxplot and kernel density of each learner's performance on one data set.

    Hothorn et al. (2005), Figures 3–5: one row per learner, a boxplot (whiskers
    at 1.5 IQR) below a Gaussian kernel density (Scott's bandwidth) reflected at
    the ends of the metric's range; one or two values are drawn as points.

    Parameters
    ----------
    result : BenchmarkResult
    dataset : str
        The data set.
    metric : str, default=None
        Which metric; the first one by default.
    ax : matplotlib Axes, default=None
        Where to draw; by default a new figure sized for the number of learners.
    bounds : "auto" or (float or None, float or None), default="auto"
        The metric's range, where the densities are reflected; ``"auto"``: the
        known range of the metric's name (``[0, 1]`` for an error rate).

    Returns
    -------
    ax : matplotlib Axes

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.plotting import performance_distribution
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame({"learner": np.repeat(["tree", "forest"], 50),
    ...                    "replicate": np.tile(np.arange(50), 2),
    ...                    "error": rng.beta(4, 20, size=100)})
    >>> result = BenchmarkResult.from_frame(
    ...     df.assign(dataset="iono"), dataset="dataset", learner="learner",
    ...     value="error", replicate="replicate", greater_is_better=False)
    >>> ax = performance_distribution(result, "iono")
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['tree', 'forest']
    """
    greater_is_better = result.greater_is_better(metric)  # checks `metric`
    metric = next(iter(result.metrics)) if metric is None else metric
    if str(dataset) not in result.datasets:
        raise ValueError(
            f"Unknown `dataset` {dataset!r}; this result has {list(result.datasets)}."
        )
    values = replicate_values(result, metric, [str(dataset)])[str(dataset)]
    if not values:
        raise ValueError(f"Data set {dataset!r} has no performances to plot.")
    return draw_performance_distribution(
        values, dataset=dataset, metric=metric, greater_is_better=greater_is_better,
        ax=ax, bounds=bounds,
    )  # fmt: skip


def draw_performance_distribution(
    values, *, dataset, metric, greater_is_better, ax=None, bounds="auto"
):
    """:func:`performance_distribution` of ``values`` (``{learner: finite
    performances}``, drawn top to bottom): what a report draws from its
    analysis' stored values."""
    import matplotlib.pyplot as plt
    from matplotlib.collections import LineCollection, PolyCollection

    learners = list(values)
    if isinstance(bounds, str) and bounds == "auto":
        bounds = metric_bounds(metric)
    lo_bound, hi_bound = bounds
    finite = np.concatenate([v for v in values.values() if v.size] or [np.zeros(1)])
    low, high = float(finite.min()), float(finite.max())
    pad = 0.08 * (high - low) if high > low else 0.05 * max(abs(low), 1.0)
    start, stop = low - pad, high + pad
    if lo_bound is not None and low >= lo_bound:
        start = max(start, lo_bound)
    else:
        lo_bound = None  # values outside the stated range: do not reflect
    if hi_bound is not None and high <= hi_bound:
        stop = min(stop, hi_bound)
    else:
        hi_bound = None
    span = (start, stop)
    # gaussian_kde's 1 x 1 triangular solve: the same on any number of BLAS
    # threads, but starting OpenBLAS's threads for each took milliseconds
    with threadpool_limits(limits=1, user_api="blas"):
        densities = {
            m: _density(v, span, (lo_bound, hi_bound)) for m, v in values.items()
        }
    peak = max((d[1].max() for d in densities.values() if d is not None), default=1)

    k = len(learners)
    labels = figure_labels(learners)
    if ax is None:
        ax = _labelled_rows_axes(labels, 1.05 + _ROW_INCHES * k, axes_width=5.0)
    colors = plt.rcParams["axes.prop_cycle"].by_key().get("color", ["C0"])
    boxed, fills = [], []  # (row, values, colour); (polygon, curve, colour)
    for i, name in enumerate(learners):
        y = k - 1 - i  # first learner on top
        color = colors[i % len(colors)]
        v = values[name]
        if v.size == 0:
            ax.text(np.mean(span), y, "no finite performance", ha="center", va="center")
            continue
        base = y + _DENSITY_BASE
        dens = densities[name]
        if v.size <= FEW_VALUES:  # no box or density to draw from one or two
            row = np.full(v.size, y + _BOX_CENTRE)
            ax.plot(v, row, ls="none", marker="o", ms=5, color=color, gid="few")
            continue
        if dens is None:
            ax.vlines(v[0], base, base + _DENSITY_HEIGHT, color=color, lw=2)
        else:
            x, curve = dens[0], base + _DENSITY_HEIGHT * dens[1] / peak
            line, ends = np.c_[x, curve], [(x[0], base), (x[-1], base)]
            # fill_between(x, base, curve)'s polygon, without its checks
            fills.append((np.vstack([ends[:1], line, ends[1:]]), line, color))
        boxed.append((y, v, color))
    if fills:  # a collection of each kind: the rows do not overlap
        polygons, lines, tint = zip(*fills, strict=True)
        ax.add_collection(
            PolyCollection(polygons, color=tint, alpha=0.3, lw=0), autolim=False
        )
        ax.add_collection(
            LineCollection(lines, colors=tint, linewidths=1.2, capstyle="projecting",
                           gid="density"), autolim=False
        )  # fmt: skip
    if boxed:
        _boxes(ax, boxed)
    ax.add_collection(  # the rows' separators
        LineCollection(
            [[(0, y + 0.5), (1, y + 0.5)] for y in range(k - 1)],
            colors="0.85",
            linewidths=0.6,
            capstyle="projecting",
            transform=ax.get_yaxis_transform(),
        ),
        autolim=False,
    )
    ax.set_yticks(np.arange(k - 1, -1, -1), labels)
    ax.set_ylim(-0.55, k - 0.45)
    ax.set_xlim(span)
    better = "higher" if greater_is_better else "lower"
    ax.set_xlabel(f"{metric} per replicate ({better} is better)")
    # y=1: where matplotlib would put it (ticks below), without measuring every
    # row's label again at each drawing to find that out
    ax.set_title(f"{figure_label(dataset)}: performance over replicates", y=1.0)
    ax.grid(axis="x", alpha=0.3)
    return ax


def _boxes(ax, boxed):
    """The boxes of ``boxed`` (``(row, values, colour)``) as ``boxplot(whis=1.5,
    orientation="horizontal", patch_artist=True)`` draws them, in a collection
    per kind of line (one artist per line cost 10 ms a learner to make and
    draw). The rows do not overlap, so the pixels are the same."""
    from matplotlib.cbook import boxplot_stats
    from matplotlib.collections import LineCollection, PolyCollection

    stats = boxplot_stats([v for _, v, _ in boxed], whis=1.5)
    pos = np.array([y + _BOX_CENTRE for y, _, _ in boxed])
    lo, hi = pos - _BOX_HEIGHT / 2, pos + _BOX_HEIGHT / 2
    cap_lo, cap_hi = pos - _BOX_HEIGHT / 4, pos + _BOX_HEIGHT / 4
    q1, q3, whislo, whishi, med = (
        np.array([st[key] for st in stats])
        for key in ("q1", "q3", "whislo", "whishi", "med")
    )
    colors = [color for _, _, color in boxed]
    twice = [color for color in colors for _ in "ab"]

    def lines(x, y):  # a row's segments (x[0], y[0]) -> (x[1], y[1]), ... in turn
        return np.stack([x, y], axis=-1).transpose(1, 0, 2).reshape(-1, 2, 2)

    corners = np.stack([[q1, q1, q3, q3, q1], [lo, hi, hi, lo, lo]], axis=-1)
    ax.add_collection(
        PolyCollection(
            corners.transpose(1, 0, 2), facecolors="white", edgecolors=colors,
            linewidths=1.0, joinstyle="miter", capstyle="butt", zorder=2,
        ),
        autolim=False,
    )  # fmt: skip
    whiskers = lines([q1, whislo, q3, whishi], [pos, pos, pos, pos])
    caps = lines([whislo, whislo, whishi, whishi], [cap_lo, cap_hi, cap_lo, cap_hi])
    for segments in (whiskers, caps):
        ax.add_collection(
            LineCollection(segments, colors=twice, lw=1.0, capstyle="projecting"),
            autolim=False,
        )
    for st, y, color in zip(stats, pos, colors, strict=True):
        if len(st["fliers"]):
            ax.plot(st["fliers"], np.full(len(st["fliers"]), y), linestyle="none",
                    marker="o", markersize=3, markerfacecolor="none",
                    markeredgecolor=color)  # fmt: skip
    ax.add_collection(
        LineCollection(
            lines([med, med], [lo, hi]), colors=colors, linewidths=2,
            capstyle="butt", zorder=2.1, gid="medians",
        ),
        autolim=False,
    )  # fmt: skip
