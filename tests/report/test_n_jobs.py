"""``analyse`` and ``write_report`` check their ``n_jobs``."""

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")


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


@pytest.mark.parametrize("n_jobs", [0, 2.0, True])
def test_n_jobs_is_checked(result, tmp_path, n_jobs):
    """H: an n_jobs joblib would refuse is a ValueError of both, before any
    work."""
    with pytest.raises(ValueError, match="`n_jobs` must be None or a non-zero"):
        analyse(result, n_jobs=n_jobs)
    analysis = analyse(result, AnalysisPlan(analyses=("effects",)))
    with pytest.raises(ValueError, match="`n_jobs` must be None or a non-zero"):
        write_report(analysis, tmp_path, n_jobs=n_jobs)
