"""Statistics for comparing learners: pure functions on arrays, frozen results."""

from ._anova import RMAnovaResult, rm_anova, tukey_hsd
from ._bayesian import (
    BayesianTestResult,
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
)
from ._block_rank_tests import (
    BlockTestResult,
    durbin_test,
    friedman_aligned_ranks_test,
    quade_test,
)
from ._bootstrap_ci import bootstrap_ci
from ._classifiers import cochrans_q, proportion_difference_test
from ._common import ConfidenceInterval
from ._effect_size import EffectSizeResult, effect_size
from ._friedman import FriedmanResult, friedman_test
from ._generalization import (
    GeneralizationErrorResult,
    cv_auc_interval,
    generalization_error_interval,
)
from ._global_permutation import GlobalPermutationResult, global_permutation_test
from ._hierarchical import bayesian_hierarchical
from ._leaderboard import (
    LeaderboardResult,
    leaderboard_table,
    rank_confidence_sets,
    win_rate_matrix,
)
from ._mcnemar import error_rate_intervals, mcnemar_test
from ._multiple_rule_bias import multiple_rule_bias
from ._multitest import ADJUST_METHODS, adjust_pvalues  # noqa: F401
from ._paired import PairedTestResult, paired_test, smallest_attainable_pvalue
from ._pairwise import PairwiseTestResult, pairwise_tests
from ._plackett_luce import PlackettLuceResult, bayesian_plackett_luce
from ._power import n_datasets_needed, power_paired_t
from ._simultaneous import simultaneous_intervals
from ._skillings_mack import skillings_mack_test

# Also public, for the layers above (analysis, results), but not an API-page
# object (so not in __all__): ADJUST_METHODS, the one list of choices of `adjust`
# (a mapping of each choice to its name in a text).

__all__ = [
    "BayesianTestResult",
    "BlockTestResult",
    "ConfidenceInterval",
    "EffectSizeResult",
    "FriedmanResult",
    "GeneralizationErrorResult",
    "GlobalPermutationResult",
    "LeaderboardResult",
    "PairedTestResult",
    "PairwiseTestResult",
    "PlackettLuceResult",
    "RMAnovaResult",
    "adjust_pvalues",
    "bayesian_correlated_t",
    "bayesian_hierarchical",
    "bayesian_plackett_luce",
    "bayesian_sign_test",
    "bayesian_signed_rank",
    "bootstrap_ci",
    "cochrans_q",
    "cv_auc_interval",
    "durbin_test",
    "effect_size",
    "error_rate_intervals",
    "friedman_aligned_ranks_test",
    "friedman_test",
    "generalization_error_interval",
    "global_permutation_test",
    "leaderboard_table",
    "mcnemar_test",
    "multiple_rule_bias",
    "n_datasets_needed",
    "paired_test",
    "pairwise_tests",
    "power_paired_t",
    "proportion_difference_test",
    "quade_test",
    "rank_confidence_sets",
    "rm_anova",
    "simultaneous_intervals",
    "skillings_mack_test",
    "smallest_attainable_pvalue",
    "tukey_hsd",
    "win_rate_matrix",
]
