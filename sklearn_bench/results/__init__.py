"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ..store import (  # the store's names, kept here for compatibility
    CorruptStoreError,
    SalvageReport,
    checkpoint_store,
    merge_stores,
    salvage_store,
)
from ._intervals import interval_method as interval_method
from ._latex import escape_latex, latex_frame, latex_table
from ._result import BenchmarkResult
from ._scales import IncommensurableScalesWarning

# For the analysis layer (public for it, not on the API page): the note on
# incommensurable scales, the per-data-set performance arrays, the common block
# of split scores of the corrected t within one data set and the method of the
# interval of a learner's error.
from ._scales import scale_note as scale_note
from ._select import performance_arrays as performance_arrays
from ._within import corrected_t_block as corrected_t_block

__all__ = [
    "BenchmarkResult",
    "CorruptStoreError",
    "IncommensurableScalesWarning",
    "SalvageReport",
    "checkpoint_store",
    "escape_latex",
    "latex_frame",
    "latex_table",
    "merge_stores",
    "salvage_store",
]
