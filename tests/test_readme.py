"""The README's usage example runs as written (with fewer splits)."""

import re
from pathlib import Path

README = Path(__file__).resolve().parents[1] / "README.md"


def test_readme_python_example_runs(tmp_path, monkeypatch, capsys):
    """H: the README's Python snippet runs unchanged but for its size, and prints an
    interval and a p-value."""
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    assert "cv=" not in code.replace("# cv=None", "")  # the default splitter
    small = "cv=RepeatedStratifiedKFold(n_splits=3, n_repeats=2), random_state=0,"
    code = code.replace("random_state=0,", small)
    code = "from sklearn.model_selection import RepeatedStratifiedKFold\n" + code
    monkeypatch.chdir(tmp_path)  # the example writes run.sqlite where it runs
    exec(compile(code, str(README), "exec"), {})
    out = capsys.readouterr().out
    assert "ConfidenceInterval(low=" in out and "FriedmanResult(" in out
    assert "method='corrected_t'" in out and "n_datasets_needed" in out
    assert (tmp_path / "run.sqlite").exists()


def test_readme_example_shows_a_valid_analysis_first():
    """H: the README's example uses the design card's four names, shows the
    default within-data-set test (the corrected resampled t, valid for new
    data) and no test over replicates as blocks (Friedman with ``dataset=``,
    whose type I error is far above its level for the generalisation
    question)."""
    code = re.search(r"```python\n(.*?)```", README.read_text(), re.S).group(1)
    for name in ("paired_test(", "friedman(", "confidence_interval(", "power("):
        assert f".{name}" in code
    assert "friedman(dataset" not in code and "friedman_test" not in code
    assert "method=" not in code  # the default, the corrected t
