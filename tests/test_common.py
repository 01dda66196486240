"""Checks run over every public estimator, splitter and function of the package."""

import inspect
import pickle

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import BaseCrossValidator, check_cv
from sklearn.utils.estimator_checks import parametrize_with_checks

import sklearn_bench.model_selection as ms
from sklearn_bench.estimators import DiagonalLDA
from sklearn_bench.model_selection import replicate_ids

# --- estimators (sklearn_bench.estimators) ------------------------------------


def _estimators():
    return [DiagonalLDA(), DiagonalLDA(priors="empirical")]


@parametrize_with_checks(_estimators())
def test_sklearn_compatible_estimator(estimator, check):
    """H: every public estimator follows scikit-learn's estimator API."""
    check(estimator)


# --- splitters (sklearn_bench.model_selection) --------------------------------

PUBLIC_SPLITTERS = [
    getattr(ms, name)
    for name in ms.__all__
    if inspect.isclass(getattr(ms, name))
    and issubclass(getattr(ms, name), BaseCrossValidator)
]
SPLITTER_IDS = [cls.__name__ for cls in PUBLIC_SPLITTERS]

X_COMMON = np.random.RandomState(0).normal(size=(24, 3))
Y_COMMON = np.array([0, 1, 2] * 8)


def _small(cls, random_state=0):
    """An instance with few splits (every public splitter takes these names)."""
    params = inspect.signature(cls).parameters
    kwargs = {"random_state": random_state}
    small = {"n_bootstraps": 3, "n_repeats": 2, "n_subsamples": 2, "n_pairs": 2}
    kwargs.update({k: v for k, v in small.items() if k in params})
    if "n_splits" in params:
        kwargs["n_splits"] = 3
    return cls(**kwargs)


def test_splitters_are_found():
    """H: the common checks see the four bootstrap splitters and the two designs
    of the generalization-error intervals."""
    assert {"BootstrapOOB", "BootstrapCV"} <= set(SPLITTER_IDS)
    assert {"StratifiedBootstrapOOB", "StratifiedBootstrapCV"} <= set(SPLITTER_IDS)
    assert {"NestedCV", "PairedSubsampling"} <= set(SPLITTER_IDS)


@pytest.mark.parametrize("cls", PUBLIC_SPLITTERS, ids=SPLITTER_IDS)
def test_init_only_stores_parameters(cls):
    """H: __init__ stores every argument under its own name and validates nothing;
    random_state is keyword-only."""
    params = inspect.signature(cls).parameters
    assert "random_state" in params
    assert params["random_state"].kind is inspect.Parameter.KEYWORD_ONLY
    odd = {name: object() for name in params}
    obj = cls(**odd)
    for name, value in odd.items():
        assert getattr(obj, name) is value


@pytest.mark.parametrize("cls", PUBLIC_SPLITTERS, ids=SPLITTER_IDS)
def test_repr_is_sklearns(cls):
    """H: the repr lists the constructor parameters in sklearn's sorted form."""
    obj = _small(cls)
    names = sorted(inspect.signature(cls).parameters)
    body = ", ".join(f"{n}={getattr(obj, n)!r}" for n in names)
    assert repr(obj) == f"{cls.__name__}({body})"


@pytest.mark.parametrize("cls", PUBLIC_SPLITTERS, ids=SPLITTER_IDS)
def test_split_protocol(cls):
    """H: split yields get_n_splits (train, test) pairs of valid integer indices with
    a non-empty validation set disjoint from training, and replicate_ids groups them
    in _n_splits_per_replicate blocks."""
    cv = _small(cls)
    splits = list(cv.split(X_COMMON, Y_COMMON))
    assert len(splits) == cv.get_n_splits(X_COMMON, Y_COMMON) == cv.get_n_splits()
    n = len(X_COMMON)
    for train, test in splits:
        assert train.dtype.kind == "i" and test.dtype.kind == "i"
        assert ((train >= 0) & (train < n)).all()
        assert len(test) > 0
        assert np.array_equal(test, np.unique(test))
        assert not np.isin(test, train).any()
    ids = replicate_ids(cv, X_COMMON, Y_COMMON)
    per = cv._n_splits_per_replicate()
    assert ids.tolist() == [i // per for i in range(len(splits))]


@pytest.mark.parametrize("cls", PUBLIC_SPLITTERS, ids=SPLITTER_IDS)
def test_int_seed_is_reproducible_and_groups_ignored(cls):
    """H: an int random_state gives the same splits on every call, with or without
    groups, and for a DataFrame / list input."""
    cv = _small(cls, random_state=3)
    first = [(a.tolist(), b.tolist()) for a, b in cv.split(X_COMMON, Y_COMMON)]
    again = [
        (a.tolist(), b.tolist())
        for a, b in cv.split(
            pd.DataFrame(X_COMMON), list(Y_COMMON), groups=np.arange(len(Y_COMMON))
        )
    ]
    assert first == again


@pytest.mark.parametrize("cls", PUBLIC_SPLITTERS, ids=SPLITTER_IDS)
def test_check_cv_passes_splitter_through_and_pickles(cls):
    """H: sklearn's check_cv accepts the splitter unchanged and it survives pickling
    (joblib workers receive it) with the same splits."""
    cv = _small(cls)
    assert check_cv(cv, Y_COMMON, classifier=True) is cv
    clone = pickle.loads(pickle.dumps(cv))
    a = [t.tolist() for _, t in cv.split(X_COMMON, Y_COMMON)]
    b = [t.tolist() for _, t in clone.split(X_COMMON, Y_COMMON)]
    assert a == b
