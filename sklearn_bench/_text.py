"""Names as labels: one length, no control characters.

A learner or data-set name is the user's text and can be anything: 10,000
characters, an escape sequence that retitles a terminal, a BEL. Every output that
shows a name as a label goes through :func:`short_label` (figures, LaTeX tables)
or :func:`terminal_text` (what the command line prints), and adds only its own
escaping on top: mathtext's ``$`` in figures (``plotting``), LaTeX's specials in
tables (``results``). This module imports nothing of the package.
"""

import re

__all__ = ["ELLIPSIS", "MAX_LABEL_LENGTH", "short_label", "terminal_text"]

# The longest label drawn or typeset, in characters (ellipsis included): long
# enough for "dlda_k10+welch_t_selection (RepeatedStratifiedKFold)".
MAX_LABEL_LENGTH = 60
ELLIPSIS = "…"
# C0 and C1 control characters, DEL, and the bidirectional overrides and isolates
# (which reorder what a reader sees).
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _visible(char):
    if char in _NAMED:
        return _NAMED[char]
    code = ord(char)
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible_controls(text, *, keep=""):
    r"""``text`` with every control character written as a visible escape
    (``\x1b``, ``\x07``, ``\n``), except those in ``keep``.

    Examples
    --------
    >>> from sklearn_bench._text import visible_controls
    >>> print(visible_controls("a\x1b]0;title\x07b"))
    a\x1b]0;title\x07b
    """
    return _CONTROL.sub(
        lambda m: m.group(0) if m.group(0) in keep else _visible(m.group(0)),
        str(text),
    )


def short_label(text, max_length=MAX_LABEL_LENGTH):
    r"""A name as a label: control characters as visible escapes, then cut to
    ``max_length`` characters with an ellipsis.

    Parameters
    ----------
    text : object
        The name (``str()`` of it).
    max_length : int, default=MAX_LABEL_LENGTH
        The longest label, the ellipsis "…" included.

    Returns
    -------
    str

    See Also
    --------
    terminal_text : the same escapes for text printed on a terminal, newlines
        and tabs kept and nothing cut.

    Examples
    --------
    >>> from sklearn_bench._text import short_label
    >>> short_label("x" * 10_000) == "x" * 59 + "…"
    True
    >>> print(short_label("svm\x07\nrbf"))
    svm\x07\nrbf
    """
    text = visible_controls(text)
    if len(text) <= max_length:
        return text
    return text[: max(max_length - 1, 0)] + ELLIPSIS


def terminal_text(text):
    r"""Text to print on a terminal: control characters as visible escapes, so
    that no name can move the cursor, recolour or retitle the terminal or ring
    its bell; newlines and tabs (the layout of a printout) are kept.

    Examples
    --------
    >>> from sklearn_bench._text import terminal_text
    >>> print(terminal_text("best: \x1b]0;pwned\x07svm\nnext line"))
    best: \x1b]0;pwned\x07svm
    next line
    """
    return visible_controls(text, keep="\n\t")
