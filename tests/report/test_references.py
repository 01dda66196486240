"""Every citation in every output has its reference, one year per work (issue 28
item 3)."""

import html
import re

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis._records import CITATIONS, _author_year

from .._report import report

pytest.importorskip("matplotlib")


def uncited_mentions(text, keys):
    """Author–year citations in ``text`` with no entry among ``keys``: each as
    ``"Surname Year"``."""
    known = {_author_year(CITATIONS[k]) for k in keys}
    found = set()
    name = r"[A-Z][^\W\d_]+"  # a capitalised word: "García", "Demšar"
    pattern = (
        rf"\b({name})(?:,? (?:{name},? )*(?:\\?&|and) {name}"
        r"| et al\.)? \(?((?:19|20)\d{2})\b"
    )
    for surname, year in re.findall(pattern, text):
        if (surname, year) not in known:
            found.add(f"{surname} {year}")
    return sorted(found)


def _result():
    rng = np.random.default_rng(2)
    base = rng.uniform(0.1, 0.3, 8)
    rows = [
        {
            "dataset": f"d{i}",
            "learner": f"m{j}",
            "replicate": r,
            "error_rate": base[i] + 0.01 * j + rng.normal(0, 0.01),
        }
        for i in range(8)
        for j in range(3)
        for r in range(3)
    ]
    return BenchmarkResult.from_frame(
        pd.DataFrame(rows),
        dataset="dataset",
        learner="learner",
        value="error_rate",
        replicate="replicate",
        greater_is_better=False,
    )


def _keys(entries):
    by_text = {v: k for k, v in CITATIONS.items()}
    return [by_text[e] for e in entries]


def test_uncited_mentions_finds_a_missing_entry():
    """H: the checker is not vacuous: a citation without its entry is reported,
    one with its entry is not."""
    text = "as Demšar (2006) and Calvo, Ceberio & Lozano 2018 show"
    assert uncited_mentions(text, ["demsar2006"]) == ["Calvo 2018"]
    assert uncited_mentions(text, ["demsar2006", "calvo2018"]) == []


def test_every_citation_of_the_report_and_methods_has_its_reference(tmp_path):
    """H: report.html has a reference list, and every author-year citation in
    its text, in methods.md and in methods.tex has an entry in that output's
    list; Boulesteix et al. is cited with one year (2015) everywhere."""

    report(_result(), tmp_path, figure_formats=("png",))
    page = (tmp_path / "report.html").read_text()
    assert '<section id="references">' in page
    refs = re.search(r'<section id="references">(.*?)</section>', page, re.S).group(1)
    entries = [html.unescape(e) for e in re.findall(r"<li>(.*?)</li>", refs)]
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.replace(refs, "")))
    assert uncited_mentions(text, _keys(entries)) == []
    assert "Boulesteix et al. 2013" not in text

    md = (tmp_path / "methods.md").read_text()
    body, _, listed = md.partition("## References")
    md_entries = [line[2:] for line in listed.splitlines() if line.startswith("- ")]
    assert uncited_mentions(body, _keys(md_entries)) == []


# A test or procedure named in the text, and the work that must be cited for it.
NAMED = {
    "Friedman": "friedman1937",
    "Iman–Davenport": "iman1980",
    "Nemenyi": "nemenyi1963",
    "Wilcoxon": "wilcoxon1945",
    "Hodges–Lehmann": "hodges1963",
    "Shaffer": "shaffer1986",
    "Holm": "holm1979",
    "corrected resampled t": "nadeau2003",
    "Bayesian signed-rank": "benavoli2017",
    "correlated t": "corani2015",
}


def test_every_test_named_is_cited_and_every_reference_is_cited(tmp_path):
    """H (issue 37.8): in report.html and in methods.md of a bootstrap run, every
    test named (Friedman, Iman–Davenport, Nemenyi, Wilcoxon, Hodges–Lehmann,
    Shaffer, Holm, the corrected resampled t, the Bayesian tests) is cited in
    the text and listed, and every work listed is cited in the text (on
    17a1a60 the page named six of them without a reference and listed Nadeau &
    Bengio 2003 and Bouckaert & Frank 2004 without citing them)."""
    from sklearn.datasets import load_iris, load_wine
    from sklearn.dummy import DummyClassifier
    from sklearn.naive_bayes import GaussianNB
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.analysis._records import cited_keys
    from sklearn_bench.model_selection import BootstrapOOB

    X, y = load_iris(return_X_y=True)
    Xw, yw = load_wine(return_X_y=True)
    result = (
        BenchmarkExperiment(
            {
                "dummy": DummyClassifier(),
                "nb": GaussianNB(),
                "tree": DecisionTreeClassifier(max_depth=2),
            },
            cv=BootstrapOOB(n_bootstraps=4),
            random_state=0,
            progress=False,
        )
        .fit({"iris": (X, y), "wine": (Xw, yw), "half": (X[::2], y[::2])})
        .results_
    )
    report(result, tmp_path, figure_formats=())
    page = (tmp_path / "report.html").read_text()
    refs = re.search(r'<section id="references">(.*?)</section>', page, re.S).group(1)
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.replace(refs, "")))
    listed = _keys(html.unescape(e) for e in re.findall(r"<li>(.*?)</li>", refs))
    md = re.sub(r"\\(.)", r"\1", (tmp_path / "methods.md").read_text())
    body, _, tail = md.partition("## References")
    md_listed = _keys(line[2:] for line in tail.splitlines() if line.startswith("- "))
    for words, keys, where in (
        (text, listed, "report.html"),
        (body, md_listed, "methods.md"),
    ):
        cited = set(cited_keys(words))
        assert set(keys) <= cited, (where, set(keys) - cited)
        for test, key in NAMED.items():
            if test in words:
                assert key in keys and key in cited, (where, test)
    assert all(test in text for test in NAMED)  # the page names every one
