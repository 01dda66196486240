"""Tests of sklearn_bench/model_selection/_bias_variance.py (issue 24).

Reference: mlxtend's ``bias_variance_decomp``, the peer, on the same bootstrap draws
(``random_state`` = its ``random_seed``), and the identities of the decompositions
(squared loss: loss = bias² + variance; 0-1 loss: Domingos 2000, Theorem 2 with zero
noise, loss = bias + net variance).
"""

import numpy as np
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import KFold
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from sklearn_bench.model_selection import (
    BootstrapOOB,
    StratifiedBootstrapOOB,
    bias_variance_decomposition,
)

RTOL = 1e-12


def _classification(seed, n=150, n_classes=2):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, 3))
    score = X[:, 0] + 0.5 * X[:, 1] + rng.normal(0, 0.7, n)
    y = np.digitize(score, np.quantile(score, np.linspace(0, 1, n_classes + 1)[1:-1]))
    return X[:100], y[:100], X[100:], y[100:]


def _regression(seed):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(120, 2))
    y = np.sin(2 * X[:, 0]) + X[:, 1] + rng.normal(0, 0.3, 120)
    return X[:80], y[:80], X[80:], y[80:]


@pytest.mark.parametrize("seed", [0, 1])
@pytest.mark.parametrize(
    "estimator", [DecisionTreeRegressor(random_state=0), LinearRegression()]
)
def test_squared_loss_matches_mlxtend(estimator, seed):
    """H: expected loss, squared bias and variance equal mlxtend's mse
    decomposition on the same seeded bootstrap draws, to 1e-12."""
    from mlxtend.evaluate import bias_variance_decomp

    data = _regression(seed)
    ref = bias_variance_decomp(estimator, *data, loss="mse", num_rounds=30,
                               random_seed=seed + 7)  # fmt: skip
    res = bias_variance_decomposition(
        estimator, *data, loss="squared", n_rounds=30, random_state=seed + 7
    )
    np.testing.assert_allclose(
        [res.expected_loss, res.bias, res.variance], ref, rtol=RTOL
    )
    assert res.expected_loss == pytest.approx(res.bias + res.variance, rel=RTOL)
    assert res.net_variance == res.variance and np.isnan(res.variance_biased)


@pytest.mark.parametrize("n_classes", [2, 3])
@pytest.mark.parametrize(
    "estimator",
    [DecisionTreeClassifier(random_state=0), LogisticRegression(max_iter=500)],
)
def test_zero_one_loss_matches_mlxtend(estimator, n_classes):
    """H: expected 0-1 loss, bias and variance equal mlxtend's 0-1_loss
    decomposition on the same draws; loss = bias + net variance exactly and the
    biased and unbiased variances add up to the variance (Domingos 2000)."""
    from mlxtend.evaluate import bias_variance_decomp

    data = _classification(n_classes, n_classes=n_classes)
    ref = bias_variance_decomp(estimator, *data, loss="0-1_loss", num_rounds=40,
                               random_seed=3)  # fmt: skip
    res = bias_variance_decomposition(estimator, *data, n_rounds=40, random_state=3)
    np.testing.assert_allclose(
        [res.expected_loss, res.bias, res.variance], ref, rtol=RTOL
    )
    assert res.expected_loss == pytest.approx(res.bias + res.net_variance, abs=1e-14)
    assert res.variance == pytest.approx(
        res.variance_unbiased + res.variance_biased, abs=1e-14
    )


def test_default_draws_are_bootstrap_oob_training_sets():
    """H: the default rounds are BootstrapOOB's training sets; passing the splitter
    or its splits as `cv` gives the same result."""
    data = _regression(2)
    est = DecisionTreeRegressor(random_state=0)
    a = bias_variance_decomposition(est, *data, loss="squared", n_rounds=10,
                                    random_state=5)  # fmt: skip
    cv = BootstrapOOB(n_bootstraps=10, random_state=5)
    b = bias_variance_decomposition(est, *data, loss="squared", cv=cv)
    c = bias_variance_decomposition(
        est, *data, loss="squared", cv=list(cv.split(data[0]))
    )
    assert a == b == c
    np.testing.assert_array_equal(a.predictions, c.predictions)


def test_other_splitters_and_string_labels():
    """H: a stratified bootstrap or K-fold training sets work as `cv`, and string
    labels get a mode (ties to the smallest label), the identity still holding."""
    X, y, Xt, yt = _classification(4, n_classes=3)
    names = np.array(["a", "b", "c"])
    res = bias_variance_decomposition(
        DecisionTreeClassifier(random_state=0), X, names[y], Xt, names[yt],
        cv=StratifiedBootstrapOOB(n_bootstraps=15, random_state=0),
    )  # fmt: skip
    assert res.n_rounds == 15
    assert res.expected_loss == pytest.approx(res.bias + res.net_variance, abs=1e-14)
    res = bias_variance_decomposition(
        DecisionTreeClassifier(random_state=0), X, y, Xt, yt, cv=KFold(5)
    )
    assert res.n_rounds == 5


def test_bad_inputs_are_named():
    """H: an unknown loss, a bad n_rounds, mismatched rows name the argument."""
    data = _regression(0)
    est = LinearRegression()
    with pytest.raises(ValueError, match="`loss`"):
        bias_variance_decomposition(est, *data, loss="mse")
    with pytest.raises(ValueError, match="`n_rounds`"):
        bias_variance_decomposition(est, *data, n_rounds=0)
    with pytest.raises(ValueError, match="`y_test`"):
        bias_variance_decomposition(est, *data[:3], data[3][:5])
