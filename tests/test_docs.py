"""The docs' moving parts: the API page from ``__all__``, the gallery files."""

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def docs_conf():
    spec = importlib.util.spec_from_file_location(
        "_docs_conf", ROOT / "docs" / "conf.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)  # no side effects: the page is written by setup()
    return module


def test_api_page_lists_every_public_name(docs_conf):
    """H: every resolvable name in a subpackage's __all__ has an autosummary entry."""
    text = docs_conf._api_sections()
    entries = {line.strip() for line in text.splitlines() if line.startswith("   ")}
    top = importlib.import_module("sklearn_bench")
    top_objects = {id(getattr(top, n)) for n in docs_conf._public_names(top)}
    for modname, _ in docs_conf.API_SECTIONS:
        module = importlib.import_module(modname)
        for name in docs_conf._public_names(module):
            if modname != "sklearn_bench" and id(getattr(module, name)) in top_objects:
                continue  # documented once, under its top-level name
            assert name in entries, f"{modname}.{name} is missing from the API page"


def test_api_page_skips_names_that_do_not_resolve(docs_conf):
    """H: a name announced in __all__ but not importable yet is left out, not fatal."""

    class Announced:
        __all__ = ["present", "missing", "_private"]
        present = object()

        def __getattr__(self, name):
            raise AttributeError(name)

    assert docs_conf._public_names(Announced()) == ["present"]


@pytest.mark.parametrize(
    "path", sorted((ROOT / "examples").glob("plot_*.py")), ids=lambda p: p.name
)
def test_gallery_example_has_title_header(path):
    """H: each gallery example opens with a docstring whose first line is underlined."""
    docstring = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
    assert docstring, f"{path.name} has no module docstring"
    lines = docstring.splitlines()
    assert len(lines) >= 2 and lines[0].strip(), f"{path.name}: no title line"
    assert set(lines[1].strip()) == {"="}, f"{path.name}: title not underlined by '='"
    assert len(lines[1].strip()) >= len(lines[0].strip()), f"{path.name}: short rule"
