import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    GridSearchCV,
    RandomizedSearchCV,
    cross_validate,
    permutation_test_score,
)
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_bench.model_selection import (
    BootstrapCV,
    BootstrapOOB,
    StratifiedBootstrapCV,
    StratifiedBootstrapOOB,
    replicate_ids,
)

OOB_FORMS = (BootstrapOOB, StratifiedBootstrapOOB)
CV_FORMS = (BootstrapCV, StratifiedBootstrapCV)
ALL_FORMS = OOB_FORMS + CV_FORMS
PROPERTY = settings(max_examples=30, deadline=None)


def _make(cls, n_bootstraps, random_state, n_folds=3):
    if cls in CV_FORMS:
        return cls(n_bootstraps, n_folds, random_state=random_state)
    return cls(n_bootstraps, random_state=random_state)


@st.composite
def labelled_samples(draw, min_size=2, max_size=60):
    """Class labels of a learning sample with 1-4 classes of varied balance."""
    n = draw(st.integers(min_size, max_size))
    n_classes = draw(st.integers(1, 4))
    weights = draw(st.lists(st.integers(1, 10), min_size=n_classes, max_size=n_classes))
    seed = draw(st.integers(0, 2**31 - 1))
    p = np.asarray(weights, float) / sum(weights)
    y = np.random.RandomState(seed).choice(n_classes, size=n, p=p)
    return y


def _replicates(cv, X, y):
    """The splits of ``cv`` grouped by replicate."""
    splits = list(cv.split(X, y))
    ids = replicate_ids(cv, X, y)
    return [[s for s, r in zip(splits, ids, strict=True) if r == b] for b in set(ids)]


@PROPERTY
@given(y=labelled_samples(), seed=st.integers(0, 2**32 - 1), stratified=st.booleans())
def test_oob_test_is_complement_of_draw(y, seed, stratified):
    """H: an OOB split's validation set is exactly the set of indices never drawn."""
    cls = StratifiedBootstrapOOB if stratified else BootstrapOOB
    if stratified and np.bincount(y).max() < 2:
        return
    X = np.zeros((len(y), 1))
    for train, test in cls(4, random_state=seed).split(X, y):
        assert len(train) == len(y)
        assert len(test) > 0
        expected = np.setdiff1d(np.arange(len(y)), train)
        np.testing.assert_array_equal(test, expected)


@PROPERTY
@given(
    y=labelled_samples(min_size=6),
    seed=st.integers(0, 2**32 - 1),
    n_folds=st.integers(2, 6),
    stratified=st.booleans(),
)
def test_cv_validation_disjoint_from_training_and_union_is_draw(
    y, seed, n_folds, stratified
):
    """H: in BootstrapCV no validation index is in the split's training part, and the
    union of a replicate's validation folds is the set of distinct drawn indices
    that were drawn into one fold only (those drawn into two folds are in a training
    part of each, hence validated nowhere)."""
    cls = StratifiedBootstrapCV if stratified else BootstrapCV
    n = len(y)
    X = np.zeros((n, 1))
    cv = cls(3, n_folds, random_state=seed)
    replicates = _replicates(cv, X, y)
    assert len(replicates) == 3
    for splits in replicates:
        assert len(splits) == n_folds
        # each drawn position is in the training part of the n_folds - 1 other folds
        all_train = np.concatenate([train for train, _ in splits])
        assert len(all_train) == (n_folds - 1) * n
        draw_counts = np.bincount(all_train, minlength=n) // (n_folds - 1)
        assert draw_counts.sum() == n
        # draws of fold j = the replicate's draws minus split j's training part
        fold_counts = np.array(
            [draw_counts - np.bincount(tr, minlength=n) for tr, _ in splits]
        )
        n_folds_drawn_in = (fold_counts > 0).sum(axis=0)
        for j, (train, test) in enumerate(splits):
            assert len(test) > 0
            assert not np.isin(test, train).any()
            np.testing.assert_array_equal(
                test, np.flatnonzero((fold_counts[j] > 0) & (n_folds_drawn_in == 1))
            )
        tests = np.concatenate([test for _, test in splits])
        assert len(np.unique(tests)) == len(tests)  # validation folds are disjoint
        np.testing.assert_array_equal(
            np.sort(tests), np.flatnonzero(n_folds_drawn_in == 1)
        )
        assert np.isin(tests, np.flatnonzero(draw_counts)).all()


@PROPERTY
@given(
    y=labelled_samples(min_size=6),
    seed=st.integers(0, 2**32 - 1),
    oob=st.booleans(),
)
def test_stratified_forms_keep_class_counts(y, seed, oob):
    """H: every stratified bootstrap sample has exactly the class counts of y."""
    if oob and np.bincount(y).max() < 2:
        return
    X = np.zeros((len(y), 1))
    counts = np.bincount(y)
    if oob:
        for train, _ in StratifiedBootstrapOOB(4, random_state=seed).split(X, y):
            np.testing.assert_array_equal(
                np.bincount(y[train], minlength=len(counts)), counts
            )
    else:
        k = 3
        for splits in _replicates(StratifiedBootstrapCV(3, k, random_state=seed), X, y):
            all_train = np.concatenate([train for train, _ in splits])
            drawn = np.bincount(y[all_train], minlength=len(counts))
            np.testing.assert_array_equal(drawn, (k - 1) * counts)
            # stratified folds: a class's count differs by at most one between folds
            fold_counts = np.array(
                [np.bincount(y[t], minlength=len(counts)) for t, _ in splits]
            )
            held_out = (k - 1) * counts - fold_counts  # draws of each class in fold j
            assert (held_out.max(axis=0) - held_out.min(axis=0) <= 1).all()


