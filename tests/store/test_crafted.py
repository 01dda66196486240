"""Crafted stores (issue 29, items 4 and 6): a store's own SQL never runs, and
what no writer of ours makes is refused with a message, in bounded time and
memory, before anything is read or written (sklearn_bench/store/_schema.py)."""

import json
import shutil
import sqlite3
import tracemalloc

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.store import (
    CorruptStoreError,
    NotAStoreError,
    merge_stores,
    salvage_store,
    verify_checksums,
)
from sklearn_bench.store._digests import sign_store
from sklearn_bench.store._reader import read_store
from sklearn_bench.store._schema import _connect

pytest.importorskip("matplotlib")  # the command line

from sklearn_bench.cli import main  # noqa: E402

DATA = {"iris": load_iris(return_X_y=True)}


def _experiment(store, learners=("nb",)):
    pool = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(random_state=0)}
    return BenchmarkExperiment(
        {name: pool[name] for name in learners},
        cv=3,
        random_state=0,
        progress=False,
        store=store,
    )


@pytest.fixture(scope="module")
def clean_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("clean") / "s.sqlite"
    _experiment(path).fit(DATA)
    return path


def _crafted(clean_store, tmp_path, *statements, name="crafted.sqlite", sign=False):
    """A copy of the store with ``statements`` run on it; with ``sign``, its
    checksums rewritten to match (as someone who knows the format can)."""
    path = tmp_path / name
    shutil.copyfile(clean_store, path)
    conn = sqlite3.connect(path)
    for statement in statements:
        conn.execute(statement)
    if sign:
        conn.execute("DELETE FROM checksums")
        sign_store(conn)
    conn.commit()
    conn.close()
    return path


def _values(path):
    with sqlite3.connect(path) as conn:
        return conn.execute(
            "SELECT ordinal, metric_index, value FROM scores ORDER BY 1, 2"
        ).fetchall()


TRIGGER = (
    "CREATE TRIGGER zero AFTER INSERT ON scores BEGIN "
    "UPDATE scores SET value = 0.0 WHERE learner = 'nb'; END"
)
FOREIGN = {
    "trigger": TRIGGER,
    "view": "CREATE VIEW v AS SELECT * FROM scores",
    "table": "CREATE TABLE notes (text TEXT)",
    "index": "CREATE INDEX by_value ON scores (value)",
    "expression index": "CREATE INDEX slow ON scores (abs(value) * 2)",
}


@pytest.mark.parametrize("kind", FOREIGN)
def test_a_store_with_sql_of_its_own_is_refused_by_every_reader(
    kind, clean_store, tmp_path
):
    """H: a trigger, a view, an unknown table or index (an index on an
    expression too) in a store is refused by from_store, read_store,
    verify_checksums and `store check` (exit 2, naming it), never run."""
    path = _crafted(clean_store, tmp_path, FOREIGN[kind])
    for read in (BenchmarkResult.from_store, read_store, verify_checksums):
        with pytest.raises(NotAStoreError, match="SQL that sklearn_bench does not"):
            read(path)
    assert main(["store", "check", str(path)]) == 2


def test_a_planted_trigger_never_runs_when_the_study_grows_or_merges(
    clean_store, tmp_path
):
    """H: an AFTER INSERT trigger that zeroes another learner's scores is refused
    before a grow, a merge (as target or source) and a salvage write anything:
    the stored values stay as they were (on main it ran and zeroed them)."""
    path = _crafted(clean_store, tmp_path, TRIGGER)
    before = _values(path)
    with pytest.raises(NotAStoreError, match="trigger 'zero'"):
        _experiment(path, ("nb", "tree")).fit(DATA)
    assert _values(path) == before
    other = tmp_path / "other.sqlite"
    _experiment(other, ("tree",)).fit(DATA)
    with pytest.raises(NotAStoreError, match="trigger 'zero'"):
        merge_stores([other], path)
    assert _values(path) == before
    with pytest.raises(NotAStoreError, match="trigger 'zero'"):
        merge_stores([path], tmp_path / "merged.sqlite")
    with pytest.raises(NotAStoreError, match="trigger 'zero'"):
        salvage_store(path, tmp_path / "salvaged.sqlite")
    assert not (tmp_path / "salvaged.sqlite").exists()
    assert _values(path) == before


