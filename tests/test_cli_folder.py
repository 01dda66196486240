"""The output folder of `run`, `report` and `demo` (sklearn_bench/cli/_files.py):
a study that grows reruns into its own folder without --force (issue 28, item
11); a crashed or a concurrent writer never leaves a folder that --force or a
rerun cannot replace, nor mixes two reports (issue 29, item 9)."""

import json
import os
import re
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from sklearn_bench._io import folder_lock  # noqa: E402
from sklearn_bench.cli import _files, main  # noqa: E402

MANIFEST = ".sklearn_bench_outputs.json"

CONFIG = """
[experiment]
scoring = "error_rate"
n_jobs = 1
random_state = 0
{store}

[experiment.cv]
class = "sklearn_bench.model_selection.BootstrapOOB"
params = {{ n_bootstraps = 3 }}

[learners.dlda]
class = "sklearn_bench.estimators.DiagonalLDA"

[learners.logreg]
steps = [
  {{ class = "sklearn.preprocessing.StandardScaler" }},
  {{class = "sklearn.linear_model.LogisticRegression", params = {{max_iter = 300}}}},
]
{extra}
[datasets.breast_cancer]
sklearn = "breast_cancer"

[datasets.wine_0v1]
sklearn = "wine"
classes = [0, 1]

[analysis]
run = ["effects", "friedman", "pairwise", "win_tie_loss"]
"""

NB = """
[learners.nb]
class = "sklearn.naive_bayes.GaussianNB"
"""


def _config(folder, *, store="s.sqlite", extra="", name="c.toml"):
    text = CONFIG.format(
        store="" if store is None else f'store = "{(folder / store).as_posix()}"',
        extra=extra,
    )
    path = folder / name
    path.write_text(text)
    return path