@PROPERTY
@given(
    y=labelled_samples(min_size=8),
    seed=st.integers(0, 2**31 - 2),
    form=st.sampled_from(ALL_FORMS),
)
def test_same_seed_identical_different_seed_different(y, seed, form):
    """H: the same int seed gives identical splits on every call; another seed
    gives different splits."""
    if np.bincount(y).max() < 2:
        return
    X = np.zeros((len(y), 1))

    def splits(s):
        return [(tr.tolist(), te.tolist()) for tr, te in _make(form, 5, s).split(X, y)]

    first = splits(seed)
    assert first == splits(seed)
    # 5 replicates of n >= 8 draws agree by chance with probability < 1e-9
    assert first != splits(seed + 1)


def test_random_state_instance_advances_like_shufflesplit():
    """H: with a RandomState instance, successive split calls give new splits, and
    the sequence is reproduced by a fresh instance with the same seed."""
    X = np.zeros((20, 1))
    cv = BootstrapOOB(3, random_state=np.random.RandomState(7))
    a = [tr.tolist() for tr, _ in cv.split(X)]
    b = [tr.tolist() for tr, _ in cv.split(X)]
    assert a != b
    cv2 = BootstrapOOB(3, random_state=np.random.RandomState(7))
    assert [tr.tolist() for tr, _ in cv2.split(X)] == a


def test_oob_draw_is_sklearn_resample():
    """H: the OOB training part is sklearn's bootstrap draw, randint(0, n, n)."""
    X = np.zeros((15, 1))
    train, _ = next(BootstrapOOB(1, random_state=3).split(X))
    expected = np.random.RandomState(3).randint(0, 15, size=15)
    np.testing.assert_array_equal(train, expected)


def test_mean_oob_fraction_matches_theory():
    """H: the mean out-of-bootstrap fraction is (1 - 1/n)^n, i.e. the mean distinct
    in-bag fraction is 1 - (1 - 1/n)^n."""
    n, B = 50, 2000
    X = np.zeros((n, 1))
    sizes = np.array([len(te) for _, te in BootstrapOOB(B, random_state=0).split(X)])
    # exact moments of the number N0 of never-drawn observations (occupancy problem):
    # E N0 = n (1-1/n)^n, Var N0 = n(1-1/n)^n + n(n-1)(1-2/n)^n - (E N0)^2.
    # P(N0 = 0) = n!/n^n ~ 3e-21 for n = 50, so the redraw rule does not matter here.
    mean = n * (1 - 1 / n) ** n
    var = mean + n * (n - 1) * (1 - 2 / n) ** n - mean**2
    se = np.sqrt(var / B)  # ~0.05 observations, i.e. 0.1% of n
    assert abs(sizes.mean() - mean) < 4 * se
    assert abs((n - sizes.mean()) / n - (1 - (1 - 1 / n) ** n)) < 4 * se / n
    np.testing.assert_allclose(sizes.var(ddof=1), var, rtol=0.15)


@pytest.mark.parametrize("n, k", [(100, 5), (37, 3)])
def test_mean_cv_validation_size_matches_derivation(n, k):
    """H: the mean BootstrapCV validation size of fold j is
    n [1 - (1-1/n)^m_j] (1-1/n)^(n-m_j), m_j = ceil((n-j)/k) (BootstrapCV docstring)."""
    B = 800
    X = np.zeros((n, 1))
    sizes = np.array(
        [len(te) for _, te in BootstrapCV(B, k, random_state=1).split(X)]
    ).reshape(B, k)
    m = np.array([len(range(j, n, k)) for j in range(k)])
    q = 1 - 1 / n
    expected = n * (1 - q**m) * q ** (n - m)
    # replicates are independent: tolerance 4 standard errors of the mean over B,
    # the SE estimated from the replicates (about 2% of the mean per fold here)
    se = sizes.std(axis=0, ddof=1) / np.sqrt(B)
    assert (np.abs(sizes.mean(axis=0) - expected) < 4 * se).all()
    # the per-replicate mean over folds as well
    per_replicate = sizes.mean(axis=1)
    se_rep = per_replicate.std(ddof=1) / np.sqrt(B)
    assert abs(per_replicate.mean() - expected.mean()) < 4 * se_rep


