"""One self-contained HTML report of a benchmark experiment, and its figures."""

import html
import os
import platform
import re
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import (
    make_folder,
    refuse_links_below,
    write_bytes,
    write_csv,
    write_text,
    writes_into,
)
from .._version import __version__
from ..analysis import (
    ANALYSES,
    SIGN_CONVENTION,
    AnalysisPlan,
    adjusted_interval_words,
    analyse,
    fmt_p_equals,
    posthoc_title,
)
from ..datasets import PROBLEM_WORDS
from ._bayesian import bayesian_comparisons_table, bayesian_html
from ._blocks import (
    MAX_DETAIL_ROWS,
    MAX_DIAGRAM_LEARNERS,
    MAX_SUMMARY_ROWS,
    _figure_html,
    _image_bytes,
    _interval_text,
    _not_run,
    _section_not_run,
    _table,
    _too_many_for_diagram,
)
from ._bottom_line import bottom_line, bottom_line_html
from ._figures import make_figures
from ._latex import write_latex_tables
from ._leaderboard import leaderboard_section
from ._learners import learner_table
from ._methods import write_methods
from ._pairwise import pairwise_figure, pairwise_html

_CSS = """
body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
       max-width: 1100px; margin: 2em auto; padding: 0 1em; color: #222;
       line-height: 1.45; }
h1 { font-size: 1.6em; margin-bottom: 0.2em; }
h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em; margin-top: 1.8em; }
nav a { margin-right: 1em; }
table { border-collapse: collapse; margin: 0.6em 0 1.2em; font-size: 0.9em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; }
th { background: #f4f4f4; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
caption { caption-side: top; text-align: left; font-weight: 600;
          padding-bottom: 0.3em; }
figure { margin: 1em 0 2em; }
figure img { max-width: 100%; height: auto; border: 1px solid #eee; }
figcaption { font-size: 0.9em; color: #555; max-width: 60em; }
.note { background: #fff8e1; border-left: 4px solid #f0b400;
        padding: 0.4em 0.8em; }
.muted { color: #666; font-size: 0.9em; }
.not-run { background: #f4f6fb; border-left: 4px solid #7a8bb5;
           padding: 0.4em 0.8em; }
code, pre { background: #f6f6f6; }
pre { padding: 0.6em; overflow-x: auto; font-size: 0.85em; }
details.long { margin: 0.6em 0 1.2em; }
details.long > summary { cursor: pointer; font-weight: 600; }
.csv { font-weight: normal; font-size: 0.9em; }
th.sortable { cursor: pointer; }
input.filter { margin: 0.4em 0 0; padding: 0.2em 0.4em; font-size: 0.9em; }
"""

# Inline (no external resource): click a column head to sort a table, type in
# the box above a table of 10 rows or more to keep the rows that contain the
# text. The rows of a long table not on the page are in its CSV file.
_SCRIPT = """
(function () {
  function key(text) {
    var v = parseFloat(text.replace("\u2212", "-").replace("< ", ""));
    return isNaN(v) ? null : v;
  }
  document.querySelectorAll("table.data").forEach(function (table) {
    var body = table.tBodies[0];
    if (!body || body.rows.length < 2) { return; }
    if (body.rows.length >= 10) {
      var box = document.createElement("input");
      box.type = "search";
      box.className = "filter";
      box.placeholder = "Filter rows";
      box.setAttribute("aria-label", "Filter the rows of the table below");
      box.addEventListener("input", function () {
        var q = box.value.toLowerCase();
        Array.prototype.forEach.call(body.rows, function (row) {
          row.hidden = q !== "" && row.textContent.toLowerCase().indexOf(q) < 0;
        });
      });
      table.parentNode.insertBefore(box, table);
    }
    Array.prototype.forEach.call(table.tHead.rows[0].cells, function (th, i) {
      th.className = "sortable";
      th.title = "Sort by this column";
      th.addEventListener("click", function () {
        var up = th.getAttribute("data-order") !== "up";
        th.setAttribute("data-order", up ? "up" : "down");
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = a.cells[i].textContent, y = b.cells[i].textContent;
          var kx = key(x), ky = key(y);
          var c = kx !== null && ky !== null ? kx - ky : x.localeCompare(y);
          return up ? c : -c;
        });
        rows.forEach(function (row) { body.appendChild(row); });
      });
    });
  });
})();
"""

