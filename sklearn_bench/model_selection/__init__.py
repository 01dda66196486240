"""Resampling splitters for benchmark experiments (Hothorn et al., 2005)."""

from ._bootstrap import (
    BootstrapCV,
    BootstrapOOB,
    StratifiedBootstrapCV,
    StratifiedBootstrapOOB,
)
from ._replicates import replicate_ids

__all__ = [
    "BootstrapCV",
    "BootstrapOOB",
    "StratifiedBootstrapCV",
    "StratifiedBootstrapOOB",
    "replicate_ids",
]
