"""Tests of sklearn_bench/store/_repair.py: a damaged store is named and
salvaged, ``overwrite=True`` replaces it, and a store is checkpointed into one file."""

import os
import shutil
import subprocess
import sys
import textwrap
import warnings

import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.store import (
    CorruptStoreError,
    checkpoint_store,
    salvage_store,
)

pytest.importorskip("matplotlib")  # the CLI report

X, Y = load_iris(return_X_y=True)


def _experiment(store, **kwargs):
    return BenchmarkExperiment(
        {"nb": GaussianNB(), "tree": DecisionTreeClassifier()},
        cv=BootstrapOOB(n_bootstraps=60),
        random_state=0,
        progress=False,
        store=store,
        keep_predictions=True,
        **kwargs,
    )


@pytest.fixture(scope="module")
def good_store(tmp_path_factory):
    """A complete store of 120 tasks with predictions, and its result."""
    path = tmp_path_factory.mktemp("store") / "run.sqlite"
    exp = _experiment(path).fit({"iris": (X, Y)})
    assert not os.path.exists(f"{path}-wal")
    return path, exp.results_


def _truncated(good_store, tmp_path):
    path = tmp_path / "truncated.sqlite"
    shutil.copy(good_store[0], path)
    with open(path, "r+b") as file:  # the last 3 pages (of 4 kB) are lost
        file.truncate(os.path.getsize(path) - 3 * 4096)
    return path


