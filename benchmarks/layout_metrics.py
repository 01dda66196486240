"""Measures of the package's layout, for the before/after of a redesign.

Prints lines per module (the largest, and how many exceed 1,000 lines), the import
graph as the layering rule reads it (edges, function-local imports, circles, upward
imports, imports of another subpackage's private names; see tests/_import_graph.py),
and the number of public names (the ``__all__`` of every public module).

    python benchmarks/layout_metrics.py [PACKAGE_DIR]

Nothing of the package is imported: everything is read from the source.
"""

import ast
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests"))

import _import_graph  # noqa: E402


def main(argv):
    root = Path(argv[0]).resolve() if argv else _import_graph.ROOT
    _import_graph.ROOT = root
    files = sorted(root.rglob("*.py"))
    sizes = {
        str(f.relative_to(root.parent)): len(f.read_text(encoding="utf-8").splitlines())
        for f in files
    }
    public = 0
    for f in files:
        rel = f.relative_to(root)
        if any(p.startswith("_") and p != "__init__.py" for p in rel.parts):
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets
            ):
                if isinstance(node.value, ast.List | ast.Tuple):
                    public += len(node.value.elts)
    v = _import_graph.violations()
    big = sorted(((n, p) for p, n in sizes.items() if n > 1000), reverse=True)
    print(f"modules {len(files)}, lines {sum(sizes.values())}")
    print(f"largest: {max(sizes.values())} lines; over 1,000 lines: {len(big)}")
    for n, p in big:
        print(f"  {p} {n}")
    print(
        f"import edges {v['edges']}, function-local imports {v['local_imports']}, "
        f"circles {len(v['circles'])}, upward imports {len(v['upward'])}, "
        f"cross-package private imports {len(v['private'])}"
    )
    print(f"public names (__all__ of public modules) {public}")


if __name__ == "__main__":
    main(sys.argv[1:])
