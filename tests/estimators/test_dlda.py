import numpy as np
import pytest
from sklearn.naive_bayes import GaussianNB

from sklearn_bench.estimators import DiagonalLDA


def _data(seed=0, n=(7, 9, 11), p=6):
    rng = np.random.RandomState(seed)
    X = np.vstack(
        [rng.normal(loc=k, scale=1 + k, size=(m, p)) for k, m in enumerate(n)]
    )
    y = np.repeat(["a", "b", "c"][: len(n)], n)
    return X, y


def _hand_dlda(X, y, Xnew):
    """Eq. (6) of Berrar and Lozano (2013) written out with plain loops."""
    classes = np.unique(y)
    means = np.array([X[y == c].mean(axis=0) for c in classes])
    ss = sum(((X[y == c] - X[y == c].mean(axis=0)) ** 2).sum(axis=0) for c in classes)
    s2 = ss / (len(y) - len(classes))
    d = np.array(
        [[np.sum((x - means[k]) ** 2 / s2) for k in range(len(classes))] for x in Xnew]
    )
    return classes, means, s2, d


def test_dlda_matches_hand_formula_eq6():
    """H: fitted means, pooled variances and eq. (6) distances equal a hand loop."""
    X, y = _data()
    Xnew = np.random.RandomState(1).normal(size=(20, X.shape[1])) * 3
    classes, means, s2, d = _hand_dlda(X, y, Xnew)
    clf = DiagonalLDA().fit(X, y)
    np.testing.assert_array_equal(clf.classes_, classes)
    np.testing.assert_allclose(clf.means_, means, rtol=1e-12)
    np.testing.assert_allclose(clf.var_, s2, rtol=1e-12)
    np.testing.assert_array_equal(clf.predict(Xnew), classes[np.argmin(d, axis=1)])
    # decision_function = -d/2 up to a per-sample constant
    dec = clf.decision_function(Xnew)
    np.testing.assert_allclose(
        dec - dec[:, :1], -(d - d[:, :1]) / 2, rtol=1e-9, atol=1e-9
    )


def test_dlda_equals_gaussian_nb_with_pooled_variance():
    """H: DLDA posteriors equal GaussianNB's when its variances are set to the pooled
    ones (GaussianNB with var_ overwritten by hand, same priors)."""
    X, y = _data(seed=3)
    Xnew = np.random.RandomState(4).normal(size=(30, X.shape[1])) * 2
    for priors in ["uniform", "empirical", [0.2, 0.3, 0.5]]:
        clf = DiagonalLDA(priors=priors).fit(X, y)
        nb_priors = {"uniform": np.full(3, 1 / 3), "empirical": None}.get(
            priors if isinstance(priors, str) else "given", priors
        )
        nb = GaussianNB(priors=nb_priors, var_smoothing=0.0).fit(X, y)
        nb.var_ = np.tile(clf.var_, (3, 1))  # shared variance set by hand
        np.testing.assert_allclose(
            clf.predict_proba(Xnew), nb.predict_proba(Xnew), rtol=1e-9
        )
        np.testing.assert_allclose(
            clf.predict_log_proba(Xnew), nb.predict_log_proba(Xnew), rtol=1e-9
        )
        np.testing.assert_array_equal(clf.predict(Xnew), nb.predict(Xnew))


def test_binary_decision_function_is_log_odds():
    """H: with two classes decision_function is log P(c1|x) - log P(c0|x)."""
    X, y = _data(n=(8, 12))
    clf = DiagonalLDA(priors="empirical").fit(X, y)
    lp = clf.predict_log_proba(X)
    np.testing.assert_allclose(
        clf.decision_function(X), lp[:, 1] - lp[:, 0], rtol=1e-10
    )
    np.testing.assert_array_equal(
        clf.predict(X), clf.classes_[(clf.decision_function(X) > 0).astype(int)]
    )


def test_priors_shift_the_boundary():
    """H: at the midpoint of two class means the larger prior wins."""
    X = np.array([[0.0], [1.0], [3.0], [4.0]])
    y = np.array([0, 0, 1, 1])
    mid = [[2.0]]
    np.testing.assert_allclose(DiagonalLDA().fit(X, y).predict_proba(mid), [[0.5, 0.5]])
    assert DiagonalLDA(priors=[0.3, 0.7]).fit(X, y).predict(mid)[0] == 1
    assert DiagonalLDA(priors=[0.7, 0.3]).fit(X, y).predict(mid)[0] == 0
    assert DiagonalLDA(priors="empirical").fit(X, y).priors_.tolist() == [0.5, 0.5]


def test_zero_variance_features_are_ignored():
    """H: a feature constant within every class gets weight zero (documented)."""
    X, y = _data(n=(10, 10))
    const = np.where(y == "a", 5.0, 7.0)  # separates perfectly, zero within-class var
    # 0.1 / 0.7: class means carry rounding, the pooled variance is ~1e-33, not 0
    rounded = np.where(y == "a", 0.1, 0.7)
    Xc = np.column_stack([X, const, rounded])
    clf = DiagonalLDA().fit(Xc, y)
    ref = DiagonalLDA().fit(X, y)
    Xnew = np.random.RandomState(0).normal(size=(15, X.shape[1]))
    Xnew_c = np.column_stack([Xnew, np.full(15, 100.0), np.full(15, -3.0)])
    np.testing.assert_allclose(
        clf.predict_proba(Xnew_c), ref.predict_proba(Xnew), rtol=1e-12
    )
    assert np.all(np.isfinite(clf.decision_function(Xnew_c)))


def test_all_zero_variance_predicts_largest_prior():
    """H: with no usable feature the prediction is the class of largest prior."""
    X = np.ones((5, 2))
    y = np.array([0, 1, 1, 1, 0])
    clf = DiagonalLDA(priors="empirical").fit(X, y)
    np.testing.assert_array_equal(clf.predict(X), np.ones(5))
    np.testing.assert_allclose(clf.predict_proba(X[:1]), [[0.4, 0.6]])


@pytest.mark.parametrize(
    "priors, match",
    [
        ([0.5, 0.3, 0.2], "one entry per class"),
        ([1.2, -0.2], "positive and sum to one"),
        ([0.4, 0.4], "positive and sum to one"),
        ("equal", "priors"),
    ],
)
def test_invalid_priors_raise(priors, match):
    """H: bad priors give a ValueError naming `priors`."""
    X, y = _data(n=(5, 5))
    with pytest.raises(ValueError, match=match):
        DiagonalLDA(priors=priors).fit(X, y)


def test_one_class_raises():
    """H: a single class cannot be discriminated and raises a clear ValueError."""
    with pytest.raises(ValueError, match="number of classes"):
        DiagonalLDA().fit(np.eye(3), [1, 1, 1])
