"""Resampling splitters for benchmark experiments (Hothorn et al., 2005)."""

from ._bootstrap import (
    BootstrapCV,
    BootstrapOOB,
    StratifiedBootstrapCV,
    StratifiedBootstrapOOB,
)
from ._bootstrap632 import Bootstrap632Result, Bootstrap632Scorer
from ._replicates import replicate_ids

__all__ = [
    "Bootstrap632Result",
    "Bootstrap632Scorer",
    "BootstrapCV",
    "BootstrapOOB",
    "StratifiedBootstrapCV",
    "StratifiedBootstrapOOB",
    "replicate_ids",
]
