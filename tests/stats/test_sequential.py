"""Tests of sklearn_bench/stats/_sequential.py: anytime-valid sequential tests and
racing. (The ``confseq`` package does not build here, without Boost: the capital
process is checked against a hand computation of WSR (2024), eqs. (26)-(27).)"""

import json
import math

import numpy as np
import pytest

from sklearn_bench.stats import race, sequential_test
from sklearn_bench.stats._sequential import _bets, _bounds, _decide, _log_capital


def _capital_by_hand(x, m, alpha, c=0.75):
    """K⁺_t(m) and K⁻_t(m) of WSR (2024), eqs. (26)-(27), one step at a time."""
    up = down = 1.0
    s, ss, out = 0.0, 0.0, []
    var_prev = 0.25
    for t, xt in enumerate(x, start=1):
        lam = math.sqrt(2 * math.log(2 / alpha) / (var_prev * t * math.log(1 + t)))
        up *= 1 + min(lam, c / m) * (xt - m)
        down *= 1 - min(lam, c / (1 - m)) * (xt - m)
        out.append((up, down))
        s += xt
        mu = (0.5 + s) / (t + 1)
        ss += (xt - mu) ** 2
        var_prev = (0.25 + ss) / (t + 1)
    return np.array(out)


def test_capital_process_matches_a_hand_computation():
    """Hypothesis: the vectorised capital process is WSR (2024)'s hedged
    predictable plug-in process, step by step."""
    x = np.random.default_rng(0).beta(2, 5, size=30)
    for m in (0.1, 0.3, 0.7):
        up, down = _log_capital(x, _bets(x, 0.05), m)
        expected = _capital_by_hand(x, m, 0.05)
        np.testing.assert_allclose(np.exp(up), expected[:, 0], rtol=1e-10)
        np.testing.assert_allclose(np.exp(down), expected[:, 1], rtol=1e-10)


def test_bounds_are_where_the_capital_crosses_one_over_alpha():
    """Hypothesis: each end of the interval is where the hedged capital crosses
    1/α: just inside it stays below, just outside it reaches 1/α."""
    x = np.random.default_rng(1).beta(2, 5, size=40)
    low, high = _bounds(x, 0.05)
    assert np.all(np.diff(low) >= 0) and np.all(np.diff(high) <= 0)  # nested
    for m, col, sign in [(low[-1], 0, 1), (high[-1], 1, -1)]:
        inside = _capital_by_hand(x, m + sign * 1e-6, 0.05)[:, col].max() / 2
        outside = _capital_by_hand(x, m - sign * 1e-6, 0.05)[:, col].max() / 2
        assert inside < 20 <= outside


def test_confidence_sequence_covers_the_mean_at_all_times():
    """Hypothesis: the running intersection misses the true mean at any of 60
    looks in at most α of studies (plus 2 Monte Carlo SEs)."""
    rng = np.random.default_rng(2)
    misses = 0
    for _ in range(200):
        x = rng.beta(2, 5, size=60)  # mean 2/7
        low, high = _bounds(x, 0.1)
        misses += np.any((low > 2 / 7) | (high < 2 / 7))
    assert misses / 200 <= 0.1 + 2 * math.sqrt(0.1 * 0.9 / 200)


def test_type_one_error_over_all_looks():
    """Hypothesis: under no difference (symmetric around 0) the rule claims a
    difference at any of 100 looks in at most α of 1,000 studies + 2 SEs."""
    d = np.random.default_rng(3).normal(0, 0.02, (1000, 100))
    codes = _decide(d, 1.0, 0.01, 0.05)
    rate = np.isin(codes, (1, -1)).any(axis=1).mean()
    assert rate <= 0.05 + 2 * math.sqrt(0.05 * 0.95 / 1000)


