"""Every citation in every output has its reference, one year per work (issue 28
item 3)."""

import html
import re

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.analysis import CITATIONS
from sklearn_bench.analysis._records import _author_year

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
