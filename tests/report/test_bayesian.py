"""Tests of sklearn_bench/report/_bayesian.py: the Bayesian section, summary lines."""

import importlib.util
import os

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.analysis._bayesian import N_SAMPLES
from sklearn_bench.analysis._notes import NOTES
from sklearn_bench.analysis._plan import hierarchical_installed
from sklearn_bench.report import format_summary
from sklearn_bench.report._bayesian import _ranking_html, bayesian_html


def _comparisons(analysis):
    """The Bayesian table, its ROPE and its notes, as the analysis holds them."""
    notes = [str(n) for n in analysis.bayesian_notes]
    return analysis.bayesian, analysis.delta or 0.0, notes


def _result(metric="error_rate", n_datasets=5, n_splits=4):
    """Holdout-like splits (80/20) stored with their sizes; A beats B by 0.03."""
    rng = np.random.default_rng(3)
    rows = []
    for d in range(n_datasets):
        base = rng.uniform(0.1, 0.3)
        for j, learner in enumerate(["A", "B", "C"]):
            for split in range(n_splits):
                rows.append(
                    {
                        "dataset": f"d{d}",
                        "learner": learner,
                        "split": split,
                        "replicate": split,
                        "fold": 0,
                        "metric": metric,
                        "value": base + 0.03 * (j == 1) + rng.normal(0, 0.01),
                        "n_train": 80,
                        "n_test": 20,
                    }
                )
    return BenchmarkResult(
        pd.DataFrame(rows),
        metrics={metric: False},
        datasets={f"d{d}": "real world" for d in range(n_datasets)},
        learners=["A", "B", "C"],
        info={"cv": "ShuffleSplit(n_splits=4, random_state=0, test_size=0.2)"},
    )


def test_table_is_the_result_methods_numbers(monkeypatch):
    """H: with the default plan (bayesian="signed_rank") the section compares the
    best learner across data sets (signed-rank, seed 0, N_SAMPLES samples, ROPE 0.01
    for error_rate) and
    the best on each data set (correlated t on the splits) with every other, with
    the numbers of BenchmarkResult.bayesian_test, and says in one note what
    bayesian="hierarchical" (and its extra) would add."""

    result = _result()
    analysis = analyse(result, AnalysisPlan())
    table, rope, notes = _comparisons(analysis)
    assert rope == 0.01 and notes == [NOTES["without_hierarchical"]]
    assert 'pip install "sklearn-bench[bayes]"' in notes[0]
    across = table[table["scope"] == "across data sets"]
    assert len(across) == 2 and set(across["a"]) == {analysis.best}
    row = across[across["b"] == "B"].iloc[0]
    ref = result.bayesian_test(analysis.best, "B", n_draws=N_SAMPLES, random_state=0)
    assert row["P(a better)"] == ref.probabilities[analysis.best]
    assert row["decision"] == ref.decision
    within = table[table["scope"] == "d0"]
    ref_a = within.iloc[0]
    res = result.bayesian_test(ref_a["a"], ref_a["b"], dataset="d0")
    assert ref_a["P(b better)"] == pytest.approx(res.probabilities[ref_a["b"]])
    assert res.details["rho"] == pytest.approx(0.2)
    assert len(table) == 2 + 5 * 2


def test_html_section_and_summary_lines():
    """H: the HTML section states the ROPE, the methods and the threshold and
    holds the table (and, with the [bayes] extra, the simplex of the
    hierarchical model's draws); the summary prints the across-data-set
    probabilities under "2. Sensitivity analyses", before "3. Power"."""
    result = _result()
    analysis = analyse(result, AnalysisPlan())
    page = bayesian_html(analysis)
    assert page.startswith('<section id="bayesian">')
    assert "within ±0.01" in page and 'id="table-bayesian"' in page
    assert "rho/(1 − rho) = n_test/n_train" in page
    text = format_summary(analysis)

    # the plan's model, whatever is installed (issue 28 item 5)
    assert hierarchical_installed() or analysis.plan.bayesian == "signed_rank"
    name = (
        "hierarchical model"
        if analysis.plan.bayesian == "hierarchical"
        else "signed-rank"
    )
    # with the hierarchical model: the simplex of its draws (issue 23)
    assert ('id="fig-bayesian_simplex"' in page) == (name == "hierarchical model")
    start = text.index(f"Bayesian {name} across data sets (ROPE ±0.01")
    assert text.index("2. Sensitivity analyses") < start < text.index("3. Power")
    assert f"P({analysis.best} better) = " in text[start:]


def test_metric_without_default_rope_and_unknown_sizes_are_noted():
    """H: a metric without a default ROPE uses rope 0 and says so; split scores
    without stored sizes (from_frame) leave the within-data-set rows out with
    the reason."""
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(4)], 6),
            "l": np.tile(["A", "B"], 12),
            "rep": np.tile(np.repeat([0, 1, 2], 2), 4),
            "mse": rng.uniform(1, 2, 24),
        }
    )
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="mse", replicate="rep",
        greater_is_better=False,
    )  # fmt: skip
    table, rope, notes = _comparisons(analyse(result, AnalysisPlan()))
    assert rope == 0.0
    assert set(table["scope"]) == {"across data sets"}
    assert any("no default region of practical equivalence" in n for n in notes)
    assert any(n.startswith("Not within a data set:") for n in notes)


