"""Tests of sklearn_bench/cli.py and sklearn_bench/_config.py: commands, outputs,
every bad-config path, --help and exit codes."""

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_CONFIG = ROOT / "examples" / "configs" / "demo.toml"
FIGURES = ("critical_difference", "forest", "power", "datasets_needed", "win_tie_loss")


@pytest.fixture(scope="module")
def demo_dir(tmp_path_factory):
    """Output of one `sklearn-bench demo --quick` (a few seconds) and its stdout."""
    out = tmp_path_factory.mktemp("demo") / "out"
    capture = pytest.MonkeyPatch()
    import io

    buffer = io.StringIO()
    capture.setattr(sys, "stdout", buffer)
    try:
        code = main(["demo", "--quick", "--out", str(out), "--n-jobs", "1"])
    finally:
        capture.undo()
    return code, out, buffer.getvalue()


def test_demo_quick_writes_report_figures_and_results(demo_dir):
    """H: `demo --quick` exits 0 and writes report.html, every figure as PNG and SVG,
    the results (CSV loadable by BenchmarkResult.load, and Parquet) and tables."""
    code, out, _ = demo_dir
    assert code == 0
    for name in FIGURES:
        assert (out / "figures" / f"{name}.png").stat().st_size > 1000
        assert (
            (out / "figures" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        )
    result = BenchmarkResult.load(out / "results")
    assert len(result.learners) == 5 and len(result.datasets) == 3
    scores = pd.read_parquet(out / "scores.parquet")
    assert len(scores) == len(result.scores)
    for table in ("mean", "pairwise_intervals", "within_dataset_intervals", "nemenyi"):
        assert (out / "tables" / f"{table}.csv").is_file()
    stored = BenchmarkResult.from_store(out / "results.sqlite")
    assert stored.n_missing_tasks == 0
    pd.testing.assert_frame_equal(stored.aggregate(), result.aggregate())


def test_demo_report_is_self_contained_with_every_figure(demo_dir):
    """H: report.html embeds every figure as a data: PNG and loads nothing from
    outside (no http(s) URL, no src/href to a file)."""
    _, out, _ = demo_dir
    page = (out / "report.html").read_text()
    for name in FIGURES:
        assert f'id="fig-{name}"' in page
    for name in ("wine_0v1", "breast_cancer", "microarray"):  # one per data set
        assert f'id="fig-distribution_{name}"' in page
        assert (out / "figures" / f"distribution_{name}.svg").is_file()
    assert page.count('src="data:image/png;base64,') == len(FIGURES) + 3
    assert not re.search(r"https?://", page)
    assert not re.search(r'(src|href)="(?!data:|#)', page)
    for table in ("datasets", "learners", "pairs", "within", "mean", "ranks"):
        assert f'id="table-{table}"' in page


def test_demo_summary_leads_with_effect_sizes(demo_dir):
    """H: the printed summary shows effect sizes with intervals before the tests,
    then the power and the number of data sets a decisive study needs."""
    _, _, text = demo_dir
    effects = text.index("1. Effect sizes (95% confidence intervals)")
    tests = text.index("2. Tests")
    power = text.index("3. Power")
    assert effects < tests < power
    assert "Friedman over 3 data sets" in text
    assert re.search(r"would need J = \d+ data sets", text)
    assert re.search(r"\[[+-]\d\.\d{3}, [+-]\d\.\d{3}\]", text)


def test_report_command_on_a_results_folder(demo_dir, tmp_path, capsys):
    """H: `report DIR` re-analyses a saved result without refitting and writes the
    same figures."""
    _, out, _ = demo_dir
    code = main(["report", str(out / "results"), "--out", str(tmp_path)])
    assert code == 0
    page = (tmp_path / "report.html").read_text()
    for name in FIGURES:
        assert f'id="fig-{name}"' in page
    assert "1. Effect sizes" in capsys.readouterr().out


def test_report_command_on_the_sqlite_store(demo_dir, tmp_path, capsys):
    """H: `report STORE` on the demo's SQLite store writes the report with the same
    numbers the demo printed, without refitting."""
    _, out, demo_text = demo_dir
    code = main(["report", str(out / "results.sqlite"), "--out", str(tmp_path)])
    text = capsys.readouterr().out
    assert code == 0
    assert (tmp_path / "report.html").is_file()
    effects = text[text.index("1. Effect sizes") : text.index("2. Tests")]
    assert effects in demo_text


def test_report_command_on_a_partial_store(demo_dir, tmp_path, capsys):
    """H: a store with 3 tasks removed is reported as a partial run (3 missing, in
    the output and the page); the incomplete data set is left out of the
    across-data-set analyses with a note; exit 0."""
    import sqlite3

    _, out, _ = demo_dir
    store = tmp_path / "partial.sqlite"
    shutil.copy(out / "results.sqlite", store)
    with sqlite3.connect(store) as con:
        ordinals = [
            r[0]
            for r in con.execute(
                "SELECT ordinal FROM tasks WHERE dataset = 'microarray' "
                "AND replicate = 3 ORDER BY ordinal LIMIT 3"
            )
        ]
        marks = ",".join("?" * len(ordinals))
        con.execute(f"DELETE FROM scores WHERE ordinal IN ({marks})", ordinals)
    code = main(["report", str(store), "--out", str(tmp_path / "rep")])
    text = capsys.readouterr().out
    assert code == 0
    assert text.startswith("Partial run: 3 task(s) missing")
    page = (tmp_path / "rep" / "report.html").read_text()
    assert "Partial run: 3 task(s) are missing" in page
    assert "microarray&#x27;] have failed or missing tasks" in page
    assert "Friedman over 2 data sets" in text


def test_report_command_on_a_file_that_is_not_a_store(tmp_path, capsys):
    """H: a file that is not a sklearn_bench store is a usage error (exit 2)."""
    path = tmp_path / "x.sqlite"
    path.write_text("not sqlite")
    assert main(["report", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and str(path) in err[0]


def test_run_with_the_example_config(tmp_path, capsys):
    """H: the documented example config runs end to end (exit 0), honours
    analysis.delta, and writes the report into --out."""
    code = main(["run", str(EXAMPLE_CONFIG), "--out", str(tmp_path)])
    text = capsys.readouterr().out
    assert code == 0
    assert (tmp_path / "report.html").is_file()
    assert "to detect Δ = 0.0200" in text
    result = BenchmarkResult.load(tmp_path / "results")
    assert result.learners == ["dlda_k5", "dlda_all", "logreg"]
    assert list(result.datasets) == ["breast_cancer", "wine_0v1", "digits_3v8"]


def test_run_check_validates_without_running(tmp_path, capsys):
    """H: `run --check` loads and validates, reports the number of tasks, writes
    nothing."""
    code = main(["run", str(EXAMPLE_CONFIG), "--check", "--out", str(tmp_path / "o")])
    assert code == 0
    assert "Config OK: 45 tasks would run." in capsys.readouterr().out
    assert not (tmp_path / "o").exists()


_GOOD = """
[experiment]
cv = 3
random_state = 0
[learners.lr]
class = "sklearn.linear_model.LogisticRegression"
[datasets.iris]
sklearn = "iris"
"""

_LR = 'class = "sklearn.linear_model.LogisticRegression"'


def _lr(extra):
    """_GOOD with ``extra`` lines in the learner's table."""
    return _GOOD.replace(_LR, _LR + "\n" + extra)


# (config text, key named in the message, what the message says)
_BAD = {
    "unknown top key": (_GOOD + "[experimnt]\nn_jobs = 1\n", "`experimnt`", "unknown"),
    "unknown experiment key": (
        _GOOD.replace("cv = 3", "cv = 3\nnjobs = 2"),
        "`experiment.njobs`",
        "unknown key",
    ),
    "unknown learner class": (
        _GOOD.replace("LogisticRegression", "LogisticRegresion"),
        "`learners.lr.class`",
        "has no attribute 'LogisticRegresion'",
    ),
    "unknown learner module": (
        _GOOD.replace("sklearn.linear_model", "sklearn.linear_modl"),
        "`learners.lr.class`",
        "cannot import module",
    ),
    "not an import path": (
        _GOOD.replace('"sklearn.linear_model.LogisticRegression"', '"Logistic"'),
        "`learners.lr.class`",
        "import path",
    ),
    "unknown parameter": (
        _lr("params = {max_iterr = 5}"),
        "`learners.lr.params.max_iterr`",
        "no parameter 'max_iterr'",
    ),
    "bad parameter value": (
        _lr("params = {C = -1.0}"),
        "`learners.lr.params`",
        "'C' parameter of LogisticRegression",
    ),
    "not an estimator": (
        _GOOD.replace("sklearn.linear_model.LogisticRegression", "collections.Counter"),
        "`learners.lr.class`",
        "not an estimator",
    ),
    "bad pipeline step": (
        _GOOD.replace(
            'class = "sklearn.linear_model.LogisticRegression"',
            'steps = [{class = "sklearn.preprocessing.StandardScalr"}]',
        ),
        "`learners.lr.steps[0].class`",
        "no attribute",
    ),
    "missing csv file": (
        _GOOD + '[datasets.mine]\ncsv = "nowhere.csv"\ntarget = "y"\n',
        "`datasets.mine.csv`",
        "file not found",
    ),
    "unknown sklearn loader": (
        _GOOD.replace('"iris"', '"irises"'),
        "`datasets.iris.sklearn`",
        "unknown scikit-learn loader",
    ),
    "two sources": (
        _GOOD + "openml = 61\n",
        "`datasets.iris`",
        "exactly one of",
    ),
    "bad openml id": (
        _GOOD + '[datasets.web]\nopenml = "adult"\n',
        "`datasets.web.openml`",
        "positive integer",
    ),
    "no learners": (
        "[datasets.iris]\nsklearn = 'iris'\n",
        "`learners`",
        "missing",
    ),
    "bad cv": (
        _GOOD.replace("cv = 3", 'cv = {class = "sklearn.linear_model.Ridge"}'),
        "`experiment.cv.class`",
        "splitter",
    ),
    "bad n_jobs": (
        _GOOD.replace("cv = 3", 'cv = 3\nn_jobs = "two"'),
        "`experiment.n_jobs`",
        "integer",
    ),
    "unknown analysis": (
        _GOOD + '[analysis]\nrun = ["effects", "anova"]\n',
        "`analysis.run`",
        "expected a list drawn from",
    ),
    "bad confidence level": (
        _GOOD + "[analysis]\nconfidence_level = 95\n",
        "`analysis.confidence_level`",
        "(0, 1)",
    ),
    "unknown metric of the analysis": (
        _GOOD + '[analysis]\nmetric = "auc"\n',
        "`analysis.metric`",
        "not a metric",
    ),
    "bad figure format": (
        _GOOD + '[output]\nfigure_formats = ["gif"]\n',
        "`output.figure_formats`",
        "png",
    ),
}


@pytest.mark.parametrize("case", list(_BAD), ids=list(_BAD))
def test_bad_config_gives_one_clear_line_and_exit_2(case, tmp_path, capsys):
    """H: each bad config exits 2 before running anything, with exactly one line on
    stderr naming the key and what was expected."""
    text, key, expected = _BAD[case]
    path = tmp_path / "bad.toml"
    path.write_text(text)
    code = main(["run", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert key in lines[0] and expected in lines[0], lines[0]
    assert not (tmp_path / "out").exists()


def test_good_config_base_case_runs(tmp_path, capsys):
    """H: the config the bad cases are made from is itself valid (so each bad case
    fails for its own reason)."""
    path = tmp_path / "good.toml"
    path.write_text(_GOOD)
    assert main(["run", str(path), "--check"]) == 0


def test_csv_dataset_with_target_column(tmp_path, capsys):
    """H: a CSV data set with a target column is read relative to the config's
    folder; a wrong target names the columns it has."""
    frame = pd.DataFrame({"a": range(40), "b": [i % 7 for i in range(40)]})
    frame["label"] = [i % 2 for i in range(40)]
    frame.to_csv(tmp_path / "data.csv", index=False)
    path = tmp_path / "c.toml"
    path.write_text(
        _GOOD.replace('sklearn = "iris"', 'csv = "data.csv"\ntarget = "label"')
    )
    assert main(["run", str(path), "--check"]) == 0
    assert "Config OK: 3 tasks would run." in capsys.readouterr().out
    path.write_text(_GOOD.replace('sklearn = "iris"', 'csv = "data.csv"\ntarget = "y"'))
    assert main(["run", str(path), "--check"]) == 2
    assert (
        "`datasets.iris.target`: column 'y' not in data.csv" in capsys.readouterr().err
    )


def test_openml_fetch_failure_exits_1(tmp_path, capsys, monkeypatch):
    """H: an OpenML data set that cannot be fetched (offline) is a run-time failure:
    exit 1 with one line naming the data set."""
    import sklearn.datasets

    def offline(**kwargs):
        raise OSError("network is unreachable")

    monkeypatch.setattr(sklearn.datasets, "fetch_openml", offline)
    path = tmp_path / "o.toml"
    path.write_text(_GOOD + "[datasets.credit]\nopenml = 31\n")
    code = main(["run", str(path), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 1
    assert len(err) == 1
    assert "data set 'credit' (openml 31) could not be loaded" in err[0]
    assert "network is unreachable" in err[0]


def test_all_tasks_failing_exits_1(tmp_path, capsys):
    """H: a learner failing on every task is a run-time failure (exit 1), reported
    in one line."""
    path = tmp_path / "f.toml"
    path.write_text(
        _GOOD.replace(
            'class = "sklearn.linear_model.LogisticRegression"',
            'class = "sklearn.dummy.DummyClassifier"\nparams = {strategy = "constant"}',
        )
    )
    code = main(["run", str(path), "--out", str(tmp_path / "out")])
    captured = capsys.readouterr()
    assert code == 1
    last = captured.err.strip().splitlines()[-1]
    assert last.startswith("sklearn-bench run: failed: ValueError")


def test_missing_config_and_store_exit_2(tmp_path, capsys):
    """H: a config file or store that does not exist is a usage error (exit 2)."""
    assert main(["run", str(tmp_path / "none.toml")]) == 2
    assert "config file not found" in capsys.readouterr().err
    assert main(["report", str(tmp_path / "none.sqlite")]) == 2
    assert "store not found" in capsys.readouterr().err
    assert main(["report", str(tmp_path)]) == 2
    assert "without metadata.json" in capsys.readouterr().err


def test_invalid_toml_exits_2(tmp_path, capsys):
    """H: a file that is not TOML gives one line saying so, exit 2."""
    path = tmp_path / "x.toml"
    path.write_text("[learners\n")
    assert main(["run", str(path)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "is not valid TOML" in err[0]


@pytest.mark.parametrize("argv", [[], ["demo"], ["run"], ["report"]])
def test_help_on_every_command(argv, capsys):
    """H: `--help` works on the program and every command and exits 0."""
    with pytest.raises(SystemExit) as exc:
        main([*argv, "--help"])
    assert exc.value.code == 0
    assert "usage: sklearn-bench" in capsys.readouterr().out


def test_run_help_documents_the_format(capsys):
    """H: `run --help` shows the config format (sections and the source keys)."""
    with pytest.raises(SystemExit):
        main(["run", "--help"])
    out = capsys.readouterr().out
    for word in (
        "[experiment]",
        "[learners.",
        "steps = [",
        "openml =",
        "csv =",
        "[analysis]",
    ):
        assert word in out


def test_usage_errors_exit_2(capsys):
    """H: argparse usage errors (conflicting or missing arguments) exit 2; the bare
    command prints the help and returns 2."""
    for argv in (["demo", "--quick", "--full"], ["run"], ["nosuch"]):
        with pytest.raises(SystemExit) as exc:
            main(argv)
        assert exc.value.code == 2
    assert main([]) == 2
    assert "demo" in capsys.readouterr().out


def test_console_exit_code_of_a_bad_config(tmp_path):
    """H: the real process (python -m sklearn_bench) exits with status 2 on a bad
    config and prints one line on stderr."""
    path = tmp_path / "bad.toml"
    path.write_text(_GOOD + "[experimnt]\n")
    proc = subprocess.run(
        [sys.executable, "-m", "sklearn_bench", "run", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [
        "sklearn-bench run: error: config key `experimnt`: unknown key; expected "
        "one of ['analysis', 'datasets', 'experiment', 'learners', 'output']"
    ]


@pytest.mark.parametrize("argv", [["demo", "--quick"], ["run", str(EXAMPLE_CONFIG)]])
def test_without_matplotlib_says_how_to_install_it(argv, monkeypatch, capsys):
    """H: without matplotlib (the `plot` extra) the commands stop before fitting with
    one line saying how to install it, exit 2."""
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and 'pip install "sklearn-bench[plot]"' in err[0]


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_run_with_a_store_resumes(tmp_path, capsys, monkeypatch):
    """H: `experiment.store` (relative to the current directory) journals the run;
    running the same config again resumes from the store and reports the same numbers
    (here with a single learner, which the report handles: no pairs, no ranks)."""
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "s.toml"
    path.write_text(_GOOD.replace("cv = 3", 'cv = 3\nstore = "run.sqlite"'))
    assert main(["run", str(path), "--out", str(tmp_path / "a")]) == 0
    first = capsys.readouterr().out
    assert BenchmarkResult.from_store(tmp_path / "run.sqlite").n_missing_tasks == 0
    assert main(["run", str(path), "--out", str(tmp_path / "b")]) == 0
    second = capsys.readouterr().out
    part = slice(first.index("1. Effect sizes"), first.index("Report:"))
    assert second[second.index("1. Effect sizes") :].startswith(first[part])


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_run_on_a_grown_config_runs_only_the_new_tasks(tmp_path, capsys, monkeypatch):
    """H: running a config with a store, then the same config with one more
    learner, fits only that learner's tasks and says how many were reused; merge
    combines two stores (exit 0) and refuses a conflicting one (exit 2)."""
    monkeypatch.chdir(tmp_path)  # a relative store is under the current directory
    path = tmp_path / "s.toml"
    text = _GOOD.replace("cv = 3", 'cv = 3\nstore = "run.sqlite"')
    path.write_text(text)
    assert main(["run", str(path), "--out", str(tmp_path / "a")]) == 0
    assert "Fitted 3 tasks" in capsys.readouterr().out
    grown = text + '[learners.dummy]\nclass = "sklearn.dummy.DummyClassifier"\n'
    path.write_text(grown)
    assert main(["run", str(path), "--out", str(tmp_path / "b")]) == 0
    out = capsys.readouterr().out
    assert "Fitted 3 new task(s)" in out and "reused 3 task(s)" in out
    other = tmp_path / "o.toml"
    other.write_text(
        grown.replace("run.sqlite", "other.sqlite")
        .replace('sklearn = "iris"', 'sklearn = "wine"')
        .replace("[datasets.iris]", "[datasets.wine]")
    )
    assert main(["run", str(other), "--out", str(tmp_path / "c")]) == 0
    capsys.readouterr()
    merged = tmp_path / "merged.sqlite"
    sources = [str(tmp_path / "run.sqlite"), str(tmp_path / "other.sqlite")]
    assert main(["merge", str(merged), *sources]) == 0
    assert "Merged 12 task(s) from 2 store(s)" in capsys.readouterr().out
    result = BenchmarkResult.from_store(merged)
    assert list(result.datasets) == ["iris", "wine"]
    assert result.learners == ["lr", "dummy"]
    seeded = tmp_path / "seed.toml"
    seeded.write_text(
        grown.replace("random_state = 0", "random_state = 1").replace(
            "run.sqlite", "seed.sqlite"
        )
    )
    assert main(["run", str(seeded), "--out", str(tmp_path / "d")]) == 0
    capsys.readouterr()
    code = main(["merge", str(merged), str(tmp_path / "seed.sqlite")])
    assert code == 2
    assert "another configuration" in capsys.readouterr().err
