"""LaTeX (booktabs) tables of a benchmark result, for the comparison section of a
paper: data sets × learners, the best in bold, significance markers, average
ranks, and a caption that says what was tested."""

import re

import numpy as np
import pandas as pd

from ..analysis import paired_method, within_test
from ..stats import adjust_pvalues

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
}
_SPECIAL_RE = re.compile(r"[\\&%$#_{}~^<>|]")
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
}
MARKER = r"$^{\dagger}$"
# Above this many columns a table is scaled to the text width (needs graphicx).
_MAX_NARROW = 4


def escape_latex(text):
    r"""``text`` with LaTeX's special characters escaped (``_`` → ``\_``, ``&``,
    ``%``, ``#``, ``$``, braces, ``~``, ``^``, ``<``, ``>``, ``|``, backslash)
    and the Greek letters and dashes the report uses written as LaTeX, so that it
    typesets with pdfLaTeX. Runs of white space (a blank line in a name would end
    a caption's paragraph) become one space; a character pdfLaTeX cannot typeset
    from UTF-8 input (CJK, emoji: beyond Latin Extended-A) is written as its
    code point, ``[U+4E2D]``, so that the table compiles and the name stays
    recognisable.

    Examples
    --------
    >>> from sklearn_bench.report import escape_latex
    >>> print(escape_latex("dlda_k10 & 5% #1"))
    dlda\_k10 \& 5\% \#1
    >>> print(escape_latex("a<b\n\nc 中"))
    a\textless{}b c [U+4E2D]
    """

    def one(match):
        char = match.group(0)
        return r"\textbackslash{}" if char == "\\" else _SPECIALS[char]

    out = _SPECIAL_RE.sub(one, re.sub(r"\s+", " ", str(text)))
    for char, tex in _UNICODE.items():
        out = out.replace(char, tex)
    return "".join(c if ord(c) <= _LAST_TYPESET else f"[U+{ord(c):04X}]" for c in out)


def _cell(centre, spread, stat, digits):
    if not np.isfinite(centre):
        return "--"
    if stat == "mean":
        return f"{centre:.{digits}f} $\\pm$ {spread:.{digits}f}"
    low, high = spread
    return f"{centre:.{digits}f} [{low:.{digits}f}, {high:.{digits}f}]"


