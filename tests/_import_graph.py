"""The package's import graph, read from the source with ``ast`` (nothing is imported).

Used by ``tests/test_layering.py`` (the layering rule of DESIGN.md and
docs/contributing.rst) and runnable as a script that prints the measures::

    python tests/_import_graph.py            # counts
    python tests/_import_graph.py --list     # every offending import

Units are the subpackages (``stats``, ``results``, ...) and the top-level modules
(``_validation``, ``cli``, ...). Each unit has a layer; an import may point only to a
unit of a lower layer (or inside its own unit). Across units, an import goes through
the other unit's public namespace: its ``__init__`` or a public (no underscore)
submodule, and takes public names only. The bottom modules ``_validation``,
``_io``, ``_metrics``, ``_text`` and ``_version`` are the package's shared
internals: every unit may take any name from them.
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
SHARED = {"_version", "_validation", "_metrics", "_io", "_text"}
# Imports by name at call time (``importlib.import_module("sklearn_bench...")``) are
# imports like any other. The only ones allowed against the rule are the deprecation
# shims listed here, each with the release that removes it; ``tests/test_layering.py``
# fails when one outlives that release, when one is gone but still listed, or when any
# other reach appears.
DEPRECATED_REACHES = {
    # the deprecated ``.plot()`` methods of stats results call the plotting function
    # that replaces them (FriedmanResult, TukeyHSDResult, PairwiseTestResult,
    # MultipleRuleBiasResult)
    ("sklearn_bench.stats._common", "sklearn_bench.plotting"): "0.3",
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


def _private_path(target):
    """True when the dotted path goes through a private submodule of a unit."""
    parts = target.split(".")[2:]
    return any(p.startswith("_") and p != "__init__" for p in parts)


def violations():
    """The upward imports, the cross-unit private imports and the circles.

    The reaches of :data:`DEPRECATED_REACHES` are set apart under
    ``"deprecated_reaches"`` and count in none of the others.
    """
    modules, all_rows = imports()
    rows = [r for r in all_rows if (r[0], r[1]) not in DEPRECATED_REACHES]
    deprecated = sorted({(r[0], r[1]) for r in all_rows} & set(DEPRECATED_REACHES))
    upward, private, unknown = [], [], set()
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
        if b in SHARED:
            continue
        bad = [n for n in names if n.startswith("_")]
        if _private_path(target) or bad:
            private.append(where + (f" [{', '.join(bad)}]" if bad else ""))
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
        "private": private,
        "circles": circles,
        "unknown_units": sorted(u for u in unknown if u is not None),
        "deprecated_reaches": deprecated,
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
        f"deprecated reaches {len(v['deprecated_reaches'])}"
    )
    if "--list" in argv:
        for c in v["circles"]:
            print("circle:", " <-> ".join(c))
        for u in v["upward"]:
            print("upward:", u)
        for p in v["private"]:
            print("private:", p)
        for importer, target in v["deprecated_reaches"]:
            removed = DEPRECATED_REACHES[importer, target]
            print(f"deprecated: {importer} -> {target} (removed in {removed})")


if __name__ == "__main__":
    main(sys.argv[1:])
