"""The analysis plan of a study, run once: the numbers every output renders."""

from ._analysis import ReportAnalysis, posthoc_title, within_test
from ._bayesian import (
    HIERARCHICAL_DRAWS,
    MAX_HIERARCHICAL,
    N_SAMPLES,
    RANKING_DRAWS,
    SEED,
    THRESHOLD,
    WITHOUT_HIERARCHICAL,
    bayesian_comparisons_table,
    bayesian_ranking,
)
from ._leaderboard import MIN_DATASETS, MIN_LEARNERS, leaderboard_analysis
from ._pairwise import pairwise_analysis
from ._plan import (
    ANALYSES,
    BAYES_INSTALL,
    BAYESIAN_MODELS,
    OPTIONAL_ANALYSES,
    POSTHOCS,
    AnalysisPlan,
    check_posthoc,
    hierarchical_installed,
)
from ._records import (
    CITATIONS,
    PAIRED_METHODS,
    TestRecord,
    paired_method,
    register_test,
)
from ._run import analyse, analyse_result  # noqa: F401  (deprecated)

__all__ = [
    "ANALYSES",
    "BAYESIAN_MODELS",
    "BAYES_INSTALL",
    "CITATIONS",
    "HIERARCHICAL_DRAWS",
    "MAX_HIERARCHICAL",
    "MIN_DATASETS",
    "MIN_LEARNERS",
    "N_SAMPLES",
    "OPTIONAL_ANALYSES",
    "PAIRED_METHODS",
    "POSTHOCS",
    "RANKING_DRAWS",
    "SEED",
    "THRESHOLD",
    "WITHOUT_HIERARCHICAL",
    "AnalysisPlan",
    "ReportAnalysis",
    "TestRecord",
    "analyse",
    "bayesian_comparisons_table",
    "bayesian_ranking",
    "check_posthoc",
    "hierarchical_installed",
    "leaderboard_analysis",
    "paired_method",
    "pairwise_analysis",
    "posthoc_title",
    "register_test",
    "within_test",
]
