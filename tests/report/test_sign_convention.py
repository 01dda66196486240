"""One sign convention across the report's outputs (issue 28.12a): every
difference is A − B with A the better-ranked learner of the pair."""

import re

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import AnalysisPlan
from sklearn_bench.analysis._records import SIGN_CONVENTION
from sklearn_bench.report import format_summary  # noqa: E402

from .._report import report as write  # noqa: E402


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A study whose learners appear worst first (C, B, A; A has the lowest
    error), so that the table order of the learners is not their rank order."""
    rng = np.random.default_rng(3)
    skill = {"C": 0.04, "B": 0.02, "A": 0.0}
    rows = [
        (f"d{d}", name, r, 0.2 + 0.03 * d + shift + rng.normal(0, 0.03))
        for d in range(6)
        for name, shift in skill.items()
        for r in range(5)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "err"])
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="err", replicate="rep",
        greater_is_better=False, n_train=80, n_test=20,
    )  # fmt: skip
    out = tmp_path_factory.mktemp("signs")
    plan = AnalysisPlan(posthoc="conover", adjust="holm")
    analysis = write(result, out, plan=plan, figure_formats=("png",))
    return result, analysis, out


def _better_first(first, second, order):
    return order.index(first) < order.index(second)


def test_every_table_puts_the_better_ranked_learner_first(report):
    """H: the forest-plot pairs, the pairwise Wilcoxon tests and the post-hoc
    table list each pair better-ranked first, and the within-data-set estimate
    is best there − learner (negative for an error rate): one order in every
    table and CSV."""
    result, analysis, out = report
    order = analysis.order
    assert order == ("A", "B", "C")
    for a, b in zip(analysis.pairs["a"], analysis.pairs["b"], strict=True):
        assert _better_first(a, b, order)
    assert (analysis.pairs["estimate"] < 0).all()
    tables = out / "tables"
    for name in ("pairwise_tests.csv", "conover.csv"):
        csv = pd.read_csv(tables / name)
        for i, j in zip(csv["learner_i"], csv["learner_j"], strict=True):
            assert _better_first(i, j, order), name
    wilcoxon = pd.read_csv(tables / "pairwise_tests.csv")
    assert (wilcoxon["estimate"] < 0).all() and (wilcoxon["ci_low"] < 0).all()
    assert (pd.read_csv(tables / "conover.csv")["rank_difference"] < 0).all()
    within = pd.read_csv(tables / "within_dataset_intervals.csv")
    mean = analysis.mean
    for row in within.itertuples():
        expected = (
            mean.loc[row.dataset, row.reference] - mean.loc[row.dataset, row.learner]
        )
        assert row.estimate == pytest.approx(expected, rel=1e-9)
        assert row.low <= row.estimate <= row.high


def test_every_output_states_the_convention(report):
    """H: the HTML, the text summary, pairwise.tex and the methods paragraph
    (md and tex) each state the one convention, and their pair labels read
    better − worse (A − B, A − C, B − C)."""
    result, analysis, out = report
    page = (out / "report.html").read_text(encoding="utf-8")
    assert SIGN_CONVENTION in page and "learner − reference" not in page
    assert "difference (reference − learner)" in page
    text = format_summary(analysis)
    assert SIGN_CONVENTION in " ".join(text.split())  # wrapped at 88 columns
    assert re.search(r"^\s+A − B\s", text, re.M) and not re.search(r"B − A", text)
    tex = (out / "tables" / "pairwise.tex").read_text(encoding="utf-8")
    assert "A − B" in tex or r"A $-$ B" in tex or "A − B".replace("−", "-") in tex
    assert "better-ranked" in tex
    assert SIGN_CONVENTION in (out / "methods.md").read_text(encoding="utf-8")
    assert "better-ranked learner" in (out / "methods.tex").read_text(encoding="utf-8")
