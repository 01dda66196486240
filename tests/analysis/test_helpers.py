"""The private helpers whose only test was their docstring example."""

import pandas as pd

from sklearn_bench.analysis._analysis import cd_groups
from sklearn_bench.analysis._records import cited_keys, short_test_names
from sklearn_bench.report._figures import file_slug


def test_cd_groups_are_the_maximal_runs_within_cd():
    """H: the bars of a CD diagram are the maximal runs of the rank order whose
    ranks differ by less than cd, overlapping where runs share learners
    (Demšar 2006, Fig. 1)."""
    ranks = pd.Series({"a": 1.2, "b": 1.9, "c": 2.9, "d": 4.0})
    assert cd_groups(ranks, 1.118) == (("a", "b"), ("b", "c"), ("c", "d"))


def test_cited_keys_reads_author_year_citations():
    """H: a work is cited where its first author's surname is followed within a
    few words by its year, in parentheses or not."""
    text = "as Demšar (2006) and Benavoli, Corani & Mangili 2016 say"
    assert cited_keys(text) == ["benavoli2016", "demsar2006"]


def test_short_test_names_lists_each_test_once():
    """H: the label of the tests that ran names each method once, sorted."""
    assert short_test_names(["t", "t"]) == "paired t"
    assert (
        short_test_names(["corrected_t", "5x2cv"])
        == "5×2cv paired t / corrected resampled t"
    )


def test_file_slug_is_safe_and_never_collides():
    """H: a file slug is ASCII, keeps a readable name and adds a hash of the
    raw name, so names differing only in unsafe characters do not collide."""
    assert file_slug("breast cancer") == "breast_cancer-e295d4db"
    assert file_slug("a/b") != file_slug("a?b")
    assert len(file_slug("a" * 300)) <= 40 + 9


def test_power_points_end_at_the_cap_when_no_number_of_data_sets_suffices():
    """Hypothesis: a difference far below σ (needing more than ``max_datasets``
    data sets at 2σ) gives a power grid ending at its cap of 500, not a
    ValueError from ``n_datasets_needed`` (the deep harness found ``analyse``
    raising on a study with metric 'time' and an observed difference of 0.0003
    beside σ = 0.2: its curve at 2σ)."""
    import numpy as np
    import pytest

    from sklearn_bench.analysis._analysis import power_points
    from sklearn_bench.stats import n_datasets_needed

    delta, sigma = 0.000265, 0.2
    assert n_datasets_needed(delta, sigma, alpha=0.05) < 10**7
    with pytest.raises(ValueError, match="max_datasets"):
        n_datasets_needed(delta, 2 * sigma, alpha=0.05)
    J, curves, marks = power_points(
        delta, (sigma / 2, sigma, 2 * sigma), alpha=0.05, mark=12
    )
    assert J[0] == 2 and J[-1] == 500
    assert curves.shape == (3, 499) and np.all((curves > 0) & (curves < 0.1))
    assert marks.shape == (3,)


def test_analyse_a_difference_no_study_could_detect():
    """Hypothesis: ``analyse`` completes, with a power analysis, on the deep
    harness's study: two learners on 12 data sets whose mean difference is tiny
    against its spread, metric without a default Δ."""
    import numpy as np
    import pandas as pd

    from sklearn_bench import BenchmarkResult
    from sklearn_bench.analysis import AnalysisPlan, analyse

    rng = np.random.default_rng(0)
    d = rng.normal(0, 1, 12)
    d = 0.2 * (d - d.mean()) / d.std(ddof=1) + 0.000265  # mean 0.000265, σ 0.2
    rows = [(f"d{j}", "a", 1.0 + d[j]) for j in range(12)]
    rows += [(f"d{j}", "b", 1.0) for j in range(12)]
    frame = pd.DataFrame(rows, columns=["dataset", "learner", "time"])
    result = BenchmarkResult.from_frame(
        frame, dataset="dataset", learner="learner", value="time",
        greater_is_better=False,
    )  # fmt: skip
    analysis = analyse(result, AnalysisPlan(analyses=("effects", "power")))
    assert analysis.power is not None
    assert analysis.power.n_grid[-1] == 500
