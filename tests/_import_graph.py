"""The package's import graph, read from the source with ``ast`` (nothing is imported).

Used by ``tests/test_layering.py`` (the layering rule of DESIGN.md and
docs/contributing.rst) and runnable as a script that prints the measures::

    python tests/_import_graph.py            # counts
    python tests/_import_graph.py --list     # every offending import

Units are the subpackages (``stats``, ``results``, ...) and the top-level modules
(``_validation``, ``cli``, ...). Each unit has a layer; an import may point only to a
unit of a lower layer (or inside its own unit). Across units, an import takes public
names only, from a public or a private module (as scikit-learn's layers import
``..utils._param_validation``): a name is public exactly when it has no leading
underscore, and API exactly when an ``__all__`` of a public subpackage lists it.
The bottom modules ``_validation``, ``_io``, ``_metrics``, ``_text`` and
``_version`` are the package's shared internals: every unit may take any name
from them.

An import is not the only way into another unit's internals: an object of the
other unit carries them too. :func:`private_attributes` lists every use of a private
attribute ``obj._name`` (or ``getattr(obj, "_name")``) where ``obj`` is not
``self``/``cls`` and ``_name`` is defined only in other units (see its docstring).
"""

import ast
import sys
from collections import defaultdict
from pathlib import Path

PACKAGE = "sklearn_bench"
ROOT = Path(__file__).resolve().parents[1] / PACKAGE

# layer of each unit; a unit imports only units of a strictly lower layer
LAYERS = {
    "_version": 0,
    "_validation": 0,
    "_io": 0,
    "_text": 0,
    "_latex": 1,
    "_metrics": 1,
    "datasets": 1,
    "model_selection": 1,
    "estimators": 1,
    "stats": 2,
    "store": 2,
    "results": 3,
    "experiment": 4,
    "analysis": 4,
    "plotting": 5,
    "report": 6,
    "cli": 7,
    "__main__": 8,
    "__init__": 8,
}
# units whose every name (private ones too) the others may use
SHARED = {"_version", "_validation", "_metrics", "_io", "_text", "_latex"}
# Lower units that a unit must still not import: the renderers read a frozen
# Analysis and compute nothing, so report/ reaches neither stats nor results.
FORBIDDEN = {"report": {"stats", "results"}}
# Imports by name at call time (``importlib.import_module("sklearn_bench...")``) are
# imports like any other, with no exception to the rule.


# Private names of another library's protocol that the package's classes also
# define: a use of one on any object is a use of that library's API, not a reach
# into a unit of the package. Each maps to a class of that library that defines it
# (``tests/test_layering.py`` checks that it still does).
FOREIGN_PRIVATE_NAMES = {
    # scikit-learn's parameter validation, which the CLI's config reader runs on
    # whatever estimator class a config names (as ``fit`` would)
    "_validate_params": "sklearn.base.BaseEstimator",
    "_parameter_constraints": "sklearn.linear_model.LogisticRegression",
}


def _module_name(path):
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def unit_of(module):
    """The unit of a dotted module name inside the package (``None`` outside)."""
    parts = module.split(".")
    if parts[0] != PACKAGE:
        return None
    if len(parts) == 1:
        return "__init__"
    return parts[1]


