"""The analysis plan of a study, run once: the numbers every output renders."""

from ._analysis import (
    ReportAnalysis,
    adjusted_interval_words,
    posthoc_title,
    within_test,
)
from ._bayesian import (  # noqa: F401  (the constants: importable, not API)
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
from ._disagreements import Disagreement
from ._format import (  # noqa: F401  (one number format for every renderer)
    fmt_estimate,
    fmt_interval,
    fmt_level,
    fmt_names,
    fmt_p,
    fmt_p_equals,
)
from ._leaderboard import (  # noqa: F401
    MIN_DATASETS,
    MIN_LEARNERS,
    leaderboard_analysis,
)
from ._pairwise import pairwise_analysis
from ._plan import (  # noqa: F401
    ANALYSES,
    BAYES_INSTALL,
    BAYESIAN_MODELS,
    OPTIONAL_ANALYSES,
    POSTHOCS,
    AnalysisPlan,
    check_posthoc,
    hierarchical_installed,
)
from ._records import (  # noqa: F401
    CITATIONS,
    PAIRED_METHODS,
    SIGN_CONVENTION,
    TestRecord,
    cited_keys,
    paired_method,
    register_test,
    uncited_mentions,
)
from ._run import analyse

# The documented constants of the analysis (its seeds, draws, thresholds and
# citations) are importable from here too; __all__ lists the API.
__all__ = [
    "ANALYSES",
    "BAYESIAN_MODELS",
    "OPTIONAL_ANALYSES",
    "POSTHOCS",
    "AnalysisPlan",
    "Disagreement",
    "ReportAnalysis",
    "TestRecord",
    "adjusted_interval_words",
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
