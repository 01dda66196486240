"""The three learning problems of a benchmark (Hothorn et al., 2005, Section 3.2;
the user guide's "Three problems"): :class:`Dataset` (real world, or competition
with a fixed test sample) and :class:`SimulatedDataset` (simulation)."""

import numpy as np
from sklearn.utils.validation import _num_samples

from .._validation import check_positive_int, named_items

__all__ = ["Dataset", "SimulatedDataset"]

# The problems in plain words, for reports ("real world" is a term of art).
PROBLEM_WORDS = {
    "real world": "one learning sample, resampled (no separate test sample)",
    "competition": "learning sample resampled, scored on a fixed test sample",
    "simulation": "simulated: a fresh learning sample per replicate",
    "unknown": "unknown (results supplied as a table)",
}


def _n_rows(X, name):
    try:
        return _num_samples(X)
    except TypeError as exc:
        raise ValueError(
            f"`{name}` must be array-like with a first axis; {exc}"
        ) from exc


def _check_xy(X, y, x_name, y_name):
    n_x, n_y = _n_rows(X, x_name), _n_rows(y, y_name)
    if n_x != n_y:
        raise ValueError(
            f"`{x_name}` and `{y_name}` must have the same number of rows; got "
            f"{n_x} and {n_y}."
        )
    if n_x == 0:
        raise ValueError(f"`{x_name}` has no rows.")
    return n_x


class Dataset:
    """A learning sample, optionally with a fixed test sample.

    Without a test sample it poses the *real world* problem of Hothorn et al.
    (2005), the experiment's ``cv`` splitting the learning sample; with
    ``X_test`` and ``y_test`` the *competition* problem: learners fitted on the
    ``cv`` training parts are all scored on the fixed test sample.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
        The learning sample (numpy array or pandas DataFrame).
    y : array-like of shape (n_samples,)
        Its targets.
    X_test : array-like of shape (n_test, n_features), default=None
        A fixed test sample (competition problem).
    y_test : array-like of shape (n_test,), default=None
        Its targets; given exactly when ``X_test`` is.
    groups : array-like of shape (n_samples,), default=None
        Group labels passed to ``cv.split`` (e.g. for ``GroupKFold``).
    source : str, default=None
        Where the data come from, in words, for the report's data-set table and
        methods paragraph: above all whether measured or simulated, and by which
        model. Recorded with the run.

    Attributes
    ----------
    problem : {"real world", "competition"}
        Which learning problem this data set poses, in Hothorn et al.'s terms.
    n_samples : int
        Rows of the learning sample.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.datasets import Dataset
    >>> X, y = np.zeros((20, 3)), np.arange(20) % 2
    >>> Dataset(X, y).problem
    'real world'
    >>> Dataset(X, y, X_test=X[:5], y_test=y[:5]).problem
    'competition'
    """

    def __init__(self, X, y, *, X_test=None, y_test=None, groups=None, source=None):
        if source is not None and not isinstance(source, str):
            raise TypeError(f"`source` must be a str or None; got {source!r}.")
        self.source = source
        self.n_samples = _check_xy(X, y, "X", "y")
        if (X_test is None) != (y_test is None):
            raise ValueError("`X_test` and `y_test` must be given together.")
        if X_test is not None:
            _check_xy(X_test, y_test, "X_test", "y_test")
        if groups is not None and _n_rows(groups, "groups") != self.n_samples:
            raise ValueError("`groups` must have one entry per row of `X`.")
        self.X, self.y = _as_array_like(X), _as_array_like(y)
        self.X_test = None if X_test is None else _as_array_like(X_test)
        self.y_test = None if y_test is None else _as_array_like(y_test)
        self.groups = groups

    @property
    def problem(self):
        return "real world" if self.X_test is None else "competition"

    def __repr__(self):
        test = "" if self.X_test is None else f", n_test={_num_samples(self.X_test)}"
        return f"Dataset(n_samples={self.n_samples}{test})"


class SimulatedDataset:
    """A data generating process: fresh learning samples and one large test sample.

    The *simulation* problem of Hothorn et al. (2005): every learner is fitted on
    B learning samples of ``n_train`` rows and scored on one test sample of
    ``n_test`` rows; the experiment's ``cv`` is not used.

    Parameters
    ----------
    sampler : callable
        ``sampler(n_samples, random_state) -> (X, y)``. It must draw its rows only
        from ``random_state`` (an int seed, passed by the experiment): the
        experiment calls it again with the same seed for each learner rather
        than holding all learning samples in memory.
    n_train : int
        Rows of each learning sample.
    n_test : int
        Rows of the test sample.
    n_replicates : int
        Number of learning samples :math:`B`.
    source : str, default=None
        The data generating process in words, as for :class:`Dataset`.

    Attributes
    ----------
    problem : "simulation"

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.datasets import SimulatedDataset
    >>> def sampler(n_samples, random_state):
    ...     rng = np.random.default_rng(random_state)
    ...     X = rng.normal(size=(n_samples, 2))
    ...     return X, (X[:, 0] > 0).astype(int)
    >>> data = SimulatedDataset(sampler, n_train=50, n_test=1000, n_replicates=10)
    >>> data.problem
    'simulation'
    >>> X, y = data.sample(50, random_state=0)
    >>> X.shape
    (50, 2)
    """

    problem = "simulation"

    def __init__(self, sampler, n_train, n_test, n_replicates, *, source=None):
        if not callable(sampler):
            raise TypeError(f"`sampler` must be callable; got {sampler!r}.")
        self.sampler = sampler
        self.n_train = check_positive_int(n_train, "n_train")
        self.n_test = check_positive_int(n_test, "n_test")
        self.n_replicates = check_positive_int(n_replicates, "n_replicates")
        self.source = source

    def sample(self, n_samples, random_state):
        """``(X, y)``: ``n_samples`` rows that the sampler draws with the int seed
        ``random_state``, checked (a pair of arrays of that many rows)."""
        out = self.sampler(n_samples, random_state=random_state)
        if not (isinstance(out, tuple | list) and len(out) == 2):
            raise ValueError(
                f"`sampler` must return a tuple (X, y); got {type(out).__name__}."
            )
        X, y = out
        n = _check_xy(X, y, "X", "y")
        if n != n_samples:
            raise ValueError(f"`sampler` returned {n} rows when asked for {n_samples}.")
        return X, y

    def __repr__(self):
        name = getattr(self.sampler, "__name__", type(self.sampler).__name__)
        return (
            f"SimulatedDataset({name}, n_train={self.n_train}, n_test={self.n_test}, "
            f"n_replicates={self.n_replicates})"
        )


def check_datasets(datasets):
    """``datasets`` (a dict ``name -> Dataset | SimulatedDataset | (X, y)`` or a
    list of such pairs) as a checked dict ``name -> Dataset | SimulatedDataset``."""
    out = {}
    for name, data in named_items(
        datasets, "datasets", noun="data set", what="Dataset"
    ):
        if isinstance(data, tuple) and len(data) == 2:
            try:
                data = Dataset(*data)
            except ValueError as exc:
                raise ValueError(f"Data set {name!r}: {exc}") from exc
        if not isinstance(data, Dataset | SimulatedDataset):
            raise ValueError(
                f"Data set {name!r} must be a Dataset, a SimulatedDataset or a tuple "
                f"(X, y); got {type(data).__name__}."
            )
        out[name] = data
    return out


def _as_array_like(X):
    """Lists become arrays; numpy arrays and pandas objects pass through."""
    return X if hasattr(X, "shape") else np.asarray(X)
