"""The report's LaTeX (booktabs) tables, for the comparison section of a paper,
rendered from an Analysis: ``performance.tex`` (data sets × learners, the best in
bold, the analysis' marks of a learner worse than the best, its average ranks),
``pairwise.tex`` (its pairwise intervals) and ``learner_intervals.tex`` (the
interval of each learner's error)."""

from pathlib import Path

import numpy as np

from .._io import make_folder, write_text
from .._latex import latex_cell, latex_frame, performance_caption, performance_latex
from ..analysis._bottom_line import adjusted_interval_words
from ..analysis._records import SIGN_CONVENTION


def performance_tex(analysis):
    """``performance.tex`` of an analysis: mean ± standard deviation over the
    replicates, the best of each data set in bold, a dagger where
    ``analysis.within`` marks a learner ``worse`` than the best there (Holm over
    the other learners of the data set, at the plan's α) and the analysis'
    average ranks; what ``result.to_latex()`` gives under the default plan."""
    mean, std, within = analysis.mean, analysis.std, analysis.within
    learners = list(mean.columns)
    # the best of each data set: the reference of its rows (or its one learner)
    best = dict(zip(within["dataset"], within["reference"], strict=True))
    column = {m: j for j, m in enumerate(learners)}
    values, spread = mean.to_numpy(dtype=float), std.to_numpy(dtype=float)
    bold, cells = set(), {}
    for dataset, row, sd in zip(mean.index, values, spread, strict=True):
        finite = np.flatnonzero(~np.isnan(row))
        only = learners[finite[0]] if len(finite) == 1 else None
        top = best.get(dataset, only)
        if top is not None:
            ties = finite[row[finite] == row[column[top]]]
            bold |= {(dataset, learners[j]) for j in ties}
        cells[dataset] = {
            m: latex_cell(row[j], sd[j], "mean", 3) for j, m in enumerate(learners)
        }
    marked = within[within["worse"]]
    worse = set(zip(marked["dataset"], marked["learner"], strict=True))
    tested = within["pvalue"].notna()
    n_ranked = len(analysis.datasets_across)
    caption = performance_caption(
        stat="mean",
        metric=analysis.metric,
        greater_is_better=analysis.greater_is_better,
        reps=sorted(
            {int(v) for v in analysis.n_replicates.to_numpy().ravel() if v > 0}
        ),
        tests=set(within.loc[tested, "method"]) or {"t"},
        adjusted="adjusted by Holm",
        alpha=analysis.alpha,
        untested=[str(d) for d in within.loc[~tested, "dataset"].unique()],
        n_ranked=n_ranked,
    )
    return performance_latex(
        cells,
        bold,
        worse,
        learners,
        list(mean.index),
        analysis.average_ranks if n_ranked else None,
        caption,
        "tab:performance",
    )


def write_latex_tables(analysis, folder):
    """Write ``performance.tex`` (and ``pairwise.tex`` when there are pairwise
    intervals) into ``folder``; returns their paths."""
    folder = Path(folder)
    make_folder(folder)
    written = [folder / "performance.tex"]
    write_text(written[0], performance_tex(analysis))
    if len(analysis.pairs):
        level = f"{analysis.confidence_level:.0%}"
        pairs = analysis.pairs[
            ["estimate", "low", "high", "adjusted_low", "adjusted_high"]
        ].copy()
        pairs["p"] = analysis.pairs["pvalue"]
        pairs["Holm p"] = analysis.pairs["adjusted_pvalue"]
        pairs.index.name = "comparison"
        m = len(analysis.pairs)
        pairs.columns = [
            "difference",
            f"unadjusted {level} low",
            f"unadjusted {level} high",
            "simultaneous low",
            "simultaneous high",
            "p",
            "Holm p",
        ]
        test = "paired t" if analysis.blocks == "data sets" else "corrected resampled t"
        words = adjusted_interval_words(
            analysis.confidence_level, analysis.pairs["adjusted_level"].iloc[0], m
        )
        caption = (
            f"Pairwise differences in {analysis.metric} "
            f"({analysis.direction}) over {analysis.blocks}: {test} "
            f"unadjusted {level} confidence intervals, and {words} intervals "
            "(Berrar & Lozano 2013; an interval of the second kind excludes 0 only "
            "where the Holm-adjusted p is below the significance level); p-values "
            "unadjusted and Holm-adjusted. "
            f"{SIGN_CONVENTION}."
        )
        path = folder / "pairwise.tex"
        write_text(path, latex_frame(pairs, caption=caption, label="tab:pairwise"))
        written.append(path)
    frame = analysis.generalization
    if frame is not None:
        level = f"{analysis.confidence_level:.0%}"
        table = frame[["dataset", "learner", "estimate", "low", "high"]].copy()
        table.columns = ["data set", "learner", "estimate", f"{level} low",
                         f"{level} high"]  # fmt: skip
        methods = ", ".join(dict.fromkeys(frame["method"]))
        caption = (
            f"Expected {analysis.metric} ({analysis.direction}) of each learner "
            f"on new data of the kind, with {level} confidence intervals "
            f"({methods})."
        )
        path = folder / "learner_intervals.tex"
        write_text(
            path,
            latex_frame(table, caption=caption, label="tab:learners", index=False),
        )
        written.append(path)
    return written
