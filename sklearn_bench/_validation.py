"""The one home of argument checks and the random-state resolver (bottom layer:
imports nothing of the package); tested in ``tests/test_validation.py``."""

import numbers
import warnings

import numpy as np


def first_non_numeric(X):
    """The first non-number cell of a table of features, ``(column, row, value)``
    (a DataFrame's column label, else its position), or ``None``: the one check of
    the API's pre-flight and the CLI's CSV reader. Text that reads as a number and
    missing values pass, and so does a column of pandas' ``category`` dtype."""
    import pandas as pd

    if isinstance(X, pd.DataFrame):
        columns = [(label, X.iloc[:, at]) for at, label in enumerate(X.columns)]
    else:
        values = np.asarray(X, dtype=object) if not hasattr(X, "dtype") else X
        if getattr(values, "ndim", 0) != 2 or values.dtype.kind in "biufc":
            return None
        columns = [(at, pd.Series(values[:, at])) for at in range(values.shape[1])]
    for label, column in columns:
        if isinstance(column.dtype, pd.CategoricalDtype) or (
            pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column)
        ):
            continue
        try:
            numbers = pd.to_numeric(column, errors="coerce").isna().to_numpy()
        except (TypeError, ValueError):  # cells that are lists, dicts, ...
            numbers = np.ones(len(column), dtype=bool)
        bad = np.flatnonzero(numbers & column.notna().to_numpy())
        if bad.size:
            return label, int(bad[0]), column.iloc[bad[0]]
    return None


def real_number(value, name):
    """``value`` as a float (infinite and NaN pass), or a ``TypeError`` naming the
    argument for strings, ``None``, complex numbers, booleans and sequences."""
    if isinstance(value, np.ndarray) and value.ndim == 0:
        value = value[()]
    if isinstance(value, bool | np.bool_) or not isinstance(value, numbers.Real):
        raise TypeError(
            f"`{name}` must be a real number; got {value!r} ({type(value).__name__})."
        )
    return float(value)


def real_array(values, name):
    """``values`` as a float array, or a ``ValueError`` naming the argument for
    strings, ragged nesting and complex numbers."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", np.exceptions.ComplexWarning)
            if np.iscomplexobj(values):
                raise TypeError("complex numbers")
            if isinstance(values, str | bytes) or np.asarray(values).dtype.kind in "US":
                raise TypeError(f"text {values!r}")
            return np.asarray(values, dtype=float)
    except (TypeError, ValueError, np.exceptions.ComplexWarning) as exc:
        message = str(exc).splitlines()[0]
        raise ValueError(
            f"`{name}` must be an array of real numbers: {message}"
        ) from None


def check_real(value, name):
    """``value`` as a finite float; ``TypeError`` for a non-number (bools too)."""
    value = real_number(value, name)
    if not np.isfinite(value):
        raise ValueError(f"`{name}` must be finite; got {value!r}.")
    return value


def check_alpha(alpha, name="alpha"):
    """The significance level of a test, a number in (0, 1)."""
    if isinstance(alpha, bool | np.bool_) or not isinstance(alpha, numbers.Real):
        raise TypeError(f"`{name}` must be a number in (0, 1); got {alpha!r}.")
    if not 0 < alpha < 1:
        raise ValueError(f"`{name}` must be a number in (0, 1); got {alpha!r}.")
    return float(alpha)


def check_fraction(value, name):
    """``value`` as a float strictly between 0 and 1 (a level, a power, ...)."""
    value = real_number(value, name)
    if not 0 < value < 1:
        raise ValueError(f"`{name}` must lie strictly between 0 and 1; got {value!r}.")
    return value


def check_confidence_level(confidence_level, name="confidence_level"):
    """The level of an interval, a number strictly between 0 and 1."""
    return check_fraction(confidence_level, name)


def check_choice(value, choices, name):
    """``value`` lower-cased, if it is one of ``choices`` (strings)."""
    if not isinstance(value, str) or value.lower() not in choices:
        raise ValueError(f"`{name}` must be one of {list(choices)}; got {value!r}.")
    return value.lower()


def check_member(value, choices, name):
    """``value`` as given, if it is one of ``choices`` (no case folding)."""
    if value not in choices:
        raise ValueError(f"`{name}` must be one of {list(choices)}; got {value!r}.")
    return value


def named_items(items, name, *, noun, what):
    """The ``(key, item)`` pairs of a dict or a list of pairs (``name`` the
    argument; ``noun`` and ``what`` what an item is), checked as they are yielded:
    a ``ValueError`` for any other value, none, a key that is not a string or that
    repeats (the first problem in their order is the one reported)."""
    if isinstance(items, dict):
        items = list(items.items())
    elif not (
        isinstance(items, list | tuple)
        and all(isinstance(p, tuple) and len(p) == 2 for p in items)
    ):
        raise ValueError(
            f"`{name}` must be a dict name -> {what} or a list of (name, {what}) "
            f"pairs; got {type(items).__name__}."
        )
    if not items:
        raise ValueError(f"`{name}` is empty.")
    seen = set()
    for key, item in items:
        if not isinstance(key, str):  # an array (X of a list of (X, y)): its type
            simple = key is None or isinstance(key, int | float)
            shown = repr(key) if simple else type(key).__name__
            raise ValueError(
                f"{noun.capitalize()} names must be strings; got {shown} (a list "
                f"holds (name, {what}) pairs, e.g. [('name', {what})])."
            )
        if key in seen:
            raise ValueError(f"Duplicate {noun} name {key!r} in `{name}`.")
        seen.add(key)
        yield key, item


def check_positive_int(value, name, minimum=1):
    """An integer (not a bool) of at least ``minimum``."""
    if (
        isinstance(value, bool | np.bool_)
        or not isinstance(value, numbers.Integral)
        or value < minimum
    ):
        what = "a positive integer" if minimum == 1 else f"an integer >= {minimum}"
        raise ValueError(f"`{name}` must be {what}; got {value!r}.")
    return int(value)


def check_n_jobs(n_jobs):
    """``None`` or a non-zero integer (not a bool), as joblib takes ``n_jobs``."""
    if n_jobs is not None and (
        isinstance(n_jobs, bool | np.bool_)
        or not isinstance(n_jobs, numbers.Integral)
        or n_jobs == 0
    ):
        raise ValueError(
            f"`n_jobs` must be None or a non-zero integer; got {n_jobs!r}."
        )
    return n_jobs


def check_bool(value, name):
    """A bool (numpy's too); ``TypeError`` otherwise."""
    if not isinstance(value, bool | np.bool_):
        raise TypeError(f"`{name}` must be a bool; got {value!r}.")
    return bool(value)


def check_axis(axis, ndim, name="axis"):
    """``axis`` as a non-negative int for an array of ``ndim`` dimensions."""
    if isinstance(axis, bool | np.bool_) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer; got {axis!r}.")
    if not -ndim <= axis < ndim:
        raise ValueError(
            f"`{name}` = {axis} is out of bounds for arrays of {ndim} dimension(s)."
        )
    return int(axis) % ndim


def check_random_state(random_state, *, keep_random_state=False):
    """A :class:`numpy.random.Generator` from None, an int, a Generator or a
    ``RandomState`` (a Generator on its bit generator, so the same seed gives the
    same draws; returned as it is with ``keep_random_state``)."""
    if isinstance(random_state, np.random.Generator):
        return random_state
    if isinstance(random_state, np.random.RandomState):
        if keep_random_state:
            return random_state
        return np.random.Generator(random_state._bit_generator)
    if random_state is None or (
        isinstance(random_state, numbers.Integral)
        and not isinstance(random_state, bool | np.bool_)
    ):
        return np.random.default_rng(random_state)
    raise ValueError(
        "`random_state` must be None, an int, a numpy Generator or RandomState; "
        f"got {random_state!r}."
    )


def sklearn_random_state(random_state):
    """scikit-learn's ``check_random_state`` (a ``RandomState``, as sklearn's
    splitters and ``make_*`` draw), its error naming ``random_state``."""
    from sklearn.utils import check_random_state as sklearn_check

    try:
        return sklearn_check(random_state)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"`random_state`: {exc}") from None


