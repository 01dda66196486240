"""Figures of a leaderboard that stay readable at 50 learners: rank confidence
sets as a forest plot, and the win-rate matrix as a heat map."""

import numpy as np
import pandas as pd

from .._validation import real_array
from ._common import _labelled_rows_axes, annotate_cells, check_frame, figure_labels

_ROW_INCHES = 0.2
_MIN_HEIGHT = 2.0


def _check_board(leaderboard):
    what = "the DataFrame of BenchmarkResult.leaderboard()"
    check_frame(leaderboard, "leaderboard", ("rank", "rank_low", "rank_high"), what)
    values = leaderboard[["rank", "rank_low", "rank_high"]].to_numpy(dtype=float)
    if not np.isfinite(values).all():
        raise ValueError("`leaderboard` has missing ranks.")


def plot_rank_intervals(leaderboard, *, ax=None, title=None):
    """Forest plot of the rank confidence sets of a leaderboard.

    One row per learner in the table's order (best first): a thin line for the
    simultaneous set (``rank_low`` .. ``rank_high``), a thick one for the
    marginal set when the table has it, a dot at the ``rank``; the top-1
    confidence set (``may_be_best``) in red. The height grows with the rows.

    Parameters
    ----------
    leaderboard : DataFrame
        As returned by :meth:`BenchmarkResult.leaderboard
        <sklearn_bench.BenchmarkResult.leaderboard>` (``rank``, ``rank_low``,
        ``rank_high``; optionally ``rank_low_marginal``, ``rank_high_marginal``,
        ``may_be_best``).
    ax : matplotlib.axes.Axes, default=None
    title : str, default=None
        ``None`` (or ``""``) draws a title that says what the bars mean.

    Returns
    -------
    matplotlib.axes.Axes
        Lines carry the gids ``"rank-simultaneous"`` and ``"rank-marginal"``.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.plotting import plot_rank_intervals
    >>> board = pd.DataFrame({"rank": [1, 2, 3], "rank_low": [1, 1, 3],
    ...                       "rank_high": [2, 2, 3], "may_be_best": [1, 1, 0]},
    ...                      index=["A", "B", "C"])
    >>> ax = plot_rank_intervals(board)
    >>> ax.get_xlabel()
    'rank (1 = best)'
    """
    _check_board(leaderboard)
    n = len(leaderboard)
    size = 8 if n > 20 else 9
    if ax is None:
        height = max(_MIN_HEIGHT, 1.05 + _ROW_INCHES * n)
        labels = figure_labels(leaderboard.index)
        ax = _labelled_rows_axes(labels, height, axes_width=4.4, font_size=size)
    y = np.arange(n)
    best = np.zeros(n, dtype=bool)
    if "may_be_best" in leaderboard:
        best = leaderboard["may_be_best"].to_numpy(dtype=bool)
    colours = np.where(best, "#c0392b", "#2c3e50")
    low, high = leaderboard[["rank_low", "rank_high"]].to_numpy(dtype=float).T
    ax.hlines(y, low - 0.3, high + 0.3, colors=colours, lw=1.2, gid="rank-simultaneous")
    marginal = ["rank_low_marginal", "rank_high_marginal"]
    if set(marginal) <= set(leaderboard.columns):
        low, high = leaderboard[marginal].to_numpy(dtype=float).T
        thick = {"colors": colours, "lw": 4, "alpha": 0.45, "gid": "rank-marginal"}
        ax.hlines(y, low - 0.15, high + 0.15, **thick)
    ax.scatter(leaderboard["rank"], y, c=colours, s=14, zorder=3)
    ax.set_yticks(y, figure_labels(leaderboard.index), fontsize=size)
    ax.set_ylim(n - 0.5, -0.5)
    ax.set_xlim(0.5, n + 0.5)
    step = 1 if n <= 12 else 5
    ax.set_xticks([1, *range(step, n + 1, step)] if step > 1 else range(1, n + 1))
    ax.set_xlabel("rank (1 = best)")
    ax.grid(axis="x", alpha=0.3)
    ax.set_title(
        title
        or "Rank confidence sets (thin: simultaneous, thick: marginal;\n"
        "red: may be the best)",
        fontsize=9,
        y=1.0,  # where it goes with ticks below, without measuring every label
    )
    return ax


