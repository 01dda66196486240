"""Resampling splitters for benchmark experiments (Hothorn et al., 2005)."""

__all__ = []
