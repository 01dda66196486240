"""Salvage keeps only rows it can prove intact (issue 21, item 3): tests of the
per-task checksums (sklearn_bench/store/_integrity.py) and of
salvage_store's domain checks (sklearn_bench/store/_repair.py).

A truncated store padded with 0xFF, a flipped bit in a metric name or a score, a
score stored as text and a metric index out of range used to be kept by salvage
as wrong values; the salvaged store then could be neither reported nor resumed.
"""

import os
import random
import shutil
import sqlite3
import struct

import pytest
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.store import NotAStoreError, salvage_store
from sklearn_bench.store._schema import SCHEMA_VERSION

DATA = {
    "iris": load_iris(return_X_y=True),
    "cancer": load_breast_cancer(return_X_y=True),
}
N_TASKS = 2 * 2 * 30


def _experiment(store):
    return BenchmarkExperiment(
        {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)},
        cv=BootstrapOOB(n_bootstraps=30),
        scoring=["error_rate", "balanced_accuracy"],
        random_state=0,
        progress=False,
        store=store,
    )


@pytest.fixture(scope="module")
def clean(tmp_path_factory):
    """A complete store of 120 tasks (two metrics each) and its result."""
    path = tmp_path_factory.mktemp("clean") / "run.sqlite"
    result = _experiment(path).fit(DATA).results_
    assert not os.path.exists(f"{path}-wal")
    return path, result


def _rows(path):
    """Every stored score row, by (data set, split, learner, metric index), its
    value as a hex string so that equality is bit for bit."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as conn:
        rows = conn.execute(
            "SELECT t.dataset, t.split, t.learner, s.metric_index, s.metric, "
            "s.value, typeof(s.value), s.n_train, s.n_test, s.error_type, "
            "t.replicate, t.fold FROM scores s JOIN tasks t USING (ordinal)"
        ).fetchall()
    return {
        r[:4]: (r[4], float(r[5]).hex() if r[6] == "real" else r[5], *r[6:])
        for r in rows
    }


def _assert_nothing_wrong(salvaged, clean_path):
    """Every row of the salvaged store is a row of the clean store, bit for bit."""
    reference = _rows(clean_path)
    kept = _rows(salvaged)
    wrong = {k: (v, reference.get(k)) for k, v in kept.items() if reference.get(k) != v}
    assert not wrong, wrong
    return len({k[:3] for k in kept})


def _assert_resumes(salvaged, n_kept, reference):
    """The salvaged store reads, and resuming it runs exactly the dropped tasks
    and ends bit-identical to the clean run."""
    with pytest.warns(UserWarning, match="missing"):
        partial = BenchmarkResult.from_store(salvaged)
    assert partial.n_missing_tasks == N_TASKS - n_kept
    resumed = _experiment(salvaged).fit(DATA)
    assert resumed.n_tasks_ == N_TASKS - n_kept
    cols = ["fit_time", "score_time"]
    a = resumed.results_.scores.drop(columns=cols)
    b = reference.scores.drop(columns=cols)
    assert a.equals(b)


def _cuts(size, n=30, seed=0):
    """Cut points: off page boundaries (random), on them, and the last byte."""
    rng = random.Random(seed)
    on_pages = {size - 4096 * k for k in (1, 2, 3, 5, 8)}
    off_pages = {rng.randrange(size // 3, size) for _ in range(n - len(on_pages) - 1)}
    return sorted(on_pages | off_pages | {size - 1})


def test_truncation_scan_never_keeps_a_wrong_value(clean, tmp_path):
    """H: a store truncated at 30 cut points (most off page boundaries, so that
    salvage pads the last page with 0xFF bytes) is salvaged without a single
    wrong row (it used to keep n_test 255 for 195, and a score changed in its
    15th digit); tasks are kept at most cuts; the salvaged stores with the most
    and the fewest kept tasks resume, running exactly the dropped tasks, to the
    clean run bit for bit."""
    path, reference = clean
    size = path.stat().st_size
    kept = {}
    for cut in _cuts(size):
        bad = tmp_path / f"cut{cut}.sqlite"
        shutil.copyfile(path, bad)
        with open(bad, "r+b") as file:
            file.truncate(cut)
        new = tmp_path / f"salvaged{cut}.sqlite"
        try:
            report = salvage_store(bad, new)
        except ValueError as exc:  # the configuration itself is lost
            assert "damaged beyond salvage" in str(exc)
            assert not new.exists()
            continue
        n = _assert_nothing_wrong(new, path)
        assert n == report.n_committed
        kept[cut] = n
    assert len(kept) >= 5 and max(kept.values()) > 0
    done = [c for c in kept if 0 < kept[c] < N_TASKS]
    for cut in {min(done, key=kept.get), max(done, key=kept.get)}:
        _assert_resumes(tmp_path / f"salvaged{cut}.sqlite", kept[cut], reference)


def _flip_in_file(path, old, new, occurrence=-3):
    """Replace one occurrence of ``old`` by ``new`` (same length) in the file
    (counted from the end: the first ones are in the run's configuration)."""
    data = bytearray(path.read_bytes())
    found = [i for i in range(len(data)) if data.startswith(old, i)]
    at = found[occurrence]
    data[at : at + len(old)] = new
    path.write_bytes(bytes(data))


def _one_value(path):
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT value FROM scores WHERE metric_index = 1 AND ordinal = 7"
        ).fetchone()[0]


