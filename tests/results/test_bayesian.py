"""BenchmarkResult.bayesian_test / bayesian_comparisons: selection and delegation."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import RepeatedStratifiedKFold, ShuffleSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import BootstrapCV, BootstrapOOB
from sklearn_bench.results._bayesian import N_SAMPLES
from sklearn_bench.results._select import split_pair
from sklearn_bench.stats import (
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
)


def _fit(cv):
    X, y = load_iris(return_X_y=True)
    return (
        BenchmarkExperiment(
            {"tree": DecisionTreeClassifier(max_depth=1), "nb": GaussianNB()},
            cv=cv,
            random_state=0,
            progress=False,
        )
        .fit({"iris": (X, y)})
        .results_
    )


@pytest.mark.parametrize(
    ("cv", "rho"),
    [
        # ShuffleSplit(test_size=0.3) on 150 rows: n_test = 45, n_train = 105
        (ShuffleSplit(n_splits=8, test_size=0.3, random_state=0), 45 / 150),
        # 3-fold: n_test = 50, n_train = 100 on every fold
        (RepeatedStratifiedKFold(n_splits=3, n_repeats=3, random_state=0), 1 / 3),
    ],
    ids=["ShuffleSplit", "RepeatedStratifiedKFold"],
)
def test_rho_comes_from_the_stored_split_sizes(cv, rho):
    """H: within a data set the correlated t runs on every split score with
    rho = n_test/(n_test + n_train) of the stored sizes (0.3 for 70/30 random
    splits, 1/3 for 3-fold, not baycomp's 1/n_splits for the random splits),
    equals the stats function on split_pair's arrays, and says so."""
    result = _fit(cv)
    res = result.bayesian_test("tree", "nb", dataset="iris", delta=0.02)
    s = split_pair(result, "tree", "nb", metric="error_rate", dataset="iris")
    assert res.details["rho"] == pytest.approx(rho, rel=1e-12)
    ref = bayesian_correlated_t(
        s.x, s.y, delta=0.02, rho=rho, labels=("tree", "nb"), greater_is_better=False
    )
    assert res.n == len(s.x) == len(result.scores) // 2
    assert (res.p_greater, res.p_rope, res.p_less) == pytest.approx(
        (ref.p_greater, ref.p_rope, ref.p_less), rel=1e-12
    )
    assert res.probabilities["tree"] == res.p_less  # error rate: lower is better
    assert f"rho = {rho:.4g}" in res.description
    assert f"n_test/n_train = {rho / (1 - rho):.4g}" in res.description
    assert "Scores: error_rate, lower is better; within data set" in res.description


@pytest.mark.parametrize(
    "cv",
    [
        ShuffleSplit(n_splits=8, test_size=0.3, random_state=0),
        RepeatedStratifiedKFold(n_splits=3, n_repeats=3, random_state=0),
        BootstrapOOB(n_bootstraps=8, random_state=0),
        BootstrapCV(n_bootstraps=3, n_folds=3, random_state=0),
    ],
    ids=["ShuffleSplit", "RepeatedStratifiedKFold", "BootstrapOOB", "BootstrapCV"],
)
def test_rope_zero_is_the_one_sided_corrected_t_on_every_scheme(cv):
    """H: on every scheme the Bayesian correlated t uses the units and the
    n_test/n_train of paired_test(method="corrected_t") (issue 11's rule, with
    the distinct training rows for BootstrapOOB): with rope = 0,
    P(nb better) equals its one-sided p-value for "tree better" (rel 1e-9)."""
    result = _fit(cv)
    res = result.bayesian_test("tree", "nb", dataset="iris", delta=0.0)
    ref = result.paired_test(
        "tree", "nb", dataset="iris", method="corrected_t", alternative="less"
    )
    assert res.n == ref.n
    assert res.probabilities["nb"] == pytest.approx(ref.pvalue, rel=1e-9)


def test_kfold_matches_baycomp_with_runs():
    """H: on repeated 3-fold the within-data-set result equals baycomp's
    two_on_single(x, y, rope, runs=3) on the same fold scores (rel 1e-6)."""
    baycomp = pytest.importorskip("baycomp")
    result = _fit(RepeatedStratifiedKFold(n_splits=3, n_repeats=3, random_state=0))
    s = split_pair(result, "tree", "nb", metric="error_rate", dataset="iris")
    res = result.bayesian_test("tree", "nb", dataset="iris", delta=0.01)
    ref = baycomp.two_on_single(s.x, s.y, rope=0.01, runs=3)
    assert (res.p_greater, res.p_rope, res.p_less) == pytest.approx(ref, rel=1e-6)


def test_explicit_rho_and_problems_without_one():
    """H: an explicit rho replaces the one from the sizes and is said; a
    simulation problem (independent learning samples) is refused as by
    corrected_t, with the reason; rho outside [0, 1) raises."""
    result = _fit(BootstrapOOB(n_bootstraps=5, random_state=0))
    res = result.bayesian_test("tree", "nb", dataset="iris", rho=0.0)
    assert res.details["rho"] == 0.0 and "n_test/n_train given" in res.description
    with pytest.raises(ValueError, match="`rho` must lie"):
        result.bayesian_test("tree", "nb", dataset="iris", rho=1.0)
    sim = BenchmarkResult(
        result.scores,
        metrics=result.metrics,
        datasets={"iris": "simulation"},
        learners=result.learners,
        info=result.info,
    )
    with pytest.raises(ValueError, match="simulation problem.*corrected_t"):
        sim.bayesian_test("tree", "nb", dataset="iris")


def _across(n_datasets=12, seed=0):
    rng = np.random.default_rng(seed)
    base = rng.uniform(0.1, 0.3, n_datasets)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(n_datasets)], 2),
            "l": ["A", "B"] * n_datasets,
            "error_rate": np.repeat(base, 2)
            + np.tile([0.0, 0.02], n_datasets)
            + rng.normal(0, 0.01, 2 * n_datasets),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


