"""The adjusted intervals of an analysis are compatible with its adjusted tests:
simultaneous Bonferroni intervals that state their level, never excluding 0
beside a Holm-adjusted p above α."""

import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse

PLAN = AnalysisPlan(analyses=("effects",))


def _study(seed, n_learners=3, n_datasets=8, effects=(0.0, 0.02, 0.03)):
    """Error rates of ``n_learners`` learners on ``n_datasets`` data sets: a data
    set level, a learner effect and noise sd 0.025."""
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.1, 0.3, n_datasets)
    eff = np.resize(np.asarray(effects, dtype=float), n_learners)
    values = base[:, None] + eff + rng.normal(0, 0.025, (n_datasets, n_learners))
    learners = [chr(ord("A") + j) for j in range(n_learners)]
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(n_datasets)], n_learners),
            "l": learners * n_datasets,
            "error_rate": values.ravel(),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


def test_issue_study_interval_no_longer_contradicts_holm():
    """Hypothesis: in the 3 learners × 8 data sets study where A − B has p = 0.034
    and Holm-adjusted p = 0.067, its adjusted interval (before: the 95% interval,
    "at Holm's level" of the last step, excluding 0) covers 0; every adjusted
    interval is the paired t interval at 1 − 0.05/3 (simultaneous 95%)."""
    result = _study(83)
    pairs = analyse(result, PLAN).pairs
    row = pairs.loc["A − B"]
    assert row["pvalue"] == pytest.approx(0.0337, abs=1e-4)
    assert row["adjusted_pvalue"] == pytest.approx(0.0674, abs=1e-4)
    assert row["high"] < 0  # the unadjusted interval excludes 0, at its own level
    assert row["adjusted_low"] < 0 < row["adjusted_high"]
    means = result.aggregate()
    for pair, r in pairs.iterrows():
        t = stats.ttest_rel(means[r["a"]], means[r["b"]])
        ci = t.confidence_interval(1 - 0.05 / 3)
        np.testing.assert_allclose(
            [r["adjusted_low"], r["adjusted_high"]], [ci.low, ci.high], rtol=1e-10
        )
        assert r["adjusted_level"] == pytest.approx(1 - 0.05 / 3, rel=1e-15), pair


@pytest.mark.parametrize("n_learners, n_datasets", [(3, 8), (4, 6), (5, 12)])
def test_adjusted_intervals_never_contradict_holm(n_learners, n_datasets):
    """Hypothesis: over 60 random studies per shape (some learners truly
    different, some not), an adjusted interval excludes 0 exactly when the
    Bonferroni p m·p is below α, and then its Holm-adjusted p is below α: no
    interval excluding 0 sits beside a Holm-adjusted p ≥ α."""
    seen = 0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for seed in range(60):
            pairs = analyse(
                _study(1000 + seed, n_learners, n_datasets, (0.0, 0.01, 0.03)),
                PLAN,
            ).pairs
            m = len(pairs)
            excludes = (pairs["adjusted_low"] > 0) | (pairs["adjusted_high"] < 0)
            bonferroni = np.minimum(1.0, m * pairs["pvalue"])
            assert (excludes == (bonferroni < 0.05)).all(), seed
            assert (pairs.loc[excludes, "adjusted_pvalue"] < 0.05).all(), seed
            seen += int(excludes.sum())
    assert seen >= 10  # the loop saw intervals that exclude 0, not only nulls


def test_adjusted_interval_words_name_the_level():
    """Hypothesis: the label states the simultaneous level, the method and each
    interval's level (21 pairs: 1 − 0.05/21 = 99.76%, the analysis' column
    adjusted_level); one pair is unadjusted."""
    from sklearn_bench.analysis._bottom_line import adjusted_interval_words

    assert adjusted_interval_words(0.95, 1 - 0.05 / 21, 21) == (
        "simultaneous 95% (Bonferroni, each at 99.76%)"
    )
    assert adjusted_interval_words(0.9, 1 - 0.1 / 3, 3) == (
        "simultaneous 90% (Bonferroni, each at 96.67%)"
    )
    assert adjusted_interval_words(0.95, 0.95, 1) == "95%"
