"""Figures for benchmark experiments (matplotlib)."""

from ._critical_difference import plot_critical_difference

__all__ = ["plot_critical_difference"]
