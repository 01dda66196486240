"""Read and validate the TOML configuration of ``sklearn-bench run``: everything is
checked before anything runs, and :func:`parse_config` raises one
:class:`ConfigError` listing every problem, one line each naming its key."""

import importlib
import importlib.util
import inspect
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - python 3.10
    import tomli as tomllib

from .._validation import first_non_numeric
from ..analysis import AnalysisPlan
from ..analysis._plan import plan_settings

_TOP_KEYS = {"experiment", "learners", "datasets", "analysis", "output", "sequential"}
# ``[experiment.cv] kind = ...``: the splitters of the intervals of a learner's
# error (the method each gives is in BenchmarkResult.confidence_interval), by
# name; ``params`` as for ``class``. A holdout is one random split.
CV_KINDS = {
    "nested_cv": ("sklearn_bench.model_selection.NestedCV", {}),
    "paired_subsampling": ("sklearn_bench.model_selection.PairedSubsampling", {}),
    "subsampling": ("sklearn.model_selection.ShuffleSplit", {}),
    "holdout": ("sklearn.model_selection.ShuffleSplit", {"n_splits": 1}),
    "kfold": ("sklearn.model_selection.KFold", {}),
    "repeated_kfold": ("sklearn.model_selection.RepeatedKFold", {}),
    "bootstrap": ("sklearn_bench.model_selection.BootstrapOOB", {}),
}
_LEARNER_KEYS = {"class", "params", "steps"}
_OBJECT_KEYS = {"class", "params"}
_DATASET_SOURCES = ("sklearn", "csv", "openml")
_DATASET_KEYS = {
    "sklearn": {"sklearn", "classes"},
    "csv": {"csv", "target", "classes", "sep"},
    "openml": {"openml", "version", "classes"},
}
# The [analysis] keys: the plan's settings, each by its config name ("run" for
# the analyses), as AnalysisPlan declares them.
PLAN_KEYS = {f.metadata["key"] or f.name: f.name for f in plan_settings()}
_OUTPUT_KEYS = {"dir", "figure_formats", "title"}


class ConfigError(ValueError):
    """Configuration problems: one line per problem, each naming its key."""


@dataclass
class DatasetSpec:
    """Where a data set comes from; :meth:`load` reads it."""

    name: str
    source: str
    location: object
    target: str | None = None
    classes: list | None = None
    sep: str = ","
    version: object = None

    def load(self):
        """The :class:`~sklearn_bench.datasets.Dataset`; :class:`ConfigError`
        naming the key, file and column when the data cannot make one."""
        import numpy as np
        import pandas as pd
        from sklearn import datasets as skd

        from ..datasets import Dataset

        key = f"datasets.{self.name}"
        if self.source == "sklearn":  # a loader that _dataset checked
            X, y = getattr(skd, self.location)(return_X_y=True)
            where = f"scikit-learn's {self.location}"
        elif self.source == "csv":
            X, y = _read_csv(self, key)
            where = Path(self.location).name
        else:
            kwargs = {"data_id": self.location, "return_X_y": True, "as_frame": True}
            if self.version is not None:
                kwargs["version"] = self.version
            X, y = skd.fetch_openml(**kwargs)
            X = pd.get_dummies(X).to_numpy(dtype=float)
            y = y.to_numpy()
            where = f"OpenML data set {self.location}"
        missing = np.flatnonzero(pd.isna(y))
        if len(missing):
            csv = self.source == "csv"
            rows = (
                f"line(s) {_first(missing + 2)}" if csv else f"rows {_first(missing)}"
            )
            _fail(
                f"{key}.target" if csv else key,
                f"the labels of data set {self.name!r} ({where}) have "
                f"{len(missing)} missing value(s) ({rows}); drop or fill those rows",
            )
        if self.classes is not None:
            present = list(pd.unique(y))
            absent = [c for c in self.classes if not np.isin(c, y)]
            if absent:
                _fail(
                    f"{key}.classes",
                    f"label(s) {absent} are absent from the labels of data set "
                    f"{self.name!r} ({where}); its labels are "
                    f"{_first(sorted(present, key=str), 20)}",
                )
            keep = np.isin(y, self.classes)
            X, y = X[keep], y[keep]
        return Dataset(X, y)


def _first(values, n=10):
    """A list for a message: at most ``n`` entries, then how many more."""
    values = [v.item() if hasattr(v, "item") else v for v in values]
    more = f" and {len(values) - n} more" if len(values) > n else ""
    return f"{values[:n]}{more}"


