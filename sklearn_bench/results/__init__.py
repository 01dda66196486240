"""BenchmarkResult: the tidy scores of an experiment, and the analyses on them."""

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
    "merge_stores",
    "salvage_store",
]
