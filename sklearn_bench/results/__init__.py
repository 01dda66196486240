"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ._result import BenchmarkResult
from ._scales import IncommensurableScalesWarning

__all__ = ["BenchmarkResult", "IncommensurableScalesWarning"]
