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
