"""Names as labels: one length, no control characters, nothing that renders.

A name is the user's text (10,000 characters, an escape sequence, a newline, HTML,
a zero-width space): every output shows it through :func:`short_label`,
:func:`terminal_text` or :func:`markdown_text`, adding only its own escaping."""

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
    (``\x1b``, ``\x07``, ``\n``), except those in ``keep``."""
    return _CONTROL.sub(
        lambda m: m.group(0) if m.group(0) in keep else _visible(m.group(0)),
        str(text),
    )


def short_label(text, max_length=MAX_LABEL_LENGTH):
    r"""A name (``str()`` of it) as a label: control characters as visible
    escapes, then cut to ``max_length`` characters, the ellipsis included."""
    text = visible_controls(text)
    if len(text) <= max_length:
        return text
    return text[: max(max_length - 1, 0)] + ELLIPSIS


def terminal_text(text, *, names=()):
    r"""Text to print on a terminal: control characters as visible escapes;
    newlines and tabs are kept, except inside the ``names`` shown in it (whose
    newlines would forge a line of the printout)."""
    text = str(text)
    forging = {str(n) for n in names if _LAYOUT.search(str(n)) and str(n).strip()}
    for name in sorted(forging, key=len, reverse=True):
        shown = visible_controls(name)
        text = text.replace(name, shown)
        text = text.replace(visible_controls(name, keep="\n\t"), shown)
    return visible_controls(text, keep="\n\t")


def terminal_line(text):
    r"""One line for a terminal, to be wrapped after: every control character
    escaped, newlines and tabs included."""
    return visible_controls(text)


_LAYOUT = re.compile("[\n\t]")
# Markdown's inline specials: backslash, code, emphasis, links, raw HTML and
# entities, tables, strike-through; an underscore inside a word is literal.
_MARKDOWN = re.compile(r"[\\`*\[\]<>&|~]|(?<!\w)_|_(?!\w)")


def markdown_text(text):
    r"""Text for a line of Markdown that renders as itself: inline specials
    backslash-escaped, a URL as a code span, controls as visible escapes."""
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
    r"""Groups of distinct names that a reader sees as one: equal without what a
    reader does not see, after NFKC normalization and collapsing white space
    (look-alikes across scripts are not found)."""
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
    """The words for p-values corrected by ``adjust``: ``"adjusted by Holm"``,
    or ``"not adjusted"``."""
    if adjust == "none":
        return "not adjusted"
    return f"adjusted by {ADJUST_METHODS[adjust]}"
