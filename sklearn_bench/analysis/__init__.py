"""The analysis plan of a study, run once: every number its outputs render."""

from ._analysis import (
    Analysis,
    BestLearners,
    LeaderboardAnalysis,
    PowerAnalysis,
    analyse,
)
from ._bottom_line import BottomLine
from ._disagreements import Disagreement
from ._plan import AnalysisPlan
from ._records import TestRecord

__all__ = [
    "Analysis",
    "AnalysisPlan",
    "BestLearners",
    "BottomLine",
    "Disagreement",
    "LeaderboardAnalysis",
    "PowerAnalysis",
    "TestRecord",
    "analyse",
]
