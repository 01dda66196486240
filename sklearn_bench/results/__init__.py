"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

from ._latex import escape_latex, latex_frame, latex_table
from ._result import BenchmarkResult
from ._store import merge_stores
from ._store_repair import (
    CorruptStoreError,
    SalvageReport,
    checkpoint_store,
    salvage_store,
)

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
