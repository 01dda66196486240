"""Tests of sklearn_bench/report/_latex.py: BenchmarkResult.to_latex, escaping,
markers against scipy + statsmodels, and compilation with pdflatex when present."""

import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest
from scipy import stats
from statsmodels.stats.multitest import multipletests

from sklearn_bench import BenchmarkResult
from sklearn_bench._latex import escape_latex


def _result(names=("svm_rbf", "k&nn", "tree 50%", "#4"), seed=0, n_rep=8):
    rng = np.random.default_rng(seed)
    shift = {names[0]: 0.0, names[1]: 0.004, names[2]: 0.06, names[3]: 0.02}
    rows = []
    for d, dataset in enumerate(["wine_0v1", "breast&cancer", "micro_array"]):
        for m in names:
            for r in range(n_rep):
                value = 0.1 + 0.05 * d + shift[m] + rng.normal(0, 0.015)
                rows.append((dataset, m, r, value))
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "error_rate"])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error_rate",
        replicate="rep",
        greater_is_better=False,
    )


def _body_rows(tex):
    body = tex[tex.index(r"\midrule") + len(r"\midrule") :]
    return [
        line.removesuffix(r" \\").split(" & ")
        for line in body.splitlines()
        if line.endswith(r"\\")
    ]


def test_escape_latex_specials():
    """H: _, &, %, #, $, braces, ~, ^ and backslash are escaped, Greek letters and
    the minus sign become math; nothing else changes."""
    assert escape_latex("a_b & 5% #1 $x {y} ~ ^ \\") == (
        r"a\_b \& 5\% \#1 \$x \{y\} \textasciitilde{} \textasciicircum{} "
        r"\textbackslash{}"
    )
    assert escape_latex("α = 0.05, Δ − σ") == r"$\alpha$ = 0.05, $\Delta$ $-$ $\sigma$"
    assert escape_latex("plain text 1.5") == "plain text 1.5"


def test_table_structure_cells_bold_and_ranks():
    """H: booktabs rules in order, one row per data set with mean ± SD (pandas,
    ddof=1) of each learner, the smallest mean of each row in bold, escaped names,
    and the average ranks (scipy rankdata per data set) as the last row."""
    result = _result()
    tex = result.to_latex(digits=4)
    assert tex.index(r"\toprule") < tex.index(r"\midrule") < tex.index(r"\bottomrule")
    assert r"\begin{tabular}{lcccc}" in tex
    assert r"Data set & svm\_rbf & k\&nn & tree 50\% & \#4 \\" in tex
    rows = _body_rows(tex)
    assert [r[0] for r in rows] == [
        "wine\\_0v1",
        "breast\\&cancer",
        "micro\\_array",
        "Average rank",
    ]
    mean, std = result.aggregate(), result.aggregate(stat="std")
    for row, dataset in zip(rows[:3], mean.index, strict=True):
        best = mean.loc[dataset].idxmin()
        for cell, learner in zip(row[1:], mean.columns, strict=True):
            expected = f"{mean.loc[dataset, learner]:.4f} $\\pm$ "
            expected += f"{std.loc[dataset, learner]:.4f}"
            assert expected in cell
            assert cell.startswith(r"\textbf{") == (learner == best)
    ranks = np.mean([stats.rankdata(mean.loc[d]) for d in mean.index], axis=0)
    assert rows[3][1:] == [f"{r:.2f}" for r in ranks]


def test_markers_equal_scipy_t_with_statsmodels_holm():
    """H: a learner carries the dagger exactly when the two-sided paired t-test
    (scipy ttest_rel) of it against the best on the data set, Holm-adjusted
    (statsmodels multipletests) over the other learners there, has p <= alpha
    and it is worse; the caption names the test, the correction and alpha."""
    result = _result(seed=3)
    perf = result.performance()
    for alpha in (0.05, 0.2):
        tex = result.to_latex(alpha=alpha, method="t")  # Hothorn's t on replicates
        rows = _body_rows(tex)
        mean = result.aggregate()
        for row, dataset in zip(rows[:3], mean.index, strict=True):
            best = mean.loc[dataset].idxmin()
            sub = perf[perf["dataset"] == dataset].pivot(
                index="replicate", columns="learner", values="value"
            )
            others = [m for m in mean.columns if m != best]
            p = [stats.ttest_rel(sub[m], sub[best]).pvalue for m in others]
            reject = multipletests(p, alpha=alpha, method="holm")[0]
            marked = {
                m
                for m, cell in zip(mean.columns, row[1:], strict=True)
                if cell.endswith(r"$^{\dagger}$")
            }
            assert marked == {m for m, r in zip(others, reject, strict=True) if r}
        caption = tex[tex.index(r"\caption{") :]
        assert "two-sided paired t-test on the replicates" in caption
        assert "adjusted by Holm over the other" in caption
        assert f"$\\alpha = {alpha:g}$" in caption
    # With these effects some learner is marked and some is not.
    assert 0 < tex.count(r"$^{\dagger}$") < 9


