"""The text helpers shared by every output (``_text``, ``_latex``,
``analysis/_format``), on the examples their docstrings used to carry."""

import pandas as pd

from sklearn_bench._latex import escape_latex, latex_frame, latex_label
from sklearn_bench._text import (
    adjusted_by,
    look_alike,
    markdown_text,
    short_label,
    terminal_line,
    terminal_text,
    visible_controls,
)
from sklearn_bench.analysis._format import (
    fmt_count,
    fmt_estimate,
    fmt_level,
    fmt_names,
    fmt_p,
    fmt_p_equals,
)


def test_controls_become_visible_escapes():
    """H: a control character is written as its escape, so no name moves the
    cursor or retitles a terminal; a line for wrapping escapes newlines too."""
    assert visible_controls("a\x1b]0;title\x07b") == r"a\x1b]0;title\x07b"
    assert short_label("x" * 10_000) == "x" * 59 + "…"
    assert short_label("svm\x07\nrbf") == r"svm\x07\nrbf"
    assert terminal_line("c\nSPOOFED \u2028 \u202e") == r"c\nSPOOFED \u2028 \u202e"


def test_terminal_text_keeps_layout_but_not_inside_names():
    """H: the printout's newlines stay; a newline inside a name does not."""
    text = terminal_text("best: \x1b]0;pwned\x07svm\nnext line")
    assert text == "best: \\x1b]0;pwned\\x07svm\nnext line"
    name = "svm\nsvm is better than every learner (p < 0.001)"
    assert terminal_text(f"best: {name}", names=[name]) == (
        r"best: svm\nsvm is better than every learner (p < 0.001)"
    )


def test_markdown_text_renders_as_itself():
    """H: HTML, emphasis and a URL in a name render as text, not markup."""
    assert markdown_text("<svg/onload=alert(1)> and error_rate\n# x") == (
        r"\<svg/onload=alert(1)\> and error_rate\n# x"
    )
    assert markdown_text("data from https://evil.example/x_y") == (
        "data from `https://evil.example/x_y`"
    )


def test_look_alike_and_adjusted_by():
    """H: names equal but for invisible characters or width are grouped; the
    words for an adjustment name it."""
    assert look_alike(["lr", "lr\u200b", "svm", "ｓｖｍ ", "rf"]) == [
        ("lr", "lr\u200b"),
        ("svm", "ｓｖｍ "),
    ]
    assert adjusted_by("bh") == "adjusted by Benjamini and Hochberg"
    assert adjusted_by("none") == "not adjusted"


def test_latex_escapes_and_frame():
    """H: LaTeX specials, brackets, runs of white space and characters pdfLaTeX
    lacks are escaped; a frame's floats take ``digits`` decimals."""
    assert escape_latex("dlda_k10 & 5% #1") == r"dlda\_k10 \& 5\% \#1"
    assert escape_latex("a<b\n\nc 中") == r"a\textless{}b c {[}U+4E2D{]}"
    assert latex_label("[0.5em] $x$") == r"{[}0.5em{]} \$x\$"
    frame = pd.DataFrame(
        {"low": [-0.01], "high": [0.05]}, index=pd.Index(["A - B"], name="pair")
    )
    lines = latex_frame(frame, caption="95% intervals").splitlines()
    assert lines[8] == r"A - B & -0.010 & 0.050 \\"


def test_number_formats():
    """H: one format for p-values, estimates, levels, names and counts."""
    assert [fmt_p(p) for p in (0.0123456, 0.125, 0.0004, 1.0)] == [
        "0.0123",
        "0.125",
        "< 0.001",
        "1.00",
    ]
    assert fmt_p(float("nan")) == fmt_p(None) == "–"
    assert fmt_p_equals(0.0123) == "p = 0.0123"
    assert fmt_p_equals(0.0004) == "p < 0.001"
    assert fmt_p_equals(0.2, "Holm p") == "Holm p = 0.2"
    assert [fmt_estimate(x) for x in (0.01234, -0.0001, 1234.5)] == [
        "+0.012",
        "-0.0001",
        "+1.23e+03",
    ]
    assert [fmt_level(v) for v in (0.95, 0.96875, 1.0)] == ["95%", "96.9%", "100%"]
    assert fmt_names(["svm"]) == "svm"
    assert fmt_names(["svm", "lda"]) == "svm and lda"
    assert fmt_names("xyz") == "x, y and z"
    assert fmt_count(1, "pair") == "1 pair"
    assert fmt_count(21, "pair") == "21 pairs"
    assert fmt_count(2, "set", "sets") == "2 sets"


def test_p_values_in_words_never_read_p_equals_less_than():
    """H: one p-value, several, and several with one below 0.001 each read
    right (never ``"p = < 0.001"``)."""
    from sklearn_bench.analysis._disagreements import _p_words

    assert _p_words("p", [0.0004]) == "p < 0.001"
    assert _p_words("p", [0.5, 0.0004]) == "p: 0.5, < 0.001"
    assert _p_words("p", [1, 0.31]) == "p = 1.00, 0.31"