def test_decisions():
    """Hypothesis: a clear difference is decided early, with the right sign; the
    interval it reports excludes 0 on the side of the decision."""
    d = np.random.default_rng(4).normal(0.05, 0.02, size=50)
    better = sequential_test(d, bounds=(0, 1), delta=0.01)
    worse = sequential_test(-d, bounds=(0, 1), delta=0.01)
    assert better.decision == "better" and worse.decision == "worse"
    assert better.stopping_time == worse.stopping_time < 15
    assert better.net_wins_interval().low > 0 > worse.net_wins_interval().high
    assert better.evalue >= 2 / 0.05
    assert better.confidence_interval().confidence_level == 0.975
    json.dumps(better.to_dict())
    undecided = sequential_test([0.001, -0.002, 0.0], bounds=(0, 1), delta=0.01)
    assert undecided.decision == "undecided" and undecided.stopping_time is None


def test_equivalence_within_delta():
    """Hypothesis: differences that are all tiny on a metric of narrow bounds
    are declared equivalent within Δ."""
    d = np.random.default_rng(5).normal(0, 0.001, size=200)
    res = sequential_test(d, bounds=(0, 0.1), delta=0.01)
    assert res.decision == "equivalent"
    ci = res.confidence_interval()
    assert -0.01 < ci.low < ci.high < 0.01


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"differences": [0.1, 2.0]}, "outside"),
        ({"bounds": (0, None)}, "bounds"),
        ({"bounds": None}, "bounds"),
        ({"bounds": (1, 0)}, "low < high"),
        ({"alpha": 1.5}, "alpha"),
        ({"alpha": 0}, "alpha"),
        ({"differences": []}, "empty"),
        ({"differences": [0.1, np.nan]}, "NaN"),
        ({"delta": 0}, "delta"),
    ],
)
def test_invalid_inputs(kwargs, match):
    """Hypothesis: each invalid input is a ValueError naming the argument."""
    args = {"differences": [0.1, 0.2], "bounds": (0, 1), "delta": 0.01} | kwargs
    with pytest.raises(ValueError, match=match):
        sequential_test(**args)


def test_race_drops_the_clearly_worse_and_keeps_the_best():
    """Hypothesis: a learner worse by 10Δ is dropped early, the best never; the
    race needs fewer cells than the full study and says why it dropped, at the
    level of the interval it quotes."""
    rng = np.random.default_rng(6)
    perf = 0.8 + rng.normal(0, 0.02, (80, 4)) - [0, 0.1, 0.1, 0.002]
    res = race(perf, bounds=(0, 1), delta=0.01, learners=list("abcd"))
    assert set(res.dropped) == {"b", "c"} and res.best in {"a", "d"}
    assert all(v["after"] < 20 for v in res.dropped.values())
    assert "anytime-valid" in res.dropped["b"]["why"]
    # the level printed is that of the interval printed: each of a pair's two
    # sequences runs at α / (2 (m − 1)) = 0.05 / 6 (it said 0.9833, the pair's)
    assert "a 0.9917 anytime-valid confidence sequence" in res.dropped["b"]["why"]
    assert res.n_evaluations < 0.7 * res.n_full
    json.dumps(res.to_dict())
    # the same table with NaN where the race dropped them gives the same race
    cut = perf.copy()
    for name, v in res.dropped.items():
        cut[v["after"] :, "abcd".index(name)] = np.nan
    assert race(cut, bounds=(0, 1), delta=0.01, learners=list("abcd")) == res


def test_race_invalid_inputs():
    """Hypothesis: a NaN before the drop, one learner, unknown bounds and
    misnamed columns are ValueErrors naming the cause."""
    perf = np.full((5, 3), 0.5)
    bad = perf.copy()
    bad[2, 1] = np.nan
    with pytest.raises(ValueError, match="learner '1' is NaN"):
        race(bad, bounds=(0, 1), delta=0.01)
    with pytest.raises(ValueError, match="two learners"):
        race(perf[:, :1], bounds=(0, 1), delta=0.01)
    with pytest.raises(ValueError, match="bounds"):
        race(perf, bounds=(None, None), delta=0.01)
    with pytest.raises(ValueError, match="columns"):
        race(perf, bounds=(0, 1), delta=0.01, learners=["a"])
    with pytest.raises(ValueError, match="outside"):
        race(perf + 1, bounds=(0, 1), delta=0.01)
