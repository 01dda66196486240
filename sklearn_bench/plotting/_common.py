"""Drawing helpers shared by the figures of :mod:`sklearn_bench.plotting`: labels,
argument checks, heat-map cells and the rank diagram of Demšar (2006), Fig. 1.
matplotlib is imported inside the functions (the ``plot`` extra is optional)."""

import numpy as np
import pandas as pd

from .._text import MAX_LABEL_LENGTH, short_label
from .._validation import check_positive_int

__all__ = ["figure_label", "figure_labels"]


def fitted_title(ax, text, **kwargs):
    """Set ``text`` as the title of ``ax``, broken onto lines where it is wider
    than the axes; returns the title's Text."""
    import textwrap

    title = ax.set_title(text, **kwargs)
    fig = ax.figure
    engine = fig.get_layout_engine()
    if engine is not None:  # the layout settles the axes' width (no drawing)
        engine.execute(fig)
    renderer = fig.canvas.get_renderer()
    width, room = len(text), ax.get_window_extent(renderer).width
    # "α = 0.00238" stays on one line (no-break spaces around "=")
    unbroken = text.replace(" = ", "\u00a0=\u00a0")
    while width > 20 and title.get_window_extent(renderer).width > room:
        width = int(width * 0.85)
        title.set_text("\n".join(textwrap.wrap(unbroken, width)))
    return title


def figure_label(name, *, max_length=MAX_LABEL_LENGTH):
    r"""A name as every figure draws it: cut to ``max_length`` characters (the
    ellipsis included), control characters as visible escapes, and every ``$``
    escaped so that mathtext draws it literally (``\$\alpha\$``)."""
    max_length = check_positive_int(max_length, "max_length")
    return short_label(name, max_length).replace("$", r"\$")


def figure_labels(names, *, max_length=MAX_LABEL_LENGTH):
    """:func:`figure_label` of each name, as a list."""
    return [figure_label(name, max_length=max_length) for name in names]


def check_text(value, name="title"):
    """The caller's text, drawn as given (mathtext included): a str or None."""
    if value is not None and not isinstance(value, str):
        raise ValueError(f"`{name}` must be a string or None; got {value!r:.80}.")


def check_frame(frame, name, columns, what="a pandas DataFrame"):
    """``frame`` is a DataFrame (``what``) with rows and ``columns``."""
    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"`{name}` must be {what}.")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"`{name}` lacks the columns {missing}.")
    if len(frame) == 0:
        raise ValueError(f"`{name}` has no rows.")


def annotate_cells(ax, texts, colors, *, fontsize, gid=None, x0=0):
    """Write ``texts[i][j]`` (not where ``None``) in ``colors[i][j]`` at cell
    ``(x0 + j, i)`` of a heat map."""
    style = {"ha": "center", "va": "center", "fontsize": fontsize, "gid": gid}
    for i, row in enumerate(texts):
        for j, text in enumerate(row):
            if text is not None:
                ax.text(x0 + j, i, text, color=colors[i][j], **style)


def _labelled_rows_axes(labels, height, *, axes_width, font_size=10.0, top=0.45):
    """A new figure of one axes with rows labelled on the left, laid out by
    fixed margins (inches) from the labels' length: a constrained layout
    measures every label at each drawing (seconds for 50 learners)."""
    import matplotlib.pyplot as plt

    longest = max((len(label) for label in labels), default=1)
    left = 0.3 + 0.0075 * font_size * longest
    bottom, right = 0.6, 0.25
    width = left + axes_width + right
    fig = plt.figure(figsize=(width, height))
    return fig.add_axes(
        (left / width, bottom / height, axes_width / width,
         (height - bottom - top) / height)
    )  # fmt: skip


# Fraction of a rank unit by which a group bar overhangs its first and last
# learner, so that a group of learners with equal average ranks stays visible.
_BAR_OVERHANG = 0.04
# Least horizontal gap between two bars drawn in the same row, in rank units.
_MIN_BAR_GAP = 0.3
# Vertical layout, in units of one name row.
_ROW_INCHES = 0.28
_TITLE_INCHES = 0.4  # room above the axes for a title, in a figure made here
_TICK_Y = 0.18
_CD_BAR_Y = 1.1
_FIRST_BAR_Y = -0.45
_BAR_STEP = 0.32
_NAME_GAP = 0.75
_FONT_SIZE = 10
_TICK_FONT_SIZE = 9


