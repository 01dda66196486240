import numpy as np
import pytest
from sklearn.base import clone
from sklearn.linear_model import LinearRegression
from sklearn.model_selection import cross_validate
from sklearn.neighbors import KNeighborsClassifier
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_bench.model_selection import (
    Bootstrap632Result,
    Bootstrap632Scorer,
    BootstrapOOB,
)


def _noisy_labels(n=40, seed=0):
    rng = np.random.RandomState(seed)
    x = rng.permutation(n).astype(float).reshape(-1, 1)  # distinct points
    y = (x.ravel() > n / 2).astype(int)
    flip = rng.rand(n) < 0.2
    y[flip] = 1 - y[flip]
    return x, y


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_one_nn_matches_hand_computation(seed):
    """H: for 1-NN (apparent error 0) the scorer gives .632 * Err1 and the .632+
    value of Efron & Tibshirani (1997) eqs. (24), (27)-(32), computed by hand."""
    X, y = _noisy_labels(seed=seed)
    train, test = next(BootstrapOOB(1, random_state=seed).split(X))
    knn = KNeighborsClassifier(n_neighbors=1).fit(X[train], y[train])
    # hand 1-NN: nearest training point by absolute distance (points are distinct)
    nearest = np.abs(X[:, [0]] - X[train, 0][None, :]).argmin(axis=1)
    pred = y[train][nearest]
    err = np.mean(pred[train] != y[train])
    assert err == 0
    err1 = np.mean(pred[test] != y[test])
    p = np.bincount(y, minlength=2) / len(y)
    q = np.bincount(pred, minlength=2) / len(y)
    gamma = np.sum(p * (1 - q))  # E&T eq. (27)
    assert 0 < err1 < gamma  # so R = Err1 / gamma, no clipping
    r = err1 / gamma
    w = 0.632 / (1 - 0.368 * r)
    expected_plus = w * err1  # (1 - w) * 0 + w * Err1, eq. (29)

    plain = Bootstrap632Scorer(plus=False)(knn, X, y, train=train, test=test)
    np.testing.assert_allclose(plain, 0.632 * err1, rtol=1e-12)
    res = Bootstrap632Scorer(plus=True).components(knn, X, y, train=train, test=test)
    np.testing.assert_allclose(
        [res.apparent, res.out_of_bootstrap, res.no_information],
        [0, err1, gamma],
        rtol=1e-12,
    )
    np.testing.assert_allclose(res.relative_overfitting, r, rtol=1e-12)
    np.testing.assert_allclose(res.weight, w, rtol=1e-12)
    np.testing.assert_allclose(res.estimate, expected_plus, rtol=1e-12)


@pytest.mark.parametrize(
    "apparent, oob, gamma, expected",
    [
        # R = (.3-.1)/(.5-.1) = .5; w = .632/(1-.368*.5); (1-w)*.1 + w*.3
        (0.1, 0.3, 0.5, 0.1 + 0.2 * 0.632 / (1 - 0.184)),
        # Err1 > gamma: Err1' = .5, R' = 1 (clipped);
        # .368*.1 + .632*.6 + (.5-.1) * .368*.632/(1-.368)
        (0.1, 0.6, 0.5, 0.0368 + 0.3792 + 0.4 * 0.368),
        # Err1 <= err: R' = 0, .632+ = .632 = .368*.3 + .632*.2
        (0.3, 0.2, 0.5, 0.1104 + 0.1264),
        # gamma <= err: R' = 0 and Err1' = .25, so .632+ = .632 = .368*.3 + .632*.4
        (0.3, 0.4, 0.25, 0.1104 + 0.2528),
    ],
)
def test_combine_matches_efron_tibshirani_eq32(apparent, oob, gamma, expected):
    """H: combine reproduces E&T (1997) eq. (32), with Err1' = min(Err1, gamma) and
    R' clipped to [0, 1], for the ordinary, clipped and no-overfitting cases."""
    res = Bootstrap632Scorer().combine(apparent, oob, gamma)
    np.testing.assert_allclose(res.estimate, expected, rtol=1e-12)
    assert 0 <= res.relative_overfitting <= 1


def test_plain_632_combine():
    """H: the .632 rule is .368 * apparent + .632 * out-of-bootstrap (eq. 24)."""
    res = Bootstrap632Scorer(plus=False).combine(0.1, 0.3)
    np.testing.assert_allclose(res.estimate, 0.368 * 0.1 + 0.632 * 0.3, rtol=1e-12)
    assert res.weight == 0.632 and np.isnan(res.no_information)
    assert set(res.to_dict()) == {
        "apparent",
        "out_of_bootstrap",
        "no_information",
        "relative_overfitting",
        "weight",
        "estimate",
    }


