"""Crafted stores and results folders that try to import (issue 21, item 1), end
to end: `report`, `from_store`, `load`, `store check`, `store salvage`, `merge`
and `python -m sklearn_bench report` never import or call a module a store
names (sklearn_bench/analysis/_learners.py looks no module up);
`run --check` calls nothing but estimator classes (sklearn_bench/cli/_config.py)."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.store._digests import seal

pytest.importorskip("matplotlib")

from sklearn_bench.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
EVIL = """
import pathlib
pathlib.Path({marker!r}).write_text("imported")


class Est:
    def __init__(self, a=1):
        pathlib.Path({marker!r}).write_text("called")
"""
CLASSES = [
    "evilmod.Est",  # a module of the current folder
    "this.Anything",  # prints the Zen of Python when imported
    "venv.__main__.main",  # builds a virtual environment when imported
    "sklearn_bench.__main__.X",  # runs the command line again when imported
    "sklearn._build_utils.version.X",  # a build script
    "sklearn.experimental.enable_iterative_imputer.X",  # a feature switch
    "os.system",
]
WATCHED = [
    "evilmod",
    "this",
    "venv.__main__",
    "sklearn_bench.__main__",
    "sklearn._build_utils.version",
    "sklearn.experimental.enable_iterative_imputer",
]


@pytest.fixture(scope="module")
def clean_store(tmp_path_factory):
    path = tmp_path_factory.mktemp("clean") / "s.sqlite"
    X, y = load_iris(return_X_y=True)
    BenchmarkExperiment(
        {"nb": GaussianNB()}, cv=3, random_state=0, progress=False, store=path
    ).fit({"iris": (X, y)})
    return path


def _craft(meta, cls):
    for key in ("result", "config"):
        data = json.loads(meta[key])
        if key == "result":
            data["info"]["learner_params"]["nb"]["class"] = cls
        else:
            data["learners"]["nb"]["class"] = cls
        meta[key] = json.dumps(data)


@pytest.fixture
def evil_folder(tmp_path, monkeypatch):
    """The current folder holds evilmod.py, which writes a marker file when
    imported; no watched module is imported yet."""
    marker = tmp_path / "pwned.txt"
    (tmp_path / "evilmod.py").write_text(EVIL.format(marker=str(marker)))
    monkeypatch.chdir(tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path))
    for name in WATCHED:
        monkeypatch.delitem(sys.modules, name, raising=False)
    return marker


def _crafted_store(clean_store, folder, cls):
    path = folder / "crafted.sqlite"
    shutil.copyfile(clean_store, path)
    conn = sqlite3.connect(path)
    meta = dict(conn.execute("SELECT key, value FROM meta"))
    _craft(meta, cls)
    conn.executemany(
        "UPDATE meta SET value = ? WHERE key = ?",
        [(meta["result"], "result"), (meta["config"], "config")],
    )
    seal(conn)  # as the crafter can: the checksums are not a signature
    conn.commit()
    conn.close()
    return path


def _assert_nothing_imported(marker, capsys=None):
    assert not marker.exists()
    for name in WATCHED:
        assert name not in sys.modules, name
    if capsys is not None:
        out = capsys.readouterr().out
        assert "Beautiful is better than ugly" not in out


@pytest.mark.parametrize("cls", CLASSES)
def test_reading_a_crafted_store_imports_nothing(
    clean_store, evil_folder, tmp_path, capsys, cls
):
    """H: a store naming a module that acts when imported (a module in the
    current folder, `this`, `venv.__main__`, `sklearn_bench.__main__`, a build
    script and a feature switch of scikit-learn, `os.system`) as a learner's
    class is read by from_store, reported, checked, salvaged and merged
    without importing or calling it: no marker file, no such module in
    sys.modules, no Zen of Python printed; the report still lists the
    learner."""
    store = _crafted_store(clean_store, tmp_path, cls)
    assert len(BenchmarkResult.from_store(store).scores) == 3
    assert main(["report", str(store), "--out", str(tmp_path / "r")]) == 0
    assert "nb" in (tmp_path / "r" / "report.html").read_text()
    assert main(["store", "check", str(store)]) == 0
    assert main(["store", "salvage", str(store), str(tmp_path / "new.sqlite")]) == 0
    assert main(["merge", str(tmp_path / "m.sqlite"), str(store)]) == 0
    _assert_nothing_imported(evil_folder, capsys)


def test_reading_a_crafted_results_folder_imports_nothing(
    clean_store, evil_folder, tmp_path, capsys
):
    """H: a results folder whose metadata.json names such modules is loaded and
    reported without importing any of them."""
    result = BenchmarkResult.from_store(clean_store)
    for i, cls in enumerate(CLASSES):
        folder = tmp_path / f"res{i}"
        result.save(folder, format="csv")
        meta = json.loads((folder / "metadata.json").read_text())
        meta["info"]["learner_params"]["nb"]["class"] = cls
        (folder / "metadata.json").write_text(json.dumps(meta))
        assert len(BenchmarkResult.load(folder).scores) == 3
        assert main(["report", str(folder), "--out", str(tmp_path / f"r{i}")]) == 0
    _assert_nothing_imported(evil_folder, capsys)


def test_python_m_report_of_a_crafted_store_runs_no_module_of_the_cwd(
    clean_store, tmp_path
):
    """H: under `python -m sklearn_bench report` (which puts the current folder
    on sys.path) a store naming `evilmod.Est`, a module of the current folder,
    is reported (exit 0) and evilmod is never imported (the marker file it
    would write is absent)."""
    marker = tmp_path / "pwned.txt"
    (tmp_path / "evilmod.py").write_text(EVIL.format(marker=str(marker)))
    store = _crafted_store(clean_store, tmp_path, "evilmod.Est")
    env = dict(os.environ, PYTHONPATH=str(ROOT), MPLBACKEND="Agg")
    proc = subprocess.run(
        [sys.executable, "-m", "sklearn_bench", "report", store.name, "--out", "r"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stderr
    assert not marker.exists()


@pytest.mark.parametrize(
    "cls, params",
    [
        ("os.system", {"command": "touch {marker}"}),
        ("subprocess.call", {"args": ["touch", "{marker}"]}),
        ("builtins.exec", {"source": "open('{marker}', 'w').close()"}),
    ],
)
def test_run_check_calls_nothing_but_estimator_classes(tmp_path, capsys, cls, params):
    """H: `run --check` on a config whose learner class is a function (os.system,
    subprocess.call, exec) with parameters that would create a file exits 2
    naming the entry, and nothing is called: the file does not exist."""
    marker = tmp_path / "called.txt"
    params = json.loads(json.dumps(params).replace("{marker}", str(marker)))
    config = tmp_path / "c.toml"
    items = ", ".join(f"{k} = {json.dumps(v)}" for k, v in params.items())
    config.write_text(
        f'[learners.bad]\nclass = "{cls}"\nparams = {{{items}}}\n'
        '[datasets.iris]\nsklearn = "iris"\n'
    )
    assert main(["run", str(config), "--check"]) == 2
    assert "not an estimator class" in capsys.readouterr().err
    assert not marker.exists()
