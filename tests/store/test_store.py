"""The SQLite store: exact round trips, partial runs, and bad stores left untouched."""

import sqlite3

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.store._provenance import config_diff
from sklearn_bench.store._reader import read_predictions
from sklearn_bench.store._schema import SCHEMA_VERSION, Task
from sklearn_bench.store._writer import StoreWriter

RESULT = {
    "metrics": {"loss": False},
    "datasets": {"d": "real world"},
    "learners": ["m"],
    "info": {"seed": 0},
}
TASKS = [Task("d", split, split, 0, "m") for split in range(3)]


def _out(task, value, **extra):
    row = {
        "dataset": task.dataset,
        "learner": task.learner,
        "split": task.split,
        "replicate": np.int64(task.replicate),  # numpy ints as the runner makes
        "fold": task.fold,
        "metric": "loss",
        "value": value,
        "fit_time": 0.5,
        "score_time": 0.25,
        "n_train": 10,
        "n_test": 5,
        "error_type": "",
        "error_message": "",
        "traceback": "",
    }
    row.update(extra)
    return {"rows": [row], "predictions": None}


def _writer(path, n_write, *, keep_predictions=False, outs=None):
    writer = StoreWriter(path)
    try:
        writer.start({"a": 1}, TASKS, RESULT, keep_predictions=keep_predictions)
        for i in range(n_write):
            writer.write(i, outs[i] if outs else _out(TASKS[i], 0.1 * i))
    finally:
        writer.close()


def test_floats_round_trip_bit_for_bit_and_failures_are_kept(tmp_path):
    """H: -0.0, NaN, inf and 0.1 + 0.2 come back bit-identical (floats have no
    REAL affinity, which would turn -0.0 into 0.0), and a failure's type, message
    and traceback are stored."""
    path = tmp_path / "s.sqlite"
    values = [-0.0, np.inf, 0.1 + 0.2]
    outs = [_out(t, v) for t, v in zip(TASKS, values, strict=True)]
    outs[1] = _out(
        TASKS[1],
        np.nan,
        error_type="ValueError",
        error_message="boom",
        traceback="Traceback ...\nValueError: boom\n",
    )
    _writer(path, 3, outs=outs)
    result = BenchmarkResult.from_store(path)
    got = result.scores["value"].to_numpy()
    expected = np.array([-0.0, np.nan, 0.1 + 0.2])
    assert np.array_equal(got.view(np.int64)[[0, 2]], expected.view(np.int64)[[0, 2]])
    assert np.isnan(got[1])
    assert result.scores["failed"].tolist() == [False, True, False]
    assert result.scores["traceback"][1].endswith("ValueError: boom\n")
    assert result.scores["replicate"].tolist() == [0, 1, 2]


def test_partial_store_says_how_many_tasks_are_missing(tmp_path):
    """H: from_store on a run with 1 of 3 tasks committed returns that task's rows,
    n_missing_tasks == 2 and a warning saying so."""
    path = tmp_path / "s.sqlite"
    _writer(path, 1)
    with pytest.warns(UserWarning, match="holds 1 of the 3 tasks.*2 are missing"):
        result = BenchmarkResult.from_store(path)
    assert result.n_missing_tasks == 2
    assert result.scores["split"].tolist() == [0]
    assert result.info == {"seed": 0, "store": str(path)}


def test_predictions_are_raw_arrays_read_in_canonical_order(tmp_path):
    """H: predictions written out of order read back in task order, with rows as
    int64, correctness as bool, keyed by their task."""
    path = tmp_path / "s.sqlite"
    outs = [_out(t, 0.0) for t in TASKS]
    for i, out in enumerate(outs):
        out["predictions"] = {
            "rows": np.arange(i + 1) * 10,
            "correct": np.arange(i + 1) % 2 == 0,
        }
    writer = StoreWriter(path)
    writer.start({}, TASKS, RESULT, keep_predictions=True)
    for i in (2, 0, 1):  # completion order
        writer.write(i, outs[i])
    writer.close()
    pred = read_predictions(path)
    assert pred["split"].tolist() == [0, 1, 1, 2, 2, 2]
    assert pred["row"].tolist() == [0, 0, 10, 0, 10, 20]
    assert pred["correct"].tolist() == [True, True, False, True, False, True]
    assert read_predictions(path, ordinals=[1])["row"].tolist() == [0, 10]


def test_predictions_of_classifiers_and_regressors_mixed_read_back(tmp_path):
    """H: a store whose tasks keep `correct` (a classifier) and `y_pred` (a
    regressor) reads back both columns, each missing on the other's rows, as the
    in-memory frame does (it used to fail on the missing blob)."""
    from sklearn_bench.experiment._experiment import _predictions_frame

    path = tmp_path / "s.sqlite"
    outs = [_out(t, 0.0) for t in TASKS]
    outs[0]["predictions"] = {"rows": np.array([3, 4]), "correct": np.array([1, 0]) > 0}
    outs[2]["predictions"] = {"rows": np.array([5]), "y_pred": np.array([2.5])}
    writer = StoreWriter(path)
    writer.start({}, TASKS, RESULT, keep_predictions=True)
    for i, out in enumerate(outs):
        writer.write(i, out)
    writer.close()
    pred = read_predictions(path)
    assert pred["row"].tolist() == [3, 4, 5]
    assert pred["correct"].tolist() == [True, False, None]
    assert np.isnan(pred["y_pred"][:2]).all() and pred["y_pred"][2] == 2.5
    pd.testing.assert_frame_equal(pred, _predictions_frame(outs))


