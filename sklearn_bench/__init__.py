"""Benchmark experiments for scikit-learn, with honest statistics for comparisons.

The subpackages hold one concept each: :mod:`~sklearn_bench.model_selection`
(bootstrap splitters), :mod:`~sklearn_bench.datasets`, :mod:`~sklearn_bench.estimators`,
:mod:`~sklearn_bench.experiment` (:class:`BenchmarkExperiment`),
:mod:`~sklearn_bench.results` (:class:`BenchmarkResult`), :mod:`~sklearn_bench.stats`
and :mod:`~sklearn_bench.plotting`.
"""

from importlib import import_module as _import_module

from ._version import __version__

# The two front-door classes are imported on first use so that ``import sklearn_bench``
# stays cheap and the subpackages keep their one-way dependencies.
_LAZY = {
    "BenchmarkExperiment": "sklearn_bench.experiment",
    "BenchmarkResult": "sklearn_bench.results",
}

__all__ = ["BenchmarkExperiment", "BenchmarkResult", "__version__"]


def __getattr__(name):
    if name in _LAZY:
        return getattr(_import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'sklearn_bench' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