@pytest.mark.parametrize(
    ("method", "func"),
    [("signed_rank", bayesian_signed_rank), ("sign", bayesian_sign_test)],
)
def test_across_datasets_uses_per_dataset_means(method, func):
    """H: across data sets the signed-rank (default) or sign test runs on the
    aggregate() table with the same seed, the default ROPE of error_rate is
    0.01, and the probabilities are named by learner with A (lower error)
    practically better."""
    result = _across()
    res = result.bayesian_test("A", "B", method=method, random_state=5)
    table = result.aggregate()
    ref = func(
        table["A"], table["B"], delta=0.01, random_state=5, greater_is_better=False,
        n_draws=N_SAMPLES,  # the report's, bayesian_test's default
    )  # fmt: skip
    assert res.method == method and res.rope == 0.01 and res.n == 12
    assert (res.p_greater, res.p_rope, res.p_less) == (
        ref.p_greater,
        ref.p_rope,
        ref.p_less,
    )
    assert res.probabilities["A"] == res.p_less
    assert "across 12 data sets, on per-data-set mean performances" in res.description


def test_delta_and_method_are_checked():
    """H: a metric without a default Δ (not on a [0, 1] scale) needs one; methods
    that do not fit the scope, unknown learners and rho across data sets raise
    ValueErrors."""
    df = pd.DataFrame({"d": list("ppqqrr"), "l": ["A", "B"] * 3, "mse": range(6)})
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="mse", greater_is_better=False
    )
    with pytest.raises(ValueError, match="`delta` is required for metric 'mse'"):
        result.bayesian_test("A", "B")
    with pytest.raises(ValueError, match="Across data sets `method`"):
        result.bayesian_test("A", "B", delta=0.1, method="correlated_t")
    with pytest.raises(ValueError, match="`rho` applies only"):
        result.bayesian_test("A", "B", delta=0.1, rho=0.1)
    with pytest.raises(ValueError, match="Unknown learner"):
        result.bayesian_test("A", "Z", delta=0.1)
    with pytest.raises(ValueError, match="Within one data set `method`"):
        _across().bayesian_test("A", "B", dataset="d0", method="sign")
    with pytest.raises(ValueError, match="`prior_strength` applies only"):
        _across().bayesian_test("A", "B", dataset="d0", prior_strength=1.0)


