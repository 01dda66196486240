"""The renderers of an analysis: the HTML report, the text summary, LaTeX and the
methods paragraph."""

from ..analysis import ReportAnalysis, TestRecord, register_test
from ._html import write_report
from ._latex import escape_latex, latex_table
from ._learners import learner_table
from ._summary import format_summary

__all__ = [
    "ReportAnalysis",
    "TestRecord",
    "escape_latex",
    "format_summary",
    "latex_table",
    "learner_table",
    "register_test",
    "write_report",
]
