"""LaTeX (booktabs) tables of a benchmark result, for the comparison section of a
paper: data sets × learners, the best in bold, significance markers, average
ranks, and a caption that says what was tested."""

import numpy as np

from ..results import escape_latex, latex_frame, latex_table
from ._methods import paired_method

__all__ = ["escape_latex", "latex_frame", "latex_table", "write_latex_tables"]


def write_latex_tables(result, analysis, folder):
    """Write ``performance.tex`` (and ``pairwise.tex`` when there are pairwise
    intervals) into ``folder``; register the table's test with the analysis.

    The markers of ``performance.tex`` use the level ``1 − confidence_level``
    of the analysis, so the table and the report agree.

    Returns
    -------
    list of Path
    """
    from pathlib import Path

    from ._analysis import within_test
    from ._methods import TestRecord, register_test

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    alpha = round(1 - analysis.confidence_level, 10)
    tested = set()

    def paired(a, b, dataset):  # the report's tests, and which methods ran
        res = within_test(result, analysis, a, b, dataset)
        if np.isfinite(res.pvalue):
            tested.add(getattr(res, "method", "t"))
        return res

    table = latex_table(
        result,
        metric=analysis.metric,
        alpha=alpha,
        label="tab:performance",
        paired=paired,
    )
    tested = sorted(tested)
    written = [folder / "performance.tex"]
    written[0].write_text(table, encoding="utf-8")
    if tested:
        name = " / ".join(paired_method(m)[0] for m in tested)
        cites = tuple(dict.fromkeys(c for m in tested for c in paired_method(m)[1]))
        register_test(
            analysis,
            TestRecord(
                "latex_table",
                "in the LaTeX table, each learner against the best learner on "
                "each data set (marked when significantly worse)",
                f"two-sided {name}",
                "the replicates of each data set",
                correction="Holm-adjusted over the other learners of the data set",
                alpha=alpha,
                citations=(*cites, "holm1979"),
            ),
        )
    if len(analysis.pairs):
        level = f"{analysis.confidence_level:.0%}"
        pairs = analysis.pairs[
            ["estimate", "low", "high", "adjusted_low", "adjusted_high"]
        ].copy()
        pairs["p"] = analysis.pairs["pvalue"]
        pairs["Holm p"] = analysis.pairs["adjusted_pvalue"]
        pairs.index.name = "comparison"
        pairs.columns = [
            "difference",
            f"{level} low",
            f"{level} high",
            "Holm low",
            "Holm high",
            "p",
            "Holm p",
        ]
        test = (
            "paired t"
            if analysis.pairs_blocks == "data sets"
            else "corrected resampled t"
        )
        caption = (
            f"Pairwise differences in {analysis.metric} "
            f"({analysis.direction}) over {analysis.pairs_blocks}: {test} "
            f"{level} confidence intervals, and intervals at Holm's step-down "
            "levels (Berrar & Lozano 2013); p-values unadjusted and Holm-adjusted."
        )
        path = folder / "pairwise.tex"
        path.write_text(
            latex_frame(pairs, caption=caption, label="tab:pairwise"), encoding="utf-8"
        )
        written.append(path)
    return written
