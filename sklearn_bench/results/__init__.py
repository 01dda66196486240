"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ._result import BenchmarkResult

__all__ = ["BenchmarkResult"]