def test_median_table_and_missing_learner():
    """H: stat="median" shows the median [Q1, Q3] (pandas quantiles); a learner
    without results on a data set shows "--", is not tested there, and the ranks
    use the data sets where every learner has a result (the caption says how
    many)."""
    result = _result()
    scores = result.scores
    keep = ~((scores["dataset"] == "micro_array") & (scores["learner"] == "#4"))
    partial = BenchmarkResult(
        scores[keep],
        metrics=result.metrics,
        datasets=result.datasets,
        learners=result.learners,
    )
    tex = partial.to_latex(stat="median")
    rows = _body_rows(tex)
    assert rows[2][4] == "--"
    perf = partial.performance()
    v = perf[(perf["dataset"] == "wine_0v1") & (perf["learner"] == "k&nn")]["value"]
    q1, med, q3 = v.quantile([0.25, 0.5, 0.75])
    assert f"{med:.3f} [{q1:.3f}, {q3:.3f}]" in rows[0][2]
    assert "over the 2 data sets on which every learner has every replicate" in tex
    assert "Median [first quartile, third quartile]" in tex


def test_bad_arguments():
    """H: an unknown stat or an alpha outside (0, 1) raises a ValueError naming it."""
    with pytest.raises(ValueError, match="`stat`"):
        _result().to_latex(stat="mode")
    with pytest.raises(ValueError, match="`alpha`"):
        _result().to_latex(alpha=5)


