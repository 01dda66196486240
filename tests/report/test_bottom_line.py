"""Tests of sklearn_bench/analysis/_bottom_line.py: the report opens with the
answer of its primary analysis, and one Δ runs through the whole report."""

import re

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.report import format_summary

from .._report import report


def _study(n_datasets, gap, seed=0, learners=("A", "B", "C")):
    rng = np.random.default_rng(seed)
    rows = []
    for d in range(n_datasets):
        base = rng.uniform(0.1, 0.3)
        for j, m in enumerate(learners):
            rows.append((f"d{d}", m, base + gap * j + rng.normal(0, 0.005)))
    df = pd.DataFrame(rows, columns=["data", "model", "error_rate"])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error_rate",
        greater_is_better=False,
    )


def test_bottom_line_agrees_with_the_primary_analysis():
    """H: the learners the bottom line calls inseparable from the best are
    exactly those whose Holm-adjusted paired-t p-value against it exceeds α,
    and the runner-up's estimate and interval are the primary table's."""
    for gap, n in ((0.03, 8), (0.001, 8), (0.01, 4)):
        analysis = analyse(_study(n, gap), AnalysisPlan())
        bl, best = analysis.bottom_line, analysis.best_learners
        rows = analysis.pairs[analysis.pairs["a"] == analysis.best]
        expected = sorted(rows.loc[rows["adjusted_pvalue"] > 0.05, "b"])
        assert sorted(best.inseparable) == expected
        assert sorted(best.separated + best.inseparable) == sorted(rows["b"])
        row = rows[rows["b"] == bl.runner_up].iloc[0]
        assert bl.comparison["estimate"] == row["estimate"]
        assert (bl.comparison["low"], bl.comparison["high"]) == (
            row["low"],
            row["high"],
        )


def test_clear_winner_and_inseparable_study_read_differently():
    """H: a study where A is clearly best says A is the best learner; one where
    the learners barely differ says the study cannot separate them."""
    clear_analysis = analyse(_study(10, 0.05), AnalysisPlan())
    clear, best = clear_analysis.bottom_line, clear_analysis.best_learners
    assert best.learner == "A" and not best.inseparable
    assert clear.sentences[0].startswith("A is the best learner")
    flat = analyse(_study(4, 0.0005), AnalysisPlan()).bottom_line
    assert flat.sentences[0].startswith(
        "By its primary analysis the study cannot separate"
    )


def test_four_data_sets_state_the_smallest_attainable_p():
    """H: with 4 data sets the bottom line says that a signed-rank test cannot
    reach p below 0.125 (2 · 2^−4); with 8 it does not."""
    four = analyse(_study(4, 0.01), AnalysisPlan()).bottom_line
    assert "cannot reach p below 0.125" in " ".join(four.more)
    eight = analyse(_study(8, 0.01), AnalysisPlan()).bottom_line
    assert "cannot reach p below" not in " ".join(eight.sentences + eight.more)


@pytest.mark.parametrize("delta", [0.004, 0.02])
def test_one_delta_in_rope_power_equivalence_and_bottom_line(delta):
    """H: the Δ given to the analysis is the ROPE of the Bayesian comparisons,
    the Δ of the power analysis and the margin the bottom line states."""
    result = _study(8, 0.01)
    analysis = analyse(result, AnalysisPlan(delta=delta))
    assert delta == analysis.delta == analysis.power.delta
    (record,) = [r for r in analysis.methods if r.key == "bayesian"]
    assert f"ROPE ±{delta:g}," in record.what
    text = format_summary(analysis)
    bottom = text[: text.index("1. Effect sizes")]
    assert f"Δ = {delta:g}" in bottom and f"ROPE ±{delta:g}" in bottom
    assert f"to detect Δ = {delta:g}" in text


def test_default_delta_is_said_once_in_words():
    """H: with no Δ for an error rate the methods paragraph (not the bottom line,
    which names the value and "(default)") says once, in one sentence, which
    default it used (its value), its three uses, why, and how to set another;
    with a given Δ it does not."""
    from sklearn_bench.report._methods import _paragraph, methods_record

    analysis = analyse(_study(6, 0.01), AnalysisPlan())
    assert "is the default for a metric" not in format_summary(analysis)
    assert "Δ = 0.01 (default)" in " ".join(analysis.bottom_line.sentences)
    paragraph = _paragraph(methods_record(analysis, versions={}))
    (said,) = [s for s in paragraph if "is the default" in s]
    assert said.startswith("Δ = 0.01, the smallest difference that matters")
    for part in ("equivalence", "ROPE", "power", "Benavoli", "[analysis] delta"):
        assert part in said
    assert said.count(". ") == 0 and len(said) < 300
    given = analyse(_study(6, 0.01), AnalysisPlan(delta=0.02))
    paragraph = _paragraph(methods_record(given, versions={}))
    assert not any("is the default" in s for s in paragraph)


