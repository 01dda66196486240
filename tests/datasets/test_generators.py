from functools import partial

import numpy as np
import pytest
import statsmodels.api as sm

from sklearn_bench.datasets import (
    make_angle_classification,
    make_microarray,
    make_nested_linear,
)

SAMPLERS = [
    partial(make_nested_linear, beta2=0.1),
    partial(make_angle_classification, angle=30),
    partial(make_microarray, n_features=200, n_high_variance=50),
]


@pytest.mark.parametrize("sampler", SAMPLERS, ids=lambda s: s.func.__name__)
def test_sampler_protocol_and_determinism(sampler):
    """H: sampler(n_samples=, random_state=) gives (X, y) of n rows, equal per seed."""
    X, y = sampler(n_samples=37, random_state=3)
    assert X.ndim == 2 and X.shape[0] == 37 and y.shape == (37,)
    X2, y2 = sampler(n_samples=37, random_state=3)
    np.testing.assert_array_equal(X, X2)
    np.testing.assert_array_equal(y, y2)
    X3, _ = sampler(n_samples=37, random_state=np.random.RandomState(4))
    assert not np.array_equal(X, X3)


@pytest.mark.parametrize("sampler", SAMPLERS, ids=lambda s: s.func.__name__)
@pytest.mark.parametrize("n_samples", [0, -3, 2.5, True])
def test_invalid_n_samples_raises(sampler, n_samples):
    """H: a non-positive or non-integer `n_samples` raises a ValueError naming it."""
    with pytest.raises(ValueError, match="`n_samples` must be a positive integer"):
        sampler(n_samples=n_samples, random_state=0)


# --- Hothorn et al. (2005), eq. (4) -------------------------------------------


@pytest.mark.parametrize("beta2", [0.0, 0.16])
def test_nested_linear_least_squares_recovers_coefficients(beta2):
    """H: OLS of y on (1, x, x^2) recovers (0, beta1, beta2) and residual var 1."""
    X, y = make_nested_linear(20000, beta2, random_state=0)
    x = X[:, 0]
    assert x.min() >= 0 and x.max() <= 5
    # U[0, 5]: mean 2.5, variance 25/12
    np.testing.assert_allclose([x.mean(), x.var()], [2.5, 25 / 12], rtol=0.02)
    fit = sm.OLS(y, np.column_stack([np.ones_like(x), x, x**2])).fit()
    # reference: true coefficients of eq. (4); OLS within 4 standard errors
    z = (fit.params - np.array([0.0, 2.0, beta2])) / fit.bse
    assert np.all(np.abs(z) < 4), z
    np.testing.assert_allclose(fit.scale, 1.0, rtol=0.05)


def test_nested_linear_beta1_is_used():
    """H: beta1 changes the slope: same seed, y differs by (b1 - 2) x exactly."""
    X, y = make_nested_linear(50, 0.05, random_state=1)
    _, y3 = make_nested_linear(50, 0.05, beta1=3.0, random_state=1)
    np.testing.assert_allclose(y3 - y, X[:, 0], rtol=1e-12)


# --- Hothorn et al. (2005), Section 5.2 ----------------------------------------


@pytest.mark.parametrize("angle", [0, 30, 90])
def test_angle_classification_moments(angle):
    """H: equal priors, class 0 ~ N(0, 0.2 I), class 1 an equal mixture of
    N((0, 1), 0.2 I) and N((cos g, sin g), 0.2 I) with g in degrees."""
    X, y = make_angle_classification(40000, angle, random_state=0)
    assert set(np.unique(y)) == {0, 1}
    np.testing.assert_allclose(y.mean(), 0.5, atol=0.01)  # binomial sd 0.0025
    X0, X1 = X[y == 0], X[y == 1]
    np.testing.assert_allclose(X0.mean(axis=0), [0, 0], atol=0.015)
    np.testing.assert_allclose(np.cov(X0.T), 0.2 * np.eye(2), atol=0.01)
    g = np.deg2rad(angle)
    mu = np.array([np.cos(g), 1 + np.sin(g)]) / 2
    np.testing.assert_allclose(X1.mean(axis=0), mu, atol=0.015)
    # mixture of two equal halves: cov = 0.2 I + d d^T / 4, d = difference of means
    d = np.array([np.cos(g), np.sin(g) - 1])
    np.testing.assert_allclose(
        np.cov(X1.T), 0.2 * np.eye(2) + np.outer(d, d) / 4, atol=0.015
    )


