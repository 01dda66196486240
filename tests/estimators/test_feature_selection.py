import numpy as np
import pytest
from scipy import stats
from sklearn.feature_selection import SelectKBest
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
