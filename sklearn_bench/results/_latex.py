"""The table of data sets × learners of a benchmark result for a paper
(:meth:`BenchmarkResult.to_latex`, the report's ``performance.tex``): each learner
against the best on each data set, the average ranks; the writer under it is
:mod:`sklearn_bench._latex`."""

import math

import numpy as np
import pandas as pd

from .._latex import PerformanceTable, _check_digits, performance_latex
from .._text import ADJUST_METHODS, adjusted_by
from .._validation import check_alpha, check_choice
from ..stats import adjust_pvalues, paired_test
from ._select import EQUAL_RTOL, incomplete_datasets
from ._within import corrected_t_block


def within_table(result, mean, greater_is_better, *, metric, alpha, level=0.95,
                 method=None, adjust="holm"):  # fmt: skip
    """Each learner against the best of its row of ``mean`` on each data set:
    ``(frame, failed, rules)``, ``frame`` with the estimate (best − learner), its
    interval, p-value, Holm-adjusted p-value and ``worse``; ``rules`` the words of
    each data set's ``n_test/n_train``."""
    rules, failed, plan = {}, [], []
    values = mean.to_numpy(dtype=float)
    learners = list(mean.columns)
    kwargs = {} if method is None else {"method": method}
    for at, dataset in enumerate(mean.index):
        present = np.flatnonzero(~np.isnan(values[at]))
        if not present.size:
            continue
        row = values[at, present]
        best = learners[
            present[np.argmax(row) if greater_is_better else np.argmin(row)]
        ]
        finite = np.flatnonzero(np.isfinite(values[at]))
        others = [learners[j] for j in finite if learners[j] != best]
        error, block = None, None
        if method in (None, "corrected_t"):
            try:  # the error of every pair, decided once
                block = corrected_t_block(
                    result, others, best, metric=metric, dataset=dataset
                )
            except ValueError as exc:
                error = str(exc)
        if block is not None and block[0].shape[0] >= 2:
            rules.setdefault(dataset, block[3])
        else:
            block = None
        plan.append((dataset, best, others, error, block))
    batches = _within_batches([(p[0], p[2], p[4]) for p in plan if p[4]], level)
    rows = []  # in the order of `columns`
    for dataset, best, others, error, _ in plan:
        batch = batches.get(dataset, {})
        for learner in others:
            entry = (dataset, learner, best)
            if learner in batch:
                rows.append(entry + batch[learner])
                continue
            try:
                if error is not None:
                    raise ValueError(error)
                res = result.paired_test(
                    learner, best, dataset=dataset, metric=metric, **kwargs
                )
                ci = res.confidence_interval(level)
            except ValueError as exc:
                failed.append((learner, best, dataset, str(exc)))
                rows.append(entry + (np.nan, np.nan, np.nan, np.nan, 0, "", np.nan))
                continue
            # best − learner: the better first, as in every table
            ratio = res.details.get("test_train_ratio", np.nan)
            rows.append(entry + (-res.estimate, -ci.high, -ci.low, res.pvalue, res.n,
                                 res.method, ratio))  # fmt: skip
            if "ratio_rule" in res.details:
                rules.setdefault(dataset, res.details["ratio_rule"])
    columns = ["dataset", "learner", "reference", "estimate", "low", "high"]
    columns += ["pvalue", "n", "method", "test_train_ratio"]
    frame = pd.DataFrame(rows, columns=columns)
    frame["test_train_ratio"] = frame["test_train_ratio"].astype(float)
    adjusted = np.full(len(frame), np.nan)
    p = frame["pvalue"].to_numpy(dtype=float)
    for _, at in frame.groupby("dataset", sort=False).indices.items():
        tested = at[np.isfinite(p[at])]
        if tested.size:
            adjusted[tested] = adjust_pvalues(p[tested], adjust=adjust)
    sign = 1.0 if greater_is_better else -1.0
    frame["adjusted_pvalue"] = adjusted
    frame["worse"] = (adjusted <= alpha) & (sign * frame["estimate"] > 0)
    return frame, failed, rules


def _within_batches(blocks, level):
    """``{dataset: {learner: row fields}}`` (from ``estimate`` on, in the order of
    :func:`within_table`'s columns) of each block's corrected t against
    the best, every data set of one split count in one :func:`paired_test` call
    (bit for bit each pair's); constant differences are left to the caller."""
    by_n = {}
    for dataset, learners, block in blocks:
        by_n.setdefault(block[0].shape[0], []).append((dataset, learners, block))
    out = {}
    for group in by_n.values():
        x = np.hstack([block[0] for _, _, block in group])
        y = np.hstack([np.repeat(b[1][:, None], b[0].shape[1], axis=1)
                       for _, _, b in group])  # fmt: skip
        ratio = np.concatenate([np.full(b[0].shape[1], b[2]) for _, _, b in group])
        res = paired_test(x, y, method="corrected_t", test_train_ratio=ratio)
        ci = res.confidence_interval(level)
        # best − learner; lists: a float from a list is cheap, from an array not
        columns = (-res.estimate, -ci.high, -ci.low, res.pvalue)
        estimate, low, high, pvalue = (column.tolist() for column in columns)
        at = 0
        for dataset, learners, block in group:
            fixed = (x.shape[0], "corrected_t", float(block[2]))
            out[dataset] = {
                learner: (estimate[j], low[j], high[j], pvalue[j], *fixed)
                for j, learner in enumerate(learners, start=at)
                if not math.isnan(pvalue[j])  # constant differences: one by one
            }
            at += len(learners)
    return out


