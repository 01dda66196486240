"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

# The report's defaults the public methods share (power's pairs, the Bayesian
# seed and draws), read by the analysis layer.
from ._bayesian import HIERARCHICAL_DRAWS, N_SAMPLES, SEED  # noqa: F401
from ._intervals import interval_method as interval_method
from ._pairs import MAX_LEARNERS_ALL_PAIRS  # noqa: F401
from ._result import BenchmarkResult
from ._scales import IncommensurableScalesWarning

# For the analysis layer (public for it, not on the API page): the note on
# incommensurable scales, the per-data-set performance arrays, the common block
# of split scores of the corrected t within one data set and the method of the
# interval of a learner's error.
from ._scales import scale_note as scale_note
from ._select import performance_arrays as performance_arrays
from ._within import corrected_t_block as corrected_t_block

__all__ = ["BenchmarkResult", "IncommensurableScalesWarning"]
