"""The store: an SQLite journal of a benchmark experiment, written task by task."""

from ._merge import merge_stores
from ._provenance import (  # noqa: F401  (package-internal: the report reads them)
    is_estimator_description,
    is_named_steps,
)
from ._reader import (  # noqa: F401  (the loaders: results, experiment)
    losses_loader,
    losses_table,
    predictions_loader,
    read_losses,
    read_predictions,
    read_store,
    verify_checksums,
)
from ._repair import (
    SalvageReport,
    checkpoint_store,
    read_salvageable,
    salvage_store,
)
from ._schema import (
    SCHEMA_VERSION,
    CorruptStoreError,
    NotAStoreError,
    StoreMismatchError,
    Task,
)
from ._writer import StoreWriter, open_writer

__all__ = [
    "SCHEMA_VERSION",
    "CorruptStoreError",
    "NotAStoreError",
    "SalvageReport",
    "StoreMismatchError",
    "StoreWriter",
    "Task",
    "checkpoint_store",
    "merge_stores",
    "open_writer",
    "read_predictions",
    "read_salvageable",
    "read_store",
    "salvage_store",
    "verify_checksums",
]
