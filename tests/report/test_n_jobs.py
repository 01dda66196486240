"""``analyse`` and ``write_report`` with ``n_jobs=2``: a forked child computes the
Bayesian signed-rank batch, and draws every other figure, and every number and
every file is what one process gives."""

import os
import re

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

import matplotlib  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import AnalysisPlan, analyse  # noqa: E402
from sklearn_bench.report import write_report  # noqa: E402


@pytest.fixture(scope="module")
def result():
    """6 learners on 12 data sets, 4 replicates with split sizes: every part
    of the report (leaderboard, 2 distributions, the diagrams) is drawn."""
    rng = np.random.default_rng(7)
    rows = [
        (f"d{d}", f"m{j}", r, 0.2 + 0.01 * j + rng.normal(0, 0.03), 80, 20)
        for d in range(12)
        for j in range(6)
        for r in range(4)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v", "n_train", "n_test"])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="v",
        replicate="rep",
        greater_is_better=False,
    )


@pytest.fixture
def forks(forkable, monkeypatch):
    """The number of children forked in the test (skips where none may be)."""
    calls = []
    fork = os.fork

    def counted():
        calls.append(1)
        return fork()

    monkeypatch.setattr(os, "fork", counted)
    return calls


def _same_analysis(a, b):
    for name in ("bayesian", "pairs", "within", "mean", "posthoc"):
        pd.testing.assert_frame_equal(getattr(a, name), getattr(b, name))
    pd.testing.assert_frame_equal(a.pairwise.to_frame(), b.pairwise.to_frame())
    pd.testing.assert_frame_equal(a.leaderboard.board, b.leaderboard.board)
    assert a.notes == b.notes and a.bayesian_notes == b.bayesian_notes
    assert a.bottom_line.sentences == b.bottom_line.sentences
    assert a.disagreements == b.disagreements


def test_analyse_with_a_child_equals_one_process(result, forks):
    """H: with n_jobs=2 the signed-rank batch is computed by a forked child
    (one fork), and the analysis (Bayesian table, notes, bottom line and every
    other frame) equals the one-process analysis exactly."""
    plan = AnalysisPlan(delta=0.01)
    alone = analyse(result, plan, n_jobs=1)
    assert forks == []
    both = analyse(result, plan, n_jobs=2)
    assert len(forks) == 1
    _same_analysis(alone, both)
    assert (both.bayesian["scope"] == "across data sets").sum() == 5


def _files(folder):
    out = {}
    for path in sorted(folder.rglob("*")):
        if path.is_file():
            data = path.read_bytes()
            if path.name == "report.html":  # its time stamp, to the minute
                data = re.sub(rb"\d{4}-\d\d-\d\d \d\d:\d\d UTC", b"", data)
            out[path.relative_to(folder).as_posix()] = data
    return out


def test_report_with_a_child_writes_the_same_files(
    result, forks, tmp_path, monkeypatch
):
    """H: with n_jobs=2 a forked child draws every other figure, and every file
    of the report (page, PNG, SVG, CSV, LaTeX, methods) is byte for byte the
    one-process report's (SVG ids fixed by svg.hashsalt, dates by
    SOURCE_DATE_EPOCH)."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "0")
    analysis = analyse(result, AnalysisPlan(delta=0.01))
    with matplotlib.rc_context({"svg.hashsalt": "n_jobs"}):
        write_report(analysis, tmp_path / "one", n_jobs=1)
        assert forks == []
        write_report(analysis, tmp_path / "two", n_jobs=2)
    assert len(forks) == 1
    one, two = _files(tmp_path / "one"), _files(tmp_path / "two")
    assert list(one) == list(two)
    assert len([k for k in one if k.startswith("figures/")]) >= 12
    for name in one:
        assert one[name] == two[name], name


@pytest.mark.parametrize("n_jobs", [0, 2.0, True])
def test_n_jobs_is_checked(result, tmp_path, n_jobs):
    """H: an n_jobs joblib would refuse is a ValueError of both, before any
    work."""
    with pytest.raises(ValueError, match="`n_jobs` must be None or a non-zero"):
        analyse(result, n_jobs=n_jobs)
    analysis = analyse(result, AnalysisPlan(analyses=("effects",)))
    with pytest.raises(ValueError, match="`n_jobs` must be None or a non-zero"):
        write_report(analysis, tmp_path, n_jobs=n_jobs)
