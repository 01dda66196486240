"""The layering rule (DESIGN.md, docs/contributing.rst), read from the source.

Each unit of the package (subpackage or top-level module) has a layer
(``tests/_import_graph.py``'s LAYERS); an import points only to a lower layer, never
in a circle, and across units only at public names (of public or private
modules); nor does
a unit use the private attributes of another unit's objects.
"""

import ast
import importlib
import re
from pathlib import Path

import pytest

from . import _import_graph


@pytest.fixture(scope="module")
def graph():
    return _import_graph.violations()


def test_every_unit_has_a_layer(graph):
    """H: every subpackage and top-level module is placed in a layer (a new one
    must be placed before it can be imported)."""
    assert graph["unknown_units"] == []


def test_no_import_circle(graph):
    """H: the module-level import graph (function-local imports included) has no
    strongly connected component of more than one module."""
    assert graph["circles"] == []


def test_no_upward_import(graph):
    """H: no module imports a unit of its own or a higher layer."""
    assert graph["upward"] == []


def test_renderers_import_no_statistics(graph):
    """H: report/ imports nothing from stats or results (issue 36): it renders
    the fields of a frozen Analysis, so no report number is computed twice."""
    assert graph["forbidden"] == []


def test_the_checker_sees_a_renderer_computing(tmp_path, monkeypatch):
    """H: the rule is not vacuous: a planted report module that imports a
    statistic from stats (a lower layer, allowed by the layering alone) is
    reported, and one that imports the analysis is not."""
    pkg = tmp_path / "sklearn_bench"
    for unit in ("stats", "analysis", "report"):
        (pkg / unit).mkdir(parents=True)
        (pkg / unit / "__init__.py").write_text("f = 1\n")
    (pkg / "__init__.py").write_text("")
    (pkg / "report" / "_r.py").write_text(
        "from ..analysis import f\n\ndef g():\n    from ..stats import f\n"
    )
    monkeypatch.setattr(_import_graph, "ROOT", pkg)
    v = _import_graph.violations()
    assert v["forbidden"] == [
        "sklearn_bench.report._r:4 -> sklearn_bench.stats (report -> stats)"
    ]


def test_no_private_reach_in(graph):
    """H: across units, imports take public names (from public or private
    modules, as scikit-learn's layers do; the shared bottom modules _validation,
    _io, _metrics and _version excepted)."""
    assert graph["private"] == []


def test_the_checker_sees_a_violation(tmp_path, monkeypatch):
    """H: the checker is not vacuous: a planted stats -> plotting import and a
    circle between two planted modules are reported."""
    pkg = tmp_path / "sklearn_bench"
    (pkg / "stats").mkdir(parents=True)
    (pkg / "plotting").mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "stats" / "__init__.py").write_text("from ._a import f\n")
    (pkg / "stats" / "_a.py").write_text(
        "from ._b import g\n\ndef f():\n    from ..plotting._p import _draw\n"
    )
    (pkg / "stats" / "_b.py").write_text(
        "import importlib\ng = 1\n\ndef h():\n"
        "    return importlib.import_module('sklearn_bench.plotting')\n"
        "from ._a import f\n"
    )
    (pkg / "plotting" / "__init__.py").write_text("")
    (pkg / "plotting" / "_p.py").write_text("def _draw():\n    pass\n")
    monkeypatch.setattr(_import_graph, "ROOT", pkg)
    v = _import_graph.violations()
    assert any("stats -> plotting" in u for u in v["upward"])
    # an import by name at call time is an import too
    assert any(u.startswith("sklearn_bench.stats._b:") for u in v["upward"])
    assert any("_draw" in p for p in v["private"])
    assert ["sklearn_bench.stats._a", "sklearn_bench.stats._b"] in v["circles"]


def test_no_private_attribute_reach_in(graph):
    """H: no unit uses a private attribute (method, class attribute or instance
    attribute) that only another unit defines, on an object other than
    self/cls: across units, objects are used through their public names."""
    assert graph["private_attributes"] == []


