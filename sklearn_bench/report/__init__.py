"""The HTML report and the text summary of a benchmark experiment."""

from ._analysis import ReportAnalysis, analyse_result
from ._html import write_report
from ._latex import escape_latex, latex_table
from ._learners import learner_table
from ._methods import TestRecord, register_test
from ._summary import format_summary

__all__ = [
    "ReportAnalysis",
    "TestRecord",
    "analyse_result",
    "escape_latex",
    "format_summary",
    "latex_table",
    "learner_table",
    "register_test",
    "write_report",
]
