"""A store grows with its study: new learners, data sets and replicates run alone;
changed ones are refused; stores of several machines merge."""

import os
import signal
import sqlite3
import subprocess
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.dummy import DummyClassifier
from sklearn.ensemble import RandomForestClassifier
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import SimulatedDataset, make_angle_classification
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.store import merge_stores

ROOT = Path(__file__).resolve().parents[2]
VALUES = ["dataset", "learner", "split", "replicate", "fold", "metric", "value"]


def grow_datasets(names=("cancer", "iris")):
    X, y = load_breast_cancer(return_X_y=True)
    data = {
        "cancer": (X[:150, :8], y[:150]),
        "iris": load_iris(return_X_y=True),
        "wine": load_wine(return_X_y=True),
    }
    return {name: data[name] for name in names}


def grow_learners(names=("forest", "tree")):
    learners = {
        "forest": RandomForestClassifier(n_estimators=4),  # seeded per replicate
        "tree": DecisionTreeClassifier(max_depth=3),
        "nb": GaussianNB(),
        "knn": KNeighborsClassifier(),
    }
    return {name: learners[name] for name in names}


def grow_experiment(store, learners=("forest", "tree"), n_bootstraps=4, **kwargs):
    """The experiment of these tests (also run by the SIGKILL subprocess)."""
    params = {
        "cv": BootstrapOOB(n_bootstraps=n_bootstraps, random_state=3),
        "scoring": ["error_rate", "neg_log_loss"],
        "random_state": 7,
        "keep_predictions": True,
        "progress": False,
        "store": store,
    }
    return BenchmarkExperiment(grow_learners(learners), **{**params, **kwargs})


def _assert_same_scores(a, b):
    pd.testing.assert_frame_equal(a.scores[VALUES], b.scores[VALUES])
    assert np.array_equal(
        a.scores["value"].to_numpy().view(np.int64),
        b.scores["value"].to_numpy().view(np.int64),
    )  # bit for bit, NaN and signed zeros included


def _stored_values(path):
    """(dataset, split, learner, metric) -> value bits of every stored row."""
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "SELECT dataset, split, learner, metric, value FROM scores"
        ).fetchall()
    return {r[:4]: np.float64(r[4]).view(np.int64) for r in rows}


@pytest.mark.parametrize(
    "first, grown, n_new",
    [
        ({"learners": ("forest", "tree")}, {"learners": ("forest", "tree", "nb")}, 8),
        ({}, {"datasets": ("cancer", "iris", "wine")}, 8),
        ({"n_bootstraps": 3}, {"n_bootstraps": 5}, 8),
    ],
    ids=["learner", "dataset", "replicates"],
)
def test_growing_runs_only_the_new_tasks(tmp_path, first, grown, n_new):
    """H: fitting a larger experiment (one more learner, data set, or more
    replicates of the seeded splitter) on a store runs only the new tasks, leaves
    every stored score bit-identical, and results_ equals one run of the larger
    experiment without store (scores and predictions)."""
    path = tmp_path / "grow.sqlite"
    first_data = first.pop("datasets", ("cancer", "iris"))
    exp = grow_experiment(path, **first).fit(grow_datasets(first_data))
    before = _stored_values(path)
    data = grow_datasets(grown.pop("datasets", ("cancer", "iris")))
    params = {**first, **grown}
    bigger = grow_experiment(path, **params).fit(data)
    assert bigger.n_tasks_ == n_new
    assert bigger.n_reused_tasks_ == exp.n_tasks_
    after = _stored_values(path)
    assert {k: after[k] for k in before} == before
    reference = grow_experiment(None, **params).fit(data).results_
    _assert_same_scores(bigger.results_, reference)
    pd.testing.assert_frame_equal(bigger.results_.predictions, reference.predictions)
    assert bigger.results_.learners == reference.learners
    assert bigger.results_.datasets == reference.datasets
    again = grow_experiment(path, **params).fit(data)
    assert again.n_tasks_ == 0  # everything is stored
    _assert_same_scores(again.results_, reference)


def test_results_hold_exactly_the_fitted_experiment(tmp_path):
    """H: after a store grew to three learners, fitting two of them runs nothing
    and results_ holds exactly their tasks, while from_store reads all three."""
    path = tmp_path / "grow.sqlite"
    grow_experiment(path, learners=("forest", "tree", "nb")).fit(grow_datasets())
    subset = grow_experiment(path, learners=("nb", "tree")).fit(grow_datasets())
    assert subset.n_tasks_ == 0
    reference = grow_experiment(None, learners=("nb", "tree")).fit(grow_datasets())
    _assert_same_scores(subset.results_, reference.results_)
    assert subset.results_.learners == ["nb", "tree"]
    assert BenchmarkResult.from_store(path).learners == ["forest", "tree", "nb"]


