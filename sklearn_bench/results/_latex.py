"""LaTeX (booktabs) tables of a benchmark result, for the comparison section of a
paper: data sets × learners, the best in bold, significance markers, average
ranks, and a caption that says what was tested; and the plain writer under it
(escaping, a booktabs table of any DataFrame), which the report uses too."""

import re
from numbers import Integral

import numpy as np
import pandas as pd

from .._text import short_label, visible_controls
from .._validation import check_alpha, check_choice

__all__ = ["escape_latex", "latex_frame", "latex_table"]

# The words the caption uses for each method of ``BenchmarkResult.paired_test``.
PAIRED_TEST_NAMES = {
    "t": "paired t-test on the replicates (conditional on the learning sample)",
    "corrected_t": (
        "corrected resampled t-test on the fold or split scores (variance "
        "inflated by n_test/n_train)"
    ),
    "5x2cv": "5×2cv paired t-test",
    "5x2cv_f": "combined 5×2cv F-test",
    "wilcoxon": "Wilcoxon signed-rank test",
    "sign": "sign test",
    "permutation": "paired permutation test",
    "mcnemar": "McNemar's test",
}


def _test_name(method):
    return PAIRED_TEST_NAMES.get(method, f"{method} test")


_SPECIALS = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    # typeset as ¡ ¿ | under the OT1 font encoding otherwise
    "<": r"\textless{}",
    ">": r"\textgreater{}",
    "|": r"\textbar{}",
    # "[" after a row's "\\" would open its optional argument ("Illegal unit of
    # measure"); braced, brackets are plain text anywhere
    "[": "{[}",
    "]": "{]}",
}
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
    r"""``text`` with LaTeX's special characters escaped (``_`` → ``\_``, ``&``,
    ``%``, ``#``, ``$``, braces, brackets, ``~``, ``^``, ``<``, ``>``, ``|``,
    backslash) and the Greek letters and dashes the report uses written as
    LaTeX, so that it typesets with pdfLaTeX. Runs of white space (a blank line
    in a name would end a caption's paragraph) become one space; other control
    characters (ESC, BEL) are written as visible escapes (``\x1b``); a
    character pdfLaTeX cannot typeset from UTF-8 input (CJK, emoji: beyond
    Latin Extended-A) is written as its code point, ``[U+4E2D]``, so that the
    table compiles and the name stays recognisable. Brackets are braced
    (``{[}``), so that a cell that starts with one is not read as the optional
    argument of the row end ``\\``.

    Examples
    --------
    >>> from sklearn_bench.report import escape_latex
    >>> print(escape_latex("dlda_k10 & 5% #1"))
    dlda\_k10 \& 5\% \#1
    >>> print(escape_latex("a<b\n\nc 中"))
    a\textless{}b c {[}U+4E2D{]}
    """

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
    :func:`escape_latex`.

    Examples
    --------
    >>> from sklearn_bench.results._latex import latex_label
    >>> print(latex_label("[0.5em] $x$"))
    {[}0.5em{]} \$x\$
    """
    return escape_latex(short_label(name))


def _cell(centre, spread, stat, digits):
    if not np.isfinite(centre):
        return "--"
    if stat == "mean":
        return f"{centre:.{digits}f} $\\pm$ {spread:.{digits}f}"
    low, high = spread
    return f"{centre:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _significance(result, dataset, best, learners, *, metric, method, adjust, paired):
    """Adjusted p-values of each learner against the best on one data set, the
    estimates, the test's name, and the learners that could not be tested."""
    from ..stats import adjust_pvalues

    kwargs = {} if method is None else {"method": method}
    pvalues, estimates, untested, names = {}, {}, [], set()
    for learner in learners:
        if learner == best:
            continue
        try:
            if paired is not None and method is None:
                res = paired(learner, best, dataset)
            else:
                res = result.paired_test(
                    learner, best, dataset=dataset, metric=metric, **kwargs
                )
        except ValueError:
            untested.append(learner)
            continue
        if not np.isfinite(res.pvalue):
            untested.append(learner)
            continue
        pvalues[learner], estimates[learner] = float(res.pvalue), res.estimate
        names.add(getattr(res, "method", method or "t"))
    if pvalues:
        adjusted = adjust_pvalues(np.array(list(pvalues.values())), adjust=adjust)
        pvalues = dict(zip(pvalues, adjusted, strict=True))
    return pvalues, estimates, untested, names


