"""Bad input to ``sklearn-bench run`` gets one clear line and exit code 2; outputs go
under the current directory (issue 15, items 2, 3 and 5)."""

import re
import warnings
from pathlib import Path

import pytest

pytest.importorskip("matplotlib")

from sklearn_bench.cli import main  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE_CONFIG = ROOT / "examples" / "configs" / "demo.toml"

_CSV_CONFIG = """
[experiment]
cv = 2
[learners.lr]
class = "sklearn.linear_model.LogisticRegression"
[datasets.mine]
csv = "data.csv"
target = "label"
"""


def _run_csv(tmp_path, capsys, content, config=_CSV_CONFIG):
    (tmp_path / "data.csv").write_text(content)
    (tmp_path / "c.toml").write_text(config)
    code = main(["run", str(tmp_path / "c.toml"), "--check"])
    err = capsys.readouterr().err.strip().splitlines()
    return code, err


@pytest.mark.parametrize(
    "content, message",
    [
        ("", "config key `datasets.mine.csv`: .*data.csv cannot be read as CSV"),
        ("a,b,label\n", "config key `datasets.mine.csv`: .*has a header but no data"),
        (
            "a,b,label\n1,2,0\n3,4,0\n5,6,0\n",
            "Data set 'mine' has only one class in `y`",
        ),
        (
            "a,b,label\n1,x,0\n3,4,1\n5,6,0\n7,8,1\n",
            "`datasets.mine.csv`: column 'b' of data.csv is not numeric "
            r"\('x' on line 2\)",
        ),
        (
            "a,b,label\n1,2,0\n3,4,\n5,6,0\n7,8,1\n",
            r"`datasets.mine.target`: the labels of data set 'mine' \(data.csv\) have "
            r"1 missing value\(s\) \(line\(s\) \[3\]\)",
        ),
    ],
    ids=["empty", "header-only", "one-class", "non-numeric", "nan-label"],
)
def test_bad_csv_is_one_line_and_exit_2(tmp_path, capsys, content, message):
    """H: an empty CSV, a header without rows, a single class, a non-numeric column
    and a missing label are all exit 2 (bad input, consistently; the
    empty CSV used to exit 1) with one line naming the key, file, column or data
    set; no traceback and no numpy RuntimeWarning."""
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        code, err = _run_csv(tmp_path, capsys, content)
    assert code == 2
    assert len(err) == 1, err
    assert re.search(message, err[0]), err[0]


