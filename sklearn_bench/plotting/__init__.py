"""Figures for benchmark experiments (matplotlib)."""

from ._bayesian import plot_bayesian_posterior, plot_rank_posterior
from ._common import figure_label  # noqa: F401  (the report's labels, not API)
from ._critical_difference import plot_critical_difference
from ._forest import plot_confidence_intervals
from ._leaderboard import plot_rank_intervals, plot_win_rate_matrix
from ._multiple_rule_bias import plot_multiple_rule_bias
from ._pairwise_significance import plot_pairwise_significance
from ._performance_distribution import (
    FEW_VALUES,  # noqa: F401  (the report's caption)
    performance_distribution,
)
from ._power import plot_datasets_needed, plot_power_curve
from ._significance_table import plot_significance_table
from ._win_tie_loss import plot_win_tie_loss

__all__ = [
    "performance_distribution",
    "plot_bayesian_posterior",
    "plot_confidence_intervals",
    "plot_critical_difference",
    "plot_datasets_needed",
    "plot_multiple_rule_bias",
    "plot_pairwise_significance",
    "plot_power_curve",
    "plot_rank_intervals",
    "plot_rank_posterior",
    "plot_significance_table",
    "plot_win_rate_matrix",
    "plot_win_tie_loss",
]