def _read_csv(spec, key):
    """Features (float) and labels of a CSV data set, naming what is wrong."""
    import pandas as pd

    path = Path(spec.location)
    try:
        frame = pd.read_csv(path, sep=spec.sep)
    except (pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
        _fail(f"{key}.csv", f"{path} cannot be read as CSV: {exc}")
    if frame.empty:
        _fail(f"{key}.csv", f"{path} has a header but no data rows")
    y = frame.pop(spec.target).to_numpy()
    text = first_non_numeric(frame)  # the API's pre-flight check too
    if text is not None:
        column, row, value = text
        _fail(
            f"{key}.csv",
            f"column {column!r} of {path.name} is not numeric ({value!r} on line "
            f"{row + 2}); encode it as numbers or drop it",
        )
    return frame.apply(pd.to_numeric).to_numpy(dtype=float), y


@dataclass
class RunConfig:
    """A validated configuration of ``sklearn-bench run``."""

    learners: dict
    datasets: dict
    experiment: dict
    # the analysis plan of [analysis], and the settings the file names
    plan: AnalysisPlan = field(default_factory=AnalysisPlan)
    plan_keys: tuple = ()
    out_dir: Path | None = None  # None: ./sklearn_bench_report, never a link
    figure_formats: tuple = ("svg",)
    title: str = "Benchmark report"
    sequential: dict = field(default_factory=dict)  # [sequential]: for --sequential
    source: Path | None = field(default=None, repr=False)


def _fail(key, message):
    raise ConfigError(f"config key `{key}`: {message}")


def _check_keys(table, allowed, key):
    if not isinstance(table, dict):
        _fail(key, f"expected a table, got {type(table).__name__} {table!r}")
    unknown = sorted(set(table) - set(allowed))
    if unknown:
        from difflib import get_close_matches

        where = ", ".join(f"`{key}.{u}`" if key else f"`{u}`" for u in unknown)
        close = [m for u in unknown for m in get_close_matches(u, allowed, n=1)]
        raise ConfigError(
            f"config key{'s' if len(unknown) > 1 else ''} {where}: unknown "
            f"key{'s' if len(unknown) > 1 else ''}; expected one of "
            f"{sorted(allowed)}"
            + (f" (did you mean {', '.join(map(repr, close))}?)" if close else "")
        )


_IMPORT_PATH = re.compile(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)+")


def _import(path, key):
    """The object at the import path ``path``, checked by name first: its
    package must be installed and outside Python's standard library, which
    holds no estimator (and whose ``this`` or ``antigravity`` run code when
    imported); nothing is imported before that."""
    if not isinstance(path, str) or not _IMPORT_PATH.fullmatch(path):
        _fail(key, f"expected an import path like 'package.module.Name', got {path!r}")
    top = path.split(".")[0]
    if top in sys.stdlib_module_names or top == "__main__":
        _fail(
            key,
            f"{path!r} is not an estimator class of an installed package: "
            f"{top!r} is part of Python's standard library, which holds none; "
            "nothing was imported",
        )
    if importlib.util.find_spec(top) is None:
        _fail(key, f"cannot import module {top!r} (no installed package of that name)")
    module_name, _, attr = path.rpartition(".")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        _fail(key, f"cannot import module {module_name!r} ({exc})")
    if not hasattr(module, attr):
        _fail(key, f"module {module_name!r} has no attribute {attr!r}")
    return getattr(module, attr)


def _value(value, key):
    """A parameter value: tables with ``class`` build objects, with ``function``
    import a callable, lists are converted element-wise."""
    if isinstance(value, dict):
        if "function" in value:
            _check_keys(value, {"function"}, key)
            obj = _import(value["function"], f"{key}.function")
            if not callable(obj):
                _fail(f"{key}.function", f"{value['function']!r} is not callable")
            return obj
        if "class" in value:
            return _object(value, key)
        _fail(key, "expected a table with `class` (and `params`) or `function`")
    if isinstance(value, list):
        return [_value(v, f"{key}[{i}]") for i, v in enumerate(value)]
    return value


def _object(table, key):
    """Instantiate ``{class = "pkg.Name", params = {...}}`` and validate params."""
    _check_keys(table, _OBJECT_KEYS, key)
    if "class" not in table:
        _fail(key, "missing `class` (an import path)")
    cls = _import(table["class"], f"{key}.class")
    # Only classes that are estimators (or splitters, for a search's cv) are
    # ever called: `class = "os.system"` or `"subprocess.Popen"` is refused
    # before anything runs.
    if not inspect.isclass(cls) or not any(
        callable(getattr(cls, attr, None)) for attr in ("get_params", "fit", "split")
    ):
        _fail(
            f"{key}.class",
            f"{table['class']!r} is not an estimator class (a class with fit or "
            "get_params, or a splitter with split); nothing was called",
        )
    params = table.get("params", {})
    if not isinstance(params, dict):
        _fail(f"{key}.params", f"expected a table, got {params!r}")
    values = {name: _value(v, f"{key}.params.{name}") for name, v in params.items()}
    try:
        accepted = dict(inspect.signature(cls).parameters)
    except (TypeError, ValueError):  # pragma: no cover - builtins
        accepted = {}
    if inspect.Parameter.VAR_KEYWORD in {p.kind for p in accepted.values()}:
        accepted = {}  # takes any keyword
    unknown = [name for name in values if accepted and name not in accepted]
    if unknown:
        names = [n for n in accepted if n not in ("self", "args")]
        _fail(
            f"{key}.params.{unknown[0]}",
            f"{cls.__name__} has no parameter {unknown[0]!r}; expected one of {names}",
        )
    try:
        obj = cls(**values)
    except Exception as exc:
        _fail(key, f"{cls.__name__}(...) failed: {exc}")
    _validate_sklearn_params(obj, key)
    return obj


def _validate_sklearn_params(obj, key):
    """Run scikit-learn's own parameter validation, as ``fit`` would."""
    validate = getattr(obj, "_validate_params", None)
    if validate is None or not hasattr(obj, "_parameter_constraints"):
        return
    try:
        validate()
    except (ValueError, TypeError) as exc:
        message = str(exc).splitlines()[0]
        _fail(f"{key}.params", message)


def _learner(name, table):
    key = f"learners.{name}"
    _check_keys(table, _LEARNER_KEYS, key)
    if "steps" in table:
        if "class" in table or "params" in table:
            _fail(key, "give either `steps` (a pipeline) or `class`, not both")
        steps = table["steps"]
        if not isinstance(steps, list) or not steps:
            _fail(f"{key}.steps", "expected a non-empty list of {class, params}")
        from sklearn.pipeline import make_pipeline

        objs = [_object(step, f"{key}.steps[{i}]") for i, step in enumerate(steps)]
        return make_pipeline(*objs)
    if "class" not in table:
        _fail(key, "expected `class` (an import path) or `steps` (a pipeline)")
    obj = _object(table, key)
    if not hasattr(obj, "fit"):
        _fail(f"{key}.class", f"{table['class']!r} is not an estimator (no `fit`)")
    return obj


def _dataset(name, table, base):
    key = f"datasets.{name}"
    if not isinstance(table, dict):
        _fail(key, f"expected a table, got {table!r}")
    sources = [s for s in _DATASET_SOURCES if s in table]
    if len(sources) != 1:
        _fail(key, f"expected exactly one of {list(_DATASET_SOURCES)}")
    source = sources[0]
    _check_keys(table, _DATASET_KEYS[source], key)
    classes = table.get("classes")
    if classes is not None and (not isinstance(classes, list) or len(classes) < 2):
        _fail(
            f"{key}.classes", f"expected a list of at least 2 labels, got {classes!r}"
        )
    if source == "sklearn":
        from sklearn import datasets as skd

        loader = table["sklearn"]
        if isinstance(loader, str) and not loader.startswith(("load_", "fetch_")):
            loader = f"load_{loader}"
        if not _xy_loader(loader):
            known = sorted(
                n for n in dir(skd) if n.startswith("load_") and _xy_loader(n)
            )
            _fail(
                f"{key}.sklearn",
                f"unknown scikit-learn loader {table['sklearn']!r}; expected one of "
                f"{known} (or a fetch_* loader)",
            )
        return DatasetSpec(name, "sklearn", loader, classes=classes)
    if source == "csv":
        path = Path(table["csv"])
        if not path.is_absolute():
            path = base / path
        if not path.is_file():
            _fail(f"{key}.csv", f"file not found: {path}")
        if "target" not in table:
            _fail(key, "a CSV data set needs `target` (the name of the label column)")
        import pandas as pd

        sep = table.get("sep", ",")
        try:
            header = pd.read_csv(path, sep=sep, nrows=0).columns
        except (pd.errors.EmptyDataError, pd.errors.ParserError) as exc:
            _fail(f"{key}.csv", f"{path} cannot be read as CSV: {exc}")
        if table["target"] not in header:
            _fail(
                f"{key}.target",
                f"column {table['target']!r} not in {path.name}; expected one of "
                f"{list(header)}",
            )
        return DatasetSpec(
            name, "csv", path, target=table["target"], classes=classes, sep=sep
        )
    data_id = table["openml"]
    if not (_is_int(data_id) and data_id > 0):
        _fail(f"{key}.openml", f"expected a positive integer data id, got {data_id!r}")
    return DatasetSpec(
        name, "openml", data_id, classes=classes, version=table.get("version")
    )


def _xy_loader(name):
    """Whether ``name`` is a loader of scikit-learn's that takes ``return_X_y``."""
    from sklearn import datasets as skd

    loader = getattr(skd, name, None) if isinstance(name, str) else None
    return loader is not None and "return_X_y" in inspect.signature(loader).parameters


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool)


