"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ..store import (  # the store's names, kept here for compatibility
    CorruptStoreError,
    SalvageReport,
    checkpoint_store,
    merge_stores,
    salvage_store,
)
from ._latex import escape_latex, latex_frame, latex_table
from ._result import BenchmarkResult

__all__ = [
    "BenchmarkResult",
    "CorruptStoreError",
    "SalvageReport",
    "checkpoint_store",
    "escape_latex",
    "latex_frame",
    "latex_table",
    "merge_stores",
    "salvage_store",
]
