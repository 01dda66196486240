"""One convention per concept in BenchmarkResult's public signatures (issue 27).

The names are scipy's and scikit-learn's: ``greater_is_better`` (here always read
from the result's metric), ``delta`` for the smallest difference that matters,
``confidence_level`` for intervals and ``alpha`` for tests, ``n_resamples``,
``n_draws``, ``adjust`` for multiplicity, tests named ``*_test(s)``, options
keyword-only. Every old name keeps working for one release with a
``FutureWarning`` and gives the same numbers.
"""

import importlib.util
import inspect
import warnings

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult, stats
from sklearn_bench._metrics import default_delta
from sklearn_bench._validation import keyword_only_options

# Names that the conventions replace; ``correction`` in a BenchmarkResult
# signature could only mean multiplicity (McNemar's continuity correction is
# passed on through ``**kwargs``).
FORBIDDEN = {
    "higher_is_better": "greater_is_better",
    "rope": "delta",
    "tolerance": "delta",
    "level": "confidence_level",
    "n_bootstrap": "n_resamples",
    "n_samples": "n_draws",
    "correction": "adjust",
    "posthoc_adjust": "adjust",
}
# A first parameter that names what a method reports on (the metric of a view,
# the learners to compare) may be given by position, as scipy's
# ``confidence_interval(confidence_level)``; every other option is keyword-only.
SUBJECTS = {"metric", "learners"}
# The tests that share their name with the stats function they delegate to.
SAME_AS_STATS = [
    "paired_test",
    "friedman_test",
    "pairwise_tests",
    "skillings_mack_test",
    "global_permutation_test",
]
OLD_METHODS = {
    "friedman": "friedman_test",
    "pairwise_test": "pairwise_tests",
    "skillings_mack": "skillings_mack_test",
    "global_test": "global_permutation_test",
}


def _public_methods():
    """Every public method of BenchmarkResult but the deprecated aliases."""
    for name, member in inspect.getmembers(BenchmarkResult):
        if name.startswith("_") or not callable(member):
            continue
        if hasattr(member, "__deprecated_alias_of__"):
            continue
        yield name, member


METHODS = dict(_public_methods())


@pytest.mark.parametrize("name", sorted(METHODS))
def test_no_public_method_uses_a_replaced_name(name):
    """H: no public method of BenchmarkResult has a parameter named by a
    replaced convention (rope, tolerance, level, n_bootstrap, n_samples,
    correction, posthoc_adjust, higher_is_better)."""
    params = inspect.signature(METHODS[name]).parameters
    bad = {p: FORBIDDEN[p] for p in params if p in FORBIDDEN}
    assert not bad, f"BenchmarkResult.{name}: rename {bad}"


@pytest.mark.parametrize("name", sorted(METHODS))
def test_options_are_keyword_only(name):
    """H: every option (a parameter with a default) of a public method is
    keyword-only, except a first parameter naming the metric or learners the
    method reports on."""
    func = METHODS[name]
    params = [p for p in inspect.signature(func).parameters if p != "self"]
    subject = params[0] if params and params[0] in SUBJECTS else None
    loose = [p for p in keyword_only_options(func) if p != subject]
    assert not loose, f"BenchmarkResult.{name}: make {loose} keyword-only"


@pytest.mark.parametrize("name", sorted(METHODS))
def test_direction_comes_from_the_metric(name):
    """H: no analysis takes `greater_is_better`: the direction is the result's
    metric's (only from_frame, which builds the result, asks for it)."""
    if name == "from_frame":
        return
    assert "greater_is_better" not in inspect.signature(METHODS[name]).parameters


def test_tests_share_the_stats_names():
    """H: each test method has the name of the stats function it delegates to,
    and the names before 0.2 are deprecated aliases of them."""
    for name in SAME_AS_STATS:
        assert name in METHODS and name in stats.__all__
    for old, new in OLD_METHODS.items():
        alias = getattr(BenchmarkResult, old)
        assert alias.__deprecated_alias_of__ == new
        assert inspect.signature(alias) == inspect.signature(METHODS[new])


