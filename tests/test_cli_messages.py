"""Every message names the problem and the way out, in CLI words, and exit codes
follow one rule: 2 for usage, configuration and refused input, 1 for work that
failed (issue 21, item 8; sklearn_bench/cli/, BenchmarkResult.load, the store's
metadata checks, the config loader and the experiment's full-disk message)."""

import errno
import shutil
import sqlite3
from pathlib import Path

import pytest
from sklearn.datasets import load_iris
from sklearn.naive_bayes import GaussianNB

from sklearn_bench import BenchmarkExperiment

pytest.importorskip("matplotlib")

from sklearn_bench.cli import main  # noqa: E402

CONFIG = """
[experiment]
cv = 3
random_state = 0
store = "{store}"
[learners.nb]
class = "sklearn.naive_bayes.GaussianNB"
[learners.nb2]
class = "sklearn.naive_bayes.GaussianNB"
params = {{var_smoothing = 1e-8}}
[datasets.iris]
sklearn = "iris"
"""


@pytest.fixture(scope="module")
def stored(tmp_path_factory):
    """A store of 3 tasks and the results folder saved from it."""
    folder = tmp_path_factory.mktemp("stored")
    X, y = load_iris(return_X_y=True)
    exp = BenchmarkExperiment(
        {"nb": GaussianNB()},
        cv=3,
        random_state=0,
        progress=False,
        store=folder / "s.sqlite",
    ).fit({"iris": (X, y)})
    exp.results_.save(folder / "res", format="csv")
    return folder


