"""Reading a store never changes it (issue 21, item 4): sklearn_bench/store/
_reader.py opens stores read-only, so a -wal file is never checkpointed into the
database by `from_store`, `store check` or `report`, even when it is damaged."""

import shutil
import sqlite3
from pathlib import Path

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.cli import main
from sklearn_bench.model_selection import BootstrapOOB


def _files(store):
    return {
        p.name: p.read_bytes()
        for p in store.parent.iterdir()
        if p.name.startswith(store.name)
    }


@pytest.fixture
def store_with_wal(tmp_path):
    """A store whose last commit is still in its -wal file (a copy taken while a
    writer had it open, as after a crash)."""
    X, y = load_iris(return_X_y=True)
    original = tmp_path / "run" / "s.sqlite"
    original.parent.mkdir()
    BenchmarkExperiment(
        {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)},
        cv=BootstrapOOB(n_bootstraps=3),
        random_state=0,
        store=original,
    ).fit({"iris": (X, y)})
    conn = sqlite3.connect(original, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA wal_autocheckpoint=0")
    from sklearn_bench.store._integrity import store_checksums

    conn.execute("BEGIN")  # a commit in the -wal, with the tasks' checksums
    conn.execute("UPDATE scores SET fit_time = fit_time * 2")
    for (ordinal,) in conn.execute("SELECT ordinal FROM tasks").fetchall():
        store_checksums(conn, [ordinal])
    conn.execute("COMMIT")
    copy = tmp_path / "copy" / "s.sqlite"
    copy.parent.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{original}{suffix}", f"{copy}{suffix}")
    conn.close()
    assert (copy.parent / "s.sqlite-wal").stat().st_size > 0
    return copy


def test_reading_leaves_store_and_wal_unchanged(store_with_wal, tmp_path, capsys):
    """H: from_store, `store check` and `report --out` read the store and its
    -wal file without changing a byte of either (the -wal is not folded in)."""
    before = _files(store_with_wal)
    result = BenchmarkResult.from_store(store_with_wal)
    assert len(result.scores) > 0
    assert main(["store", "check", str(store_with_wal)]) == 0
    assert main(["report", str(store_with_wal), "--out", str(tmp_path / "r")]) == 0
    assert _files(store_with_wal) == before  # no -shm made (issue 50: it was)


def test_flipped_bit_in_wal_is_not_made_permanent(store_with_wal, capsys):
    """H: with one bit flipped in the last frame of the -wal file, `store check`
    still reads the store and leaves both files as they were, so nothing it
    could not verify is folded into the database."""
    wal = store_with_wal.parent / "s.sqlite-wal"
    data = bytearray(wal.read_bytes())
    data[-100] ^= 0x10
    wal.write_bytes(bytes(data))
    before = _files(store_with_wal)
    main(["store", "check", str(store_with_wal)])
    after = _files(store_with_wal)
    assert after["s.sqlite"] == before["s.sqlite"]
    assert after["s.sqlite-wal"] == before["s.sqlite-wal"]


@pytest.mark.parametrize("suffix", ["-wal", "-shm"])
@pytest.mark.parametrize("kind", ["fifo", "/dev/zero"])
def test_a_wal_or_shm_that_is_not_a_file_is_refused(
    suffix, kind, store_with_wal, capsys
):
    """H: a -wal or -shm beside a store that is a FIFO or a link to /dev/zero is
    refused (exit 2, naming the file) before anything reads it (on ff4c58f a
    FIFO hung every reader and /dev/zero was read until memory ran out)."""
    import os

    part = Path(f"{store_with_wal}{suffix}")
    part.unlink(missing_ok=True)
    if kind == "fifo":
        os.mkfifo(part)
    else:
        part.symlink_to("/dev/zero")
    with pytest.raises(ValueError, match=f"{suffix[1:]} file that is not a regular"):
        BenchmarkResult.from_store(store_with_wal)
    assert main(["store", "check", str(store_with_wal)]) == 2
