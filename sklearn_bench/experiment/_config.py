"""The configuration of an experiment as JSON-safe data, to compare runs in a store
(:func:`~sklearn_bench.store._provenance.combine_configs`)."""

import functools
import hashlib
import platform
import re
from numbers import Integral

import joblib
import numpy as np
import pandas as pd
import scipy
import sklearn

from .._version import __version__
from ..datasets import SimulatedDataset

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+")


def describe(value):
    """A JSON-safe description of a value, the same in every process (estimators
    by class and parameters, arrays by a hash, no memory addresses)."""
    if hasattr(value, "get_params") and not isinstance(value, type):
        params = value.get_params(deep=False)
        return {
            "class": _qualname(type(value)),
            "params": {key: describe(params[key]) for key in sorted(params)},
        }
    if isinstance(value, dict):
        return {str(key): describe(val) for key, val in value.items()}
    if isinstance(value, list | tuple):
        return [describe(val) for val in value]
    if isinstance(value, np.ndarray | pd.DataFrame | pd.Series):
        return array_fingerprint(value)
    if isinstance(value, functools.partial):
        return {
            "partial": describe(value.func),
            "args": describe(list(value.args)),
            "keywords": describe(dict(value.keywords)),
        }
    if isinstance(value, type) or (callable(value) and hasattr(value, "__qualname__")):
        return _qualname(value)
    if value is None or isinstance(value, bool | str):
        return value
    if isinstance(value, Integral):
        return int(value)
    if isinstance(value, float | np.floating):
        return repr(float(value))  # JSON has no NaN or inf
    return _ADDRESS.sub("", repr(value))


def _qualname(obj):
    return f"{getattr(obj, '__module__', '?')}.{getattr(obj, '__qualname__', obj)}"


def class_defaults(estimators):
    """The defaults of every estimator class in ``estimators`` (nested too), by
    class path: a report reads them, never imports a class a store names."""
    import inspect

    from sklearn.base import BaseEstimator

    out = {}

    def visit(value):
        if isinstance(value, BaseEstimator):
            cls = type(value)
            path = _qualname(cls)
            if path not in out:
                try:
                    parameters = inspect.signature(cls).parameters
                except (TypeError, ValueError):
                    parameters = {}
                out[path] = {
                    key: describe(p.default)
                    for key, p in parameters.items()
                    if p.default is not inspect.Parameter.empty
                }
            for param in value.get_params(deep=False).values():
                visit(param)
        elif isinstance(value, list | tuple | dict):
            for item in value.values() if isinstance(value, dict) else value:
                visit(item)

    for estimator in estimators:
        visit(estimator)
    return out


def array_fingerprint(X):
    """Shape and SHA-256 of an array (pandas: of its values and labels)."""
    if isinstance(X, pd.DataFrame | pd.Series):
        digest = hashlib.sha256(
            pd.util.hash_pandas_object(X, index=True).to_numpy().tobytes()
        )
        labels = list(X.columns) if isinstance(X, pd.DataFrame) else [X.name]
        digest.update(repr([str(c) for c in labels]).encode())
        digest.update(repr(list(X.dtypes.astype(str)) if X.ndim == 2 else []).encode())
    else:
        X = np.asarray(X)
        if X.dtype.hasobject:
            digest = hashlib.sha256(joblib.hash(X).encode())
        else:
            digest = hashlib.sha256(np.ascontiguousarray(X).tobytes())
        digest.update(str(X.dtype).encode())
    return {"shape": list(np.shape(X)), "sha256": digest.hexdigest()}


def dataset_fingerprint(data, plan):
    """What identifies a data set: its arrays, or a simulation's sampler, sizes
    and test sample (not its replicates: those are splits)."""
    if isinstance(data, SimulatedDataset):
        return {
            "problem": data.problem,
            "sampler": describe(data.sampler),
            "n_train": data.n_train,
            "n_test": data.n_test,
            "X_test": array_fingerprint(plan["X_test"]),
            "y_test": array_fingerprint(plan["y_test"]),
        }
    out = {"problem": data.problem}
    for name in ["X", "y", "X_test", "y_test", "groups"]:
        value = getattr(data, name)
        out[name] = None if value is None else array_fingerprint(value)
    return out


def split_fingerprints(plan):
    """SHA-256 of each split's rows, replicate and fold (whatever ``cv`` made it)."""
    out = []
    for train, test, replicate, fold in plan["splits"]:
        digest = hashlib.sha256(np.ascontiguousarray(train, dtype="<i8").tobytes())
        digest.update(b"|")
        if test is not None:
            digest.update(np.ascontiguousarray(test, dtype="<i8").tobytes())
        digest.update(f"|{int(replicate)}|{int(fold)}".encode())
        out.append(digest.hexdigest()[:32])
    return out


def versions():
    """Versions of Python and the packages that compute the scores."""
    return {
        "python": platform.python_version(),
        "sklearn_bench": __version__,
        "scikit-learn": sklearn.__version__,
        "numpy": np.__version__,
        "scipy": scipy.__version__,
        "pandas": pd.__version__,
    }


def experiment_config(experiment, setup):
    """The JSON-safe configuration of ``experiment`` on its prepared ``setup``."""
    cv = setup["cv"]
    if isinstance(cv, list):  # an iterable of splits, read once
        cv = {"splits": describe([[np.asarray(a) for a in s] for s in cv])}
    else:
        cv = describe(cv)
    return {
        "learners": {n: describe(e) for n, e in setup["learners"].items()},
        "cv": cv,
        "metrics": {
            name: {
                "scorer": describe(m.scorer),
                "greater_is_better": m.greater_is_better,
                "task": m.task,
                "binary_only": m.binary_only,
            }
            for name, m in setup["metrics"].items()
        },
        "seed": setup["seed"],
        "error_score": describe(experiment.error_score),
        "keep_predictions": bool(experiment.keep_predictions),
        "datasets": {
            name: dataset_fingerprint(data, setup["plans"][name])
            for name, data in setup["datasets"].items()
        },
        "versions": versions(),
        "splits": {
            name: split_fingerprints(plan) for name, plan in setup["plans"].items()
        },
    }