def test_the_attribute_checker_sees_a_reach_in(tmp_path, monkeypatch):
    """H: the attribute checker is not vacuous: a planted experiment module that
    calls a private classmethod of a results class, reads an instance attribute
    that class sets on self, and reads one through getattr is reported three
    times; its own private names, self's, a shared module's and scikit-learn's
    protocol names are not."""
    pkg = tmp_path / "sklearn_bench"
    for unit in ("results", "experiment"):
        (pkg / unit).mkdir(parents=True)
        (pkg / unit / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("")
    (pkg / "_validation.py").write_text("def _shared():\n    pass\n")
    (pkg / "results" / "_r.py").write_text(
        "class R:\n"
        "    @classmethod\n"
        "    def _build(cls):\n"
        "        return cls()\n\n"
        "    def __init__(self):\n"
        "        self._cache = None\n"
        "        self._hidden = 1\n"
    )
    (pkg / "experiment" / "_e.py").write_text(
        "from ..results import R\n\n"
        "class E:\n"
        "    def _own(self):\n"
        "        self._cache = 2\n"
        "        return self._build\n\n"
        "def run(obj, est):\n"
        "    r = R._build()\n"
        "    est._validate_params()\n"
        "    obj._own()\n"
        "    obj._shared()\n"
        "    return r._hidden, getattr(r, '_hidden'), r._cache\n"
    )
    monkeypatch.setattr(_import_graph, "ROOT", pkg)
    rows = _import_graph.private_attributes()
    assert rows == [
        "sklearn_bench.experiment._e:9 R._build (defined in results)",
        "sklearn_bench.experiment._e:13 getattr(r, '_hidden') (defined in results)",
        "sklearn_bench.experiment._e:13 r._hidden (defined in results)",
    ]


@pytest.mark.parametrize("name", sorted(_import_graph.FOREIGN_PRIVATE_NAMES))
def test_foreign_private_names_belong_to_that_library(name):
    """H: each private name let through as another library's protocol is still
    defined by the class of that library listed beside it (a name that library
    dropped would otherwise hide a reach into the package)."""
    module, _, cls = _import_graph.FOREIGN_PRIVATE_NAMES[name].rpartition(".")
    assert hasattr(getattr(importlib.import_module(module), cls), name)


# The deprecation machinery the package had before issue 36; it was never released,
# so a better name replaces the old one outright (docs/contributing.rst).
SHIM_NAMES = {
    "REMOVED_IN",
    "UNSET",
    "renamed_parameters",
    "keyword_only",
    "keyword_only_options",
    "deprecated_alias",
    "deprecated_attribute",
    "resolve_direction",
    "find_stack_level",
    "_deprecated_plot",
    "DEPRECATED_REACHES",
}
_WARN_CATEGORIES = {"FutureWarning", "DeprecationWarning", "PendingDeprecationWarning"}


def shims_in(source, where="<source>"):
    """Every sign of a deprecation shim in Python ``source``: a use or definition
    of a name of :data:`SHIM_NAMES`, a warning raised with a deprecation category
    (filtering one that pandas or scikit-learn raises is fine), or the words
    "deprecated" / "will be removed in" in the text."""
    found = []
    for node in ast.walk(ast.parse(source)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.alias):
            name = node.asname or node.name.rpartition(".")[2]
        elif isinstance(node, ast.FunctionDef | ast.ClassDef):
            name = node.name
        else:
            name = getattr(node, "id", None) or getattr(node, "attr", None)
        if name in SHIM_NAMES:
            found.append(f"{where}:{line} {name}")
        if isinstance(node, ast.Call):
            func = node.func
            called = getattr(func, "attr", None) or getattr(func, "id", None)
            args = [*node.args, *(k.value for k in node.keywords)]
            categories = {getattr(a, "id", None) for a in args} & _WARN_CATEGORIES
            if called == "warn" and categories:
                found.append(f"{where}:{line} warns {', '.join(sorted(categories))}")
    for number, text in enumerate(source.splitlines(), 1):
        if re.search(r"\bdeprecated\b|will be removed in", text, re.IGNORECASE):
            found.append(f"{where}:{number} says: {text.strip()}")
    return found


def test_no_deprecation_shims():
    """H: the package keeps no old name alive: no module defines or uses the
    deprecation machinery (REMOVED_IN, UNSET, renamed_parameters, keyword_only,
    deprecated_alias, ...), raises a FutureWarning or DeprecationWarning, or calls
    anything deprecated; and the import-graph checker lists no allowed reach (so
    the graph's zero circles and upward imports hold with no exception)."""
    found = []
    for path in sorted(_import_graph.ROOT.rglob("*.py")):
        rel = path.relative_to(_import_graph.ROOT.parent)
        found += shims_in(path.read_text(encoding="utf-8"), rel)
    checker = Path(_import_graph.__file__)
    found += shims_in(checker.read_text(encoding="utf-8"), checker.name)
    assert found == []


def test_the_shim_scan_sees_a_shim():
    """H: the scan is not vacuous: a renamed-parameter decorator, a FutureWarning,
    a DeprecationWarning and a deprecated alias planted in a source are each
    reported, while a filter of pandas' FutureWarning is not."""
    planted = (
        "import warnings\n"
        "from .._validation import renamed_parameters\n"
        "@renamed_parameters(rope='delta')\n"
        "def f(delta):\n"
        "    warnings.warn('old', FutureWarning, stacklevel=2)\n"
        "    warnings.warn('old', category=DeprecationWarning)\n"
        "def g():\n"
        "    'Deprecated alias of f.'\n"
        "    with warnings.catch_warnings():\n"
        "        warnings.simplefilter('ignore', FutureWarning)\n"
    )
    assert sorted(shims_in(planted)) == [
        "<source>:2 renamed_parameters",
        "<source>:3 renamed_parameters",
        "<source>:5 warns FutureWarning",
        "<source>:6 warns DeprecationWarning",
        "<source>:8 says: 'Deprecated alias of f.'",
    ]


def _public_subpackages():
    import pkgutil

    import sklearn_bench

    found = [sklearn_bench]
    for info in pkgutil.walk_packages(sklearn_bench.__path__, "sklearn_bench."):
        if info.ispkg and not any(p.startswith("_") for p in info.name.split(".")):
            found.append(importlib.import_module(info.name))
    return found


@pytest.mark.parametrize("package", _public_subpackages(), ids=lambda m: m.__name__)
def test_every_public_name_of_a_public_subpackage_is_in_its_all(package):
    """H: (issue 47) a name is public exactly when an ``__all__`` lists it: every
    name without an underscore that a public subpackage (no underscore in its
    path) holds, submodules apart, is in its ``__all__``, so no layer reaches a
    shadow re-export; other layers import a private module's names directly."""
    import types

    names = {
        n
        for n in dir(package)
        if not n.startswith("_")
        and not isinstance(getattr(package, n), types.ModuleType)
    }
    assert names - set(package.__all__) == set()
