"""The README's usage example runs as written (with fewer bootstraps)."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(tmp_path, monkeypatch, capsys):
    """H: the README's Python snippet runs unchanged but for its size, and prints an
    interval and a p-value."""
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert "BootstrapOOB(n_bootstraps=50)" in code
    code = code.replace("BootstrapOOB(n_bootstraps=50)", "BootstrapOOB(n_bootstraps=4)")
    monkeypatch.chdir(tmp_path)  # the example writes run.sqlite where it runs
    exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "ConfidenceInterval(low=" in out
    assert (tmp_path / "run.sqlite").exists()


def test_readme_example_shows_a_valid_analysis_first():
    """H: the README's example shows the default within-data-set test (the
    corrected resampled t, valid for new data) and no test over bootstrap
    replicates as blocks (Friedman with ``dataset=``, whose type I error is far
    above its level for the generalisation question)."""
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert "paired_test(" in code
    assert "friedman" not in code
    assert "method=" not in code  # the default, the corrected t