def test_small_n_errors_and_redraws():
    """H: n too small for any non-empty split is a clear ValueError; n just large
    enough still gives non-empty validation sets by redrawing."""
    with pytest.raises(ValueError, match="at least 2"):
        list(BootstrapOOB(2, random_state=0).split(np.zeros((1, 1))))
    with pytest.raises(ValueError, match="at least 2"):
        list(StratifiedBootstrapOOB(2).split(np.zeros((3, 1)), [0, 1, 2]))
    with pytest.raises(ValueError, match="`n_folds`=5 greater than the number"):
        list(BootstrapCV(2, 5).split(np.zeros((4, 1))))
    splits = list(BootstrapOOB(50, random_state=0).split(np.zeros((2, 1))))
    assert all(len(te) == 1 and len(set(tr)) == 1 for tr, te in splits)
    splits = list(BootstrapCV(20, 3, random_state=0).split(np.zeros((3, 1))))
    assert all(len(te) == 1 for _, te in splits)


def test_redraw_gives_up_with_value_error():
    """H: when almost no draw leaves every fold a validation row, split raises."""
    with pytest.raises(ValueError, match="consecutive bootstrap draws"):
        list(BootstrapCV(1, 20, random_state=0).split(np.zeros((20, 1))))


def test_stratified_needs_classification_y():
    """H: stratified forms refuse a missing or continuous y."""
    X = np.zeros((10, 1))
    with pytest.raises(ValueError, match="`y` is required"):
        list(StratifiedBootstrapOOB(2).split(X))
    with pytest.raises(ValueError, match="Supported target types"):
        list(StratifiedBootstrapCV(2, 2).split(X, np.linspace(0, 1, 10)))


@pytest.mark.parametrize(
    "cv, match",
    [
        (BootstrapOOB(0), "'n_bootstraps' parameter of BootstrapOOB must be an int"),
        (BootstrapOOB(2.5), "'n_bootstraps' parameter of BootstrapOOB must be an int"),
        (BootstrapCV(3, 1), "'n_folds' parameter of BootstrapCV must be an int"),
        (BootstrapOOB(2, random_state="x"), "'random_state' parameter"),
    ],
)
def test_parameter_validation_uses_sklearn_wording(cv, match):
    """H: invalid parameters raise sklearn's InvalidParameterError in split and
    get_n_splits."""
    with pytest.raises(InvalidParameterError, match=match):
        cv.get_n_splits()
    with pytest.raises(InvalidParameterError, match=match):
        list(cv.split(np.zeros((10, 1))))


def test_repr_and_n_splits():
    """H: the repr is sklearn's and get_n_splits counts the splits that split yields."""
    assert repr(BootstrapOOB()) == "BootstrapOOB(n_bootstraps=200, random_state=None)"
    assert (
        repr(StratifiedBootstrapCV(10, 3, random_state=0))
        == "StratifiedBootstrapCV(n_bootstraps=10, n_folds=3, random_state=0)"
    )
    X, y = np.zeros((30, 1)), np.arange(30) % 2
    for cv in (BootstrapOOB(7), BootstrapCV(7, 4), StratifiedBootstrapCV(2, 3)):
        assert cv.get_n_splits() == sum(1 for _ in cv.split(X, y))


# --- sklearn's cv= consumers --------------------------------------------------------

X_CLF, Y_CLF = make_classification(n_samples=60, n_features=4, random_state=0)
SMALL = [
    BootstrapOOB(3, random_state=0),
    BootstrapCV(2, 3, random_state=0),
    StratifiedBootstrapOOB(3, random_state=0),
    StratifiedBootstrapCV(2, 3, random_state=0),
]
IDS = [type(cv).__name__ for cv in SMALL]


@pytest.mark.parametrize("cv", SMALL, ids=IDS)
def test_runs_in_cross_validate(cv):
    """H: cross_validate fits once per split and scores on our validation rows."""
    res = cross_validate(LogisticRegression(), X_CLF, Y_CLF, cv=cv, return_indices=True)
    assert len(res["test_score"]) == cv.get_n_splits()
    expected = list(cv.split(X_CLF, Y_CLF))
    for got, (_, test) in zip(res["indices"]["test"], expected, strict=True):
        np.testing.assert_array_equal(got, test)
    assert np.all((res["test_score"] >= 0) & (res["test_score"] <= 1))


@pytest.mark.parametrize("cv", SMALL, ids=IDS)
def test_runs_in_grid_and_randomized_search(cv):
    """H: GridSearchCV and RandomizedSearchCV accept the splitters as cv=."""
    grid = GridSearchCV(LogisticRegression(), {"C": [0.1, 1.0]}, cv=cv).fit(
        X_CLF, Y_CLF
    )
    assert grid.n_splits_ == cv.get_n_splits()
    rand = RandomizedSearchCV(
        LogisticRegression(), {"C": [0.1, 1.0, 10.0]}, n_iter=2, cv=cv, random_state=0
    ).fit(X_CLF, Y_CLF)
    assert rand.n_splits_ == cv.get_n_splits()


@pytest.mark.parametrize("cv", SMALL, ids=IDS)
def test_runs_in_permutation_test_score(cv):
    """H: permutation_test_score runs with the splitters and gives a valid p-value."""
    score, perm, p = permutation_test_score(
        LogisticRegression(), X_CLF, Y_CLF, cv=cv, n_permutations=5, random_state=0
    )
    assert perm.shape == (5,)
    assert 1 / 6 <= p <= 1
