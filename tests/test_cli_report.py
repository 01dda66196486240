"""Tests of `sklearn-bench report` keeping its word (issue 13): partial stores, the
run's analysis settings, never overwriting a report, LaTeX tables and the methods
paragraph."""

import re
import shutil

import numpy as np
import pytest
from sklearn.dummy import DummyClassifier

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.cli import main  # noqa: E402
from sklearn_bench.store._writer import StoreWriter


class InterruptOnBreastCancer(DummyClassifier):
    """A learner that stops the run (like Ctrl-C) when it meets the 30 features of
    the breast cancer data: a run killed before that data set had any task."""

    def fit(self, X, y, sample_weight=None):
        if np.shape(X)[1] == 30:
            raise KeyboardInterrupt
        return super().fit(X, y, sample_weight=sample_weight)


_CONFIG = """
[experiment]
scoring = "error_rate"
n_jobs = 1
random_state = 0
store = "{folder}/run.sqlite"

[experiment.cv]
class = "sklearn_bench.model_selection.BootstrapOOB"
params = {{ n_bootstraps = {b} }}

[learners.{first}]
class = "{first_class}"

[learners.dlda]
class = "sklearn_bench.estimators.DiagonalLDA"

[learners.nb]
class = "sklearn.naive_bayes.GaussianNB"
params = {{ var_smoothing = 1e-8 }}

[datasets.wine_0v1]
sklearn = "wine"
classes = [0, 1]

[datasets.breast_cancer]
sklearn = "breast_cancer"

[datasets.digits_3v8]
sklearn = "digits"
classes = [3, 8]

{analysis}
[output]
dir = "{folder}/out"
"""
_SETTINGS = "[analysis]\nconfidence_level = 0.80\ndelta = 0.02\n"


def _write_config(folder, *, first="dummy", interrupt=False, b=4, analysis=_SETTINGS):
    first_class = (
        "tests.test_cli_report.InterruptOnBreastCancer"
        if interrupt
        else "sklearn.dummy.DummyClassifier"
    )
    path = folder / "config.toml"
    # Relative store and output paths are under the current directory: give the
    # test's folder explicitly.
    path.write_text(
        _CONFIG.format(
            first=first,
            first_class=first_class,
            b=b,
            analysis=analysis,
            folder=folder.as_posix(),
        )
    )
    return path


@pytest.fixture(scope="module")
def finished_run(tmp_path_factory):
    """A finished `run` of a config with non-default analysis settings (80%
    intervals, Δ = 0.02) and a store."""
    folder = tmp_path_factory.mktemp("run")
    config = _write_config(folder)
    assert main(["run", str(config)]) == 0
    return folder


@pytest.fixture(scope="module")
def killed_run(tmp_path_factory):
    """A `run` killed (KeyboardInterrupt) when the second data set started: the
    store holds the tasks of the first data set only."""
    folder = tmp_path_factory.mktemp("killed")
    config = _write_config(folder, interrupt=True)
    assert main(["run", str(config)]) == 130
    return folder


