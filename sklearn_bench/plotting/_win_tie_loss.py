"""Win/tie/loss heat map of learners over data sets (Demšar 2006, Section 3.1.3)."""

import numpy as np
import pandas as pd

from ._common import annotate_cells, figure_labels


def plot_win_tie_loss(counts, *, delta=0.0, ax=None, title=None):
    """Heat map of wins/ties/losses of each learner (row) against each other (column).

    Each cell reads ``wins/ties/losses`` of the row learner against the column
    learner over the data sets, coloured by ``(wins − losses)/J`` from red (the
    row learner loses everywhere) to blue (it wins everywhere); a difference
    within Δ is a tie.

    Parameters
    ----------
    counts : DataFrame or BenchmarkResult
        The counts of :meth:`~sklearn_bench.BenchmarkResult.win_tie_loss`
        (e.g. :attr:`~sklearn_bench.analysis.Analysis.win_tie_loss`), or a
        BenchmarkResult, counted by that method with ``delta``.
    delta : float, default=0.0
        With a BenchmarkResult: the smallest difference that matters;
        differences within it are ties.
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
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.plotting import plot_win_tie_loss
    >>> table = pd.DataFrame({"data": ["a", "a", "b", "b", "c", "c"],
    ...                       "model": ["A", "B"] * 3,
    ...                       "error": [0.1, 0.2, 0.2, 0.2, 0.3, 0.1]})
    >>> result = BenchmarkResult.from_frame(table, dataset="data",
    ...     learner="model", value="error", greater_is_better=False)
    >>> ax = plot_win_tie_loss(result.win_tie_loss())
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "wtl-cell"]
    ['1/1/1', '1/1/1']
    """
    import matplotlib.pyplot as plt

    if hasattr(counts, "win_tie_loss"):  # a BenchmarkResult counts for itself
        counts = counts.win_tie_loss(delta=delta)
    if not isinstance(counts, pd.DataFrame) or counts.columns.nlevels != 2:
        raise TypeError(
            "`counts` must be the DataFrame of BenchmarkResult.win_tie_loss() or "
            f"a BenchmarkResult; got {type(counts).__name__}."
        )
    wins, ties, losses = (
        counts.xs(outcome, axis=1, level=1).astype(int)
        for outcome in ("win", "tie", "loss")
    )
    names = figure_labels(wins.index)  # cut: a 10,000-character name sized
    k = len(names)  # the figure to a MemoryError
    n = (wins + ties + losses).to_numpy(dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        net = (wins - losses).to_numpy(dtype=float) / n
    np.fill_diagonal(net, np.nan)
    # cell size (inches) and font size that fit "12/3/15" in a cell
    cell, fontsize = (0.75, 9) if k <= 8 else (0.55, 7) if k <= 15 else (0.45, 5.5)
    if ax is None:
        longest = max(len(name) for name in names)
        label_in = 0.3 + 0.075 * longest  # room for the tick labels
        side = max(k * cell, 2.0)
        _, ax = plt.subplots(
            figsize=(side + label_in + 1.6, side + label_in + 0.9),
            layout="constrained",
        )
    cmap = plt.get_cmap("RdBu").with_extremes(bad="0.85")
    image = ax.imshow(net, cmap=cmap, vmin=-1, vmax=1, aspect="equal", gid="wtl-image")
    texts = wins.astype(str) + "/" + ties.astype(str) + "/" + losses.astype(str)
    texts = texts.to_numpy().astype(object)
    np.fill_diagonal(texts, None)
    colors = np.where(np.abs(net) > 0.6, "white", "black")
    annotate_cells(ax, texts, colors, fontsize=fontsize, gid="wtl-cell")
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
