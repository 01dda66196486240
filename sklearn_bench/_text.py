"""Names as labels: one length, no control characters, nothing that renders.

A learner or data-set name is the user's text: 10,000 characters, an escape
sequence that retitles a terminal, a newline that forges a line of a printout,
HTML in Markdown, a zero-width space that makes two names look alike. Every
output shows names through :func:`short_label` (figures, LaTeX),
:func:`terminal_text` (the command line) or :func:`markdown_text`
(``methods.md``), adding only its own escaping on top; :func:`look_alike` finds
names that differ only by what a reader cannot see."""

import re
import unicodedata
from types import MappingProxyType

__all__ = [
    "ADJUST_METHODS",
    "ELLIPSIS",
    "MAX_LABEL_LENGTH",
    "adjusted_by",
    "look_alike",
    "markdown_text",
    "short_label",
    "terminal_line",
    "terminal_text",
]

# The longest label drawn or typeset, in characters (ellipsis included): long
# enough for "dlda_k10+welch_t_selection (RepeatedStratifiedKFold)".
MAX_LABEL_LENGTH = 60
ELLIPSIS = "…"
# C0 and C1 control characters, DEL, the line and paragraph separators (a new
# line to some terminals and editors), and the bidirectional marks, embeddings,
# overrides and isolates (which reorder what a reader sees).
_CONTROL = re.compile(
    "[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]"
)
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
    r"""A name (``str()`` of it) as a label: control characters as visible
    escapes, then cut to ``max_length`` characters, the ellipsis included.

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


def terminal_text(text, *, names=()):
    r"""Text to print on a terminal: control characters as visible escapes, so
    that no name can move the cursor, recolour or retitle the terminal or ring
    its bell; newlines and tabs (the layout of a printout) are kept, except
    inside the ``names`` shown in it (learners, data sets, metrics), whose
    newlines would forge a line of the printout.

    Examples
    --------
    >>> from sklearn_bench._text import terminal_text
    >>> print(terminal_text("best: \x1b]0;pwned\x07svm\nnext line"))
    best: \x1b]0;pwned\x07svm
    next line
    >>> name = "svm\nsvm is better than every learner (p < 0.001)"
    >>> print(terminal_text(f"best: {name}", names=[name]))
    best: svm\nsvm is better than every learner (p < 0.001)
    """
    text = str(text)
    forging = {str(n) for n in names if _LAYOUT.search(str(n)) and str(n).strip()}
    for name in sorted(forging, key=len, reverse=True):
        shown = visible_controls(name)
        text = text.replace(name, shown)
        text = text.replace(visible_controls(name, keep="\n\t"), shown)
    return visible_controls(text, keep="\n\t")


def terminal_line(text):
    r"""One line for a terminal, to be wrapped after: every control character
    escaped, newlines and tabs included (wrapped first, a newline in a name was
    turned into a space, and the attacker's text could begin a line).

    Examples
    --------
    >>> from sklearn_bench._text import terminal_line
    >>> print(terminal_line("c\nSPOOFED \u2028 \u202e"))
    c\nSPOOFED \u2028 \u202e
    """
    return visible_controls(text)


_LAYOUT = re.compile("[\n\t]")
# Markdown's inline specials: backslash, code, emphasis, links, raw HTML and
# entities, tables, strike-through; an underscore inside a word is literal.
_MARKDOWN = re.compile(r"[\\`*\[\]<>&|~]|(?<!\w)_|_(?!\w)")


def markdown_text(text):
    r"""Text for a line of Markdown that renders as itself: every inline
    special character (``\ ` * _ [ ] < > & | ~``) backslash-escaped, so that
    a name is never a link, emphasis or raw HTML, a URL (which renderers make a
    link by itself) as a code span, and control characters as visible escapes
    (a newline would start a heading or a list).

    Examples
    --------
    >>> from sklearn_bench._text import markdown_text
    >>> print(markdown_text("<svg/onload=alert(1)> and error_rate\n# x"))
    \<svg/onload=alert(1)\> and error_rate\n# x
    >>> print(markdown_text("data from https://evil.example/x_y"))
    data from `https://evil.example/x_y`
    """
    parts = _URL.split(str(text))  # every other part a URL
    return "".join(
        visible_controls(_code_span(part) if i % 2 else _MARKDOWN.sub(r"\\\g<0>", part))
        for i, part in enumerate(parts)
    )


# What renderers turn into a link by itself (GitHub's autolinks): shown as code.
_URL = re.compile(r"((?:[A-Za-z][A-Za-z0-9+.-]*://|www\.)\S+)")


def _code_span(text):
    """``text`` as a Markdown code span (shown as is, never a link)."""
    fence = "`" * (max(map(len, re.findall("`+", text)), default=0) + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


# Characters a reader does not see: format characters (zero-width space and
# joiners, BOM, bidirectional marks, soft hyphen: category Cf), controls (Cc),
# variation selectors and the Hangul fillers.
_INVISIBLE = re.compile("[\ufe00-\ufe0f\u115f\u1160\u3164\uffa0]")


def _seen(name):
    text = "".join(c for c in str(name) if unicodedata.category(c) not in ("Cf", "Cc"))
    text = unicodedata.normalize("NFKC", _INVISIBLE.sub("", text))
    return " ".join(text.split())


def look_alike(names):
    r"""Groups of distinct names that a reader sees as one: equal after removing
    what a reader does not see (zero-width characters, the BOM, bidirectional marks,
    soft hyphens, variation selectors, controls), NFKC normalization (``ｌｒ`` is
    ``lr``) and collapsing white space. Look-alikes across scripts (Cyrillic ``а``)
    and ``l``/``1``/``I`` are not found.

    Examples
    --------
    >>> from sklearn_bench._text import look_alike
    >>> look_alike(["lr", "lr​", "svm", "ｓｖｍ ", "rf"])
    [('lr', 'lr​'), ('svm', 'ｓｖｍ ')]
    """
    groups = {}
    for name in dict.fromkeys(str(n) for n in names):
        groups.setdefault(_seen(name), []).append(name)
    return [tuple(g) for g in groups.values() if len(g) > 1]


# The one vocabulary of `adjust` (stats' multiple-testing corrections), each with
# the name a text gives it.
# "shaffer" and "bergmann_hommel" need the p-values of all k (k − 1) / 2 pairs;
# "single_step" is the simultaneous p-value of a test whose statistic is already
# family-wise (Nemenyi's, Miller's), so it is not computed from raw p-values.
ADJUST_METHODS = MappingProxyType(
    {
        "holm": "Holm",
        "shaffer": "Shaffer's static procedure",
        "bergmann_hommel": "Bergmann and Hommel's procedure",
        "bonferroni": "Bonferroni",
        "hochberg": "Hochberg",
        "hommel": "Hommel",
        "bh": "Benjamini and Hochberg",
        "finner": "Finner",
        "li": "Li",
        "holland": "Holland and Copenhaver",
        "rom": "Rom",
        "single_step": "the single-step procedure",
        "none": "no correction",
    }
)


def adjusted_by(adjust):
    """The words a text uses for p-values corrected by ``adjust``: ``"adjusted
    by Holm"``, ``"adjusted by Shaffer's static procedure"``, or ``"not
    adjusted"`` for ``"none"``.

    Examples
    --------
    >>> from sklearn_bench._text import adjusted_by
    >>> adjusted_by("bh"), adjusted_by("none")
    ('adjusted by Benjamini and Hochberg', 'not adjusted')
    """
    if adjust == "none":
        return "not adjusted"
    return f"adjusted by {ADJUST_METHODS[adjust]}"