def _report(target, tmp_path, capsys):
    code = main(["report", str(target), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert "Traceback" not in err and "KeyError" not in err
    return code, err


def _results_folder(stored, tmp_path, damage):
    folder = tmp_path / "res"
    shutil.copytree(stored / "res", folder)
    damage(folder)
    return folder


def _inf_score(folder):
    lines = (folder / "scores.csv").read_text().splitlines()
    column = lines[0].split(",").index("value")
    row = lines[1].split(",")
    row[column] = "inf"
    lines[1] = ",".join(row)
    (folder / "scores.csv").write_text("\n".join(lines) + "\n")


FOLDER_DAMAGES = {
    "bad JSON": (
        lambda f: (f / "metadata.json").write_text("{not json"),
        r"metadata\.json cannot be read \(JSONDecodeError",
    ),
    "bad bytes": (
        lambda f: (f / "metadata.json").write_bytes(b"\xff\xfe\x00bad"),
        r"metadata\.json is not UTF-8 text",
    ),
    "missing CSV": (
        lambda f: (f / "scores.csv").unlink(),
        r"scores\.csv is missing",
    ),
    "bad CSV bytes": (
        lambda f: (f / "scores.csv").write_bytes(b"\xff\x00\xfe,\x81\n"),
        r"scores\.csv is not UTF-8 text",
    ),
    "inf score": (
        _inf_score,
        r"holds 1 infinite score\(s\), which cannot be analysed \(learner 'nb' on "
        r"data set 'iris' split 0, metric 'error_rate': inf\)",
    ),
}


@pytest.mark.parametrize("damage", FOLDER_DAMAGES)
def test_damaged_results_folder_names_the_file(stored, tmp_path, capsys, damage):
    """H: `report` on a results folder with bad JSON, bad bytes, a missing CSV
    or an infinite score exits 2 with a sentence naming the file (or the
    score, by learner, data set, split and metric), never a traceback or a
    crash in the figures."""
    make, pattern = FOLDER_DAMAGES[damage]
    folder = _results_folder(stored, tmp_path, make)
    code, err = _report(folder, tmp_path, capsys)
    assert code == 2, err
    assert len(err.strip().splitlines()) == 1
    import re

    assert re.search(pattern, err), err


def _store_copy(stored, tmp_path, sql, *, sign=False):
    """A copy of the stored run with ``sql`` run on it; with ``sign``, the
    store's digests rewritten to match (a damage that the checksum of the
    settings does not catch first)."""
    path = tmp_path / "s.sqlite"
    shutil.copyfile(stored / "s.sqlite", path)
    conn = sqlite3.connect(path)
    conn.execute(sql)
    if sign:
        from sklearn_bench.store._digests import seal

        seal(conn)
    conn.commit()
    conn.close()
    return path


def test_inf_score_in_a_store_is_refused_by_name(stored, tmp_path, capsys):
    """H: a store holding an infinite score is refused by `report` with exit 2
    naming the learner, data set, split and metric (the report used to crash on
    'Axis limits cannot be NaN or Inf', exit 1)."""
    path = _store_copy(
        stored, tmp_path, "UPDATE scores SET value = 9e999 WHERE ordinal = 0"
    )
    from sklearn_bench.store._integrity import store_checksums

    with sqlite3.connect(path) as conn:  # as a run whose metric gave inf wrote it
        store_checksums(conn, [0])
    conn.close()
    code, err = _report(path, tmp_path, capsys)
    assert code == 2
    assert "infinite score(s)" in err and "learner 'nb'" in err


@pytest.mark.parametrize("key", ["result", "config", "keep_predictions"])
@pytest.mark.parametrize("command", ["report", "check", "merge"])
def test_missing_store_metadata_is_a_sentence(stored, tmp_path, capsys, key, command):
    """H: a store whose metadata lacks `result`, `config` or `keep_predictions`
    is refused by report, store check and merge with exit 2 and a sentence
    naming the key and the way out (it used to be `KeyError: 'result'`, exit
    1)."""
    path = _store_copy(
        stored, tmp_path, f"DELETE FROM meta WHERE key = '{key}'", sign=True
    )
    argv = {
        "report": ["report", str(path), "--out", str(tmp_path / "out")],
        "check": ["store", "check", str(path)],
        "merge": ["merge", str(tmp_path / "m.sqlite"), str(path)],
    }[command]
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"lacks its metadata {key!r}" in err
    assert "KeyError" not in err and "Traceback" not in err


def test_non_utf8_config_is_a_sentence(tmp_path, capsys):
    """H: a config file that is not UTF-8 exits 2 naming the file and the byte
    (it used to be a UnicodeDecodeError, exit 1)."""
    config = tmp_path / "bad.toml"
    config.write_bytes(b"[experiment]\ncv = 2\n# caf\xe9\n")
    assert main(["run", str(config), "--check"]) == 2
    err = capsys.readouterr().err
    assert f"{config} is not UTF-8 text (byte 0xe9" in err


@pytest.mark.parametrize("check", [True, False], ids=["--check", "run"])
def test_missing_store_folder_is_a_sentence_before_fitting(tmp_path, capsys, check):
    """H: experiment.store in a folder that does not exist exits 2 naming the
    config key and the folder, also under --check, before anything is fitted
    (it used to be FileNotFoundError after loading, exit 1, and --check said
    OK)."""
    config = tmp_path / "c.toml"
    config.write_text(CONFIG.format(store=tmp_path / "nofolder" / "run.sqlite"))
    argv = ["run", str(config), "--out", str(tmp_path / "out")]
    code = main(argv + (["--check"] if check else []))
    out, err = capsys.readouterr()
    assert code == 2
    assert "config key `experiment.store`" in err and "nofolder" in err
    assert "Fitted" not in out and "Config OK" not in out


def test_report_of_a_store_in_a_missing_folder(tmp_path, capsys):
    """H: `report` of a store whose folder does not exist exits 2 saying so."""
    code = main(["report", str(tmp_path / "nofolder" / "s.sqlite")])
    assert code == 2
    assert "its folder" in capsys.readouterr().err


def test_corrupt_store_in_run_speaks_cli_words(stored, tmp_path, capsys):
    """H: `run` on a corrupt store exits 2, and its message tells a CLI user what
    to do in CLI words: never "pass `overwrite=True`", never a Python call."""
    path = tmp_path / "s.sqlite"
    shutil.copyfile(stored / "s.sqlite", path)
    with open(path, "r+b") as file:
        file.truncate(path.stat().st_size - 4096)
    config = tmp_path / "c.toml"
    config.write_text(CONFIG.format(store=path))
    code = main(["run", str(config), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 2
    assert "is corrupt" in err and "sklearn-bench store salvage" in err
    assert "overwrite=True" not in err and "sklearn_bench.results" not in err
    assert "`overwrite = true`" in err


def test_salvage_and_merge_messages_never_name_a_working_copy(stored, tmp_path, capsys):
    """H: errors of `store salvage` and `merge` name the user's files, never the
    temporary copy they work on (salvage's padded copy, merge's .merging file)."""
    bad = tmp_path / "bad.sqlite"
    bad.write_bytes(b"SQLite format 3\x00" + b"\xff" * 5000)
    assert main(["store", "salvage", str(bad), str(tmp_path / "new.sqlite")]) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "tmp" + "/store.sqlite" not in err
    assert "overwrite=True" not in err
    target = tmp_path / "target.sqlite"
    shutil.copyfile(stored / "s.sqlite", target)
    other = _store_copy(
        stored, tmp_path, "UPDATE meta SET value = '{}' WHERE key = 'config'"
    )
    code = main(["merge", str(target), str(other)])
    err = capsys.readouterr().err
    assert code == 2 and ".merging" not in err


def test_disk_full_says_the_store_is_kept_and_how_to_resume(
    tmp_path, capsys, monkeypatch
):
    """H: a full disk while committing the third batch of tasks stops `run`
    with exit 1 and a message saying the store is kept and to run the same
    command again; the store holds the tasks committed before, and running the
    command again fits only the missing ones (6 tasks: 3 folds x 2 learners;
    a local run commits one job's tasks per transaction)."""
    from sklearn_bench.store._writer import StoreWriter

    config = tmp_path / "c.toml"
    store = tmp_path / "run.sqlite"
    config.write_text(CONFIG.format(store=store))
    write_many = StoreWriter.write_many
    committed = []

    def full(self, items):
        if len(committed) == 2:
            raise sqlite3.OperationalError("database or disk is full")
        write_many(self, items)
        committed.append(len(items))

    monkeypatch.setattr(StoreWriter, "write_many", full)
    code = main(["run", str(config), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1
    assert "The disk is full" in err and "The store is kept" in err
    assert "run the same command again to resume" in err
    monkeypatch.setattr(StoreWriter, "write_many", write_many)
    assert main(["run", str(config), "--out", str(tmp_path / "out")]) == 0
    assert f"Fitted {6 - sum(committed)} new task(s)" in capsys.readouterr().out


def test_disk_full_writing_the_report_names_the_store(tmp_path, capsys, monkeypatch):
    """H: a full disk while writing the report after fitting exits 1 saying that
    the run is kept in its store and which `report` command writes it later."""
    import sklearn_bench.cli._main as cli

    config = tmp_path / "c.toml"
    store = tmp_path / "run.sqlite"
    config.write_text(CONFIG.format(store=store))

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(cli, "_write_outputs", full)
    code = main(["run", str(config), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert code == 1
    assert "The disk is full" in err
    assert f"sklearn-bench report {store} --out" in err


def test_exit_code_table_is_in_the_cli_docs():
    """H: docs/cli.rst has the exit-code table: 0, 1 (the work failed) and 2
    (usage, configuration, refused input), with examples of each."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "cli.rst").read_text()
    assert "Exit codes" in text
    table = text[text.index(".. list-table:: Exit codes") :][:3000]
    for needle in ("``0``", "``1``", "``2``", "disk is full", "infinite score"):
        assert needle in table, needle


@pytest.mark.parametrize("command", ["report", "leaderboard"])
def test_refusals_of_readers_give_advice_for_that_command(tmp_path, capsys, command):
    """H: `report` and `leaderboard` refuse a file that is not a store (exit 2)
    with advice for the command that was run (what to give it), not the config
    run's "point experiment.store at another file"; a corrupt store's refusal
    says how to read the salvaged store with that command and never suggests
    `overwrite` (issue 28.12d)."""
    bad = tmp_path / "results.sqlite"
    bad.write_text("not a store\n")
    assert main([command, str(bad)]) == 2
    err = capsys.readouterr().err
    assert "experiment.store" not in err and "overwrite" not in err
    assert f"Give `sklearn-bench {command}` a sklearn_bench store" in err
    if command == "leaderboard":
        assert "a CSV of results" in err
    from sklearn_bench.cli._main import _cli_words
    from sklearn_bench.store._schema import corrupt_store_error

    message = str(corrupt_store_error(bad, "file is not a database"))
    words = _cli_words(message, command)
    assert f"`sklearn-bench {command} NEW.sqlite` reads the salvaged tasks" in words
    assert "overwrite" not in words
    # a config run keeps its own advice
    assert "overwrite = true" in _cli_words(message, "run")
