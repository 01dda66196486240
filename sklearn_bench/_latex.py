"""LaTeX (booktabs) writing: escaping, a table of any DataFrame, and the table of
data sets × learners with its caption, which both ``BenchmarkResult.to_latex``
(:mod:`sklearn_bench.results`) and the report (:mod:`sklearn_bench.report`) fill
with their numbers. This module imports nothing of the package but ``_text``."""

import math
import re
from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd

from ._text import short_label, visible_controls

# The words the caption uses for each method of ``BenchmarkResult.paired_test``.
PAIRED_TEST_NAMES = {
    "t": "paired t-test on the replicates (conditional on the learning sample)",
    "corrected_t": (
        "corrected resampled t-test on the fold or split scores (variance "
        "inflated by 1/J + n_test/n_train)"
    ),
    "5x2cv": "5×2cv paired t-test",
    "5x2cv_f": "combined 5×2cv F-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "permutation": "paired permutation test",
    "mcnemar": "McNemar's test",
}


# "<", ">" and "|" are typeset as ¡ ¿ | under the OT1 font encoding otherwise;
# "[" after a row's "\\" would open its optional argument ("Illegal unit of
# measure"): braced, brackets are plain text anywhere.
_SPECIALS = {c: "\\" + c for c in "&%$#_{}"} | {"[": "{[}", "]": "{]}"}
_WORDS = ("asciitilde", "asciicircum", "less", "greater", "bar")  # \textless{}, ...
_SPECIALS |= {c: rf"\text{w}{{}}" for c, w in zip("~^<>|", _WORDS, strict=True)}
_SPECIAL_RE = re.compile(r"[\\&%$#_{}~^<>|\[\]]")
# Beyond Latin-1 and Latin Extended-A, pdfLaTeX's utf8 input has no glyphs
# (CJK, emoji, most symbols): such a character is written as its code point.
_LAST_TYPESET = 0x17F
# Characters pdfLaTeX does not typeset in text mode from UTF-8 input.
_UNICODE = {
    "α": r"$\alpha$",
    "Δ": r"$\Delta$",
    "σ": r"$\sigma$",
    "χ": r"$\chi$",
    "−": "$-$",
    "×": r"$\times$",
    "±": r"$\pm$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "→": r"$\to$",
    "∞": r"$\infty$",
    "ρ": r"$\rho$",
    "δ": r"$\delta$",
    "μ": r"$\mu$",
    "≈": r"$\approx$",
    "–": "--",
    "—": "---",
    "…": r"\ldots{}",  # the ellipsis of a name cut to one length
}
MARKER = r"$^{\dagger}$"
# Above this many columns a table is scaled to the text width (needs graphicx).
_MAX_NARROW = 4


def escape_latex(text):
    r"""``text`` that typesets with pdfLaTeX: LaTeX's specials escaped, the Greek
    letters and dashes the report uses as LaTeX, runs of white space as one space,
    controls as visible escapes, a character beyond Latin Extended-A as
    ``[U+4E2D]``."""

    def one(match):
        char = match.group(0)
        return r"\textbackslash{}" if char == "\\" else _SPECIALS[char]

    text = visible_controls(re.sub(r"\s+", " ", str(text)))
    out = _SPECIAL_RE.sub(one, text)
    for char, tex in _UNICODE.items():
        out = out.replace(char, tex)
    return "".join(
        c if ord(c) <= _LAST_TYPESET else f"{{[}}U+{ord(c):04X}{{]}}" for c in out
    )


def latex_label(name):
    r"""A name (learner, data set, pair) as a table cell: cut to one length
    with an ellipsis (:func:`~sklearn_bench._text.short_label`), then
    :func:`escape_latex`."""
    return escape_latex(short_label(name))


def latex_cell(centre, spread, stat, digits):
    """A cell of the performance table: ``mean ± sd`` or ``median [q1, q3]``;
    the mean alone where the spread is not finite (one replicate)."""
    if not math.isfinite(centre):
        return "--"
    if not all(map(math.isfinite, [spread] if stat == "mean" else spread)):
        return f"{centre:.{digits}f}"
    if stat == "mean":
        return f"{centre:.{digits}f} $\\pm$ {spread:.{digits}f}"
    low, high = spread
    return f"{centre:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


