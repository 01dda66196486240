"""Welch t-test scores for univariate feature selection (Berrar and Lozano, 2013)."""

import numpy as np
from scipy import stats
from sklearn.utils import check_X_y
from sklearn.utils.multiclass import check_classification_targets


def welch_t_score(X, y):
    """Welch two-sample t-test of every feature between two classes.

    The score function of the gene selection of Berrar and Lozano (2013, Section
    7) and Boulesteix et al. (2015): per feature

    .. math::

        t = \\frac{\\bar{x}_1 - \\bar{x}_0}{\\sqrt{s_1^2 / n_1 + s_0^2 / n_0}}

    with unbiased class variances and Welch-Satterthwaite degrees of freedom,
    two-sided. Use it as ``SelectKBest(welch_t_score, k=...)`` (the largest
    :math:`|t|` have the smallest p-values); inside a
    :class:`~sklearn.pipeline.Pipeline` it is refitted in every training fold.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        Data.
    y : array-like of shape (n_samples,)
        Labels of exactly two classes, each with at least two samples.

    Returns
    -------
    scores : ndarray of shape (n_features,)
        Absolute t statistics :math:`|t|`.
    pvalues : ndarray of shape (n_features,)
        Two-sided p-values, equal to those of
        ``scipy.stats.ttest_ind(..., equal_var=False)``.

    Notes
    -----
    A feature constant within both classes has no standard error; where scipy
    returns ``nan``, equal class means give ``|t| = 0`` and ``p = 1``, different
    ones ``|t| = inf`` and ``p = 0`` (the feature separates the classes).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.feature_selection import SelectKBest
    >>> from sklearn_bench.estimators import welch_t_score
    >>> rng = np.random.RandomState(0)
    >>> y = np.repeat([0, 1], 10)
    >>> X = rng.normal(size=(20, 5))
    >>> X[:, 3] += 2 * y
    >>> scores, pvalues = welch_t_score(X, y)
    >>> scores.round(2)
    array([0.72, 0.67, 0.21, 2.14, 0.17])
    >>> pvalues.round(3)
    array([0.482, 0.511, 0.833, 0.05 , 0.871])
    >>> SelectKBest(welch_t_score, k=1).fit(X, y).get_support(indices=True)
    array([3])
    """
    X, y = check_X_y(X, y, dtype=np.float64, y_numeric=False)
    check_classification_targets(y)
    classes, y_idx, counts = np.unique(y, return_inverse=True, return_counts=True)
    if classes.shape[0] != 2:
        raise ValueError(
            "`y` must have exactly two classes for a Welch t-test; got "
            f"{classes.shape[0]}."
        )
    if np.any(counts < 2):
        raise ValueError(
            "`y` must have at least two samples in each class; got counts "
            f"{counts.tolist()}."
        )
    X0, X1 = X[y_idx == 0], X[y_idx == 1]
    n0, n1 = counts
    m0, m1 = X0.mean(axis=0), X1.mean(axis=0)
    v0, v1 = X0.var(axis=0, ddof=1) / n0, X1.var(axis=0, ddof=1) / n1
    se2 = v0 + v1
    diff = m1 - m0
    with np.errstate(divide="ignore", invalid="ignore"):
        t = diff / np.sqrt(se2)
        df = se2**2 / (v0**2 / (n0 - 1) + v1**2 / (n1 - 1))
    pvalues = 2 * stats.t.sf(np.abs(t), df)
    degenerate = se2 == 0
    separated = degenerate & (diff != 0)
    t = np.abs(t)
    t[degenerate] = 0.0
    pvalues[degenerate] = 1.0
    t[separated] = np.inf
    pvalues[separated] = 0.0
    return t, pvalues
