"""The reference values live in the repository, and CI never skips a test of them."""

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
REFERENCE = TESTS / "reference"


def test_reference_files_are_the_recorded_copies():
    """H: every file of tests/reference is byte-identical to the copy recorded in
    SHA256SUMS (the R output, the Stan posteriors and published tables are data,
    never edited), and every reference JSON or CSV file is listed there."""
    lines = (REFERENCE / "SHA256SUMS").read_text().splitlines()
    listed = {line.split()[1] for line in lines}
    data = {
        str(p.relative_to(REFERENCE))
        for p in REFERENCE.rglob("*")
        if p.suffix in {".json", ".csv"}
    }
    assert data <= listed, sorted(data - listed)
    for line in lines:
        digest, name = line.split()
        assert hashlib.sha256((REFERENCE / name).read_bytes()).hexdigest() == digest


def test_reference_fixture_reads_from_tests_not_shared(reference_cases, monkeypatch):
    """H: the reference cases load from tests/reference, so a clone without ../shared
    runs them (the fixture's file is inside the repository)."""
    import tests.conftest as conftest

    assert conftest.REFERENCE == REFERENCE
    assert "ttest_paired_demsar_c45m_vs_c45_two_sided" in reference_cases


def _run_skipping_suite(tmp_path, ci):
    """A suite with our conftest whose one reference test is skipped."""
    shutil.copy(TESTS / "conftest.py", tmp_path / "conftest.py")
    (tmp_path / "reference").mkdir()
    (tmp_path / "reference" / "cases.json").write_text("[]")
    (tmp_path / "test_x.py").write_text(
        "import pytest\n"
        "def test_uses_reference(reference_cases):\n"
        "    pytest.skip('e.g. an optional dependency is missing')\n"
        "def test_plain():\n"
        "    pass\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "CI"}
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
    )


@pytest.mark.parametrize("ci", [False, True])
def test_ci_fails_when_a_reference_test_is_skipped(tmp_path, ci):
    """H: a skipped reference test is a warning locally (exit 0) but fails the run
    under CI=true (exit 1), naming the test."""
    proc = _run_skipping_suite(tmp_path, ci)
    out = proc.stdout + proc.stderr
    assert "test_uses_reference" in out
    if ci:
        assert proc.returncode == 1, out
        assert "ERROR (CI=true): 1 reference test(s) were skipped" in out
    else:
        assert proc.returncode == 0, out
        assert "warning: 1 reference test(s) were skipped" in out
