"""Where two analyses of the report disagree, the report says which one the plan
trusts and why, from a record of the analysis (issue 28 item 6)."""

import warnings
from types import SimpleNamespace

import numpy as np
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


def _stated(analysis, d):
    """Whether the report states disagreement ``d``: the bottom line names its
    test in one sentence, and the text summary prints its full sentence once,
    under DISAGREEMENTS_TITLE after the bottom line."""
    from sklearn_bench.analysis._bottom_line import DISAGREEMENTS_TITLE
    from sklearn_bench.report import format_summary

    named = any(d.test in s for s in analysis.bottom_line.sentences)
    text = format_summary(analysis)
    after = text.split(f"\n{DISAGREEMENTS_TITLE}\n", 1)[-1]
    flat, full = " ".join(after.split()), " ".join(d.sentence.split())
    return named and DISAGREEMENTS_TITLE in text and flat.count(full) == 1


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
    assert "4 of the 4 differences lie beyond the ROPE in A's favour" in text
    # issue 37.7: the test compares Walsh averages with the ROPE (on 17a1a60
    # "only the signs and ranks" of the differences)
    assert "Walsh average" in text and "signs and ranks" not in text


def test_the_record_is_printed_once_after_the_bottom_line(analysis, tmp_path):
    """Hypothesis: the bottom line names the disagreeing test in one sentence and
    the report prints the recorded sentence verbatim once, under "Where the tests
    disagree, and why"; the Bayesian section of the text summary and of the HTML
    point to it instead of printing it a second time (on 17a1a60 the paragraph
    appeared twice in each output; on 188ad04 the bottom line held every such
    paragraph, about 60 lines that buried the answer)."""
    from sklearn_bench.report import format_summary, write_report
    from sklearn_bench.report._bayesian import bayesian_html, bayesian_summary_lines

    (d,) = [d for d in analysis.disagreements if d.key == "bayesian_vs_primary"]
    assert _stated(analysis, d)
    assert not any(d.sentence in s for s in analysis.bottom_line.sentences)
    assert d.sentence not in "\n".join(bayesian_summary_lines(analysis))
    assert (
        "'Where the tests disagree, and why' says which one the plan trusts"
        in bayesian_html(analysis).replace("&#x27;", "'")
    )
    flat = " ".join(format_summary(analysis).split())
    assert flat.count(" ".join(d.sentence.split())) == 1
    write_report(analysis, tmp_path, figure_formats=(), progress=False)
    page = (tmp_path / "report.html").read_text()
    assert page.count(d.sentence.replace("'", "&#x27;")) == 1
    assert '<a href="#disagreements">' in page and 'id="disagreements"' in page


def test_renderer_takes_the_sentence_from_the_analysis(analysis):
    """Hypothesis: the bottom line states whatever disagreement the analysis
    recorded, and the summary prints the bottom line's sentences: a replaced
    record changes the printed sentence (no sentence is computed in the
    renderer)."""
    from dataclasses import replace

    from sklearn_bench.analysis import Disagreement
    from sklearn_bench.analysis._bottom_line import bottom_line
    from sklearn_bench.report import format_summary

    planted = Disagreement(
        "bayesian_vs_primary", "primary", "bayesian", (), "X.", "the planted test"
    )
    changed = replace(analysis, disagreements=(planted,))
    changed = replace(changed, bottom_line=bottom_line(changed))
    assert any("the planted test" in s for s in changed.bottom_line.sentences)
    assert not any("plan trusts" in s for s in changed.bottom_line.sentences)
    assert "\n   - X.\n" in format_summary(changed)


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
    trusts the primary analysis and why; the bottom line names it."""
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
    assert d.test == "Friedman's rank test"
    assert any(d.test in s for s in bottom_line(changed).sentences)


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


def _stated_disagreements(analysis):
    """Every pair with the best learner on which a test of pairs the report
    prints (its post-hoc test, the pairwise Wilcoxon tests, Tukey's HSD) and
    the primary analysis reach different verdicts, and whether the bottom line
    names it: ``[(test, other learner, named)]``."""
    pairs = analysis.pairs[analysis.pairs["a"] == analysis.best].set_index("b")
    tables = {"posthoc": analysis.posthoc}
    if analysis.pairwise is not None:
        tables["pairwise"] = analysis.pairwise.to_frame()
    if analysis.tukey is not None:
        tables["tukey"] = analysis.tukey.to_frame()
    wilcoxon_can_reject = analysis.smallest_pvalue[1] <= analysis.alpha
    out = []
    for key, frame in tables.items():
        if frame is None:
            continue
        for r in frame.itertuples(index=False):
            if analysis.best not in (r.learner_i, r.learner_j):
                continue
            other = r.learner_j if r.learner_i == analysis.best else r.learner_i
            primary = pairs.loc[other, "adjusted_pvalue"] <= analysis.alpha
            if bool(r.reject) == bool(primary):
                continue
            if key == "pairwise" and primary and not wilcoxon_can_reject:
                continue  # the bottom line says the test cannot reject at all
            named = [
                d
                for d in analysis.disagreements
                if d.key == f"{key}_vs_primary" and other in d.learners
            ]
            stated = bool(named) and _stated(analysis, named[0])
            out.append((key, other, stated))
    return out


def test_a_posthoc_test_that_separates_the_best_is_stated_in_the_bottom_line():
    """H (issue 37.3): Nemenyi's test separates A from B (A better on all 4 data
    sets, by 0.02 to 0.25) where the Holm-adjusted paired t cannot; the bottom
    line says so, names the critical difference diagram, says which analysis
    the plan trusts and why (ranks count only the order; Benavoli et al. 2016),
    and does not claim the study cannot separate the learners without naming
    it (on 17a1a60 it said "cannot separate the learners" and stated only the
    Friedman and Bayesian disagreements)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyse(_four_datasets(), AnalysisPlan())
    row = analysis.posthoc[
        (analysis.posthoc["learner_i"] == "A") & (analysis.posthoc["learner_j"] == "B")
    ].iloc[0]
    assert row["reject"] and analysis.pairs.loc["A − B", "adjusted_pvalue"] > 0.05
    (d,) = [d for d in analysis.disagreements if d.key == "posthoc_vs_primary"]
    assert d.learners == ("A", "B") and d.trusted == "primary"
    assert _stated(analysis, d)
    expected = (
        "Nemenyi post-hoc test finds A different from B",
        "the critical difference diagram leaves them unjoined",
        "cannot separate them",
        "average ranks among all the learners",
        "ahead on 4 of the 4",
        "Benavoli et al. 2016",
        "The plan trusts the primary analysis",
    )
    for words in expected:
        assert words in d.sentence, words
    assert _stated_disagreements(analysis) == [("posthoc", "B", True)]
    assert any(
        "disagree with the plan's" in s and "Nemenyi post-hoc test (A against B)" in s
        for s in analysis.bottom_line.sentences
    )