def _snapshot(folder):
    return {
        p.relative_to(folder).as_posix(): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _run(config, out, *extra):
    return main(["run", str(config), "--out", str(out), *extra])


def test_a_study_grows_and_reruns_in_its_own_folder(tmp_path, capsys):
    """H: run, then the same config with one more learner into the same folder
    exits 0 without --force (the new learner in the refreshed report), an
    unchanged rerun exits 0, and a file of the user's in the folder is kept."""
    out = tmp_path / "out"
    config = _config(tmp_path)
    assert _run(config, out) == 0
    assert "GaussianNB" not in (out / "report.html").read_text()
    (out / "notes.txt").write_text("the user's notes")
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["study"] == {"store": os.path.realpath(tmp_path / "s.sqlite")}
    capsys.readouterr()
    config = _config(tmp_path, extra=NB)
    assert _run(config, out) == 0
    printed = capsys.readouterr().out
    assert "reused 12 task(s)" in printed
    assert "GaussianNB" in (out / "report.html").read_text()
    assert "nb" in (out / "performance.csv").read_text()
    assert _run(config, out) == 0
    assert "Fitted 0 new task(s)" in capsys.readouterr().out
    assert (out / "notes.txt").read_text() == "the user's notes"
    assert not list(out.glob(".sklearn_bench-writing-*"))
    assert not (out / ".sklearn_bench.lock").exists()


def test_a_rerun_without_a_store_refreshes_its_folder(tmp_path):
    """H: a config without experiment.store, run twice into one folder, exits 0
    both times (its outputs are identified by the config file's path)."""
    config = _config(tmp_path, store=None)
    assert _run(config, tmp_path / "out") == 0
    assert _run(config, tmp_path / "out") == 0


def test_a_changed_learner_is_refused_first_with_only_its_changed_keys(
    tmp_path, capsys
):
    """H: after a run, the same config with logreg's max_iter changed, run into
    the same folder, exits 2 naming only the changed key with both values (not
    the two whole parameter lists, not the folder), and the outputs stay as
    they were."""
    out = tmp_path / "out"
    config = _config(tmp_path)
    assert _run(config, out) == 0
    before = _snapshot(out)
    config.write_text(config.read_text().replace("max_iter = 300", "max_iter = 900"))
    capsys.readouterr()
    assert _run(config, out) == 2
    err = capsys.readouterr().err
    assert "logreg: logisticregression__max_iter 300 -> 900" in err
    assert "already holds" not in err
    assert "StandardScaler" not in err and "'tol'" not in err
    assert len(err.splitlines()) <= 3
    assert _snapshot(out) == before


def test_another_studys_folder_is_refused_without_force(tmp_path, capsys):
    """H: a run on another store into a folder written for the first store exits
    2 and names both stores, the folder unchanged; with --force it exits 0."""
    out = tmp_path / "out"
    assert _run(_config(tmp_path), out) == 0
    before = _snapshot(out)
    other = _config(tmp_path, store="other.sqlite", name="other.toml")
    capsys.readouterr()
    assert _run(other, out) == 2
    err = capsys.readouterr().err
    assert "--force" in err and "other.sqlite" in err and "s.sqlite" in err
    assert _snapshot(out) == before
    assert _run(other, out, "--force") == 0
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["study"]["store"].endswith("other.sqlite")


def test_an_older_manifest_still_needs_force(tmp_path, capsys):
    """H: outputs whose manifest names no study (written by an earlier version)
    are not refreshed without --force: exit 2, as before."""
    out = tmp_path / "out"
    config = _config(tmp_path)
    assert _run(config, out) == 0
    manifest = json.loads((out / MANIFEST).read_text())
    del manifest["study"]
    (out / MANIFEST).write_text(json.dumps(manifest))
    capsys.readouterr()
    assert _run(config, out) == 2
    assert "--force" in capsys.readouterr().err
    assert _run(config, out, "--force") == 0


@pytest.fixture
def stored(tmp_path):
    """A finished run (store tmp/s.sqlite, outputs in tmp/out)."""
    assert _run(_config(tmp_path), tmp_path / "out") == 0
    return tmp_path / "s.sqlite"


def test_a_report_that_crashes_keeps_the_previous_output(stored, monkeypatch):
    """H: a report into a folder with an earlier report, whose writer raises
    midway (after some figures are written), exits 1 and leaves the earlier
    report byte for byte, with no staging folder; the rerun (--force) exits 0."""
    import sklearn_bench.report._html as html

    folder = stored.parent / "rep"
    assert main(["report", str(stored), "--out", str(folder)]) == 0
    before = _snapshot(folder)

    def broken(*args, **kwargs):
        raise RuntimeError("the disk went away")

    monkeypatch.setattr(html, "write_latex_tables", broken)
    assert main(["report", str(stored), "--out", str(folder), "--force"]) == 1
    assert _snapshot(folder) == before
    monkeypatch.undo()
    assert main(["report", str(stored), "--out", str(folder), "--force"]) == 0


def test_a_first_report_that_crashes_leaves_a_folder_the_rerun_takes(
    stored, monkeypatch
):
    """H: the first report into a new folder crashing midway (the case where
    --force then said "did not write") leaves no output there; the same command
    then exits 0 without --force."""
    import sklearn_bench.report._html as html

    folder = stored.parent / "rep"
    monkeypatch.setattr(
        html,
        "write_latex_tables",
        lambda *a, **k: 1 / 0,  # a writer that fails
    )
    assert main(["report", str(stored), "--out", str(folder)]) == 1
    assert _files._present(folder, _files._REPORT_OUTPUTS) == []
    monkeypatch.undo()
    assert main(["report", str(stored), "--out", str(folder)]) == 0


def test_a_file_dropped_at_an_output_name_while_a_report_runs_is_kept(
    stored, monkeypatch, capsys
):
    """H: a file the user saves at an output name (report.html) while a report
    is being written, into a new folder, is not overwritten by the final move:
    the command exits 2 naming it, nothing of the report is moved in, no staging
    folder is left, and once the file is moved away the same command exits 0."""
    import sklearn_bench.report._html as html

    folder = stored.parent / "rep"
    write = html.write_latex_tables

    def user_saves_a_file(*args, **kwargs):
        (folder / "report.html").write_text("my notes")
        return write(*args, **kwargs)

    monkeypatch.setattr(html, "write_latex_tables", user_saves_a_file)
    assert main(["report", str(stored), "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "report.html" in err and "did not write" in err
    assert (folder / "report.html").read_text() == "my notes"
    assert _files._present(folder, _files._REPORT_OUTPUTS) == ["report.html"]
    assert not [p for p in folder.iterdir() if _files._STAGE in p.name]
    monkeypatch.undo()
    (folder / "report.html").rename(stored.parent / "notes.html")
    assert main(["report", str(stored), "--out", str(folder)]) == 0


def test_a_kill_while_files_move_leaves_outputs_the_next_run_replaces(
    stored, monkeypatch, capsys
):
    """H: a run killed after 5 of its files moved into place (simulated: the
    rename raises) leaves a folder whose every output the manifest lists for
    the same store, so the next plain run exits 0 (and so would --force), with
    every file consistent with the new manifest."""
    out = stored.parent / "out"
    config = stored.parent / "c.toml"
    config.write_text(config.read_text() + NB)
    calls = {"n": 0}
    replace = os.replace

    def killed(src, dst, **kwargs):
        calls["n"] += 1
        if calls["n"] > 5:
            raise KeyboardInterrupt  # as a kill would stop it
        replace(src, dst, **kwargs)

    monkeypatch.setattr(_files.os, "replace", killed)
    assert _run(config, out) == 130
    monkeypatch.undo()
    listed = set(json.loads((out / MANIFEST).read_text())["files"])
    assert set(_files._present(out, _files._RUN_OUTPUTS)) <= listed
    capsys.readouterr()
    assert _run(config, out) == 0
    listed = set(json.loads((out / MANIFEST).read_text())["files"])
    assert set(_files._present(out, _files._RUN_OUTPUTS)) == listed
    assert "GaussianNB" in (out / "report.html").read_text()


def test_a_second_writer_is_refused_while_the_folder_is_locked(stored, capsys):
    """H: while another process holds the folder's lock (held here by the test),
    `report` and `run` into that folder exit 2, naming the lock file and how to
    clear a stale one, and write nothing; once it is released, report exits 0."""
    folder = stored.parent / "out"
    before = _snapshot(folder)
    with folder_lock(folder):
        capsys.readouterr()
        assert main(["report", str(stored), "--out", str(folder), "--force"]) == 2
        err = capsys.readouterr().err
        assert ".sklearn_bench.lock" in err and "delete" in err
        assert re.search(r"pid \d+", err)
        assert _run(stored.parent / "c.toml", folder) == 2
        assert _snapshot(folder) == {**before, ".sklearn_bench.lock": ANY_BYTES}
    assert main(["report", str(stored), "--out", str(folder), "--force"]) == 0


class _Any:
    def __eq__(self, other):
        return True


ANY_BYTES = _Any()


def test_outputs_are_never_moved_through_a_link(stored, tmp_path):
    """H: a symlinked figures/ planted in a run's output folder makes the next
    run exit 2 and nothing is written into the linked folder."""
    out = stored.parent / "out"
    victim = tmp_path / "victim"
    victim.mkdir()
    for p in (out / "figures").iterdir():
        p.unlink()
    (out / "figures").rmdir()
    os.symlink(victim, out / "figures")
    assert _run(stored.parent / "c.toml", out) == 2
    assert list(victim.iterdir()) == []


def test_the_leaderboard_csv_is_written_whole_under_the_lock(stored, capsys):
    """H: the leaderboard CSV is refused (exit 2) while its folder is locked,
    and written whole, listed in the manifest, once it is free."""
    with folder_lock(stored.parent):
        assert main(["leaderboard", str(stored)]) == 2
    assert ".sklearn_bench.lock" in capsys.readouterr().err
    assert not (stored.parent / "s-leaderboard.csv").exists()
    assert main(["leaderboard", str(stored)]) == 0
    assert (
        "s-leaderboard.csv"
        in json.loads((stored.parent / MANIFEST).read_text())["files"]
    )
    assert not [p for p in Path(stored.parent).iterdir() if "writing" in p.name]


def test_run_on_a_linked_store_exits_2(tmp_path, capsys):
    """H: a config whose experiment.store is a symbolic link to a store exits 2
    before fitting, naming the link, and the linked store is unchanged."""
    config = _config(tmp_path)
    assert _run(config, tmp_path / "out") == 0
    os.symlink(tmp_path / "s.sqlite", tmp_path / "link.sqlite")
    before = (tmp_path / "s.sqlite").read_bytes()
    config = _config(tmp_path, store="link.sqlite", extra=NB, name="l.toml")
    capsys.readouterr()
    assert _run(config, tmp_path / "out2") == 2
    captured = capsys.readouterr()
    assert "symbolic link" in captured.err and "Fitted" not in captured.out
    assert (tmp_path / "s.sqlite").read_bytes() == before


# -- issue 38: hard links, a swapped staging folder, the user's files -----------


def _results_csv(folder):
    """A results CSV of 3 learners on 6 data sets in ``folder``."""
    rows = [
        f"d{j},{name},{0.1 + 0.01 * ((j + k) % 3)}"
        for j in range(6)
        for k, name in enumerate(("nb", "tree", "knn"))
    ]
    path = folder / "results.csv"
    path.write_text("dataset,learner,error\n" + "\n".join(rows) + "\n")
    return path


def test_a_hard_linked_lock_never_writes_outside(tmp_path, outside, capsys):
    """H: a study folder unpacked with `.sklearn_bench.lock` hard-linked to a
    file of the user's: `leaderboard` exits 2 naming the lock as a hard link,
    and the user's file keeps its bytes (on 17a1a60 it was truncated and
    stamped "pid ..., since ..."); nothing outside the folder changes."""
    study = tmp_path / "study"
    study.mkdir()
    csv = _results_csv(study)
    os.link(outside.path / "notes.txt", study / ".sklearn_bench.lock")
    assert main(["leaderboard", str(csv), "--lower-is-better"]) == 2
    err = capsys.readouterr().err
    assert "hard link" in err and ".sklearn_bench.lock" in err
    assert "Traceback" not in err
    assert outside.unchanged()
    assert not (study / "results-leaderboard.csv").exists()


def test_a_hard_linked_lock_beside_a_store_is_refused_by_report(
    stored, outside, capsys
):
    """H: `report STORE` into the store's folder whose lock name is a hard link
    to the user's file exits 2 and changes nothing outside."""
    folder = stored.parent / "rep"
    folder.mkdir()
    os.link(outside.path / "notes.txt", folder / ".sklearn_bench.lock")
    capsys.readouterr()
    assert main(["report", str(stored), "--out", str(folder)]) == 2
    assert "hard link" in capsys.readouterr().err
    assert outside.unchanged()


def test_a_lock_that_is_a_folder_exits_2(stored, capsys):
    """H: a folder at the lock's name makes `report` exit 2 with a message that
    names it (on 17a1a60: exit 1 with an IsADirectoryError)."""
    folder = stored.parent / "rep"
    (folder / ".sklearn_bench.lock").mkdir(parents=True)
    capsys.readouterr()
    assert main(["report", str(stored), "--out", str(folder)]) == 2
    err = capsys.readouterr().err
    assert "is a folder" in err and ".sklearn_bench.lock" in err


def test_a_dangling_report_folder_link_exits_2(stored, outside, capsys):
    """H: with a report in STEM-report, `report STORE` picks STEM-report-2; a
    dangling link there exits 2 naming it (on 17a1a60: exit 1 with a
    FileExistsError traceback), and creates nothing where it points."""
    base = stored.parent / f"{stored.stem}-report"
    assert main(["report", str(stored), "--out", str(base)]) == 0
    os.symlink(outside.path / "new-folder", base.with_name(f"{base.name}-2"))
    capsys.readouterr()
    assert main(["report", str(stored)]) == 2
    err = capsys.readouterr().err
    assert "report-2" in err and "symbolic link to a missing folder" in err
    assert outside.unchanged()


def test_a_swapped_staging_folder_writes_nothing_outside(
    stored, outside, monkeypatch, capsys
):
    """H: a process that renames the staging folder while `report --out OUT`
    runs and puts a link to a folder of the user's in its place gets nothing
    written into that folder, nor moved out of it: the report's later writes
    go to the renamed folder held open, and the command exits 2 saying the
    staging folder was replaced (on 17a1a60, methods.md in the user's folder
    was overwritten and then moved into OUT)."""
    import sklearn_bench.report._html as html

    folder = stored.parent / "rep"
    (outside.path / "methods.md").write_text("the user's methods")
    outside.before = outside.digest()
    write = html.write_latex_tables

    def swap(*args, **kwargs):
        (stage,) = [p for p in folder.iterdir() if _files._STAGE in p.name]
        stage.rename(stored.parent / "moved")
        os.symlink(outside.path, stage)
        return write(*args, **kwargs)

    monkeypatch.setattr(html, "write_latex_tables", swap)
    capsys.readouterr()
    assert main(["report", str(stored), "--out", str(folder)]) == 2
    assert "staging folder" in capsys.readouterr().err
    assert outside.unchanged()
    assert (stored.parent / "moved" / "methods.md").exists()
    assert not (folder / "methods.md").exists()


def test_cleanup_never_removes_the_users_files(stored, outside, capsys):
    """H: a file and a folder of the user's whose names hold
    ".sklearn_bench-writing-" survive `report --force` and `run` into their
    folder (on 17a1a60 both were deleted without a message); no staging folder
    is left."""
    folder = stored.parent / "out"
    (folder / "thesis.sklearn_bench-writing-backup.txt").write_text("mine")
    (folder / "old.sklearn_bench-writing-dir").mkdir()
    (folder / ".sklearn_bench-writing-12345").mkdir()  # another tool's, say
    assert main(["report", str(stored), "--out", str(folder), "--force"]) == 0
    assert _run(stored.parent / "c.toml", folder) == 0
    assert (folder / "thesis.sklearn_bench-writing-backup.txt").read_text() == "mine"
    assert (folder / "old.sklearn_bench-writing-dir").is_dir()
    assert (folder / ".sklearn_bench-writing-12345").is_dir()
    staging = [
        p
        for p in folder.iterdir()
        if re.fullmatch(r"\.sklearn_bench-w.*[0-9a-f]{16}", p.name)
    ]
    assert staging == []
    assert "staging" not in json.loads((folder / MANIFEST).read_text())
    assert outside.unchanged()


def test_a_killed_commands_recorded_staging_folder_is_removed_next_time(
    stored, monkeypatch
):
    """H: the staging folder of a command killed while writing (its removal
    skipped) is recorded in the manifest, and the next command into the folder
    removes it, and only it."""
    folder = stored.parent / "rep"
    monkeypatch.setattr(_files, "_remove_stage", lambda *a, **k: None)
    monkeypatch.setattr(_files, "_commit", lambda *a, **k: 1 / 0)
    assert main(["report", str(stored), "--out", str(folder)]) == 1
    (left,) = [p for p in folder.iterdir() if _files._STAGE in p.name]
    monkeypatch.undo()
    # the manifest as a killed command leaves it: the staging folder recorded
    manifest = json.loads((folder / MANIFEST).read_text())
    (folder / MANIFEST).write_text(json.dumps({**manifest, "staging": [left.name]}))
    assert main(["report", str(stored), "--out", str(folder)]) == 0
    assert not left.exists()
    assert not [p for p in folder.iterdir() if _files._STAGE in p.name]
