"""Where two analyses of the report disagree, the report says which one the plan
trusts and why, from a record of the analysis (issue 28 item 6)."""

import warnings
from types import SimpleNamespace

import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import AnalysisPlan, analyse


def _four_datasets():
    """3 learners × 4 data sets: B is worse than A on every data set by more
    than Δ = 0.01, by very different amounts (0.02, 0.02, 0.03, 0.25), so the
    Bayesian signed-rank test is sure (P = 0.99) and the paired t is not."""
    df = pd.DataFrame(
        {
            "d": [f"d{i}" for i in range(4) for _ in range(3)],
            "l": list("ABC") * 4,
            "error_rate": [0.10, 0.12, 0.30, 0.20, 0.22, 0.21,
                           0.05, 0.08, 0.06, 0.30, 0.55, 0.31],
        }
    )  # fmt: skip
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


@pytest.fixture(scope="module")
def analysis():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return analyse(_four_datasets(), AnalysisPlan(analyses=("effects", "bayesian")))


def test_bayesian_better_beside_cannot_separate_is_a_record(analysis):
    """Hypothesis: when the Bayesian signed-rank test finds A practically better
    than B (P ≥ 0.95) where the Holm-adjusted paired t cannot separate them, the
    analysis records a disagreement that names both verdicts, says the plan
    trusts the primary analysis and why (multiplicity, sizes of the differences;
    4 of the 4 differences beyond the ROPE)."""
    table = analysis.bayesian
    row = table[(table["a"] == "A") & (table["b"] == "B")].iloc[0]
    assert row["decision"] == "A" and row["P(a better)"] >= 0.95
    assert analysis.pairs.loc["A − B", "adjusted_pvalue"] > 0.05
    (d,) = [d for d in analysis.disagreements if d.key == "bayesian_vs_primary"]
    assert d.trusted == "primary" and d.learners == ("A", "B")
    text = d.sentence
    assert "finds A practically better than B" in text
    assert "cannot separate" in text and "The plan trusts the primary analysis" in text
    assert "no adjustment for the 3 comparisons" in text
    assert "4 of the 4 lie beyond the ROPE in A's favour" in text


def test_bottom_line_and_bayesian_section_print_the_record(analysis):
    """Hypothesis: the bottom line, the Bayesian section of the text summary and
    of the HTML print the recorded sentence verbatim (the renderers decide
    nothing)."""
    from sklearn_bench.report._bayesian import bayesian_html, bayesian_summary_lines

    (d,) = [d for d in analysis.disagreements if d.key == "bayesian_vs_primary"]
    assert d.sentence in analysis.bottom_line.sentences
    assert f"   {d.sentence}" in bayesian_summary_lines(analysis)
    html = bayesian_html(analysis)
    assert "The plan trusts the primary analysis" in html


def test_renderer_takes_the_sentence_from_the_analysis(analysis):
    """Hypothesis: the bottom line states whatever disagreement the analysis
    recorded, and the summary prints the bottom line's sentences: a replaced
    record changes the printed sentence (no sentence is computed in the
    renderer)."""
    from dataclasses import replace

    from sklearn_bench.analysis import Disagreement
    from sklearn_bench.analysis._bottom_line import bottom_line
    from sklearn_bench.report import format_summary

    planted = Disagreement("bayesian_vs_primary", "primary", "bayesian", (), "X.")
    changed = replace(analysis, disagreements=(planted,))
    changed = replace(changed, bottom_line=bottom_line(changed))
    assert "X." in changed.bottom_line.sentences
    assert not any("plan trusts" in s for s in changed.bottom_line.sentences)
    assert "\n   X.\n" in format_summary(changed)


def _friedman(pvalue, id_pvalue, null_distribution):
    return SimpleNamespace(
        pvalue=pvalue,
        iman_davenport_pvalue=id_pvalue,
        null_distribution=null_distribution,
        n_blocks=4,
    )


@pytest.mark.parametrize(
    "null_distribution, trusted",
    [("exact", "friedman_exact"), ("chi2", "iman_davenport")],
)
def test_friedman_chi2_against_iman_davenport(analysis, null_distribution, trusted):
    """Hypothesis: χ²F p = 0.194 beside Iman–Davenport p = 0.049 is recorded as a
    disagreement; the plan trusts the exact p-value when it is exact (the
    permutation distribution) and the Iman–Davenport F over the conservative χ²
    approximation, and says both are sensitivity analyses."""
    from dataclasses import replace

    from sklearn_bench.analysis._disagreements import friedman_disagreements

    fr = _friedman(0.194, 0.049, null_distribution)
    found = friedman_disagreements(replace(analysis, friedman=fr))
    (d,) = [d for d in found if d.key == "friedman_chi2_vs_iman_davenport"]
    assert d.trusted == trusted
    assert "p = 0.194" in d.sentence and "p = 0.049" in d.sentence
    assert "the bottom line rests on the primary analysis" in d.sentence
    same_side = friedman_disagreements(
        replace(analysis, friedman=_friedman(0.01, 0.001, null_distribution))
    )
    assert not [d for d in same_side if d.key.startswith("friedman_chi2")]