_VERSION_PACKAGES = ("scikit-learn", "numpy", "scipy", "pandas", "matplotlib")


def _versions():
    out = {"sklearn_bench": __version__, "python": platform.python_version()}
    for name in _VERSION_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:  # pragma: no cover - all installed in tests
            out[name] = "not installed"
    return out


def _datasets_table(result, analysis):
    """One row per data set: its problem, sizes and replicates."""
    info = result.info
    scores = result.scores
    sizes = (
        scores[scores["n_train"] >= 0]
        .groupby("dataset", observed=True)[["n_train", "n_test"]]
        .median()
    )
    datasets = pd.DataFrame(
        {
            # in plain words, not the papers' terms of art ("real world")
            "problem": pd.Series(result.datasets).map(
                lambda p: PROBLEM_WORDS.get(p, p)
            ),
            "median n_train": sizes["n_train"].reindex(list(result.datasets)),
            "median n_test": sizes["n_test"].reindex(list(result.datasets)),
            "replicates": analysis.n_replicates.max(axis=1).reindex(
                list(result.datasets)
            ),
        }
    ).rename_axis("data set")
    recorded = info.get("dataset_sizes") or {}
    for key, column in (("n_samples", "n"), ("n_features", "features")):
        if any(key in size for size in recorded.values()):
            sizes_of = [recorded.get(d, {}).get(key, np.nan) for d in datasets.index]
            datasets.insert(1 + (key == "n_features"), column, sizes_of)
    return datasets


def _what_was_run(result, analysis, missing, datasets):
    info = result.info
    # Every parameter that is not at its default or differs between learners.
    learners = learner_table(result).rename_axis("name")
    versions = _versions()
    recorded = info.get("sklearn_bench_version")
    parts = [
        '<section id="run"><h2>What was run</h2>',
        f"<p>{len(result.learners)} learners × {len(result.datasets)} data sets; "
        f"metric <b>{html.escape(analysis.metric)}</b> ({analysis.direction}); "
        f"resampling <code>{html.escape(str(info.get('cv', 'unknown')))}</code>; "
        f"seed <code>{html.escape(str(info.get('seed', 'unknown')))}</code>.</p>",
    ]
    if missing:
        parts.append(
            f'<p class="note" id="missing-tasks">Partial run: {missing} task(s) '
            "are missing from the store; the analyses use the finished ones.</p>"
        )
    parts.append(
        _table(
            datasets,
            "Data sets",
            table_id="table-datasets",
            csv="datasets.csv",
            max_rows=MAX_DETAIL_ROWS,
        )
    )
    parts.append(
        _table(
            learners,
            "Learners",
            table_id="table-learners",
            max_rows=MAX_SUMMARY_ROWS,
            fold_above=MAX_DETAIL_ROWS // 2,
        )
    )
    version_text = ", ".join(f"{k} {v}" for k, v in versions.items())
    parts.append(
        f'<p class="muted">Report made with {html.escape(version_text)}'
        + (
            f"; the run recorded sklearn_bench {html.escape(str(recorded))}"
            if recorded
            else ""
        )
        + ".</p></section>"
    )
    return "".join(parts)


def _settings(settings):
    if not settings:
        return ""
    table = pd.DataFrame(
        {
            "value": [str(v) for v, _ in settings.values()],
            "from": [src for _, src in settings.values()],
        },
        index=pd.Index(list(settings), name="setting"),
    )
    overridden = [k for k, (_, src) in settings.items() if src == "command line"]
    parts = ['<section id="settings"><h2>Analysis settings</h2>']
    if overridden:
        parts.append(
            '<p class="note" id="overridden">Overridden on the command line, '
            f"instead of the run's own settings: {html.escape(', '.join(overridden))}"
            ".</p>"
        )
    parts.append(_table(table, "Settings of this report", table_id="table-settings"))
    parts.append("</section>")
    return "".join(parts)


