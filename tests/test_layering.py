"""The layering rule (DESIGN.md, docs/contributing.rst), read from the source.

Each unit of the package (subpackage or top-level module) has a layer
(``tests/_import_graph.py``'s LAYERS); an import points only to a lower layer, never
in a circle, and across units only at public names of public modules; nor does
a unit use the private attributes of another unit's objects.
"""

import importlib
import re

import pytest

import sklearn_bench

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
    """H: across units, imports go through public modules and take public names
    (the shared bottom modules _validation, _io, _metrics and _version excepted)."""
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


def test_deprecated_reaches_are_due_and_listed(graph):
    """H: the only imports allowed against the rule are the deprecation shims of
    DEPRECATED_REACHES; each is still in the code (a removed shim is unlisted) and
    the package's version is below the release that removes it (so the shim cannot
    outlive its deprecation)."""
    listed = set(_import_graph.DEPRECATED_REACHES)
    assert set(graph["deprecated_reaches"]) == listed
    version = _release(sklearn_bench.__version__)
    for reach, removed_in in _import_graph.DEPRECATED_REACHES.items():
        assert version < _release(removed_in), reach


def _release(version):
    """(major, minor) of a version string such as '0.2.0.dev0'."""
    return tuple(int(x) for x in re.match(r"(\d+)\.(\d+)", version).groups())
