"""The HTML report and the text summary of a benchmark experiment."""

from ._analysis import ReportAnalysis, analyse_result
from ._html import write_report
from ._summary import format_summary

__all__ = [
    "ReportAnalysis",
    "analyse_result",
    "format_summary",
    "write_report",
]
