"""The methods paragraph of sklearn_bench/report/_methods.py as a journal would
read it: every work cited is listed and every listed work is cited; a result
from a table (from_frame) says only what is known."""

import re

import numpy as np
import pandas as pd

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis._records import _SHORT, CITATIONS

from .._report import report


def _frame_result():
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "d": np.repeat(["a", "b", "c", "e"], 3),
            "l": ["A", "B", "C"] * 4,
            "error_rate": rng.uniform(0.1, 0.3, 12),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


def _cited_and_listed(md):
    md = re.sub(r"\\(.)", r"\1", md)  # Markdown's escapes read as text
    body, refs = md.split("## References")
    cited = {key for key, short in _SHORT.items() if short in body}
    listed = {key for key, text in CITATIONS.items() if text in refs}
    return cited, listed


def test_from_frame_methods_say_only_what_is_known(tmp_path):
    """H: the methods paragraph of a from_frame result has no "nan", "unknown",
    "1 replicates", "± nan" or "drawn by", and cites what it lists."""
    report(_frame_result(), tmp_path, figure_formats=())
    md = (tmp_path / "methods.md").read_text()
    for bad in ("nan", "unknown", "1 replicates", "drawn by", "seed None"):
        assert bad not in md, bad
    cited, listed = _cited_and_listed(md)
    assert cited == listed


def test_run_methods_cite_every_listed_work_and_list_every_cited_one(tmp_path):
    """H: in the methods paragraph of a real run (matched-pairs design, so
    Hothorn et al. 2005 is cited) every cited work is listed and every listed
    work is cited; Boulesteix et al. is the 2015 American Statistician paper;
    row counts are integers, never a median such as 42.5."""
    from sklearn.datasets import load_iris
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.model_selection import BootstrapOOB

    X, y = load_iris(return_X_y=True)
    res = (
        BenchmarkExperiment(
            {"dummy": DummyClassifier(), "nb": GaussianNB()},
            cv=BootstrapOOB(n_bootstraps=5),
            random_state=0,
        )
        .fit({"iris": (X, y), "iris_half": (X[::2], y[::2])})
        .results_
    )
    report(res, tmp_path, figure_formats=())
    md = (tmp_path / "methods.md").read_text()
    cited, listed = _cited_and_listed(md)
    assert "hothorn2005" in cited and cited == listed
    assert "Boulesteix et al. 2015" in md or "boulesteix2015" not in listed
    assert "(2015). A statistical framework" in CITATIONS["boulesteix2015"]
    assert not re.search(r"\d+\.5 (learning|validation) rows", md)