def test_report_opens_with_the_bottom_line(tmp_path):
    """H: the HTML report's first section is <section id="bottom-line">, and its
    sentences are the summary's."""

    result = _study(6, 0.02)
    analysis = report(result, tmp_path, figure_formats=())
    page = (tmp_path / "report.html").read_text()
    main = page[page.index("<main>") :]
    assert main.startswith('<main><section id="bottom-line">')
    first = analysis.bottom_line
    assert first.sentences[0].split(":")[0] in re.sub(r"<[^>]+>", "", main)


def test_one_data_set_uses_the_corrected_t():
    """H: a study of one data set answers with the corrected resampled t on its
    folds (the primary analysis within a data set), never with a test over
    overlapping replicates."""
    from sklearn.datasets import load_breast_cancer
    from sklearn.dummy import DummyClassifier
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import RepeatedStratifiedKFold
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    from sklearn_bench import BenchmarkExperiment

    X, y = load_breast_cancer(return_X_y=True)
    exp = BenchmarkExperiment(
        {
            "logreg": make_pipeline(StandardScaler(), LogisticRegression()),
            "dummy": DummyClassifier(),
        },
        cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=2, random_state=0),
        random_state=0,
    ).fit({"bc": (X[:200], y[:200])})
    analysis = analyse(exp.results_, AnalysisPlan())
    bl, best = analysis.bottom_line, analysis.best_learners
    assert best.learner == "logreg" and best.separated == ("dummy",)
    assert bl.comparison["method"] == "corrected_t"
    assert "corrected resampled t-test on the folds or splits of bc" in " ".join(
        bl.more
    )


def test_the_short_answer_fits_twelve_terminal_lines():
    """H: the summary's bottom line of a 7-learner, 4-data-set study whose
    sensitivity analyses disagree (the demo's shape) is at most 12 lines: the
    decision, the estimate against the runner-up with its interval, the
    Bayesian probabilities and whether the study could see Δ; the rest follows
    under its own heading."""
    from sklearn_bench.analysis._bottom_line import MORE_TITLE

    learners = tuple("ABCDEFG")
    analysis = analyse(_study(4, 0.002, learners=learners), AnalysisPlan())
    text = format_summary(analysis)
    lines = text.splitlines()
    short = lines[lines.index("Bottom line") + 1 : lines.index(MORE_TITLE)]
    assert 3 <= len(short) <= 12, "\n".join(short)
    joined = " ".join(short)
    for part in ("A ", "CI [", "P(A better)", "Could the study see Δ = 0.01"):
        assert part in joined


def test_the_page_holds_the_methods_paragraph_it_refers_to(tmp_path):
    """H: report.html, whose sections refer to "the methods paragraph", holds
    it in a Methods section (linked from the navigation) with the same
    sentences as methods.md, the default Δ explained there once."""
    import html

    analysis = report(_study(6, 0.02), tmp_path, figure_formats=())
    page = (tmp_path / "report.html").read_text()
    assert '<a href="#methods">' in page
    section = page[page.index('<section id="methods">') :].split("</section>")[0]
    text = html.unescape(re.sub(r"<[^>]+>", " ", section))
    assert "We compared 3 learners" in text
    assert text.count("is the default for a metric on a [0, 1] scale") == 1
    assert "Δ = 0.01, the smallest" in (tmp_path / "methods.md").read_text()
    assert analysis.bottom_line.more  # the rest of the answer, under its heading


def test_every_scored_metric_is_analysed_or_said_not_to_be():
    """H: a result scored with error_rate and log_loss, analysed on error_rate,
    names log_loss as scored but not analysed, with how to analyse it; a
    one-metric result says nothing of the kind."""
    result = _study(5, 0.02)
    scores = result.scores
    both = BenchmarkResult(
        pd.concat([scores, scores.assign(metric="log_loss")], ignore_index=True),
        metrics={"error_rate": False, "log_loss": False},
        datasets=result.datasets,
        learners=result.learners,
    )
    more = " ".join(analyse(both, AnalysisPlan()).bottom_line.more)
    assert "Scored but not analysed here: log_loss" in more
    assert "[analysis] metric" in more
    alone = analyse(result, AnalysisPlan()).bottom_line.more
    assert not any("Scored but not analysed" in s for s in alone)
