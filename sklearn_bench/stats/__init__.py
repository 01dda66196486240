"""Statistics for comparing learners: pure functions on arrays, frozen results."""

from ._bayesian import (
    BayesianTestResult,
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
    bayesian_table,
)
from ._bootstrap_ci import bootstrap_ci
from ._effect_size import (
    EffectSizeResult,
    cliffs_delta,
    cohens_dz,
    rank_biserial,
    rank_biserial_from_ranks,
    sign_dominance,
)
from ._five_by_two import five_by_two_cv_test
from ._friedman import FriedmanResult, critical_difference, friedman_test
from ._global_permutation import GlobalPermutationResult, global_permutation_test
from ._hierarchical import bayesian_hierarchical
from ._mcnemar import (
    McNemarResult,
    error_rate_difference_ci,
    error_rate_intervals,
    mcnemar_test,
)
from ._multiple_rule_bias import MultipleRuleBiasResult, multiple_rule_bias
from ._multitest import adjust_pvalues
from ._paired import PairedTestResult, paired_test, smallest_attainable_pvalue
from ._pairwise import PairwiseTestResult, adjust_pairwise_pvalues, pairwise_tests
from ._plackett_luce import PlackettLuceResult, bayesian_plackett_luce
from ._power import n_datasets_needed, power_paired_t
from ._skillings_mack import SkillingsMackResult, skillings_mack_test

__all__ = [
    "BayesianTestResult",
    "EffectSizeResult",
    "FriedmanResult",
    "GlobalPermutationResult",
    "McNemarResult",
    "MultipleRuleBiasResult",
    "PairedTestResult",
    "PairwiseTestResult",
    "PlackettLuceResult",
    "SkillingsMackResult",
    "adjust_pairwise_pvalues",
    "adjust_pvalues",
    "bayesian_correlated_t",
    "bayesian_hierarchical",
    "bayesian_plackett_luce",
    "bayesian_sign_test",
    "bayesian_signed_rank",
    "bayesian_table",
    "bootstrap_ci",
    "cliffs_delta",
    "cohens_dz",
    "critical_difference",
    "error_rate_difference_ci",
    "error_rate_intervals",
    "five_by_two_cv_test",
    "friedman_test",
    "global_permutation_test",
    "mcnemar_test",
    "multiple_rule_bias",
    "n_datasets_needed",
    "paired_test",
    "pairwise_tests",
    "power_paired_t",
    "rank_biserial",
    "rank_biserial_from_ranks",
    "sign_dominance",
    "skillings_mack_test",
    "smallest_attainable_pvalue",
]
