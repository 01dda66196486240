"""The store: an SQLite journal of a benchmark experiment, written task by task."""

from ._merge import merge_stores
from ._reader import verify_checksums
from ._repair import SalvageReport, checkpoint_store, salvage_store
from ._schema import CorruptStoreError, NotAStoreError, StoreMismatchError

__all__ = [
    "CorruptStoreError",
    "NotAStoreError",
    "SalvageReport",
    "StoreMismatchError",
    "checkpoint_store",
    "merge_stores",
    "salvage_store",
    "verify_checksums",
]
