"""The report's section on a sequential study (``run --sequential``): when it
stopped and why, what it decided, its anytime-valid intervals beside the
fixed-design one, the fits it ran and the learners a race dropped. It reads the
plain record ``analysis.provenance["sequential"]`` (see
:class:`~sklearn_bench.experiment.SequentialStudy`)."""

import html

import pandas as pd

from ..analysis._format import fmt_interval
from ..analysis._records import CITATIONS
from ._blocks import _table

METHODS = (
    "The data sets were run one at a time in a random order drawn from the seed and "
    "their names; after each one the comparison was updated with anytime-valid "
    "statistics, which hold their level at every look and whatever the stopping rule: "
    "betting confidence sequences (the hedged capital process with predictable plug-in "
    "bets of Waudby-Smith & Ramdas 2024) of the mean difference, rescaled from the "
    "metric's bounds, and of the net win rate beyond Δ, an e-process for the sign of "
    "the difference (Grünwald et al. 2024), each at α/2. With more than two learners a "
    "Hoeffding race (Maron & Moore 1994) dropped a learner as soon as either sequence "
    "showed it worse than the current best beyond Δ, at α/(m − 1) per pair so that the "
    "best learner is dropped with probability at most α over all pairs and looks."
)


def sequential_methods(analysis):
    """The methods paragraph of a sequential study (Markdown), or ``""``."""
    if analysis.provenance.get("sequential") is None:
        return ""
    keys = ("waudbysmith2024", "grunwald2024", "maron1994")
    return f"\n## Sequential study\n\n{METHODS}\n\n" + "".join(
        f"- {CITATIONS[k]}\n" for k in keys
    )


def sequential_html(analysis):
    """The section of the page, or ``""`` when the run was not sequential."""
    rec = analysis.provenance.get("sequential")
    if rec is None:
        return ""

    def interval(key):
        i = rec[key]
        if i["low"] is None:
            return "not available"
        return f"{fmt_interval(i['low'], i['high'])} ({i['confidence_level']:.1%})"

    a, b = rec["pair"]
    fixed = rec["n_datasets_fixed"]
    mean = f"mean {rec['metric']} difference {a} − {b}, anytime-valid"
    paired_t = "paired t interval, fixed design (NOT valid after looking)"
    rows = {
        "decision": rec["decision"],
        "stopped after": f"{rec['stopping_time']} data sets ({rec['reason']})",
        mean: interval("interval"),
        "net win rate beyond Δ, anytime-valid": interval("net_wins_interval"),
        paired_t: interval("fixed_interval"),
        "fits run": f"{rec['n_fits']} (every learner on the whole pool: "
        f"{rec['n_fits_full']})",
        "fixed design of 80% power for Δ": "not available"
        if fixed is None
        else f"{fixed} data sets, {rec['n_fits_fixed']} fits",
    }
    table = pd.DataFrame({"value": list(rows.values())}, index=list(rows))
    table.index.name = "sequential study"
    text = (
        f"<p>{METHODS} Δ = {rec['delta']:g}, α = {rec['alpha']:g}. "
        f"{html.escape(rec['null_hypothesis'])}.</p><p>The anytime-valid intervals and "
        "the fixed-design interval give different guarantees: the first hold at the "
        "data-dependent stopping time; the paired t-interval holds only for a number "
        "of data sets fixed in advance, so after stopping when the answer looked clear "
        "it is too narrow; it is shown for comparison only.</p>"
    )
    dropped = ""
    if rec["dropped"]:
        drops = pd.DataFrame.from_dict(rec["dropped"], orient="index")
        drops.index.name = "learner"
        drops.columns = ["dropped after (data sets)", "why"]
        dropped = _table(drops, "Learners dropped by the race", table_id="table-drops")
    table = _table(table, "Sequential study", table_id="table-sequential")
    head = '<section id="sequential"><h2>Sequential study</h2>'
    return f"{head}{text}{table}{dropped}</section>"
