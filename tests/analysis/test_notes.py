"""Tests of the notes of sklearn_bench/analysis/_records.py (one note per cause)."""

import html

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.analysis._records import within_notes
from sklearn_bench.report import format_summary, write_report


def _imported(n_learners=6, n_datasets=5, n_replicates=4, **sizes):
    """Error rates with replicates, imported as a table (no splitter, no split
    sizes unless ``sizes`` gives them)."""
    rng = np.random.default_rng(0)
    rows = [
        (f"t{d}", f"m{j}", r, 0.2 + 0.01 * j + rng.normal(0, 0.02))
        for d in range(n_datasets)
        for j in range(n_learners)
        for r in range(n_replicates)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "err"])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="err",
        replicate="rep",
        greater_is_better=False,
        **sizes,
    )


def test_unknown_scheme_is_one_note_with_count_and_fix(tmp_path):
    """H: a from_frame study with replicates and no split sizes lacks every
    interval within a data set for one cause; the analysis, the text summary and
    report.html say it once, with the number of comparisons (5 data sets × 5
    learners = 25) and the way out (the split sizes to from_frame), not once per
    comparison."""
    result = _imported()
    analysis = analyse(result, AnalysisPlan(analyses=("effects",)))
    assert len(analysis.within) == 25 and (analysis.within["n"] == 0).all()
    scheme = [n for n in map(str, analysis.notes) if "scheme is unknown" in n]
    assert tuple(scheme) == tuple(map(str, analysis.within_notes)) and len(scheme) == 1
    (note,) = scheme
    assert note.startswith("No interval for 25 learner × data-set differences (")
    assert "and 22 more" in note and "`n_train=` and `n_test=`" in note
    text = format_summary(analysis)
    flat = " ".join(text.split())  # the summary wraps at 88 columns
    assert text.count("No interval for") == 1 and note in flat
    assert "No paired interval on 5 data set(s)" in text
    write_report(
        analyse(result, AnalysisPlan(analyses=("effects",))),
        tmp_path,
        figure_formats=("png",),
    )
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert page.count("No interval for") == 1 and html.escape(note) in page


def test_the_fix_of_the_note_gives_the_intervals():
    """H: the way out the note names works: with n_train and n_test given to
    from_frame (a number, or a column) every comparison within a data set has
    its corrected-t interval and no note is left."""
    result = _imported(n_train=80, n_test=20)
    analysis = analyse(result, AnalysisPlan(analyses=("effects",)))
    assert set(analysis.within["method"]) == {"corrected_t"}
    assert analysis.within[["low", "high"]].notna().all().all()
    assert analysis.within_notes == ()
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {
            "d": ["p"] * 8,
            "l": ["A", "B"] * 4,
            "rep": np.repeat(np.arange(4), 2),
            "e": rng.uniform(0.1, 0.2, 8),
            "size": 90,
        }
    )
    by_column = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="e", replicate="rep",
        greater_is_better=False, n_train="size", n_test=10,
    )  # fmt: skip
    assert set(by_column.scores["n_train"]) == {90}
    assert by_column.paired_test("A", "B", dataset="p").method == "corrected_t"


@pytest.mark.parametrize(
    "sizes, match",
    [
        ({"n_train": 80}, "both"),
        ({"n_train": 0, "n_test": 20}, "positive integers"),
        ({"n_train": 1.5, "n_test": 20}, "positive integer or the name"),
        ({"n_train": True, "n_test": 20}, "positive integer or the name"),
    ],
)
def test_from_frame_split_sizes_are_checked(sizes, match):
    """H: split sizes that are not positive integers, or only one of the two,
    are a ValueError saying what to give."""
    with pytest.raises(ValueError, match=match):
        _imported(**sizes)


def test_within_notes_one_per_cause_in_order():
    """H: failures of two causes give two notes in the order of their first
    comparison; a cause of a single comparison keeps that comparison's own
    message; an unknown cause is grouped by its message without the names; each
    comparison is named best − learner, the report's sign convention."""
    scheme = "The resampling scheme of data set {!r} is unknown (x)."
    other = "Learner {!r} has constant differences on data set {!r}."
    failures = [
        ("a", "b", "d0", other.format("a", "d0")),
        ("a", "b", "d1", scheme.format("d1")),
        ("c", "b", "d1", scheme.format("d1")),
        ("c", "b", "d2", other.format("c", "d2")),
        ("e", "b", "d3", "Something else."),
    ]
    notes = [str(n) for n in within_notes(failures)]
    assert len(notes) == 3
    assert notes[0].startswith("No interval for 2 learner × data-set differences")
    assert "b − a on d0, b − c on d2" in notes[0]
    assert notes[1].startswith("No interval for 2 learner × data-set differences")
    assert "scheme is unknown" in notes[1]
    assert notes[2] == "No interval for b − e on d3: Something else."


def test_nested_cv_fallbacks_are_counted_in_a_note():
    """H: in a one-repeat nested-CV study, the number of learner intervals whose
    standard error fell back to a bound (details["se_clipped"]) is stated in
    one note, with the bound and how to get an estimate instead; a study where
    none fell back has no such note."""
    from sklearn.datasets import load_breast_cancer, load_wine
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.model_selection import NestedCV

    learners = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2),
                "dummy": DummyClassifier()}  # fmt: skip
    data = {"bc": load_breast_cancer(return_X_y=True)}
    data["wine"] = load_wine(return_X_y=True)
    result = BenchmarkExperiment(
        learners, cv=NestedCV(3, n_repeats=1, random_state=0), random_state=0,
        progress=False,
    ).fit(data).results_  # fmt: skip
    analysis = analyse(result, AnalysisPlan(analyses=("effects", "generalization")))
    clipped = [
        result.confidence_interval(m, dataset=d).details["se_clipped"]
        for d in data
        for m in learners
    ]
    notes = [n for n in map(str, analysis.notes) if "fell back to a bound" in n]
    n = sum(c is not None for c in clipped)
    if n:
        (note,) = notes
        assert note.startswith(f"{n} of 6 nested-CV standard errors")
        assert "n_repeats" in note
    else:
        assert not notes
    assert n  # this design does fall back (3 outer folds, one repeat)