def _frozen(array):
    array = np.array(array, dtype=float)
    array.flags.writeable = False
    return array


def performance_table(result, metric, *, stat="mean", alpha=0.05, adjust="holm",
                      method=None, within=None):  # fmt: skip
    """The :class:`~sklearn_bench._latex.PerformanceTable` of ``metric``: centre
    and spread, the best in bold, daggers where ``within`` (:func:`within_table`)
    says worse, average ranks over the complete data sets."""
    gib = result.greater_is_better(metric)
    centre = result.aggregate(metric, stat=stat)
    centre.columns = [str(c) for c in centre.columns]
    centre.index = [str(i) for i in centre.index]
    if within is None:
        within = within_table(
            result, centre, gib, metric=metric, alpha=alpha, method=method,
            adjust=adjust,
        )[0]  # fmt: skip
    values = centre.to_numpy(dtype=float)
    if stat == "mean":
        spread = result.aggregate(metric, stat="std").to_numpy(dtype=float)
    else:
        quartiles = [result.aggregate(metric, stat=lambda v, q=q: v.quantile(q))
                     for q in (0.25, 0.75)]  # fmt: skip
        spread = np.stack([q.to_numpy(dtype=float) for q in quartiles], axis=-1)
    learners, datasets = tuple(centre.columns), tuple(centre.index)
    sign = -1.0 if gib else 1.0
    bold = set()
    with np.errstate(invalid="ignore"):
        top = np.nanmin(sign * values, axis=1, initial=np.inf, where=~np.isnan(values))
        tied = np.abs(sign * values - top[:, None]) <= EQUAL_RTOL * np.abs(top)[:, None]
    for i, j in zip(*np.nonzero(tied), strict=True):
        bold.add((datasets[i], learners[j]))
    marked = within[within["worse"]]
    tested = within["pvalue"].notna()
    n_reps = result.aggregate(metric, stat="count").to_numpy()
    incomplete = incomplete_datasets(result, metric)
    ranked = [d for d, row in zip(datasets, values, strict=True)
              if d not in incomplete and not np.isnan(row).any()]  # fmt: skip
    ranks = (sign * centre.loc[ranked]).rank(axis=1).mean(axis=0) if ranked else ()
    return PerformanceTable(
        metric=metric,
        greater_is_better=gib,
        stat=stat,
        learners=learners,
        datasets=datasets,
        centre=_frozen(values),
        spread=_frozen(spread),
        reps=tuple(sorted({int(v) for v in n_reps.ravel() if v > 0})),
        bold=frozenset(bold),
        worse=frozenset(zip(marked["dataset"], marked["learner"], strict=True)),
        tests=tuple(sorted(set(within.loc[tested, "method"]))),
        adjusted=adjusted_by(adjust),
        alpha=float(alpha),
        untested=tuple(dict.fromkeys(within.loc[~tested, "dataset"])),
        ranked=tuple(ranked),
        average_ranks=tuple(float(r) for r in ranks),
    )


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
        label="tab:performance",
    ):
        r"""A booktabs LaTeX table of data sets × learners, for a paper.

        Each cell is the mean ± standard deviation (``stat="mean"``) or the
        median [quartiles] of the learner's performance over the replicates;
        the best of each data set (up to rounding) in bold. A dagger marks a
        learner significantly worse than the best on that data set (a
        two-sided :meth:`paired_test`, the data set's ``k − 1`` p-values
        adjusted by ``adjust``, at ``alpha``). The last row is the average rank
        over the data sets on which every learner has every replicate (Demšar
        2006). The caption says all of this. With its defaults this is the
        report's ``tables/performance.tex`` under the default plan, byte for
        byte.

        Parameters
        ----------
        metric : str, default=None
        stat : {"mean", "median"}, default="mean"
        method : str, default=None
            A method of :meth:`paired_test`; ``None`` is its default.
        adjust : str, default="holm"
            A method of :func:`~sklearn_bench.stats.adjust_pvalues`.
        alpha : float, default=0.05
        digits : int, default=3
        caption : str, default=None
            Replaces the generated caption (LaTeX, not escaped).
        label : str or None, default="tab:performance"

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
        pairs = ("shaffer", "bergmann_hommel", "single_step")  # all pairs only
        adjust = check_choice(
            adjust, [a for a in ADJUST_METHODS if a not in pairs], "adjust"
        )
        if method is not None and not isinstance(method, str):
            raise TypeError(f"`method` must be None or a test's name; got {method!r}.")
        table = performance_table(
            self, self._metric(metric), stat=stat, alpha=alpha, adjust=adjust,
            method=method,
        )  # fmt: skip
        return performance_latex(table, digits=digits, caption=caption, label=label)
