"""BenchmarkExperiment: learners x data sets x resamples in a matched-pairs design."""

from ._experiment import BenchmarkExperiment
from ._scoring import Metric, make_metric

__all__ = ["BenchmarkExperiment", "Metric", "make_metric"]
