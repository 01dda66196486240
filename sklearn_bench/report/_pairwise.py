"""The report's pairwise section: the Wilcoxon signed-rank test of every pair on its
own, adjusted for the family (``Analysis.pairwise``), which (unlike Nemenyi's
mean-rank test) does not depend on the other learners (Benavoli, Corani &
Mangili 2016)."""

import html

import pandas as pd

from .._text import adjusted_by
from ..analysis._format import fmt_interval, fmt_level, fmt_p
from ._blocks import MAX_SUMMARY_ROWS, _section_not_run, _table

# the pairwise tests' method names in words (PairwiseTestResult.method)
_METHOD_WORDS = {"wilcoxon-demsar": "Wilcoxon signed-rank", "sign": "sign"}


def pairwise_html(analysis, figure=""):
    """The section of the page: the table of pairs, the diagram, or why not."""
    head = '<section id="pairwise"><h2>Pairwise tests (each pair on its own)</h2>'
    res = analysis.pairwise
    if res is None:
        return _section_not_run(analysis, "pairwise", head, "Pairwise tests")
    frame = res.to_frame()  # each pair better ranked first, as every table
    pairs = zip(frame["learner_i"], frame["learner_j"], strict=True)
    bounds = zip(frame["ci_low"], frame["ci_high"], strict=True)
    table = pd.DataFrame(
        {
            "n": frame["n"].to_numpy(),
            "mean difference": frame["mean_difference"].to_numpy(),
            "estimate": frame["estimate"].to_numpy(),
            "interval": [fmt_interval(lo, hi) for lo, hi in bounds],
            "level achieved": [fmt_level(v) for v in frame["ci_level"]],
            "p": frame["pvalue"].to_numpy(),
            "adjusted p": frame["pvalue_adjusted"].to_numpy(),
            "differ": frame["reject"].map({True: "yes", False: "no"}).to_numpy(),
            "effect size": frame["effect_size"].to_numpy(),
        },
        index=pd.Index([f"{a} − {b}" for a, b in pairs], name="pair"),
    )
    text = (
        f"<p>Every pair of learners is tested on its own two columns by the "
        f"Wilcoxon signed-rank test (Wilcoxon 1945; zero differences by Demšar "
        f"2006's rule), so the verdict on a pair does not change when a learner "
        f"is added or removed (Benavoli, Corani &amp; Mangili 2016), unlike "
        f"Nemenyi's test on mean ranks. {html.escape(res.null_hypothesis)}. "
        f"Correction: {html.escape(analysis.pairwise_correction)}, at α = "
        f"{res.alpha:g}. The estimate is the Hodges–Lehmann pseudo-median of the "
        "differences (Hodges &amp; Lehmann 1963) with its interval; the effect "
        "size is the matched-pairs rank-biserial correlation. Each "
        "interval states the level it achieves: the signed-rank distribution "
        "allows only some levels, and with too few data sets no finite interval "
        f"reaches {fmt_level(1 - res.alpha)} (then it is the whole line).</p>"
    )
    n_min, p_min = analysis.smallest_pvalue
    if p_min > res.alpha:
        text += (
            f'<p class="note">With {n_min} data sets a two-sided signed-rank test '
            f"cannot reach p below {fmt_p(p_min)}: no pair can differ at α = "
            f"{res.alpha:g}, whatever the data. This is a sensitivity analysis; "
            "the bottom line rests on the paired t over data sets.</p>"
        )
    test = _METHOD_WORDS.get(res.method, res.method)
    caption = f"Pairwise {test} tests, {adjusted_by(res.adjust)}"
    at = {"table_id": "table-pairwise", "csv": "pairwise_tests.csv"}
    table = _table(table, caption, max_rows=MAX_SUMMARY_ROWS, **at)
    return f"{head}{text}{table}{figure}</section>"
