"""Checks run over every public estimator, splitter and function of the package."""

from sklearn.utils.estimator_checks import parametrize_with_checks

from sklearn_bench.estimators import DiagonalLDA

# --- estimators (sklearn_bench.estimators) ------------------------------------


def _estimators():
    return [DiagonalLDA(), DiagonalLDA(priors="empirical")]


@parametrize_with_checks(_estimators())
def test_sklearn_compatible_estimator(estimator, check):
    """H: every public estimator follows scikit-learn's estimator API."""
    check(estimator)
