"""A store or a results folder is data: reading it never imports or calls what
it names (issue 21, item 1). Tests of sklearn_bench/analysis/_learners.py and of
the config's refusal to call anything but estimator classes."""

import sys

import pytest

from sklearn_bench.analysis._learners import learner_table
from sklearn_bench.cli._config import ConfigError, parse_config

EVIL = """
import pathlib
pathlib.Path({marker!r}).write_text("imported")


class Est:
    def __init__(self, a=1):
        pathlib.Path({marker!r}).write_text("called")
"""


def _result(classes):
    class Result:
        learners = [f"l{i}" for i in range(len(classes))]
        info = {
            "learner_params": {
                f"l{i}": {"class": c, "params": {"a": 2}} for i, c in enumerate(classes)
            }
        }

    return Result()


def test_learner_table_never_imports_what_a_store_names(tmp_path, monkeypatch):
    """H: class paths recorded in a store (a module of the current folder that
    writes a file when imported, the standard library's `this` and
    `venv.__main__`, an os function) are never imported or called: no file is
    written, no such module enters sys.modules, and the table still lists the
    learners with their recorded parameters."""
    marker = tmp_path / "pwned.txt"
    (tmp_path / "evilmod.py").write_text(EVIL.format(marker=str(marker)))
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for name in ("evilmod", "this", "venv.__main__", "antigravity"):
        sys.modules.pop(name, None)
    classes = [
        "evilmod.Est",
        "this.Anything",
        "venv.__main__.main",
        "antigravity.geohash",
        "os.system",
        "sklearn.evilmod.Est",  # not a module inside sklearn's folder
    ]
    table = learner_table(_result(classes))
    assert not marker.exists()
    for name in ("evilmod", "this", "venv.__main__", "antigravity"):
        assert name not in sys.modules, name
    assert list(table.index) == [f"l{i}" for i in range(len(classes))]
    assert (table["parameters"] == "a=2").all()


def test_learner_table_reads_the_defaults_the_run_recorded():
    """H: the defaults a run recorded (info["learner_defaults"]) decide what is
    shown, so a parameter at its default is not, and the class's module is
    not imported (issue 29, item 7); a run recorded before them shows every
    parameter: no module is looked up, not even one already imported (issue
    47: the table read sys.modules at render time)."""
    path = "sklearn.utils._testing.NotImportedEst"
    sys.modules.pop("sklearn.utils._testing", None)
    result = _result([path])
    result.info["learner_params"]["l0"]["params"] = {"depth": None, "a": 2}
    result.info["learner_defaults"] = {path: {"depth": None, "a": 1}}
    assert learner_table(result).loc["l0", "parameters"] == "a=2"
    assert "sklearn.utils._testing" not in sys.modules
    import sklearn.tree  # noqa: F401  (imported by the test, not by the read)

    old = _result(["sklearn.tree.DecisionTreeClassifier"])
    old.info["learner_params"]["l0"]["params"] = {"max_depth": None, "a": 2}
    assert learner_table(old).loc["l0", "parameters"] == "max_depth=None, a=2"


def test_a_run_records_the_defaults_of_its_classes(tmp_path):
    """H: a run records the defaults of every estimator class of its learners,
    pipeline steps too, in the store; reading them back needs no import."""
    from sklearn.datasets import load_iris
    from sklearn.feature_selection import SelectKBest
    from sklearn.pipeline import make_pipeline
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench import BenchmarkExperiment, BenchmarkResult

    learners = {
        f"k{k}": make_pipeline(SelectKBest(k=k), DecisionTreeClassifier())
        for k in (2, 3)
    }
    store = tmp_path / "run.sqlite"
    experiment = BenchmarkExperiment(
        learners, cv=2, random_state=0, progress=False, store=store
    )
    experiment.fit({"iris": load_iris(return_X_y=True)})
    result = BenchmarkResult.from_store(store)
    defaults = result.info["learner_defaults"]
    assert (
        defaults["sklearn.feature_selection._univariate_selection.SelectKBest"]["k"]
        == 10
    )
    assert "sklearn.pipeline.Pipeline" in defaults
    assert learner_table(result)["parameters"].tolist() == [
        "selectkbest__k=2",
        "selectkbest__k=3",
    ]


@pytest.mark.parametrize(
    "path", ["os.system", "subprocess.Popen", "builtins.print", "pathlib.Path"]
)
def test_config_never_calls_a_non_estimator(tmp_path, path, capsys):
    """H: a config whose learner `class` is not an estimator class (a function,
    or a class without fit/get_params/split) is refused by name before anything
    is called: nothing is printed, no process starts."""
    data = {
        "learners": {"bad": {"class": path, "params": {}}},
        "datasets": {"iris": {"sklearn": "load_iris"}},
    }
    with pytest.raises(ConfigError, match="not an estimator class"):
        parse_config(data, base=tmp_path)
    assert capsys.readouterr().out == ""


def test_config_sklearn_source_must_be_a_loader(tmp_path):
    """H: a data set `sklearn = "..."` that is not a load_/fetch_ function of
    sklearn.datasets is refused by name, without calling it."""
    data = {
        "learners": {"dt": {"class": "sklearn.tree.DecisionTreeClassifier"}},
        "datasets": {"x": {"sklearn": "dump_svmlight_file"}},
    }
    with pytest.raises(ConfigError, match="unknown scikit-learn loader"):
        parse_config(data, base=tmp_path)
