"""Reads verify the per-task checksums (issue 29, item 3): the batched digests
of sklearn_bench/store/_digests.py equal task_digest's, and a value changed in
a store is refused by from_store, report and leaderboard, naming its task."""

import shutil
import sqlite3
import warnings

import numpy as np
import pytest
from sklearn.datasets import load_diabetes, load_iris
from sklearn.dummy import DummyClassifier
from sklearn.exceptions import FitFailedWarning
from sklearn.linear_model import Ridge
from sklearn.naive_bayes import GaussianNB

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.store import CorruptStoreError, verify_checksums
from sklearn_bench.store._digests import committed_digests
from sklearn_bench.store._integrity import read_task, task_digest
from sklearn_bench.store._reader import read_store

pytest.importorskip("matplotlib")  # the command line

from sklearn_bench.cli import main  # noqa: E402


class Failing(DummyClassifier):
    """Fails on every other split (a recorded failure: texts, NULL score)."""

    def fit(self, X, y):
        if len(y) % 2:
            raise RuntimeError("odd\nsplit ünïcode")
        return super().fit(X, y)


def _fit(store, learners, data, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FitFailedWarning)  # Failing's, on purpose
        BenchmarkExperiment(
            learners, cv=4, random_state=0, progress=False, store=store, **kwargs
        ).fit(data)
    return store


@pytest.fixture(scope="module")
def stores(tmp_path_factory):
    folder = tmp_path_factory.mktemp("digests")
    X, y = load_iris(return_X_y=True)
    return {
        "classification": _fit(
            folder / "c.sqlite",
            {"nb": GaussianNB(), "fails": Failing()},
            {"iris": (X, y), "iris-odd": (X[:149], y[:149])},
            keep_predictions=True,
            error_score=np.nan,
        ),
        "regression": _fit(
            folder / "r.sqlite",
            {"ridge": Ridge()},
            {"diabetes": load_diabetes(return_X_y=True)},
            keep_predictions=True,
            scoring=["neg_mean_squared_error", "r2"],
        ),
    }


def _one_by_one(path):
    with sqlite3.connect(path) as conn:
        done = [o for (o,) in conn.execute("SELECT DISTINCT ordinal FROM scores")]
        return {o: task_digest(*read_task(conn, o)) for o in done}


@pytest.mark.parametrize("kind", ["classification", "regression"])
def test_batched_digests_equal_task_digest(kind, stores, tmp_path):
    """H: the digests laid out with numpy equal task_digest's, value by value,
    for failures (texts, NULL scores), kept predictions of both kinds, several
    metrics, and an integer score (left to task_digest); and they equal the
    stored ones."""
    path = tmp_path / "s.sqlite"
    shutil.copyfile(stores[kind], path)
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE scores SET value = 1 WHERE ordinal = 0")  # integer
        conn.execute("DELETE FROM checksums WHERE ordinal = 0")
        batched, _ = committed_digests(conn)
        stored = dict(conn.execute("SELECT ordinal, digest FROM checksums"))
    assert batched == _one_by_one(path)
    assert {o: batched[o] for o in stored} == stored


def _tampered(stores, tmp_path, sql):
    path = tmp_path / "tampered.sqlite"
    shutil.copyfile(stores["classification"], path)
    with sqlite3.connect(path) as conn:
        conn.execute(sql)
    return path


TAMPERS = {
    "score": "UPDATE scores SET value = value + 0.03125 WHERE ordinal = 2",
    "size": "UPDATE scores SET n_test = n_test + 1 WHERE ordinal = 2",
    "failure text": "UPDATE scores SET error_message = 'x' WHERE ordinal = 2",
    "prediction": "UPDATE predictions SET correct = zeroblob(length(correct)) "
    "WHERE ordinal = 2",
    "checksum deleted": "DELETE FROM checksums WHERE ordinal = 2",
}


@pytest.mark.parametrize("tamper", TAMPERS)
def test_reads_refuse_a_changed_value_and_name_its_task(tamper, stores, tmp_path):
    """H: a value changed after it was written (a bit of a score, a size, a
    failure text, kept predictions, or its checksum deleted) is refused by
    read_store / from_store with a CorruptStoreError naming the task, and
    `report` and `leaderboard` exit 2 (on main they used the value, exit 0)."""
    path = _tampered(stores, tmp_path, TAMPERS[tamper])
    with sqlite3.connect(path) as conn:
        _, d, s, _, _, m = conn.execute(
            "SELECT * FROM tasks WHERE ordinal = 2"
        ).fetchone()
    named = f"{m!r} on {d!r} split {s}"
    for read in (read_store, BenchmarkResult.from_store):
        with pytest.raises(CorruptStoreError, match="do not match their checksum"):
            read(path)
    with pytest.raises(CorruptStoreError) as info:
        read_store(path)
    assert named in str(info.value)
    assert verify_checksums(path)["mismatched"] == [(d, s, m)]
    assert main(["report", str(path), "--out", str(tmp_path / "out")]) == 2
    assert main(["leaderboard", str(path)]) == 2
    assert main(["store", "check", str(path)]) == 2


def test_an_intact_store_reads_as_before(stores):
    """H: verification refuses nothing in an intact store: every task matches."""
    for path in stores.values():
        report = verify_checksums(path)
        assert report["n_verified"] == report["n_committed"] > 0
        assert len(read_store(path)["scores"]) > 0
