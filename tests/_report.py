"""A report of a result in one call, for the tests: ``analyse`` with the plan's
keywords, then ``write_report`` with the renderer's; returns the Analysis."""

from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.report import write_report

_RENDERER = {"title", "figure_formats", "sources", "progress"}


def report(result, out_dir, *, plan=None, **keywords):
    """``write_report(analyse(result, plan), out_dir)``; keywords of the plan
    (``alpha=``, ``analyses=``, ...) make the plan when ``plan`` is None."""
    options = {k: keywords.pop(k) for k in list(keywords) if k in _RENDERER}
    options.setdefault("progress", False)
    analysis = analyse(result, plan if plan is not None else AnalysisPlan(**keywords))
    write_report(analysis, out_dir, **options)
    return analysis