@dataclass(frozen=True)
class PerformanceTable:
    """The numbers of the table of data sets × learners, which
    :func:`performance_latex` only writes. ``centre``/``spread``: data sets ×
    learners (× 2 quartiles); ``bold``/``worse``: ``(data set, learner)`` pairs;
    ``tests``: the methods of ``paired_test`` that ran; ``ranked``: the data
    sets of ``average_ranks``."""

    metric: str
    greater_is_better: bool
    stat: str
    learners: tuple
    datasets: tuple
    centre: np.ndarray
    spread: np.ndarray
    reps: tuple
    bold: frozenset
    worse: frozenset
    tests: tuple
    adjusted: str
    alpha: float
    untested: tuple
    ranked: tuple
    average_ranks: tuple


def _check_digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, Integral):
        raise TypeError(f"`digits` must be an integer; got {digits!r}.")
    if not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be between 0 and 15; got {digits!r}.")
    return int(digits)


# The first line of every table: what the including document needs.
_PREAMBLE_NOTE = (
    r"% Needs \usepackage{booktabs} and \usepackage{graphicx} (\resizebox) in "
    r"the preamble, and \usepackage[utf8]{inputenc} with pdfLaTeX before 2018."
)


def performance_latex(table, *, digits=3, caption=None, label="tab:performance"):
    r"""The booktabs table of a :class:`PerformanceTable`: the best of each
    data set in bold, :data:`MARKER` on a learner worse than it, the average
    ranks; ``caption`` (LaTeX, not escaped) replaces :func:`performance_caption`."""
    learners, rows = table.learners, []
    centre, spread = table.centre.tolist(), table.spread.tolist()  # floats
    for i, dataset in enumerate(table.datasets):
        cells = []
        for j, m in enumerate(learners):
            text = latex_cell(centre[i][j], spread[i][j], table.stat, digits)
            if (dataset, m) in table.bold:
                text = rf"\textbf{{{text}}}"
            if (dataset, m) in table.worse:
                text += MARKER
            cells.append(text)
        rows.append(latex_label(dataset) + " & " + " & ".join(cells) + r" \\")
    if table.ranked:
        ranks = " & ".join(f"{r:.2f}" for r in table.average_ranks)
        rows += [r"\midrule", "Average rank & " + ranks + r" \\"]
    header = "Data set & " + " & ".join(latex_label(m) for m in learners)
    if caption is None:
        caption = performance_caption(table)
    return _table(caption, label, "l" + "c" * len(learners), header, rows)


def _table(caption, label, align, header, rows):
    """A booktabs ``table`` environment (``caption`` in LaTeX), scaled to the
    text width above :data:`_MAX_NARROW` data columns."""
    wide = len(align.lstrip("l")) > _MAX_NARROW
    lines = [
        _PREAMBLE_NOTE,
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + caption + "}",
        *([r"\label{" + label + "}"] if label else []),
        *([r"\resizebox{\textwidth}{!}{%"] if wide else []),
        r"\begin{tabular}{" + align + "}",
        r"\toprule",
        header + r" \\",
        r"\midrule",
        *rows,
        r"\bottomrule",
        r"\end{tabular}" + ("}" if wide else ""),
        r"\end{table}",
    ]
    return "\n".join(lines) + "\n"


def _names(names, limit=10):
    """Escaped names in words, the first ``limit`` and how many more."""
    shown = [latex_label(d) for d in names[:limit]]
    if len(names) > limit:
        return ", ".join(shown) + f" and {len(names) - limit} more"
    return shown[0] if len(shown) == 1 else ", ".join(shown[:-1]) + " and " + shown[-1]