def test_missing_file_is_a_clear_error(tmp_path):
    """H: from_store on a missing path raises FileNotFoundError and creates
    nothing."""
    path = tmp_path / "none.sqlite"
    with pytest.raises(FileNotFoundError, match="No store at"):
        BenchmarkResult.from_store(path)
    assert not path.exists()


def _experiment(path, **kwargs):
    return BenchmarkExperiment(
        {"nb": GaussianNB()},
        cv=BootstrapOOB(n_bootstraps=3, random_state=0),
        random_state=0,
        progress=False,
        store=path,
        **kwargs,
    )


@pytest.mark.parametrize("overwrite", [False, True])
def test_not_an_sqlite_file_is_left_untouched(tmp_path, overwrite):
    """H: a text file as store is refused by fit (even with overwrite=True) and by
    from_store, and its bytes are unchanged."""
    path = tmp_path / "results.csv"
    path.write_text("dataset,learner\na,b\n")
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="not an SQLite file"):
        _experiment(path, overwrite=overwrite).fit(X, y)
    with pytest.raises(ValueError, match="not an SQLite file"):
        BenchmarkResult.from_store(path)
    assert path.read_text() == "dataset,learner\na,b\n"


def test_foreign_sqlite_database_is_left_untouched(tmp_path):
    """H: an SQLite database of another application is refused, even with
    overwrite=True, and keeps its table."""
    path = tmp_path / "other.sqlite"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE people (name TEXT)")
    X, y = load_iris(return_X_y=True)
    with pytest.raises(ValueError, match="not a sklearn_bench store"):
        _experiment(path, overwrite=True).fit(X, y)
    with sqlite3.connect(path) as conn:
        names = conn.execute("SELECT name FROM sqlite_master").fetchall()
    assert names == [("people",)]


def test_store_locked_by_another_writer(tmp_path):
    """H: while a second connection holds the write lock, fit raises a clear
    RuntimeError after a short wait and writes nothing; once released, fit runs."""
    path = tmp_path / "s.sqlite"
    X, y = load_iris(return_X_y=True)
    first = _experiment(path).fit(X, y).results_
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(RuntimeError, match="locked by another writer"):
            _experiment(path, overwrite=True).fit(X, y)
        # A reader is not blocked by the writer (WAL).
        back = BenchmarkResult.from_store(path)
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert back.scores["value"].equals(first.scores["value"])
    again = _experiment(path).fit(X, y).results_
    assert again.scores["value"].equals(first.scores["value"])


def test_a_running_experiment_keeps_a_second_writer_out(tmp_path):
    """H: the writer holds the lock for its whole run: a second StoreWriter on the
    same path fails while the first is open, and succeeds after it closed."""
    path = tmp_path / "s.sqlite"
    first = StoreWriter(path)
    first.start({}, TASKS, RESULT, keep_predictions=False)
    first.write(0, _out(TASKS[0], 1.0))
    try:
        with pytest.raises(RuntimeError, match="locked"):
            StoreWriter(path, timeout=0.05)
    finally:
        first.close()
    StoreWriter(path, timeout=0.05).close()


def test_newer_schema_is_refused_and_left_untouched(tmp_path):
    """H: a store whose schema_version is newer than this package's is refused by
    fit (even with overwrite=True) and by from_store, and not modified."""
    path = tmp_path / "s.sqlite"
    X, y = load_iris(return_X_y=True)
    _experiment(path).fit(X, y)
    with sqlite3.connect(path) as conn:
        conn.execute(
            "UPDATE meta SET value = ? WHERE key = 'schema_version'",
            (str(SCHEMA_VERSION + 1),),
        )
    before = path.read_bytes()
    with pytest.raises(ValueError, match="newer sklearn_bench"):
        _experiment(path, overwrite=True).fit(X, y)
    with pytest.raises(ValueError, match=f"schema version {SCHEMA_VERSION + 1}"):
        BenchmarkResult.from_store(path)
    assert path.read_bytes() == before


def test_config_diff_names_each_difference():
    """H: config_diff lists nested paths of changed, added and removed keys."""
    stored = {"learners": {"a": {"depth": 3}}, "seed": 1, "old": 0}
    current = {"learners": {"a": {"depth": 4}}, "seed": 1, "new": 2}
    assert config_diff(stored, current) == [
        "learners['a']['depth']: 3 in the store, now 4",
        "old: 0 in the store, now absent",
        "new: not in the store, now 2",
    ]


def test_every_public_object_is_exported_once():
    """H: no object is in the __all__ of two subpackages (results no longer
    re-exports the store's names); only the two front-door classes are also
    exported by the top-level package."""
    import importlib
    import pkgutil

    import sklearn_bench

    names = {}
    for info in pkgutil.walk_packages(sklearn_bench.__path__, "sklearn_bench."):
        if any(part.startswith("_") for part in info.name.split(".")[1:]):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", []):
            names.setdefault(id(getattr(module, name)), []).append(
                f"{info.name}.{name}"
            )
    twice = sorted(v for v in names.values() if len(v) > 1)
    assert twice == [], twice


def test_store_imports_nothing_above_its_layer():
    """H: the store (layer 2) imports no module of results, experiment or any
    other unit of layer 2 or above (only the bottom layers and itself)."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    try:
        import _import_graph as graph
    finally:
        sys.path.pop(0)
    edges = [
        (importer, imported)
        for importer, imported, *_ in graph.imports()[1]
        if graph.unit_of(importer) == "store"
    ]
    assert edges  # the walk saw the store
    above = [e for e in edges if graph.unit_of(e[1]) not in (None, "store")]
    assert all(graph.LAYERS[graph.unit_of(b)] < 2 for _, b in above), above
