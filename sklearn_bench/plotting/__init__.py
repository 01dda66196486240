"""Figures for benchmark experiments (matplotlib)."""

from ._critical_difference import plot_critical_difference
from ._multiple_rule_bias import plot_multiple_rule_bias

__all__ = ["plot_critical_difference", "plot_multiple_rule_bias"]
