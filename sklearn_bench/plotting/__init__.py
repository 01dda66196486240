"""Figures for benchmark experiments (matplotlib)."""

__all__ = []