def test_store_connections_do_not_trust_the_schema(tmp_path):
    """H: every connection to a store runs with PRAGMA trusted_schema=OFF."""
    conn = _connect(tmp_path / "s.sqlite")
    try:
        assert conn.execute("PRAGMA trusted_schema").fetchone() == (0,)
    finally:
        conn.close()


def test_a_generated_column_in_meta_is_refused_before_it_is_read(clean_store, tmp_path):
    """H: a meta table whose value is a generated column (here a 100 MB
    string from a few bytes) is refused before a row of it is read: exit 2,
    and reading it allocates no more than a few MB."""
    path = _crafted(
        clean_store,
        tmp_path,
        "ALTER TABLE meta RENAME TO old_meta",
        "CREATE TABLE meta (key TEXT PRIMARY KEY, raw TEXT NOT NULL, value TEXT "
        "GENERATED ALWAYS AS (raw || printf('%.*c', 100000000, 'x')) VIRTUAL)",
        "INSERT INTO meta (key, raw) SELECT key, value FROM old_meta",
        "DROP TABLE old_meta",
    )
    tracemalloc.start()
    try:
        with pytest.raises(NotAStoreError, match="table 'meta'"):
            read_store(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20e6
    assert main(["store", "check", str(path)]) == 2


@pytest.mark.parametrize("ordinal", [-1, 300_000_000])
def test_an_ordinal_no_writer_makes_is_refused(ordinal, clean_store, tmp_path):
    """H: a task (and its rows) moved to a negative ordinal, which showed its
    scores under another task, or to 3e8, which allocated 2.5 GB, is refused:
    a CorruptStoreError naming the ordinal, exit 2 from `store check`, and a
    grow refuses it too."""
    path = _crafted(
        clean_store,
        tmp_path,
        f"UPDATE tasks SET ordinal = {ordinal} WHERE ordinal = 2",
        f"UPDATE scores SET ordinal = {ordinal} WHERE ordinal = 2",
        f"UPDATE checksums SET ordinal = {ordinal} WHERE ordinal = 2",
    )
    tracemalloc.start()
    try:
        with pytest.raises(CorruptStoreError, match="ordinals outside"):
            BenchmarkResult.from_store(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20e6
    assert main(["store", "check", str(path)]) == 2
    with pytest.raises(CorruptStoreError, match="ordinals outside"):
        _experiment(path, ("nb", "tree")).fit(DATA)


def test_deeply_nested_json_metadata_is_refused_with_a_message(clean_store, tmp_path):
    """H: a configuration nested 100,000 deep gives a NotAStoreError (exit 2
    from `store check` and `store salvage`), not a RecursionError (exit 1)."""
    deep = json.dumps("[" * 100_000 + "]" * 100_000)[1:-1]
    path = _crafted(
        clean_store,
        tmp_path,
        f"UPDATE meta SET value = '{deep}' WHERE key = 'config'",
        sign=True,
    )
    with pytest.raises(NotAStoreError, match="lacks its metadata 'config'"):
        read_store(path)
    assert main(["store", "check", str(path)]) == 2
    new = tmp_path / "new.sqlite"
    assert main(["store", "salvage", str(path), str(new)]) == 2


# -- issue 38: every table under a checksum, and none made anew by merge/salvage --


def _refused_everywhere(path, tmp_path, error, match):
    """Every reader refuses ``path`` with ``error`` matching ``match``; `store
    check`, `report` and `leaderboard` exit 2; merge and salvage refuse it and
    write nothing (they never sign what they could not verify)."""
    for read in (BenchmarkResult.from_store, read_store, verify_checksums):
        with pytest.raises(error, match=match):
            read(path)
    assert main(["store", "check", str(path)]) == 2
    assert main(["leaderboard", str(path), "--out", str(tmp_path / "b.csv")]) == 2
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 2
    with pytest.raises(error, match=match):
        merge_stores([path], tmp_path / "merged.sqlite")
    with pytest.raises(ValueError):
        salvage_store(path, tmp_path / "salvaged.sqlite")
    assert not (tmp_path / "merged.sqlite").exists()
    assert not (tmp_path / "salvaged.sqlite").exists()
    assert not (tmp_path / "b.csv").exists()


def test_a_store_without_its_checksums_is_refused(clean_store, tmp_path, capsys):
    """H: scores forged and the checksums table dropped (the issue's case): every
    reader refuses the store naming the missing table, and merge and salvage
    refuse it (on 17a1a60 leaderboard and report exited 0 with the forged
    values, `store check` said "not verified" with exit 0, and merge and
    salvage wrote fresh checksums over the forged values)."""
    path = _crafted(
        clean_store,
        tmp_path,
        "UPDATE scores SET value = 0.9 WHERE ordinal = 0",
        "DROP TABLE checksums",
    )
    _refused_everywhere(path, tmp_path, NotAStoreError, "no table checksums")
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("sign", [False, True])
def test_a_flipped_metric_direction_is_refused(clean_store, tmp_path, sign):
    """H: `meta.result.metrics = {"error_rate": true}` (which ranked the worst
    learner first, and `store check` said all verified) is refused: as a change
    of the settings after they were written (their checksum), and, with the
    checksums rewritten to match, because a store cannot change the direction
    of a known metric."""
    with sqlite3.connect(clean_store) as conn:
        result = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'result'").fetchone()[0]
        )
    result["metrics"] = {"error_rate": True}
    path = _crafted(
        clean_store,
        tmp_path,
        f"UPDATE meta SET value = '{json.dumps(result)}' WHERE key = 'result'",
        sign=sign,
    )
    if sign:
        match, error = "direction of a known metric", NotAStoreError
    else:
        match, error = "settings .* do not match their checksum", CorruptStoreError
    _refused_everywhere(path, tmp_path, error, match)


@pytest.mark.parametrize(
    "edit",
    [
        "DELETE FROM scores WHERE ordinal = 1",  # a learner made to look unrun
        "DELETE FROM tasks WHERE ordinal = 2",  # the task list shortened
        "INSERT INTO tasks VALUES (3, 'iris', 3, 3, 0, 'nb')",  # a task added
    ],
)
def test_removed_or_added_rows_are_refused(clean_store, tmp_path, edit):
    """H: a task's rows deleted (its checksum kept), a task row deleted or a
    task row added are refused by from_store, naming the task or the task
    list (on 17a1a60 the first read as a partial run)."""
    path = _crafted(clean_store, tmp_path, edit)
    with pytest.raises(ValueError, match="checksum|ordinals outside"):
        BenchmarkResult.from_store(path)
    assert main(["store", "check", str(path)]) == 2


def test_predictions_of_a_forged_size_allocate_nothing(tmp_path):
    """H: kept predictions whose count `n` is forged to 2**34 (with every
    checksum rewritten to match) are refused when read, naming the task,
    before anything is sized by `n` (on 17a1a60, with the checksums gone,
    reading them tried to allocate 128 GiB): the peak stays under 20 MB."""
    from sklearn_bench.store._reader import read_predictions

    clean = tmp_path / "kept.sqlite"
    BenchmarkExperiment(
        {"nb": GaussianNB()}, cv=3, random_state=0, progress=False, store=clean,
        keep_predictions=True,
    ).fit(DATA)  # fmt: skip
    path = _crafted(
        clean, tmp_path, "UPDATE predictions SET n = 17179869184", sign=True
    )
    tracemalloc.start()
    try:
        with pytest.raises(CorruptStoreError, match="not of their stated size"):
            read_predictions(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 20e6
    unsigned = _crafted(
        clean, tmp_path, "UPDATE predictions SET n = 17179869184", name="u.sqlite"
    )
    with pytest.raises(CorruptStoreError, match="checksum"):
        read_predictions(unsigned)


# -- issue 50: what a finished study holds cannot be changed, thinned or faked --

INFERRED = ["f1_macro", "F1_Macro", "precision_weighted", "recall_micro",
            "jaccard_samples", "roc_auc_ovr_weighted", "neg_log_loss",
            "Error_Rate"]  # fmt: skip


@pytest.mark.parametrize("name", INFERRED)
def test_every_inferred_direction_is_enforced(name, clean_store, tmp_path):
    """H: a re-signed store or a saved result that says the opposite of the
    direction the package infers from any form of a metric's name (a suffix,
    ``neg_``, another case) is refused with exit 2 naming it (on ff4c58f only
    exact names were checked: `f1_macro` said lower-is-better ranked the worst
    learner first, exit 0); so is such a `scoring=` before anything runs."""
    from sklearn_bench._metrics import known_direction
    from sklearn_bench.experiment._scoring import Metric, check_scoring

    flipped = not known_direction(name)
    with sqlite3.connect(clean_store) as conn:
        result = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'result'").fetchone()[0]
        )
    result["metrics"] = {name: flipped}
    path = _crafted(
        clean_store,
        tmp_path,
        f"UPDATE meta SET value = '{json.dumps(result)}' WHERE key = 'result'",
        sign=True,
    )
    _refused_everywhere(path, tmp_path, NotAStoreError, f"wrong for {name}")
    saved = tmp_path / "saved"
    BenchmarkResult.from_store(clean_store).save(saved)
    meta = json.loads((saved / "metadata.json").read_text())
    meta["metrics"][0]["name"] = name
    meta["metrics"][0]["greater_is_better"] = flipped
    (saved / "metadata.json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match=f"wrong for {name}"):
        BenchmarkResult.load(saved)
    assert main(["report", str(saved), "--out", str(tmp_path / "r2")]) == 2
    with pytest.raises(ValueError, match="rename the metric"):
        check_scoring(
            {name: Metric(name, None, flipped)}, all_classifiers=True,
            all_regressors=False,
        )  # fmt: skip


def test_a_finished_study_that_lost_tasks_is_refused(clean_store, tmp_path):
    """H: a finished run seals its set of tasks under the settings digest, so
    deleting the score and checksum rows of some tasks (the issue's thinned
    study: on ff4c58f `store check` said "ok" and the report named the
    cherry-picked winner) is refused by every reader, `store check` and
    `report` (exit 2), by merge and by a run that would resume it (salvage
    keeps the intact tasks: the lost ones rerun)."""
    with sqlite3.connect(clean_store) as conn:
        assert conn.execute("SELECT 1 FROM meta WHERE key = 'sealed'").fetchone()
    path = _crafted(
        clean_store,
        tmp_path,
        "DELETE FROM scores WHERE ordinal = 1",
        "DELETE FROM checksums WHERE ordinal = 1",
    )
    for read in (BenchmarkResult.from_store, read_store, verify_checksums):
        with pytest.raises(CorruptStoreError, match="finished run"):
            read(path)
    assert main(["store", "check", str(path)]) == 2
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 2
    with pytest.raises(CorruptStoreError, match="finished run"):
        merge_stores([path], tmp_path / "merged.sqlite")
    with pytest.raises(CorruptStoreError, match="finished run"):
        _experiment(path).fit(DATA)


def test_a_killed_run_resumes_and_a_grown_study_seals_again(tmp_path):
    """H: a run that never finished (not sealed) reads as partial and resumes;
    once every task is committed it is sealed; a study grown by a learner is
    unsealed until its new tasks are all committed, then sealed anew."""
    from sklearn_bench.store._schema import Task
    from sklearn_bench.store._writer import StoreWriter

    path = tmp_path / "killed.sqlite"
    writer = StoreWriter(path)
    result = {"metrics": {"error": False}, "datasets": {"d": "real world"},
              "learners": ["m"], "info": {}}  # fmt: skip
    tasks = [Task("d", s, s, 0, "m") for s in range(2)]
    writer.start({"seed": 0}, tasks, result, keep_predictions=False)
    row = {"dataset": "d", "learner": "m", "split": 0, "replicate": 0, "fold": 0,
           "metric": "error", "value": 0.25, "fit_time": 0.1, "score_time": 0.01,
           "n_train": 40, "n_test": 20, "error_type": "", "error_message": "",
           "traceback": ""}  # fmt: skip
    writer.write(writer.ordinals["d", 0, "m"], {"rows": [row]})
    writer.close()  # as if killed: one task of two
    assert read_store(path)["n_missing_tasks"] == 1
    assert main(["store", "check", str(path)]) == 0

    def sealed():
        with sqlite3.connect(path) as conn:
            return conn.execute("SELECT 1 FROM meta WHERE key = 'sealed'").fetchone()

    assert not sealed()
    writer = StoreWriter(path)
    assert writer.start({"seed": 0}, tasks, result, keep_predictions=False)
    writer.write(writer.ordinals["d", 1, "m"], {"rows": [{**row, "split": 1,
                                                         "replicate": 1}]})  # fmt: skip
    writer.close()
    assert sealed() and read_store(path)["n_missing_tasks"] == 0
    grown = tmp_path / "grown.sqlite"
    _experiment(grown).fit(DATA)
    with sqlite3.connect(grown) as conn:
        first = conn.execute("SELECT value FROM meta WHERE key = 'sealed'").fetchone()
    _experiment(grown, learners=("nb", "tree")).fit(DATA)
    with sqlite3.connect(grown) as conn:
        again = conn.execute("SELECT value FROM meta WHERE key = 'sealed'").fetchone()
    assert first and again and first != again
    assert verify_checksums(grown)["n_verified"] == 6


CRAFTED_VALUES = {
    "an error rate of 7.5": "UPDATE scores SET value = 7.5 WHERE ordinal = 0",
    "an error rate of -5": "UPDATE scores SET value = -5.0 WHERE ordinal = 0",
    "n_test = -5": "UPDATE scores SET n_test = -5 WHERE ordinal = 0",
    "text '0.1'": "UPDATE scores SET value = '0.1' WHERE ordinal = 0",
    "a blob": "UPDATE scores SET value = x'3f' WHERE ordinal = 0",
    "a fractional size": "UPDATE scores SET n_train = 99.5 WHERE ordinal = 0",
}


@pytest.mark.parametrize("edit", CRAFTED_VALUES)
def test_a_resigned_value_of_another_type_or_out_of_bounds_is_refused(
    edit, clean_store, tmp_path
):
    """H: a store re-signed with the package's own signing (anyone can) whose
    score lies outside its metric's bounds, whose size is negative, or whose
    value SQLite would cast (text, a blob) is refused by every reader, `store
    check`, `report`, `leaderboard` and merge with exit 2 naming the learner
    (on ff4c58f all were analysed, exit 0, and merge copied them)."""
    path = _crafted(clean_store, tmp_path, CRAFTED_VALUES[edit], sign=True)
    for read in (BenchmarkResult.from_store, read_store, verify_checksums):
        with pytest.raises(CorruptStoreError, match="learner 'nb'"):
            read(path)
    assert main(["store", "check", str(path)]) == 2
    assert main(["leaderboard", str(path), "--out", str(tmp_path / "b.csv")]) == 2
    assert main(["report", str(path), "--out", str(tmp_path / "report")]) == 2
    with pytest.raises(CorruptStoreError):
        merge_stores([path], tmp_path / "merged.sqlite")
    assert not (tmp_path / "merged.sqlite").exists()


def test_salvage_drops_a_resigned_score_out_of_bounds(clean_store, tmp_path):
    """H: salvage, which keeps the tasks it can prove, drops a re-signed task
    whose error rate is 7.5 (its domain checks knew types, not bounds) and
    keeps the others: the salvaged store reads."""
    path = _crafted(
        clean_store, tmp_path, "UPDATE scores SET value = 7.5 WHERE ordinal = 0",
        sign=True,
    )  # fmt: skip
    report = salvage_store(path, tmp_path / "new.sqlite")
    assert report.n_lost == 1 and "outside the bounds" in str(report)
    assert read_store(tmp_path / "new.sqlite")["n_missing_tasks"] == 1


def test_a_resigned_info_of_another_type_is_refused(clean_store, tmp_path):
    """H: a re-signed store whose result's info.split_roles is text (the
    analyses called .get on it: exit 1 with AttributeError) is refused as
    lacking valid metadata, exit 2."""
    with sqlite3.connect(clean_store) as conn:
        result = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'result'").fetchone()[0]
        )
    result["info"]["split_roles"] = "x"
    path = _crafted(
        clean_store,
        tmp_path,
        f"UPDATE meta SET value = '{json.dumps(result)}' WHERE key = 'result'",
        sign=True,
    )
    with pytest.raises(NotAStoreError, match="metadata 'result'"):
        read_store(path)
    assert main(["report", str(path), "--out", str(tmp_path / "r")]) == 2


@pytest.mark.parametrize("column", ["split", "replicate", "fold"])
def test_a_task_id_of_1e308_is_refused_not_a_crash(column, clean_store, tmp_path):
    """H: a task's split, replicate or fold set to 1e308 (no integer) is refused
    with exit 2 by `store check`, `leaderboard` and `merge` (on ff4c58f: exit 1
    with OverflowError before any checksum was read)."""
    sql = f"UPDATE tasks SET {column} = 1e308 WHERE ordinal = 0"
    path = _crafted(clean_store, tmp_path, sql)
    assert main(["store", "check", str(path)]) == 2
    assert main(["leaderboard", str(path), "--out", str(tmp_path / "b.csv")]) == 2
    assert main(["merge", str(tmp_path / "m.sqlite"), str(path)]) == 2
