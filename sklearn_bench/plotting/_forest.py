"""Forest plot of confidence intervals of pairwise differences (Berrar & Lozano
2013, Figure 4)."""

import numpy as np

from .._validation import check_confidence_level
from ..analysis._format import fmt_level
from ._common import _labelled_rows_axes, check_frame, figure_labels

_ROW_INCHES = 0.3
_MIN_HEIGHT = 2.0
_AXES_WIDTH = 4.5


def _check_intervals(intervals):
    check_frame(intervals, "intervals", ("estimate", "low", "high"))
    adjusted = {"adjusted_low", "adjusted_high"} & set(intervals.columns)
    if len(adjusted) == 1:
        raise ValueError(
            "`intervals` needs both `adjusted_low` and `adjusted_high`, or neither."
        )
    return bool(adjusted)


def plot_confidence_intervals(
    intervals,
    *,
    ax=None,
    null_value=0.0,
    xlabel="difference",
    title=None,
    confidence_level=None,
    adjusted_label=None,
):
    """Forest plot of confidence intervals, unadjusted and adjusted (Berrar & Lozano
    2013, Fig. 4).

    One row per comparison, in the order of ``intervals``: a dot at the
    estimate, a thick line for the unadjusted interval and, when given, a thin
    capped line for the (wider) multiplicity-adjusted one. A dashed line marks
    ``null_value``; infinite bounds are drawn to the edge with an arrow head.

    Parameters
    ----------
    intervals : DataFrame
        Index: comparison labels (e.g. ``"A − B"``). Columns ``estimate``,
        ``low``, ``high`` and optionally ``adjusted_low``, ``adjusted_high``.
    ax : matplotlib.axes.Axes, default=None
        Axes to draw on; ``None`` makes a figure whose height grows with the
        number of rows and whose left margin with the longest label.
    null_value : float, default=0.0
        The value of "no difference".
    xlabel : str, default="difference"
        Label of the horizontal axis, e.g. ``"error(A) − error(B)"``.
    title : str, default=None
        Axes title.
    confidence_level : float, default=None
        The level of the unadjusted intervals, named in the legend
        (``"unadjusted 95% interval"``); ``None``: not named.
    adjusted_label : str, default=None
        The level and method of the adjusted intervals, named in the legend,
        e.g. ``"simultaneous 95% (Bonferroni, each at 99.76%)"``; ``None``:
        ``"adjusted"``.

    Returns
    -------
    matplotlib.axes.Axes
        One line (all the rows, broken at NaN) carries each of the gids
        ``"ci-unadjusted"``, ``"ci-adjusted"`` and ``"ci-null"``; the
        estimates are the collection ``"ci-estimate"``.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.plotting import plot_confidence_intervals
    >>> table = pd.DataFrame(
    ...     {"estimate": [-0.31, -0.04], "low": [-0.51, -0.09],
    ...      "high": [-0.15, 0.02], "adjusted_low": [-0.54, -0.10],
    ...      "adjusted_high": [-0.10, 0.03]},
    ...     index=["dlda30 − coin", "dlda30 − dlda10"])
    >>> ax = plot_confidence_intervals(
    ...     table, xlabel="error difference", confidence_level=0.95,
    ...     adjusted_label="simultaneous 95% (Bonferroni, each at 97.5%)")
    >>> [t.get_text() for t in ax.get_yticklabels()]
    ['dlda30 − coin', 'dlda30 − dlda10']
    >>> [t.get_text() for t in ax.get_legend().get_texts()]
    ['simultaneous 95% (Bonferroni, each at 97.5%) interval', 'unadjusted 95% interval']
    """
    has_adjusted = _check_intervals(intervals)
    if confidence_level is not None:
        confidence_level = check_confidence_level(confidence_level)
    n, labels = len(intervals), figure_labels(intervals.index)
    legend_points = 36 if adjusted_label else 22  # the legend's height above
    if ax is None:
        height = max(_MIN_HEIGHT, 1.4 + _ROW_INCHES * n)
        top = (legend_points + (14 if title is not None else 6)) / 72
        ax = _labelled_rows_axes(labels, height, axes_width=_AXES_WIDTH, top=top)
    y = np.arange(n)[::-1].astype(float)  # first row on top
    est = intervals["estimate"].to_numpy(dtype=float)
    cols = ["low", "high"] + (["adjusted_low", "adjusted_high"] if has_adjusted else [])
    bounds = intervals[cols].to_numpy(dtype=float)
    finite = np.concatenate([bounds[np.isfinite(bounds)], est, [null_value]])
    lo, hi = float(np.nanmin(finite)), float(np.nanmax(finite))
    pad = 0.08 * (hi - lo) if hi > lo else 0.05 * max(abs(hi), 1.0)
    x_lo, x_hi = lo - pad, hi + pad

    def draw(low, high, gid, **style):
        # all the rows as one line broken at NaN: one artist, the same pixels
        bounds = np.column_stack([low, high, np.full(n, np.nan)])
        bounds[np.isnan(bounds[:, :2]).any(axis=1)] = np.nan  # a row not drawn
        ends = np.clip(bounds, x_lo, x_hi)  # an infinite bound to the edge
        ax.plot(ends.ravel(), np.repeat(y, 3), gid=gid, **style)
        arrow = {"arrowstyle": "->", "color": style["color"]}
        for row, side in zip(*np.nonzero(np.isinf(bounds)), strict=True):
            at = (ends[row, side], y[row])
            tail = (at[0] + (1 - 2 * side) * 0.04 * (x_hi - x_lo), at[1])
            ax.annotate("", xy=at, xytext=tail, arrowprops=arrow)

    ax.axvline(null_value, color="0.4", linestyle="--", linewidth=1.0, gid="ci-null")
    if has_adjusted:
        label = f"{adjusted_label or 'adjusted'} interval"
        thin = {"linewidth": 1.0, "marker": "|", "markersize": 8, "label": label}
        draw(*bounds[:, 2:].T, "ci-adjusted", color="tab:blue", **thin)
    level = "" if confidence_level is None else f" {fmt_level(confidence_level)}"
    label = f"unadjusted{level} interval"
    thick = {"linewidth": 4.0, "alpha": 0.6, "solid_capstyle": "butt", "label": label}
    draw(*bounds[:, :2].T, "ci-unadjusted", color="tab:blue", **thick)
    ax.scatter(est, y, color="black", s=14, zorder=3, gid="ci-estimate")
    ax.set_yticks(y, labels)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlim(x_lo, x_hi)
    ax.set_xlabel(xlabel)
    ax.grid(axis="x", color="0.9")
    ax.set_axisbelow(True)
    above = {"loc": "lower center", "bbox_to_anchor": (0.5, 1.0), "fontsize": 9}
    ax.legend(ncol=1 if adjusted_label else 2, frameon=False, **above)
    if title is not None:
        # y=1 (ticks below): no measuring every row's label to place it
        ax.set_title(title, pad=legend_points, y=1.0)
    return ax
