"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ._intervals import interval_method as interval_method
from ._latex import incomplete_datasets as incomplete_datasets
from ._latex import performance_table as performance_table
from ._latex import within_table as within_table
from ._result import BenchmarkResult
from ._scales import IncommensurableScalesWarning

# For the analysis layer (public for it, not on the API page): the note on
# incommensurable scales, the per-data-set performance arrays, the common block
# of split scores of the corrected t within one data set and the method of the
# interval of a learner's error.
from ._scales import scale_note as scale_note
from ._select import performance_arrays as performance_arrays
from ._select import primary_rows as primary_rows
from ._within import corrected_t_block as corrected_t_block

__all__ = ["BenchmarkResult", "IncommensurableScalesWarning"]
