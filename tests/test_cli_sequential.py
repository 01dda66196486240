"""Tests of `sklearn-bench run CONFIG --sequential` (sklearn_bench/cli/)."""

import pandas as pd
import pytest
from sklearn.datasets import make_classification

from sklearn_bench.cli import main

pytest.importorskip("matplotlib")


def _config(folder, extra="", learners=""):
    text = """
[experiment]
cv = 2
random_state = 0
store = "{store}"
[learners.lr]
class = "sklearn.linear_model.LogisticRegression"
[learners.dummy]
class = "sklearn.dummy.DummyClassifier"
{learners}""".format(learners=learners, store=(folder / "run.sqlite").as_posix())
    for i in range(12):
        X, y = make_classification(120, 4, random_state=i)
        frame = pd.DataFrame(X, columns=list("abcd")).assign(y=y)
        frame.to_csv(folder / f"d{i}.csv", index=False)
        text += f'[datasets.d{i}]\ncsv = "d{i}.csv"\ntarget = "y"\n'
    path = folder / "study.toml"
    path.write_text(text + extra)
    return path


def _decision(out):
    return next(line for line in out.splitlines() if "Sequential study" in line)


def test_interrupted_and_resumed_gives_the_same_decision(tmp_path, capsys):
    """Hypothesis: `run --sequential` stops when decided; a run interrupted
    after a few fits (its budget; a killed run leaves the same store) and run
    again without the budget reuses the stored fits and prints the decision of
    an uninterrupted run."""
    whole = tmp_path / "whole"
    whole.mkdir()
    assert main(["run", str(_config(whole)), "--sequential", "--out",
                 str(whole / "out")]) == 0  # fmt: skip
    expected = _decision(capsys.readouterr().out)
    assert "'lr' better than 'dummy'" in expected and "(decided)" in expected
    page = (whole / "out" / "report.html").read_text()
    assert '<section id="sequential">' in page and "NOT valid after looking" in page
    assert "Waudby-Smith, I. and Ramdas, A. (2024)" in page
    assert "Hoeffding race" in (whole / "out" / "methods.md").read_text()
    cut = tmp_path / "cut"
    cut.mkdir()
    path = _config(cut, "[sequential]\nmax_fits = 4\n")
    assert main(["run", str(path), "--sequential", "--out", str(cut / "out")]) == 0
    assert "(budget)" in _decision(capsys.readouterr().out)
    path = _config(cut)
    assert main(["run", str(path), "--sequential", "--out", str(cut / "out")]) == 0
    out = capsys.readouterr().out
    assert _decision(out) == expected and "reused 4 task(s)" in out


def test_bad_sequential_settings_exit_2(tmp_path, capsys):
    """Hypothesis: a bad [sequential] key or a metric without known bounds is
    one clear line naming it, exit 2."""
    path = _config(tmp_path, "[sequential]\nmax_fits = 0\n")
    assert main(["run", str(path), "--sequential", "--check"]) == 2
    assert "sequential.max_fits" in capsys.readouterr().err
    path = _config(tmp_path, "[sequential]\nbounds = [0, 1]\n[analysis]\n")
    text = path.read_text().replace("cv = 2", 'cv = 2\nscoring = "log_loss"')
    path.write_text(text.replace("bounds = [0, 1]\n", ""))
    assert main(["run", str(path), "--sequential", "--check"]) == 2
    assert "--sequential: The bounds of metric 'log_loss'" in capsys.readouterr().err


def test_racing_report(tmp_path, capsys):
    """Hypothesis: with three learners the race drops the dummy, and the report
    (analysed over learners with missing data sets) says when and why."""
    path = _config(
        tmp_path,
        learners="[learners.lr2]\nclass = "
        '"sklearn.linear_model.LogisticRegression"\nparams = {C = 0.1}\n',
    )
    assert main(["run", str(path), "--sequential", "--out", str(tmp_path / "o")]) == 0
    page = (tmp_path / "o" / "report.html").read_text()
    assert "Learners dropped by the race" in page and "anytime-valid" in page


def test_sigkilled_and_resumed_gives_the_same_decision(tmp_path, capsys):
    """Hypothesis: `run --sequential` SIGKILLed in a subprocess once some tasks
    are committed (a user's Ctrl-\\ or an OOM kill), then run again on the same
    store, reuses the committed fits and prints the decision of a run never
    interrupted (the data-set order and every fit are seeded)."""
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    whole = tmp_path / "whole"
    whole.mkdir()
    assert main(["run", str(_config(whole)), "--sequential", "--out",
                 str(whole / "out")]) == 0  # fmt: skip
    expected = _decision(capsys.readouterr().out)
    killed = tmp_path / "killed"
    killed.mkdir()
    path = _config(killed)
    store = killed / "run.sqlite"
    child = subprocess.Popen(
        [sys.executable, "-m", "sklearn_bench", "run", str(path), "--sequential",
         "--n-jobs", "1", "--out", str(killed / "out")],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    committed = 0
    try:
        for _ in range(1200):  # polls, not a time limit: the child may end first
            if child.poll() is not None:
                break
            if store.exists():
                try:
                    with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
                        committed = db.execute("SELECT COUNT(*) FROM tasks").fetchone()[
                            0
                        ]
                except sqlite3.Error:
                    committed = 0
            if committed >= 3:
                child.send_signal(signal.SIGKILL)
                break
            time.sleep(0.05)
    finally:
        child.wait()
    if child.returncode == 0:
        pytest.skip("the run finished before it could be killed")
    assert child.returncode == -signal.SIGKILL
    assert main(["run", str(path), "--sequential", "--out", str(killed / "out"),
                 "--force"]) == 0  # fmt: skip
    out = capsys.readouterr().out
    assert _decision(out) == expected
    assert committed >= 3  # killed with fits in its store (whether the last
    # fit call of the resumed run reuses any depends on where the kill fell)
