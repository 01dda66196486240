"""The heat map of the adjusted p-values of any all-pairs post-hoc test
(scikit-posthocs' ``sign_plot``; its classes are ``sign_table``'s stars)."""

import numpy as np
import pandas as pd

from .._validation import real_array
from ._common import annotate_cells, figure_labels

_LEVELS = (0.001, 0.01, 0.05)
# Heat-map colours, from "p > 0.05" to "p <= 0.001" (scikit-posthocs' palette
# order: not significant light grey, then greens that darken with significance).
_CLASS_COLORS = ("#e6e6e6", "#c7e9c0", "#74c476", "#238b45")
_DIAGONAL_COLOR = "#ffffff"


def _pvalue_matrix(result):
    """``(matrix, learners)`` of a post-hoc result or a square p-value matrix."""
    if not isinstance(result, pd.DataFrame | np.ndarray | list):
        result = getattr(result, "pvalues_adjusted", result)
    values = real_array(result, "result")
    k = len(values) if values.ndim else 0
    if values.shape != (k, k) or k < 2:
        raise ValueError(
            "`result` must be a post-hoc result with `pvalues_adjusted` or a square "
            f"matrix of p-values of at least 2 learners; got shape {values.shape}."
        )
    learners = list(range(k))
    if isinstance(result, pd.DataFrame):
        learners = list(result.index)
        if list(result.columns) != learners:
            raise ValueError(
                "`result` must have the same learners as rows and columns."
            )
    off = values[~np.eye(k, dtype=bool)]
    if not ((off >= 0) & (off <= 1)).all():
        raise ValueError(
            "`result` must hold p-values in [0, 1] (no NaN) off the diagonal."
        )
    if not np.allclose(values, values.T, rtol=1e-12, atol=0, equal_nan=True):
        raise ValueError("`result` must be symmetric (p-value of (i, j) = (j, i)).")
    return values, learners


def _classes(values, levels):
    """0 = not significant ... len(levels) = below the smallest level; -1 diagonal."""
    classes = (values[..., None] <= np.asarray(levels)).sum(axis=-1)
    np.fill_diagonal(classes, -1)
    return classes


def _check_levels(levels):
    values = real_array(levels, "levels")
    if values.ndim != 1 or values.size == 0:
        raise ValueError("`levels` must be a non-empty list of significance levels.")
    if ((values <= 0) | (values >= 1) | ~np.isfinite(values)).any():
        raise ValueError("`levels` must lie strictly between 0 and 1.")
    if np.unique(values).size != values.size:
        raise ValueError("`levels` must be distinct.")
    if values.size > 3:
        raise ValueError("`levels` holds at most 3 levels (*, **, ***).")
    return tuple(sorted(float(v) for v in values))


def plot_significance_table(result, *, levels=_LEVELS, annotate=True, ax=None):
    """Heat map of the adjusted p-values of an all-pairs post-hoc test.

    Each cell's colour is the class of its p-value (``p <= 0.001``, ``<= 0.01``,
    ``<= 0.05``, not significant), as scikit-posthocs' ``sign_plot``.

    Parameters
    ----------
    result : PairwiseTestResult, DataFrame or array-like
        Any result with a ``pvalues_adjusted`` matrix, or a symmetric square
        matrix of (adjusted) p-values (a DataFrame names the learners).
    levels : sequence of float, default=(0.001, 0.01, 0.05)
        Up to three levels, smallest first. A p-value equal to a level counts
        as significant at it (``p <= α``; scikit-posthocs marks ``p < α``).
    annotate : bool, default=True
        Print the p-values in the cells.
    ax : matplotlib.axes.Axes, default=None
        ``None`` makes a new figure sized for the learners.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    plot_critical_difference : Demšar's diagram of a Nemenyi (or Tukey) test.

    Examples
    --------
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> from sklearn_bench.plotting import plot_significance_table
    >>> from sklearn_bench.stats import pairwise_tests
    >>> ax = plot_significance_table(pairwise_tests(
    ...     load_demsar2006(wide=True), adjust="holm", greater_is_better=True))
    >>> cells = [t.get_text() for t in ax.texts if t.get_gid() == "sign-cell"]
    >>> len(cells), cells[:3]  # the Holm p of C4.5 against each other learner
    (12, ['0.066', '0.878', '0.066'])
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import BoundaryNorm, ListedColormap
    from matplotlib.patches import Patch

    levels = _check_levels(levels)
    if not isinstance(annotate, bool | np.bool_):
        raise ValueError(f"`annotate` must be a bool; got {annotate!r}.")
    values, learners = _pvalue_matrix(result)
    k = len(learners)
    classes = _classes(values, levels)
    n = len(levels)
    # not significant, then the darkest green for the smallest level
    palette = [_DIAGONAL_COLOR, _CLASS_COLORS[0], *_CLASS_COLORS[-n:]]
    cmap = ListedColormap(palette)
    norm = BoundaryNorm(np.arange(-1.5, n + 1.5), cmap.N)
    if ax is None:
        size = 1.2 + 0.55 * k
        _, ax = plt.subplots(figsize=(size + 1.8, size))
    ax.imshow(classes, cmap=cmap, norm=norm)
    names = figure_labels(learners)
    ax.set_xticks(range(k), labels=names, rotation=45, ha="right")
    ax.set_yticks(range(k), labels=names)
    ax.set_xticks(np.arange(k + 1) - 0.5, minor=True)
    ax.set_yticks(np.arange(k + 1) - 0.5, minor=True)
    ax.grid(which="minor", color="white", linewidth=1.5)
    ax.tick_params(which="minor", length=0)
    if annotate:
        texts = np.where(values < 0.001, "<0.001", np.char.mod("%.3f", values))
        texts = texts.astype(object)
        np.fill_diagonal(texts, None)
        colors = np.where(classes == n, "white", "black")
        annotate_cells(ax, texts, colors, fontsize=8, gid="sign-cell")
    labels = ["NS"] + [f"p ≤ {level:g}" for level in sorted(levels, reverse=True)]
    handles = [Patch(color=palette[c + 1], label=labels[c]) for c in range(n + 1)]
    legend = {"loc": "upper left", "bbox_to_anchor": (1.02, 1.0), "fontsize": 8}
    ax.legend(handles=handles[::-1], frameon=False, **legend)
    return ax