def _is_real(value):
    return isinstance(value, int | float) and not isinstance(value, bool)


# The [experiment] keys of one value: (whether a value is valid, what is expected).
_EXPERIMENT_VALUES = {
    "scoring": (
        lambda v: (
            isinstance(v, str)
            or (isinstance(v, list) and all(isinstance(s, str) for s in v))
        ),
        "a metric name or list",
    ),
    "n_jobs": (_is_int, "an integer"),
    "random_state": (_is_int, "an integer"),
    "error_score": (
        lambda v: v in ("raise", "nan") or isinstance(v, int | float),
        "'raise', 'nan' or a number",
    ),
    "store": (lambda v: isinstance(v, str), "a file path"),
    "overwrite": (lambda v: isinstance(v, bool), "true or false"),
    "verify": (lambda v: _is_real(v) and 0 <= v <= 1, "a number in [0, 1]"),
}


def _experiment(table):
    _check_keys(table, {"cv", *_EXPERIMENT_VALUES}, "experiment")
    out = {}
    if "cv" in table:
        cv = table["cv"]
        if _is_int(cv):
            out["cv"] = cv
        elif isinstance(cv, dict) and "kind" in cv:
            out["cv"] = _cv_kind(cv)
        elif isinstance(cv, dict):
            obj = _object(cv, "experiment.cv")
            if not hasattr(obj, "split"):
                _fail("experiment.cv.class", "expected a splitter (with `split`)")
            out["cv"] = obj
        else:
            _fail(
                "experiment.cv",
                f"expected an integer, {{kind, params}} or {{class, params}}, got "
                f"{cv!r}",
            )
    for name, (ok, what) in _EXPERIMENT_VALUES.items():
        if name in table:
            if not ok(table[name]):
                _fail(f"experiment.{name}", f"expected {what}, got {table[name]!r}")
            out[name] = table[name]
    if out.get("error_score") == "nan":
        out["error_score"] = float("nan")
    return out


