"""User-facing wording (issue 28.12b, c): no internal jargon in the package's
docstrings, the docs and the gallery, and the learning problems in plain words."""

import re
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench.cli._demo import SIZES, describe  # noqa: E402
from sklearn_bench.datasets._dataset import PROBLEM_WORDS

from ._report import report  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
# "seed 002", "Seed 000's figure", "the seed paper": names of the files the
# package was built from, which no user has; the papers go by author and year.
JARGON = re.compile(r"\bseed (?:0\d\d|paper)", re.IGNORECASE)


def test_no_seed_jargon_in_package_docs_or_gallery():
    """H: no module of the package (docstrings, messages, figure titles), no page
    of the docs and no gallery example calls a paper "seed 00N" or "the seed
    paper"; each names the paper by author and year (e.g. Hothorn et al. 2005)."""
    files = [
        *sorted((ROOT / "sklearn_bench").rglob("*.py")),
        *sorted((ROOT / "examples").glob("*.py")),
        *sorted((ROOT / "docs").rglob("*.rst")),
        ROOT / "README.md",
    ]
    found = [
        f"{path.relative_to(ROOT)}:{line_no}: {line.strip()}"
        for path in files
        if path.exists()
        for line_no, line in enumerate(
            path.read_text(encoding="utf-8").splitlines(), start=1
        )
        if JARGON.search(line)
    ]
    assert not found, "\n".join(found)


def test_report_names_the_problem_in_plain_words(tmp_path):
    """H: the report's data-set table says "no separate test sample" where the
    stored problem is Hothorn et al.'s term of art "real world" (which the
    demo's simulated microarray is too), and never prints "real world"."""
    rng = np.random.default_rng(0)
    rows = [
        (f"d{d}", m, r, 0.2 + 0.02 * j + rng.normal(0, 0.02))
        for d in range(3)
        for j, m in enumerate("AB")
        for r in range(4)
    ]
    df = pd.DataFrame(rows, columns=["dataset", "learner", "replicate", "value"])
    df["fold"], df["split"], df["metric"] = 0, df["replicate"], "error_rate"
    df["n_train"], df["n_test"] = 80, 30
    result = BenchmarkResult(
        df,
        metrics={"error_rate": False},
        datasets={"d0": "real world", "d1": "real world", "d2": "competition"},
        learners=["A", "B"],
    )
    report(result, tmp_path, analyses=("effects",), figure_formats=("png",))
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    assert "real world" not in page.lower()
    assert PROBLEM_WORDS["real world"] in page and "no separate test sample" in page
    assert PROBLEM_WORDS["competition"] in page


def test_demo_says_its_microarray_is_simulated():
    """H: the demo's one-line description marks every generated microarray data
    set as simulated, so no reader takes it for measured data."""
    for size, spec in SIZES.items():
        line = describe(size)
        for name in spec["datasets"]:
            if name.startswith("microarray"):
                assert f"{name} (simulated)" in line, (size, line)


def test_the_report_says_which_data_are_simulated_and_by_which_model(tmp_path):
    """H (issue 37.6, 49): the demo's simulated microarray says so wherever its
    problem (a simulation: fresh learning samples of its model) is stated: the report's
    data-set table, the methods paragraph (which cites Yousefi et al. 2011 and
    lists it among the references) and results/metadata.json; a measured data
    set says it is measured (on 17a1a60 nothing said the microarray was
    simulated, so a methods paragraph pasted into a paper called it real)."""
    import json

    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.analysis._records import CITATIONS
    from sklearn_bench.cli._demo import demo_datasets
    from sklearn_bench.model_selection import BootstrapOOB

    datasets = demo_datasets(["wine_0v1", "microarray"])
    result = (
        BenchmarkExperiment(
            {"nb": GaussianNB(), "nb2": GaussianNB(var_smoothing=1e-3)},
            cv=BootstrapOOB(n_bootstraps=3),
            random_state=0,
            progress=False,
        )
        .fit(datasets)
        .results_
    )
    analysis = report(result, tmp_path, figure_formats=("png",))
    assert analysis.datasets.loc["microarray", "source"].startswith("simulated")
    assert analysis.datasets.loc["wine_0v1", "source"].startswith("measured")
    page = (tmp_path / "report.html").read_text(encoding="utf-8")
    table = page[page.index('id="table-datasets"') :].split("</table>")[0]
    assert "simulated, not measured" in table and "Yousefi et al. (2011" in table
    methods = re.sub(r"\\(.)", r"\1", (tmp_path / "methods.md").read_text())
    body, refs = methods.split("## References")
    assert "microarray (simulated, not measured: make_microarray" in body
    assert "Yousefi et al. (2011" in body and CITATIONS["yousefi2011"] in refs
    assert CITATIONS["yousefi2011"].replace("&", "&amp;") in page
    result.save(tmp_path / "saved")
    meta = json.loads((tmp_path / "saved" / "metadata.json").read_text())
    entry = {d["name"]: d for d in meta["datasets"]}["microarray"]
    assert entry["problem"] == "simulation"  # fresh samples of its model (issue 49)
    assert entry["source"].startswith("simulated, not measured")
