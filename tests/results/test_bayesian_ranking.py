"""BenchmarkResult.bayesian_ranking: selects and delegates to bayesian_plackett_luce."""

import importlib.util
import os

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.stats import bayesian_plackett_luce

needs_backend = pytest.mark.skipif(
    importlib.util.find_spec("numpyro") is None
    and os.environ.get("CI", "").lower() != "true",
    reason='needs the [bayes] extra (pip install "sklearn-bench[bayes]")',
)


def _result(greater_is_better=False):
    rng = np.random.default_rng(1)
    rows = []
    for d in range(8):
        base = rng.uniform(0.1, 0.3)
        for j, learner in enumerate(["A", "B", "C"]):
            for rep in range(3):
                rows.append(
                    {
                        "d": f"d{d}",
                        "l": learner,
                        "rep": rep,
                        "v": base + 0.02 * j + rng.normal(0, 0.01),
                    }
                )
    return BenchmarkResult.from_frame(
        pd.DataFrame(rows), dataset="d", learner="l", value="v", replicate="rep",
        greater_is_better=greater_is_better,
    )  # fmt: skip


@needs_backend
def test_ranking_is_the_model_on_the_data_set_means():
    """H: bayesian_ranking fits bayesian_plackett_luce to the data sets x learners
    table of mean performances, in the metric's direction, with the draws split
    over 4 chains and the seed passed on: the same numbers as the direct call;
    the description names the metric and its direction."""
    result = _result()
    res = result.bayesian_ranking(n_draws=2000, random_state=3)
    means = result.aggregate()
    ref = bayesian_plackett_luce(
        means[["A", "B", "C"]], n_draws=500, random_state=3, greater_is_better=False
    )
    np.testing.assert_array_equal(res.weights.to_numpy(), ref.weights.to_numpy())
    assert res.learners == ["A", "B", "C"] and res.n_datasets == 8
    assert "lower is better" in res.description and res.expected_rank.idxmin() == "A"
    sub = result.bayesian_ranking(["C", "A"], n_draws=2000, random_state=0)
    assert sub.learners == ["C", "A"]


def test_unknown_learner_and_too_few_are_refused():
    """H: an unknown learner or a single one raises ValueError before sampling."""
    result = _result()
    with pytest.raises(ValueError, match="Unknown learner"):
        result.bayesian_ranking(["A", "Z"])
    with pytest.raises(ValueError, match="At least 2 learners"):
        result.bayesian_ranking(["A"])
