"""Learners of the papers that scikit-learn lacks (DLDA, Welch t-test selection)."""

__all__ = []
