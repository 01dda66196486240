"""Resampling splitters for benchmark experiments (Hothorn et al., 2005)."""

from ._replicates import replicate_ids

__all__ = ["replicate_ids"]
