"""A store is never written through a link (issues 29 and 38): run, grow,
merge, salvage and checkpoint refuse a symbolic or hard link at the store's
path or at its -wal/-shm/-journal names before SQLite opens it; reading
follows a link."""

import os
import shutil

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.store import (
    NotAStoreError,
    checkpoint_store,
    merge_stores,
    salvage_store,
)
from sklearn_bench.store._provenance import param_changes
from sklearn_bench.store._writer import StoreWriter


def _fit(store, learners=None):
    exp = BenchmarkExperiment(
        learners or {"nb": GaussianNB()},
        cv=3,
        random_state=0,
        progress=False,
        store=store,
    )
    exp.fit({"iris": load_iris(return_X_y=True)})
    return exp


@pytest.fixture
def store(tmp_path):
    path = tmp_path / "real.sqlite"
    _fit(path)
    return path


def test_a_run_on_a_linked_store_is_refused_and_the_target_kept(store, tmp_path):
    """H: fitting (growing) on a path that is a link to a store raises
    NotAStoreError naming the link, and the linked store's bytes are unchanged."""
    link = tmp_path / "link.sqlite"
    os.symlink(store, link)
    before = store.read_bytes()
    with pytest.raises(NotAStoreError, match="symbolic link"):
        _fit(link, {"nb": GaussianNB(), "tree": DecisionTreeClassifier()})
    assert store.read_bytes() == before


def test_a_dangling_link_at_a_new_store_creates_nothing(tmp_path):
    """H: a new store's path that is a dangling link is refused, and no file is
    created where the link points."""
    target = tmp_path / "elsewhere" / "planted.sqlite"
    target.parent.mkdir()
    link = tmp_path / "new.sqlite"
    os.symlink(target, link)
    with pytest.raises(NotAStoreError, match="symbolic link"):
        StoreWriter(link)
    assert not target.exists()


def test_a_linked_wal_file_is_refused(store, tmp_path):
    """H: a -wal name beside the store that is a link (SQLite would write its
    log where it points) is refused before SQLite opens the store."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep")
    os.symlink(victim, f"{store}-wal")
    with pytest.raises(NotAStoreError, match="wal file that is a symbolic link"):
        StoreWriter(store)
    assert victim.read_text() == "keep"


def test_merge_salvage_checkpoint_refuse_a_linked_target(store, tmp_path):
    """H: a merge whose target, a salvage whose NEW, and a checkpoint whose
    store is a link are refused; nothing is written where the links point."""
    link = tmp_path / "link.sqlite"
    os.symlink(store, link)
    before = store.read_bytes()
    other = tmp_path / "other.sqlite"
    _fit(other, {"tree": DecisionTreeClassifier(random_state=0)})
    with pytest.raises(NotAStoreError, match="symbolic link"):
        merge_stores([other], link)
    with pytest.raises(NotAStoreError, match="symbolic link"):
        checkpoint_store(link)
    dangling = tmp_path / "new.sqlite"
    os.symlink(tmp_path / "nowhere.sqlite", dangling)
    with pytest.raises(NotAStoreError, match="symbolic link"):
        salvage_store(store, dangling)
    assert store.read_bytes() == before
    assert not (tmp_path / "nowhere.sqlite").exists()


def test_reading_follows_a_link(store, tmp_path):
    """H: reading a store through a link (report, leaderboard) gives the same
    scores as reading the file itself, and writes nothing beside either."""
    link = tmp_path / "link.sqlite"
    os.symlink(store, link)
    names = sorted(p.name for p in tmp_path.iterdir())
    direct = BenchmarkResult.from_store(store).scores
    linked = BenchmarkResult.from_store(link).scores
    assert linked["value"].tolist() == direct["value"].tolist()
    assert sorted(p.name for p in tmp_path.iterdir()) == names


def test_param_changes_name_only_the_changed_keys():
    """H: a learner whose pipeline step changed one parameter is described by
    that parameter's scikit-learn name and its two values; a changed class by
    the two class names; a new parameter as absent before."""

    def est(cls, **params):
        return {"class": cls, "params": params}

    old = est("Pipeline", memory=None, steps=[
        ["scale", est("StandardScaler", copy=True)],
        ["lr", est("LogisticRegression", C="1.0", max_iter=300)],
    ])  # fmt: skip
    new = est("Pipeline", memory=None, steps=[
        ["scale", est("StandardScaler", copy=True)],
        ["lr", est("LogisticRegression", C="1.0", max_iter=900, tol="0.001")],
    ])  # fmt: skip
    assert param_changes(old, new) == [
        "lr__max_iter 300 -> 900",
        "lr__tol absent -> '0.001'",
    ]
    assert param_changes(est("a.B"), est("a.C")) == ["class B(...) -> C(...)"]
    assert param_changes(old, old) == []


def test_a_hard_linked_store_is_never_written(store, tmp_path, outside):
    """H: a store, or its -wal file, that is a hard link to a file outside the
    study folder is refused (NotAStoreError naming the hard link) by a run,
    a merge into it and a checkpoint; the outside file keeps its bytes and
    can still be read through the link (reading writes nothing)."""
    linked = tmp_path / "linked.sqlite"
    shutil.copyfile(store, outside.path / "theirs.sqlite")
    outside.before = outside.digest()
    os.link(outside.path / "theirs.sqlite", linked)
    with pytest.raises(NotAStoreError, match="hard link"):
        _fit(linked, {"nb": GaussianNB(), "tree": DecisionTreeClassifier()})
    with pytest.raises(NotAStoreError, match="hard link"):
        merge_stores([store], linked)
    with pytest.raises(NotAStoreError, match="hard link"):
        checkpoint_store(linked)
    assert len(BenchmarkResult.from_store(linked).scores)
    assert outside.unchanged()
