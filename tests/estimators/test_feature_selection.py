import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sklearn.feature_selection import SelectKBest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline

from sklearn_bench.estimators import DiagonalLDA, welch_t_score


def test_welch_matches_scipy_per_feature():
    """H: |t| and p equal scipy.stats.ttest_ind(equal_var=False) on every feature."""
    rng = np.random.RandomState(0)
    y = np.array([0] * 9 + [1] * 14)
    X = rng.normal(size=(23, 40)) * np.where(y[:, None] == 1, 3.0, 1.0)
    X[:, :5] += 1.5 * y[:, None]
    scores, pvalues = welch_t_score(X, y)
    # reference: scipy.stats.ttest_ind(X[y == 1], X[y == 0], equal_var=False)
    ref = stats.ttest_ind(X[y == 1], X[y == 0], equal_var=False)
    np.testing.assert_allclose(scores, np.abs(ref.statistic), rtol=1e-12)
    np.testing.assert_allclose(pvalues, ref.pvalue, rtol=1e-10)


def test_welch_string_labels_and_order_invariance():
    """H: the scores do not depend on label names or row order."""
    rng = np.random.RandomState(1)
    X = rng.normal(size=(20, 4))
    y = np.repeat(["neg", "pos"], 10)
    perm = rng.permutation(20)
    s1, p1 = welch_t_score(X, y)
    s2, p2 = welch_t_score(X[perm], y[perm])
    np.testing.assert_allclose(s1, s2, rtol=1e-12)
    np.testing.assert_allclose(p1, p2, rtol=1e-12)


def test_welch_zero_variance_features():
    """H: constant-within-class features give (0, 1) if means agree, (inf, 0) if not."""
    y = np.repeat([0, 1], 4)
    X = np.column_stack([np.full(8, 2.0), y * 3.0, np.arange(8.0)])
    scores, pvalues = welch_t_score(X, y)
    assert scores[0] == 0 and pvalues[0] == 1
    assert np.isinf(scores[1]) and pvalues[1] == 0
    assert np.isfinite(scores[2]) and 0 < pvalues[2] < 1


@pytest.mark.parametrize(
    "y, match",
    [
        (np.repeat([0, 1, 2], 4), "exactly two classes"),
        (np.zeros(12), "exactly two classes"),
        (np.array([0] * 11 + [1]), "at least two samples"),
    ],
)
def test_welch_invalid_y_raises(y, match):
    """H: other than two classes, or a singleton class, raise a ValueError on `y`."""
    with pytest.raises(ValueError, match=match):
        welch_t_score(np.ones((12, 3)), y)


def test_selectkbest_picks_the_informative_features():
    """H: SelectKBest(welch_t_score) + DLDA keeps the shifted features."""
    rng = np.random.RandomState(2)
    y = np.repeat([0, 1], 30)
    X = rng.normal(size=(60, 200))
    X[:, [7, 42, 99]] += 2.0 * y[:, None]
    pipe = make_pipeline(SelectKBest(welch_t_score, k=3), DiagonalLDA()).fit(X, y)
    np.testing.assert_array_equal(pipe[0].get_support(indices=True), [7, 42, 99])
    assert pipe.score(X, y) > 0.8


@settings(max_examples=30, deadline=None)
@given(
    n0=st.integers(2, 12),
    n1=st.integers(2, 12),
    p=st.integers(1, 5),
    scale=st.floats(0.1, 10.0),
    seed=st.integers(0, 2**31 - 1),
)
def test_welch_matches_scipy_property(n0, n1, p, scale, seed):
    """H: for any class sizes >= 2 and scales, scores equal scipy's Welch test."""
    rng = np.random.RandomState(seed)
    y = np.repeat([0, 1], [n0, n1])
    X = rng.normal(size=(n0 + n1, p)) * np.where(y[:, None] == 1, scale, 1.0)
    scores, pvalues = welch_t_score(X, y)
    ref = stats.ttest_ind(X[y == 1], X[y == 0], equal_var=False)
    np.testing.assert_allclose(scores, np.abs(ref.statistic), rtol=1e-10)
    np.testing.assert_allclose(pvalues, ref.pvalue, rtol=1e-8, atol=1e-300)


def test_selection_inside_cv_is_honest_on_noise():
    """H: on pure noise, SelectKBest(welch_t_score) + DLDA refitted per fold has error
    near 0.5, while selecting once on all rows first gives clearly lower CV error."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 2000))
    y = np.repeat([0, 1], 30)
    cv = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    pipe = make_pipeline(SelectKBest(welch_t_score, k=10), DiagonalLDA())
    honest = 1 - cross_val_score(pipe, X, y, cv=cv).mean()
    leaked_X = SelectKBest(welch_t_score, k=10).fit_transform(X, y)
    leaked = 1 - cross_val_score(DiagonalLDA(), leaked_X, y, cv=cv).mean()
    assert 0.3 < honest < 0.7
    assert leaked < 0.25 and leaked < honest - 0.2
