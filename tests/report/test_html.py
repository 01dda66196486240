"""Tests of sklearn_bench/report/_html.py: a self-contained page with every part."""

import base64
import re

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402

from .._report import report  # noqa: E402


@pytest.fixture(scope="module")
def result():
    rng = np.random.default_rng(1)
    rows = [
        (f"d{d}", m, r, 0.1 + 0.03 * j + rng.normal(0, 0.02))
        for d in range(3)
        for j, m in enumerate(["A", "B", "C"])
        for r in range(5)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v"])
    return BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="v",
        replicate="rep",
        greater_is_better=False,
    )


def test_page_is_self_contained_and_ordered(result, tmp_path):
    """H: every <img> is an embedded SVG that decodes, nothing refers outside the
    file (no URL, no stylesheet or script file: the one script, which sorts and
    filters the tables, is inline), and the sections come in the order: run,
    effect sizes, tests, figures, power, failures."""
    report(result, tmp_path, title="T <&>")
    page = (tmp_path / "report.html").read_text()
    images = re.findall(r'<img [^>]*src="([^"]+)"', page)
    assert len(images) == 9  # with the pairwise significance diagram
    for src in images:
        assert src.startswith("data:image/svg+xml;base64,")
        assert base64.b64decode(src.split(",", 1)[1]).startswith(b"<?xml")
    assert not re.search(r"https?://|<link|<script[^>]*\bsrc|<iframe|@import", page)
    assert page.count("<script") == 1 and "<script>" in page
    positions = [
        page.index(f'<section id="{s}">')
        for s in ("run", "effects", "tests", "figures", "power", "failures")
    ]
    assert positions == sorted(positions)
    assert "<title>T &lt;&amp;&gt;</title>" in page


def test_figures_written_in_each_format(result, tmp_path):
    """H: each figure is written once per requested format."""
    report(result, tmp_path, figure_formats=("png", "pdf"))
    names = sorted(p.name for p in (tmp_path / "figures").iterdir())
    assert len(names) == 18
    assert {p.rsplit(".", 1)[1] for p in names} == {"png", "pdf"}


def test_embedded_svg_is_the_written_svg_and_every_file_is_reproducible(
    result, tmp_path
):
    """H: the page embeds the very bytes of figures/*.svg (each figure encoded
    once for the page; a PNG only where asked for), and two reports write the
    same bytes in every file but the page's time stamp (SVG ids fixed, no
    dates)."""
    for out in ("one", "two"):
        report(result, tmp_path / out, figure_formats=("svg", "png"))
    page = (tmp_path / "one" / "report.html").read_text()
    embedded = re.findall(
        r'<figure id="fig-([^"]+)">.*?src="data:image/svg\+xml;base64,([^"]+)"', page
    )
    assert len(embedded) >= 5
    for key, data in embedded:
        path = tmp_path / "one" / "figures" / f"{key}.svg"
        if not path.exists():  # the leaderboard's figures are in the page only
            continue
        assert base64.b64decode(data) == path.read_bytes()
    files = sorted(p for p in (tmp_path / "one").rglob("*") if p.is_file())
    assert any(p.suffix == ".png" for p in files)
    for path in files:
        other = tmp_path / "two" / path.relative_to(tmp_path / "one")
        a, b = path.read_bytes(), other.read_bytes()
        if path.name == "report.html":  # its time stamp, to the minute
            a, b = (re.sub(rb"\d{4}-\d\d-\d\d \d\d:\d\d UTC", b"", v) for v in (a, b))
        assert a == b, path.name


def test_source_date_epoch_fixes_the_page_stamp(result, tmp_path, monkeypatch):
    """H: with SOURCE_DATE_EPOCH set (reproducible builds) the page's stamp is
    that time, so two reports are the same bytes, page included; a value that
    is not an integer is a ValueError naming it."""
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    for out in ("one", "two"):
        report(result, tmp_path / out)
    page = (tmp_path / "one" / "report.html").read_bytes()
    assert b"2023-11-14 22:13 UTC" in page
    assert page == (tmp_path / "two" / "report.html").read_bytes()
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "yesterday")
    with pytest.raises(ValueError, match="SOURCE_DATE_EPOCH.*'yesterday'"):
        report(result, tmp_path / "three")


