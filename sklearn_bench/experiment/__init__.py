"""BenchmarkExperiment: learners x data sets x resamples in a matched-pairs design."""

__all__ = []