def _cv_kind(table):
    """The splitter of ``[experiment.cv] kind = ..., params = {...}``."""
    _check_keys(table, {"kind", "params"}, "experiment.cv")
    kind = table["kind"]
    if kind not in CV_KINDS:
        _fail("experiment.cv.kind", f"expected one of {list(CV_KINDS)}, got {kind!r}")
    path, fixed = CV_KINDS[kind]
    params = table.get("params", {})
    if not isinstance(params, dict):
        _fail("experiment.cv.params", f"expected a table, got {params!r}")
    for name, value in fixed.items():
        if params.get(name, value) != value:
            _fail(f"experiment.cv.params.{name}", f"a {kind} has {name} = {value}")
    return _object({"class": path, "params": {**params, **fixed}}, "experiment.cv")


def plan_of(values, key_of):
    """``AnalysisPlan(**values)``, or :class:`ConfigError`-style ``(key,
    message)`` naming the setting the plan refused by ``key_of[name]``."""
    try:
        return AnalysisPlan(**values), None
    except (TypeError, ValueError) as exc:
        message = str(exc)
        # the setting the message names (`alpha`, or bayesian='hierarchical')
        names = [f.name for f in plan_settings()]
        name = next(
            (n for n in names if f"`{n}`" in message),
            next((n for n in names if f"{n}=" in message), next(iter(values), "")),
        )
        return None, (key_of.get(name, name), message.replace("`", ""))


