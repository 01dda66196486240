"""Win/tie/loss heat map of learners over data sets (Demšar 2006, Section 3.1.3).

matplotlib is imported inside the functions.
"""

import numpy as np
import pandas as pd

from .._validation import check_bool, real_number
from ._common import figure_labels


def win_tie_loss_counts(table, *, greater_is_better, delta=0.0):
    """Wins, ties and losses of every learner against every other.

    Parameters
    ----------
    table : DataFrame
        Data sets × learners (e.g. :meth:`BenchmarkResult.aggregate`). Rows with
        a missing value are left out of the pairs they touch.
    greater_is_better : bool
        Whether higher values are better. Required.
    delta : float, default=0.0
        The smallest difference that matters: differences with
        ``|a − b| <= delta`` count as ties.

    Returns
    -------
    wins, ties, losses : DataFrame
        Learner × learner counts: ``wins.loc[a, b]`` is the number of data sets
        on which ``a`` is better than ``b``; ``losses`` is ``wins.T``.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.plotting import win_tie_loss_counts
    >>> table = pd.DataFrame({"A": [0.1, 0.2, 0.3], "B": [0.2, 0.2, 0.1]})
    >>> wins, ties, losses = win_tie_loss_counts(table, greater_is_better=False)
    >>> int(wins.loc["A", "B"]), int(ties.loc["A", "B"]), int(losses.loc["A", "B"])
    (1, 1, 1)
    """
    if not isinstance(table, pd.DataFrame) or table.shape[1] < 2:
        raise ValueError("`table` must be a DataFrame with at least two learners.")
    greater_is_better = check_bool(greater_is_better, "greater_is_better")
    tolerance = real_number(delta, "delta")
    if not (tolerance >= 0 and np.isfinite(tolerance)):
        raise ValueError(f"`delta` must be >= 0; got {tolerance!r}.")
    values = table.to_numpy(dtype=float)
    sign = 1.0 if greater_is_better else -1.0
    # diff[d, a, b] > 0 when a beats b on data set d
    diff = sign * (values[:, :, None] - values[:, None, :])
    valid = ~np.isnan(diff)
    tie = valid & (np.abs(np.nan_to_num(diff)) <= tolerance)
    win = valid & ~tie & (np.nan_to_num(diff) > 0)
    names = [str(c) for c in table.columns]

    def frame(counts):
        return pd.DataFrame(counts.sum(axis=0), index=names, columns=names)

    wins, ties = frame(win), frame(tie)
    return wins, ties, wins.T.copy()


def _cell_style(k):
    """Cell size (inches) and font size that fit "12/3/15" in a cell."""
    if k <= 8:
        return 0.75, 9
    if k <= 15:
        return 0.55, 7
    return 0.45, 5.5


def plot_win_tie_loss(table, *, greater_is_better=None, delta=0.0, ax=None, title=None):
    """Heat map of wins/ties/losses of each learner (row) against each other (column).

    Each cell reads ``wins/ties/losses`` of the row learner against the column
    learner over the data sets, coloured by ``(wins − losses)/J`` from red (the
    row learner loses everywhere) to blue (it wins everywhere). The counts are
    the raw material of the sign test (Demšar 2006, Section 3.1.3); learners are
    in the order of the table's columns.

    Parameters
    ----------
    table : DataFrame or BenchmarkResult
        Data sets × learners of a performance, e.g. ``result.aggregate()``; a
        :class:`~sklearn_bench.BenchmarkResult` is counted by its
        :meth:`~sklearn_bench.BenchmarkResult.win_tie_loss` (mean performance on
        its default metric, in that metric's direction).
    greater_is_better : bool, default=None
        Whether higher values are better; required for a DataFrame, ignored
        for a BenchmarkResult (its metric says it).
    delta : float, default=0.0
        The smallest difference that matters: differences with
        ``|a − b| <= delta`` are ties.
    ax : matplotlib.axes.Axes, default=None
        ``None`` makes a square figure sized for the number of learners.
    title : str, default=None

    Returns
    -------
    matplotlib.axes.Axes
        The image has gid ``"wtl-image"``; the cell texts ``"wtl-cell"``.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.plotting import plot_win_tie_loss
    >>> table = pd.DataFrame({"A": [0.1, 0.2, 0.3], "B": [0.2, 0.2, 0.1]})
    >>> ax = plot_win_tie_loss(table, greater_is_better=False)
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "wtl-cell"]
    ['1/1/1', '1/1/1']
    """
    import matplotlib.pyplot as plt

    if hasattr(table, "win_tie_loss"):  # a BenchmarkResult counts for itself
        counts = table.win_tie_loss(delta=delta)
        wins, ties, losses = (
            counts.xs(outcome, axis=1, level=1).astype(int)
            for outcome in ("win", "tie", "loss")
        )
    else:
        wins, ties, losses = win_tie_loss_counts(
            table, greater_is_better=greater_is_better, delta=delta
        )
    names = figure_labels(wins.index)  # cut: a 10,000-character name sized
    k = len(names)  # the figure to a MemoryError
    n = (wins + ties + losses).to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        net = (wins - losses).to_numpy(dtype=float) / n
    np.fill_diagonal(net, np.nan)
    cell, fontsize = _cell_style(k)
    if ax is None:
        longest = max(len(name) for name in names)
        label_in = 0.3 + 0.075 * longest  # room for the tick labels
        side = max(k * cell, 2.0)
        _, ax = plt.subplots(
            figsize=(side + label_in + 1.6, side + label_in + 0.9),
            layout="constrained",
        )
    cmap = plt.get_cmap("RdBu").with_extremes(bad="0.85")
    image = ax.imshow(net, cmap=cmap, vmin=-1, vmax=1, aspect="equal")
    image.set_gid("wtl-image")
    for i in range(k):
        for j in range(k):
            if i == j:
                continue
            w, t, lo = wins.iat[i, j], ties.iat[i, j], losses.iat[i, j]
            ax.text(
                j,
                i,
                f"{w}/{t}/{lo}",
                ha="center",
                va="center",
                fontsize=fontsize,
                color="white" if abs(net[i, j]) > 0.6 else "black",
                gid="wtl-cell",
            )
    ax.set_xticks(
        range(k), names, rotation=90, ha="right", va="center", rotation_mode="anchor"
    )
    ax.set_yticks(range(k), names)
    ax.set_xlabel("opponent")
    ax.set_ylabel("learner")
    ax.tick_params(length=0)
    ax.figure.colorbar(
        image, ax=ax, shrink=0.6, label="(wins − losses) / data sets", pad=0.02
    )
    note = "cells: wins/ties/losses of the row learner"
    ax.set_title(note if title is None else f"{title}\n({note})", fontsize=10)
    return ax
