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
_NUMBER = int | float | np.integer | np.floating


def _texts(values, column=None, digits=4):
    """The cells of a column as text: p-values with 3 significant digits
    (scientific when tiny), counts as integers, other numbers with ``digits``
    decimals (the format chosen once a column, not once a cell)."""
    if column in _COUNT_COLUMNS:
        spec = "g"
    elif column in _P_COLUMNS or str(column).endswith(" p"):
        spec = None
    else:
        spec = f".{digits}f"
    return [
        format(v, spec or (".2e" if v < 1e-3 else ".3f"))
        if isinstance(v, float | np.floating) and v - v == 0  # finite: most cells
        else _text(v)
        for v in values
    ]


def _text(value):
    """A cell that is not a finite number: NaN as a dash, infinities, text."""
    if isinstance(value, float | np.floating):
        return "–" if value != value else "∞" if value > 0 else "−∞"
    return html.escape(str(value))  # (a bool or an int as str() writes it)


def _cells(values, column):
    """The ``<td>`` of each of a column's ``values``; numbers right-aligned."""
    return [
        f'<td class="num">{t}</td>'
        if isinstance(v, _NUMBER) and not isinstance(v, bool | np.bool_)
        else f"<td>{t}</td>"
        for v, t in zip(values, _texts(values, column), strict=True)
    ]


# A study of many data sets or learners: a table longer than its cap is folded
# into a collapsed <details>, whole; only beyond MAX_PAGE_ROWS does the page show
# the first rows, and says so, naming the CSV beside the report that holds the
# whole table (tables/*.csv, linked from every caption).
MAX_DETAIL_ROWS = 30  # per-data-set tables (data sets, within, means, ...)
MAX_SUMMARY_ROWS = 100  # one row per learner or per pair, across data sets
MAX_PAGE_ROWS = 2000  # rows of one table the self-contained page embeds


def _table(
    df, caption, *, table_id, index=True, csv=None, max_rows=None, fold_above=None
):
    """An HTML table of ``df``, collapsed in a ``<details>`` above ``max_rows``
    (or ``fold_above``) rows; above :data:`MAX_PAGE_ROWS` rows with a ``csv``
    (``tables/<csv>``), only its first rows, the caption saying so."""
    n = len(df)
    cut = csv is not None and n > MAX_PAGE_ROWS
    shown = df.iloc[:MAX_PAGE_ROWS] if cut else df
    head = "".join(
        f"<th>{html.escape(str(c))}</th>"
        for c in ([df.index.name or ""] if index else []) + list(df.columns)
    )
    # the values iterrows gives (the frame's: a column of ints among floats is
    # floats), formatted a column at once; text columns as objects first (an
    # Arrow-backed column is otherwise read one element at a time)
    text = {c: object for c, t in shown.dtypes.items() if t.kind in "OU"}
    values = (shown.astype(text) if text else shown).to_numpy()
    columns = [_cells(values[:, j].tolist(), c) for j, c in enumerate(df.columns)]
    if index:
        names = shown.index.tolist()
        columns.insert(0, [f"<td>{html.escape(str(i))}</td>" for i in names])
    rows = ["<tr>" + "".join(cells) + "</tr>" for cells in zip(*columns, strict=True)]
    text = html.escape(caption)
    if csv is not None:
        where = f'<a href="tables/{html.escape(csv)}">tables/{html.escape(csv)}</a>'
        text += (
            f" (this page shows the first {MAX_PAGE_ROWS:,} of its {n:,} rows; "
            f"the whole table is the file {where} beside the report)"
            if cut
            else f' <span class="csv">(CSV: {where})</span>'
        )
    table = (
        f'<table id="{table_id}" class="data"><caption>{text}</caption>'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    )
    fold = min(x for x in (max_rows, fold_above, n) if x is not None)
    if n > fold:
        shown_words = f"first {MAX_PAGE_ROWS:,} shown; " if cut else ""
        return (
            f'<details class="long"><summary>{html.escape(caption)}: {n:,} rows '
            f"({shown_words}open)</summary>{table}</details>"
        )
    return table


def _interval_texts(frame, prefix=""):
    """``[low, high]`` of each row of ``frame`` (its ``<prefix>low`` and
    ``<prefix>high`` columns)."""
    low, high = (_texts(frame[prefix + b].tolist()) for b in ("low", "high"))
    return [f"[{lo}, {hi}]" for lo, hi in zip(low, high, strict=True)]


# Fixed ids and no dates in the files a figure is written to, so that two runs
# write the same bytes (matplotlib's settings are restored after each drawing).
_SAME_BYTES = {"svg.hashsalt": "sklearn_bench"}
_NO_DATE = {"svg": {"Date": None}, "pdf": {"CreationDate": None}}


def _image_bytes(fig, fmt="svg", dpi=110):
    """The bytes of ``fig`` drawn as ``fmt`` (the report's figures: 110 dpi),
    the same bytes at every run; a layout engine runs once and is removed (with
    one, even "none", savefig draws twice), so later formats keep this layout."""
    import matplotlib

    if fig.get_layout_engine() is not None:
        fig.get_layout_engine().execute(fig)
        fig.set_layout_engine(None)  # no engine (the rcParams' default)
    for ax in fig.axes:
        if not ax.get_ylabel():
            # nothing to place: matplotlib would measure every tick label (50
            # learners' names) again at each drawing to place the empty label
            ax.yaxis.set_label_coords(0.0, 0.5)
    buffer = io.BytesIO()
    # text as <text>, not glyph paths: smaller files, drawn in half the time
    with matplotlib.rc_context({**_SAME_BYTES, "svg.fonttype": "none"}):
        fig.savefig(buffer, format=fmt, dpi=dpi, metadata=_NO_DATE.get(fmt))
    return buffer.getvalue()


def _figure_html(key, title, caption, svg_bytes):
    """The figure in the page: its SVG as an image, so that the ids of one
    figure never meet another's."""
    data = base64.b64encode(svg_bytes).decode("ascii")
    return (
        f'<figure id="fig-{key}"><h3>{html.escape(title)}</h3>'
        f'<img alt="{html.escape(title)}" src="data:image/svg+xml;base64,{data}">'
        f"<figcaption>{html.escape(caption)}</figcaption></figure>"
    )


def _drawn_figure(key, title, caption, fig, dpi=110):
    """:func:`_figure_html` of the matplotlib figure ``fig``, closed once drawn."""
    import matplotlib.pyplot as plt

    try:
        return _figure_html(key, title, caption, _image_bytes(fig, dpi=dpi))
    finally:
        plt.close(fig)


def _not_run(what, reason):
    """A paragraph saying, where the result would be, why it is not."""
    return (
        f'<p class="not-run"><b>{html.escape(what)} not run:</b> '
        f"{html.escape(str(reason))}.</p>"
    )


def _section_not_run(analysis, key, head, what):
    """A section's ``head`` and why ``what`` did not run (the analysis' skipped
    ``key``), or ``""`` where it was not asked for."""
    reason = analysis.skipped.get(key)
    if reason is None:
        return ""
    return head + _not_run(what, reason) + "</section>"
