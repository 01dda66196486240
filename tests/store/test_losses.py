"""The store's pointwise losses (issue 40, item 2): the ``losses`` table of
sklearn_bench/store/_schema.py, written by _writer.py, read by _reader.py and
covered by the per-task checksums of _integrity.py / _digests.py."""

import shutil
import sqlite3
import zlib

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import NestedCV
from sklearn_bench.store import CorruptStoreError, salvage_store, verify_checksums
from sklearn_bench.store._integrity import store_checksums
from sklearn_bench.store._reader import read_losses, read_store

X, Y = load_breast_cancer(return_X_y=True)
DATA = {"bc": (X[::3], Y[::3])}
N_TASKS = 2 * 9


def _experiment(store):
    return BenchmarkExperiment(
        {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)},
        cv=NestedCV(3, n_repeats=1, random_state=0),
        scoring=["error_rate", "log_loss"],
        random_state=0,
        progress=False,
        store=store,
    )


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A nested-CV store (2 learners x 9 splits) and the in-memory result."""
    path = tmp_path_factory.mktemp("losses") / "run.sqlite"
    _experiment(path).fit(DATA)
    memory = BenchmarkExperiment(**{**_experiment(None).get_params(), "store": None})
    return path, memory.fit(DATA).results_


def test_losses_read_back_equal_the_workers_and_average_to_the_scores(clean):
    """H: the losses read from the store equal, bit for bit, those of the same
    run in memory; every task's mean loss is its stored score (relative 1e-12)
    and its rows are its validation rows (one per validation row)."""
    path, memory = clean
    stored = read_losses(path)
    key = ["dataset", "learner", "split", "metric", "row"]
    a = stored.sort_values(key).reset_index(drop=True)
    b = memory.losses.astype(dict.fromkeys(("dataset", "learner", "metric"), str))
    b = b.sort_values(key).reset_index(drop=True)
    pd.testing.assert_frame_equal(a, b[a.columns], check_dtype=False)
    means = stored.groupby(["learner", "split", "metric"])["loss"].agg(["mean", "size"])
    scores = memory.scores.set_index(["learner", "split", "metric"])
    for (learner, split, metric), row in means.iterrows():
        score = scores.loc[(learner, split, metric)]
        np.testing.assert_allclose(row["mean"], score["value"], rtol=1e-12)
        assert row["size"] == score["n_test"]


def _tamper(path, ordinal=0, *, reseal=False, loss=None):
    """Change the first loss of a task; ``reseal`` recomputes its checksum (an
    edit that knows the digest) and ``loss`` replaces the blob."""
    with sqlite3.connect(path) as conn:
        n, blob = conn.execute(
            "SELECT n, loss FROM losses WHERE ordinal = ?", (ordinal,)
        ).fetchone()
        values = np.frombuffer(zlib.decompress(blob), dtype="<f8").copy()
        values[0] = 1.0 - values[0]
        new = zlib.compress(values.tobytes()) if loss is None else loss
        conn.execute("UPDATE losses SET loss = ? WHERE ordinal = ?", (new, ordinal))
        if reseal:
            store_checksums(conn, [ordinal])


def test_a_tampered_loss_is_refused(clean, tmp_path):
    """H: one loss changed in a store (its score untouched) no longer matches
    its task's checksum: reading the store (scores or losses) is refused,
    ``store check`` names the task, and salvage drops it and keeps the other
    tasks' losses bit for bit; the salvaged store resumes to the clean losses."""
    path, memory = clean
    bad = tmp_path / "bad.sqlite"
    shutil.copyfile(path, bad)
    _tamper(bad)
    for read in (read_store, read_losses, BenchmarkResult.from_store):
        with pytest.raises(CorruptStoreError, match="do not match their checksum"):
            read(bad)
    report = verify_checksums(bad)
    assert report["mismatched"] == [("bc", 0, "nb")]
    new = tmp_path / "new.sqlite"
    assert salvage_store(bad, new).n_lost == 1
    resumed = _experiment(new).fit(DATA)
    assert resumed.n_tasks_ == 1
    pd.testing.assert_frame_equal(read_losses(new), read_losses(path))


def test_a_resealed_loss_of_another_size_is_dropped_by_salvage(clean, tmp_path):
    """H: a losses row whose checksum was recomputed after its blob was cut
    (so the digest matches) fails the domain check of salvage, which drops the
    task and says why; the losses reader refuses it too."""
    path, _ = clean
    bad = tmp_path / "bad.sqlite"
    shutil.copyfile(path, bad)
    _tamper(bad, 3, reseal=True, loss=zlib.compress(b"\x00" * 8))
    with pytest.raises(CorruptStoreError, match="another size"):
        read_losses(bad)
    report = salvage_store(bad, tmp_path / "new.sqlite")
    assert report.n_lost == 1 and "another size" in str(report)


def test_inflating_losses_are_refused_within_their_stated_size(clean, tmp_path):
    """H: a re-signed store whose compressed losses inflate far beyond the
    task's validation rows (64 MB of zeros in 64 kB) is refused by the losses
    reader and salvage with a peak under 20 MB (on ff4c58f `report` used 6.5 GB
    on a 3 MB store and exited 0)."""
    import tracemalloc

    from sklearn_bench.store._digests import sign_store

    path, _ = clean
    bad = tmp_path / "bomb.sqlite"
    shutil.copyfile(path, bad)
    bomb = zlib.compress(bytes(64 * 2**20), 9)
    with sqlite3.connect(bad) as conn:
        conn.execute("UPDATE losses SET loss = ? WHERE ordinal = 0", (bomb,))
        conn.execute("DELETE FROM checksums WHERE ordinal = 0")
        sign_store(conn)
    tracemalloc.start()
    try:
        with pytest.raises(CorruptStoreError, match="another size"):
            read_losses(bad)
        report = salvage_store(bad, tmp_path / "new.sqlite")
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert report.n_lost == 1 and peak < 20e6