def test_friedman_rejecting_beside_no_separation_names_the_trusted_analysis(
    analysis,
):
    """Hypothesis: when Friedman's test rejects (p = 0.0048, the demo's) but the
    primary analysis separates no learner from the best, the record says the plan
    trusts the primary analysis and why; the bottom line prints it."""
    from dataclasses import replace

    from sklearn_bench.analysis._bottom_line import bottom_line
    from sklearn_bench.analysis._disagreements import friedman_disagreements

    changed = replace(analysis, friedman=_friedman(0.0048, 0.0009, "chi2"))
    (d,) = [
        d for d in friedman_disagreements(changed) if d.key == "friedman_vs_primary"
    ]
    assert d.trusted == "primary" and "p = 0.0048" in d.sentence
    assert "The plan trusts the primary analysis" in d.sentence
    changed = replace(changed, disagreements=(d,))
    assert d.sentence in bottom_line(changed).sentences


def _with_primary(analysis, adjusted):
    """``analysis`` with the Holm-adjusted p of its pairs replaced."""
    from dataclasses import replace

    pairs = analysis.pairs.copy()
    for pair, p in adjusted.items():
        pairs.loc[pair, "adjusted_pvalue"] = p
    return replace(analysis, pairs=pairs, disagreements=())


def _table(rows):
    columns = ["scope", "a", "b", "method", "n", "P(a better)", "P(equivalent)"]
    return pd.DataFrame(rows, columns=[*columns, "P(b better)", "decision"])


def test_bayesian_equivalent_beside_different_is_recorded(analysis):
    """Hypothesis: a Bayesian "practically equivalent" beside a primary "different"
    (Holm p = 0.01) is recorded as both can hold, with the plan trusting the
    primary analysis for a difference and the simultaneous interval for whether
    it matters; an "undecided" Bayesian row beside it is no disagreement."""
    from sklearn_bench.analysis._disagreements import bayesian_disagreements

    changed = _with_primary(analysis, {"A − C": 0.01, "A − B": 0.01})
    table = _table(
        [
            ["across data sets", "A", "C", "signed-rank", 4, 0.0, 0.97, 0.03,
             "equivalent"],
            ["across data sets", "A", "B", "signed-rank", 4, 0.6, 0.4, 0.0,
             "undecided"],
        ]
    )  # fmt: skip
    (d,) = bayesian_disagreements(changed, table, 0.01)
    assert d.key == "bayesian_equivalent_vs_primary" and d.learners == ("A", "C")
    assert "Both can hold" in d.sentence and "p = 0.01" in d.sentence


def test_bayesian_other_better_is_recorded(analysis):
    """Hypothesis: a Bayesian "B better" beside a primary analysis that does not
    find B better than the best learner A is recorded, trusting the primary."""
    from sklearn_bench.analysis._disagreements import bayesian_disagreements

    table = _table(
        [["across data sets", "A", "B", "signed-rank", 4, 0.0, 0.02, 0.98, "B"]]
    )
    (d,) = bayesian_disagreements(_with_primary(analysis, {}), table, 0.01)
    assert d.key == "bayesian_vs_primary" and d.trusted == "primary"
    assert d.sentence.startswith("The Bayesian signed-rank test finds B practically")


def test_friedman_not_rejecting_beside_a_separation_is_recorded(analysis):
    """Hypothesis: Friedman's test not rejecting (p = 0.3) while the primary
    analysis finds B worse than A (Holm p = 0.01) is recorded, trusting the
    primary analysis, and names the learner found worse."""
    from dataclasses import replace

    from sklearn_bench.analysis._disagreements import friedman_disagreements

    changed = replace(
        _with_primary(analysis, {"A − B": 0.01}),
        friedman=_friedman(0.3, 0.35, "exact"),
    )
    (d,) = friedman_disagreements(changed)
    assert d.key == "friedman_vs_primary" and d.learners == ("A", "B")
    assert "finds B worse than A" in d.sentence
