"""The report's LaTeX (booktabs) tables of an Analysis: ``performance.tex``,
``pairwise.tex`` and ``learner_intervals.tex``."""

from pathlib import Path

from .._io import make_folder, write_text
from .._latex import latex_frame, performance_latex
from ..analysis._bottom_line import adjusted_interval_words
from ..analysis._format import fmt_level
from ..analysis._records import SIGN_CONVENTION


def write_latex_tables(analysis, folder):
    """Write ``performance.tex``, and ``pairwise.tex`` and ``learner_intervals.tex``
    when they have rows, into ``folder``; returns their paths."""
    folder = Path(folder)
    make_folder(folder)
    written = []

    def write(name, text):
        written.append(folder / name)
        write_text(written[-1], text)

    write("performance.tex", performance_latex(analysis.performance))
    level = f"{analysis.confidence_level:.0%}"
    if len(analysis.pairs):
        columns = {
            "estimate": "difference",
            "low": f"unadjusted {level} low",
            "high": f"unadjusted {level} high",
            "adjusted_low": "simultaneous low",
            "adjusted_high": "simultaneous high",
            "pvalue": "p",
            "adjusted_pvalue": "Holm p",
        }
        pairs = analysis.pairs[list(columns)].rename(columns=columns)
        pairs.index.name = "comparison"
        m = len(analysis.pairs)
        words = adjusted_interval_words(
            analysis.confidence_level, analysis.pairs["adjusted_level"].iloc[0], m
        )
        caption = (
            f"Pairwise differences in {analysis.metric} "
            f"({analysis.direction}) over {analysis.blocks}: "
            f"{analysis.primary_test or 'no pair could be tested (see the notes);'}"
            f" unadjusted {level} confidence intervals, and "
            f"{words} intervals (Berrar & Lozano 2013"
            + (
                "; an interval of the second kind excludes 0 only where the "
                "Holm-adjusted p is below the significance level"
                if analysis.intervals_match_tests
                else f"; at {level}, not at the tests' 1 − α = "
                f"{fmt_level(1 - analysis.alpha)}: not comparable with the Holm p"
            )
            + "); p-values unadjusted and Holm-adjusted. "
            f"{SIGN_CONVENTION}."
        )
        write("pairwise.tex", latex_frame(pairs, caption=caption, label="tab:pairwise"))
    frame = analysis.generalization
    if frame is not None:
        table = frame[["dataset", "learner", "estimate", "low", "high"]].copy()
        table.columns = ["data set", "learner", "estimate", f"{level} low",
                         f"{level} high"]  # fmt: skip
        methods = ", ".join(frame["method"].unique())
        caption = (
            f"Expected {analysis.metric} ({analysis.direction}) of each learner "
            f"on new data of the kind, with {level} confidence intervals "
            f"({methods})."
        )
        tex = latex_frame(table, caption=caption, label="tab:learners", index=False)
        write("learner_intervals.tex", tex)
    return written
