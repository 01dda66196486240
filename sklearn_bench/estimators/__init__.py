"""Learners of the papers that scikit-learn lacks (DLDA, Welch t-test selection)."""

from ._dlda import DiagonalLDA
from ._feature_selection import welch_t_score

__all__ = ["DiagonalLDA", "welch_t_score"]
