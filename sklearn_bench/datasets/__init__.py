"""Learning problems of a benchmark experiment, and the papers' data generators."""

from ._dataset import PROBLEM_WORDS as PROBLEM_WORDS
from ._dataset import Dataset, SimulatedDataset
from ._dataset import check_datasets as check_datasets
from ._generators import make_angle_classification, make_microarray, make_nested_linear

__all__ = [
    "Dataset",
    "SimulatedDataset",
    "make_angle_classification",
    "make_microarray",
    "make_nested_linear",
]
# check_datasets (validation of a {name: data} mapping) is public for the
# experiment layer, PROBLEM_WORDS (the problems in plain words) for the report;
# neither is on the API page.
