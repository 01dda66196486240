"""Names that crashed or misled as labels (issue 29.8): every figure label is cut
to one length and drawn literally, LaTeX escapes every special character, and
no control character reaches the terminal. One helper, sklearn_bench/_text.py,
with mathtext escaping in plotting (figure_label) and LaTeX escaping in results
(latex_label) on top."""

import shutil
import subprocess

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench._latex import escape_latex, latex_label  # noqa: E402
from sklearn_bench._text import MAX_LABEL_LENGTH, short_label, terminal_text  # noqa: E402
from sklearn_bench.cli import main  # noqa: E402
from sklearn_bench.plotting import plot_critical_difference, plot_win_tie_loss
from sklearn_bench.plotting._common import figure_label
from sklearn_bench.report import format_summary  # noqa: E402

from ._report import report  # noqa: E402

LONG = "x" * 10_000
MATH = "$\\input{x}$"
ALPHA = "$\\alpha$"
BRACKET = "[0.5em] data"
CODEPOINT = "\\\\中文"  # a backslash pair, then characters written as code points
TERMINAL = "lr\x1b]0;pwned\x07\x1b[31m"
CONTROL = ("\x1b", "\x07", "\x9b")


def _study(learners, datasets, tmp_path=None):
    """Error rates of ``learners`` on ``datasets`` (5 replicates, split sizes
    known), as an imported table."""
    rng = np.random.default_rng(0)
    rows = [
        (d, m, r, 0.2 + 0.02 * j + rng.normal(0, 0.02))
        for d in datasets
        for j, m in enumerate(learners)
        for r in range(5)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "err"])
    if tmp_path is not None:
        df.to_csv(tmp_path / "lb.csv", index=False)
    return BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="err", replicate="rep",
        greater_is_better=False, n_train=80, n_test=20,
    )  # fmt: skip


def _drawn(ax):
    """Every text artist of the figure, after drawing it (mathtext parses then)."""
    fig = ax.figure
    fig.canvas.draw()
    texts = [t for a in fig.axes for t in a.texts]
    for a in fig.axes:
        texts += a.get_xticklabels() + a.get_yticklabels()
        texts += [a.title, a.xaxis.label, a.yaxis.label]
    return texts


def test_short_label_cuts_and_shows_controls():
    """H: the shared helper cuts a name to MAX_LABEL_LENGTH characters ending in
    "…", and writes ESC, BEL, C1 controls and newlines as visible escapes."""
    assert short_label(LONG) == "x" * (MAX_LABEL_LENGTH - 1) + "…"
    assert short_label("ab") == "ab"
    label = short_label(TERMINAL + "\n\x9b")
    assert not any(c in label for c in CONTROL + ("\n",))
    assert label == "lr\\x1b]0;pwned\\x07\\x1b[31m\\n\\x9b"
    assert terminal_text("a\tb\nc\x1b") == "a\tb\nc\\x1b"


def test_long_name_keeps_the_win_tie_loss_figure_small():
    """H: a 10,000-character learner name no longer sizes the win/tie/loss
    figure (it was a MemoryError at 10,000 characters, 19 GB at 6,000): the
    figure stays under 20 inches, draws, and the tick label is cut to 60."""
    table = pd.DataFrame(
        {LONG: [0.1, 0.2, 0.3], "B": [0.2, 0.2, 0.1], "C": [0.3, 0.1, 0.2]}
    )
    long = table.rename_axis("data").reset_index().melt(id_vars="data")
    result = BenchmarkResult.from_frame(
        long, dataset="data", learner="variable", value="value",
        greater_is_better=False,
    )  # fmt: skip
    ax = plot_win_tie_loss(result.win_tie_loss())
    try:
        assert max(ax.figure.get_size_inches()) < 20
        labels = [t.get_text() for t in _drawn(ax) if t.get_text()]
        assert max(len(t) for t in labels) <= max(MAX_LABEL_LENGTH, 60)
        assert "x" * 59 + "…" in labels
    finally:
        plt.close("all")


def test_math_names_are_drawn_literally():
    """H: learner names "$\\input{x}$" (which crashed the report in mathtext) and
    "$\\alpha$" (drawn as α) are drawn as the characters they are: the figure
    draws, and no text artist with a name is parsed as math."""
    result = _study([MATH, ALPHA, "plain"], ["d0", "d1", "d2", "d3"])
    ax = plot_critical_difference(result.friedman())
    try:
        texts = [
            t for t in _drawn(ax) if "input" in t.get_text() or "alpha" in t.get_text()
        ]
        assert len(texts) == 2
        for t in texts:
            shown, is_math = t._preprocess_math(t.get_text())
            assert not is_math and ("$\\input{x}$" in shown or "$\\alpha$" in shown)
    finally:
        plt.close("all")
    assert figure_label(ALPHA) == "\\$\\alpha\\$"