def _significance(
    result, dataset, best, learners, *, metric, method, correction, paired=None
):
    """Adjusted p-values of each learner against the best on one data set, the
    estimates, the test's name, and the learners that could not be tested.
    ``paired(a, b, dataset)``, if given, is the default paired test (a report
    passes the tests it already ran)."""
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
        adjusted = adjust_pvalues(np.array(list(pvalues.values())), method=correction)
        pvalues = dict(zip(pvalues, adjusted, strict=True))
    return pvalues, estimates, untested, names


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
    correction="holm",
    alpha=0.05,
    digits=3,
    caption=None,
    label="tab:benchmark",
):
    r"""A booktabs table of data sets × learners for a paper, with its caption.

    Each cell is the mean ± standard deviation (``stat="mean"``) or the median
    [first quartile, third quartile] (``stat="median"``) of the learner's
    performance over the replicates of the data set. The best value of each
    data set is in bold. A dagger marks a learner significantly worse than the
    best on that data set: a two-sided paired test over the replicates
    (``result.paired_test(learner, best, dataset=...)``, its default method
    unless ``method`` is given; Hothorn et al. 2005), the ``k − 1``
    p-values of the data set adjusted by ``correction`` (Holm 1979), at level
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
    correction : str, default="holm"
        A method of :func:`~sklearn_bench.stats.adjust_pvalues`.
    alpha : float, default=0.05
    digits : int, default=3
    caption : str, default=None
        Replaces the generated caption (LaTeX, not escaped).
    label : str or None, default="tab:benchmark"

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
    return _build_table(
        result,
        metric=metric,
        stat=stat,
        method=method,
        correction=correction,
        alpha=alpha,
        digits=digits,
        caption=caption,
        label=label,
    )[0]


def _build_table(
    result,
    *,
    metric,
    stat,
    method,
    correction,
    alpha,
    digits,
    caption,
    label,
    paired=None,
):
    """The table's text and the names (``paired_test`` methods) of the tests it
    ran."""
    from numbers import Integral

    from ..stats._common import real_number
    from ..stats._multitest import _METHODS as corrections

    if not isinstance(stat, str) or stat not in ("mean", "median"):
        raise ValueError(f"`stat` must be 'mean' or 'median'; got {stat!r}.")
    alpha = real_number(alpha, "alpha")
    if not 0 < alpha < 1:
        raise ValueError(f"`alpha` must lie strictly between 0 and 1; got {alpha!r}.")
    if isinstance(digits, bool) or not isinstance(digits, Integral):
        raise TypeError(f"`digits` must be an integer; got {digits!r}.")
    if not 0 <= digits <= 15:
        raise ValueError(f"`digits` must be between 0 and 15; got {digits!r}.")
    if not isinstance(correction, str) or correction.lower() not in corrections:
        raise ValueError(
            f"`correction` must be one of {list(corrections)}; got {correction!r}."
        )
    if method is not None and not isinstance(method, str):
        raise TypeError(f"`method` must be None or a test's name; got {method!r}.")
    metric = result._metric(metric)
    gib = result.greater_is_better(metric)
    centre = result.aggregate(metric, stat)
    if stat == "mean":
        std = result.aggregate(metric, "std")
        std = std.reindex(index=centre.index, columns=centre.columns).to_numpy()
        spread = {
            (d, m): std[i, j]
            for i, d in enumerate(centre.index)
            for j, m in enumerate(centre.columns)
        }
    else:
        q1 = result.aggregate(metric, lambda v: v.quantile(0.25))
        q3 = result.aggregate(metric, lambda v: v.quantile(0.75))
        spread = {
            (d, m): (q1.loc[d, m], q3.loc[d, m])
            for d in centre.index
            for m in centre.columns
        }
    learners = [str(m) for m in centre.columns]
    sign = -1.0 if gib else 1.0
    rows, tested_names, untested_sets = [], set(), []
    n_reps = result.aggregate(metric, "count")
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
                correction=correction,
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
        rows.append(escape_latex(dataset) + " & " + " & ".join(cells) + r" \\")
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
            names = sorted(paired_method(n)[0] for n in tested_names)
            test = " / ".join(names)
        else:
            test = paired_method(method or "t")[0]
        caption = (
            f"{what} of {escape_latex(metric)} ({direction} is better) over the "
            f"{reps_text} replicates of each data set. Bold: the best learner on "
            f"the data set. {MARKER}: significantly worse than the best on that "
            f"data set by a two-sided {escape_latex(test)}, "
            f"{escape_latex(correction.capitalize())}-adjusted over the other "
            f"learners of the data set, at $\\alpha = {alpha:g}$."
        )
        if untested_sets:
            caption += (
                " Not every learner could be tested on "
                + ", ".join(escape_latex(d) for d in untested_sets)
                + " (missing replicates or no variation)."
            )
        if rank_row is not None:
            caption += (
                f" Last row: average rank (1 = best) over the {len(complete)} data "
                "sets on which every learner has a result (Demšar 2006)."
            )
    header = "Data set & " + " & ".join(escape_latex(m) for m in learners) + r" \\"
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
    return "\n".join(lines) + "\n", sorted(tested_names)


def latex_frame(frame, *, caption, label=None, digits=3, index=True):
    """A plain booktabs table of a DataFrame (numbers with ``digits``
    decimals), e.g. the pairwise intervals of a report."""
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
        cells = [escape_latex(idx)] if index else []
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


def write_latex_tables(result, analysis, folder):
    """Write ``performance.tex`` (and ``pairwise.tex`` when there are pairwise
    intervals) into ``folder``. The table's tests are those the analysis ran
    within each data set (:func:`~sklearn_bench.analysis.within_test`), and its
    record in the methods paragraph is the analysis' ``"latex_table"``.

    The markers of ``performance.tex`` use the plan's level ``alpha``, as the
    report's tests do.

    Returns
    -------
    list of Path
    """
    from pathlib import Path

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    alpha = analysis.alpha  # the plan's level of the tests
    table, _ = _build_table(
        result,
        metric=analysis.metric,
        stat="mean",
        method=None,
        correction="holm",
        alpha=alpha,
        digits=3,
        caption=None,
        label="tab:performance",
        paired=lambda a, b, dataset: within_test(result, analysis, a, b, dataset),
    )
    written = [folder / "performance.tex"]
    written[0].write_text(table, encoding="utf-8")
    # the table's test is in the analysis' methods (registered by analyse())
    if len(analysis.pairs):
        level = f"{analysis.confidence_level:.0%}"
        pairs = analysis.pairs[
            ["estimate", "low", "high", "adjusted_low", "adjusted_high"]
        ].copy()
        pairs["p"] = analysis.pairs["pvalue"]
        pairs["Holm p"] = analysis.pairs["adjusted_pvalue"]
        pairs.index.name = "comparison"
        pairs.columns = [
            "difference",
            f"{level} low",
            f"{level} high",
            "Holm low",
            "Holm high",
            "p",
            "Holm p",
        ]
        test = (
            "paired t"
            if analysis.pairs_blocks == "data sets"
            else "corrected resampled t"
        )
        caption = (
            f"Pairwise differences in {analysis.metric} "
            f"({analysis.direction}) over {analysis.pairs_blocks}: {test} "
            f"{level} confidence intervals, and intervals at Holm's step-down "
            "levels (Berrar & Lozano 2013); p-values unadjusted and Holm-adjusted."
        )
        path = folder / "pairwise.tex"
        path.write_text(
            latex_frame(pairs, caption=caption, label="tab:pairwise"), encoding="utf-8"
        )
        written.append(path)
    return written