def _damage_metric_name(path):
    _flip_in_file(path, b"error_rate", b"error_sate")


def _damage_score_byte(path):
    value = _one_value(path)
    packed = struct.pack(">d", value)
    flipped = bytearray(packed)
    flipped[-1] ^= 0x01  # the last bit of the mantissa: the 16th digit
    _flip_in_file(path, packed, bytes(flipped), occurrence=0)


def _damage_score_as_text(path):
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE scores SET value = '0.25' WHERE ordinal = 9")


def _damage_metric_index(path):
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE scores SET metric_index = 7 WHERE ordinal = 11 AND metric_index = 1"
        )


DAMAGES = {
    "metric name error_sate": _damage_metric_name,
    "score byte": _damage_score_byte,
    "score as text": _damage_score_as_text,
    "metric index out of range": _damage_metric_index,
}


@pytest.mark.parametrize("damage", DAMAGES)
def test_damaged_rows_are_dropped_and_rerun(clean, tmp_path, damage):
    """H: a flipped bit in a metric name or in a score, a score stored as text,
    a metric index out of range: salvage drops the damaged task (by its
    checksum), keeps the others bit for bit, and the salvaged store reads and
    resumes, running only the dropped task, to the clean run bit for bit."""
    path, reference = clean
    bad = tmp_path / "bad.sqlite"
    shutil.copyfile(path, bad)
    DAMAGES[damage](bad)
    new = tmp_path / "new.sqlite"
    report = salvage_store(bad, new)
    assert report.n_lost == 1, report
    assert report.n_committed == N_TASKS - 1
    assert "dropped" in str(report)
    _assert_nothing_wrong(new, path)
    _assert_resumes(new, N_TASKS - 1, reference)


def test_salvaged_store_with_a_renamed_metric_is_reported(clean, tmp_path):
    """H: the store whose `error_rate` became `error_sate` (the issue's case)
    is salvaged into a store that `sklearn-bench report` reports (exit 0)."""
    from sklearn_bench.cli import main

    pytest.importorskip("matplotlib")
    bad = tmp_path / "bad.sqlite"
    shutil.copyfile(clean[0], bad)
    _damage_metric_name(bad)
    new = tmp_path / "new.sqlite"
    salvage_store(bad, new)
    assert main(["report", str(new), "--out", str(tmp_path / "report")]) == 0
    assert (tmp_path / "report" / "report.html").is_file()


