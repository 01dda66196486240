"""LaTeX (booktabs) tables of a benchmark result, for the comparison section of a
paper: data sets × learners, the best in bold, significance markers, average
ranks, and a caption that says what was tested. The writer under them (escaping,
a booktabs table of any DataFrame) is :mod:`sklearn_bench._latex`, which the
report uses too."""

import numpy as np

from .._latex import (
    _check_digits,
    latex_cell,
    performance_caption,
    performance_latex,
)
from .._text import adjusted_by
from .._validation import check_alpha, check_choice


def _significance(result, dataset, best, learners, *, metric, method, adjust):
    """Adjusted p-values of each learner against the best on one data set, the
    estimates, the test's name, and the learners that could not be tested."""
    from ..stats import adjust_pvalues

    kwargs = {} if method is None else {"method": method}
    pvalues, estimates, untested, names = {}, {}, [], set()
    for learner in learners:
        if learner == best:
            continue
        try:
            res = result.paired_test(
                learner, best, dataset=dataset, metric=metric, **kwargs
            )
        except ValueError:
            untested.append(learner)
            continue
        if not np.isfinite(res.pvalue):
            untested.append(learner)
            continue
        pvalues[learner], estimates[learner] = float(res.pvalue), res.estimate
        names.add(getattr(res, "method", method or "t"))
    if pvalues:
        adjusted = adjust_pvalues(np.array(list(pvalues.values())), adjust=adjust)
        pvalues = dict(zip(pvalues, adjusted, strict=True))
    return pvalues, estimates, untested, names


def _check_adjust(adjust):
    """``adjust`` as a correction of :func:`~sklearn_bench.stats.adjust_pvalues`
    for comparisons with the best (not those of all pairs)."""
    from .._text import ADJUST_METHODS

    pairs = ("shaffer", "bergmann_hommel", "single_step")
    return check_choice(adjust, [a for a in ADJUST_METHODS if a not in pairs], "adjust")


class LatexMixin:
    """:meth:`to_latex`."""

    def to_latex(
        self,
        metric=None,
        *,
        stat="mean",
        method=None,
        adjust="holm",
        alpha=0.05,
        digits=3,
        caption=None,
        label="tab:benchmark",
    ):
        r"""A booktabs LaTeX table of data sets × learners, for a paper.

        Each cell is the mean ± standard deviation (``stat="mean"``) or the
        median [first quartile, third quartile] (``stat="median"``) of the
        learner's performance over the replicates of the data set. The best value
        of each data set is in bold. A dagger marks a learner significantly worse
        than the best on that data set: a two-sided :meth:`paired_test` over the
        replicates (its default method unless ``method`` is given; Hothorn et
        al. 2005), the ``k − 1`` p-values of the data set adjusted by ``adjust``
        (Holm 1979), at level ``alpha``. The last row is the average rank over
        the data sets on which every learner has a result (1 = best, ties share
        the mean rank; Demšar 2006). The caption says all of this, with the test
        that was run.

        Parameters
        ----------
        metric : str, default=None
            The result's first metric by default.
        stat : {"mean", "median"}, default="mean"
        method : str, default=None
            A method of :meth:`paired_test`; ``None`` is its default.
        adjust : str, default="holm"
            A method of :func:`~sklearn_bench.stats.adjust_pvalues`.
        alpha : float, default=0.05
        digits : int, default=3
        caption : str, default=None
            Replaces the generated caption (LaTeX, not escaped).
        label : str or None, default="tab:benchmark"

        Returns
        -------
        str
            A ``table`` environment; needs ``\usepackage{booktabs}`` (and
            ``\usepackage{graphicx}`` above 4 learners: the tabular is scaled
            to the text width).

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({
        ...     "data": ["a"] * 6 + ["b"] * 6, "model": ["x_1", "y"] * 6,
        ...     "rep": [0, 0, 1, 1, 2, 2] * 2,
        ...     "error": [.10, .20, .12, .21, .11, .25, .30, .31, .28, .33, .29, .30]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="data", learner="model", value="error", replicate="rep",
        ...     greater_is_better=False)
        >>> tex = result.to_latex(method="t")  # no split sizes here: Hothorn's t
        >>> print(tex.splitlines()[7])
        Data set & x\_1 & y \\
        >>> print(tex.splitlines()[9])
        a & \textbf{0.110 $\pm$ 0.010} & 0.220 $\pm$ 0.026$^{\dagger}$ \\
        """
        if not isinstance(stat, str) or stat not in ("mean", "median"):
            raise ValueError(f"`stat` must be 'mean' or 'median'; got {stat!r}.")
        alpha = check_alpha(alpha)
        digits = _check_digits(digits)
        adjust = _check_adjust(adjust)
        if method is not None and not isinstance(method, str):
            raise TypeError(f"`method` must be None or a test's name; got {method!r}.")
        metric = self._metric(metric)
        gib = self.greater_is_better(metric)
        centre = self.aggregate(metric, stat=stat)
        if stat == "mean":
            std = self.aggregate(metric, stat="std")
            std = std.reindex(index=centre.index, columns=centre.columns).to_numpy()
            spread = {
                (d, m): std[i, j]
                for i, d in enumerate(centre.index)
                for j, m in enumerate(centre.columns)
            }
        else:
            q1 = self.aggregate(metric, stat=lambda v: v.quantile(0.25))
            q3 = self.aggregate(metric, stat=lambda v: v.quantile(0.75))
            spread = {
                (d, m): (q1.loc[d, m], q3.loc[d, m])
                for d in centre.index
                for m in centre.columns
            }
        learners = [str(m) for m in centre.columns]
        sign = -1.0 if gib else 1.0
        cells, bold, worse, tested_names, untested_sets = {}, set(), set(), set(), []
        n_reps = self.aggregate(metric, stat="count")
        for dataset in centre.index:
            values = centre.loc[dataset].astype(float)
            finite = values.dropna()
            best_value = (sign * finite).min() * sign if len(finite) else np.nan
            bold |= {(dataset, m) for m in finite.index[finite == best_value]}
            best = next(iter(m for m in learners if (dataset, m) in bold), None)
            if best is not None and len(finite) >= 2:
                pvalues, estimates, untested, names = _significance(
                    self,
                    dataset,
                    best,
                    list(finite.index),
                    metric=metric,
                    method=method,
                    adjust=adjust,
                )
                tested_names |= names
                worse |= {
                    (dataset, m)
                    for m, p in pvalues.items()
                    if p <= alpha and sign * estimates[m] > 0
                }
                if untested:
                    untested_sets.append(str(dataset))
            cells[dataset] = {
                m: latex_cell(values[m], spread[dataset, m], stat, digits)
                for m in learners
            }
        complete = centre.dropna(axis=0, how="any")
        rank_row = (
            (sign * complete).rank(axis=1).mean(axis=0) if len(complete) else None
        )
        if caption is None:
            caption = performance_caption(
                stat=stat,
                metric=metric,
                greater_is_better=gib,
                reps=sorted({int(v) for v in n_reps.to_numpy().ravel() if v > 0}),
                tests=tested_names or {method or "t"},
                adjusted=adjusted_by(adjust),
                alpha=alpha,
                untested=untested_sets,
                n_ranked=len(complete),
            )
        return performance_latex(
            cells, bold, worse, learners, list(centre.index), rank_row, caption, label
        )
