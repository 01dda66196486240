"""The learners of a run with the parameters that tell them apart: every one that
differs from its default *or* between learners that have it (scikit-learn's repr
prints ``SelectKBest(k=10)`` as ``SelectKBest()``), read from the descriptions
the experiment records in ``result.info["learner_params"]``."""

import re

import pandas as pd

from ..store._provenance import is_estimator_description, is_named_steps

_ADDRESS = re.compile(r" at 0x[0-9a-fA-F]+>")
# Parameters stated even at their default: the ones a reader needs to know what
# was run (SelectKBest's k decides how many features a learner sees).
ALWAYS_STATED = {"SelectKBest": ("k",)}


def _is_steps(value):
    """A list of ``[name, estimator]`` pairs (Pipeline steps, transformers)."""
    return is_named_steps(value) and any(is_estimator_description(v[1]) for v in value)


def _short(path):
    return str(path).rsplit(".", 1)[-1]


def _structure(desc):
    """``Pipeline(SelectKBest, DiagonalLDA)`` or ``RandomForestClassifier``."""
    if not is_estimator_description(desc):
        return str(desc)
    inner = [
        _structure(step[1])
        for value in desc["params"].values()
        if _is_steps(value)
        for step in value
        if is_estimator_description(step[1])
    ]
    name = _short(desc["class"])
    return f"{name}({', '.join(inner)})" if inner else name


def _value_text(value):
    if is_estimator_description(value):
        return _structure(value)
    if isinstance(value, str) and re.fullmatch(r"[\w.]+\.\w+", value):
        return _short(value)  # a function or class path
    if isinstance(value, str):
        return _ADDRESS.sub(">", value)
    return repr(value)


def _flatten(desc, prefix="", recorded=None):
    """``{param path: (value, is_default, owner class)}`` of an estimator
    description, nested estimators and pipeline steps flattened with ``__``;
    ``recorded``: the defaults the run recorded, by class (a store is data: the
    classes it names are never imported to look them up)."""
    out = {}
    defaults = recorded.get(desc["class"]) if isinstance(recorded, dict) else None
    defaults = defaults if isinstance(defaults, dict) else {}
    for key, value in desc["params"].items():
        path = f"{prefix}{key}"
        if _is_steps(value):
            for step in value:
                if is_estimator_description(step[1]):
                    out.update(_flatten(step[1], f"{prefix}{step[0]}__", recorded))
            continue
        is_default = key in defaults and defaults[key] == value
        out[path] = (_value_text(value), is_default, desc["class"])
        if is_estimator_description(value):
            out.update(_flatten(value, f"{path}__", recorded))
    return out


def learner_table(result):
    """The learners of a result, by name: ``learner`` (the class, pipeline steps in
    parentheses) and ``parameters`` (``name=value`` of each one not at its default
    or differing between learners; without them, the recorded repr or ``""``)."""
    if not isinstance(getattr(result, "info", None), dict):
        raise TypeError(f"`result` must be a BenchmarkResult; got {result!r}.")
    recorded = result.info.get("learner_params") or {}
    reprs = result.info.get("learners") or {}
    defaults = result.info.get("learner_defaults")
    flat = {
        name: _flatten(recorded[name], recorded=defaults)
        for name in result.learners
        if is_estimator_description(recorded.get(name))
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
                if not is_default
                or (key, owner) in differ
                or key.rsplit("__", 1)[-1] in ALWAYS_STATED.get(_short(owner), ())
            ]
            rows.append((name, _structure(recorded[name]), ", ".join(shown)))
        else:
            rows.append((name, _ADDRESS.sub(">", reprs.get(name, "")), ""))
    return pd.DataFrame(rows, columns=["name", "learner", "parameters"]).set_index(
        "name"
    )
