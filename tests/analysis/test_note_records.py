"""Tests of sklearn_bench/analysis/_notes.py: notes and skips are records (a code
and its values) that one table turns into English (issue 47)."""

from types import MappingProxyType

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.analysis._notes import NOTES, Note, Skip
from sklearn_bench.datasets import load_demsar2006
from sklearn_bench.report import format_summary

from .test_notes import _imported


def _failed():
    """Three learners on four data sets; B's replicate 2 on d1 failed (NaN)."""
    rng = np.random.default_rng(1)
    rows = [
        (f"d{d}", learner, r, 0.2 + 0.05 * j + rng.normal(0, 0.02))
        for d in range(4)
        for j, learner in enumerate("ABC")
        for r in range(3)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "err"])
    df.loc[(df.data == "d1") & (df.model == "B") & (df.rep == 2), "err"] = np.nan
    return BenchmarkResult.from_frame(df, dataset="data", learner="model",
                                      value="err", replicate="rep",
                                      greater_is_better=False)  # fmt: skip


STUDIES = {
    "demsar2006": lambda: BenchmarkResult.from_frame(
        load_demsar2006(),
        dataset="dataset",
        learner="learner",
        value="auc",
        greater_is_better=True,
    ),  # fmt: skip
    "no split sizes": _imported,
    "one data set": lambda: _imported(n_datasets=1, n_learners=3),
    "failed task": _failed,
}
# Sentences the string-built notes said before they were records (issue 47).
BEFORE = {
    "demsar2006": [
        "No interval of a learner's error for data set 'iris': no split sizes "
        "were stored.",
        "Metric 'auc' has no default region of practical equivalence and no "
        "smallest difference that matters (Δ) was given: the Bayesian comparisons "
        "use ROPE = 0 (set [analysis] delta, or delta=, for practical equivalence).",
    ],
    "one data set": [
        "The power across data sets needs at least 2 complete data sets; this "
        "study has 1.",
        "the power across data sets needs at least 2 data sets on which every "
        "learner has every replicate; this result has 1",
        "with one data set the blocks would be its replicates, which share "
        "training rows: a Wilcoxon test over them is conditional on this learning "
        "sample and says nothing about new data of the kind (the bottom line uses "
        "the primary analysis within the data set instead)",
        "No interval for 2 learner × data-set differences (m0 − m1 on t0, m0 − m2 "
        "on t0): the resampling scheme is unknown (no splitter recorded and no "
        "split sizes stored), so no test valid for new data of the kind can be "
        "chosen; pass the split sizes to `BenchmarkResult.from_frame` (`n_train=` "
        "and `n_test=`, numbers or columns; a store holds them), or call "
        "`paired_test` with method='corrected_t' and test_train_ratio=n_test/n_train.",
    ],
    "failed task": [
        "Data sets ['d1'] have failed or missing tasks and are left out of the "
        "analyses across data sets.",
    ],
}


@pytest.mark.parametrize("name", list(STUDIES))
def test_every_note_and_skip_is_a_record_that_renders_as_before(name):
    """H: every note and skip of a study (Demšar's table, one without split sizes,
    one data set, a failed task) is a Note (a skip a Skip) with a code of NOTES
    and read-only values; str() gives the sentences the string-built notes gave,
    a skip ends without a period (the renderer ends it), the summary shows the
    same text, and a lower layer's message is not prefixed twice."""
    a = analyse(STUDIES[name](), AnalysisPlan())
    notes = (*a.notes, *a.within_notes, *a.bayesian_notes, *a.ranking_notes)
    assert notes and a.skipped
    for record in (*notes, *a.skipped.values()):
        assert isinstance(record, Note) and record.code in NOTES
        assert isinstance(record.values, MappingProxyType)
    assert all(
        isinstance(s, Skip) and not str(s).endswith(".") for s in a.skipped.values()
    )
    texts = {str(r) for r in (*notes, *a.skipped.values())}
    assert set(BEFORE.get(name, ())) <= texts
    assert not any("error: No interval of a learner's error" in t for t in texts)
    summary = " ".join(format_summary(a).split())
    assert all(" ".join(str(n).split()) in summary for n in a.within_notes)