def test_simulated_dataset_grows_by_replicates(tmp_path):
    """H: a SimulatedDataset with more replicates reuses the stored learning
    samples' scores and runs only the new replicates."""
    path = tmp_path / "sim.sqlite"

    def data(n):
        sampler = partial(make_angle_classification, angle=30)
        return {
            "angle": SimulatedDataset(sampler, n_train=40, n_test=100, n_replicates=n)
        }

    def experiment(store):
        return BenchmarkExperiment(
            {"nb": GaussianNB(), "dummy": DummyClassifier()},
            random_state=0,
            progress=False,
            store=store,
        )

    experiment(path).fit(data(3))
    grown = experiment(path).fit(data(5))
    assert grown.n_tasks_ == 2 * 2
    _assert_same_scores(grown.results_, experiment(None).fit(data(5)).results_)


@pytest.mark.parametrize(
    "change, named",
    [
        ({"learners": {"tree": DecisionTreeClassifier(max_depth=4)}}, "learner 'tree'"),
        ({"data": "iris"}, "data set 'iris'"),
        ({"random_state": 8}, "seed"),
        ({"scoring": ["error_rate"]}, "metrics"),
        ({"cv": BootstrapOOB(n_bootstraps=4, random_state=4)}, "data set 'cancer'"),
    ],
    ids=["learner", "data", "seed", "metrics", "cv"],
)
def test_changes_under_an_old_name_are_refused(tmp_path, change, named):
    """H: a learner whose parameters changed under its stored name, a data set
    whose contents changed under its name, another seed, metric set or splits
    raise a ValueError naming the learner, data set or setting, and leave the
    store byte for byte as it was; a new name grows it, overwrite=True replaces
    it."""
    path = tmp_path / "grow.sqlite"
    grow_experiment(path).fit(grow_datasets())
    before = path.read_bytes()
    data = grow_datasets()
    change = dict(change)
    if change.pop("data", None):
        X, y = data["iris"]
        X = X.copy()
        X[0, 0] += 1e-9
        data["iris"] = (X, y)
    learners = change.pop("learners", None)
    exp = grow_experiment(path, **change)
    if learners:
        exp.set_params(learners={**exp.learners, **learners})
    with pytest.raises(ValueError, match=f"another configuration(.|\n)*{named}"):
        exp.fit(data)
    assert path.read_bytes() == before
    if learners:  # the same learner under a new name is a new learner
        renamed = grow_experiment(path)
        renamed.set_params(learners={**renamed.learners, "tree4": learners["tree"]})
        assert renamed.fit(data).n_tasks_ == 2 * 4
    exp.set_params(overwrite=True).fit(data)
    assert exp.n_tasks_ == len(exp.results_.scores) // len(exp.results_.metrics)


def test_merging_two_stores_equals_one_run_of_the_union(tmp_path):
    """H: the stores of two machines (one data set each, and one with another
    learner) merged into one store, or read together by from_store, equal one run
    of the union without store, scores and predictions; merging is idempotent."""
    a, b, merged = (tmp_path / f"{n}.sqlite" for n in ("a", "b", "merged"))
    grow_experiment(a).fit(grow_datasets(("cancer",)))
    grow_experiment(b, learners=("forest", "tree", "nb")).fit(grow_datasets(("iris",)))
    grow_experiment(b, learners=("nb",)).fit(grow_datasets(("cancer",)))
    union = grow_experiment(None, learners=("forest", "tree", "nb"))
    reference = union.fit(grow_datasets()).results_
    assert merge_stores([a, b], merged) == 3 * 2 * 4
    for result in (
        BenchmarkResult.from_store(merged),
        BenchmarkResult.from_store([a, b]),
    ):
        assert result.n_missing_tasks == 0
        _assert_same_scores(result, reference)
        pd.testing.assert_frame_equal(result.predictions, reference.predictions)
    assert merge_stores([a, b], merged) == 0  # the same tasks: nothing to copy
    refit = grow_experiment(merged, learners=("forest", "tree", "nb"))
    assert refit.fit(grow_datasets()).n_tasks_ == 0


def _other_scores(conn):
    """Give one task other scores, as another study would have (its checksum
    recomputed: a store of another study, not a damaged one)."""
    from sklearn_bench.store._integrity import store_checksums

    conn.execute(
        "UPDATE scores SET value = value + 1e-12 WHERE learner = 'tree' "
        "AND split = 2 AND metric = 'error_rate'"
    )
    for (ordinal,) in conn.execute(
        "SELECT ordinal FROM tasks WHERE learner = 'tree' AND split = 2"
    ).fetchall():
        store_checksums(conn, [ordinal])


