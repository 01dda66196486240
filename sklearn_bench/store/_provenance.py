"""Which runs may share (grow) one store: :func:`combine_configs`."""

from ._schema import StoreMismatchError


def config_diff(stored, current, prefix=""):
    """Paths at which two JSON-like configurations differ, with both values."""
    if isinstance(stored, dict) and isinstance(current, dict):
        out = []
        for key in list(dict.fromkeys([*stored, *current])):
            where = f"{prefix}[{key!r}]" if prefix else str(key)
            if key not in stored:
                out.append(f"{where}: not in the store, now {current[key]!r}")
            elif key not in current:
                out.append(f"{where}: {stored[key]!r} in the store, now absent")
            else:
                out.extend(config_diff(stored[key], current[key], where))
        return out
    if stored != current:
        return [f"{prefix}: {stored!r} in the store, now {current!r}"]
    return []


def is_estimator_description(value):
    """Whether ``value`` is ``{"class": ..., "params": ...}``."""
    return isinstance(value, dict) and set(value) == {"class", "params"}


def is_named_steps(value):
    """Whether ``value`` is a non-empty list of ``[name, estimator, ...]`` steps."""
    return (
        isinstance(value, list)
        and len(value) > 0
        and all(
            isinstance(item, list) and len(item) >= 2 and isinstance(item[0], str)
            for item in value
        )
    )


def _shown_value(value, width=60):
    if is_estimator_description(value):
        return value["class"].rsplit(".", 1)[-1] + "(...)"
    text = repr(value)
    return text if len(text) <= width else text[: width - 3] + "..."


def _join(prefix, name):
    return f"{prefix}__{name}" if prefix else str(name)


def param_changes(stored, current, prefix=""):
    """The parameters that differ between two stored learner descriptions, by
    their scikit-learn names (``["max_iter 300 -> 900"]``)."""
    if is_estimator_description(stored) and is_estimator_description(current):
        if stored["class"] != current["class"]:
            return [
                f"{prefix or 'class'} {_shown_value(stored)} -> {_shown_value(current)}"
            ]
        return param_changes(stored["params"], current["params"], prefix)
    if isinstance(stored, dict) and isinstance(current, dict):
        out = []
        for key in dict.fromkeys([*stored, *current]):
            old, new = stored.get(key, _ABSENT), current.get(key, _ABSENT)
            names = [item[0] for item in old] if is_named_steps(old) else None
            if names and is_named_steps(new) and names == [i[0] for i in new]:
                for a, b in zip(old, new, strict=True):  # steps: name__param
                    out.extend(param_changes(a[1], b[1], _join(prefix, a[0])))
                    if a[2:] != b[2:]:
                        out.append(
                            f"{_join(prefix, a[0])} (columns) "
                            f"{_shown_value(a[2:])} -> {_shown_value(b[2:])}"
                        )
            else:
                out.extend(param_changes(old, new, _join(prefix, key)))
        return out
    if (
        isinstance(stored, list)
        and isinstance(current, list)
        and len(stored) == len(current)
        and not (is_named_steps(stored) or is_named_steps(current))
    ):
        out = []
        for i, (a, b) in enumerate(zip(stored, current, strict=True)):
            out.extend(param_changes(a, b, f"{prefix}[{i}]"))
        return out
    if stored == current:
        return []
    shown = ["absent" if v is _ABSENT else _shown_value(v) for v in (stored, current)]
    return [f"{prefix or 'value'} {shown[0]} -> {shown[1]}"]


_ABSENT = object()


# What every run of a store shares; learners, data sets and splits may grow.
_GROWING = ("learners", "datasets", "splits", "cv")
_ADVICE = (
    "Results are never mixed: give a changed learner or data set a new name, "
    "pass `overwrite=True` to replace the store, or use another `store` path."
)


def _refuse(path, what, diff):
    shown = "\n  ".join(diff[:10])
    more = f"\n  ... and {len(diff) - 10} more" if len(diff) > 10 else ""
    raise StoreMismatchError(
        f"The store {str(path)!r} holds a run of another configuration ({what}). "
        f"Differences:\n  {shown}{more}\n{_ADVICE}"
    )


def combine_configs(stored, current, *, path):
    """The union of the learners, data sets and splits of ``stored`` and
    ``current`` when the rest is equal and each in both is the same; else a
    ``StoreMismatchError`` naming what differs."""
    shared = [k for k in dict.fromkeys([*stored, *current]) if k not in _GROWING]
    diff = config_diff(
        {k: stored[k] for k in shared if k in stored},
        {k: current[k] for k in shared if k in current},
    )
    if diff:
        _refuse(path, "settings shared by every run differ", diff)
    union = dict(stored)
    for key, kind in [("learners", "learner"), ("datasets", "data set")]:
        old, new = stored.get(key, {}), current.get(key, {})
        for name in new:
            if name in old:
                if key == "learners":  # only the keys that changed, by name
                    diff = [
                        f"{name}: {change}"
                        for change in param_changes(old[name], new[name])
                    ]
                else:
                    diff = config_diff(old[name], new[name], f"{key}[{name!r}]")
                if diff:
                    _refuse(path, f"{kind} {name!r} changed under its name", diff)
        union[key] = {**old, **{k: v for k, v in new.items() if k not in old}}
    old = stored.get("splits", {})
    new = current.get("splits", {})
    splits = dict(old)
    for name, prints in new.items():
        common = old.get(name, [])[: len(prints)]
        changed = [
            i for i, (a, b) in enumerate(zip(common, prints, strict=False)) if a != b
        ]
        if changed:
            _refuse(
                path,
                f"the splits of data set {name!r} differ: another `cv`",
                [f"splits[{name!r}][{i}]: other rows" for i in changed],
            )
        longer = old.get(name, [])
        splits[name] = prints if len(prints) >= len(longer) else longer
    if splits or "splits" in stored:
        union["splits"] = splits
    if "cv" in current:
        union["cv"] = current["cv"]  # provenance; the splits decide
    return union


def _union_result(stored, current):
    """Metrics, data sets, learners and provenance of a grown store."""
    old, new = stored.get("info", {}), current.get("info", {})
    info = {**old, **new}
    for key, value in new.items():  # per-learner / per-data-set maps: union
        if isinstance(value, dict) and isinstance(old.get(key), dict):
            info[key] = {**old[key], **value}
    return {
        "metrics": stored["metrics"],
        "datasets": {**stored["datasets"], **current["datasets"]},
        "learners": list(dict.fromkeys([*stored["learners"], *current["learners"]])),
        "info": info,
    }