def check_saved_metadata(meta, file, *, version):
    """The fields of a saved result's ``metadata.json`` (``meta``, read from
    ``file``), each checked against its type: ``(metrics {name: greater},
    datasets {name: problem}, learners, info)``, or a ``ValueError`` naming
    ``file`` and the first wrong field (not a deep ``KeyError``: exit 2, not 1)."""

    def fail(field, what):
        raise ValueError(
            f"{file}: `{field}` {what}: damaged, or not written by "
            "BenchmarkResult.save."
        )

    if not isinstance(meta, dict):
        fail("metadata", "is not an object")
    got = meta.get("format_version")
    if type(got) is not type(version) or got != version:
        raise ValueError(
            f"{file}: `format_version` says format version {got!r} (a "
            f"{type(got).__name__}); this sklearn_bench reads {version!r} (an "
            f"{type(version).__name__})."
        )
    if meta.get("file_format") not in ("csv", "parquet"):
        fail("file_format", "is not 'csv' or 'parquet'")
    for key in ("has_predictions", "has_losses"):
        if type(meta.get(key, False)) is not bool:
            fail(key, "is not true or false")

    def named(key, field, types):
        items = meta.get(key)
        if not isinstance(items, list) or not items:
            fail(key, "is not a non-empty list")
        out = {}
        for i, item in enumerate(items):
            if not isinstance(item, dict) or type(item.get("name")) is not str:
                fail(f"{key}[{i}].name", "is not a name")
            if not isinstance(item.get(field), types):
                fail(f"{key}[{i}].{field}", f"is not a {types.__name__}")
            if item["name"] in out:
                fail(f"{key}[{i}].name", f"repeats {item['name']!r}")
            out[item["name"]] = item[field]
        return out

    metrics = named("metrics", "greater_is_better", bool)
    datasets = named("datasets", "problem", str)
    learners = meta.get("learners")
    if not isinstance(learners, list) or not all(type(m) is str for m in learners):
        fail("learners", "is not a list of names")
    problem = info_problem(meta.get("info", {}))
    if problem is not None:
        fail(problem, "is not an object")
    return metrics, datasets, learners, meta.get("info", {})


def info_problem(info):
    """The field of a run's ``info`` (of a store or a results folder) that is
    not of its type, as ``"info.KEY"``, or ``None``: ``info`` and the entries
    the analyses read (``analysis``, ``dataset_sizes``, ``dataset_sources``,
    ``split_roles``) are objects."""
    if not isinstance(info, dict):
        return "info"
    for key in ("analysis", "dataset_sizes", "dataset_sources", "split_roles"):
        if not isinstance(info.get(key) or {}, dict):
            return f"info.{key}"
    return None
