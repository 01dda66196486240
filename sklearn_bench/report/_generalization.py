"""The report's "How good is each learner" section: the field
``Analysis.generalization`` rendered (HTML and the summary's lines)."""

import html

import pandas as pd

from ..analysis._format import fmt_level
from ._blocks import MAX_DETAIL_ROWS, _interval_texts, _section_not_run, _table

HEAD = '<section id="generalization"><h2>How good is each learner</h2>'
CSV = "learner_intervals.csv"


def generalization_html(analysis):
    """The section, or why it did not run (``""`` when not asked for)."""
    frame = analysis.generalization
    if frame is None:
        return _section_not_run(
            analysis, "generalization", HEAD, "The intervals of each learner"
        )
    level = fmt_level(analysis.confidence_level)
    methods = ", ".join(frame["method"].unique())
    record = next(r for r in analysis.methods if r.key == "generalization")
    if record.cites():
        methods += f": {record.cites()}"
    table = pd.DataFrame(
        {
            "data set": frame["dataset"],
            "learner": frame["learner"],
            "estimate": frame["estimate"],
            f"{level} CI": _interval_texts(frame),
            "standard error": frame["standard_error"],
            "method": frame["method"],
            "design": frame["design"],
        }
    )
    caption = f"{analysis.metric} of each learner, {level} CI"
    at = {"table_id": "table-generalization", "csv": CSV, "max_rows": MAX_DETAIL_ROWS}
    return (
        f"{HEAD}<p>The expected {html.escape(analysis.metric)} "
        f"({analysis.direction}) of each learner trained on a data set of "
        "this size and used on new data of its kind, with its "
        f"{level} confidence interval ({html.escape(methods)}; the methods "
        "paragraph says what each assumes; a proportion's bounds are cut to "
        "[0, 1], its estimate is not). An interval of one learner is not a "
        "comparison: two overlapping intervals do not mean the learners are "
        "alike (see the effect sizes).</p>"
        f"{_table(table, caption, index=False, **at)}</section>"
    )


def generalization_lines(analysis, limit=12):
    """The summary's lines: each learner's estimate and interval, data set by
    data set (the first ``limit`` rows; the CSV has them all)."""
    frame = analysis.generalization
    if frame is None:
        return []
    level = fmt_level(analysis.confidence_level)
    methods = ", ".join(frame["method"].unique())
    lines = [
        f"   How good is each learner: its expected {analysis.metric} on new "
        f"data, {level} CI ({methods}):"
    ]
    lines += [
        f"   - {r.dataset}: {r.learner} {r.estimate:.3f} [{r.low:.3f}, {r.high:.3f}]"
        for r in frame.head(limit).itertuples(index=False)
    ]
    if len(frame) > limit:
        lines.append(f"   ... {len(frame) - limit} more in tables/{CSV}")
    return lines
