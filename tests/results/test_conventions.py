"""One convention per concept in BenchmarkResult's public signatures (issue 27).

The names are scipy's and scikit-learn's: ``greater_is_better`` (here always read
from the result's metric), ``delta`` for the smallest difference that matters,
``confidence_level`` for intervals and ``alpha`` for tests, ``n_resamples``,
``n_draws``, ``adjust`` for multiplicity, tests named ``*_test(s)``, options
keyword-only. An old name is gone outright (no shim: the package was never
released).
"""

import inspect

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult, stats
from sklearn_bench._metrics import default_delta

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
SAME_AS_STATS = [  # friedman() is the design card's name (issue 49)
    "paired_test",
    "pairwise_tests",
    "skillings_mack_test",
    "global_permutation_test",
]
OLD_METHODS = ("friedman_test", "pairwise_test", "skillings_mack", "global_test")


def _public_methods():
    """Every public method of BenchmarkResult."""
    for name, member in inspect.getmembers(BenchmarkResult):
        if name.startswith("_") or not callable(member):
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
    method reports on, and the second learner ``b`` of the interval of one
    learner or of a difference (``confidence_interval(a, b=None)``)."""
    func = METHODS[name]
    params = [p for p in inspect.signature(func).parameters if p != "self"]
    subject = params[0] if params and params[0] in SUBJECTS else None
    second = "b" if params[:2] == ["a", "b"] else None
    loose = [
        p.name
        for p in inspect.signature(func).parameters.values()
        if p.default is not p.empty
        and p.kind is not p.KEYWORD_ONLY
        and p.name not in (subject, second)
    ]
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
    and the names before 0.2 are gone (no alias kept)."""
    for name in SAME_AS_STATS:
        assert name in METHODS and name in stats.__all__
    for old in OLD_METHODS:
        assert not hasattr(BenchmarkResult, old), old


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