# -- the old names warn and give the same numbers --------------------------------
def _result(metric="error_rate", greater_is_better=False):
    """8 data sets x 3 learners x 5 replicates; B is 0.03 worse than A, C 0.005."""
    rng = np.random.default_rng(0)
    base = np.repeat(rng.uniform(0.1, 0.3, 8), 15)
    shift = np.tile(np.repeat([0.0, 0.03, 0.005], 5), 8)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(8)], 15),
            "l": np.tile(np.repeat(["A", "B", "C"], 5), 8),
            "r": np.tile(np.arange(5), 24),
            metric: base + shift + rng.normal(0, 0.01, 120),
        }
    )
    return BenchmarkResult.from_frame(
        df,
        dataset="d",
        learner="l",
        value=metric,
        replicate="r",
        greater_is_better=greater_is_better,
    )


def _with_predictions():
    """The example of error_rate_intervals: three learners on one test set."""
    scores = pd.DataFrame(
        {"dataset": "t", "learner": ["A", "B", "C"], "split": 0, "replicate": 0,
         "fold": 0, "metric": "error_rate", "value": [0.3, 0.5, 0.4]}
    )  # fmt: skip
    correct = {
        "A": [1, 1, 1, 0, 1, 1, 0, 1, 0, 1],
        "B": [0, 1, 0, 0, 1, 0, 1, 1, 0, 1],
        "C": [1, 0, 1, 0, 1, 1, 0, 0, 1, 1],
    }
    predictions = pd.DataFrame(
        {
            "dataset": "t",
            "learner": [m for m in correct for _ in range(10)],
            "split": 0,
            "replicate": 0,
            "fold": 0,
            "row": list(range(10)) * 3,
            "correct": [bool(v) for m in correct for v in correct[m]],
        }
    )
    return BenchmarkResult(
        scores,
        metrics={"error_rate": False},
        datasets={"t": "competition"},
        learners=["A", "B", "C"],
        predictions=predictions,
    )


def _same(old, new):
    if isinstance(new, pd.DataFrame):
        pd.testing.assert_frame_equal(old, new)
    elif isinstance(new, dict):
        assert list(old) == list(new)
        for key in new:
            _same(old[key], new[key])
    else:
        assert repr(old) == repr(new)


# (what, old call, new call, the new name the warning must give)
RENAMES = [
    ("friedman", lambda r: r.friedman(), lambda r: r.friedman_test(), "friedman_test"),
    (
        "pairwise_test",
        lambda r: r.pairwise_test(adjust="holm"),
        lambda r: r.pairwise_tests(adjust="holm"),
        "pairwise_tests",
    ),
    (
        "skillings_mack",
        lambda r: r.skillings_mack(),
        lambda r: r.skillings_mack_test(),
        "skillings_mack_test",
    ),
    (
        "global_test",
        lambda r: r.global_test("d0", n_resamples=199, random_state=0),
        lambda r: r.global_permutation_test("d0", n_resamples=199, random_state=0),
        "global_permutation_test",
    ),
    (
        "win_tie_loss(tolerance)",
        lambda r: r.win_tie_loss(tolerance=0.01),
        lambda r: r.win_tie_loss(delta=0.01),
        "delta",
    ),
    (
        "bayesian_test(rope, n_samples)",
        lambda r: r.bayesian_test("A", "C", rope=0.02, n_samples=2000, random_state=0),
        lambda r: r.bayesian_test("A", "C", delta=0.02, n_draws=2000, random_state=0),
        "delta",
    ),
    (
        "bayesian_comparisons(rope, n_samples)",
        lambda r: r.bayesian_comparisons(rope=0.02, n_samples=2000, random_state=0),
        lambda r: r.bayesian_comparisons(delta=0.02, n_draws=2000, random_state=0),
        "delta",
    ),
    (
        "leaderboard(n_bootstrap)",
        lambda r: r.leaderboard(n_bootstrap=50, random_state=0),
        lambda r: r.leaderboard(n_resamples=50, random_state=0),
        "n_resamples",
    ),
    (
        "to_latex(correction)",
        lambda r: r.to_latex(method="t", correction="bonferroni"),
        lambda r: r.to_latex(method="t", adjust="bonferroni"),
        "adjust",
    ),
    (
        "aggregate(metric, stat) by position",
        lambda r: r.aggregate("error_rate", "std"),
        lambda r: r.aggregate("error_rate", stat="std"),
        "`stat`",
    ),
]


