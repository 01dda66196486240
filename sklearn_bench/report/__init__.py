"""The renderers of an analysis: the HTML report (with its figures, LaTeX tables and
methods paragraph) and the text summary. They read an
:class:`~sklearn_bench.analysis.Analysis` and compute nothing."""

from ._html import write_report
from ._summary import format_summary

__all__ = ["format_summary", "write_report"]
