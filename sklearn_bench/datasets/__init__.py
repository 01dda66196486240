"""Learning problems of a benchmark experiment, and the papers' data generators."""

from ._dataset import Dataset, SimulatedDataset
from ._generators import make_angle_classification, make_microarray, make_nested_linear

__all__ = [
    "Dataset",
    "SimulatedDataset",
    "make_angle_classification",
    "make_microarray",
    "make_nested_linear",
]