def plot_win_rate_matrix(matrix, *, ax=None, annotate=None, title=None):
    """Heat map of a win-rate matrix (row beats column), in the given order.

    Pass :meth:`BenchmarkResult.win_rate_matrix
    <sklearn_bench.BenchmarkResult.win_rate_matrix>` ordered by rating (a
    staircase: the strong learners top left). Red: the row wins more often;
    the diagonal is blank; values printed up to 15 learners (``annotate=None``).

    Parameters
    ----------
    matrix : DataFrame
        Square, learners × learners, values in [0, 1], NaN allowed.
    ax : matplotlib.axes.Axes, default=None
    annotate : bool, default=None
    title : str, default=None
        ``None`` (or ``""``) draws ``"Win rates (ordered by rating)"``.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.plotting import plot_win_rate_matrix
    >>> m = pd.DataFrame([[None, .7], [.3, None]], index=["A", "B"],
    ...                  columns=["A", "B"], dtype=float)
    >>> ax = plot_win_rate_matrix(m)
    >>> ax.get_ylabel()
    'learner (row beats column)'
    """
    import matplotlib.pyplot as plt

    if not isinstance(matrix, pd.DataFrame):
        raise ValueError("`matrix` must be a DataFrame (learners × learners).")
    n = len(matrix)
    if n == 0 or matrix.shape != (n, n) or list(matrix.index) != list(matrix.columns):
        raise ValueError(
            "`matrix` must be square with the same learners as rows and columns."
        )
    values = real_array(matrix, "matrix")
    finite = values[np.isfinite(values)]
    if finite.size and ((finite < 0) | (finite > 1)).any():
        raise ValueError("`matrix` must hold win rates in [0, 1].")
    if annotate is None:
        annotate = n <= 15
    if not isinstance(annotate, bool | np.bool_):
        raise ValueError(f"`annotate` must be a bool or None; got {annotate!r}.")
    cax = None
    if ax is None:
        side = min(11.0, max(2.5, 0.2 * n))  # the cells, in inches
        label = max(len(i) for i in figure_labels(matrix.index))
        margin = min(2.5, 0.5 + 0.06 * label)
        width, height = margin + side + 1.3, margin + side + 0.4
        fig = plt.figure(figsize=(width, height))
        ax = fig.add_axes(
            (margin / width, margin / height, side / width, side / height)
        )
        cax = fig.add_axes(
            ((margin + side + 0.15) / width, margin / height, 0.2 / width,
             side / height)
        )  # fmt: skip
    image = ax.imshow(
        np.ma.masked_invalid(values), cmap="RdBu_r", vmin=0, vmax=1, aspect="equal"
    )
    size = 9 if n <= 15 else (7 if n <= 50 else 5)
    labels = figure_labels(matrix.index)
    ax.set_xticks(range(n), labels, rotation=90, fontsize=size)
    ax.set_yticks(range(n), labels, fontsize=size)
    ax.set_ylabel("learner (row beats column)")
    ax.set_xlabel("opponent")
    if annotate:
        texts = [
            [f"{v:.2f}" if np.isfinite(v) else None for v in row] for row in values
        ]
        colors = np.where(np.abs(values - 0.5) > 0.3, "white", "black")
        annotate_cells(ax, texts, colors, fontsize=7)
    where = {"ax": ax, "shrink": 0.6} if cax is None else {"cax": cax}
    ax.figure.colorbar(image, label="win rate", **where)
    # y=1 (ticks below): no measuring every learner's label to place it
    ax.set_title(title or "Win rates (ordered by rating)", fontsize=10, y=1.0)
    return ax