def _effects(analysis):
    level = f"{analysis.confidence_level:.0%}"
    parts = ['<section id="effects"><h2>Effect sizes and confidence intervals</h2>']
    parts.append(
        "<p>How much better, and how sure: intervals first, p-values second "
        f"(Berrar &amp; Lozano 2013). {html.escape(SIGN_CONVENTION)}, in "
        f"{html.escape(analysis.metric)} ({analysis.direction}).</p>"
    )
    if len(analysis.pairs):
        pairs = analysis.pairs
        # each interval names its level; the simultaneous one is compatible with
        # the Holm-adjusted p beside it
        adjusted_words = (
            f"{adjusted_interval_words(analysis.confidence_level, len(pairs))} CI"
            if len(pairs) > 1
            else f"{level} CI (one pair: no adjustment)"
        )
        table = pd.DataFrame(
            {
                "estimate": pairs["estimate"],
                f"unadjusted {level} CI": [
                    _interval_text(lo, hi)
                    for lo, hi in zip(pairs["low"], pairs["high"], strict=True)
                ],
                adjusted_words: [
                    _interval_text(lo, hi)
                    for lo, hi in zip(
                        pairs["adjusted_low"], pairs["adjusted_high"], strict=True
                    )
                ],
                "p": pairs["pvalue"],
                "Holm p": pairs["adjusted_pvalue"],
                "n": pairs["n"],
            },
            index=pairs.index.rename("comparison"),
        )
        parts.append(
            _table(
                table,
                f"Pairwise differences, {pairs_test_words(analysis)} over "
                f"{analysis.pairs_blocks}",
                table_id="table-pairs",
                csv="pairwise_intervals.csv",
                max_rows=MAX_SUMMARY_ROWS,
            )
        )
    elif "pairs" in analysis.skipped:
        parts.append(_not_run("Pairwise intervals", analysis.skipped["pairs"]))
    if len(analysis.within):
        within = analysis.within
        table = pd.DataFrame(
            {
                "data set": within["dataset"],
                "learner": within["learner"],
                "reference (best here)": within["reference"],
                "difference (reference − learner)": within["estimate"],
                f"{level} CI": [
                    _interval_text(lo, hi)
                    for lo, hi in zip(within["low"], within["high"], strict=True)
                ],
                "p": within["pvalue"],
                "n": within["n"],
                "test": within["method"],
            }
        )
        parts.append(
            _table(
                table,
                "Within each data set: each learner against the best one there "
                "(the default test there: corrected resampled t on the run's "
                "folds or splits, valid for new data of its kind; n counts them)",
                table_id="table-within",
                index=False,
                csv="within_dataset_intervals.csv",
                max_rows=MAX_DETAIL_ROWS,
            )
        )
    mean = analysis.mean.copy()
    mean.index.name = "data set"
    parts.append(
        _table(
            mean,
            f"Mean {analysis.metric} over replicates",
            table_id="table-mean",
            csv="mean.csv",
            max_rows=MAX_DETAIL_ROWS,
        )
    )
    parts.append("</section>")
    return "".join(parts)


def _tests(analysis):
    parts = ['<section id="tests"><h2>Tests</h2>']
    fr = analysis.friedman
    if fr is None:
        parts.append(
            _not_run(
                "Friedman's test and Nemenyi's comparisons",
                analysis.skipped.get("friedman", "not requested"),
            )
        )
    if fr is not None:
        exact = getattr(fr, "null_distribution", "chi2") == "exact"
        if np.isnan(fr.iman_davenport_statistic):
            f_text = (
                "Iman–Davenport F undefined (every block ranks the learners "
                "alike: zero residual variance)"
            )
        else:
            f_text = (
                f"Iman–Davenport F = {fr.iman_davenport_statistic:.3f} ("
                f"{fmt_p_equals(fr.iman_davenport_pvalue)})"
            )
        parts.append(
            f"<p>{html.escape(fr.method)} over {fr.n_blocks} "
            f"{analysis.friedman_blocks}: χ²<sub>F</sub> = {fr.statistic:.3f} "
            f"({fmt_p_equals(fr.pvalue)}, "
            f"{'exact permutation distribution' if exact else 'χ² approximation'}"
            f"); {f_text}. {html.escape(fr.null_hypothesis)}"
            f" Nemenyi critical difference (α = 0.05): "
            f"{fr.critical_difference(alpha=0.05):.3f} ranks."
            + (_CONDITIONAL if analysis.friedman_blocks != "data sets" else "")
            + "</p>"
        )
        ranks = fr.average_ranks.rename("average rank").to_frame()
        ranks.index.name = "learner"
        parts.append(
            _table(
                ranks,
                "Average ranks",
                table_id="table-ranks",
                max_rows=MAX_SUMMARY_ROWS,
            )
        )
        if analysis.posthoc is None:  # Friedman ran, its post-hoc could not
            parts.append(
                _not_run(
                    f"The {posthoc_title(analysis)} post-hoc test",
                    analysis.skipped.get("posthoc", "not requested"),
                )
            )
    if fr is not None and analysis.posthoc is not None:
        parts.append(
            _table(
                analysis.posthoc,
                f"{posthoc_title(analysis)} post-hoc comparisons",
                table_id="table-posthoc",
                index=not isinstance(analysis.posthoc.index, pd.RangeIndex),
                csv=f"{analysis.posthoc_method}.csv",
                max_rows=MAX_SUMMARY_ROWS,
            )
        )
    parts.append("</section>")
    return "".join(parts)


