import numpy as np
import pytest
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    LeaveOneOut,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    ShuffleSplit,
    StratifiedKFold,
    StratifiedShuffleSplit,
    TimeSeriesSplit,
)

from sklearn_bench.model_selection import (
    BootstrapCV,
    BootstrapOOB,
    StratifiedBootstrapCV,
    StratifiedBootstrapOOB,
    replicate_ids,
)

X = np.zeros((12, 2))
y = np.array([0, 1] * 6)
groups = np.repeat(np.arange(6), 2)


@pytest.mark.parametrize(
    "cv, expected",
    [
        (RepeatedKFold(n_splits=3, n_repeats=2, random_state=0), [0, 0, 0, 1, 1, 1]),
        (
            RepeatedStratifiedKFold(n_splits=2, n_repeats=3, random_state=0),
            [0, 0, 1, 1, 2, 2],
        ),
        (KFold(n_splits=4), [0, 0, 0, 0]),
        (StratifiedKFold(n_splits=3), [0, 0, 0]),
        (GroupKFold(n_splits=3), [0, 0, 0]),
        (ShuffleSplit(n_splits=3, random_state=0), [0, 1, 2]),
        (StratifiedShuffleSplit(n_splits=2, test_size=4, random_state=0), [0, 1]),
        (LeaveOneOut(), list(range(12))),
        (TimeSeriesSplit(n_splits=3), [0, 1, 2]),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, list) else "",
)
def test_replicate_ids_of_sklearn_splitters(cv, expected):
    """H: each sklearn splitter family maps its splits to replicates by the documented
    rule, with one id per split that cv.split yields."""
    g = groups if isinstance(cv, GroupKFold) else None
    ids = replicate_ids(cv, X, y, g)
    assert ids.tolist() == expected
    assert len(ids) == sum(1 for _ in cv.split(X, y, g))


def test_replicate_ids_of_an_iterable_of_splits():
    """H: a plain list of (train, test) pairs is one replicate per split."""
    splits = [(np.arange(6), np.arange(6, 12)), (np.arange(6, 12), np.arange(6))]
    assert replicate_ids(splits, X).tolist() == [0, 1]


def test_replicate_ids_rejects_non_splitter():
    """H: something that is neither a splitter nor an iterable of splits is refused."""
    with pytest.raises(ValueError, match="`cv` must be a cross-validation splitter"):
        replicate_ids(5, X)


@pytest.mark.parametrize(
    "cv, expected",
    [
        (BootstrapOOB(3, random_state=0), [0, 1, 2]),
        (StratifiedBootstrapOOB(2, random_state=0), [0, 1]),
        (BootstrapCV(2, 3, random_state=0), [0, 0, 0, 1, 1, 1]),
        (StratifiedBootstrapCV(3, 2, random_state=0), [0, 0, 1, 1, 2, 2]),
    ],
    ids=lambda v: type(v).__name__ if not isinstance(v, list) else "",
)
def test_replicate_ids_of_bootstrap_splitters(cv, expected):
    """H: replicate_ids gives one id per OOB split and n_folds consecutive ids per
    BootstrapCV replicate."""
    X20, y20 = np.zeros((20, 1)), np.arange(20) % 2
    ids = replicate_ids(cv, X20, y20)
    assert ids.tolist() == expected
    assert len(ids) == sum(1 for _ in cv.split(X20, y20))