def test_latex_escapes_brackets_backslashes_and_controls():
    """H: a cell that starts with "[" is braced (it was read as the optional
    argument of the row end: "Illegal unit of measure"), code points of
    untypesettable characters are braced too, backslashes are \\textbackslash{},
    control characters are visible escapes, and names are cut to one length."""
    assert escape_latex(BRACKET).startswith("{[}0.5em{]}")
    assert escape_latex(CODEPOINT) == (
        "\\textbackslash{}\\textbackslash{}{[}U+4E2D{]}{[}U+6587{]}"
    )
    tex = escape_latex(TERMINAL)
    assert not any(c in tex for c in CONTROL)
    assert tex.startswith("lr\\textbackslash{}x1b{]}0;pwned")
    assert latex_label(LONG) == "x" * (MAX_LABEL_LENGTH - 1) + "\\ldots{}"


def test_report_with_hostile_names_writes_compiling_latex(tmp_path):
    """H: a study whose learners and data sets are named "$\\input{x}$",
    "$\\alpha$", a 10,000-character name, an ESC/BEL sequence, "[0.5em] data"
    and a backslash before CJK writes its report (it crashed in mathtext), and
    performance.tex, pairwise.tex and learner_intervals.tex compile with pdfLaTeX
    (the first two stopped at "Illegal unit of measure"); no control character is
    in any .tex file."""
    learners = [MATH, ALPHA, LONG, TERMINAL]
    datasets = [BRACKET, CODEPOINT, "d2", "d3"]
    result = _study(learners, datasets)
    report(result, tmp_path, figure_formats=("png",))
    tables = tmp_path / "tables"
    for name in ("performance.tex", "pairwise.tex", "learner_intervals.tex"):
        tex = (tables / name).read_text(encoding="utf-8")
        assert not any(c in tex for c in CONTROL)
        assert "\\\\\n[" not in tex and "x" * 100 not in tex
    if shutil.which("pdflatex") is None:
        pytest.skip("pdfLaTeX is not installed")
    doc = tmp_path / "doc.tex"
    doc.write_text(
        "\\documentclass{article}\\usepackage[utf8]{inputenc}"
        "\\usepackage[T1]{fontenc}\\usepackage{booktabs,graphicx}"
        "\\begin{document}\\input{tables/performance.tex}"
        "\\input{tables/pairwise.tex}\\input{tables/learner_intervals.tex}"
        "\\end{document}\n",
        encoding="utf-8",
    )
    run = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape",
         doc.name],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout[-2000:]


def test_no_control_character_reaches_the_terminal(tmp_path, capsys):
    """H: the text summary (printed and saved) and the CLI's printout of a
    leaderboard whose learner is named with an ESC/BEL sequence (which retitled
    and recoloured the terminal) hold no control character but newlines."""
    result = _study([TERMINAL, "B", "C"], ["d0", "d1", "d2", "d3"], tmp_path)
    from sklearn_bench.analysis import AnalysisPlan, analyse

    text = format_summary(analyse(result, AnalysisPlan()))
    assert not any(c in text for c in CONTROL) and "\\x1b]0;pwned\\x07" in text
    rc = main([
        "leaderboard", str(tmp_path / "lb.csv"), "--dataset-col", "data",
        "--learner-col", "model", "--value-col", "err", "--lower-is-better",
        "--n-resamples", "50",
    ])  # fmt: skip
    out, err = capsys.readouterr()
    assert rc == 0, err
    assert not any(c in out + err for c in CONTROL)
    assert "lr\\x1b]0;pwned\\x07" in out


# -- issue 38: names in Markdown, CSV, the terminal; names that look alike ------

HTML = "<svg/onload=alert(1)>"
FORGED = "lr\nc is better than every learner (p < 0.001)"