def parse_config(data, *, base=Path(".")):
    """Validate a configuration given as a dict (the parsed TOML); relative CSV
    paths refer to ``base``, relative output paths to the current directory."""
    problems = []

    def check(what, *args):
        """``what(*args)``, or ``None`` with its problem noted (a typo in one
        section does not hide one in the next)."""
        try:
            return what(*args)
        except ConfigError as exc:
            problems.append(str(exc))
            return None

    check(_check_keys, data, _TOP_KEYS, "")
    tables = {}
    for required, what in (("learners", "learners"), ("datasets", "data sets")):
        table = data.get(required)
        if not table:
            check(_fail, required, "missing; expected a table with at least one entry")
        elif not isinstance(table, dict):
            check(_fail, required, f"expected a table of named {what}")
        else:
            tables[required] = table
    learners = {
        name: check(_learner, name, t) for name, t in tables.get("learners", {}).items()
    }
    datasets = {
        name: check(_dataset, name, t, base)
        for name, t in tables.get("datasets", {}).items()
    }
    experiment = check(_experiment, data.get("experiment", {}))
    # Outputs (experiment.store, output.dir) are relative to the current directory,
    # so running a config of the source tree never writes into the source tree.
    config = RunConfig(learners=learners, datasets=datasets, experiment=experiment)
    analysis = check(_analysis, data.get("analysis", {}))
    if analysis is not None:
        config.plan, config.plan_keys = analysis
    check(_output, config, data.get("output", {}))
    check(_sequential, config, data.get("sequential", {}))
    if len(problems) == 1:
        raise ConfigError(problems[0])
    if problems:
        raise ConfigError(
            f"the config has {len(problems)} problems:\n"
            + "\n".join(f"  {p}" for p in problems)
        )
    return config


def _analysis(table):
    """The plan of ``[analysis]`` and the settings it names."""
    _check_keys(table, set(PLAN_KEYS), "analysis")
    values = {PLAN_KEYS[k]: v for k, v in table.items()}
    plan, error = plan_of(values, {v: k for k, v in PLAN_KEYS.items()})
    if error is not None:
        _fail(f"analysis.{error[0]}", error[1])
    return plan, tuple(sorted(values))


def _output(config, output):
    """``[output]`` into ``config``."""
    _check_keys(output, _OUTPUT_KEYS, "output")
    if "dir" in output:
        if not isinstance(output["dir"], str):
            _fail("output.dir", "expected a directory path")
        config.out_dir = Path(output["dir"])
    if "figure_formats" in output:
        formats = output["figure_formats"]
        allowed = ("png", "svg", "pdf")
        if not isinstance(formats, list) or any(f not in allowed for f in formats):
            _fail(
                "output.figure_formats", f"expected a list drawn from {list(allowed)}"
            )
        config.figure_formats = tuple(formats)
    if "title" in output:
        config.title = str(output["title"])


def _sequential(config, table):
    """``[sequential]`` (the budget and the metric's bounds of ``run
    --sequential``; Δ, α and the metric are those of ``[analysis]``)."""
    _check_keys(table, {"max_fits", "bounds"}, "sequential")
    fits = table.get("max_fits")
    if fits is not None and not (_is_int(fits) and fits >= 1):
        _fail("sequential.max_fits", f"expected a positive integer, got {fits!r}")
    bounds = table.get("bounds")
    if bounds is not None and not (
        isinstance(bounds, list) and len(bounds) == 2 and all(map(_is_real, bounds))
    ):
        _fail("sequential.bounds", f"expected [low, high], got {bounds!r}")
    config.sequential = dict(table)


def load_config(path):
    """Read and validate a TOML file (a :class:`ConfigError` if it is missing,
    not TOML or has a bad entry); relative CSV paths refer to its folder."""
    path = Path(path)
    if not path.is_file():
        raise ConfigError(f"config file not found: {path}")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path} is not UTF-8 text (byte {exc.object[exc.start]:#04x} at "
            f"position {exc.start}); TOML files are UTF-8: save it as UTF-8."
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML: {exc}") from None
    config = parse_config(data, base=path.resolve().parent)
    config.source = path
    return config
