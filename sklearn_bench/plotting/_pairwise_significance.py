"""A CD-style diagram whose bars come from any pairwise significance matrix."""

import numpy as np

from .._validation import real_array
from ..stats import PairwiseTestResult
from ._common import _draw_rank_diagram, _groups_from_matrix, _line_colors, check_text


def plot_pairwise_significance(
    result=None,
    *,
    significant=None,
    average_ranks=None,
    ax=None,
    label=None,
    colors=None,
):
    """CD-style diagram whose bars come from a pairwise significance matrix.

    The layout of :func:`plot_critical_difference`, but a bar joins a maximal
    run of learners, consecutive in rank order, no two of which differ by the
    given all-pairs test, e.g. Wilcoxon tests with Holm's correction (the
    "Wilcoxon–Holm" diagram; Benavoli, Corani & Mangili 2016).

    Parameters
    ----------
    result : PairwiseTestResult, default=None
        The result of :func:`sklearn_bench.stats.pairwise_tests`; its
        ``significant`` matrix and ``average_ranks`` are used.
    significant : DataFrame or array-like of shape (k, k), default=None
        Instead of ``result``: a symmetric boolean matrix, True where a pair
        differs significantly (any all-pairs procedure).
    average_ranks : Series or array-like of shape (k,), default=None
        With ``significant``: the learners' average ranks (a Series names
        them; the matrix's order must be the Series' order).
    ax : matplotlib.axes.Axes, default=None
        ``None`` makes a new figure sized for the names.
    label : str, default=None
        The line above the axis saying what the bars mean; by default the test,
        its correction and α of ``result``.
    colors : dict, default=None
        ``{learner: colour}`` for the learners' lines and names, as in
        :func:`plot_critical_difference`.

    Returns
    -------
    matplotlib.axes.Axes

    Examples
    --------
    The Wilcoxon–Holm diagram of Dietterich's error rates: one bar joins the
    three ensembles, which no pair test separates; C4.5 stands alone.

    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> from sklearn_bench.plotting import plot_pairwise_significance
    >>> from sklearn_bench.stats import pairwise_tests
    >>> errors = load_dietterich2000(wide=True)
    >>> res = pairwise_tests(errors, adjust="holm", greater_is_better=False)
    >>> ax = plot_pairwise_significance(res)
    >>> len([line for line in ax.lines if line.get_gid() == "cd-group"])
    1
    """
    import pandas as pd

    check_text(label, "label")
    if result is not None:
        if not isinstance(result, PairwiseTestResult):
            raise TypeError(
                f"`result` must be a PairwiseTestResult; got {type(result).__name__}."
            )
        if significant is not None or average_ranks is not None:
            raise ValueError(
                "Pass either `result` or `significant` with `average_ranks`."
            )
        significant, average_ranks = result.significant, result.average_ranks
        if label is None:
            words = {"sign": "sign", "exact_ranksum": "exact rank sums"}
            test = words.get(result.method, result.method.title())
            test = "Wilcoxon" if result.method.startswith("wilcoxon") else test
            adjust = result.adjust.replace("_", "–").title()
            label = (
                f"bars: no significant difference ({test}, {adjust}, "
                f"α = {result.alpha:g})"
            )
    elif significant is None or average_ranks is None:
        raise ValueError(
            "Pass `result`, or `significant` and `average_ranks`: both required."
        )
    ranks = real_array(average_ranks, "average_ranks")
    learners = list(range(ranks.size))
    if isinstance(average_ranks, pd.Series):
        learners = list(average_ranks.index)
        if isinstance(significant, pd.DataFrame):
            significant = significant.loc[learners, learners]
    sig = real_array(significant, "significant")
    k = ranks.size
    if ranks.ndim != 1 or k < 2:
        raise ValueError("`average_ranks` must hold at least 2 learners.")
    if np.isnan(ranks).any():
        raise ValueError(
            "`average_ranks` contains NaN (no data set has every learner); the "
            "diagram needs every learner's average rank."
        )
    if (
        sig.shape != (k, k)
        or not (sig == sig.T).all()
        or not np.isin(sig, (0, 1)).all()
    ):
        raise ValueError(
            f"`significant` must be a symmetric ({k}, {k}) boolean matrix, one row "
            f"and column per learner of `average_ranks`."
        )
    groups = _groups_from_matrix(ranks, sig.astype(bool))
    names = [str(name) for name in learners]
    line_colors = _line_colors(colors, learners)
    return _draw_rank_diagram(ax, names, ranks, groups, label=label, colors=line_colors)