def _resolve(module, node, is_package):
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    if node.level > 1:
        base = base[: len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _import_by_name(node):
    """The module a call ``importlib.import_module("<literal>")`` loads, or None."""
    if not isinstance(node, ast.Call) or not node.args:
        return None
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", None)
    if name not in ("import_module", "__import__"):
        return None
    arg = node.args[0]
    if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
        return arg.value
    return None


def imports():
    """Every import of the package: (importer, imported module, names, line, local).

    ``local`` is True for an import inside a function or class body. A call
    ``importlib.import_module("sklearn_bench....")`` with a literal name is an import
    too (a name computed at run time cannot be read and is not counted).
    """
    modules = {}
    for path in sorted(ROOT.rglob("*.py")):
        modules[_module_name(path)] = path
    rows = []
    for module, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        is_package = path.name == "__init__.py"
        parents = {}
        for parent in ast.walk(tree):
            for child in ast.iter_child_nodes(parent):
                parents[child] = parent

        def local(node, parents=parents):
            while node in parents:
                node = parents[node]
                if isinstance(
                    node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
                ):
                    return True
            return False

        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                target = _resolve(module, node, is_package)
                if not target.startswith(PACKAGE):
                    continue
                names = [a.name for a in node.names]
                # "from . import _x" imports a module, not a name
                sub = [n for n in names if f"{target}.{n}" in modules]
                if sub:
                    for n in sub:
                        rows.append(
                            (module, f"{target}.{n}", [], node.lineno, local(node))
                        )
                    names = [n for n in names if n not in sub]
                    if not names:
                        continue
                rows.append((module, target, names, node.lineno, local(node)))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith(PACKAGE):
                        rows.append((module, alias.name, [], node.lineno, local(node)))
            elif (target := _import_by_name(node)) is not None:
                if target.startswith(PACKAGE):
                    rows.append((module, target, [], node.lineno, local(node)))
    return modules, rows


def _is_private(name):
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _is_self(node):
    """True for ``self``, ``cls``, ``super()``, ``type(self)``, ``self.__class__``:
    the object whose own class is being written."""
    if isinstance(node, ast.Name):
        return node.id in ("self", "cls")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id == "super" or (
            node.func.id == "type" and len(node.args) == 1 and _is_self(node.args[0])
        )
    if isinstance(node, ast.Attribute) and node.attr == "__class__":
        return _is_self(node.value)
    return False


def _defined_names(tree):
    """The private names a module defines: its module-level functions, classes and
    variables, the methods and class attributes (dataclass fields too) of its
    classes, and the attributes set on ``self``/``cls`` (by assignment or
    ``object.__setattr__(self, "_x", ...)``)."""
    names = set()

    def targets(node):
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                names.add(n.id)

    def body(statements):
        for st in statements:
            if isinstance(st, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(st.name)
            elif isinstance(st, ast.Assign):
                for t in st.targets:
                    targets(t)
            elif isinstance(st, ast.AnnAssign):
                targets(st.target)

    body(tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef):
            body(node.body)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
            if _is_self(node.value):
                names.add(node.attr)
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__setattr__"
            and len(node.args) >= 2
            and _is_self(node.args[0])
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
        ):
            names.add(node.args[1].value)
    return {n for n in names if _is_private(n)}


def _attribute_uses(tree):
    """Every ``(line, use, name)`` of a private attribute read, set or deleted on
    an object other than ``self``/``cls``: ``obj._name`` and ``getattr``,
    ``hasattr``, ``setattr`` or ``delattr`` with the name as a literal (``use``
    is the expression as written, a call's other arguments left out)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if _is_private(node.attr) and not _is_self(node.value):
                yield node.lineno, ast.unparse(node), node.attr
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr", "setattr", "delattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and isinstance(node.args[1].value, str)
            and _is_private(node.args[1].value)
            and not _is_self(node.args[0])
        ):
            obj, name = ast.unparse(node.args[0]), node.args[1].value
            yield node.lineno, f"{node.func.id}({obj}, {name!r})", name


def private_attributes():
    """The private attributes one unit uses on another unit's objects.

    A use ``obj._name`` (or ``getattr(obj, "_name")``, ...) in unit U, where
    ``obj`` is not ``self``/``cls``, is reported when ``_name`` is defined (see
    :func:`_defined_names`) in some unit of the package, but not in U nor in a
    shared bottom module (:data:`SHARED`), and is not a name of another library's
    protocol (:data:`FOREIGN_PRIVATE_NAMES`). The object's type cannot be read
    from the source, so a name that U defines too is taken as U's own.

    Returns
    -------
    rows : list of str
        ``"module:line use (defined in unit, ...)"``, e.g.
        ``"sklearn_bench.cli._main:12 experiment._prepare (defined in experiment)"``,
        in module order.
    """
    trees = {}
    defined = defaultdict(set)  # private name -> units that define it
    for path in sorted(ROOT.rglob("*.py")):
        module = _module_name(path)
        trees[module] = ast.parse(path.read_text(encoding="utf-8"), str(path))
        for name in _defined_names(trees[module]):
            defined[name].add(unit_of(module))
    rows = []
    for module, tree in trees.items():
        unit = unit_of(module)
        for line, use, name in sorted(_attribute_uses(tree)):
            owners = defined.get(name, set())
            if (
                not owners
                or unit in owners
                or owners & SHARED
                or name in FOREIGN_PRIVATE_NAMES
            ):
                continue
            owned = ", ".join(sorted(owners))
            rows.append(f"{module}:{line} {use} (defined in {owned})")
    return rows


def violations():
    """The upward imports, the cross-unit private imports and the circles."""
    modules, rows = imports()
    upward, private, forbidden, unknown = [], [], [], set()
    for importer, target, names, line, _local in rows:
        a, b = unit_of(importer), unit_of(target)
        for u in (a, b):
            if u not in LAYERS:
                unknown.add(u)
        if a == b or a not in LAYERS or b not in LAYERS:
            continue
        where = f"{importer}:{line} -> {target}"
        if LAYERS[b] >= LAYERS[a]:
            upward.append(f"{where} ({a} -> {b})")
        if b in FORBIDDEN.get(a, ()):
            forbidden.append(f"{where} ({a} -> {b})")
        if b in SHARED:
            continue
        bad = [n for n in names if n.startswith("_")]
        if bad:
            private.append(f"{where} [{', '.join(bad)}]")
    graph = defaultdict(set)
    for importer, target, _, _, _ in rows:
        # a name imported from a package __init__ may live in a submodule: the
        # edge points at the module that was named
        while target not in modules and "." in target:
            target = target.rsplit(".", 1)[0]
        if target != importer:
            graph[importer].add(target)
    circles = [c for c in _strongly_connected(graph, modules) if len(c) > 1]
    return {
        "modules": len(modules),
        "edges": sum(len(v) for v in graph.values()),
        "local_imports": sum(1 for r in rows if r[4]),
        "upward": upward,
        "forbidden": forbidden,
        "private": private,
        "circles": circles,
        "unknown_units": sorted(u for u in unknown if u is not None),
        "private_attributes": private_attributes(),
    }


def _strongly_connected(graph, nodes):
    index, low, on_stack, stack, out = {}, {}, set(), [], []
    counter = [0]
    sys.setrecursionlimit(max(10000, sys.getrecursionlimit()))

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            out.append(sorted(comp))

    for v in sorted(nodes):
        if v not in index:
            visit(v)
    return out


def main(argv):
    v = violations()
    print(
        f"modules {v['modules']}, import edges {v['edges']}, "
        f"function-local imports {v['local_imports']}"
    )
    print(
        f"circles {len(v['circles'])}, upward imports {len(v['upward'])}, "
        f"cross-package private imports {len(v['private'])}, "
        f"units without a layer {v['unknown_units']}, "
        f"cross-package private attributes {len(v['private_attributes'])}"
    )
    if "--list" in argv:
        for c in v["circles"]:
            print("circle:", " <-> ".join(c))
        for u in v["upward"]:
            print("upward:", u)
        for p in v["private"]:
            print("private:", p)
        for a in v["private_attributes"]:
            print("private attribute:", a)


if __name__ == "__main__":
    main(sys.argv[1:])
