"""The Bayesian Plackett–Luce ranking in the analysis plan (issue 30): off by
default, asked for by name ("ranking" in ``analyses`` / ``[analysis] run``),
needing no extra, and never changing the bottom line."""

import sys

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.analysis._plan import ANALYSES
from sklearn_bench.cli._config import ConfigError, parse_config  # noqa: E402
from sklearn_bench.report import format_summary, write_report  # noqa: E402

WITH_RANKING = ANALYSES + ("ranking",)


def _result(n_datasets=8):
    rng = np.random.default_rng(1)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(n_datasets)], 4),
            "l": list("ABCD") * n_datasets,
            "error_rate": rng.uniform(0.1, 0.3, 4 * n_datasets)
            + np.tile([0.0, 0.02, 0.03, 0.06], n_datasets),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


def test_off_by_default_and_on_by_name_without_the_extra(monkeypatch):
    """H: the default plan fits no ranking; with "ranking" in analyses the
    ranking is fitted with NumPyro unimportable (a Gibbs sampler in NumPy) and
    equals BenchmarkResult.bayesian_ranking with the report's seed, number for
    number."""
    from sklearn_bench.analysis import _plan

    monkeypatch.setitem(sys.modules, "numpyro", None)
    monkeypatch.setattr(_plan, "hierarchical_installed", lambda: False)
    result = _result()
    assert analyse(result, AnalysisPlan()).ranking is None
    analysis = analyse(result, AnalysisPlan(analyses=WITH_RANKING))
    ranking, table = analysis.ranking, analysis.ranking_table
    notes = analysis.ranking_notes
    assert ranking is not None and not notes
    ref = result.bayesian_ranking(
        list(analysis.mean.columns), metric=analysis.metric, random_state=0
    )
    pd.testing.assert_frame_equal(ranking.to_frame(), ref.to_frame())
    assert list(table["learner"]) == list(ref.to_frame().index)
    assert table["expected rank"].iloc[0] == pytest.approx(
        ref.to_frame()["expected rank"].iloc[0], abs=0
    )


def test_the_ranking_never_changes_the_bottom_line():
    """H: the same study analysed with and without the ranking has the same
    bottom line, word for word, and the same Bayesian comparisons, where the
    ranking puts the best learner by average rank first (then Analysis.best_by
    names that learner for it); only the summary gains the ranking's line."""
    result = _result()
    plain = analyse(result, AnalysisPlan())
    ranked = analyse(result, AnalysisPlan(analyses=WITH_RANKING))
    pd.testing.assert_frame_equal(plain.bayesian, ranked.bayesian)
    assert ranked.bottom_line.sentences == plain.bottom_line.sentences
    # issue 37.4: the ranking's best is its first learner, by name (it was the
    # table's row number, 0, and the bottom line said "puts 0 first")
    first = ranked.ranking_table["learner"].iloc[0]
    assert ranked.best_by["Bayesian ranking"] == first == ranked.best
    summary_plain = format_summary(plain)
    summary_ranked = format_summary(ranked)
    line = "Bayesian Plackett–Luce ranking, P(first on a new data set)"
    assert line not in summary_plain and line in summary_ranked
    extra = set(summary_ranked.splitlines()) - set(summary_plain.splitlines())
    assert len(extra) == 1 and line in extra.pop()


def test_report_shows_the_ranking_only_when_asked(tmp_path):
    """H: write_report with the default plan has no ranking table; with
    "ranking" in analyses the page has the ranking table and the rank-posterior
    figure inside the Bayesian section."""
    result = _result()
    write_report(analyse(result), tmp_path / "plain", figure_formats=())
    ranked = analyse(result, AnalysisPlan(analyses=WITH_RANKING))
    write_report(ranked, tmp_path / "ranked", figure_formats=())
    plain = (tmp_path / "plain" / "report.html").read_text(encoding="utf-8")
    ranked = (tmp_path / "ranked" / "report.html").read_text(encoding="utf-8")
    assert "table-bayesian-ranking" not in plain
    assert "table-bayesian-ranking" in ranked
    assert "Rank posteriors (Plackett–Luce)" in ranked


def test_ranking_needs_the_bayesian_section():
    """H: "ranking" without "bayesian" (the section that shows it) is a
    ValueError in Python and a config error naming `analysis.run`."""
    with pytest.raises(ValueError, match="'ranking' without 'bayesian'"):
        AnalysisPlan(analyses=("effects", "ranking"))
    good = {
        "experiment": {"cv": 3},
        "learners": {"lr": {"class": "sklearn.linear_model.LogisticRegression"}},
        "datasets": {"iris": {"sklearn": "iris"}},
    }
    with pytest.raises(ConfigError, match=r"`analysis.run`.*without 'bayesian'"):
        parse_config({**good, "analysis": {"run": ["effects", "ranking"]}})
    config = parse_config({**good, "analysis": {"run": list(WITH_RANKING)}})
    assert "ranking" in config.plan.analyses
