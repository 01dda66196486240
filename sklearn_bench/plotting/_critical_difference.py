"""The critical difference diagram of Demšar (2006), Figure 1."""

from ..analysis._analysis import cd_groups
from ..stats import FriedmanResult, PairwiseTestResult
from ._common import _draw_rank_diagram, _groups_from_matrix, _line_colors


def plot_critical_difference(
    result,
    *,
    ax=None,
    alpha: float = 0.05,
    method: str = "nemenyi",
    colors=None,
    cd=None,
    groups=None,
):
    """Critical difference diagram of a Friedman test (Demšar 2006, Figure 1):
    each learner at its average rank, a bar joining each maximal group whose
    average ranks differ by less than the critical difference.

    Parameters
    ----------
    result : FriedmanResult, PairwiseTestResult or BenchmarkResult
        The result of :func:`sklearn_bench.stats.friedman_test` (a
        :class:`~sklearn_bench.BenchmarkResult` draws its own
        :meth:`~sklearn_bench.BenchmarkResult.friedman` with the defaults), or of
        :func:`sklearn_bench.stats.tukey_hsd`: then the axis is the learners'
        mean performance (best on the left), the critical difference is Tukey's
        HSD and the bars join learners whose means differ by no more (autorank's
        CD-style reading of Tukey's test).
    ax : matplotlib.axes.Axes, default=None
        Axes to draw on (its frame is switched off; tall enough for ``ceil(k /
        2)`` rows of text); ``None`` makes a figure that fits the names.
    alpha : float, default=0.05
        Family-wise significance level of the critical difference.
    method : {"nemenyi"}, default="nemenyi"
        The all-pairs test whose critical difference defines the groups
        (ignored for Tukey's result).
    colors : dict, default=None
        ``{learner: colour}`` of the lines and names, e.g. to mark families of
        learners; the others stay black (scikit-posthocs' ``color_palette``).
    cd : float, default=None
        The critical difference to draw (e.g. an analysis' own,
        :attr:`~sklearn_bench.analysis.Analysis.critical_difference`, at its
        plan's α), instead of computing it at ``alpha``.
    groups : sequence of sequence of str, default=None
        The learners each bar joins (e.g. an analysis'
        :attr:`~sklearn_bench.analysis.Analysis.cd_groups`), instead of the
        maximal groups within ``cd``.

    Returns
    -------
    matplotlib.axes.Axes

    See Also
    --------
    plot_significance_table : The adjusted p-value of every pair, as a heat map
        (any all-pairs post-hoc test, not only those with a critical difference).

    Examples
    --------
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> from sklearn_bench.plotting import plot_critical_difference
    >>> from sklearn_bench.stats import friedman_test
    >>> res = friedman_test(load_demsar2006(wide=True), greater_is_better=True)
    >>> ax = plot_critical_difference(res, alpha=0.10)  # Demšar's level
    >>> [t.get_text() for t in ax.texts if t.get_gid() == "cd-name"]
    ['C4.5+m+cf (1.93)', 'C4.5+m (2.00)', '(3.14) C4.5', '(2.93) C4.5+cf']
    >>> len([line for line in ax.lines if line.get_gid() == "cd-group"])
    2
    """
    if isinstance(result, PairwiseTestResult) and "hsd" in result.details:
        return _plot_tukey(result, ax=ax, colors=colors)
    if callable(getattr(result, "friedman", None)):  # a BenchmarkResult tests
        result = result.friedman()
    if not isinstance(result, FriedmanResult):
        raise TypeError(
            "`result` must be a FriedmanResult (stats.friedman_test or "
            "BenchmarkResult.friedman()), a PairwiseTestResult of "
            "stats.tukey_hsd or a "
            f"BenchmarkResult; got {type(result).__name__}."
        )
    if method != "nemenyi":
        raise ValueError(
            f"`method` must be 'nemenyi' (an all-pairs test); got {method!r}."
        )
    if cd is None:
        cd = result.critical_difference(alpha=alpha, method=method)
    names = [str(name) for name in result.average_ranks.index]
    ranks = result.average_ranks.to_numpy(dtype=float)
    if groups is None:
        groups = cd_groups(result.average_ranks, cd)
    at = {name: i for i, name in enumerate(names)}
    groups = [tuple(at[str(m)] for m in group) for group in groups]
    line_colors = _line_colors(colors, list(result.average_ranks.index))
    return _draw_rank_diagram(ax, names, ranks, groups, cd=cd, colors=line_colors)


def _plot_tukey(result, *, ax=None, colors=None):
    """The CD-style diagram of Tukey's result on the axis of mean performance."""
    from matplotlib.ticker import MaxNLocator

    learners = list(result.learners)
    means = result.learner_means.to_numpy(dtype=float)
    sign = -1.0 if result.greater_is_better else 1.0
    pos = sign * means
    lo, hi = float(pos.min()), float(pos.max())
    hsd = result.details["hsd"]
    if hi - lo <= 0:
        pad = hsd if hsd > 0 else max(abs(lo), 1.0) * 1e-3
        lo, hi = lo - pad / 2, hi + pad / 2
    values = MaxNLocator(nbins=5).tick_values(float(means.min()), float(means.max()))
    ticks = [
        (sign * v, f"{v:.4g}") for v in values if lo - 1e-12 <= sign * v <= hi + 1e-12
    ]
    significant = result.significant.loc[learners, learners].to_numpy()
    groups = _groups_from_matrix(pos, significant)
    return _draw_rank_diagram(
        ax,
        [str(name) for name in learners],
        pos,
        groups,
        cd=hsd,
        colors=_line_colors(colors, learners),
        axis=(lo, hi, ticks),
        shown=means,
        value_format="{:.4g}",
        cd_text="HSD",
    )
