"""One overwrite policy for `demo`, `run` and `report` (sklearn_bench/cli/):
outputs are checked before anything is fitted, an existing output is replaced
only with --force, and --force never replaces or deletes a file the package did
not write (issues 20 and 21)."""

import json
import re
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from sklearn_bench.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_CONFIG = ROOT / "examples" / "configs" / "demo.toml"


def _snapshot(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def test_run_refuses_a_folder_with_the_users_files_before_fitting(tmp_path, capsys):
    """H: `run --out mine` where mine holds the user's report.html, methods.md,
    results/scores.csv and results/predictions.csv exits 2 before fitting, with
    or without --force, and leaves every byte of the folder as it was."""
    mine = tmp_path / "mine"
    (mine / "results").mkdir(parents=True)
    for name in ("report.html", "methods.md", "results/scores.csv",
                 "results/predictions.csv", "notes.txt"):  # fmt: skip
        (mine / name).write_text(f"the user's {name}")
    before = _snapshot(mine)
    for extra in ([], ["--force"]):
        code = main(["run", str(EXAMPLE_CONFIG), "--out", str(mine), *extra])
        out, err = capsys.readouterr()
        assert code == 2
        assert "Fitted" not in out
        assert "report.html" in err
        if extra:
            assert "did not write" in err
        else:
            assert "--force" in err
        assert _snapshot(mine) == before


def test_run_out_a_file_fails_before_fitting(tmp_path, capsys):
    """H: `run --out a_file` exits 2 with a sentence naming the file, before any
    task is fitted."""
    target = tmp_path / "a_file"
    target.write_text("mine")
    code = main(["run", str(EXAMPLE_CONFIG), "--out", str(target)])
    out, err = capsys.readouterr()
    assert code == 2 and "Fitted" not in out
    assert "is a file, not a folder" in err
    assert target.read_text() == "mine"


def test_demo_never_deletes_an_existing_store(tmp_path, capsys):
    """H: `demo --out myproj` where myproj holds a results.sqlite the demo did
    not write exits 2 (also with --force) and keeps the store byte for byte."""
    proj = tmp_path / "myproj"
    proj.mkdir()
    (proj / "results.sqlite").write_bytes(b"a store of 360 tasks")
    for extra in ([], ["--force"]):
        code = main(["demo", "--quick", "--out", str(proj), "--n-jobs", "1", *extra])
        assert code == 2
        assert (proj / "results.sqlite").read_bytes() == b"a store of 360 tasks"
    assert "results.sqlite" in capsys.readouterr().err


def test_demo_force_replaces_its_own_outputs_and_removes_stale_ones(tmp_path):
    """H: a second `demo` into the same folder is refused without --force; with
    --force it replaces what the first one wrote, removes a stale file the first
    one had written, and keeps a file of the user's that is not an output."""
    out = tmp_path / "demo"
    args = ["demo", "--quick", "--out", str(out), "--n-jobs", "1"]
    assert main(args) == 0
    manifest = json.loads((out / ".sklearn_bench_outputs.json").read_text())
    assert "report.html" in manifest["files"]
    assert "results.sqlite" in manifest["files"]
    # a figure an earlier version wrote, listed as the package's own
    stale = out / "figures" / "distribution_gone-00000000.png"
    stale.write_bytes(b"old")
    manifest["files"].append("figures/distribution_gone-00000000.png")
    (out / ".sklearn_bench_outputs.json").write_text(json.dumps(manifest))
    (out / "my_notes.txt").write_text("keep me")
    assert main(args) == 2
    assert stale.exists()
    assert main([*args, "--force"]) == 0
    assert not stale.exists()
    assert (out / "my_notes.txt").read_text() == "keep me"
    assert (out / "report.html").is_file()


def test_report_keeps_the_users_files_and_the_configs_title(tmp_path, capsys):
    """H: `report STORE` beside a methods.md of the user's writes into a folder
    of its own (results-report) and keeps the user's file; the report's title
    is the run config's [output] title."""
    config = tmp_path / "c.toml"
    store = tmp_path / "run" / "results.sqlite"
    store.parent.mkdir()
    text = EXAMPLE_CONFIG.read_text().replace(
        "[experiment]", f'[experiment]\nstore = "{store.as_posix()}"', 1
    )
    text = re.sub(r"(?m)^title = .*$", 'title = "My own title"', text)
    config.write_text(text)
    assert main(["run", str(config), "--out", str(tmp_path / "out")]) == 0
    (store.parent / "methods.md").write_text("the user's methods")
    capsys.readouterr()
    assert main(["report", str(store)]) == 0
    assert (store.parent / "methods.md").read_text() == "the user's methods"
    page = (store.parent / "results-report" / "report.html").read_text()
    assert "<title>My own title</title>" in page


def test_refused_changed_learner_says_every_difference_and_exits_2(tmp_path, capsys):
    """H: running a config whose learner changed under the same name against the
    old store exits 2 (a refused input) and prints the differences in full, in
    the CLI's words (no `overwrite=True`)."""
    store = tmp_path / "s.sqlite"
    base = EXAMPLE_CONFIG.read_text().replace(
        "[experiment]", f'[experiment]\nstore = "{store.as_posix()}"', 1
    )
    config = tmp_path / "c.toml"
    config.write_text(base)
    assert main(["run", str(config), "--out", str(tmp_path / "o1")]) == 0
    config.write_text(base.replace("max_iter = 2000", "max_iter = 50"))
    capsys.readouterr()
    code = main(["run", str(config), "--out", str(tmp_path / "o2")])
    err = capsys.readouterr().err
    assert code == 2
    assert "Differences:" in err and "max_iter" in err
    assert "overwrite=True" not in err
    assert not (tmp_path / "o2" / "report.html").exists()


@pytest.mark.parametrize("kind", ["sqlite", "parquet"])
def test_foreign_file_as_the_store_exits_2_from_run(tmp_path, capsys, kind):
    """H: a config whose experiment.store is a foreign SQLite database or a
    Parquet file is a refused input: `run` exits 2 with a sentence in CLI words
    and leaves the file as it was (issue 21.8)."""
    import sqlite3

    store = tmp_path / f"foreign.{kind}"
    if kind == "sqlite":
        with sqlite3.connect(store) as conn:
            conn.execute("CREATE TABLE x (a)")
    else:
        store.write_bytes(b"PAR1 not a store")
    before = store.read_bytes()
    config = tmp_path / "c.toml"
    config.write_text(
        EXAMPLE_CONFIG.read_text().replace(
            "[experiment]", f'[experiment]\nstore = "{store.as_posix()}"', 1
        )
    )
    code = main(["run", str(config), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert code == 2
    assert "not a sklearn_bench store" in err and "overwrite" not in err
    assert store.read_bytes() == before


# -- issue 50: derived folders never through a link; outputs never over inputs --


@pytest.fixture(scope="module")
def small_store(tmp_path_factory):
    from sklearn.datasets import load_iris, load_wine
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench import BenchmarkExperiment

    store = tmp_path_factory.mktemp("small") / "run.sqlite"
    learners = {"nb": GaussianNB(), "dummy": DummyClassifier()}
    data = {"iris": load_iris(return_X_y=True), "wine": load_wine(return_X_y=True)}
    BenchmarkExperiment(learners, cv=3, random_state=0, progress=False,
                        store=store).fit(data)  # fmt: skip
    return store


def test_a_planted_link_at_the_derived_report_folder_is_refused(
    small_store, tmp_path, capsys
):
    """H: in a shared folder, `run-report -> victim` (a name `report` chose
    itself) is refused with exit 2 and nothing is written into the victim (on
    ff4c58f the report was written there, exit 0); a link the user names with
    --out is followed."""
    shared = tmp_path / "shared"
    shared.mkdir()
    store = shared / "run.sqlite"
    store.write_bytes(small_store.read_bytes())
    victim = tmp_path / "victim"
    victim.mkdir()
    (shared / "run-report").symlink_to(victim)
    assert main(["report", str(store)]) == 2
    assert "symbolic link" in capsys.readouterr().err
    assert list(victim.iterdir()) == []
    mine = tmp_path / "mine"
    mine.symlink_to(victim)
    assert main(["report", str(store), "--out", str(mine)]) == 0
    assert (victim / "report.html").is_file()


@pytest.mark.parametrize("command", ["leaderboard", "report"])
def test_no_command_writes_over_its_own_input(command, small_store, tmp_path, capsys):
    """H: `leaderboard STORE --out STORE --force` (in a folder whose manifest
    lists the store, as the demo's does) and `report STORE --out FOLDER` where
    the store is one of the report's outputs are refused with exit 2 and the
    store kept (on ff4c58f the store was replaced by its CSV)."""
    store = tmp_path / "run.sqlite"
    if command == "report":
        (tmp_path / "tables").mkdir()
        store = tmp_path / "tables" / "run.sqlite"
    data = small_store.read_bytes()
    store.write_bytes(data)
    (tmp_path / ".sklearn_bench_outputs.json").write_text(
        json.dumps({"files": ["run.sqlite", "tables/run.sqlite"]})
    )
    assert main([command, str(store), "--out", str(
        store if command == "leaderboard" else tmp_path), "--force"]) == 2  # fmt: skip
    assert "own input" in capsys.readouterr().err
    assert store.read_bytes() == data


def test_a_reader_that_has_gone_is_exit_0_and_the_work_done(small_store, tmp_path):
    """H: `leaderboard STORE | head -0` (the reader gone before the first line)
    exits 0 with nothing on stderr and still writes its CSV (on ff4c58f
    `report … | head` exited 1 with BrokenPipeError)."""
    import os
    import subprocess
    import sys

    read, write = os.pipe()
    os.close(read)  # the reader has gone
    out = tmp_path / "b.csv"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "sklearn_bench", "leaderboard", str(small_store),
         "--out", str(out)],
        stdout=write, stderr=subprocess.PIPE, env=env, text=True,
    )  # fmt: skip
    os.close(write)
    assert done.returncode == 0, done.stderr
    assert done.stderr == "" and out.is_file()