_DELTA_SOURCE = {
    "given": "the smallest difference of interest given for this analysis",
    "default": (
        "the default smallest difference of interest for a metric on a [0, 1] "
        "scale (Boulesteix et al. 2015, Fig. 2); set <code>delta</code> to "
        "yours"
    ),
}


def _power(analysis, figures=""):
    pw = analysis.power
    head = '<section id="power"><h2>Power and the number of data sets</h2>'
    if pw is None:
        return _section_not_run(analysis, "power", head, "The power analysis")
    a, b = pw["pair"]
    parts = [
        head,
        f"<p>Comparing the two best learners, <b>{html.escape(a)}</b> and "
        f"<b>{html.escape(b)}</b>: their per-data-set differences have standard "
        f"deviation σ = {pw['sigma']:.4g} over this study's J = "
        f"{pw['n_datasets']} data sets.</p>",
    ]
    if pw["delta"] is not None:
        parts.append(
            f'<p id="power-delta">For Δ = <b>{pw["delta"]:.4g}</b> '
            f"({_DELTA_SOURCE[pw['delta_source']]}), fixed before looking at the "
            f"results, the {html.escape(pw['test_words'])} across the J = "
            f"{pw['n_datasets']} data sets has power <b>{pw['power']:.2f}</b>; a "
            f"study with power {pw['target_power']:.0%} would need "
            f"<b>J = {pw['n_needed']}</b> data sets (Boulesteix et al. 2015, "
            "Section 3).</p>"
        )
    else:
        parts.append(
            '<p id="power-delta">No smallest difference of interest Δ was given, '
            f"and {html.escape(analysis.metric)} has no natural scale for a "
            "default: set <code>delta</code> (the <code>[analysis]</code> table of "
            "the config, or <code>--delta</code>) to the difference worth "
            "detecting.</p>"
        )
    if pw["posthoc_power"] is not None:
        parts.append(
            f'<p class="muted" id="power-posthoc">Secondary, <i>post-hoc power</i>: '
            f"at the observed difference {abs(pw['observed_difference']):.4g} the "
            f"power is {pw['posthoc_power']:.2f} (J = {pw['posthoc_n_needed']} "
            "for 80%). Post-hoc power is a function of the p-value and says "
            "nothing the interval does not; do not read it as evidence.</p>"
        )
    parts.append(figures)
    parts.append("</section>")
    return "".join(parts)


def _win_tie_loss(analysis, figure):
    if figure:
        return figure
    return _section_not_run(
        analysis,
        "win_tie_loss",
        '<section id="win-tie-loss"><h2>Wins, ties and losses</h2>',
        "The win/tie/loss map",
    )


def _failures(analysis):
    failures = analysis.failures
    parts = ['<section id="failures"><h2>Failures</h2>']
    if failures.empty:
        parts.append("<p>No task failed.</p>")
    else:
        parts.append(
            _table(
                failures,
                "Failed tasks (scored NaN)",
                table_id="table-failures",
                index=False,
                csv="failures.csv",
                max_rows=MAX_DETAIL_ROWS,
            )
        )
    for note in analysis.notes:
        parts.append(f'<p class="note">{html.escape(note)}</p>')
    parts.append("</section>")
    return "".join(parts)


