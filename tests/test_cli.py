import contextlib
import io

import pytest

from sklearn_bench.cli import main


@pytest.fixture(scope="module")
def demo_run():
    """Exit code and output of one `sklearn-bench demo` (a few seconds)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(["demo"])
    return code, out.getvalue()


def test_demo_command_runs(demo_run):
    """H: `sklearn-bench demo` runs the splitters on breast cancer and exits 0."""
    code, text = demo_run
    assert code == 0
    for name in ("10-fold CV", "BootstrapOOB(25)", "BootstrapCV(10, 5)", ".632+"):
        assert name in text


def test_demo_reports_replicate_counts_and_plausible_errors(demo_run):
    """H: the demo counts 25 OOB replicates and 10 BootstrapCV replicates of 5 folds,
    and its mean errors are those of a good classifier on breast cancer (< 10%)."""
    _, text = demo_run
    rows = {line[:20].strip(): line[20:].split() for line in text.splitlines()}
    assert rows["BootstrapOOB(25)"][:2] == ["25", "25"]
    assert rows["BootstrapCV(10, 5)"][:2] == ["50", "10"]
    assert rows["10-fold CV"][:2] == ["10", "1"]
    for key in ("10-fold CV", "BootstrapOOB(25)", "BootstrapCV(10, 5)"):
        assert 0 < float(rows[key][2]) < 0.10


def test_cli_without_command_prints_help(capsys):
    """H: the bare command prints usage and returns 2."""
    assert main([]) == 2
    assert "demo" in capsys.readouterr().out


def test_cli_help_exits_zero():
    """H: `sklearn-bench --help` works."""
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