@pytest.mark.parametrize("loss", ["zero_one", "squared_error"])
def test_no_information_rate_is_mean_over_all_pairs(loss):
    """H: gamma equals the brute-force mean of Q(y_i, yhat_j) over all n^2 pairs
    (E&T 1997, eq. 27) for both losses."""
    rng = np.random.RandomState(0)
    n = 30
    if loss == "zero_one":
        X = rng.normal(size=(n, 2))
        y = rng.randint(0, 3, n)
        est = KNeighborsClassifier(n_neighbors=3)
        pair_loss = np.not_equal.outer
    else:
        X = rng.normal(size=(n, 2))
        y = X @ [1.0, -2.0] + rng.normal(size=n)
        est = LinearRegression()

        def pair_loss(a, b):
            return np.subtract.outer(a, b) ** 2

    train, test = next(BootstrapOOB(1, random_state=0).split(X))
    est.fit(X[train], y[train])
    pred = est.predict(X)
    res = Bootstrap632Scorer(loss).components(est, X, y, train=train, test=test)
    np.testing.assert_allclose(
        res.no_information, pair_loss(y, pred).mean(), rtol=1e-12
    )
    point = pair_loss(y, pred).diagonal().astype(float)
    np.testing.assert_allclose(res.apparent, point[train].mean(), rtol=1e-12)
    np.testing.assert_allclose(res.out_of_bootstrap, point[test].mean(), rtol=1e-12)


def test_runner_style_use_with_cross_validate():
    """H: combining cross_validate's train/test errors per BootstrapOOB split with
    combine equals calling the scorer on the split (the .632 rule)."""
    X, y = _noisy_labels(n=50)
    cv = BootstrapOOB(4, random_state=0)
    res = cross_validate(
        KNeighborsClassifier(3),
        X,
        y,
        cv=cv,
        return_train_score=True,
        return_estimator=True,
        return_indices=True,
    )
    scorer = Bootstrap632Scorer(plus=False)
    for b, (train, test) in enumerate(cv.split(X, y)):
        np.testing.assert_array_equal(res["indices"]["train"][b], train)
        from_scores = scorer.combine(
            1 - res["train_score"][b], 1 - res["test_score"][b]
        ).estimate
        direct = scorer(res["estimator"][b], X, y, train=train, test=test)
        np.testing.assert_allclose(direct, from_scores, rtol=1e-12)


def test_invalid_inputs():
    """H: bad parameters and splits are refused with clear messages."""
    X, y = _noisy_labels()
    knn = KNeighborsClassifier(1).fit(X, y)
    with pytest.raises(InvalidParameterError, match="'loss' parameter"):
        Bootstrap632Scorer(loss="hinge").combine(0.1, 0.2, 0.5)
    with pytest.raises(ValueError, match="`no_information` must be"):
        Bootstrap632Scorer(plus=True).combine(0.1, 0.2)
    with pytest.raises(ValueError, match="`apparent` must be"):
        Bootstrap632Scorer().combine(np.nan, 0.2, 0.5)
    with pytest.raises(ValueError, match="`test` shares rows with `train`"):
        Bootstrap632Scorer()(knn, X, y, train=np.arange(30), test=np.arange(25, 40))
    with pytest.raises(ValueError, match="must both be non-empty"):
        Bootstrap632Scorer()(knn, X, y, train=np.arange(40), test=[])


def test_scorer_is_a_clonable_sklearn_object():
    """H: the scorer has sklearn's get_params/clone/repr, so a config can hold it."""
    scorer = Bootstrap632Scorer("squared_error", plus=False)
    assert clone(scorer).get_params() == {"loss": "squared_error", "plus": False}
    assert repr(scorer) == "Bootstrap632Scorer(loss='squared_error', plus=False)"
    assert isinstance(Bootstrap632Scorer().combine(0, 0.1, 0.5), Bootstrap632Result)


@pytest.mark.parametrize(
    "params, expected",
    [
        ({}, (".632+", False, "classification", True)),
        (
            {"loss": "squared_error", "plus": False},
            (".632", False, "regression", True),
        ),
    ],
)
def test_scorer_states_its_metric_through_public_attributes(params, expected):
    """H: the scorer says its name, direction, task and that it needs the split
    through the public attributes of the documented protocol, following
    `loss` and `plus`."""
    scorer = Bootstrap632Scorer(**params)
    got = (scorer.name, scorer.greater_is_better, scorer.task, scorer.needs_split)
    assert got == expected


def test_the_scorer_protocol_attributes():
    """H: the scorer states the protocol of a scorer of a split: its metric's name,
    direction and task, and that it needs the split's indices."""
    scorer = Bootstrap632Scorer(plus=True)
    assert (scorer.name, scorer.greater_is_better, scorer.task, scorer.needs_split) == (
        ".632+",
        False,
        "classification",
        True,
    )
    plain = Bootstrap632Scorer("squared_error", plus=False)
    assert (plain.name, plain.task) == (".632", "regression")
