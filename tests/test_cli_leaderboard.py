"""Tests of `sklearn-bench leaderboard STORE_OR_CSV` (issue 22): a CSV from any
tool through from_frame, a saved result, the overwrite policy and exit codes."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.cli import main


def _tabarena_like(path, n=20, p=4, folds=2, seed=0):
    """A TabArena-like export: method / task / metric_error / fold columns."""
    rng = np.random.default_rng(seed)
    rows = [
        (f"t{i}", f"M{j}", rng.uniform(0.1, 0.3) + 0.02 * j, f)
        for i in range(n)
        for j in range(p)
        for f in range(folds)
    ]
    df = pd.DataFrame(rows, columns=["task", "method", "metric_error", "fold"])
    df.to_csv(path, index=False)
    return df


def test_csv_export_gives_the_leaderboard_of_from_frame(tmp_path, capsys):
    """H: a method / task / metric_error CSV is read with the default column names;
    the CSV written equals BenchmarkResult.from_frame(...).leaderboard() with the
    same seed, and the table is printed; exit 0."""
    df = _tabarena_like(tmp_path / "tab.csv")
    rc = main(["leaderboard", str(tmp_path / "tab.csv"), "--n-resamples", "100"])
    assert rc == 0
    printed = capsys.readouterr().out
    assert "Leaderboard of 4 learners over 20 data sets" in printed
    written = pd.read_csv(tmp_path / "tab-leaderboard.csv", index_col="learner")
    expected = BenchmarkResult.from_frame(
        df, dataset="task", learner="method", value="metric_error",
        greater_is_better=False,
    ).leaderboard(n_resamples=100, random_state=0)  # fmt: skip
    pd.testing.assert_index_equal(written.index, expected.index)
    np.testing.assert_allclose(written["rating"], expected["rating"], rtol=1e-12)
    np.testing.assert_array_equal(written["rank_high"], expected["rank_high"])
    assert "M0" in printed


def test_named_columns_reference_and_direction(tmp_path, capsys):
    """H: --dataset-col/--learner-col/--value-col name the columns,
    --greater-is-better flips the direction, --reference sets its rating."""
    df = _tabarena_like(tmp_path / "x.csv")
    acc = df.rename(columns={"task": "tid", "method": "algo"}).assign(
        acc=1 - df["metric_error"]
    )
    acc.to_csv(tmp_path / "acc.csv", index=False)
    out = tmp_path / "board.csv"
    rc = main([
        "leaderboard", str(tmp_path / "acc.csv"), "--out", str(out),
        "--dataset-col", "tid", "--learner-col", "algo", "--value-col", "acc",
        "--greater-is-better", "--reference", "M3", "--reference-rating", "1500",
        "--n-resamples", "50", "--seed", "3",
    ])  # fmt: skip
    assert rc == 0
    board = pd.read_csv(out, index_col="learner")
    assert board.loc["M3", "rating"] == pytest.approx(1500)
    assert board.index[0] == "M0"  # the smallest error is the best accuracy


def test_a_saved_result_folder_is_read(tmp_path, capsys):
    """H: a folder written by BenchmarkResult.save is a store for the command."""
    df = _tabarena_like(tmp_path / "x.csv")
    result = BenchmarkResult.from_frame(
        df, dataset="task", learner="method", value="metric_error",
        greater_is_better=False,
    )  # fmt: skip
    result.save(tmp_path / "saved")
    rc = main(["leaderboard", str(tmp_path / "saved"), "--n-resamples", "50"])
    assert rc == 0
    assert (tmp_path / "saved-leaderboard.csv").is_file()


def test_never_overwrites_without_force_nor_a_users_file(tmp_path, capsys):
    """H: an existing leaderboard CSV is refused without --force (exit 2, file
    untouched); --force replaces the one sklearn-bench wrote; a user's own file
    of that name is refused even with --force."""
    _tabarena_like(tmp_path / "tab.csv")
    args = ["leaderboard", str(tmp_path / "tab.csv"), "--n-resamples", "20"]
    assert main(args) == 0
    out = tmp_path / "tab-leaderboard.csv"
    before = out.read_bytes()
    assert main(args) == 2
    assert "--force" in capsys.readouterr().err
    assert out.read_bytes() == before
    assert main([*args, "--force", "--seed", "1"]) == 0
    mine = tmp_path / "mine.csv"
    mine.write_text("my notes\n")
    assert main([*args, "--out", str(mine), "--force"]) == 2
    assert "not written by sklearn-bench" in capsys.readouterr().err
    assert mine.read_text() == "my notes\n"


@pytest.mark.parametrize(
    "extra, words",
    [
        (["--learner-col", "nope"], "--learner-col 'nope'"),
        (["--reference", "nobody"], "--reference 'nobody'"),
        (["--metric", "auc"], "--metric 'auc'"),
        (["--confidence-level", "1.5"], "--confidence-level"),
        (["--n-resamples", "1"], "--n-resamples"),
    ],
)
def test_refused_input_exits_2_with_one_line(tmp_path, capsys, extra, words):
    """H: a bad option or column is a usage error: exit 2, one line on stderr
    naming it, nothing written."""
    _tabarena_like(tmp_path / "tab.csv")
    rc = main(["leaderboard", str(tmp_path / "tab.csv"), *extra])
    assert rc == 2
    err = capsys.readouterr().err
    assert words in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "tab-leaderboard.csv").exists()


def test_csv_without_known_columns_names_the_flag(tmp_path, capsys):
    """H: a CSV whose columns are not recognised says which flag names them."""
    pd.DataFrame({"a": [1, 2], "b": ["x", "y"]}).to_csv(tmp_path / "t.csv")
    assert main(["leaderboard", str(tmp_path / "t.csv")]) == 2
    assert "--dataset-col" in capsys.readouterr().err


def test_a_failure_of_the_work_exits_1(tmp_path, capsys, monkeypatch):
    """H: an unexpected failure while computing is exit 1 (not a usage error)."""
    _tabarena_like(tmp_path / "tab.csv")

    def boom(self, **kwargs):
        raise RuntimeError("solver exploded")

    monkeypatch.setattr(BenchmarkResult, "leaderboard", boom)
    assert main(["leaderboard", str(tmp_path / "tab.csv")]) == 1
    assert "solver exploded" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("column", "flags", "expected"),
    [
        ("acc", [], None),
        ("acc", ["--greater-is-better"], "higher is better"),
        ("accuracy", [], "higher is better"),
        ("metric_error", [], "lower is better"),
        ("score", ["--lower-is-better"], "lower is better"),
    ],
)
def test_direction_from_the_column_or_asked_for(
    tmp_path, capsys, column, flags, expected
):
    """H: the direction comes from a flag or a known column name and is printed;
    an unknown name without a flag is exit 2 asking for --greater-is-better or
    --lower-is-better (it used to rank accuracy as lower-is-better in silence)."""
    df = _tabarena_like(tmp_path / "x.csv").rename(columns={"metric_error": column})
    df.to_csv(tmp_path / "t.csv", index=False)
    args = ["leaderboard", str(tmp_path / "t.csv"), "--value-col", column]
    rc = main([*args, "--n-resamples", "20", *flags])
    out = capsys.readouterr()
    if expected is None:
        assert rc == 2 and "--greater-is-better" in out.err
        assert "--lower-is-better" in out.err
        assert not (tmp_path / "t-leaderboard.csv").exists()
    else:
        assert rc == 0 and f"({column}, {expected};" in out.out


# -- issue 38: what a CSV from someone else cannot do ---------------------------


def test_a_score_too_large_to_average_exits_2(tmp_path, capsys):
    """H: a CSV whose one score is 1e308 (finite; the leaderboard's mean over
    the data sets overflowed) exits 2 naming the learner, as the docs say, and
    writes no leaderboard (on 17a1a60 it printed mean_score inf, exit 0)."""
    rng = np.random.default_rng(0)
    rows = [
        (f"t{i}", f"M{j}", rng.uniform(0.1, 0.3)) for i in range(6) for j in range(3)
    ]
    df = pd.DataFrame(rows, columns=["task", "method", "metric_error"])
    df.loc[0, "metric_error"] = 1e308
    df.to_csv(tmp_path / "one.csv", index=False)
    assert main(["leaderboard", str(tmp_path / "one.csv")]) == 2
    err = capsys.readouterr().err
    assert "too large to average" in err and "learner 'M0'" in err
    assert not (tmp_path / "one-leaderboard.csv").exists()


def test_a_column_named_twice_exits_2(tmp_path, capsys):
    """H: a CSV with two columns named `error` exits 2 naming the column
    (on 17a1a60 the first was used and the second silently dropped)."""
    rows = "\n".join(
        f"t{i},M{j},{0.1 + 0.01 * j},{0.9 - 0.01 * j}"
        for i in range(6)
        for j in range(3)
    )
    (tmp_path / "dup.csv").write_text("task,method,error,error\n" + rows + "\n")
    assert main(["leaderboard", str(tmp_path / "dup.csv")]) == 2
    err = capsys.readouterr().err
    assert "used twice" in err and "'error'" in err