def test_conflicting_duplicates_are_refused(tmp_path):
    """H: a task stored in two stores with other scores, or stores of another
    seed, are refused by merge_stores with a ValueError naming the learner and data
    set (or the seed), and the target keeps what it had."""
    a, b, c, merged = (tmp_path / f"{n}.sqlite" for n in ("a", "b", "c", "m"))
    grow_experiment(a).fit(grow_datasets(("iris",)))
    grow_experiment(b).fit(grow_datasets(("iris",)))
    with sqlite3.connect(b) as conn:
        _other_scores(conn)
    merge_stores([a], merged)
    before = _stored_values(merged)
    with pytest.raises(ValueError, match="learner 'tree' on data set 'iris' split 2"):
        merge_stores([b], merged)
    with pytest.raises(ValueError, match="Conflicting duplicate"):
        BenchmarkResult.from_store([a, b])
    grow_experiment(c, random_state=8).fit(grow_datasets(("cancer",)))
    with pytest.raises(ValueError, match="another configuration(.|\n)*seed"):
        merge_stores([c], merged)
    assert _stored_values(merged) == before


_SCRIPT = """
import sys
from tests.experiment.test_grow import grow_datasets, grow_experiment
grow_experiment(sys.argv[1], learners=("forest", "tree", "nb", "knn"), n_bootstraps=8
                ).fit(grow_datasets(("cancer", "iris", "wine")))
"""


def _n_done(path):
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            return conn.execute(
                "SELECT count(DISTINCT ordinal) FROM scores"
            ).fetchone()[0]
    except sqlite3.Error:
        return 0


def test_killed_grow_resumes_bit_identical(tmp_path):
    """H: a grow SIGKILLed after some of its new tasks were committed leaves a
    readable store; fitting the grown experiment again runs only the tasks still
    missing and ends bit-identical to one run of it without store."""
    path = tmp_path / "grow.sqlite"
    grow_experiment(path).fit(grow_datasets())
    n_first = _n_done(path)
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    proc = subprocess.Popen(
        [sys.executable, "-c", _SCRIPT, str(path)],
        cwd=tmp_path,
        env=env,
        stderr=subprocess.PIPE,
    )
    try:
        deadline = time.monotonic() + 120
        while _n_done(path) < n_first + 6 and proc.poll() is None:
            assert time.monotonic() < deadline, "the grow never committed a task"
            time.sleep(0.01)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait()
        stderr = proc.stderr.read().decode()
    assert proc.returncode == -signal.SIGKILL, stderr
    n_tasks = 3 * 4 * 8
    with pytest.warns(UserWarning, match="are missing"):
        partial_result = BenchmarkResult.from_store(path)
    n_done = n_tasks - partial_result.n_missing_tasks
    assert n_first + 6 <= n_done < n_tasks
    grown = grow_experiment(
        path, learners=("forest", "tree", "nb", "knn"), n_bootstraps=8
    )
    data = grow_datasets(("cancer", "iris", "wine"))
    grown.fit(data)
    assert grown.n_tasks_ == n_tasks - n_done
    reference = grow_experiment(
        None, learners=("forest", "tree", "nb", "knn"), n_bootstraps=8
    ).fit(data)
    _assert_same_scores(grown.results_, reference.results_)
    pd.testing.assert_frame_equal(
        grown.results_.predictions, reference.results_.predictions
    )


def test_refused_merge_leaves_the_target_byte_for_byte(tmp_path):
    """H: a merge whose second source is refused (a conflicting duplicate) after
    a first one that would have been copied leaves the target exactly as it was,
    every byte, with no working copy left beside it, and the message names the
    target, not a temporary file (all or nothing; issue 20)."""
    a, b, new, merged = (tmp_path / f"{n}.sqlite" for n in ("a", "b", "new", "m"))
    grow_experiment(a).fit(grow_datasets(("iris",)))
    grow_experiment(b).fit(grow_datasets(("iris",)))
    grow_experiment(new).fit(grow_datasets(("cancer",)))
    with sqlite3.connect(b) as conn:
        _other_scores(conn)
    merge_stores([a], merged)
    before = merged.read_bytes()
    with pytest.raises(ValueError, match="Conflicting duplicate") as info:
        merge_stores([new, b], merged)
    assert "merging" not in str(info.value) and str(merged) in str(info.value)
    assert merged.read_bytes() == before
    assert sorted(p.name for p in tmp_path.iterdir() if "m.sqlite" in p.name) == [
        "m.sqlite"
    ]