def test_killed_store_holds_the_first_dataset_and_the_settings(killed_run):
    """H: the killed run's store has every task of wine_0v1, none of the others,
    and the run's analysis settings (stored when the run started)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        result = BenchmarkResult.from_store(killed_run / "run.sqlite")
    assert set(result.scores["dataset"].astype(str)) == {"wine_0v1"}
    assert len(result.scores) == 3 * 4
    settings = result.info["analysis"]["settings"]
    assert settings["confidence_level"] == 0.8 and settings["delta"] == 0.02
    assert result.info["analysis"]["from_config"] == ["confidence_level", "delta"]


def test_report_on_a_store_killed_before_the_second_dataset(killed_run, capsys):
    """H: `report STORE` on the killed run exits 0 (no KeyError, issue 13), reports
    the finished data set with the run's 80% intervals, compares the learners over
    its replicates, and says in the Power section why the power across data sets
    was not computed."""
    out = killed_run / "rep"
    code = main(["report", str(killed_run / "run.sqlite"), "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "Partial run: 24 task(s) missing" in text
    assert "1. Effect sizes (80% confidence intervals)" in text
    assert "- wine_0v1: best" in text
    assert "Friedman over 4 replicates" in text
    page = (out / "report.html").read_text()
    power = page[page.index('<section id="power">') :]
    assert "The power analysis not run:</b> the power across data sets needs at " in (
        power
    )
    assert (out / "tables" / "performance.tex").is_file()
    methods = (out / "methods.md").read_text()
    assert "The run is partial: 24 tasks had not run" in methods
    assert "over 4 replicates" in methods and "Boulesteix" not in methods


def test_report_on_a_store_that_a_run_is_still_writing(killed_run, tmp_path, capsys):
    """H: while a writer holds the store's write lock (a run in progress), `report
    STORE` reads the committed tasks and exits 0."""
    store = tmp_path / "live.sqlite"
    shutil.copy(killed_run / "run.sqlite", store)
    writer = StoreWriter(store)
    try:
        code = main(["report", str(store), "--out", str(tmp_path / "rep")])
    finally:
        writer.close()
    assert code == 0
    assert "Partial run: 24 task(s) missing" in capsys.readouterr().out


def test_report_reuses_the_runs_analysis_settings(finished_run, capsys):
    """H: `report STORE` of a run whose config sets confidence_level = 0.80 and
    delta = 0.02 reports 80% intervals and the power for Δ = 0.02 like `run` did,
    and lists the settings as coming from the run's config; so does `report` of
    the results folder the run saved."""
    out = finished_run / "again"
    code = main(["report", str(finished_run / "run.sqlite"), "--out", str(out)])
    text = capsys.readouterr().out
    assert code == 0
    assert "1. Effect sizes (80% confidence intervals)" in text
    assert "to detect Δ = 0.02 (given smallest difference that matters)" in text
    run_page = (finished_run / "out" / "report.html").read_text()
    page = (out / "report.html").read_text()
    for p in (run_page, page):
        assert "80% CI" in p
        assert re.search(
            r"<td>confidence_level</td><td[^>]*>0\.8</td>"
            r"<td>the run&#x27;s config</td>",
            p,
        )
    assert 'id="overridden"' not in page
    # The results folder that `run` saved carries the same settings.
    code = main(
        ["report", str(finished_run / "out" / "results"), "--out", str(out / "f")]
    )
    assert code == 0
    assert "1. Effect sizes (80% confidence intervals)" in capsys.readouterr().out


def test_report_states_command_line_overrides(finished_run, capsys):
    """H: --confidence-level and --delta override the stored settings; the command
    says so, and so do the page and the methods paragraph."""
    out = finished_run / "override"
    code = main(
        [
            "report",
            str(finished_run / "run.sqlite"),
            "--out",
            str(out),
            "--confidence-level",
            "0.9",
            "--delta",
            "0.05",
        ]
    )
    text = capsys.readouterr().out
    assert code == 0
    assert "Overriding the run's analysis settings: confidence_level 0.8 -> 0.9" in text
    assert "1. Effect sizes (90% confidence intervals)" in text
    page = (out / "report.html").read_text()
    assert 'id="overridden"' in page and "confidence_level, delta" in page
    assert "confidence_level = 0.9 (command line)" in (out / "methods.md").read_text()


def test_report_alpha_reaches_the_critical_difference(finished_run, capsys):
    """H: regression (issue 36): `report --alpha 0.1` gives the critical
    difference at α = 0.1 in the page, the summary and the diagram's title (at
    17a1a60 they stayed at α = 0.05); --posthoc, an option generated from the
    plan's declared settings, chooses the post-hoc test."""
    from sklearn_bench.results import BenchmarkResult

    out = finished_run / "alpha"
    store = finished_run / "run.sqlite"
    args = ["report", str(store), "--out", str(out), "--alpha", "0.1"]
    assert main([*args, "--posthoc", "conover"]) == 0
    text = capsys.readouterr().out
    cd = BenchmarkResult.from_store(store).friedman().critical_difference(alpha=0.1)
    page = (out / "report.html").read_text()
    assert f"Nemenyi critical difference (α = 0.1): {cd:.3f} ranks" in page
    assert f"Nemenyi CD (α = 0.1) = {cd:.2f}" in text
    assert (
        "(Nemenyi, α = 0.1)"
        in (out / "figures" / "critical_difference.svg").read_text()
    )
    assert (out / "tables" / "conover.csv").is_file()


def test_report_never_overwrites_a_report_silently(finished_run, tmp_path, capsys):
    """H: without --out, the report goes into a folder of its own beside the
    store, run-report (never the store's folder among the user's files: on
    17a1a60 report.html, figures/ and tables/ landed beside run.sqlite), then
    run-report-2 and -3; the command prints where each output went; an --out
    that holds a report is a usage error (exit 2, the report left unchanged)
    unless --force."""
    folder = tmp_path / "copy"
    folder.mkdir()
    shutil.copy(finished_run / "run.sqlite", folder / "run.sqlite")
    (folder / "notes.txt").write_text("the user's notes")
    store = str(folder / "run.sqlite")
    capsys.readouterr()
    assert main(["report", store]) == 0
    out = capsys.readouterr().out
    own = folder / "run-report"
    assert sorted(p.name for p in folder.iterdir()) == [
        "notes.txt", "run-report", "run.sqlite"
    ]  # fmt: skip
    for shown in (own / "report.html", own / "figures", own / "tables",
                  own / "methods.md", own / "methods.tex"):  # fmt: skip
        assert shown.exists() and str(shown) in out, shown
    first = (own / "report.html").read_bytes()
    assert main(["report", store]) == 0
    assert main(["report", store]) == 0
    assert (folder / "run-report-2" / "report.html").is_file()
    assert (folder / "run-report-3" / "report.html").is_file()
    assert (own / "report.html").read_bytes() == first
    capsys.readouterr()
    (own / "report.html").write_text("an earlier report")
    assert main(["report", store, "--out", str(own)]) == 2
    assert "--force" in capsys.readouterr().err
    assert (own / "report.html").read_text() == "an earlier report"
    assert main(["report", store, "--out", str(own), "--force"]) == 0
    assert (own / "report.html").read_text().startswith("<!DOCTYPE html>")


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (["--confidence-level", "95"], "--confidence-level"),
        (["--delta", "-1"], "--delta"),
        (["--metric", "auc"], "--metric"),
    ],
)
def test_report_bad_overrides(finished_run, tmp_path, capsys, args, match):
    """H: an override out of range or a metric the run lacks is a usage error (exit
    2) naming the option."""
    code = main(
        ["report", str(finished_run / "run.sqlite"), "--out", str(tmp_path), *args]
    )
    assert code == 2
    assert match in capsys.readouterr().err


def _methods_of(folder):
    return (folder / "methods.md").read_text(), (folder / "methods.tex").read_text()


def test_methods_paragraphs_of_two_runs_state_their_own_design(
    finished_run, tmp_path, capsys
):
    """H: the methods paragraphs of two different runs (4 vs 6 bootstrap
    replicates, 80% vs 95% intervals, Δ 0.02 vs the default 0.01, learner dummy vs
    baseline) each name their own learners, sizes, replicates, levels and tests,
    and not the other run's."""
    other = tmp_path / "other"
    other.mkdir()
    config = _write_config(other, first="baseline", b=6, analysis="")
    assert main(["run", str(config)]) == 0
    capsys.readouterr()
    md1, tex1 = _methods_of(finished_run / "out")
    md2, tex2 = _methods_of(other / "out")
    assert "dummy: DummyClassifier" in md1 and "baseline" not in md1
    assert "baseline: DummyClassifier" in md2 and "dummy:" not in md2
    assert "BootstrapOOB(n_bootstraps=4," in md1 and "(n_bootstraps=6," in md2
    assert "4 replicates" in md1 and "6 replicates" in md2
    assert (
        "breast_cancer (n = 569, p = 30" in md1 and "wine_0v1 (n = 130, p = 13" in md2
    )
    assert "80% confidence intervals" in md1 and "95% confidence intervals" in md2
    assert "Δ = 0.02 (given" in md1 and "Δ = 0.01 (default" in md2
    for md, alpha in ((md1, "0.2"), (md2, "0.05")):
        assert "Friedman's rank test" in md and "over 3 data sets" in md
        assert f"Holm-adjusted over 3 pairs, at α = {alpha}" in md
        # BootstrapOOB within a data set: the corrected t (Nadeau & Bengio).
        assert "Demšar, J. (2006)" in md and "Nadeau, C." in md
        assert "scikit-learn" in md
    assert r"dlda & DiagonalLDA" not in tex1  # LaTeX, not a table
    assert r"$\alpha$ = 0.2" in tex1 and r"$\Delta$ = 0.02" in tex1


@pytest.mark.skipif(shutil.which("pdflatex") is None, reason="pdflatex not installed")
def test_report_latex_outputs_compile(finished_run, tmp_path):
    """H: the tables/*.tex and methods.tex that `run` writes compile together with
    pdflatex (booktabs, graphicx) without an error."""
    import subprocess

    out = finished_run / "out"
    inputs = [out / "tables" / "performance.tex", out / "tables" / "pairwise.tex"]
    inputs.append(out / "methods.tex")
    body = "\n".join(f"\\input{{{p.as_posix()}}}" for p in inputs)
    doc = tmp_path / "paper.tex"
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
    log = (tmp_path / "paper.log").read_text(errors="replace")
    assert proc.returncode == 0, log[-3000:]
    assert not re.search(r"^! ", log, flags=re.MULTILINE)
    assert (tmp_path / "paper.pdf").stat().st_size > 1000


def test_the_report_holds_only_the_documented_script(tmp_path):
    """H: report.html holds exactly one script element, whose text is the
    package's own fixed sorting script whatever the names (a learner named
    `</script><script>alert(1)</script>` stays escaped text), and docs/cli.rst
    describes that script instead of saying "no script" (issue 38: the docs
    said "no script" while the report held one)."""
    from pathlib import Path

    import pandas as pd

    from sklearn_bench.analysis import analyse
    from sklearn_bench.report import write_report
    from sklearn_bench.report._html import _SCRIPT

    name = "</script><script>alert(1)</script>"
    df = pd.DataFrame(
        [(f"d{d}", m, 0.1 + 0.01 * ((d + j) % 3)) for d in range(4)
         for j, m in enumerate(["a", "b", name])],
        columns=["data", "model", "err"],
    )  # fmt: skip
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="err", greater_is_better=False
    )
    write_report(analyse(result), tmp_path, figure_formats=())
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert re.findall(r"<script>(.*?)</script>", page, re.S) == [_SCRIPT]
    docs = (Path(__file__).parents[1] / "docs" / "cli.rst").read_text()
    assert "no script" not in docs and "It holds one script" in docs
