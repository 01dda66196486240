"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ._result import BenchmarkResult
from ._store import merge_stores

__all__ = ["BenchmarkResult", "merge_stores"]
