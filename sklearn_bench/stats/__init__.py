"""Statistics for comparing learners: pure functions on arrays, frozen results."""

from ._multitest import adjust_pvalues

__all__ = ["adjust_pvalues"]
