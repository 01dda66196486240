"""The store: an SQLite journal of a benchmark experiment, written task by task."""

# Besides __all__, for the layers above (not the API page): the writer and the
# readers behind BenchmarkExperiment(store=) and BenchmarkResult.from_store, what
# `store check` reads of a damaged store, the report's provenance checks.
from ._merge import merge_stores
from ._provenance import is_estimator_description, is_named_steps  # noqa: F401
from ._reader import (  # noqa: F401
    losses_loader,
    losses_table,
    predictions_loader,
    read_losses,
    read_predictions,
    read_store,
    verify_checksums,
)
from ._repair import SalvageReport, checkpoint_store, read_salvageable, salvage_store  # noqa: F401
from ._schema import (  # noqa: F401
    SCHEMA_VERSION,
    CorruptStoreError,
    NotAStoreError,
    StoreMismatchError,
    Task,
)
from ._writer import StoreWriter, open_writer  # noqa: F401

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