def test_methods_markdown_renders_names_as_text(tmp_path):
    """H: a learner named with raw HTML, a Markdown link, emphasis and a newline
    followed by a heading is written to methods.md with every Markdown special
    character backslash-escaped and the newline shown as \\n, so that the
    Markdown renders the name as text (on 17a1a60 the <svg onload> ran when
    methods.md was rendered)."""
    names = [HTML, "[x](javascript:alert(1))", "*bold*", "a\n# Heading"]
    report(_study(names, ["d1", "d2", "d3"]), tmp_path, figure_formats=())
    md = (tmp_path / "methods.md").read_text(encoding="utf-8")
    assert "\\<svg/onload=alert(1)\\>" in md and "<svg" not in md.replace("\\<", "")
    assert "\\[x\\](javascript:alert(1))" in md and "\\*bold\\*" in md
    assert "a\\n# Heading" in md and "\n# Heading" not in md
    assert md.count("\n# ") == 0 and md.startswith("# Methods\n")


def test_no_name_forges_a_line_on_the_terminal(tmp_path, capsys):
    """H: a learner whose name holds a newline and a forged verdict is printed
    by `report` and `leaderboard` with the newline as \\n: no printed line
    starts with the forged text (on 17a1a60 the summary printed "c is better
    than every learner (p < 0.001)" as a line of its own)."""
    result = _study(["svm", FORGED, "rf"], ["d1", "d2", "d3", "d4"], tmp_path)
    result.save(tmp_path / "res")
    assert main(["report", str(tmp_path / "res"), "--out", str(tmp_path / "r")]) == 0
    assert main(["leaderboard", str(tmp_path / "lb.csv"), "--value-col", "err",
                 "--learner-col", "model", "--dataset-col", "data",
                 "--lower-is-better"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert not [line for line in lines if line.lstrip().startswith("c is better")]
    assert "lr\\nc is better than every learner" in out


@pytest.mark.parametrize(
    "pair",
    [("logreg", "logreg\u200b"), ("logreg", "logreg "), ("svm", "ｓｖｍ"),
     ("café", "cafe\u0301"), ("a b", "a\u00a0b")],
)  # fmt: skip
def test_names_that_look_alike_are_flagged(tmp_path, capsys, pair):
    """H: two learners that differ only by a zero-width space, a trailing
    space, full-width letters, a combining accent or a no-break space are
    flagged by `leaderboard` on stderr naming both, each written distinctly
    (``ascii()``: 'caf\\xe9' and 'cafe\\u0301', which repr printed alike, issue
    50) and still ranked apart (on 17a1a60 nothing was said)."""
    from sklearn_bench._text import look_alike

    assert look_alike([*pair, "other"]) == [pair]
    _study([*pair, "other"], ["d1", "d2", "d3"], tmp_path)
    code = main(["leaderboard", str(tmp_path / "lb.csv"), "--value-col", "err",
                 "--learner-col", "model", "--dataset-col", "data",
                 "--lower-is-better"])  # fmt: skip
    assert code == 0
    err = capsys.readouterr().err
    assert "look the same" in err and ascii(pair[0]) in err and ascii(pair[1]) in err
    assert ascii(pair[0]) != ascii(pair[1])


def test_look_alike_does_not_catch_other_scripts():
    """H: what NFKC does not map is not flagged, as documented: Cyrillic а for
    Latin a, l for 1, rn for m; distinct names are never grouped."""
    from sklearn_bench._text import look_alike

    assert look_alike(["a", "\u0430", "l1", "ll", "rn", "m", "lr", "rf"]) == []


def test_names_are_escaped_before_wrapping_and_separators_are_escaped():
    """H: a name holding a newline, U+2028/U+2029 or a direction mark inside a
    wrapped note is escaped before the note is wrapped, so no terminal line
    begins with the attacker's text (on ff4c58f textwrap turned the newline
    into a space and "SPOOFED" began a line) and no separator or mark passes
    unescaped; a URL in methods.md is a code span, never a bare link."""
    from sklearn_bench._text import markdown_text, terminal_line, terminal_text
    from sklearn_bench.report._summary import _wrapped

    text = _wrapped("x" * 80 + " c\nSPOOFED verdict")
    assert "c\\nSPOOFED" in text
    assert not [ln for ln in text.splitlines() if ln.lstrip().startswith("SPOOF")]
    for char in "\u2028\u2029\u200e\u200f\u061c\u202e\u2066":
        assert char not in terminal_line(f"a{char}b")
        assert char not in terminal_text(f"a{char}b")
    assert markdown_text("see http://x.example/a") == "see `http://x.example/a`"
    assert markdown_text("www.x.example") == "`www.x.example`"