_CONDITIONAL = (
    " Conditional on this learning sample: the replicates share training rows, "
    "so this test answers a question about this sample, not about new data of "
    "its kind (a sensitivity analysis; the bottom line uses the corrected t)."
)


def _resolved_settings(settings, analysis):
    """The settings as the analysis used them: the metric by its name and Δ by
    its value (a default is named and explained once, in the bottom line)."""
    out = dict(settings)
    if "metric" in out:
        out["metric"] = (analysis.metric, out["metric"][1])
    if "delta" in out:
        if analysis.delta is None:
            value = "none (no default for this metric)"
        elif analysis.delta_source == "default":
            value = f"{analysis.delta:g} (default for a [0, 1] metric)"
        else:
            value = f"{analysis.delta:g}"
        out["delta"] = (value, out["delta"][1])
    return out


def pairs_test_words(analysis):
    """The primary test of the pairwise table, in words."""
    if analysis.pairs_blocks == "data sets":
        return "paired t"
    return "corrected resampled t (on the folds or splits)"


_PLAN_KEYWORDS = {
    "metric": None,
    "analyses": ANALYSES,
    "confidence_level": 0.95,
    "delta": None,
    "target_power": 0.8,
    "alpha": 0.05,
    "posthoc": "nemenyi",
    "adjust": None,
    "bayesian": "signed_rank",
}


