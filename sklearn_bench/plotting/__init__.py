"""Figures for benchmark experiments (matplotlib)."""

from ._critical_difference import plot_critical_difference
from ._multiple_rule_bias import plot_multiple_rule_bias
from ._performance_distribution import performance_distribution

__all__ = [
    "performance_distribution",
    "plot_critical_difference",
    "plot_multiple_rule_bias",
]