def test_salvage_refuses_a_newer_schema(clean, tmp_path):
    """H: a store of a newer schema version is refused by salvage (it used to
    be down-converted to this version's schema), naming the version; nothing is
    written."""
    bad = tmp_path / "newer.sqlite"
    shutil.copyfile(clean[0], bad)
    with sqlite3.connect(bad) as conn:
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'",
            (str(SCHEMA_VERSION + 1),),
        )
    before = bad.read_bytes()
    with pytest.raises(NotAStoreError, match=f"schema version {SCHEMA_VERSION + 1}"):
        salvage_store(bad, tmp_path / "new.sqlite")
    assert not (tmp_path / "new.sqlite").exists()
    assert bad.read_bytes() == before


def test_leftover_of_a_killed_salvage_is_named(clean, tmp_path):
    """H: the working copy a killed salvage leaves beside NEW is refused by name
    as such ('leftover of a killed ... salvage'), never read as a store; the next
    salvage into NEW removes it and succeeds. Likewise a killed merge's."""
    leftover = tmp_path / ".new.sqlite.salvaging-999999999"
    shutil.copyfile(clean[0], leftover)
    with pytest.raises(ValueError, match="leftover of a killed `sklearn-bench store"):
        BenchmarkResult.from_store(leftover)
    report = salvage_store(clean[0], tmp_path / "new.sqlite")
    assert report.n_committed == N_TASKS
    assert not leftover.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["new.sqlite"]
    merging = tmp_path / ".m.sqlite.merging-999999999"  # of a killed merge
    shutil.copyfile(clean[0], merging)
    with pytest.raises(ValueError, match="leftover of a killed `sklearn-bench merge"):
        BenchmarkResult.from_store(merging)
    from sklearn_bench.store import merge_stores

    assert merge_stores([tmp_path / "new.sqlite"], tmp_path / "m.sqlite") == N_TASKS
    assert not merging.exists()


@pytest.mark.parametrize("version", [1, 2, 3, 4])
def test_a_store_of_an_older_schema_is_refused_with_a_message(clean, tmp_path, version):
    """H: a store of a development schema before 0.2 (versions 1 to 3, whose
    settings carry no checksum; 4, without the losses table) is refused by every
    reader, a grow, a merge and a salvage with a NotAStoreError naming its
    version and the way out (run afresh); the file is left as it was."""
    from sklearn_bench.store import merge_stores, verify_checksums
    from sklearn_bench.store._reader import read_store

    old = tmp_path / "old.sqlite"
    shutil.copyfile(clean[0], old)
    with sqlite3.connect(old) as conn:
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),)
        )
    before = old.read_bytes()
    match = f"schema version {version}, written by a development version"
    for read in (BenchmarkResult.from_store, read_store, verify_checksums):
        with pytest.raises(NotAStoreError, match=match):
            read(old)
    with pytest.raises(NotAStoreError, match=match):
        _experiment(old).fit(DATA)
    with pytest.raises(NotAStoreError, match=match):
        merge_stores([old], tmp_path / "merged.sqlite")
    with pytest.raises(NotAStoreError, match=match):
        salvage_store(old, tmp_path / "new.sqlite")
    assert old.read_bytes() == before
    assert not (tmp_path / "merged.sqlite").exists()


def _flip_wal_frame(path, frame=1):
    """Flip one bit in the page of the given frame of the store's -wal file."""
    wal = path.parent / f"{path.name}-wal"
    data = bytearray(wal.read_bytes())
    page_size = int.from_bytes(data[8:12], "big")
    data[32 + frame * (page_size + 24) + 24 + 100] ^= 0x10
    wal.write_bytes(bytes(data))


