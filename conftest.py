"""Repository-level pytest hooks (not shipped with the package).

The doctests of the hierarchical Bayesian model need the optional NumPyro back end
(``pip install "sklearn-bench[bayes]"``; CI installs ``.[test,bayes]``). Outside CI they
skip without it; under ``CI=true`` they run and fail if it is missing. The
Plackett–Luce model (a Gibbs sampler in NumPy) needs no back end.
"""

import importlib.util
import os

import pytest

# Figures of the doctests and tests are drawn off screen (the docstrings' examples
# show what a user types, without choosing a backend).
os.environ.setdefault("MPLBACKEND", "Agg")

_NEEDS_BAYES = ("sklearn_bench/stats/_hierarchical.py",)


def pytest_collection_modifyitems(config, items):
    if importlib.util.find_spec("numpyro") is not None:
        return
    if os.environ.get("CI", "").lower() == "true":
        return
    skip = pytest.mark.skip(reason='needs pip install "sklearn-bench[bayes]"')
    for item in items:
        if str(item.fspath).replace(os.sep, "/").endswith(_NEEDS_BAYES):
            item.add_marker(skip)


# Scripts that generate reference values with tools the suite does not need
# (baycomp + PyStan): kept beside their output, never imported by pytest.
collect_ignore_glob = ["tests/reference/*/make_reference.py"]


@pytest.fixture(autouse=True)
def _close_figures():
    """After each test and doctest, close the matplotlib figures it left open, so
    that the suite never holds more than a test's own figures (pyproject.toml
    turns matplotlib's "More than 20 figures" warning into an error)."""
    yield
    import sys

    plt = sys.modules.get("matplotlib.pyplot")
    if plt is not None:
        plt.close("all")


@pytest.fixture(autouse=True, scope="module")
def _release_compiled_samplers():
    """After each test module, forget the compiled MCMC samplers.

    Every compiled program holds about 1,400 memory mappings of machine code
    (freed with it); the whole suite compiles many shapes in one process, and
    past ``vm.max_map_count`` (65,530 by default) XLA's compiler aborts the
    process.
    """
    yield
    import sys

    if "jax" in sys.modules:
        from sklearn_bench.stats._mcmc import release_compiled_samplers

        release_compiled_samplers()
