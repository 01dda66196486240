"""The learners of a run with the parameters that tell them apart.

scikit-learn's repr shows only parameters that differ from their defaults, so
``SelectKBest(k=10)`` prints as ``SelectKBest()`` and two learners that differ
only in ``k`` look alike when one uses the default. The table here shows every
parameter that differs from its default *or* between learners that have it,
read from the full parameter descriptions the experiment records in
``result.info["learner_params"]``.
"""

import importlib
import importlib.util
import inspect
import os
import re
import sys

import pandas as pd

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")


def _is_estimator(desc):
    return isinstance(desc, dict) and set(desc) == {"class", "params"}


def _is_steps(value):
    """A list of ``[name, estimator]`` pairs (Pipeline steps, transformers)."""
    return (
        isinstance(value, list)
        and len(value) > 0
        and all(
            isinstance(v, list) and len(v) >= 2 and isinstance(v[0], str) for v in value
        )
        and any(_is_estimator(v[1]) for v in value)
    )


def _short(path):
    return str(path).rsplit(".", 1)[-1]


# The packages whose estimator classes a report may look up to read their
# defaults. A store or a results folder is data: the class names it records are
# never imported unless they name a module of these installed packages (or one
# this process has already imported), and nothing is ever called.
_TRUSTED_PACKAGES = ("sklearn", "sklearn_bench")
_DOTTED = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*")
# Modules of the trusted packages that act when imported (``python -m``
# entry points, tests, build and feature-switch scripts): never imported.
_NEVER = {"__main__", "conftest", "_build_utils", "experimental", "externals"}


def _trusted_module(module):
    """The module ``module`` if reading it can run no code the data chose:
    already imported, or a submodule of an installed trusted package found
    inside that package's own folder; else ``None``."""
    if not isinstance(module, str) or not _DOTTED.fullmatch(module):
        return None
    parts = module.split(".")
    if any(p in _NEVER or p.startswith("test") for p in parts):
        return None  # scripts, tests, build helpers: code run when imported
    if module in sys.modules:
        return sys.modules[module]
    top = module.split(".")[0]
    if top not in _TRUSTED_PACKAGES or top not in sys.modules:
        return None
    root = getattr(sys.modules[top], "__path__", None)
    try:
        spec = importlib.util.find_spec(module)
    except (ImportError, ValueError):
        return None
    origin = getattr(spec, "origin", None) if spec is not None else None
    if not origin or not root:
        return None
    if not any(
        os.path.realpath(origin).startswith(os.path.realpath(r) + os.sep) for r in root
    ):
        return None
    try:
        return importlib.import_module(module)
    except Exception:  # a broken installed module: no defaults, no crash
        return None


def _defaults(class_path):
    """Default parameter values of a class (described like the recorded ones),
    or ``{}`` when it is not a trusted estimator class (see
    :func:`_trusted_module`)."""
    from sklearn.base import BaseEstimator

    from ..experiment import describe

    module_name, _, name = str(class_path).rpartition(".")
    module = _trusted_module(module_name)
    cls = getattr(module, name, None) if module is not None else None
    if not (inspect.isclass(cls) and issubclass(cls, BaseEstimator)):
        return {}
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return {}
    return {
        key: describe(p.default)
        for key, p in signature.parameters.items()
        if p.default is not inspect.Parameter.empty
    }


def _structure(desc):
    """``Pipeline(SelectKBest, DiagonalLDA)`` or ``RandomForestClassifier``."""
    if not _is_estimator(desc):
        return str(desc)
    inner = [
        _structure(step[1])
        for value in desc["params"].values()
        if _is_steps(value)
        for step in value
        if _is_estimator(step[1])
    ]
    name = _short(desc["class"])
    return f"{name}({', '.join(inner)})" if inner else name


def _value_text(value):
    if _is_estimator(value):
        return _structure(value)
    if isinstance(value, str) and re.fullmatch(r"[\w.]+\.\w+", value):
        return _short(value)  # a function or class path
    if isinstance(value, str):
        return _ADDRESS.sub(">", value)
    return repr(value)


def _flatten(desc, prefix=""):
    """``{param path: (value, is_default, owner class)}`` of an estimator
    description, nested estimators and pipeline steps flattened with ``__``."""
    out = {}
    defaults = _defaults(desc["class"])
    for key, value in desc["params"].items():
        path = f"{prefix}{key}"
        if _is_steps(value):
            for step in value:
                if _is_estimator(step[1]):
                    out.update(_flatten(step[1], f"{prefix}{step[0]}__"))
            continue
        is_default = key in defaults and defaults[key] == value
        out[path] = (_value_text(value), is_default, desc["class"])
        if _is_estimator(value):
            out.update(_flatten(value, f"{path}__"))
    return out


def learner_table(result):
    """The learners of a result: what each is and the parameters that matter.

    Parameters
    ----------
    result : BenchmarkResult

    Returns
    -------
    DataFrame
        Index: learner names; columns ``learner`` (the class, with pipeline
        steps in parentheses) and ``parameters`` (``name=value`` for every
        parameter that is not at its default or differs between learners that
        have it). Without recorded parameters (a result from
        :meth:`BenchmarkResult.from_frame`), the recorded repr, or ``""``.

    Examples
    --------
    >>> from sklearn.feature_selection import SelectKBest
    >>> from sklearn.pipeline import make_pipeline
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bench.experiment import describe
    >>> from sklearn_bench.report._learners import learner_table
    >>> class Result:  # what learner_table reads of a BenchmarkResult
    ...     learners = ["k2", "k10"]
    ...     info = {"learner_params": {
    ...         f"k{k}": describe(make_pipeline(SelectKBest(k=k),
    ...                                         DecisionTreeClassifier()))
    ...         for k in (2, 10)}}
    >>> learner_table(Result())["parameters"].tolist()
    ['selectkbest__k=2', 'selectkbest__k=10']
    """
    if not isinstance(getattr(result, "info", None), dict):
        raise TypeError(f"`result` must be a BenchmarkResult; got {result!r}.")
    recorded = result.info.get("learner_params") or {}
    reprs = result.info.get("learners") or {}
    flat = {
        name: _flatten(recorded[name])
        for name in result.learners
        if _is_estimator(recorded.get(name))
    }
    # Parameters (of the same class at the same place) whose values differ
    # between the learners that have them.
    values = {}
    for params in flat.values():
        for key, (value, _, owner) in params.items():
            values.setdefault((key, owner), set()).add(value)
    differ = {key for key, seen in values.items() if len(seen) > 1}
    rows = []
    for name in result.learners:
        if name in flat:
            shown = [
                f"{key}={value}"
                for key, (value, is_default, owner) in flat[name].items()
                if not is_default or (key, owner) in differ
            ]
            rows.append((name, _structure(recorded[name]), ", ".join(shown)))
        else:
            rows.append((name, _ADDRESS.sub(">", reprs.get(name, "")), ""))
    return pd.DataFrame(rows, columns=["name", "learner", "parameters"]).set_index(
        "name"
    )