def test_flipped_bit_in_wal_loses_nothing_silently(tmp_path, capsys):
    """H: a bit flipped in an early frame of a -wal file (of a killed writer,
    with 4 committed tasks) makes SQLite drop every later frame without a word
    (it used to read as 'ok; 54 of 360'). Now from_store refuses the store
    naming the -wal damage, `store check` and `store checkpoint` exit 2 and
    leave both files as they were, and salvage reseals the frames in its copy
    so that the checksums judge each task: all 4 committed tasks are kept,
    with their values."""
    from sklearn_bench.cli import main
    from sklearn_bench.store import CorruptStoreError
    from sklearn_bench.store._reader import read_store

    from .test_repair import _killed_store

    path = _killed_store(tmp_path)
    before = read_store(path)["scores"]
    _flip_wal_frame(path)
    files = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    with pytest.raises(CorruptStoreError, match="-wal file .* is damaged at frame 2"):
        BenchmarkResult.from_store(path)
    assert main(["store", "check", str(path)]) == 2
    captured = capsys.readouterr()
    assert "damaged at frame 2" in captured.err
    assert main(["store", "checkpoint", str(path)]) == 2  # would fold it in
    assert "damaged at frame 2" in capsys.readouterr().err
    after = {p.name: p.read_bytes() for p in tmp_path.iterdir() if p.is_file()}
    assert {k: v for k, v in after.items() if not k.endswith("-shm")} == {
        k: v for k, v in files.items() if not k.endswith("-shm")
    }
    report = salvage_store(path, tmp_path / "new.sqlite")
    assert report.n_committed == 4 and report.n_lost == 0
    salvaged = read_store(tmp_path / "new.sqlite")["scores"]
    cols = ["fit_time", "score_time"]
    assert salvaged.drop(columns=cols).equals(before.drop(columns=cols))


def test_merge_refuses_a_source_whose_rows_differ_from_their_checksum(clean, tmp_path):
    """H: merge_stores refuses a source with a task whose rows no longer match
    its checksum (a score changed on disk), naming the source and the task and
    pointing to salvage; the target is not created. A clean source is merged,
    with the checksum of every task copied (none made anew) and matching."""
    from sklearn_bench.store import CorruptStoreError, merge_stores, verify_checksums

    bad = tmp_path / "bad.sqlite"
    shutil.copyfile(clean[0], bad)
    _damage_score_as_text(bad)
    target = tmp_path / "target.sqlite"
    with pytest.raises(CorruptStoreError, match="checksum of learner .* does not"):
        merge_stores([bad], target)
    assert not target.exists()
    assert merge_stores([clean[0]], target) == N_TASKS
    checks = verify_checksums(target)
    assert checks["n_verified"] == N_TASKS and not checks["mismatched"]
    _assert_nothing_wrong(target, clean[0])


def test_salvage_removes_only_its_own_leftovers(clean, tmp_path):
    """H: beside NEW, files of the user's whose names hold salvage's marker (a
    backup with a suffix; the exact name of a dead process's working copy but
    text, not SQLite) survive a salvage into NEW; a dead salvage's working copy
    (an SQLite file at the exact name) is removed."""
    keep = [tmp_path / ".new.sqlite.salvaging-123-backup.txt",
            tmp_path / ".new.sqlite.salvaging-999999998"]  # fmt: skip
    for path in keep:
        path.write_text("the user's")
    leftover = tmp_path / ".new.sqlite.salvaging-999999999"
    shutil.copyfile(clean[0], leftover)
    salvage_store(clean[0], tmp_path / "new.sqlite")
    assert [p.read_text() for p in keep] == ["the user's"] * 2
    assert not leftover.exists()


@pytest.mark.parametrize("pid", ["99999999999999999999", "-\u0663", "\u0663", "12a"])
def test_a_leftover_name_of_no_ascii_pid_is_kept_and_salvage_runs(pid, clean, tmp_path):
    """H: a file named like salvage's working copy whose tail is not a bounded
    ASCII pid (20 digits, Arabic-Indic digits) is not a leftover: salvage into
    NEW keeps it and succeeds (on ff4c58f 20 digits made salvage fail with
    OverflowError, and `-٣` was read as pid 3)."""
    from sklearn_bench.store._files import _pid

    odd = tmp_path / f".new.sqlite.salvaging-{pid}"
    shutil.copyfile(clean[0], odd)
    salvage_store(clean[0], tmp_path / "new.sqlite")
    assert odd.exists() and _pid(pid) is None
    assert _pid("4194303") == 4194303
