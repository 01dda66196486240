"""Statistics for comparing learners: pure functions on arrays, frozen results."""

from ._anova import RMAnovaResult, TukeyHSDResult, rm_anova, tukey_hsd
from ._bayesian import (
    BayesianTestResult,
    bayesian_correlated_t,
    bayesian_sign_test,
    bayesian_signed_rank,
    bayesian_table,
    shared_dirichlet_draws,  # noqa: F401
)
from ._block_rank_tests import (
    BlockRankTestResult,
    durbin_test,
    friedman_aligned_ranks_test,
    quade_test,
)
from ._bootstrap_ci import bootstrap_ci
from ._classifiers import (
    ClassifierComparisonResult,
    ProportionDifferenceResult,
    cochrans_q,
    f_test_classifiers,
    proportion_difference_test,
)
from ._common import ConfidenceInterval
from ._effect_size import (
    EffectSizeResult,
    akinshin_gamma,
    cliffs_delta,
    cohens_d,
    cohens_dz,
    rank_biserial,
    sign_dominance,
)
from ._five_by_two import five_by_two_cv_test
from ._friedman import FriedmanResult, critical_difference, friedman_test
from ._generalization import (
    GeneralizationErrorResult,
    cv_auc_interval,
    generalization_error_interval,
)
from ._global_permutation import GlobalPermutationResult, global_permutation_test
from ._hierarchical import bayesian_hierarchical
from ._leaderboard import (
    LeaderboardResult,
    RankConfidenceSetsResult,
    RankStabilityResult,
    bradley_terry_ratings,
    leaderboard_table,
    rank_confidence_sets,
    rank_stability,
    win_rate_matrix,
)
from ._mcnemar import (
    McNemarResult,
    error_rate_difference_ci,
    error_rate_intervals,
    mcnemar_test,
)
from ._multiple_rule_bias import MultipleRuleBiasResult, multiple_rule_bias
from ._multitest import ADJUST_METHODS, adjust_pvalues  # noqa: F401
from ._paired import (
    PairedTestResult,
    paired_test,
    smallest_attainable_pvalue,
)
from ._pairwise import PairwiseTestResult, pairwise_tests
from ._plackett_luce import PlackettLuceResult, bayesian_plackett_luce
from ._posthoc import PosthocResult
from ._power import n_datasets_needed, power_paired_t
from ._simultaneous import SimultaneousIntervalsResult, simultaneous_intervals
from ._skillings_mack import SkillingsMackResult, skillings_mack_test

# Also public, for the layers above (analysis, report), but not an API-page object
# (so not in __all__): ADJUST_METHODS, the one list of choices of `adjust`;
# shared_dirichlet_draws, the context in which Dirichlet-process tests with one
# seed share their draws.

__all__ = [
    "BayesianTestResult",
    "BlockRankTestResult",
    "ClassifierComparisonResult",
    "ConfidenceInterval",
    "EffectSizeResult",
    "FriedmanResult",
    "GeneralizationErrorResult",
    "GlobalPermutationResult",
    "LeaderboardResult",
    "McNemarResult",
    "MultipleRuleBiasResult",
    "PairedTestResult",
    "PairwiseTestResult",
    "PosthocResult",
    "RankConfidenceSetsResult",
    "RankStabilityResult",
    "ProportionDifferenceResult",
    "RMAnovaResult",
    "PlackettLuceResult",
    "SimultaneousIntervalsResult",
    "SkillingsMackResult",
    "TukeyHSDResult",
    "adjust_pvalues",
    "akinshin_gamma",
    "bayesian_correlated_t",
    "bayesian_hierarchical",
    "bayesian_plackett_luce",
    "bayesian_sign_test",
    "bayesian_signed_rank",
    "bayesian_table",
    "bootstrap_ci",
    "bradley_terry_ratings",
    "cochrans_q",
    "cliffs_delta",
    "cohens_d",
    "cohens_dz",
    "critical_difference",
    "cv_auc_interval",
    "durbin_test",
    "error_rate_difference_ci",
    "error_rate_intervals",
    "f_test_classifiers",
    "five_by_two_cv_test",
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
    "quade_test",
    "proportion_difference_test",
    "rm_anova",
    "rank_biserial",
    "rank_confidence_sets",
    "rank_stability",
    "sign_dominance",
    "simultaneous_intervals",
    "skillings_mack_test",
    "smallest_attainable_pvalue",
    "win_rate_matrix",
    "tukey_hsd",
]