def _check_digits(digits):
    if isinstance(digits, bool) or not isinstance(digits, Integral):
        raise TypeError(f"`digits` must be an integer; got {digits!r}.")
    if not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be between 0 and 15; got {digits!r}.")
    return int(digits)


def _check_adjust(adjust):
    """``adjust`` as a correction of :func:`~sklearn_bench.stats.adjust_pvalues`
    for comparisons with the best (not those of all pairs)."""
    from ..stats import ADJUST_METHODS

    pairs = ("shaffer", "bergmann_hommel", "single_step")
    return check_choice(adjust, [a for a in ADJUST_METHODS if a not in pairs], "adjust")


# The first line of every table: what the including document needs.
_PREAMBLE_NOTE = (
    r"% Needs \usepackage{booktabs} and \usepackage{graphicx} (\resizebox) in "
    r"the preamble, and \usepackage[utf8]{inputenc} with pdfLaTeX before 2018."
)


def latex_table(
    result,
    *,
    metric=None,
    stat="mean",
    method=None,
    adjust="holm",
    alpha=0.05,
    digits=3,
    caption=None,
    label="tab:benchmark",
    paired=None,
):
    r"""A booktabs table of data sets × learners for a paper, with its caption.

    Each cell is the mean ± standard deviation (``stat="mean"``) or the median
    [first quartile, third quartile] (``stat="median"``) of the learner's
    performance over the replicates of the data set. The best value of each
    data set is in bold. A dagger marks a learner significantly worse than the
    best on that data set: a two-sided paired test over the replicates
    (``result.paired_test(learner, best, dataset=...)``, its default method
    unless ``method`` is given; Hothorn et al. 2005), the ``k − 1``
    p-values of the data set adjusted by ``adjust`` (Holm 1979), at level
    ``alpha``. The last row is the average rank over the data sets on which
    every learner has a result (1 = best, ties share the mean rank; Demšar
    2006). The caption says all of this, with the test that was run.

    Parameters
    ----------
    result : BenchmarkResult
    metric : str, default=None
        The result's first metric by default.
    stat : {"mean", "median"}, default="mean"
    method : str, default=None
        A method of :meth:`BenchmarkResult.paired_test`; ``None`` is its
        default.
    adjust : str, default="holm"
        A method of :func:`~sklearn_bench.stats.adjust_pvalues`.
    alpha : float, default=0.05
    digits : int, default=3
    caption : str, default=None
        Replaces the generated caption (LaTeX, not escaped).
    label : str or None, default="tab:benchmark"
    paired : callable, default=None
        ``paired(a, b, dataset)`` returning the paired test result of learner
        ``a`` against the best ``b`` on ``dataset``, used when ``method`` is
        ``None`` (a report passes the tests it already ran); ``None`` calls
        ``result.paired_test``.

    Returns
    -------
    str
        A ``table`` environment; needs ``\usepackage{booktabs}`` (and
        ``\usepackage{graphicx}`` above 4 learners: the tabular is scaled to
        the text width).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> df = pd.DataFrame({
    ...     "data": ["a"] * 6 + ["b"] * 6, "model": ["x_1", "y"] * 6,
    ...     "rep": [0, 0, 1, 1, 2, 2] * 2,
    ...     "error": [.10, .20, .12, .21, .11, .25, .30, .31, .28, .33, .29, .30]})
    >>> result = BenchmarkResult.from_frame(
    ...     df, dataset="data", learner="model", value="error", replicate="rep",
    ...     greater_is_better=False)
    >>> tex = result.to_latex(method="t")  # no split sizes here: Hothorn's t
    >>> print(tex.splitlines()[7])
    Data set & x\_1 & y \\
    >>> print(tex.splitlines()[9])
    a & \textbf{0.110 $\pm$ 0.010} & 0.220 $\pm$ 0.026$^{\dagger}$ \\
    """
    if not isinstance(stat, str) or stat not in ("mean", "median"):
        raise ValueError(f"`stat` must be 'mean' or 'median'; got {stat!r}.")
    alpha = check_alpha(alpha)
    digits = _check_digits(digits)
    adjust = _check_adjust(adjust)
    if method is not None and not isinstance(method, str):
        raise TypeError(f"`method` must be None or a test's name; got {method!r}.")
    metric = result._metric(metric)
    gib = result.greater_is_better(metric)
    centre = result.aggregate(metric, stat=stat)
    if stat == "mean":
        std = result.aggregate(metric, stat="std")
        std = std.reindex(index=centre.index, columns=centre.columns).to_numpy()
        spread = {
            (d, m): std[i, j]
            for i, d in enumerate(centre.index)
            for j, m in enumerate(centre.columns)
        }
    else:
        q1 = result.aggregate(metric, stat=lambda v: v.quantile(0.25))
        q3 = result.aggregate(metric, stat=lambda v: v.quantile(0.75))
        spread = {
            (d, m): (q1.loc[d, m], q3.loc[d, m])
            for d in centre.index
            for m in centre.columns
        }
    learners = [str(m) for m in centre.columns]
    sign = -1.0 if gib else 1.0
    rows, tested_names, untested_sets = [], set(), []
    n_reps = result.aggregate(metric, stat="count")
    for dataset in centre.index:
        values = centre.loc[dataset].astype(float)
        finite = values.dropna()
        best_value = (sign * finite).min() * sign if len(finite) else np.nan
        bold = set(finite.index[finite == best_value])
        best = next(iter(m for m in learners if m in bold), None)
        worse = set()
        if best is not None and len(finite) >= 2:
            pvalues, estimates, untested, names = _significance(
                result,
                dataset,
                best,
                list(finite.index),
                metric=metric,
                method=method,
                adjust=adjust,
                paired=paired,
            )
            tested_names |= names
            worse = {
                m for m, p in pvalues.items() if p <= alpha and sign * estimates[m] > 0
            }
            if untested:
                untested_sets.append(str(dataset))
        cells = []
        for m in learners:
            text = _cell(values[m], spread[dataset, m], stat, digits)
            if m in bold:
                text = rf"\textbf{{{text}}}"
            if m in worse:
                text += MARKER
            cells.append(text)
        rows.append(latex_label(dataset) + " & " + " & ".join(cells) + r" \\")
    complete = centre.dropna(axis=0, how="any")
    if len(complete):
        ranks = (sign * complete).rank(axis=1).mean(axis=0)
        rank_row = (
            "Average rank & " + " & ".join(f"{ranks[m]:.2f}" for m in learners) + r" \\"
        )
    else:
        rank_row = None

    if caption is None:
        direction = "higher" if gib else "lower"
        reps = sorted({int(v) for v in n_reps.to_numpy().ravel() if v > 0})
        reps_text = f"{reps[0]}" if len(reps) == 1 else f"{reps[0]}--{reps[-1]}"
        what = (
            "Mean $\\pm$ standard deviation"
            if stat == "mean"
            else "Median [first quartile, third quartile]"
        )
        if tested_names:
            names = sorted(_test_name(n) for n in tested_names)
            test = " / ".join(names)
        else:
            test = _test_name(method or "t")
        caption = (
            f"{what} of {escape_latex(metric)} ({direction} is better) over the "
            f"{reps_text} replicates of each data set. Bold: the best learner on "
            f"the data set. {MARKER}: significantly worse than the best on that "
            f"data set by a two-sided {escape_latex(test)}, "
            f"{escape_latex(adjust.capitalize())}-adjusted over the other "
            f"learners of the data set, at $\\alpha = {alpha:g}$."
        )
        if untested_sets:
            caption += (
                " Not every learner could be tested on "
                + ", ".join(latex_label(d) for d in untested_sets)
                + " (missing replicates or no variation)."
            )
        if rank_row is not None:
            caption += (
                f" Last row: average rank (1 = best) over the {len(complete)} data "
                "sets on which every learner has a result (Demšar 2006)."
            )
    header = "Data set & " + " & ".join(latex_label(m) for m in learners) + r" \\"
    lines = [
        _PREAMBLE_NOTE,
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + caption + "}",
    ]
    if label:
        lines.append(r"\label{" + label + "}")
    wide = len(learners) > _MAX_NARROW
    lines += [
        *([r"\resizebox{\textwidth}{!}{%"] if wide else []),
        r"\begin{tabular}{l" + "c" * len(learners) + "}",
        r"\toprule",
        header,
        r"\midrule",
        *rows,
    ]
    if rank_row is not None:
        lines += [r"\midrule", rank_row]
    lines += [r"\bottomrule", r"\end{tabular}" + ("}" if wide else ""), r"\end{table}"]
    return "\n".join(lines) + "\n"


