"""Learning problems, the papers' data generators and their published tables."""

from ._dataset import PROBLEM_WORDS as PROBLEM_WORDS
from ._dataset import Dataset, SimulatedDataset
from ._dataset import check_datasets as check_datasets
from ._generators import make_angle_classification, make_microarray, make_nested_linear
from ._published import load_demsar2006, load_dietterich2000

__all__ = [
    "Dataset",
    "SimulatedDataset",
    "load_demsar2006",
    "load_dietterich2000",
    "make_angle_classification",
    "make_microarray",
    "make_nested_linear",
]
# check_datasets (validation of a {name: data} mapping) is public for the
# experiment layer, PROBLEM_WORDS (the problems in plain words) for the report;
# neither is on the API page.