def test_subset_of_analyses_and_partial_run_note(result, tmp_path):
    """H: leaving out power and win/tie/loss drops their figures and section; a
    partial run (the result's n_missing_tasks) is announced with its number of
    missing tasks."""
    import copy

    partial = copy.copy(result)
    partial.n_missing_tasks = 7
    report(partial, tmp_path, analyses=("effects", "friedman"))
    page = (tmp_path / "report.html").read_text()
    assert 'id="fig-power"' not in page and 'id="fig-win_tie_loss"' not in page
    assert '<section id="power">' not in page
    assert "7 task(s) are missing" in page


def test_report_of_perfect_agreement_shows_exact_p_and_undefined_f(tmp_path):
    """H: the HTML report of 3 learners ranked alike on 3 data sets shows the
    exact Friedman p-value and an undefined Iman-Davenport F, never ∞ (the only
    infinite bounds are the pairwise rank intervals, which with 3 data sets
    cannot reach 95% and say so with their achieved level, 100%)."""
    rows = [
        (f"d{d}", name, r, base + 0.01 * r + shift)
        for d, base in enumerate([0.10, 0.20, 0.15])
        for name, shift in (("A", 0.0), ("B", 0.05), ("C", 0.12))
        for r in range(3)
    ]
    df = pd.DataFrame(rows, columns=["d", "l", "r", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", replicate="r", greater_is_better=False
    )
    report(result, tmp_path, analyses=("effects", "friedman", "pairwise"))
    page = (tmp_path / "report.html").read_text()
    assert "exact permutation distribution" in page
    assert "Iman–Davenport F undefined" in page
    start, end = (
        page.index('<section id="pairwise">'),
        page.index("</section>", page.index('<section id="pairwise">')),
    )
    pairwise, rest = page[start:end], page[:start] + page[end:]
    assert "∞" not in rest
    assert "[−∞, ∞]</td><td>100%</td>" in pairwise


def test_long_and_colliding_data_set_names_get_their_own_figures(tmp_path):
    """H: data-set names over 238 bytes and names that one character class
    would fold together ("a/b", "a b", "a?b") each get their own figure file,
    whose name is a safe slug and a hash, and the report is written."""
    names = ["a" * 300, "a/b", "a b", "a?b", "ß∑😀"]
    rows = [
        (name, learner, r, 0.1 + 0.01 * i + 0.02 * j + 0.001 * r)
        for i, name in enumerate(names)
        for j, learner in enumerate(("A", "B"))
        for r in range(3)
    ]
    df = pd.DataFrame(rows, columns=["d", "l", "r", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", replicate="r", greater_is_better=False
    )
    report(result, tmp_path, analyses=("effects",), figure_formats=("png",))
    files = sorted(p.name for p in (tmp_path / "figures").glob("distribution_*"))
    assert len(files) == len(names)
    assert all(len(f.encode()) < 80 and "/" not in f and "?" not in f for f in files)


def test_sections_shown_are_exactly_those_asked_for(result, tmp_path):
    """H: `analyses` (config [analysis] run) can name every section the report
    shows, "bayesian" and "pairwise" included, and the page has exactly those
    sections after the bottom line."""
    sections = {
        "bayesian": '<section id="bayesian">',
        "pairwise": '<section id="pairwise">',
        "power": '<section id="power">',
    }
    for asked in (("effects", "bayesian"), ("effects", "pairwise", "power")):
        folder = tmp_path / "-".join(asked)
        report(result, folder, analyses=asked, figure_formats=())
        page = (folder / "report.html").read_text()
        assert '<section id="bottom-line">' in page
        for name, tag in sections.items():
            assert (tag in page) == (name in asked), (asked, name)


def test_large_study_links_whole_tables_as_csv_and_caps_the_page(tmp_path):
    """H: with 26 learners on 3 data sets the per-data-set table of intervals
    shows all its 75 rows in a collapsed <details> (the page is self-contained:
    on 17a1a60 it showed "first 30 of 75 rows"), its caption linking
    tables/within_dataset_intervals.csv, which holds all 75 rows as the analysis
    has them; only a table beyond MAX_PAGE_ROWS is cut, its caption saying so
    and naming the CSV; the critical difference diagram (over 25 learners) is
    replaced in place by a sentence saying why; the bottom line still comes
    first."""
    from sklearn_bench.report._blocks import MAX_PAGE_ROWS, _table

    rng = np.random.default_rng(3)
    learners = [f"m{j:02d}" for j in range(26)]
    rows = [
        (f"d{d}", m, r, 0.2 + 0.002 * j + rng.normal(0, 0.02))
        for d in range(3)
        for j, m in enumerate(learners)
        for r in range(3)
    ]
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "v"])
    result = BenchmarkResult.from_frame(
        df, dataset="data", learner="model", value="v", replicate="rep",
        greater_is_better=False,
    )  # fmt: skip
    result.scores = result.scores.assign(n_train=100, n_test=36)
    analysis = report(result, tmp_path, analyses=("effects", "friedman"))
    page = (tmp_path / "report.html").read_text()
    assert len(analysis.within) == 75
    details = re.findall(r'<details class="long">(.*?)</details>', page, re.S)
    within = re.search(r'<table id="table-within".*?</table>', page, re.S).group(0)
    assert any(within in d for d in details)
    assert within.count("<tr>") == 1 + 75  # the head and every row
    assert "first" not in within
    assert 'href="tables/within_dataset_intervals.csv"' in within
    big = _table(pd.DataFrame({"x": range(MAX_PAGE_ROWS + 5)}), "Big",
                 table_id="t", csv="big.csv", max_rows=30)  # fmt: skip
    assert big.count("<tr>") == 1 + MAX_PAGE_ROWS
    assert f"first {MAX_PAGE_ROWS:,} of its {MAX_PAGE_ROWS + 5:,} rows" in big
    assert "the whole table is the file" in big and "tables/big.csv" in big
    csv = pd.read_csv(tmp_path / "tables" / "within_dataset_intervals.csv")
    pd.testing.assert_frame_equal(
        csv[["dataset", "learner", "estimate", "pvalue"]],
        analysis.within[["dataset", "learner", "estimate", "pvalue"]].reset_index(
            drop=True
        ),
        check_dtype=False,
    )
    assert 'id="fig-critical_difference"' in page and "at most 25 learners" in page
    assert "<img" not in page.split('id="fig-critical_difference"')[1][:300]
    assert page.index('id="bottom-line"') < page.index('<section id="run">')


