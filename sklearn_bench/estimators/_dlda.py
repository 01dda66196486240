"""Diagonal linear discriminant analysis (Berrar and Lozano, 2013, eq. (6))."""

import numpy as np
from scipy.special import logsumexp, softmax
from sklearn.base import BaseEstimator, ClassifierMixin, _fit_context
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.multiclass import check_classification_targets
from sklearn.utils.validation import check_is_fitted, validate_data


class DiagonalLDA(ClassifierMixin, BaseEstimator):
    """Diagonal linear discriminant analysis (DLDA).

    A sample :math:`x` is assigned to the class :math:`c` that minimises

    .. math::

        \\mathrm{dlda}(x, c) = \\sum_{i=1}^p
        \\frac{(x_i - \\bar{x}_{ci})^2}{s_i^2} - 2 \\log \\pi_c,

    with class means :math:`\\bar{x}_{ci}`, pooled within-class variances
    :math:`s_i^2` and priors :math:`\\pi_c`; with the default uniform priors this
    is Berrar and Lozano (2013), eq. (6). It is the Bayes rule for Gaussian
    classes with a common diagonal covariance (Gaussian naive Bayes with
    variances pooled over the classes), which gives :meth:`predict_proba`.

    Parameters
    ----------
    priors : {"uniform", "empirical"} or array-like of shape (n_classes,), \
            default="uniform"
        Class priors :math:`\\pi_c`: equal (eq. (6) as published), the class
        proportions of the training data, or given in the order of ``classes_``
        (positive, summing to one).

    Attributes
    ----------
    classes_ : ndarray of shape (n_classes,)
        Class labels.
    means_ : ndarray of shape (n_classes, n_features)
        Class means :math:`\\bar{x}_{ci}`.
    var_ : ndarray of shape (n_features,)
        Pooled within-class variances :math:`s_i^2 = \\sum_c \\sum_{j \\in c}
        (x_{ji} - \\bar{x}_{ci})^2 / (n - K)` with :math:`K` classes (0 when
        :math:`n = K`).
    priors_ : ndarray of shape (n_classes,)
        Class priors used.
    class_count_ : ndarray of shape (n_classes,)
        Number of training samples per class.
    n_features_in_ : int
        Number of features seen during fit.
    feature_names_in_ : ndarray of shape (`n_features_in_`,)
        Names of features seen during fit, if ``X`` has string feature names.

    Notes
    -----
    Features with zero pooled variance (constant within every class, up to
    rounding) are left out of the sum; if every feature has, the prediction is
    the class with the largest prior (the first on ties).

    References
    ----------
    Berrar, D. and Lozano, J. A. (2013). Significance tests or confidence
    intervals: which are preferable for the comparison of classifiers? Journal of
    Experimental & Theoretical Artificial Intelligence, 25(2), 189-206.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.estimators import DiagonalLDA
    >>> X = np.array([[0.0, 1.0], [1.0, 0.0], [3.0, 4.0], [4.0, 3.0]])
    >>> y = np.array([0, 0, 1, 1])
    >>> clf = DiagonalLDA().fit(X, y)
    >>> clf.var_
    array([0.5, 0.5])
    >>> clf.predict([[0.5, 0.5], [3.0, 3.0]])
    array([0, 1])
    >>> clf.predict_proba([[2.0, 2.0]]).round(3)
    array([[0.5, 0.5]])
    """

    _parameter_constraints: dict = {
        "priors": [StrOptions({"uniform", "empirical"}), "array-like"],
    }

    def __init__(self, priors="uniform"):
        self.priors = priors

    @_fit_context(prefer_skip_nested_validation=True)
    def fit(self, X, y):
        """Estimate class means, pooled per-feature variances and priors.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data.
        y : array-like of shape (n_samples,)
            Class labels.

        Returns
        -------
        self : DiagonalLDA
        """
        X, y = validate_data(self, X, y, dtype=[np.float64, np.float32])
        check_classification_targets(y)
        self.classes_, y_idx = np.unique(y, return_inverse=True)
        n_samples, n_classes = X.shape[0], self.classes_.shape[0]
        if n_classes < 2:
            raise ValueError(
                "The number of classes has to be greater than one; got "
                f"{n_classes} class."
            )
        self.class_count_ = np.bincount(y_idx, minlength=n_classes)
        means = np.zeros((n_classes, X.shape[1]), dtype=np.float64)
        np.add.at(means, y_idx, X)
        self.means_ = means / self.class_count_[:, None]
        resid = X - self.means_[y_idx]
        dof = n_samples - n_classes
        ss = np.einsum("ij,ij->j", resid, resid)
        self.var_ = ss / dof if dof > 0 else np.zeros_like(ss)
        self.priors_ = self._resolve_priors(n_samples)
        return self

    def _resolve_priors(self, n_samples):
        n_classes = self.classes_.shape[0]
        if isinstance(self.priors, str):
            if self.priors == "uniform":
                return np.full(n_classes, 1.0 / n_classes)
            return self.class_count_ / n_samples
        try:
            priors = np.asarray(self.priors, dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"`priors` must be numbers; {exc}") from None
        if priors.shape != (n_classes,):
            raise ValueError(
                f"`priors` must have one entry per class ({n_classes}); "
                f"got shape {priors.shape}."
            )
        if np.any(priors <= 0) or not np.isclose(priors.sum(), 1.0):
            raise ValueError("`priors` must be positive and sum to one.")
        return priors

    def _informative(self):
        # zero pooled variance up to rounding, relative to the feature's scale
        scale = np.max(np.abs(self.means_), axis=0)
        tiny = (16 * np.finfo(np.float64).eps * np.maximum(scale, 1e-300)) ** 2
        return self.var_ > tiny

    def _joint_log_likelihood(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=[np.float64, np.float32])
        keep = self._informative()
        Xk = X[:, keep]
        inv_var = 1.0 / self.var_[keep]
        means = self.means_[:, keep]
        # -1/2 sum_i (x_i - m_ci)^2 / s_i^2, expanded to avoid an (n, K, p) array
        sq = -0.5 * (
            (Xk**2) @ inv_var[:, None]
            - 2.0 * Xk @ (means * inv_var).T
            + ((means**2) @ inv_var)[None, :]
        )
        return sq + np.log(self.priors_)[None, :]

    def decision_function(self, X):
        """Discriminant scores, :math:`-\\mathrm{dlda}(x, c) / 2` up to a constant.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        scores : ndarray of shape (n_samples,) or (n_samples, n_classes)
            Per-class log posterior up to a per-sample constant; with two classes
            the log odds of ``classes_[1]`` against ``classes_[0]``.
        """
        jll = self._joint_log_likelihood(X)
        if jll.shape[1] == 2:
            return jll[:, 1] - jll[:, 0]
        return jll

    def predict(self, X):
        """Class minimising eq. (6) (with the prior term) for each sample.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        y_pred : ndarray of shape (n_samples,)
        """
        jll = self._joint_log_likelihood(X)
        return self.classes_[np.argmax(jll, axis=1)]

    def predict_log_proba(self, X):
        """Log posterior probabilities under the shared diagonal Gaussian model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        log_proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        jll = self._joint_log_likelihood(X)
        return jll - logsumexp(jll, axis=1, keepdims=True)

    def predict_proba(self, X):
        """Posterior probabilities under the shared diagonal Gaussian model.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)

        Returns
        -------
        proba : ndarray of shape (n_samples, n_classes)
            Columns in the order of ``classes_``.
        """
        return softmax(self._joint_log_likelihood(X), axis=1)
