"""Shared fixtures: the reference values in ``tests/reference`` and the UCI data sets.

The reference values (R output and published tables: plain JSON and CSV, with their
provenance in ``tests/reference/README.md``) are copied into the repository, so the
suite runs every reference test in a fresh clone. They are data: never edit them to make
a test pass; ``tests/reference/SHA256SUMS`` records what was copied.

Under CI (``CI=true``) a skipped reference test fails the run: the README says the
statistics are tested against R, so those tests must run.
"""

import json
import os
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import settings

# Hypothesis profiles: the default keeps every test's own settings (the
# consistency harness runs 25 studies in CI); HYPOTHESIS_PROFILE=deep searches
# longer (tests/test_consistency.py reads it too).
settings.register_profile("deep", max_examples=400, deadline=None)
if os.environ.get("HYPOTHESIS_PROFILE"):
    settings.load_profile(os.environ["HYPOTHESIS_PROFILE"])

REPO = Path(__file__).resolve().parents[1]
REFERENCE = Path(__file__).resolve().parent / "reference"
SHARED = Path(os.environ.get("SKLEARN_BENCH_SHARED", REPO.parent / "shared"))
REFERENCE_FIXTURES = {"reference_cases", "reference_table"}


def _in_ci():
    return os.environ.get("CI", "").lower() == "true"


def _require(path):
    if not path.exists():
        if _in_ci():
            raise FileNotFoundError(f"{path} is missing in CI.")
        pytest.skip(f"{path} not found")
    return path


@pytest.fixture(scope="session")
def reference_cases():
    """All cases of ``tests/reference/cases.json``, keyed by their ``id``."""
    path = _require(REFERENCE / "cases.json")
    return {case["id"]: case for case in json.loads(path.read_text())}


@pytest.fixture(scope="session")
def reference_table():
    """Load a CSV table of published results from ``tests/reference`` by file name."""

    def load(name):
        return pd.read_csv(_require(REFERENCE / name), index_col=0)

    return load


@pytest.fixture(scope="session")
def uci_dataset():
    """Load a UCI data set from ``shared/datasets`` by file stem, e.g. ``"sonar"``."""

    def load(name):
        return pd.read_csv(_require(SHARED / "datasets" / f"{name}.csv"))

    return load


_SKIPPED_REFERENCE_TESTS = []


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """Record every skipped test that uses the reference values."""
    outcome = yield
    report = outcome.get_result()
    if report.skipped and REFERENCE_FIXTURES & set(getattr(item, "fixturenames", ())):
        _SKIPPED_REFERENCE_TESTS.append(item.nodeid)


def pytest_sessionfinish(session, exitstatus):
    """Under CI, a skipped reference test turns the run into a failure."""
    if _SKIPPED_REFERENCE_TESTS and _in_ci():
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """Name the skipped reference tests (an error under CI); count the fuzz inputs."""
    import sys

    fuzz = sys.modules.get("tests.test_fuzz")
    if fuzz is not None and fuzz.N_BAD_INPUTS:
        terminalreporter.write_line(
            f"fuzz: {len(fuzz.N_BAD_INPUTS)} distinct bad inputs tried"
        )
    if _SKIPPED_REFERENCE_TESTS:
        what = "ERROR (CI=true)" if _in_ci() else "warning"
        terminalreporter.write_line(
            f"{what}: {len(_SKIPPED_REFERENCE_TESTS)} reference test(s) were skipped: "
            + ", ".join(_SKIPPED_REFERENCE_TESTS[:5]),
            red=_in_ci(),
        )


class Outside:
    """A folder of the user's beside a command's output folder, and the digest
    of everything in it (names, bytes, link targets, modes; links not
    followed): :meth:`unchanged` says whether a command changed anything
    outside its output folder (issue 38)."""

    def __init__(self, path):
        self.path = path
        (path / "sub").mkdir(parents=True)
        (path / "notes.txt").write_text("the user's notes\n")
        (path / "sub" / "thesis.tex").write_text("\\documentclass{article}\n")
        self.before = self.digest()

    def digest(self):
        import hashlib

        h = hashlib.sha256()
        for root, dirs, files in sorted(os.walk(self.path)):
            for name in sorted([*dirs, *files]):
                p = Path(root) / name
                st = p.lstat()
                h.update(f"{p.relative_to(self.path)}|{st.st_mode}|".encode())
                if p.is_symlink():
                    h.update(os.readlink(p).encode())
                elif p.is_file():
                    h.update(p.read_bytes())
        return h.hexdigest()

    def unchanged(self):
        return self.digest() == self.before


@pytest.fixture
def outside(tmp_path):
    """A folder of the user's beside the test's outputs (``tmp_path/outside``)
    that no command may change; assert ``outside.unchanged()``."""
    return Outside(tmp_path / "outside")