def _overwritten(good_store, tmp_path):
    path = tmp_path / "overwritten.sqlite"
    shutil.copy(good_store[0], path)
    size = os.path.getsize(path)
    with open(path, "r+b") as file:
        file.seek(size // 2)
        file.write(b"\xff" * 8192)
    return path


DAMAGES = {"truncated": _truncated, "overwritten": _overwritten}


def _same(result, reference):
    cols = ["fit_time", "score_time"]
    pd.testing.assert_frame_equal(
        result.scores.drop(columns=cols), reference.scores.drop(columns=cols)
    )
    pd.testing.assert_frame_equal(result.predictions, reference.predictions)


@pytest.mark.parametrize("damage", DAMAGES)
def test_damaged_store_is_named_with_the_way_out(good_store, tmp_path, damage):
    """H: a truncated store and one with overwritten pages (whose scores still
    read: only SQLite's quick_check sees the damage) raise CorruptStoreError from
    from_store and from fit, naming the file, salvage, overwrite=True and the -wal
    file (it used to be sqlite3's bare 'database disk image is malformed')."""
    path = DAMAGES[damage](good_store, tmp_path)
    for call in (
        lambda: BenchmarkResult.from_store(path),
        lambda: _experiment(path).fit({"iris": (X, Y)}),
    ):
        with pytest.raises(CorruptStoreError) as info:
            call()
        message = str(info.value)
        assert message.startswith(f"The store {str(path)!r} is corrupt (SQLite: ")
        assert f"sklearn-bench store salvage {path} NEW.sqlite" in message
        assert "`overwrite=True`" in message and "'-wal' file" in message


@pytest.mark.parametrize("damage", DAMAGES)
def test_salvaged_store_resumes_to_the_same_result(good_store, tmp_path, damage):
    """H: salvage copies the readable committed tasks (some, not all) into a new
    store; fitting the same experiment on it reruns only the lost ones and gives
    the scores and predictions of the undamaged run, bit for bit."""
    path = DAMAGES[damage](good_store, tmp_path)
    report = salvage_store(path, tmp_path / "new.sqlite")
    assert report.n_tasks == 120
    assert 0 < report.n_committed < 120
    assert report.n_committed + report.n_lost == 120
    with pytest.warns(UserWarning, match="missing"):
        partial = BenchmarkResult.from_store(tmp_path / "new.sqlite")
    assert partial.n_missing_tasks == 120 - report.n_committed
    resumed = _experiment(tmp_path / "new.sqlite").fit({"iris": (X, Y)}).results_
    _same(resumed, good_store[1])


def test_overwrite_replaces_a_corrupt_store(good_store, tmp_path):
    """H: fit(..., overwrite=True) on a corrupt store deletes it with a warning and
    runs afresh (it used to fail like the plain fit, leaving deletion by hand)."""
    path = _truncated(good_store, tmp_path)
    with pytest.warns(UserWarning, match="was deleted and replaced"):
        result = _experiment(path, overwrite=True).fit({"iris": (X, Y)}).results_
    _same(result, good_store[1])


def test_salvage_refuses_an_existing_target_and_a_non_store(good_store, tmp_path):
    """H: salvage never overwrites `new_path` and refuses a file that is not an
    SQLite store, naming the argument or file."""
    with pytest.raises(ValueError, match="`new_path` .* exists"):
        salvage_store(good_store[0], good_store[0])
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    with pytest.raises(ValueError, match="is not an SQLite file"):
        salvage_store(other, tmp_path / "new.sqlite")


_KILLED_WRITER = """
import os, sys
from sklearn_bench.store._schema import Task
from sklearn_bench.store._writer import StoreWriter
tasks = [Task("d", s, s, 0, "m") for s in range(5)]
writer = StoreWriter(sys.argv[1])
writer.start({"a": 1}, tasks,
             {"metrics": {"loss": False}, "datasets": {"d": "real world"},
              "learners": ["m"], "info": {"seed": 0}}, keep_predictions=False)
for i, t in enumerate(tasks[:4]):
    row = dict(dataset="d", learner="m", split=i, replicate=i, fold=0, metric="loss",
               value=0.1 * i, fit_time=0.0, score_time=0.0, n_train=1, n_test=1,
               error_type="", error_message="", traceback="")
    writer.write(i, {"rows": [row], "predictions": None})
os._exit(0)  # killed: no close, so no checkpoint
"""


def _killed_store(tmp_path):
    path = tmp_path / "killed.sqlite"
    env = dict(os.environ, PYTHONPATH=os.getcwd())
    subprocess.run([sys.executable, "-c", textwrap.dedent(_KILLED_WRITER), str(path)],
                   check=True, env=env)  # fmt: skip
    assert os.path.getsize(f"{path}-wal") > 0
    return path


def _committed_in_copy(path, tmp_path):
    copy = tmp_path / "copy" / "store.sqlite"
    copy.parent.mkdir(exist_ok=True)
    shutil.copy(path, copy)  # the file alone, without its -wal
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # a partial run
            return 5 - BenchmarkResult.from_store(copy).n_missing_tasks
    except ValueError:  # not even the task list was checkpointed
        return 0
    finally:
        shutil.rmtree(copy.parent)


def test_copy_without_wal_loses_tasks_until_checkpointed(tmp_path):
    """H: a store whose writer was killed keeps its 4 committed tasks in the -wal
    file: a copy of the store file alone has fewer; after checkpoint_store the
    file alone has all 4 and the -wal file is gone."""
    path = _killed_store(tmp_path)
    assert _committed_in_copy(path, tmp_path) < 4
    assert checkpoint_store(path) > 0
    assert not os.path.exists(f"{path}-wal")
    assert _committed_in_copy(path, tmp_path) == 4


def test_store_commands_of_the_cli(good_store, tmp_path, capsys):
    """H: `store check` says ok with the count, or corrupt with how many tasks can
    be salvaged (exit 2); `store salvage` writes the new store; `store checkpoint`
    makes one file; `report` on a corrupt store is exit 2 naming it."""
    from sklearn_bench.cli import main

    assert main(["store", "check", str(good_store[0])]) == 0
    out = capsys.readouterr().out
    assert "the task list, and 120 of 120 committed task(s) match" in out
    assert "120 of 120 task(s) committed" in out
    bad = _truncated(good_store, tmp_path)
    assert main(["store", "check", str(bad)]) == 2
    captured = capsys.readouterr()
    assert "corrupt. " in captured.out and "can be salvaged" in captured.out
    assert f"error: The store {str(bad)!r} is corrupt" in captured.err
    assert main(["report", str(bad), "--out", str(tmp_path / "r")]) == 2
    assert "is corrupt" in capsys.readouterr().err
    assert main(["store", "salvage", str(bad), str(tmp_path / "new.sqlite")]) == 0
    assert "Salvaged" in capsys.readouterr().out
    path = _killed_store(tmp_path)
    assert main(["store", "checkpoint", str(path)]) == 0
    assert "one self-contained file" in capsys.readouterr().out