def test_angle_is_in_degrees():
    """H: angle 90 (degrees) puts both class-1 groups at (0, 1)."""
    X, y = make_angle_classification(20000, 90, random_state=2)
    np.testing.assert_allclose(np.cov(X[y == 1].T), 0.2 * np.eye(2), atol=0.01)
    np.testing.assert_allclose(X[y == 1].mean(axis=0), [0, 1], atol=0.015)


# --- Yousefi et al. (2011), Section 2.1.1 and Table 1 --------------------------

SMALL = {"n_features": 300, "n_high_variance": 100}  # 20 + 2*50 markers, 80 low-var


def _corr_offdiag(C, block_size):
    idx = np.arange(C.shape[0]) // block_size
    same = (idx[:, None] == idx[None, :]) & ~np.eye(C.shape[0], dtype=bool)
    diff = idx[:, None] != idx[None, :]
    return C[same], C[diff]


def test_microarray_default_shape_matches_table1():
    """H: defaults give D = 20000 columns and the Table 1 marker means per class."""
    X, y = make_microarray(120, random_state=0)
    assert X.shape == (120, 20000) and set(np.unique(y)) <= {0, 1}
    gm = X[:, :20]
    # equal-variance means m0 = 0.23, m1 = 0.8; sd of a mean over ~60 x 20 is < 0.05
    np.testing.assert_allclose(gm[y == 0].mean(), 0.23, atol=0.1)
    np.testing.assert_allclose(gm[y == 1].mean(), 0.8, atol=0.1)


@pytest.mark.parametrize(
    "equal_variance, m0, m1, v0, v1",
    [(True, 0.23, 0.8, 0.36, 0.36), (False, 0.11, 0.9, 0.36, 1.44)],
)
def test_microarray_marker_moments_and_blocks(equal_variance, m0, m1, v0, v1):
    """H: markers have Table 1 means/variances, corr 0.8 in blocks of 5, 0 across."""
    X, y = make_microarray(4000, equal_variance=equal_variance, random_state=0, **SMALL)
    np.testing.assert_allclose(y.mean(), 0.5, atol=0.03)  # equally likely classes
    gm0, gm1 = X[y == 0, :20], X[y == 1, :20]
    n0, n1 = len(gm0), len(gm1)
    # tolerances: 5 standard errors of a sample mean / variance of normal data
    np.testing.assert_allclose(gm0.mean(axis=0), m0, atol=5 * np.sqrt(v0 / n0))
    np.testing.assert_allclose(gm1.mean(axis=0), m1, atol=5 * np.sqrt(v1 / n1))
    np.testing.assert_allclose(gm0.var(axis=0), v0, rtol=5 * np.sqrt(2 / n0))
    np.testing.assert_allclose(gm1.var(axis=0), v1, rtol=5 * np.sqrt(2 / n1))
    # class 0: all 120 markers ~ N(m0, v0 Sigma), Sigma block diagonal, l = 5
    C = np.corrcoef(X[y == 0, :120].T)
    within, across = _corr_offdiag(C, 5)
    assert within.size == 24 * 20
    np.testing.assert_allclose(within, 0.8, atol=0.04)
    np.testing.assert_allclose(across.mean(), 0.0, atol=0.01)
    assert np.max(np.abs(across)) < 0.12
    # heterogeneous markers in class 0 are N(m0, v0) too
    np.testing.assert_allclose(X[y == 0, 20:120].mean(), m0, atol=0.03)


