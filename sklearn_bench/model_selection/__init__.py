"""Resampling splitters for benchmark experiments (Hothorn et al., 2005)."""

from ._bias_variance import BiasVarianceResult, bias_variance_decomposition
from ._bootstrap import (
    BootstrapCV,
    BootstrapOOB,
    StratifiedBootstrapCV,
    StratifiedBootstrapOOB,
)
from ._bootstrap632 import Bootstrap632Result, Bootstrap632Scorer
from ._designs import NestedCV, PairedSubsampling
from ._replicates import replicate_ids

__all__ = [
    "BiasVarianceResult",
    "Bootstrap632Result",
    "Bootstrap632Scorer",
    "BootstrapCV",
    "BootstrapOOB",
    "NestedCV",
    "PairedSubsampling",
    "StratifiedBootstrapCV",
    "StratifiedBootstrapOOB",
    "bias_variance_decomposition",
    "replicate_ids",
]
