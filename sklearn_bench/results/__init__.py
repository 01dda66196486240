"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

__all__ = []
