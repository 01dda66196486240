"""Data generating processes of the papers (Hothorn et al., 2005; Yousefi et al., 2011).

Every sampler returns ``(X, y)`` like scikit-learn's ``make_*``, an i.i.d. sample
of ``n_samples`` rows; the runner calls ``sampler(n_samples=n, random_state=seed)``,
so bind every other parameter with :func:`functools.partial`.
"""

import math

import numpy as np

from .._validation import check_positive_int, check_real, sklearn_random_state


def make_nested_linear(n_samples, beta2, *, beta1=2.0, random_state=None):
    """Univariate quadratic regression of Hothorn et al. (2005), eq. (4).

    .. math::

        y = \\beta_1 x + \\beta_2 x^2 + \\varepsilon, \\qquad
        x \\sim U[0, 5], \\quad \\varepsilon \\sim N(0, 1),

    all independent; Section 5.1 takes :math:`\\beta_1 = 2` and
    :math:`\\beta_2 \\in \\{0, 0.02, \\dots, 0.16\\}`. Only :math:`x` is returned
    (a learner that wants :math:`x^2` builds it, e.g. with
    :class:`~sklearn.preprocessing.PolynomialFeatures`).

    Parameters
    ----------
    n_samples : int
        Number of observations.
    beta2 : float
        Coefficient :math:`\\beta_2` of :math:`x^2`.
    beta1 : float, default=2.0
        Coefficient :math:`\\beta_1` of :math:`x` (2 in the paper).
    random_state : int, RandomState instance or None, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (n_samples, 1)
        The input :math:`x`.
    y : ndarray of shape (n_samples,)
        The response.

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn_bench.datasets import make_nested_linear
    >>> sampler = partial(make_nested_linear, beta2=0.16)  # for SimulatedDataset
    >>> X, y = sampler(n_samples=5, random_state=1)
    >>> X.round(2).ravel()
    array([2.09, 3.6 , 0.  , 1.51, 0.73])
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    beta1 = check_real(beta1, "beta1")
    beta2 = check_real(beta2, "beta2")
    rng = sklearn_random_state(random_state)
    x = rng.uniform(0.0, 5.0, size=n_samples)
    y = beta1 * x + beta2 * x**2 + rng.standard_normal(n_samples)
    return x[:, None], y


def make_angle_classification(n_samples, angle, *, random_state=None):
    """Two-class Gaussian problem with a moving subgroup, Hothorn et al. (2005), 5.2.

    Classes 0 and 1 (the paper's classes 1 and 2) have priors 1/2 and bivariate
    normal distributions with covariance :math:`\\mathrm{diag}(0.2, 0.2)`. Class
    0 has mean :math:`(0, 0)`; class 1 is an equal mixture of means
    :math:`(0, 1)` and :math:`(\\cos(\\gamma\\pi/180), \\sin(\\gamma\\pi/180))`,
    which moves from :math:`(1, 0)` to :math:`(0, 1)` as :math:`\\gamma` goes
    from 0 to 90 degrees (where linear discriminant analysis is optimal). Labels
    and mixture components are drawn independently for every observation, so
    class sizes are binomial.

    Parameters
    ----------
    n_samples : int
        Number of observations.
    angle : float
        The angle :math:`\\gamma` **in degrees** (Table 2: 0, 5, ..., 90).
    random_state : int, RandomState instance or None, default=None
        Seed or generator for the draw.

    Returns
    -------
    X : ndarray of shape (n_samples, 2)
        The two inputs.
    y : ndarray of shape (n_samples,), dtype=int
        Class labels 0 and 1.

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn_bench.datasets import make_angle_classification
    >>> sampler = partial(make_angle_classification, angle=90)  # SimulatedDataset
    >>> X, y = sampler(n_samples=4, random_state=0)
    >>> y
    array([0, 1, 1, 0])
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    angle = check_real(angle, "angle")
    rng = sklearn_random_state(random_state)
    y = rng.randint(2, size=n_samples)
    moving = rng.randint(2, size=n_samples).astype(bool)
    gamma = np.deg2rad(angle)
    means = np.zeros((n_samples, 2))
    means[(y == 1) & ~moving] = (0.0, 1.0)
    means[(y == 1) & moving] = (np.cos(gamma), np.sin(gamma))
    X = means + np.sqrt(0.2) * rng.standard_normal((n_samples, 2))
    return X, y


def _check_pair(value, name):
    pair = np.asarray(value, dtype=np.float64)
    if pair.shape != (2,) or not np.all(np.isfinite(pair)):
        raise ValueError(f"`{name}` must be a pair of finite numbers; got {value!r}.")
    return pair


def make_microarray(
    n_samples,
    *,
    equal_variance=True,
    n_features=20000,
    n_global_markers=20,
    n_heterogeneous_markers=50,
    n_subclasses=2,
    n_high_variance=2000,
    block_size=5,
    rho=0.8,
    means=None,
    variances=None,
    model_seed=0,
    random_state=None,
):
    """Synthetic microarray model of Yousefi et al. (2011), Section 2.1.1, Table 1.

    Two equally likely classes, ``y = 0`` and ``y = 1``; class 1 consists of
    ``n_subclasses`` (:math:`c`) equally likely subclasses, all drawn
    independently per sample. With :math:`m_0, m_1` the ``means``,
    :math:`\\sigma_0^2, \\sigma_1^2` the ``variances`` and :math:`\\Sigma` block
    diagonal (``block_size`` :math:`l`, 1 on the diagonal, ``rho`` off it), the
    columns of ``X`` are, in this order:

    1. ``n_global_markers`` global markers: :math:`N(m_1 \\mathbf{1}, \\sigma_1^2
       \\Sigma)` in class 1, :math:`N(m_0 \\mathbf{1}, \\sigma_0^2 \\Sigma)` in 0.
    2. ``n_subclasses`` groups of ``n_heterogeneous_markers``: group :math:`k`
       has the class-1 distribution for subclass :math:`k` of class 1, the
       class-0 one for every other sample.
    3. ``n_high_variance`` non-markers, each the mixture :math:`p N(m_0,
       \\sigma_0^2) + (1 - p) N(m_1, \\sigma_1^2)` whatever the class, with its
       own :math:`p \\sim U[0, 1]` (from ``model_seed``).
    4. The remaining low-variance non-markers, :math:`N(m_0, \\sigma_0^2)`.

    Marker blocks never straddle the two marker groups, and are drawn through
    one :math:`l \\times l` Cholesky factor. The defaults are Table 1 (its
    :math:`D_{hm} = 50` counts the markers of *each* subclass: :math:`20 + 2
    \\times 50 + 2000 + 17880 = 20000`); the paper uses 60 and 120 samples.

    Parameters
    ----------
    n_samples : int
        Number of samples (rows).
    equal_variance : bool, default=True
        Table 1's equal-variance (True: :math:`m = (0.23, 0.8)`, :math:`\\sigma^2
        = (0.6^2, 0.6^2)`) or unequal-variance setting (False: :math:`m = (0.11,
        0.9)`, :math:`\\sigma^2 = (0.6^2, 1.2^2)`) for ``means`` and ``variances``
        left at None.
    n_features : int, default=20000
        Total number of features.
    n_global_markers, n_heterogeneous_markers : int, default=20, 50
        Markers in all; per subclass. Multiples of ``block_size``.
    n_subclasses : int, default=2
        Number :math:`c` of subclasses of class 1.
    n_high_variance : int, default=2000
        High-variance non-markers.
    block_size : int, default=5
        Block size :math:`l` of the marker covariance.
    rho : float, default=0.8
        Within-block correlation, in :math:`(-1/(l-1), 1)`.
    means, variances : pair of float, default=None
        :math:`(m_0, m_1)` and :math:`(\\sigma_0^2, \\sigma_1^2)` (variances,
        not standard deviations).
    model_seed : int, default=0
        Seed of the model itself (the mixture proportions :math:`p`), so that
        the learning and test samples of :class:`SimulatedDataset` come from
        one model.
    random_state : int, RandomState instance or None, default=None
        Seed or generator for the draw of the samples.

    Returns
    -------
    X : ndarray of shape (n_samples, n_features)
        Expression values, columns in the order listed above.
    y : ndarray of shape (n_samples,), dtype=int
        Class labels 0 and 1.

    References
    ----------
    Yousefi, M. R., Hua, J. and Dougherty, E. R. (2011). Multiple-rule bias in
    the comparison of classification rules. Bioinformatics, 27(12), 1675-1683.

    Examples
    --------
    >>> from functools import partial
    >>> from sklearn_bench.datasets import make_microarray
    >>> small = partial(
    ...     make_microarray, equal_variance=False, n_features=500, n_high_variance=50
    ... )
    >>> X, y = small(n_samples=60, random_state=0)  # as SimulatedDataset calls it
    >>> X.shape
    (60, 500)
    """
    n_samples = check_positive_int(n_samples, "n_samples")
    block_size = check_positive_int(block_size, "block_size", minimum=1)
    n_gm = check_positive_int(n_global_markers, "n_global_markers", minimum=0)
    n_hm = check_positive_int(
        n_heterogeneous_markers, "n_heterogeneous_markers", minimum=0
    )
    n_sub = check_positive_int(n_subclasses, "n_subclasses", minimum=1)
    n_hv = check_positive_int(n_high_variance, "n_high_variance", minimum=0)
    n_features = check_positive_int(n_features, "n_features", minimum=1)
    for value, name in [(n_gm, "n_global_markers"), (n_hm, "n_heterogeneous_markers")]:
        if value % block_size:
            raise ValueError(
                f"`{name}` must be a multiple of `block_size` ({block_size}); "
                f"got {value}."
            )
    n_markers = n_gm + n_sub * n_hm
    n_lv = n_features - n_markers - n_hv
    if n_lv < 0:
        raise ValueError(
            "`n_features` must be at least n_global_markers + n_subclasses * "
            f"n_heterogeneous_markers + n_high_variance = {n_markers + n_hv}; "
            f"got {n_features}."
        )
    rho = check_real(rho, "rho")
    if block_size > 1 and not -1.0 / (block_size - 1) < rho < 1.0:
        raise ValueError(
            f"`rho` must lie in (-1/(block_size - 1), 1) for a positive definite "
            f"block; got {rho}."
        )
    if means is None:
        means = (0.23, 0.8) if equal_variance else (0.11, 0.9)
    if variances is None:
        variances = (0.6**2, 0.6**2) if equal_variance else (0.6**2, 1.2**2)
    m0, m1 = _check_pair(means, "means")
    var0, var1 = _check_pair(variances, "variances")
    if var0 <= 0 or var1 <= 0:
        raise ValueError(f"`variances` must be positive; got {variances!r}.")
    sd0, sd1 = math.sqrt(var0), math.sqrt(var1)
    rng = sklearn_random_state(random_state)

    y = rng.randint(2, size=n_samples)
    subclass = np.where(y == 1, rng.randint(n_sub, size=n_samples), -1)
    X = np.empty((n_samples, n_features))

    # markers: standard normal blocks times the Cholesky factor of Sigma_rho
    block = np.full((block_size, block_size), rho)
    np.fill_diagonal(block, 1.0)
    chol = np.linalg.cholesky(block)
    z = rng.standard_normal((n_samples, n_markers // block_size, block_size))
    z = (z @ chol.T).reshape(n_samples, n_markers)
    # "diseased" (class-1 distribution) indicator per sample and marker column
    group = np.concatenate([np.full(n_gm, -1), np.repeat(np.arange(n_sub), n_hm)])
    diseased = np.where(
        group[None, :] == -1, (y == 1)[:, None], subclass[:, None] == group[None, :]
    )
    X[:, :n_markers] = np.where(diseased, m1 + sd1 * z, m0 + sd0 * z)

    # high-variance non-markers: two-component mixture with p ~ U[0, 1] per feature
    p = np.random.default_rng(model_seed).uniform(size=n_hv)  # fixed per model
    first = rng.uniform(size=(n_samples, n_hv)) < p
    z = rng.standard_normal((n_samples, n_hv))
    X[:, n_markers : n_markers + n_hv] = np.where(first, m0 + sd0 * z, m1 + sd1 * z)

    # low-variance non-markers
    X[:, n_markers + n_hv :] = m0 + sd0 * rng.standard_normal((n_samples, n_lv))
    return X, y