@pytest.mark.parametrize(
    ("old", "new", "new_name"),
    [case[1:] for case in RENAMES],
    ids=[case[0] for case in RENAMES],
)
def test_old_names_warn_and_give_the_same_numbers(old, new, new_name):
    """H: an old method or keyword name (or an option by position) warns with a
    FutureWarning naming the new one, and returns what the new name returns."""
    result = _result()
    with pytest.warns(FutureWarning) as record:
        got = old(result)
    assert any(new_name in str(w.message) for w in record)
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        expected = new(result)
    _same(got, expected)


def test_error_rate_intervals_adjust_by_position_warns():
    """H: error_rate_intervals("bonferroni") (adjust by position) warns and
    equals adjust="bonferroni"."""
    result = _with_predictions()
    with pytest.warns(FutureWarning, match="`adjust`"):
        got = result.error_rate_intervals("bonferroni")
    pd.testing.assert_frame_equal(got, result.error_rate_intervals(adjust="bonferroni"))


@pytest.mark.skipif(
    importlib.util.find_spec("numpyro") is None,
    reason='needs the [bayes] extra (pip install "sklearn-bench[bayes]")',
)
def test_bayesian_ranking_old_names_warn_and_give_the_same_numbers():
    """H: bayesian_ranking(n_samples=, level=) warns, naming n_draws and
    confidence_level, and equals the call with the new names."""
    result = _result()
    with pytest.warns(FutureWarning) as record:
        got = result.bayesian_ranking(n_samples=400, level=0.9, random_state=0)
    text = " ".join(str(w.message) for w in record)
    assert "n_draws" in text and "confidence_level" in text
    new = result.bayesian_ranking(n_draws=400, confidence_level=0.9, random_state=0)
    pd.testing.assert_frame_equal(got.to_frame(), new.to_frame())


def test_old_and_new_keyword_together_is_a_type_error():
    """H: passing a keyword under both names is a TypeError, not a silent pick."""
    with pytest.raises(TypeError, match="`delta`"):
        _result().win_tie_loss(tolerance=0.0, delta=0.01)


# -- the one default Δ --------------------------------------------------------------
@pytest.mark.parametrize(
    ("metric", "greater_is_better"),
    [("roc_auc", True), ("error_rate", False), ("f1_macro", True)],
)
def test_bayesian_default_delta_is_the_package_rule(metric, greater_is_better):
    """H: without `delta`, bayesian_test on a metric on a [0, 1] scale (roc_auc
    too, which used to raise "`rope` is required") uses default_delta(metric),
    0.01, the report's Δ, and equals the call with delta=0.01."""
    result = _result(metric, greater_is_better)
    res = result.bayesian_test("A", "B", random_state=0)
    assert res.rope == default_delta(metric) == 0.01
    explicit = result.bayesian_test("A", "B", delta=0.01, random_state=0)
    assert res.probabilities == explicit.probabilities


def test_bayesian_without_a_default_delta_raises():
    """H: a metric off the [0, 1] scale has no default Δ: leaving `delta` out
    is a ValueError that names `delta` and the metric."""
    result = _result("mean_squared_error")
    with pytest.raises(ValueError, match="`delta` is required for metric"):
        result.bayesian_test("A", "B")
