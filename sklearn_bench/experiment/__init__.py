"""BenchmarkExperiment: learners x data sets x resamples in a matched-pairs design."""

from ._experiment import BenchmarkExperiment
from ._rule_errors import ErrorEstimatedLearner, RuleErrors, collect_rule_errors
from ._scoring import Metric, make_metric
from ._sequential import SequentialRule, SequentialStudy
from ._unconditional_error import UnconditionalErrorResult, unconditional_error

__all__ = [
    "BenchmarkExperiment",
    "ErrorEstimatedLearner",
    "Metric",
    "RuleErrors",
    "SequentialRule",
    "SequentialStudy",
    "UnconditionalErrorResult",
    "collect_rule_errors",
    "make_metric",
    "unconditional_error",
]