def performance_caption(table):
    """The caption of :func:`performance_latex` (LaTeX): what each cell is,
    the test behind the markers as it ran, the data sets not every learner
    could be tested on and the data sets of the rank row, by name."""
    reps = table.reps
    reps_text = f"{reps[0]}" if len(reps) == 1 else f"{reps[0]}--{reps[-1]}"
    if table.stat == "mean":
        what = "Mean" if reps == (1,) else "Mean $\\pm$ standard deviation"
    else:
        what = "Median [first quartile, third quartile]"
    caption = (
        f"{what} of {escape_latex(table.metric)} "
        f"({'higher' if table.greater_is_better else 'lower'} is better) over the "
        f"{reps_text} replicate{'s' * (reps != (1,))} of each data set"
    )
    if 1 in reps:
        caption += (
            " (one replicate: no spread shown)"
            if reps == (1,)
            else "; a cell of one replicate shows its value alone"
        )
    caption += ". Bold: the best learner on the data set (ties all bold)."
    if table.tests:
        test = " / ".join(
            sorted(PAIRED_TEST_NAMES.get(t, f"{t} test") for t in table.tests)
        )
        caption += (
            f" {MARKER}: significantly worse than the best on that data set by a "
            f"two-sided {escape_latex(test)}, {escape_latex(table.adjusted)} over "
            f"the other learners of the data set, at $\\alpha = {table.alpha:g}$."
        )
        if table.untested:
            caption += (
                " Not every learner could be tested on "
                + _names(table.untested)
                + " (missing replicates or no variation)."
            )
    else:
        caption += " No learner could be tested against the best on any data set."
    if table.ranked:
        left_out = [d for d in table.datasets if d not in set(table.ranked)]
        caption += (
            f" Last row: average rank (1 = best) over the {len(table.ranked)} data "
            f"set{'s' * (len(table.ranked) > 1)} on which every learner has every "
            "replicate (Demšar 2006)"
            + (f"; {_names(left_out)} left out." if left_out else ".")
        )
    return caption


def latex_frame(frame, *, caption, label=None, digits=3, index=True):
    """A plain booktabs table of a DataFrame (the report's tables): floats with
    ``digits`` decimals (``--`` where not finite), anything else as a name
    (:func:`latex_label`: cut to one length, escaped);
    ``caption`` is plain text; ``index``: the index is the first column."""
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"`frame` must be a DataFrame; got {type(frame).__name__}.")
    if not isinstance(caption, str):
        raise TypeError(f"`caption` must be a str; got {caption!r}.")
    digits = _check_digits(digits)
    columns = ([frame.index.name or ""] if index else []) + [str(c) for c in frame]
    labels = {}  # a name that repeats (learners, data sets) escaped once

    def name_cell(value):
        try:
            return labels[type(value), value]
        except KeyError:
            out = labels[type(value), value] = latex_label(value)
        except TypeError:  # not hashable
            out = latex_label(value)
        return out

    def cell(value):
        if isinstance(value, float | np.floating):
            return f"{value:.{digits}f}" if value - value == 0 else "--"
        if isinstance(value, pd.Timestamp):
            return escape_latex(value.isoformat())
        return name_cell(value)

    # the values iterrows gives (a column of ints among floats is floats; a
    # datetime a Timestamp), formatted a column at once
    dates = any(pd.api.types.is_datetime64_any_dtype(k) for k in frame.dtypes)
    values = (frame.astype(object) if dates else frame).to_numpy()
    spec, cells = f".{digits}f", []
    for j, kind in enumerate(frame.dtypes):
        column = values[:, j].tolist()
        if kind == "float64":  # floats only (most cells)
            cells.append([format(v, spec) if v - v == 0 else "--" for v in column])
        else:
            cells.append(list(map(cell, column)))
    if index:
        cells.insert(0, list(map(name_cell, frame.index)))
    rows = [" & ".join(row) + r" \\" for row in zip(*cells, strict=True)]
    header = " & ".join(escape_latex(c) for c in columns)
    # numbers right-aligned, names (text columns) left-aligned as the index
    align = "l" * index + "".join(
        "r" if pd.api.types.is_numeric_dtype(kind) else "l" for kind in frame.dtypes
    )
    return _table(escape_latex(caption), label, align, header, rows)