def test_microarray_heterogeneous_markers_are_subclass_specific():
    """H: in class 1 each hm group is raised for about half the samples, exclusively."""
    X, y = make_microarray(4000, random_state=2, **SMALL)
    X1 = X[y == 1]
    g1, g2 = X1[:, 20:70].mean(axis=1), X1[:, 70:120].mean(axis=1)
    # class-1 mean of each group: equal mixture of m0 and m1 (c = 2 subclasses)
    np.testing.assert_allclose([g1.mean(), g2.mean()], (0.23 + 0.8) / 2, atol=0.03)
    raised1, raised2 = g1 > (0.23 + 0.8) / 2, g2 > (0.23 + 0.8) / 2
    np.testing.assert_allclose(raised1.mean(), 0.5, atol=0.06)
    assert np.mean(raised1 == raised2) < 0.15  # mutually exclusive up to noise
    assert np.corrcoef(g1, g2)[0, 1] < -0.5
    X0 = X[y == 0]
    assert abs(np.corrcoef(X0[:, 20:70].mean(1), X0[:, 70:120].mean(1))[0, 1]) < 0.1


def test_microarray_non_markers():
    """H: non-markers are uncorrelated, ignore the class; high-variance ones are
    mixtures with means between m0 and m1, low-variance ones N(m0, sigma0^2)."""
    m0, m1, v0, v1 = 0.11, 0.9, 0.36, 1.44
    X, y = make_microarray(4000, equal_variance=False, random_state=3, **SMALL)
    hv, lv = X[:, 120:220], X[:, 220:]
    assert lv.shape[1] == 80
    np.testing.assert_allclose(lv.mean(axis=0), m0, atol=0.05)
    np.testing.assert_allclose(lv.var(axis=0), v0, rtol=0.12)
    mean_hv = hv.mean(axis=0)
    assert np.all((mean_hv > m0 - 0.08) & (mean_hv < m1 + 0.08))
    # mixture variance p v0 + (1-p) v1 + p(1-p)(m1-m0)^2 with p = (m1-mean)/(m1-m0)
    p = np.clip((m1 - mean_hv) / (m1 - m0), 0, 1)
    expected = p * v0 + (1 - p) * v1 + p * (1 - p) * (m1 - m0) ** 2
    np.testing.assert_allclose(hv.var(axis=0), expected, rtol=0.15)
    for block in (hv, lv):
        diff = block[y == 1].mean(axis=0) - block[y == 0].mean(axis=0)
        assert np.max(np.abs(diff)) < 0.2  # sd of diff <= 0.04
        C = np.corrcoef(block.T)
        off = C[~np.eye(C.shape[0], dtype=bool)]
        assert np.max(np.abs(off)) < 0.1


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"n_features": 100}, "`n_features` must be at least"),
        ({"n_global_markers": 7}, "multiple of `block_size`"),
        ({"rho": 1.0}, "`rho` must lie"),
        ({"variances": (0.36, -1.0)}, "`variances` must be positive"),
        ({"means": (0.1,)}, "`means` must be a pair"),
        ({"n_subclasses": 0}, "`n_subclasses` must be a positive integer"),
    ],
)
def test_microarray_invalid_parameters_raise(kwargs, match):
    """H: inconsistent model parameters give a ValueError naming the argument."""
    with pytest.raises(ValueError, match=match):
        make_microarray(10, random_state=0, **kwargs)


def test_microarray_mixture_proportions_are_part_of_the_model():
    """H: two calls with different random_state sample the same model: each
    high-variance non-marker has the same mixture proportion p in both (so a
    learning sample and a test sample share one distribution); another model_seed
    gives other proportions."""
    from sklearn_bench.datasets import make_microarray

    kw = {
        "n_features": 200,
        "n_high_variance": 50,
        "means": (0.0, 3.0),
        "variances": (0.01, 0.01),
    }
    cols = slice(20 + 2 * 50, 20 + 2 * 50 + 50)

    def share_first(seed, model_seed=0):
        X, _ = make_microarray(4000, random_state=seed, model_seed=model_seed, **kw)
        return (X[:, cols] < 1.5).mean(axis=0)  # share of the N(m0, .) component

    a, b = share_first(1), share_first(2)
    np.testing.assert_allclose(a, b, atol=0.04)  # binomial sd <= 0.008
    assert np.abs(share_first(1, model_seed=1) - a).max() > 0.2
