import numpy as np
import pandas as pd
import pytest

from sklearn_bench.datasets import Dataset, SimulatedDataset
from sklearn_bench.datasets._dataset import check_datasets


def _sampler(n_samples, random_state):
    rng = np.random.default_rng(random_state)
    X = rng.normal(size=(n_samples, 2))
    return X, (X[:, 0] > 0).astype(int)


def test_dataset_problem_types_and_pandas_input():
    """H: without a test sample a Dataset is the real world problem, with one the
    competition problem; pandas inputs are kept as they are."""
    X = pd.DataFrame({"a": range(10), "b": range(10)})
    y = pd.Series([0, 1] * 5)
    real = Dataset(X, y)
    assert real.problem == "real world" and real.X is X and real.n_samples == 10
    comp = Dataset(X, y, X_test=X.iloc[:4], y_test=y.iloc[:4])
    assert comp.problem == "competition"
    assert repr(comp) == "Dataset(n_samples=10, n_test=4)"
    assert isinstance(Dataset([[1], [2]], [0, 1]).X, np.ndarray)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"X": np.zeros((5, 2)), "y": np.zeros(4)}, "`X` and `y` must have the same"),
        ({"X": np.zeros((0, 2)), "y": np.zeros(0)}, "`X` has no rows"),
        (
            {"X": np.zeros((5, 2)), "y": np.zeros(5), "X_test": np.zeros((2, 2))},
            "`X_test` and `y_test` must be given together",
        ),
        (
            {
                "X": np.zeros((5, 2)),
                "y": np.zeros(5),
                "X_test": np.zeros((2, 2)),
                "y_test": np.zeros(3),
            },
            "`X_test` and `y_test` must have the same",
        ),
        (
            {"X": np.zeros((5, 2)), "y": np.zeros(5), "groups": np.zeros(4)},
            "`groups` must have one entry per row",
        ),
    ],
)
def test_dataset_rejects_inconsistent_input(kwargs, match):
    """H: inconsistent lengths or a half-given test sample raise a ValueError."""
    with pytest.raises(ValueError, match=match):
        Dataset(**kwargs)


def test_simulated_dataset_samples_reproducibly():
    """H: sample() calls the sampler with the given seed, so equal seeds give equal
    samples and different seeds different ones."""
    data = SimulatedDataset(_sampler, n_train=20, n_test=100, n_replicates=3)
    X1, y1 = data.sample(20, random_state=1)
    X2, _ = data.sample(20, random_state=1)
    X3, _ = data.sample(20, random_state=2)
    assert X1.shape == (20, 2) and y1.shape == (20,)
    np.testing.assert_array_equal(X1, X2)
    assert not np.array_equal(X1, X3)
    assert data.problem == "simulation"
    assert repr(data) == (
        "SimulatedDataset(_sampler, n_train=20, n_test=100, n_replicates=3)"
    )


@pytest.mark.parametrize(
    "args, error, match",
    [
        (("nope", 10, 10, 2), TypeError, "`sampler` must be callable"),
        ((_sampler, 0, 10, 2), ValueError, "`n_train` must be a positive integer"),
        ((_sampler, 10, 2.5, 2), ValueError, "`n_test` must be a positive integer"),
        ((_sampler, 10, 10, True), ValueError, "`n_replicates` must be a positive"),
    ],
)
def test_simulated_dataset_rejects_bad_arguments(args, error, match):
    """H: a non-callable sampler or non-positive sizes are refused."""
    with pytest.raises(error, match=match):
        SimulatedDataset(*args)


def test_simulated_dataset_checks_what_the_sampler_returns():
    """H: a sampler returning the wrong number of rows or not a pair is caught."""
    short = SimulatedDataset(lambda n, random_state: _sampler(n - 1, random_state),
                             n_train=5, n_test=5, n_replicates=1)  # fmt: skip
    with pytest.raises(ValueError, match="returned 4 rows when asked for 5"):
        short.sample(5, random_state=0)
    single = SimulatedDataset(lambda n, random_state: np.zeros((n, 2)), 5, 5, 1)
    with pytest.raises(ValueError, match="must return a tuple"):
        single.sample(5, random_state=0)


def test_check_datasets_accepts_pairs_and_refuses_duplicates():
    """H: (X, y) tuples become Datasets, names must be unique strings."""
    X, y = np.zeros((4, 1)), np.array([0, 1, 0, 1])
    out = check_datasets([("a", (X, y)), ("b", Dataset(X, y))])
    assert list(out) == ["a", "b"] and isinstance(out["a"], Dataset)
    with pytest.raises(ValueError, match="Duplicate data set name 'a'"):
        check_datasets([("a", (X, y)), ("a", (X, y))])
    with pytest.raises(ValueError, match="Data set 'a': `X` and `y`"):
        check_datasets({"a": (X, y[:3])})
    with pytest.raises(ValueError, match="must be a Dataset"):
        check_datasets({"a": X})
    with pytest.raises(ValueError, match="`datasets` is empty"):
        check_datasets({})


def test_check_datasets_reports_the_first_problem_in_order():
    """H: names and data are checked pair by pair, so the first bad pair decides
    the message: bad data before a later non-string name, and a non-string name
    before later bad data."""
    X, y = np.zeros((4, 1)), np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="Data set 'a' must be a Dataset"):
        check_datasets([("a", X), (1, (X, y))])
    with pytest.raises(ValueError, match="Data set names must be strings; got 1"):
        check_datasets([(1, (X, y)), ("a", X)])
    with pytest.raises(ValueError, match="Data set 'b' must be a Dataset"):
        check_datasets([("a", (X, y)), ("b", X), ("b", X)])
