"""The analysis plan of a study, run once: every number its outputs render."""

from ..stats import adjusted_by  # noqa: F401  (the words of a correction)
from ._analysis import Analysis, LeaderboardAnalysis, PowerAnalysis, analyse
from ._bayesian import HIERARCHICAL_DRAWS, N_SAMPLES, SEED, THRESHOLD  # noqa: F401
from ._bottom_line import (  # noqa: F401
    DISAGREEMENTS_TITLE,
    MORE_TITLE,
    BottomLine,
    adjusted_interval_words,
    delta_words,
)
from ._disagreements import Disagreement
from ._format import (  # noqa: F401  (one number format for every renderer)
    fmt_count,
    fmt_estimate,
    fmt_interval,
    fmt_level,
    fmt_names,
    fmt_p,
    fmt_p_equals,
)
from ._plan import ANALYSES, AnalysisPlan, plan_settings  # noqa: F401
from ._records import CITATIONS, SIGN_CONVENTION, TestRecord, cited_keys  # noqa: F401

# The renderers' constants and formats are importable from here too; __all__
# lists the API: the function, the plan, the analysis and its field types.
__all__ = [
    "Analysis",
    "AnalysisPlan",
    "BottomLine",
    "Disagreement",
    "LeaderboardAnalysis",
    "PowerAnalysis",
    "TestRecord",
    "analyse",
]
