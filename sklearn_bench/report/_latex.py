"""LaTeX (booktabs) tables of a benchmark result, for the comparison section of a
paper: data sets × learners, the best in bold, significance markers, average
ranks, and a caption that says what was tested.

The table writer itself lives in :mod:`sklearn_bench.results` (``latex_table``,
``latex_frame``, ``escape_latex``); this module writes the report's tables with the
tests the analysis ran (its record in the methods paragraph is the analysis'
``"latex_table"``, registered by :func:`~sklearn_bench.analysis.analyse`).
"""

from .._io import make_folder, write_text
from ..analysis import SIGN_CONVENTION, adjusted_interval_words, within_test
from ..results import escape_latex, latex_frame, latex_table

__all__ = ["escape_latex", "latex_frame", "latex_table", "write_latex_tables"]


def write_latex_tables(result, analysis, folder):
    """Write ``performance.tex`` (and ``pairwise.tex`` when there are pairwise
    intervals) into ``folder``. The table's tests are those the analysis ran
    within each data set (:func:`~sklearn_bench.analysis.within_test`).

    The markers of ``performance.tex`` use the plan's level ``alpha``, as the
    report's tests do.

    Returns
    -------
    list of Path
    """
    from pathlib import Path

    folder = Path(folder)
    make_folder(folder)
    table = latex_table(
        result,
        metric=analysis.metric,
        alpha=analysis.alpha,
        label="tab:performance",
        paired=lambda a, b, dataset: within_test(result, analysis, a, b, dataset),
    )
    written = [folder / "performance.tex"]
    write_text(written[0], table)
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
        test = (
            "paired t"
            if analysis.pairs_blocks == "data sets"
            else "corrected resampled t"
        )
        caption = (
            f"Pairwise differences in {analysis.metric} "
            f"({analysis.direction}) over {analysis.pairs_blocks}: {test} "
            f"unadjusted {level} confidence intervals, and "
            f"{adjusted_interval_words(analysis.confidence_level, m)} intervals "
            "(Berrar & Lozano 2013; an interval of the second kind excludes 0 only "
            "where the Holm-adjusted p is below the significance level); p-values "
            "unadjusted and Holm-adjusted. "
            f"{SIGN_CONVENTION}."
        )
        path = folder / "pairwise.tex"
        write_text(path, latex_frame(pairs, caption=caption, label="tab:pairwise"))
        written.append(path)
    return written