def _with_failed_split():
    """Holdout on one data set, 6 splits of 80/20; learner b failed on split 2."""
    rng = np.random.default_rng(1)
    rows = [
        {
            "dataset": "d",
            "learner": learner,
            "split": split,
            "replicate": split,
            "fold": 0,
            "metric": "error_rate",
            "value": np.nan if (learner, split) == ("b", 2) else rng.uniform(0.1, 0.3),
            "n_train": 80,
            "n_test": 20,
            "error_type": "ValueError" if (learner, split) == ("b", 2) else "",
        }
        for learner in ("a", "b")
        for split in range(6)
    ]
    return BenchmarkResult(
        pd.DataFrame(rows),
        metrics={"error_rate": False},
        datasets={"d": "real world"},
        learners=["a", "b"],
        info={"cv": "ShuffleSplit(n_splits=6, random_state=0, test_size=0.2)"},
    )


def test_failed_split_is_dropped_and_counted():
    """H: a split where a task failed is left out of the correlated t (5 of 6
    splits, rho = 20/100) and counted in n_dropped and the description."""
    res = _with_failed_split().bayesian_test("a", "b", dataset="d")
    assert res.n == 5 and res.n_dropped == 1
    assert res.details["rho"] == pytest.approx(0.2)
    assert "1 split dropped (failed tasks of 'a' or 'b')" in res.description


def test_comparisons_all_pairs_and_control():
    """H: all pairs are (i, j), i < j in learner order; with a control each other
    learner is compared with it; their to_frame rows name the learners of
    each pair."""
    rng = np.random.default_rng(2)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(8)], 3),
            "l": ["A", "B", "C"] * 8,
            "error_rate": rng.uniform(0.1, 0.3, 24),
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )
    every = result.bayesian_comparisons(random_state=0, n_draws=2000)
    assert list(every) == [("A", "B"), ("A", "C"), ("B", "C")]
    versus = result.bayesian_comparisons(control="C", random_state=0, n_draws=2000)
    assert list(versus) == [("C", "A"), ("C", "B")]
    table = pd.concat([r.to_frame() for r in versus.values()], ignore_index=True)
    assert table[["a", "b"]].values.tolist() == [["C", "A"], ["C", "B"]]
    np.testing.assert_allclose(table[["p_a", "p_rope", "p_b"]].sum(axis=1), 1.0)


def test_defaults_reproduce_the_reports_probabilities():
    """H: bayesian_test(a, b) with every default (seed, draws, Δ) gives the
    probabilities of the report's default plan across data sets, to the last
    bit; unseeded (random_state=None) calls differ between calls."""
    from sklearn_bench.analysis import analyse
    from sklearn_bench.datasets import load_dietterich2000

    result = BenchmarkResult.from_frame(
        load_dietterich2000(), dataset="dataset", learner="learner",
        value="error_rate", greater_is_better=False,
    )  # fmt: skip
    table = analyse(result).bayesian
    rows = table[table["scope"] == "across data sets"]
    assert len(rows)
    for row in rows.itertuples():
        res = result.bayesian_test(row.a, row.b)
        got = list(res.probabilities.values())
        assert got == [row[6], row[7], row[8]]  # P(a), P(equivalent), P(b)
    a, b = rows["a"].iloc[0], rows["b"].iloc[0]
    assert result.bayesian_test(a, b) == result.bayesian_test(a, b)
    fresh = [result.bayesian_test(a, b, random_state=None) for _ in range(2)]
    assert fresh[0] != fresh[1]


def test_probabilities_are_named_by_which_learner_is_better():
    """H: p_a_better / p_b_better follow the metric's direction: for an error
    rate (lower is better) p_a_better is P(x − y < −rope), the sign-named
    p_less; for an accuracy it is p_greater."""
    result = _across()
    res = result.bayesian_test("A", "B")
    assert res.p_a_better == res.p_less == res.probabilities["A"]
    assert res.p_b_better == res.p_greater == res.probabilities["B"]
    assert res.p_a_better > res.p_b_better  # A has the lower error
    up = bayesian_signed_rank([0.9, 0.8, 0.85], [0.7, 0.6, 0.8], delta=0.01,
                              labels=("a", "b"), greater_is_better=True,
                              random_state=0)  # fmt: skip
    assert up.p_a_better == up.p_greater