@writes_into("out_dir")
def write_report(
    result,
    out_dir,
    *,
    metric=None,
    analyses=ANALYSES,
    confidence_level=0.95,
    delta=None,
    target_power=0.8,
    alpha=0.05,
    posthoc="nemenyi",
    adjust=None,
    bayesian="signed_rank",
    plan=None,
    title="Benchmark report",
    missing_tasks=0,
    figure_formats=("png", "svg"),
    settings=None,
    progress=None,
):
    """Write ``report.html`` and the figures of a result into ``out_dir``.

    The report is one self-contained HTML file (figures embedded as base64 PNG,
    styles and a small script that sorts and filters the tables inline, no
    external resource, works offline): what was run, effect
    sizes with confidence intervals, the tests (Friedman, Nemenyi), the critical
    difference diagram, the performance distributions, the forest plot of
    pairwise intervals, the power of the study, the win/tie/loss map and the
    failures. Every figure is also written to ``out_dir/figures`` in each of
    ``figure_formats``; the LaTeX tables to ``out_dir/tables/*.tex``
    (:func:`latex_table`); the methods paragraph, generated from what was run
    and the tests the report ran, to ``out_dir/methods.md`` and
    ``methods.tex``. Every table is also written whole to
    ``out_dir/tables/*.csv``; in a large study (many data sets or learners) the
    page shows the first rows of the per-data-set tables in collapsed sections
    and links the CSV files, and draws the critical difference diagram only up
    to 25 learners (saying so in its place beyond). Needs matplotlib (the
    ``plot`` extra).

    Parameters
    ----------
    result : BenchmarkResult
    out_dir : str or Path
        Created if needed.
    metric, analyses, confidence_level, delta, target_power, alpha
        As :class:`~sklearn_bench.analysis.AnalysisPlan`: one analysis plan
        (α, the confidence level and Δ, the smallest difference that matters)
        for every section.
    posthoc, adjust
        The plan's ``posthoc`` and ``adjust``: the post-hoc test after
        Friedman's (Nemenyi's by default) and its correction.
    bayesian : {"signed_rank", "hierarchical"}, default="signed_rank"
        The plan's Bayesian model across data sets (``"hierarchical"`` needs
        the [bayes] extra).
    plan : AnalysisPlan, default=None
        The whole plan at once, instead of the keywords above (which must then
        keep their defaults).
    title : str, default="Benchmark report"
    missing_tasks : int, default=0
        Tasks of a partial run not in the result; the report says so.
    figure_formats : tuple of str, default=("png", "svg")
    settings : dict, default=None
        ``{name: (value, source)}`` of the analysis settings and where each came
        from (e.g. ``"the run's config"``, ``"command line"``, ``"default"``);
        the report and the methods paragraph list them.
    progress : bool, default=None
        Show the report's steps as a progress bar on stderr (tqdm); ``None``
        shows it when stderr is a terminal.

    Returns
    -------
    analysis : ReportAnalysis
        The numbers the report shows: ``analyse(result, plan)``.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.report import write_report
    >>> df = pd.DataFrame({"data": ["a", "a", "b", "b", "c", "c"],
    ...                    "model": ["x", "y"] * 3,
    ...                    "error": [0.10, 0.12, 0.30, 0.33, 0.05, 0.09]})
    >>> result = BenchmarkResult.from_frame(
    ...     df, dataset="data", learner="model", value="error",
    ...     greater_is_better=False)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     analysis = write_report(result, tmp)
    ...     html = (pathlib.Path(tmp) / "report.html").read_text()
    >>> analysis.best, html.count("<img")
    ('x', 9)
    """
    if not isinstance(out_dir, str | os.PathLike):
        raise TypeError(f"`out_dir` must be a folder path; got {out_dir!r}.")
    import matplotlib.pyplot as plt

    out = Path(out_dir)
    refuse_links_below(out)
    fig_dir = out / "figures"
    make_folder(fig_dir)
    steps = _Progress(progress)
    steps.step("analyses")
    keywords = {
        "metric": metric,
        "analyses": analyses,
        "confidence_level": confidence_level,
        "delta": delta,
        "target_power": target_power,
        "alpha": alpha,
        "posthoc": posthoc,
        "adjust": adjust,
        "bayesian": bayesian,
    }
    if plan is None:
        plan = AnalysisPlan(**keywords)
    elif not isinstance(plan, AnalysisPlan):
        raise TypeError(f"`plan` must be an AnalysisPlan; got {plan!r}.")
    elif {**keywords, "analyses": tuple(analyses)} != _PLAN_KEYWORDS:
        raise TypeError(
            "Pass the analysis settings either as `plan` or as keywords, not both."
        )
    analyses = plan.analyses
    # The plan, run once: every section, table and the summary read it.
    analysis = analyse(result, plan)
    if settings:
        settings = _resolved_settings(settings, analysis)
    steps.step("Bayesian comparisons")
    bayes_table = (
        bayesian_comparisons_table(result, analysis)[0]
        if "bayesian" in analyses
        else None
    )
    steps.step("pairwise tests")
    # Pairwise post-hoc tests, each pair on its own (Wilcoxon, Holm).
    pairwise = analysis.cache.get("pairwise")
    steps.step("figures")
    figures = make_figures(result, analysis, analyses=analyses)
    if pairwise is not None:
        if len(analysis.mean.columns) <= MAX_DIAGRAM_LEARNERS:
            figures["pairwise_significance"] = pairwise_figure(pairwise)
        else:
            analysis.skipped["pairwise_significance"] = _too_many_for_diagram(
                analysis, "pairwise significance diagram", "pairwise_tests.csv"
            )
    rendered = {}
    try:
        for key, (fig_title, caption, fig) in figures.items():
            # the PNG is drawn once: the page embeds the bytes of figures/*.png
            png = _image_bytes(fig)
            for fmt in figure_formats:
                if fmt == "png":
                    write_bytes(fig_dir / f"{key}.png", png)
                else:
                    write_bytes(fig_dir / f"{key}.{fmt}", _image_bytes(fig, fmt))
            rendered[key] = _figure_html(key, fig_title, caption, png)
    finally:
        for _, _, fig in figures.values():
            plt.close(fig)

    steps.step("tables")
    datasets = _datasets_table(result, analysis)
    write_latex_tables(result, analysis, out / "tables")
    _write_csv_tables(out / "tables", analysis, datasets, pairwise, bayes_table)

    def fig(*keys):
        return "".join(rendered[k] for k in keys if k in rendered)

    steps.step("page")
    distributions = [k for k in rendered if k.startswith("distribution_")]
    sections = [
        bottom_line_html(bottom_line(analysis, bayes_table)),
        # Sections that sum a large study up go here, right after the bottom
        # line and before the per-data-set detail.
        leaderboard_section(result, out, analysis),
        _what_was_run(result, analysis, missing_tasks, datasets),
        _settings(settings),
        _effects(analysis),
        _tests(analysis),
        pairwise_html(
            analysis,
            pairwise,
            fig("pairwise_significance")
            or _skipped_figure(analysis, "pairwise_significance"),
        ),
        bayesian_html(result, analysis) if "bayesian" in analyses else "",
        '<section id="figures"><h2>Figures</h2>',
        fig("critical_difference") or _skipped_figure(analysis, "critical_difference"),
        fig(*distributions, "forest"),
        "</section>",
        _power(analysis, fig("power", "datasets_needed")),
        _win_tie_loss(analysis, fig("win_tie_loss")),
        _failures(analysis),
    ]
    sections.append(_references("".join(sections), analysis))
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    nav = "".join(
        f'<a href="#{anchor}">{label}</a>'
        for anchor, label in [
            ("bottom-line", "Bottom line"),
            ("run", "What was run"),
            ("effects", "Effect sizes"),
            ("tests", "Tests"),
            ("pairwise", "Pairwise"),
            ("bayesian", "Bayesian"),
            ("figures", "Figures"),
            ("power", "Power"),
            ("failures", "Failures"),
            ("references", "References"),
        ]
    )
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{html.escape(title)}</title><style>{_CSS}</style></head><body>"
        f"<header><h1>{html.escape(title)}</h1>"
        f'<p class="muted">sklearn_bench {__version__}, {stamp}</p>'
        f"<nav>{nav}</nav></header><main>{''.join(sections)}</main>"
        f"<script>{_SCRIPT}</script></body></html>\n"
    )
    write_text(out / "report.html", page)
    # Last, so that every section above has registered the test it ran
    # (register_test) before the methods paragraph reads them.
    write_methods(result, analysis, out, versions=_versions(), settings=settings)
    steps.close()
    return analysis


