"""Sphinx configuration for sklearn_bench.

Build (warnings are errors, the gallery examples run)::

    python -m sphinx -W --keep-going -b html docs docs/_build/html

The API reference is generated at build time from the ``__all__`` of the package and
of each subpackage (see ``_write_api_page``), so it grows as names land. Nothing
here touches the network: intersphinx is not used, and sphinx-gallery only links to
this package's own objects.
"""

import importlib
import inspect
import os
import sys
import warnings
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
# Document the working tree, also when an installed copy of the package exists.
sys.path.insert(0, str(ROOT))
os.environ.setdefault("MPLBACKEND", "Agg")

import sklearn_bench

# -- Project ----------------------------------------------------------------------

project = "sklearn_bench"
author = "sklearn_bench developers"
copyright = "the sklearn_bench developers"
release = sklearn_bench.__version__
version = ".".join(release.split(".")[:2])

# -- Extensions ---------------------------------------------------------------------

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]

templates_path = ["_templates"]
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store", "**.ipynb_checkpoints"]
source_suffix = {".rst": "restructuredtext"}
root_doc = "index"
default_role = "literal"

autosummary_generate = True
autodoc_typehints = "none"  # types are in the numpydoc "Parameters" sections
autodoc_default_options = {"members": True, "inherited-members": False}
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_attributes_as_param_list = True

# -- HTML ---------------------------------------------------------------------------

html_theme = "pydata_sphinx_theme"
html_title = f"sklearn_bench {release}"
html_static_path = ["_static"]
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "secondary_sidebar_items": {
        "**": ["page-toc"],
        "user_guide/which_test": [],
        "index": [],
    },
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"index": [], "installation": []}
html_show_sourcelink = False

# -- sphinx-gallery -----------------------------------------------------------------

sphinx_gallery_conf = {
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "within_subsection_order": "FileNameSortKey",
    "doc_module": ("sklearn_bench",),
    "backreferences_dir": "generated/backreferences",
    # Links from example code to this package's pages only: resolving other
    # packages' documentation would need the network.
    "reference_url": {"sklearn_bench": None},
    "image_scrapers": ("matplotlib",),
    "remove_config_comments": True,
    "show_memory": False,
    "write_computation_times": False,
    "default_thumb_file": None,
}

warnings.filterwarnings(
    "ignore",
    category=UserWarning,
    message="Matplotlib is currently using agg, which is a non-GUI backend",
)

# -- API reference from __all__ -----------------------------------------------------

# The sections of the API page, in reading order: (module, title).
API_SECTIONS = [
    ("sklearn_bench", "Experiments and results"),
    ("sklearn_bench.model_selection", "Resampling splitters"),
    ("sklearn_bench.datasets", "Learning problems, generators and published tables"),
    ("sklearn_bench.estimators", "Learners"),
    ("sklearn_bench.experiment", "The experiment runner"),
    ("sklearn_bench.store", "The store (SQLite journal of a run)"),
    ("sklearn_bench.results", "Results"),
    ("sklearn_bench.stats", "Statistics"),
    ("sklearn_bench.plotting", "Plots"),
    ("sklearn_bench.analysis", "The analysis plan"),
    ("sklearn_bench.report", "The report and the summary"),
]


def _public_names(module):
    """Names of ``module.__all__`` that resolve now (others may land later)."""
    names = []
    for name in getattr(module, "__all__", []):
        if name.startswith("_"):
            continue
        try:
            getattr(module, name)
        except (AttributeError, ImportError):
            continue  # announced (e.g. a lazy top-level name) but not there yet
        names.append(name)
    return names


def _api_sections():
    """rST sections of the API page: one autosummary table per subpackage."""
    top = importlib.import_module("sklearn_bench")
    top_objects = {id(getattr(top, name)) for name in _public_names(top)}
    documented = set()  # each object once: where a lower layer defines it
    blocks = []
    for modname, title in API_SECTIONS:
        try:
            module = importlib.import_module(modname)
        except ImportError:
            continue
        names = _public_names(module)
        if modname != "sklearn_bench":
            # Front-door classes are documented once, under their top-level name.
            names = [n for n in names if id(getattr(module, n)) not in top_objects]
            # a name re-exported for compatibility (results' store names, the
            # report's analysis names) is documented where it is defined
            names = [n for n in names if id(getattr(module, n)) not in documented]
            documented |= {id(getattr(module, n)) for n in names}
        if not names:
            continue
        heading = f":mod:`{modname}`: {title}"
        lines = [
            heading,
            "-" * len(heading),
            "",
            f".. automodule:: {modname}",
            "   :no-members:",
            "",
            f".. currentmodule:: {modname}",
            "",
            ".. autosummary::",
            "   :toctree: generated/",
            "   :nosignatures:",
            "",
        ]
        lines += [f"   {name}" for name in sorted(names, key=str.lower)]
        blocks.append("\n".join(lines) + "\n")
    return "\n".join(blocks)


API_INTRO = """\
.. _api:

=============
API reference
=============

Every public name of ``sklearn_bench``, by subpackage. Implementation lives in private
modules; import from the subpackage shown here (for example
``from sklearn_bench.stats import adjust_pvalues``). Statistical functions take arrays
and return frozen result objects with ``statistic``, ``pvalue``, ``estimate`` and a
``confidence_interval()`` method; :class:`~sklearn_bench.BenchmarkResult` selects the
data and delegates to them.

.. This page is written by docs/conf.py from each subpackage's ``__all__``;
   do not edit it (it is not under version control).

"""


def _write_api_page(app=None, config=None):
    """Write ``api.rst`` (not versioned), only when its text changes.

    Connected to ``config-inited``, which Sphinx emits before it looks for source
    files, so the page and its autosummary stubs are part of the same build.
    """
    target = DOCS / "api.rst"
    text = API_INTRO + _api_sections()
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        target.write_text(text, encoding="utf-8")


def _skip_member(app, what, name, obj, skip, options):
    """Leave out scikit-learn's generated metadata-routing methods.

    ``set_fit_request`` and friends are attached to every estimator class by
    scikit-learn; their docstrings link into scikit-learn's own user guide, which
    this build cannot resolve, and they are not part of this package's API.
    """
    if name == "get_metadata_routing" or (
        name.startswith("set_") and name.endswith("_request")
    ):
        return True
    return skip


def _public_signature(app, what, name, obj, options, signature, return_annotation):
    """Hide private parameters (``_name``) of dataclass result constructors."""
    if what != "class" or not signature:
        return None
    try:
        sig = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    params = [
        p.replace(annotation=inspect.Parameter.empty)  # types are in the docstring
        for p in sig.parameters.values()
        if not p.name.startswith("_")
    ]
    if len(params) == len(sig.parameters):
        return None
    sig = sig.replace(parameters=params, return_annotation=inspect.Signature.empty)
    return str(sig), return_annotation


def setup(app):
    app.connect("config-inited", _write_api_page)
    app.connect("autodoc-skip-member", _skip_member)
    app.connect("autodoc-process-signature", _public_signature)