def latex_frame(frame, *, caption, label=None, digits=3, index=True):
    """A plain booktabs table of a DataFrame, e.g. the pairwise intervals of a
    report.

    Parameters
    ----------
    frame : DataFrame
        Its cells: floats with ``digits`` decimals (``--`` where not finite),
        anything else as escaped text.
    caption : str
        Plain text, escaped with :func:`escape_latex`.
    label : str, default=None
    digits : int, default=3
    index : bool, default=True
        Whether the index is the first column.

    Returns
    -------
    str
        A ``table`` environment; needs ``\\usepackage{booktabs}`` (and
        ``graphicx`` above 4 columns).

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.results import latex_frame
    >>> frame = pd.DataFrame({"low": [-0.01], "high": [0.05]},
    ...                      index=pd.Index(["A - B"], name="pair"))
    >>> print(latex_frame(frame, caption="95% intervals").splitlines()[8])
    A - B & -0.010 & 0.050 \\\\
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"`frame` must be a DataFrame; got {type(frame).__name__}.")
    if not isinstance(caption, str):
        raise TypeError(f"`caption` must be a str; got {caption!r}.")
    digits = _check_digits(digits)
    columns = ([frame.index.name or ""] if index else []) + [str(c) for c in frame]
    lines = [
        _PREAMBLE_NOTE,
        r"\begin{table}[htbp]",
        r"\centering",
        r"\caption{" + escape_latex(caption) + "}",
    ]
    if label:
        lines.append(r"\label{" + label + "}")
    wide = frame.shape[1] > _MAX_NARROW
    lines += [
        *([r"\resizebox{\textwidth}{!}{%"] if wide else []),
        r"\begin{tabular}{" + "l" * (index + 0) + "r" * frame.shape[1] + "}",
        r"\toprule",
        " & ".join(escape_latex(c) for c in columns) + r" \\",
        r"\midrule",
    ]
    for idx, row in frame.iterrows():
        cells = [latex_label(idx)] if index else []
        for value in row.tolist():
            if isinstance(value, float | np.floating):
                cells.append("--" if not np.isfinite(value) else f"{value:.{digits}f}")
            elif isinstance(value, pd.Timestamp):
                cells.append(escape_latex(value.isoformat()))
            else:
                cells.append(escape_latex(value))
        lines.append(" & ".join(cells) + r" \\")
    end = r"\end{tabular}" + ("}" if wide else "")
    lines += [r"\bottomrule", end, r"\end{table}"]
    return "\n".join(lines) + "\n"
