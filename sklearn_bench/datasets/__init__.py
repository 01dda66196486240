"""Learning problems of a benchmark experiment, and the papers' data generators."""

from ._dataset import Dataset, SimulatedDataset

__all__ = ["Dataset", "SimulatedDataset"]
