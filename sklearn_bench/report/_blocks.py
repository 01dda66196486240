"""The building blocks of the report's HTML page, shared by its sections: table
and figure markup, cell formats, and the caps of a large study."""

import base64
import html
import io

import numpy as np

_P_COLUMNS = {"p", "pvalue", "pvalue_adjusted"}
_COUNT_COLUMNS = {
    "n",
    "replicates",
    "count",
    "median n_train",
    "median n_test",
    "features",
}


def _fmt(value, column=None, digits=4):
    """A cell: p-values with 3 significant digits (scientific when tiny), counts as
    integers, other numbers with ``digits`` decimals."""
    if isinstance(value, bool | np.bool_):
        return str(bool(value))
    if isinstance(value, int | np.integer):
        return str(int(value))
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return "–"
        if np.isinf(value):
            return "∞" if value > 0 else "−∞"
        if column in _COUNT_COLUMNS:
            return f"{value:g}"
        if column in _P_COLUMNS or str(column).endswith(" p"):
            return f"{value:.2e}" if value < 1e-3 else f"{value:.3f}"
        return f"{value:.{digits}f}"
    return html.escape(str(value))


def _cell(value, column=None):
    numeric = isinstance(value, int | float | np.integer | np.floating)
    if numeric and not isinstance(value, bool | np.bool_):
        return f'<td class="num">{_fmt(value, column)}</td>'
    return f"<td>{_fmt(value, column)}</td>"


# A study of many data sets or learners: a table longer than its cap shows its
# first rows in a collapsed <details>; every table is whole in a CSV file beside
# the report (tables/*.csv), linked from its caption.
MAX_DETAIL_ROWS = 30  # per-data-set tables (data sets, within, means, ...)
MAX_SUMMARY_ROWS = 100  # one row per learner or per pair, across data sets


def _table(
    df, caption, *, table_id, index=True, csv=None, max_rows=None, fold_above=None
):
    """An HTML table of ``df``: at most ``max_rows`` rows (the first ones, in a
    collapsed ``<details>`` when there are more; also collapsed, whole, above
    ``fold_above`` rows), its caption linking ``tables/<csv>`` (the whole
    table) when ``csv`` is given."""
    n = len(df)
    cut = max_rows is not None and n > max_rows
    shown = df.iloc[:max_rows] if cut else df
    head = "".join(
        f"<th>{html.escape(str(c))}</th>"
        for c in ([df.index.name or ""] if index else []) + list(df.columns)
    )
    rows = []
    for idx, row in shown.iterrows():
        cells = [f"<td>{html.escape(str(idx))}</td>"] if index else []
        cells += [_cell(v, c) for v, c in zip(row.tolist(), df.columns, strict=True)]
        rows.append("<tr>" + "".join(cells) + "</tr>")
    text = html.escape(caption)
    if csv is not None:
        where = f'<a href="tables/{html.escape(csv)}">tables/{html.escape(csv)}</a>'
        text += (
            f" (first {max_rows} of {n:,} rows; all in {where})"
            if cut
            else f' <span class="csv">(CSV: {where})</span>'
        )
    table = (
        f'<table id="{table_id}" class="data"><caption>{text}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    if cut:
        return (
            f'<details class="long"><summary>{html.escape(caption)}: {n:,} rows '
            f"(first {max_rows} shown; open)</summary>{table}</details>"
        )
    if fold_above is not None and n > fold_above:
        return (
            f'<details class="long"><summary>{html.escape(caption)}: {n:,} rows '
            f"(open)</summary>{table}</details>"
        )
    return table


def _interval_text(low, high):
    return f"[{_fmt(low)}, {_fmt(high)}]"


def _image_bytes(fig, fmt="png", dpi=110):
    """The bytes of ``fig`` drawn as ``fmt`` (the report's figures: 110 dpi)."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format=fmt, dpi=dpi)
    return buffer.getvalue()


def _figure_html(key, title, caption, png_bytes):
    data = base64.b64encode(png_bytes).decode("ascii")
    return (
        f'<figure id="fig-{key}"><h3>{html.escape(title)}</h3>'
        f'<img alt="{html.escape(title)}" src="data:image/png;base64,{data}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _not_run(what, reason):
    """A paragraph saying, where the result would be, why it is not."""
    return (
        f'<p class="not-run"><b>{html.escape(what)} not run:</b> '
        f"{html.escape(reason)}.</p>"
    )


def _section_not_run(analysis, key, head, what):
    """A section's ``head`` and why ``what`` did not run (the analysis' skipped
    ``key``), or ``""`` where it was not asked for."""
    reason = analysis.skipped.get(key)
    if reason is None:
        return ""
    return head + _not_run(what, reason) + "</section>"