@pytest.mark.parametrize(
    "plan",
    [
        AnalysisPlan(),
        AnalysisPlan(alpha=0.1, posthoc="conover"),
        AnalysisPlan(analyses=("effects", "friedman", "pairwise", "rm_anova")),
    ],
    ids=["default", "conover", "rm_anova"],
)
def test_every_test_of_pairs_that_disagrees_is_in_the_bottom_line(plan):
    """H (issue 37.3): on Demšar's Table 6 and a study of 12 data sets, every
    pair with the best learner on which a test of pairs the report prints
    (post-hoc, pairwise Wilcoxon, Tukey's HSD) and the primary analysis
    disagree (at least one under each plan) is named in a sentence of the
    bottom line."""
    from sklearn_bench.datasets import load_demsar2006

    rng = np.random.default_rng(3)
    rows = [
        (f"d{d}", m, 0.2 + [0.0, 0.004, 0.03, 0.05][j] + rng.normal(0, 0.02))
        for d in range(12)
        for j, m in enumerate("ABCD")
    ]
    studies = [
        BenchmarkResult.from_frame(
            load_demsar2006(), dataset="dataset", learner="learner", value="auc",
            greater_is_better=True,
        ),
        BenchmarkResult.from_frame(
            pd.DataFrame(rows, columns=["d", "l", "error_rate"]), dataset="d",
            learner="l", value="error_rate", greater_is_better=False,
        ),
    ]  # fmt: skip
    found = []
    for result in studies:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            analysis = analyse(result, plan)
        found += _stated_disagreements(analysis)
    assert found  # each plan has a disagreement on these studies
    assert all(stated for _, _, stated in found), found


def _rank_against_mean(n_datasets):
    """svc beats rf by 0.01 on all but two data sets and loses those by 0.1:
    the best average rank (svc) is not the best mean error (rf)."""
    rows = []
    for d in range(n_datasets):
        base = 0.2 + 0.01 * d
        svc = base + (0.1 if d < 2 else -0.01)
        for name, value in (("svc", svc), ("rf", base), ("tree", base + 0.05)):
            rows.append((f"d{d}", name, value))
    return BenchmarkResult.from_frame(
        pd.DataFrame(rows, columns=["d", "l", "error_rate"]),
        dataset="d", learner="l", value="error_rate", greater_is_better=False,
    )  # fmt: skip


def test_which_summary_names_best_is_said_where_they_differ():
    """H (issue 37.4): svc has the best average rank and rf the best mean error
    (and the first row of the leaderboard, ranked by mean score); the analysis
    records each summary's best, and the bottom line says which one the report
    uses, why, and the numbers of the other (on 17a1a60 the report called svc
    best while `sklearn-bench leaderboard` ranked rf first, silently)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        analysis = analyse(_rank_against_mean(10), AnalysisPlan())
    assert analysis.best == "svc"
    assert analysis.best_by["average rank"] == "svc"
    assert analysis.best_by["mean"] == "rf"
    assert analysis.best_by["leaderboard"] == "rf"
    (d,) = [d for d in analysis.disagreements if d.key == "best_by_summary"]
    assert _stated(analysis, d)
    mean = analysis.mean.mean(axis=0)
    expected = (
        "The report names the best by average rank, svc",
        f"by mean error_rate over the 10 data sets it is rf ({mean['rf']:.4g}",
        "the leaderboard (ranked by mean score, as `sklearn-bench leaderboard` "
        "by default) puts rf first",
        "Demšar 2006",
    )
    for words in expected:
        assert words in d.sentence, words
    notes = analysis.leaderboard.result.notes
    assert any("rf ranks first by mean score, but svc has the best mean rank" in n
               for n in notes)  # fmt: skip


def test_the_leaderboard_command_says_when_its_first_is_not_the_best_rank(
    tmp_path, capsys
):
    """H (issue 37.4): `sklearn-bench leaderboard` on a CSV whose best mean
    error (rf) is not its best mean rank (svc) prints a note naming both (on
    17a1a60 it ranked rf first with nothing about the report's svc)."""
    from sklearn_bench.cli import main

    _rank_against_mean(10).performance().rename(
        columns={"value": "error"}
    ).to_csv(tmp_path / "r.csv", index=False)  # fmt: skip
    assert main(["leaderboard", str(tmp_path / "r.csv"), "--n-resamples", "50"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "rf ranks first by mean score, but svc has the best mean rank" in out
