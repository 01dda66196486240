"""Statistics for comparing learners: pure functions on arrays, frozen results."""

from ._friedman import FriedmanResult, critical_difference, friedman_test
from ._global_permutation import GlobalPermutationResult, global_permutation_test
from ._multitest import adjust_pvalues

__all__ = [
    "FriedmanResult",
    "GlobalPermutationResult",
    "adjust_pvalues",
    "critical_difference",
    "friedman_test",
    "global_permutation_test",
]
