"""Learning problems, the papers' data generators and their published tables."""

from ._dataset import Dataset, SimulatedDataset
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