def _compile(tmp_path, body):
    doc = tmp_path / "doc.tex"
    doc.write_text(
        "\\documentclass{article}\n\\usepackage[T1]{fontenc}\n"
        "\\usepackage{booktabs}\n\\usepackage{graphicx}\n"
        f"\\begin{{document}}\n{body}\n\\end{{document}}\n",
        encoding="utf-8",
    )
    proc = subprocess.run(
        ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    return proc, (tmp_path / "doc.log").read_text(errors="replace")


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_table_compiles_with_pdflatex(tmp_path):
    """H: the table (names with _, &, %, #; 4 learners and a 6-learner table that
    is scaled) compiles with pdflatex without an error, and the PDF exists."""
    wide = _result(names=("a_1", "b&2", "c%3", "d#4"))
    extra = wide.scores.copy()
    extra["learner"] = extra["learner"].astype(str) + "_bis"
    six = BenchmarkResult(
        pd.concat([wide.scores, extra]),
        metrics=wide.metrics,
        datasets=wide.datasets,
        learners=[*wide.learners, *[f"{m}_bis" for m in wide.learners]],
    )
    body = _result().to_latex() + six.to_latex(label="tab:six", stat="median")
    proc, log = _compile(tmp_path, body)
    assert proc.returncode == 0, log[-3000:]
    assert (tmp_path / "doc.pdf").stat().st_size > 1000
    assert not re.search(r"^! ", log, flags=re.MULTILINE)


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_awkward_names_compile_with_pdflatex(tmp_path):
    """H: names with < and >, a blank line, CJK and emoji are escaped so that a
    caption and a table cell holding them compile with pdflatex (issue 21.5);
    < and > are \\textless/\\textgreater, never ¡¿, and CJK/emoji become code
    points."""
    names = ["a<b>c", "x\n\ny", "中文", "😀 set", "∞ ρ δ"]
    body = "".join(
        f"\\begin{{table}}\\caption{{{escape_latex(n)}}}"
        f"\\begin{{tabular}}{{l}}{escape_latex(n)}\\\\\\end{{tabular}}"
        "\\end{table}\n"
        for n in names
    )
    proc, log = _compile(tmp_path, body)
    assert proc.returncode == 0, log[-2000:]
    # the code point's brackets braced: a cell may start with it (issue 29.8)
    assert "{[}U+4E2D{]}" in escape_latex("中") and "\\textless{}" in escape_latex("<")


def test_plain_table_aligns_names_left_and_numbers_right():
    """H: latex_frame aligns each column by what it holds: the index and text
    columns (data set, learner) left, numbers right (learner_intervals.tex had
    its data set and learner columns right-aligned)."""
    from sklearn_bench._latex import latex_frame

    frame = pd.DataFrame(
        {
            "data set": ["iris", "wine"],
            "learner": ["tree", "forest"],
            "estimate": [0.05, 0.02],
            "n": [150, 178],
        }
    )
    assert r"\begin{tabular}{llrr}" in latex_frame(frame, caption="c", index=False)
    with_index = latex_frame(frame.set_index("data set"), caption="c")
    assert r"\begin{tabular}{llrr}" in with_index


@pytest.mark.parametrize(
    "adjust, words",
    [
        ("bh", "adjusted by Benjamini and Hochberg over the other"),
        ("none", "not adjusted over the other"),
        ("holm", "adjusted by Holm over the other"),
    ],
)
def test_caption_names_the_correction_in_words(adjust, words):
    """H: the caption names the chosen correction by its name in a text, one
    phrase for every choice (it printed the choice capitalised: "Bh-adjusted",
    "None-adjusted")."""
    tex = _result().to_latex(adjust=adjust, method="t")
    caption = tex[tex.index(r"\caption{") :]
    assert words in caption
    assert "-adjusted" not in caption


def test_to_latex_is_the_reports_performance_table():
    """H: on 3 learners × 8 data sets × 5 replicates with B missing one
    replicate on d0 and d1 (issue 47), ``result.to_latex()`` and the report's
    ``performance.tex`` of ``analyse(result)`` are byte for byte one table: the
    average ranks over the 6 complete data sets, which the caption counts, and
    d0 and d1 named as left out; no test named when none could run."""
    from sklearn_bench._latex import performance_latex
    from sklearn_bench.analysis import analyse

    rng = np.random.default_rng(0)
    rows = [
        (f"d{d}", m, r, 0.2 + 0.02 * (m == "C") + rng.normal(0, 0.01))
        for d in range(8)
        for m in "ABC"
        for r in range(5)
        if not (m == "B" and d < 2 and r == 4)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", replicate="rep",
        greater_is_better=False,
    )  # fmt: skip
    tex = result.to_latex()
    assert tex == performance_latex(analyse(result).performance)
    assert "over the 6 data sets" in tex and "d0 and d1 left out" in tex
    assert "Average rank & 1.50 & 1.50 & 3.00" in tex
    assert "No learner could be tested" in tex and "paired t" not in tex


def test_one_replicate_and_float_ties():
    """H: with one replicate no cell prints '± nan' and the caption says why;
    two means equal up to floating-point rounding (0.1 + 0.2 and 0.3) are both
    bold."""
    df = pd.DataFrame({
        "data": ["a", "a", "a", "b", "b", "b"], "model": ["x", "y", "z"] * 2,
        "v": [0.1 + 0.2, 0.3, 0.5, 0.2, 0.4, 0.6]})  # fmt: skip
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", greater_is_better=False
    )
    tex = result.to_latex()
    assert "nan" not in tex and "one replicate: no spread shown" in tex
    assert r"a & \textbf{0.300} & \textbf{0.300} & 0.500 \\" in tex


def test_plain_table_cells_a_column_at_once():
    """H: latex_frame writes floats with ``digits`` decimals and ``--`` where
    not finite, ints among floats as the frame's rows hold them (floats), text
    and the index as names (escaped), a missing text as ``--`` and a date in
    ISO form, whichever column they are in."""
    from sklearn_bench._latex import latex_frame

    frame = pd.DataFrame(
        {"a_b": ["x_1", np.nan], "v": [0.12345, np.inf], "k": [1, 2]},
        index=pd.Index([0.5, 2.0], name="i"),
    )
    rows = latex_frame(frame, caption="c").splitlines()
    assert r"0.5 & x\_1 & 0.123 & 1 \\" in rows
    assert r"2.0 & -- & -- & 2 \\" in rows
    numbers = latex_frame(frame[["v", "k"]], caption="c", digits=1, index=False)
    assert r"0.1 & 1.0 \\" in numbers.splitlines()
    dates = pd.DataFrame({"t": pd.to_datetime(["2024-01-02"]), "v": [np.nan]})
    assert r"2024-01-02T00:00:00 & -- \\" in latex_frame(dates, caption="c")