def test_absent_classes_name_the_labels_present(tmp_path, capsys):
    """H: `classes = [7, 9]` on iris says the labels are absent and lists those
    present (it used to say "`X` has no rows"), exit 2."""
    (tmp_path / "c.toml").write_text(
        '[learners.lr]\nclass = "sklearn.linear_model.LogisticRegression"\n'
        '[datasets.iris]\nsklearn = "iris"\nclasses = [7, 9]\n'
    )
    code = main(["run", str(tmp_path / "c.toml"), "--check"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2
    assert err == [
        "sklearn-bench run: error: config key `datasets.iris.classes`: label(s) "
        "[7, 9] are absent from the labels of data set 'iris' (scikit-learn's "
        "load_iris); its labels are [0, 1, 2]"
    ]


@pytest.mark.parametrize(
    "content, learner, message",
    [
        (
            "a,b,label\n1,,0\n3,4,1\n5,6,0\n7,8,1\n1,2,0\n2,3,1\n",
            "sklearn.linear_model.LogisticRegression",
            r"Data set 'mine': `X` has 1 missing value\(s\) \(NaN, in columns "
            r"\[1\]\), which learner 'lr' \(LogisticRegression\) cannot take",
        ),
        (
            "a,b,label\n1,2,0\n3,4,1\n5,6,0\n7,8,1\n1,2,0\n",
            "sklearn.linear_model.LogisticRegression",
            r"`cv` cannot split data set 'mine' \(5 rows\)",
        ),
    ],
    ids=["nan-in-X", "cv-too-large"],
)
def test_run_check_does_the_preflight_checks(tmp_path, capsys, content, learner,
                                             message):  # fmt: skip
    """H: `run --check` refuses NaN in X for a learner without allow_nan and a cv
    with more folds than rows, naming the data set, before any fit (exit 2)."""
    config = _CSV_CONFIG.replace("cv = 2", "cv = 5").replace(
        "sklearn.linear_model.LogisticRegression", learner
    )
    code, err = _run_csv(tmp_path, capsys, content, config)
    assert code == 2
    assert len(err) == 1, err
    assert re.search(message, err[0]), err[0]


def test_nan_in_x_is_fine_for_a_learner_that_takes_it(tmp_path, capsys):
    """H: NaN in X passes the pre-flight check when every learner's allow_nan tag
    is true (HistGradientBoostingClassifier)."""
    config = _CSV_CONFIG.replace(
        "sklearn.linear_model.LogisticRegression",
        "sklearn.ensemble.HistGradientBoostingClassifier",
    )
    code, err = _run_csv(
        tmp_path, capsys, "a,b,label\n1,,0\n3,4,1\n5,6,0\n7,8,1\n1,2,0\n2,3,1\n", config
    )
    assert code == 0, err


@pytest.mark.filterwarnings("ignore::sklearn.exceptions.ConvergenceWarning")
def test_example_config_writes_under_the_current_directory(tmp_path, capsys,
                                                           monkeypatch):  # fmt: skip
    """H: running examples/configs/demo.toml from another folder writes demo_report/
    there, not into the source tree; the summary prints the effective seed of the
    unseeded splitter instead of `random_state=None`."""
    monkeypatch.chdir(tmp_path)
    before = set((ROOT / "examples" / "configs").iterdir())
    assert main(["run", str(EXAMPLE_CONFIG)]) == 0
    out = capsys.readouterr().out
    assert (tmp_path / "demo_report" / "report.html").is_file()
    assert set((ROOT / "examples" / "configs").iterdir()) == before
    assert "random_state=None" not in out
    assert "random_state=<per data set, from seed 0>), seed 0." in out


@pytest.mark.parametrize("path", ["this.Nope", "antigravity.Nope", "os.system"])
def test_a_config_class_is_checked_by_name_before_anything_is_imported(
    tmp_path, capsys, path
):
    """H: a learner `class` in Python's standard library (`this.Nope`, whose
    import prints the Zen of Python; `antigravity`, which opens a browser) is
    refused naming the key before any module is imported (on 17a1a60 `this`
    was imported, and printed, before the refusal)."""
    import sys

    module = path.split(".")[0]
    sys.modules.pop(module, None)
    config = tmp_path / "c.toml"
    config.write_text(
        f'[learners.bad]\nclass = "{path}"\n[datasets.iris]\nsklearn = "iris"\n'
    )
    assert main(["run", str(config), "--check"]) == 2
    captured = capsys.readouterr()
    assert "standard library" in captured.err and "learners.bad.class" in captured.err
    assert "Beautiful is better than ugly" not in captured.out
    assert module not in sys.modules or module == "os"


# -- issue 50: a results folder's every field typed, exit 2 naming it --

_BAD_FIELDS = {
    "metrics": ("metrics", "x"),
    "metrics[0].name": ("metrics", [{"name": 1, "greater_is_better": False}]),
    "metrics[0].greater_is_better": ("metrics", [{"name": "e",
                                                  "greater_is_better": "no"}]),
    "datasets[0].problem": ("datasets", [{"name": "d"}]),
    "learners": ("learners", {"a": 1}),
    "has_predictions": ("has_predictions", "yes"),
    "info": ("info", []),
    "info.split_roles": ("info", {"split_roles": "x"}),
    "format_version": ("format_version", "1"),
    "cannot be read": ("deep", None),
}  # fmt: skip


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    import pandas as pd

    from sklearn_bench import BenchmarkResult

    df = pd.DataFrame({"d": ["a", "a", "b", "b"], "l": ["x", "y"] * 2,
                       "v": [0.1, 0.2, 0.3, 0.4], "m": ["error_rate"] * 4})  # fmt: skip
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", metric="m", greater_is_better=False
    )
    path = tmp_path_factory.mktemp("saved") / "r"
    result.save(path)
    return path


@pytest.mark.parametrize("field", _BAD_FIELDS)
def test_a_malformed_results_folder_is_exit_2_naming_the_field(
    field, saved, tmp_path, capsys
):
    """H: each malformed metadata.json field (a wrong type, a missing key, a
    string format_version, nesting deeper than the parser's recursion) gives
    exit 2 naming the field, never a traceback (on ff4c58f: exit 1 with
    KeyError, TypeError, AttributeError or RecursionError, and format_version
    "1" read "holds format version 1; this sklearn_bench reads version 1")."""
    import json
    import shutil

    folder = tmp_path / "r"
    shutil.copytree(saved, folder)
    meta = json.loads((folder / "metadata.json").read_text())
    key, value = _BAD_FIELDS[field]
    if key == "deep":
        text = "[" * 100_000 + "]" * 100_000
    else:
        meta[key] = value
        text = json.dumps(meta)
    (folder / "metadata.json").write_text(text)
    assert main(["leaderboard", str(folder), "--out", str(tmp_path / "b.csv")]) == 2
    err = capsys.readouterr().err
    assert field in err and "Traceback" not in err
    if field == "format_version":
        assert "'1' (a str)" in err


def test_a_linked_file_in_a_results_folder_is_refused(saved, tmp_path, capsys):
    """H: a results folder whose scores.csv is a link to another file is refused
    with exit 2 without reading it (on ff4c58f the linked file's first value
    showed in the error)."""
    import shutil

    folder = tmp_path / "r"
    shutil.copytree(saved, folder)
    secret = tmp_path / "secret.txt"
    secret.write_text("TOPSECRET\n")
    (folder / "scores.csv").unlink()
    (folder / "scores.csv").symlink_to(secret)
    assert main(["leaderboard", str(folder), "--out", str(tmp_path / "b.csv")]) == 2
    err = capsys.readouterr().err
    assert "symbolic link" in err and "TOPSECRET" not in err


@pytest.mark.parametrize("edit", [("value", "7.5"), ("value", "-5"), ("n_test", "-5"),
                                  ("n_train", "2.5")])  # fmt: skip
def test_a_saved_score_out_of_bounds_or_a_bad_size_is_exit_2(
    edit, saved, tmp_path, capsys
):
    """H: a results folder whose scores.csv holds an error rate of 7.5 or -5,
    or a size of -5 or 2.5, is refused with exit 2 naming the column or the
    metric (on ff4c58f they were analysed, exit 0)."""
    import shutil

    folder = tmp_path / "r"
    shutil.copytree(saved, folder)
    lines = (folder / "scores.csv").read_text().splitlines()
    column = lines[0].split(",").index(edit[0])
    row = lines[1].split(",")
    row[column] = edit[1]
    lines[1] = ",".join(row)
    (folder / "scores.csv").write_text("\n".join(lines) + "\n")
    assert main(["leaderboard", str(folder), "--out", str(tmp_path / "b.csv")]) == 2
    err = capsys.readouterr().err
    assert "was refused" in err and (edit[0] in err or "bounds" in err)