def _maximal_runs(order, joined):
    """The maximal runs (tuples of indices, at least two) of consecutive learners
    in ``order`` all pairwise ``joined(a, b)`` (positions in ``order``)."""
    k = len(order)
    groups = []
    last_end = -1
    for start in range(k):
        end = start
        while end + 1 < k and all(joined(m, end + 1) for m in range(start, end + 1)):
            end += 1
        if end > start and end > last_end:
            groups.append(tuple(int(i) for i in order[start : end + 1]))
        last_end = max(last_end, end)
    return groups


def _groups_from_matrix(average_ranks, significant):
    """Maximal runs (in rank order) of learners no two of which are
    ``significant``, a symmetric boolean (k, k) array."""
    ranks = np.asarray(average_ranks, dtype=float)
    order = np.argsort(ranks, kind="stable")
    sig = np.asarray(significant, dtype=bool)
    return _maximal_runs(order, lambda a, b: not sig[order[a], order[b]])


def _bar_extent(ranks, group, unit=1.0):
    """Ends of a group's bar: its extreme ranks plus an overhang (``unit``: one
    rank on the axis) that stops short of the nearest learner outside it."""
    overhang = _BAR_OVERHANG * unit
    members = ranks[list(group)]
    lo, hi = members.min(), members.max()
    others = np.delete(ranks, list(group))
    below, above = others[others < lo], others[others > hi]
    over_lo = min(overhang, 0.4 * (lo - below.max())) if below.size else None
    over_hi = min(overhang, 0.4 * (above.min() - hi)) if above.size else None
    return (
        lo - (overhang if over_lo is None else over_lo),
        hi + (overhang if over_hi is None else over_hi),
    )


def _pack_rows(intervals, min_gap):
    """Assign each interval (sorted by start) the lowest row where it fits."""
    row_ends, rows = [], []
    for lo, hi in intervals:
        free = (r for r, end in enumerate(row_ends) if lo - end > min_gap)
        r = next(free, len(row_ends))  # a new row when none is free
        row_ends[r : r + 1] = [hi]
        rows.append(r)
    return rows


def _line_colors(colors, learners):
    """One matplotlib colour per learner (black unless ``colors`` names it)."""
    if colors is None:
        return None
    if not isinstance(colors, dict):
        raise ValueError(
            f"`colors` must be a dict {{learner: colour}}; got {type(colors).__name__}."
        )
    from matplotlib.colors import is_color_like

    unknown = [name for name in colors if name not in learners]
    if unknown:
        raise ValueError(
            f"`colors` names learners not in the result: {unknown!r}; the "
            f"learners are {list(learners)!r}."
        )
    for name, colour in colors.items():
        if not is_color_like(colour):
            raise ValueError(
                f"`colors` gives learner {name!r} the colour {colour!r}, which "
                "matplotlib does not know."
            )
    return [colors.get(name, "black") for name in learners]