def test_cells_are_formatted_by_column_as_each_cell_was():
    """H: a column is formatted at once with the format its name asks for (p
    columns 3 significant digits, scientific below 0.001; counts as integers;
    other numbers 4 decimals), and a cell that is not a finite float keeps its
    own text (a dash for NaN, infinities, bools, ints, escaped text); numbers
    are right-aligned, bools and text not; a column of ints among floats is
    floats, as the rows of the frame are."""
    from sklearn_bench.report._blocks import _interval_texts, _table, _texts

    cells = [0.5, 1e-5, np.nan, np.inf, -np.inf, True, 3, "<a>", np.float32(0.25)]
    assert _texts(cells, "p") == [
        "0.500", "1.00e-05", "–", "∞", "−∞", "True", "3", "&lt;a&gt;", "0.250"
    ]  # fmt: skip
    assert _texts([2.0, np.nan], "n") == ["2", "–"]
    assert _texts([1 / 3], "estimate") == ["0.3333"]
    bounds = pd.DataFrame({"low": [0.1, np.nan], "high": [0.25, 1.0]})
    assert _interval_texts(bounds) == [
        "[0.1000, 0.2500]",
        "[–, 1.0000]",
    ]
    frame = pd.DataFrame({"n": [3, 4], "Holm p": [0.2, 0.0001], "ok": [True, False]})
    html = _table(frame, "T", table_id="t", index=False)
    assert '<td class="num">3</td><td class="num">0.200</td><td>True</td>' in html
    numbers = _table(frame[["n", "Holm p"]], "T", table_id="t", index=False)
    assert '<td class="num">3</td><td class="num">0.200</td>' in numbers
    estimates = _table(frame[["Holm p"]].rename(columns={"Holm p": "x"}), "T",
                       table_id="t")  # fmt: skip
    assert '<tr><td>0</td><td class="num">0.2000</td></tr>' in estimates