@pytest.mark.skipif(
    importlib.util.find_spec("numpyro") is None
    and os.environ.get("CI", "").lower() != "true",
    reason='needs the [bayes] extra (pip install "sklearn-bench[bayes]")',
)
def test_with_the_extra_across_data_sets_is_hierarchical():
    """H: with the plan's bayesian="hierarchical" (and the [bayes] extra), the
    comparisons across data sets are the hierarchical model's (seed 0) on every
    split score; within-data-set rows stay the correlated t."""
    result = _result()
    analysis = analyse(result, AnalysisPlan(bayesian="hierarchical"))
    table, _, notes = _comparisons(analysis)
    across = table[table["scope"] == "across data sets"]
    assert set(across["method"]) == {"hierarchical"}
    row = across[across["b"] == "B"].iloc[0]
    ref = result.bayesian_test(
        analysis.best, "B", method="hierarchical", n_draws=4000, random_state=0
    )
    assert row["P(a better)"] == pytest.approx(ref.probabilities[analysis.best])
    assert set(table.loc[table["scope"] != "across data sets", "method"]) == {
        "correlated-t"
    }


@pytest.mark.skipif(
    importlib.util.find_spec("numpyro") is None
    and os.environ.get("CI", "").lower() != "true",
    reason='needs the [bayes] extra (pip install "sklearn-bench[bayes]")',
)
def test_with_the_extra_the_section_ranks_all_learners():
    """H: with the [bayes] extra and several data sets the section holds the
    Plackett–Luce ranking of all learners (BenchmarkResult.bayesian_ranking,
    seed 0, the model's default draws) beside the Friedman average ranks, the
    rank-posterior
    figure, and registers the model for the methods paragraph."""
    result = _result()
    analysis = analyse(result, AnalysisPlan(bayesian="hierarchical"))
    ranking, table = analysis.ranking, analysis.ranking_table
    notes = analysis.ranking_notes
    ref = result.bayesian_ranking(list(analysis.mean.columns), random_state=0)
    assert ranking.p_first.equals(ref.p_first) and not notes
    assert list(table["learner"]) == list(ref.to_frame().index)
    assert table["P(first)"].tolist() == ref.to_frame()["P(first)"].tolist()
    assert "Friedman average rank" in table.columns
    page = _ranking_html(analysis)
    assert 'id="table-bayesian-ranking"' in page and 'id="fig-rank_posterior"' in page
    assert any(r.key == "bayesian_ranking" for r in analysis.methods)


def test_without_the_extra_no_ranking_and_the_note_says_what_it_would_add(
    monkeypatch,
):
    """H: with the default plan no Plackett–Luce model is fitted (installed or
    not), the section has no ranking table, and the one note names what
    bayesian="hierarchical" adds (the hierarchical model and the Plackett–Luce
    ranking)."""
    result = _result()
    analysis = analyse(result, AnalysisPlan())
    assert (analysis.ranking, analysis.ranking_table) == (None, None)
    assert analysis.ranking_notes == ()
    page = bayesian_html(analysis)
    assert "table-bayesian-ranking" not in page
    assert "Plackett–Luce ranking of all learners" in NOTES["without_hierarchical"]
    assert page.count('class="note"') == 1


def test_the_plan_names_the_model_never_the_installation(monkeypatch):
    """H: the default plan uses the signed-rank test across data sets whether or
    not NumPyro is installed (the same table both ways), and asking for the
    hierarchical model without NumPyro is a ValueError with the install line."""
    from sklearn_bench.analysis import _plan

    result = _result()
    with_extra = analyse(result, AnalysisPlan())
    monkeypatch.setattr(_plan, "hierarchical_installed", lambda: False)
    without = analyse(result, AnalysisPlan())
    a, b = with_extra.bayesian, without.bayesian
    pd.testing.assert_frame_equal(a, b)
    assert "hierarchical" not in set(a["method"])
    with pytest.raises(ValueError, match=r'pip install "sklearn-bench\[bayes\]"'):
        AnalysisPlan(bayesian="hierarchical")
    with pytest.raises(ValueError, match="`bayesian` must be one of"):
        AnalysisPlan(bayesian="baycomp")


@pytest.mark.skipif(
    importlib.util.find_spec("numpyro") is None
    and os.environ.get("CI", "").lower() != "true",
    reason='needs the [bayes] extra (pip install "sklearn-bench[bayes]")',
)
def test_unreliable_hierarchical_fit_declines_and_bottom_line_falls_back(
    monkeypatch,
):
    """H: when the hierarchical model's diagnostics fail (forced: 4 chains x 4
    draws), each comparison across data sets declines: its decision is
    "unreliable fit", the column "why undecided" gives the failed checks, one
    note per comparison names it; the bottom line quotes no Bayesian
    probability and says it rests on the deterministic primary analysis."""
    from sklearn_bench.analysis import _bayesian

    monkeypatch.setattr(_bayesian, "HIERARCHICAL_DRAWS", 16)
    result = _result()
    analysis = analyse(result, AnalysisPlan(bayesian="hierarchical"))
    table, _, notes = _comparisons(analysis)
    across = table[table["scope"] == "across data sets"]
    assert set(across["method"]) == {"hierarchical"}
    assert set(across["decision"]) == {"unreliable fit"}
    assert across["why undecided"].str.contains("effective sample size").all()
    within = table[table["scope"] != "across data sets"]
    assert (within["why undecided"] == "").all()
    for other in across["b"]:
        named = [n for n in notes if f"hierarchical model of {analysis.best} − {other}"
                 in n]  # fmt: skip
        assert len(named) == 1, notes
    bl = analysis.bottom_line
    words = " ".join(bl.sentences)
    assert "declined to decide" in words and "deterministic primary" in words
    assert f"P({analysis.best} better) =" not in words
