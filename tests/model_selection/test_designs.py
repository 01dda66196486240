"""Tests of sklearn_bench/model_selection/_designs.py: NestedCV, PairedSubsampling."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn.datasets import make_classification
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_validate
from sklearn.utils._param_validation import InvalidParameterError

from sklearn_bench.model_selection import NestedCV, PairedSubsampling

PROPERTY = settings(max_examples=30, deadline=None)


def _splits(cv, n):
    return [(a.tolist(), b.tolist()) for a, b in cv.split(np.zeros((n, 1)))]


@PROPERTY
@given(
    k=st.integers(3, 6),
    reps=st.integers(1, 3),
    extra=st.integers(0, 20),
    seed=st.integers(0, 2**31),
)
def test_nested_cv_outer_and_inner_folds_partition(k, reps, extra, seed):
    """H: per repeat, the K outer validation folds partition the rows with sizes
    differing by at most one and train on the rest; for each outer fold the K − 1
    inner validation folds partition its training part, each inner split training
    on the rest of it; split_roles says which split is which."""
    n = k + extra
    cv = NestedCV(k, n_repeats=reps, random_state=seed)
    splits = list(cv.split(np.zeros((n, 2))))
    roles = cv.split_roles()
    assert len(splits) == len(roles) == cv.get_n_splits() == reps * k * k
    assert roles["split"].tolist() == list(range(len(splits)))
    every = set(range(n))
    for r in range(reps):
        at = roles[roles["repeat"] == r]
        outer = {
            row.outer: splits[row.split] for row in at[at["inner"] == -1].itertuples()
        }
        assert sorted(outer) == list(range(k))
        tests = [set(t.tolist()) for _, t in outer.values()]
        assert set().union(*tests) == every and sum(map(len, tests)) == n
        assert max(map(len, tests)) - min(map(len, tests)) <= 1
        for o, (train, test) in outer.items():
            assert set(train.tolist()) == every - set(test.tolist())
            inner = at[(at["outer"] == o) & (at["inner"] >= 0)]
            assert inner["inner"].tolist() == list(range(k - 1))
            parts = [set(splits[s][1].tolist()) for s in inner["split"]]
            assert set().union(*parts) == set(train.tolist())
            assert sum(map(len, parts)) == len(train)
            for s, part in zip(inner["split"], parts, strict=True):
                assert set(splits[s][0].tolist()) == set(train.tolist()) - part
                assert part in tests  # the inner folds are the other outer folds


@PROPERTY
@given(
    j=st.integers(1, 4),
    m=st.integers(1, 3),
    n=st.integers(10, 60),
    train_size=st.floats(0.7, 0.95),
    seed=st.integers(0, 2**31),
)
def test_paired_subsampling_sizes_and_disjoint_halves(j, m, n, train_size, seed):
    """H: the J whole-data subsamples train on floor(train_size n) rows and validate
    on the other n2; every half-sample split validates on n2 rows and trains on the
    other n//2 − n2 rows of its half; the two halves of a pair are disjoint; train
    and validation never overlap."""
    n2 = n - int(np.floor(train_size * n))
    if n // 2 - n2 < 1:
        return
    cv = PairedSubsampling(j, n_pairs=m, train_size=train_size, random_state=seed)
    splits = list(cv.split(np.zeros((n, 1))))
    roles = cv.split_roles()
    assert len(splits) == len(roles) == cv.get_n_splits() == j * (2 * m + 1)
    halves = {}
    for row in roles.itertuples():
        train, test = splits[row.split]
        assert not set(train.tolist()) & set(test.tolist())
        assert len(test) == n2
        if row.pair == -1:
            assert len(train) == n - n2
        else:
            assert len(train) == n // 2 - n2
            halves.setdefault((row.pair, row.half), set()).update(
                train.tolist() + test.tolist()
            )
    for p in range(m):
        assert not halves[(p, 0)] & halves[(p, 1)]
        assert len(halves[(p, 0)]) <= n // 2 and len(halves[(p, 1)]) <= n // 2


@pytest.mark.parametrize(
    "make",
    [
        lambda seed: NestedCV(3, n_repeats=2, random_state=seed),
        lambda seed: PairedSubsampling(3, n_pairs=2, random_state=seed),
    ],
    ids=["NestedCV", "PairedSubsampling"],
)
def test_int_seed_repeats_and_random_state_instance_advances(make):
    """H: an int random_state gives the same splits on every call; a RandomState
    instance gives new splits on the next call (sklearn's ShuffleSplit rule)."""
    cv = make(7)
    assert _splits(cv, 20) == _splits(cv, 20)
    cv = make(np.random.RandomState(7))
    assert _splits(cv, 20) != _splits(cv, 20)


def test_too_few_samples_name_x():
    """H: fewer rows than folds, or too few rows for the halves of paired
    subsampling, is a ValueError that names `X`."""
    with pytest.raises(ValueError, match="`X` has 2 rows"):
        list(NestedCV(3).split(np.zeros((2, 1))))
    with pytest.raises(ValueError, match="`X` has 6 rows"):
        list(PairedSubsampling(train_size=0.6).split(np.zeros((6, 1))))


def test_parameters_are_validated_in_split_with_sklearns_words():
    """H: a bad parameter fails at split/get_n_splits (not __init__) with
    scikit-learn's InvalidParameterError naming it."""
    cv = NestedCV(n_splits=2)
    with pytest.raises(InvalidParameterError, match="'n_splits' parameter"):
        cv.get_n_splits()
    with pytest.raises(InvalidParameterError, match="'train_size' parameter"):
        list(PairedSubsampling(train_size=0.4).split(np.zeros((10, 1))))


def test_usable_in_cross_validate():
    """H: scikit-learn's cross_validate runs on both splitters, one score per
    split."""
    X, y = make_classification(40, random_state=0)
    for cv in (NestedCV(3, n_repeats=1, random_state=0),
               PairedSubsampling(2, n_pairs=1, random_state=0)):  # fmt: skip
        res = cross_validate(LogisticRegression(), X, y, cv=cv)
        assert len(res["test_score"]) == cv.get_n_splits()
