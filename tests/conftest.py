"""Shared fixtures: the reference values and UCI data sets in ``../shared``.

The package never reads ``../shared`` at run time; only tests do. Where the folder is
missing (for example a test run from an sdist), tests that need it are skipped, except
under CI (``CI=true``), where a missing reference is an error.
"""

import json
import os
from pathlib import Path

import pandas as pd
import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("SKLEARN_BENCH_SHARED", REPO.parent / "shared"))


def _require(path):
    if not path.exists():
        if os.environ.get("CI", "").lower() == "true":
            raise FileNotFoundError(
                f"{path} is missing in CI; shared/ must sit beside the repo."
            )
        pytest.skip(f"{path} not found (set SKLEARN_BENCH_SHARED)")
    return path


@pytest.fixture(scope="session")
def reference_cases():
    """All cases of ``shared/reference/cases.json``, keyed by their ``id``."""
    path = _require(SHARED / "reference" / "cases.json")
    return {case["id"]: case for case in json.loads(path.read_text())}


@pytest.fixture(scope="session")
def reference_table():
    """Load a CSV table of published results from ``shared/reference`` by file name."""

    def load(name):
        return pd.read_csv(_require(SHARED / "reference" / name), index_col=0)

    return load


@pytest.fixture(scope="session")
def uci_dataset():
    """Load a UCI data set from ``shared/datasets`` by file stem, e.g. ``"sonar"``."""

    def load(name):
        return pd.read_csv(_require(SHARED / "datasets" / f"{name}.csv"))

    return load
