"""One self-contained HTML report of a benchmark experiment, and its figures."""

import html
import os
import platform
import sys
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pandas as pd
from tqdm.auto import tqdm

from .._io import (
    make_folder,
    refuse_links_below,
    write_bytes,
    write_csv,
    write_text,
    writes_into,
)
from .._version import __version__
from ..analysis import Analysis
from ..analysis._bottom_line import (
    DISAGREEMENTS_TITLE,
    MORE_TITLE,
    adjusted_interval_words,
)
from ..analysis._format import fmt_names, fmt_p_equals
from ..analysis._records import CITATIONS, SIGN_CONVENTION
from ._bayesian import bayesian_html
from ._blocks import (
    MAX_DETAIL_ROWS,
    MAX_SUMMARY_ROWS,
    _figure_html,
    _image_bytes,
    _interval_texts,
    _not_run,
    _section_not_run,
    _table,
)
from ._figures import make_figures
from ._generalization import CSV as GENERALIZATION_CSV
from ._generalization import generalization_html
from ._latex import write_latex_tables
from ._leaderboard import leaderboard_section
from ._methods import _paragraph, methods_record, settings_table, write_methods
from ._pairwise import pairwise_html
from ._sequential import sequential_html
from ._summary import iman_davenport_words

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


def _now():
    """``SOURCE_DATE_EPOCH`` when set (reproducible builds: two runs then write
    the same page), else the time now; UTC."""
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch is None:
        return datetime.now(timezone.utc)
    try:
        return datetime.fromtimestamp(int(epoch), timezone.utc)
    except (ValueError, OverflowError, OSError):
        raise ValueError(
            f"SOURCE_DATE_EPOCH must be seconds since 1970 (an integer); got {epoch!r}."
        ) from None


def _versions():
    out = {"sklearn_bench": __version__, "python": platform.python_version()}
    for name in _VERSION_PACKAGES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:  # pragma: no cover - all installed in tests
            out[name] = "not installed"
    return out


_RATIO = "n_test/n_train of the corrected t"


def _datasets_table(analysis):
    """The data-set table of the page: problem, sizes, replicates and the
    ``n_test/n_train`` of the corrected t."""
    table = analysis.datasets.rename(
        columns={
            "n_train_median": "median n_train",
            "n_test_median": "median n_test",
            "test_train_ratio": _RATIO,
        }
    )
    shown = ["source", "problem", "n", "features", "median n_train", "median n_test"]
    return table[[c for c in [*shown, "replicates", _RATIO] if c in table]]


