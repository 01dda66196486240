"""Figures for benchmark experiments (matplotlib)."""

from ._critical_difference import plot_critical_difference
from ._performance_distribution import performance_distribution

__all__ = ["performance_distribution", "plot_critical_difference"]