def _draw_rank_diagram(
    ax,
    names,
    ranks,
    groups,
    *,
    cd=None,
    label=None,
    colors=None,
    axis=None,
    shown=None,
    value_format="{:.2f}",
    cd_text="CD",
):
    """Draw the axis of average ranks, the learners' names and one bar per group.

    Above the axis the critical difference ``cd``, else ``label``. ``axis``:
    ``(lo, hi, [(position, text), ...])`` for an axis other than the ranks 1..k,
    ``shown`` the values printed beside the names (default ``ranks``)."""
    import matplotlib.pyplot as plt

    k = ranks.size
    ticks = [(float(t), str(t)) for t in range(1, k + 1)]
    lo_axis, hi_axis, tick_marks = (1.0, float(k), ticks) if axis is None else axis
    minor = list(np.arange(1.5, k, 1.0)) if axis is None else []
    unit = 1.0 if axis is None else (hi_axis - lo_axis) / max(k - 1, 1)  # a rank
    shown = ranks if shown is None else shown
    colors = ["black"] * k if colors is None else colors
    names = figure_labels(names)
    order = np.argsort(ranks, kind="stable")
    n_left = (k + 1) // 2
    left, right = list(order[:n_left]), list(order[n_left:])[::-1]
    n_rows = max(len(left), len(right))

    intervals = [_bar_extent(ranks, g, unit) for g in groups]
    bar_rows = _pack_rows(intervals, min_gap=_MIN_BAR_GAP * unit)
    n_bar_rows = max(bar_rows, default=-1) + 1
    bars_bottom = _FIRST_BAR_Y - max(n_bar_rows - 1, 0) * _BAR_STEP
    name_top = bars_bottom - _NAME_GAP
    y_low = name_top - (n_rows - 1) - 0.8
    y_high = _CD_BAR_Y + 0.75

    own_figure = ax is None
    if own_figure:
        content = (y_high - y_low) * _ROW_INCHES
        height = content + _TITLE_INCHES
        fig = plt.figure(figsize=(6.0, height))
        ax = fig.add_axes((0.01, 0.0, 0.98, content / height))
    fig = ax.figure
    ax.set_axis_off()
    ax.set_ylim(y_low, y_high)

    # Names first, at provisional positions, to measure their widths in pixels.
    texts = {}
    for side, x, ha in ((left, lo_axis, "right"), (right, hi_axis, "left")):
        style = {"ha": ha, "va": "center", "fontsize": _FONT_SIZE, "gid": "cd-name"}
        for row, i in enumerate(side):
            value = value_format.format(shown[i])
            text = f"{names[i]} ({value})" if ha == "right" else f"({value}) {names[i]}"
            texts[i] = ax.text(x, name_top - row, text, color=colors[i], **style)
    # measured by the renderer, without drawing (a given axes' layout first)
    renderer = fig.canvas.get_renderer()
    if fig.get_layout_engine() is not None:
        fig.get_layout_engine().execute(fig)
    dpi = fig.dpi
    width = {i: t.get_window_extent(renderer).width for i, t in texts.items()}
    w_left = max(width[i] for i in left)
    w_right = max((width[i] for i in right), default=0.0)
    # line end to text, text to its line, and outer margin beyond the longest name
    gap_px, pad_px, margin_px = 0.15 * dpi, 0.08 * dpi, 0.1 * dpi
    x_max = max(hi_axis, lo_axis + (cd or 0.0))
    span = x_max - lo_axis
    side_px = w_left + w_right + 2 * (gap_px + pad_px + margin_px)
    if own_figure:
        axis_px = max(3.0, 0.3 * span) * dpi
        fig.set_size_inches((axis_px + side_px) / dpi / 0.98, fig.get_figheight())
    ax_px = ax.get_window_extent().width
    scale = (ax_px - side_px) / span  # pixels per rank unit
    if scale <= 0:  # a given axes too narrow for the names: keep the axis readable
        scale = ax_px / (2 * span)
    x_lo = lo_axis - (gap_px + pad_px + margin_px + w_left) / scale
    x_hi = x_max + (gap_px + pad_px + margin_px + w_right) / scale
    ax.set_xlim(x_lo, x_hi)
    line = {"color": "black", "linewidth": 1.0}
    small = {"ha": "center", "va": "bottom", "fontsize": _TICK_FONT_SIZE}

    ax.plot([lo_axis, hi_axis], [0, 0], gid="cd-axis", **line)
    for tick, text in tick_marks:
        ax.plot([tick, tick], [0, 0.12], gid="cd-tick", **line)
        ax.text(tick, _TICK_Y, text, gid="cd-tick", **small)
    for tick in minor:
        ax.plot([tick, tick], [0, 0.06], gid="cd-tick", **line)

    if cd is not None:
        end = lo_axis + cd
        ax.plot([lo_axis, end], [_CD_BAR_Y, _CD_BAR_Y], gid="cd-bar", **line)
        for x in (lo_axis, end):
            ax.plot([x, x], [_CD_BAR_Y - 0.08, _CD_BAR_Y + 0.08], gid="cd-bar", **line)
        value = value_format.format(cd) if axis else f"{cd:.2f}"
        at = (lo_axis + cd / 2, _CD_BAR_Y + 0.12)
        ax.text(*at, f"{cd_text} = {value}", gid="cd-label", **small)
    elif label:
        ax.text((lo_axis + hi_axis) / 2, _CD_BAR_Y, label, gid="cd-label", **small)

    # Each learner: down from its rank, then out to its name.
    for side, x_text, pad in (
        (left, lo_axis - gap_px / scale, -pad_px / scale),
        (right, hi_axis + gap_px / scale, pad_px / scale),
    ):
        for row, i in enumerate(side):
            y, own = name_top - row, {**line, "color": colors[i]}
            ax.plot([ranks[i], ranks[i], x_text], [0, y, y], gid="cd-learner", **own)
            texts[i].set_x(x_text + pad)

    # One bar per maximal group of learners not significantly different.
    bar = {**line, "linewidth": 3.0, "solid_capstyle": "butt"}
    for (lo, hi), row in zip(intervals, bar_rows, strict=True):
        y = _FIRST_BAR_Y - row * _BAR_STEP
        ax.plot([lo, hi], [y, y], gid="cd-group", **bar)
    return ax