def _what_was_run(analysis, datasets, versions):
    missing = analysis.n_missing_tasks
    info = analysis.provenance
    # Every parameter that is not at its default or differs between learners.
    learners = analysis.learner_table.rename_axis("name")
    recorded = info.get("sklearn_bench_version")
    left_out = analysis.datasets_left_out
    counted = f"{len(analysis.datasets)} data sets" + (
        f" ({len(analysis.datasets_across)} in the analyses across data sets: "
        f"{html.escape(fmt_names(left_out))} left out for failed or missing "
        'tasks, see <a href="#failures">Failures</a>)'
        if left_out
        else ""
    )
    parts = [
        '<section id="run"><h2>What was run</h2>',
        f"<p>{len(analysis.learners)} learners × {counted}; "
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
    if analysis.within_ratio:
        parts.append(
            f'<p class="muted" id="ratio">{_RATIO}: '
            f"{html.escape(analysis.within_ratio)}.</p>"
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
            adjusted_interval_words(
                analysis.confidence_level, pairs["adjusted_level"].iloc[0], len(pairs)
            )
            + " CI"
            if len(pairs) > 1
            else f"{level} CI (one pair: no adjustment)"
        )
        table = pd.DataFrame(
            {
                "estimate": pairs["estimate"],
                f"unadjusted {level} CI": _interval_texts(pairs),
                adjusted_words: _interval_texts(pairs, "adjusted_"),
                "p": pairs["pvalue"],
                "Holm p": pairs["adjusted_pvalue"],
                "n": pairs["n"],
            },
            index=pairs.index.rename("comparison"),
        )
        parts.append(
            _table(
                table,
                f"Pairwise differences, {analysis.primary_test} over "
                f"{analysis.blocks}"
                + (", Holm-adjusted p (Holm 1979)" if len(pairs) > 1 else ""),
                table_id="table-pairs",
                csv="pairwise_intervals.csv",
                max_rows=MAX_SUMMARY_ROWS,
            )
        )
    elif "pairs" in analysis.skipped:
        parts.append(_not_run("Pairwise intervals", analysis.skipped["pairs"]))
    if len(analysis.within) and "effects" in analysis.plan.analyses:
        within = analysis.within
        table = pd.DataFrame(
            {
                "data set": within["dataset"],
                "learner": within["learner"],
                "reference (best here)": within["reference"],
                "difference (reference − learner)": within["estimate"],
                f"{level} CI": _interval_texts(within),
                "p": within["pvalue"],
                "n": within["n"],
                "test": within["method"],
            }
        )
        parts.append(
            _table(
                table,
                "Within each data set: each learner against the best one there "
                f"({_within_words(within)})",
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
    else:
        exact = fr.null_distribution == "exact"
        f_text = iman_davenport_words(fr, digits=3)
        parts.append(
            f"<p>{html.escape(fr.method)} over {fr.n_blocks} "
            f"{analysis.blocks}: χ²<sub>F</sub> = {fr.statistic:.3f} "
            f"({fmt_p_equals(fr.pvalue)}, "
            f"{'exact permutation distribution' if exact else 'χ² approximation'}"
            f"); {f_text} (Friedman 1937; Iman &amp; Davenport 1980; Demšar "
            f"2006). {html.escape(fr.null_hypothesis)}"
            f" Nemenyi critical difference (α = {analysis.alpha:g}): "
            f"{analysis.critical_difference:.3f} ranks (Nemenyi 1963)."
            + (
                _CONDITIONAL.format(html.escape(analysis.primary_test))
                if analysis.blocks != "data sets"
                else ""
            )
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
                    f"The {analysis.posthoc_title} post-hoc test",
                    analysis.skipped.get("posthoc", "not requested"),
                )
            )
        else:
            parts.append(
                _table(
                    analysis.posthoc,
                    f"{analysis.posthoc_title} post-hoc comparisons",
                    table_id="table-posthoc",
                    index=False,
                    csv=f"{analysis.plan.posthoc}.csv",
                    max_rows=MAX_SUMMARY_ROWS,
                )
            )
    parts.append("</section>")
    return "".join(parts)


_WTL_HEAD = '<section id="win-tie-loss"><h2>Wins, ties and losses</h2>'
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
    a, b = pw.pair
    parts = [
        head,
        f"<p>Comparing the two best learners, <b>{html.escape(a)}</b> and "
        f"<b>{html.escape(b)}</b>: their per-data-set differences have standard "
        f"deviation σ = {pw.sigma:.4g} over this study's J = "
        f"{pw.n_datasets} data sets.</p>",
    ]
    if pw.delta is not None:
        parts.append(
            f'<p id="power-delta">For Δ = <b>{pw.delta:.4g}</b> '
            f"({_DELTA_SOURCE[pw.delta_source]}), fixed before looking at the "
            f"results, the {html.escape(pw.test_words)} across the J = "
            f"{pw.n_datasets} data sets has power <b>{pw.power:.2f}</b>; a "
            f"study with power {pw.target_power:.0%} would need "
            f"<b>J = {pw.n_needed}</b> data sets (Boulesteix et al. 2015, "
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
    if pw.posthoc_power is not None:
        parts.append(
            f'<p class="muted" id="power-posthoc">Secondary, <i>post-hoc power</i>: '
            f"at the observed difference {abs(pw.observed_difference):.4g} the "
            f"power is {pw.posthoc_power:.2f} (J = {pw.posthoc_n_needed} "
            "for 80%). Post-hoc power is a function of the p-value and says "
            "nothing the interval does not; do not read it as evidence.</p>"
        )
    parts.append(figures)
    parts.append("</section>")
    return "".join(parts)


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
        parts.append(f'<p class="note">{html.escape(str(note))}</p>')
    parts.append("</section>")
    return "".join(parts)


def _within_words(within):
    """What the tests of the within-data-set table are, in words."""
    if (within["method"] == "corrected_t").any():
        return (
            "the default test there: the corrected resampled t on the run's folds "
            "or splits, Nadeau & Bengio 2003 and Bouckaert & Frank 2004, a "
            "heuristic correction for the training rows they share, with the "
            f"{_RATIO.removesuffix(' of the corrected t')} of the data-set table; "
            "n counts the folds or splits"
        )
    return "the paired t over the replicates; n counts them"


_CONDITIONAL = (
    " Conditional on this learning sample: the replicates share training rows, "
    "so this test answers a question about this sample, not about new data of "
    "its kind (a sensitivity analysis; the bottom line uses the {})."
)


@writes_into("out_dir")
def write_report(
    analysis,
    out_dir,
    *,
    title="Benchmark report",
    figure_formats=("svg",),
    sources=None,
    progress=None,
):
    """Write ``report.html``, its figures and tables for an analysis into
    ``out_dir``: the page (self-contained, works offline), ``figures/``,
    ``tables/`` (LaTeX and every table whole as CSV), ``methods.md`` and
    ``methods.tex``. Renders the Analysis, computes nothing; needs matplotlib.
    Two runs write the same bytes but for the page's time stamp, which is
    ``SOURCE_DATE_EPOCH`` when that is set.

    Parameters
    ----------
    analysis : Analysis
        Of :func:`~sklearn_bench.analysis.analyse`.
    out_dir : str or Path
        Created if needed.
    title : str, default="Benchmark report"
    figure_formats : tuple of str, default=("svg",)
        The files of each figure in ``out_dir/figures``; the page embeds the
        SVG (drawn once), a raster format is drawn only when asked for.
    sources : dict, default=None
        ``{setting: where it came from}`` (e.g. ``"the run's config"``,
        ``"command line"``) for the settings table of the report and the
        methods paragraph; a setting not named is ``"default"`` when it has its
        default value, ``"given"`` otherwise.
    progress : bool, default=None
        Show the report's steps as a progress bar on stderr (tqdm); ``None``
        shows it when stderr is a terminal.
    Returns
    -------
    list of Path
        The files written (``report.html`` first).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.report import write_report
    >>> df = pd.DataFrame({"data": ["a", "a", "b", "b", "c", "c"],
    ...                    "model": ["x", "y"] * 3,
    ...                    "error": [0.10, 0.12, 0.30, 0.33, 0.05, 0.09]})
    >>> result = BenchmarkResult.from_frame(
    ...     df, dataset="data", learner="model", value="error",
    ...     greater_is_better=False)
    >>> analysis = analyse(result, AnalysisPlan(alpha=0.1))
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     written = write_report(analysis, tmp)
    ...     html = written[0].read_text()
    >>> written[0].name, html.count("<img")
    ('report.html', 9)
    """
    if not isinstance(analysis, Analysis):
        raise TypeError(
            "`analysis` must be an Analysis (from sklearn_bench.analysis.analyse);"
            f" got {type(analysis).__name__}."
        )
    if not isinstance(out_dir, str | os.PathLike):
        raise TypeError(f"`out_dir` must be a folder path; got {out_dir!r}.")
    from matplotlib.backend_bases import FigureCanvasBase

    known = FigureCanvasBase.get_supported_filetypes()
    if not isinstance(figure_formats, list | tuple) or not all(
        isinstance(f, str) and f in known for f in figure_formats
    ):
        raise ValueError(
            f"`figure_formats` must be a list drawn from {sorted(known)}; got "
            f"{figure_formats!r}."
        )

    # before drawing: matplotlib reads SOURCE_DATE_EPOCH too, and less clearly
    stamp = _now().strftime("%Y-%m-%d %H:%M UTC")
    out = Path(out_dir)
    refuse_links_below(out)
    fig_dir = out / "figures"
    make_folder(fig_dir)
    if progress is None:
        progress = sys.stderr.isatty()
    # the report's steps as a tqdm bar, as the runner shows its tasks
    steps = tqdm(total=3, desc="report: figures", unit="step", disable=not progress)
    analyses = analysis.plan.analyses
    settings = settings_table(analysis, sources)
    versions = _versions()
    drawn = _draw(analysis, figure_formats)
    steps.update(1)
    steps.set_description("report: tables")
    datasets = _datasets_table(analysis)
    write_latex_tables(analysis, out / "tables")
    _write_csv_tables(out / "tables", analysis, datasets)
    leaderboard = leaderboard_section(analysis)
    sequential = sequential_html(analysis)
    before_figures = [
        _what_was_run(analysis, datasets, versions),
        _settings(settings),
        _effects(analysis),
        generalization_html(analysis),
        _tests(analysis),
    ]
    bayesian = bayesian_html(analysis) if "bayesian" in analyses else ""
    rendered, cites = {}, set(analysis.citations)
    for key, (fig_title, caption, files, fig_cites) in drawn.items():
        cites.update(fig_cites)
        for fmt in figure_formats:
            write_bytes(fig_dir / f"{key}.{fmt}", files[fmt])
        rendered[key] = _figure_html(key, fig_title, caption, files["svg"])

    def fig(*keys):
        return "".join(rendered[k] for k in keys if k in rendered)

    steps.update(1)
    steps.set_description("report: page")
    distributions = [k for k in rendered if k.startswith("distribution_")]
    bottom = "".join(f"<p>{html.escape(s)}</p>" for s in analysis.bottom_line.sentences)
    if analysis.bottom_line.more:
        bottom += f"<h3>{MORE_TITLE}</h3>" + "".join(
            f"<p>{html.escape(s)}</p>" for s in analysis.bottom_line.more
        )
    disagree = "".join(
        f'<li class="disagreement">{html.escape(d.sentence)}</li>'
        for d in analysis.disagreements
    )
    sections = [
        f'<section id="bottom-line"><h2>Bottom line</h2>{bottom}</section>',
        f'<section id="disagreements"><h2>{DISAGREEMENTS_TITLE}</h2><ul>{disagree}'
        "</ul></section>"
        if disagree
        else "",
        # Sections that sum a large study up go here, right after the bottom
        # line and before the per-data-set detail.
        leaderboard,
        sequential,
        *before_figures,
        pairwise_html(
            analysis,
            fig("pairwise_significance")
            or _skipped_figure(analysis, "pairwise_significance"),
        ),
        bayesian,
        '<section id="figures"><h2>Figures</h2>',
        fig("critical_difference") or _skipped_figure(analysis, "critical_difference"),
        fig(*distributions, "forest"),
        "</section>",
        _power(analysis, fig("power", "datasets_needed")),
        fig("win_tie_loss")
        or _section_not_run(
            analysis, "win_tie_loss", _WTL_HEAD, "The win/tie/loss map"
        ),
        _failures(analysis),
    ]
    record = methods_record(analysis, versions=versions, settings=settings)
    paragraph = " ".join(_paragraph(record))
    sections.append(  # the page holds what its text calls "the methods paragraph"
        f'<section id="methods"><h2>Methods</h2><p>{html.escape(paragraph)}</p>'
        '<p class="muted">Also in methods.md and methods.tex.</p></section>'
    )
    cites.update(record["citations"])
    cites.update(_section_citations(analysis, leaderboard, sequential))
    sections.append(_references(cites))
    nav = "".join(
        f'<a href="#{anchor}">{label}</a>'
        for anchor, label in [
            ("bottom-line", "Bottom line"),
            *([("disagreements", "Disagreements")] if disagree else []),
            *(
                [("sequential", "Sequential")]
                if "sequential" in analysis.provenance
                else []
            ),  # fmt: skip
            ("run", "What was run"),
            ("effects", "Effect sizes"),
            ("generalization", "Each learner"),
            ("tests", "Tests"),
            ("pairwise", "Pairwise"),
            ("bayesian", "Bayesian"),
            ("figures", "Figures"),
            ("power", "Power"),
            ("failures", "Failures"),
            ("methods", "Methods"),
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
    methods = write_methods(analysis, out, record)
    steps.update(1)
    steps.close()
    return [out / "report.html", *methods]


def _draw(analysis, formats):
    """``{key: (title, caption, {format: bytes})}`` of the figures
    :func:`make_figures` makes, drawn as SVG (which the page embeds) and in
    each of ``formats``."""
    import matplotlib.pyplot as plt

    # up to 20 distributions and the other figures are open at once, then all
    # closed below: matplotlib's "More than 20 figures" warning is noise here
    with plt.rc_context({"figure.max_open_warning": 0}):
        figures = make_figures(analysis)
    drawn = {}
    try:
        for key, (title, caption, fig, cites) in figures.items():
            # the SVG is drawn once: the page embeds the bytes of figures/*.svg
            # (the other formats keep its layout: _image_bytes removes the engine)
            files = {"svg": _image_bytes(fig)}
            for fmt in formats:
                if fmt not in files:
                    files[fmt] = _image_bytes(fig, fmt)
            drawn[key] = (title, caption, files, cites)
    finally:
        for _, _, fig, _ in figures.values():
            plt.close(fig)
    return drawn


# The works the prose of each section cites, when the section shows it.
_SEQUENTIAL_CITES = ("waudbysmith2024", "grunwald2024", "maron1994")
_FRIEDMAN_CITES = ("friedman1937", "iman1980", "demsar2006", "nemenyi1963")
_PAIRWISE_CITES = ("wilcoxon1945", "demsar2006", "benavoli2016", "hodges1963")


def _section_citations(analysis, leaderboard, sequential):
    """The works the prose of the page's sections cites (their numbers' tests
    are in ``analysis.citations``)."""
    a, keys = analysis, {"berrar2013"}  # the effect sizes' introduction
    if len(a.pairs) > 1:
        keys.add("holm1979")
    within = a.within
    if "effects" in a.plan.analyses and (within["method"] == "corrected_t").any():
        keys.update(("nadeau2003", "bouckaert2004"))
    if a.friedman is not None:
        keys.update(_FRIEDMAN_CITES)
    if a.pairwise is not None:
        keys.update(_PAIRWISE_CITES)
    if "bayesian" in a.plan.analyses:
        keys.update(("benavoli2017", "corani2015"))
        if a.plan.bayesian == "hierarchical":
            keys.add("corani2017")
        if a.ranking is not None:
            keys.update(("calvo2018", "caron2012"))
    if a.power is not None:
        keys.add("boulesteix2015")
    if leaderboard:
        keys.add("mogstad2024")
    if sequential:
        keys.update(_SEQUENTIAL_CITES)
    return keys


def _references(keys):
    """The reference list of the page: the works its sections cite (one entry
    each; the methods paragraph has its own list)."""
    if not keys:
        return ""
    items = "".join(f"<li>{html.escape(CITATIONS[k])}</li>" for k in sorted(keys))
    return f'<section id="references"><h2>References</h2><ul>{items}</ul></section>'


def _skipped_figure(analysis, key):
    reason = analysis.skipped.get(key)
    if reason is None:
        return ""
    what = str(reason).split(" is drawn")[0].removeprefix("the ").capitalize()
    return f'<div id="fig-{key}">' + _not_run(what, reason) + "</div>"


def _write_csv_tables(folder, analysis, datasets):
    """Every table of the page, whole, as CSV beside it (the page shows the
    first rows of long ones)."""
    make_folder(folder)
    write_csv(datasets, folder / "datasets.csv")
    write_csv(analysis.mean.rename_axis("dataset"), folder / "mean.csv")
    write_csv(analysis.within, folder / "within_dataset_intervals.csv", index=False)
    if len(analysis.pairs):
        write_csv(analysis.pairs, folder / "pairwise_intervals.csv")
    if analysis.generalization is not None:
        write_csv(analysis.generalization, folder / GENERALIZATION_CSV, index=False)
    if analysis.posthoc is not None:
        name = f"{analysis.plan.posthoc}.csv"
        write_csv(analysis.posthoc, folder / name, index=False)
    if analysis.pairwise is not None:
        frame = analysis.pairwise.to_frame()
        write_csv(frame, folder / "pairwise_tests.csv", index=False)
    if analysis.bayesian is not None and len(analysis.bayesian):
        write_csv(analysis.bayesian, folder / "bayesian.csv", index=False)
    if not analysis.failures.empty:
        write_csv(analysis.failures, folder / "failures.csv", index=False)
    if analysis.leaderboard is not None:
        write_csv(analysis.leaderboard.board, folder / "leaderboard.csv")
        write_csv(analysis.leaderboard.matrix, folder / "win_rate_matrix.csv")