def _references(body, analysis):
    """The reference list of the page: every work its text cites in author-year
    form and every work the tests that ran follow (one entry, one year each)."""
    from ..analysis import CITATIONS, cited_keys

    text = html.unescape(re.sub(r"<[^>]+>", " ", body))
    keys = set(cited_keys(text)) | {c for r in analysis.methods for c in r.citations}
    if not keys:
        return ""
    items = "".join(f"<li>{html.escape(CITATIONS[k])}</li>" for k in sorted(keys))
    return f'<section id="references"><h2>References</h2><ul>{items}</ul></section>'


def _skipped_figure(analysis, key):
    reason = analysis.skipped.get(key)
    if reason is None:
        return ""
    what = reason.split(" is drawn")[0].removeprefix("the ").capitalize()
    return f'<div id="fig-{key}">' + _not_run(what, reason) + "</div>"


def _write_csv_tables(folder, analysis, datasets, pairwise, bayes_table):
    """Every table of the page, whole, as CSV beside it (the page shows the
    first rows of long ones)."""
    make_folder(folder)
    write_csv(datasets, folder / "datasets.csv")
    write_csv(analysis.mean.rename_axis("dataset"), folder / "mean.csv")
    write_csv(analysis.within, folder / "within_dataset_intervals.csv", index=False)
    if len(analysis.pairs):
        write_csv(analysis.pairs, folder / "pairwise_intervals.csv")
    if analysis.posthoc is not None:
        write_csv(
            analysis.posthoc, folder / f"{analysis.posthoc_method}.csv", index=False
        )
    if pairwise is not None:
        frame = analysis.cache.get("pairwise_frame", pairwise.to_frame())
        write_csv(frame, folder / "pairwise_tests.csv", index=False)
    if bayes_table is not None and len(bayes_table):
        write_csv(bayes_table, folder / "bayesian.csv", index=False)
    if not analysis.failures.empty:
        write_csv(analysis.failures, folder / "failures.csv", index=False)


class _Progress:
    """The steps of a report as a tqdm bar (as the runner shows its tasks): on
    when ``progress`` is True, or None and stderr is a terminal."""

    _STEPS = 6

    def __init__(self, progress):
        import sys

        if progress is None:
            progress = sys.stderr.isatty()
        self._bar = None
        if progress:
            from tqdm.auto import tqdm

            self._bar = tqdm(total=self._STEPS, desc="report", unit="step")
        self._started = False

    def step(self, what):
        if self._bar is None:
            return
        if self._started:
            self._bar.update(1)
        self._started = True
        self._bar.set_description(f"report: {what}")

    def close(self):
        if self._bar is not None:
            self._bar.update(self._bar.total - self._bar.n)
            self._bar.close()
