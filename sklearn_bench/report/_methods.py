"""The methods paragraph of a report: what was run and which tests, with citations.

Every analysis of a report registers the test it ran as a :class:`TestRecord` in
``ReportAnalysis.methods`` (:func:`register_test`); the paragraph is generated
from those records and the result's provenance only, so it never describes a
test that did not run. A new report section adds its own record where it runs
its test.
"""

import re
from dataclasses import dataclass

import pandas as pd

# Each citation once, by key; the paragraph lists the keys its records use.
CITATIONS = {
    "benavoli2017": (
        "Benavoli, A., Corani, G., Demšar, J. and Zaffalon, M. (2017). Time for a "
        "change: a tutorial for comparing multiple classifiers through Bayesian "
        "analysis. Journal of Machine Learning Research, 18(77), 1–36."
    ),
    "benavoli2016": (
        "Benavoli, A., Corani, G. and Mangili, F. (2016). Should we really use "
        "post-hoc tests based on mean-ranks? Journal of Machine Learning Research, "
        "17(5), 1–10."
    ),
    "alpaydin1999": (
        "Alpaydin, E. (1999). Combined 5 × 2 cv F test for comparing supervised "
        "classification learning algorithms. Neural Computation, 11(8), 1885–1892."
    ),
    "bouckaert2004": (
        "Bouckaert, R. R. and Frank, E. (2004). Evaluating the replicability of "
        "significance tests for comparing learning algorithms. In Advances in "
        "Knowledge Discovery and Data Mining (PAKDD 2004), LNCS 3056, 3–12."
    ),
    "corani2015": (
        "Corani, G. and Benavoli, A. (2015). A Bayesian approach for comparing "
        "cross-validated algorithms on multiple data sets. Machine Learning, "
        "100(2–3), 285–304."
    ),
    "dietterich1998": (
        "Dietterich, T. G. (1998). Approximate statistical tests for comparing "
        "supervised classification learning algorithms. Neural Computation, 10(7), "
        "1895–1923."
    ),
    "berrar2013": (
        "Berrar, D. and Lozano, J. A. (2013). Significance tests or confidence "
        "intervals: which are preferable for the comparison of classifiers? "
        "Journal of Experimental & Theoretical Artificial Intelligence, 25(2), "
        "189–206."
    ),
    # Published in 2015 (The American Statistician 69(3)); the seed is the
    # 2013 technical report of the same title. The key keeps the seed's year.
    "boulesteix2013": (
        "Boulesteix, A.-L., Hable, R., Lauer, S. and Eugster, M. J. A. (2015). A "
        "statistical framework for hypothesis testing in real data comparison "
        "studies. The American Statistician, 69(3), 201–212."
    ),
    "herbold2020": (
        "Herbold, S. (2020). Autorank: a Python package for automated ranking of "
        "classifiers. Journal of Open Source Software, 5(48), 2173."
    ),
    "demsar2006": (
        "Demšar, J. (2006). Statistical comparisons of classifiers over multiple "
        "data sets. Journal of Machine Learning Research, 7, 1–30."
    ),
    "holm1979": (
        "Holm, S. (1979). A simple sequentially rejective multiple test procedure. "
        "Scandinavian Journal of Statistics, 6(2), 65–70."
    ),
    "hothorn2005": (
        "Hothorn, T., Leisch, F., Zeileis, A. and Hornik, K. (2005). The design "
        "and analysis of benchmark experiments. Journal of Computational and "
        "Graphical Statistics, 14(3), 675–699."
    ),
    "nadeau2003": (
        "Nadeau, C. and Bengio, Y. (2003). Inference for the generalization "
        "error. Machine Learning, 52(3), 239–281."
    ),
    # issue 24: the post-hoc tests a report may choose ([analysis] posthoc)
    "conover1979": (
        "Conover, W. J. and Iman, R. L. (1979). On multiple-comparisons "
        "procedures. Technical Report LA-7677-MS, Los Alamos Scientific "
        "Laboratory."
    ),
    "eisinga2017": (
        "Eisinga, R., Heskes, T., Pelzer, B. and Te Grotenhuis, M. (2017). Exact "
        "p-values for pairwise comparison of Friedman rank sums, with application "
        "to comparing classifiers. BMC Bioinformatics, 18, 68."
    ),
    "garcia2008": (
        'García, S. and Herrera, F. (2008). An extension on "Statistical '
        'comparisons of classifiers over multiple data sets" for all pairwise '
        "comparisons. Journal of Machine Learning Research, 9, 2677–2694."
    ),
    "garcia2010": (
        "García, S., Fernández, A., Luengo, J. and Herrera, F. (2010). Advanced "
        "nonparametric tests for multiple comparisons in the design of "
        "experiments in computational intelligence and data mining: experimental "
        "analysis of power. Information Sciences, 180(10), 2044–2064."
    ),
    "miller1966": (
        "Miller, R. G. (1966). Simultaneous Statistical Inference. McGraw-Hill, "
        "New York."
    ),
    "quade1979": (
        "Quade, D. (1979). Using weighted rankings in the analysis of complete "
        "blocks with additive block effects. Journal of the American Statistical "
        "Association, 74(367), 680–683."
    ),
    "siegel1988": (
        "Siegel, S. and Castellan, N. J. (1988). Nonparametric Statistics for the "
        "Behavioral Sciences, 2nd ed. McGraw-Hill, New York."
    ),
}

# Author-year text of each key, for "(Demšar 2006)".
_SHORT = {
    "alpaydin1999": "Alpaydin 1999",
    "bouckaert2004": "Bouckaert & Frank 2004",
    "corani2015": "Corani & Benavoli 2015",
    "dietterich1998": "Dietterich 1998",
    "benavoli2017": "Benavoli et al. 2017",
    "benavoli2016": "Benavoli et al. 2016",
    "berrar2013": "Berrar & Lozano 2013",
    "boulesteix2013": "Boulesteix et al. 2015",
    "demsar2006": "Demšar 2006",
    "herbold2020": "Herbold 2020",
    "holm1979": "Holm 1979",
    "hothorn2005": "Hothorn et al. 2005",
    "nadeau2003": "Nadeau & Bengio 2003",
    "conover1979": "Conover & Iman 1979",
    "eisinga2017": "Eisinga et al. 2017",
    "garcia2008": "García & Herrera 2008",
    "garcia2010": "García et al. 2010",
    "miller1966": "Miller 1966",
    "quade1979": "Quade 1979",
    "siegel1988": "Siegel & Castellan 1988",
}

# Names and citations of the paired tests of sklearn_bench.stats.paired_test.
PAIRED_METHODS = {
    "t": (
        "paired t-test on the replicates (conditional on the learning sample)",
        ("hothorn2005",),
    ),
    "corrected_t": (
        "corrected resampled t-test on the fold or split scores (variance "
        "inflated by n_test/n_train)",
        ("nadeau2003", "bouckaert2004"),
    ),
    "5x2cv": ("5×2cv paired t-test", ("dietterich1998",)),
    "5x2cv_f": ("combined 5×2cv F-test", ("alpaydin1999",)),
    "wilcoxon": ("Wilcoxon signed-rank test", ("demsar2006",)),
    "sign": ("sign test", ("demsar2006",)),
    "permutation": ("paired permutation test", ("hothorn2005",)),
    "mcnemar": ("McNemar's test", ("berrar2013",)),
}


@dataclass(frozen=True)
class TestRecord:
    """One test (or interval, or power analysis) a report ran.

    Attributes
    ----------
    key : str
        A short identifier, unique within a report (``"within"``, ``"friedman"``).
    what : str
        What was compared, in words ("each learner against the best learner on
        each data set").
    test : str
        The procedure ("two-sided paired t-test").
    blocks : str
        The independent units and their number ("20 replicates per data set").
    correction : str
        The multiplicity correction, or ``""`` for none.
    alpha : float or None
        The level of the tests, or ``None`` for intervals only.
    citations : tuple of str
        Keys of :data:`CITATIONS`.
    """

    __test__ = False  # not a pytest class

    key: str
    what: str
    test: str
    blocks: str
    correction: str = ""
    alpha: float | None = None
    citations: tuple = ()

    def sentence(self):
        """The record as one sentence with its citations in parentheses."""
        text = f"{self.what[:1].upper()}{self.what[1:]}: {self.test} over {self.blocks}"
        if self.correction:
            text += f", {self.correction}"
        if self.alpha is not None:
            text += f", at α = {self.alpha:g}"
        cites = "; ".join(_SHORT[c] for c in self.citations if c in _SHORT)
        return text + (f" ({cites})." if cites else ".")


def register_test(analysis, record):
    """Add ``record`` to ``analysis.methods`` (replacing one of the same key).

    The one place a report section says which test it ran, so that the methods
    paragraph reads them all; returns ``record``.
    """
    if not isinstance(record, TestRecord):
        raise TypeError(f"`record` must be a TestRecord; got {type(record).__name__}.")
    methods = analysis.methods
    methods[:] = [r for r in methods if r.key != record.key]
    methods.append(record)
    return record


def paired_method(method):
    """``(name, citation keys)`` of a method of ``paired_test``."""
    return PAIRED_METHODS.get(method, (f"{method} test", ()))


# -- the paragraph ----------------------------------------------------------------


def _size_text(size):
    if "n_samples" in size:
        text = f"n = {size['n_samples']}"
        if "n_features" in size:
            text += f", p = {size['n_features']}"
        if "n_test" in size:
            text += f", fixed test sample of {size['n_test']}"
        return text
    return ""


def _datasets_text(result, analysis):
    sizes = result.info.get("dataset_sizes", {})
    scores = result.scores
    if "n_train" in scores and "n_test" in scores:
        scores = scores[(scores["n_train"] >= 0) & (scores["n_test"] >= 0)]
        ranges = scores.groupby("dataset", observed=True).agg(
            train_min=("n_train", "min"),
            train_max=("n_train", "max"),
            test_min=("n_test", "min"),
            test_max=("n_test", "max"),
        )
    else:
        ranges = pd.DataFrame()
    parts = []
    for name in result.datasets:
        size = sizes.get(name, {})
        if "n_train" in size and "n_samples" not in size:
            text = (
                f"simulated: learning samples of {size['n_train']}, test samples "
                f"of {size['n_test']}"
            )
        else:
            text = _size_text(size)
        if name in ranges.index:
            r = ranges.loc[name]
            text += ("; " if text else "") + (
                f"{_count_range(r['train_min'], r['train_max'])} learning and "
                f"{_count_range(r['test_min'], r['test_max'])} validation rows "
                "per task"
            )
        reps = 0
        if name in analysis.mean.index:
            reps = int(analysis.n_replicates.loc[name].max())
        if reps > 1 or ranges.size:
            # one value per data set and no split sizes: a published table
            # (from_frame), where "1 replicates" would say nothing true
            text += ("; " if text else "") + (
                f"{reps} replicate{'s' if reps != 1 else ''}"
            )
        parts.append(f"{name} ({text})" if text else name)
    return parts


def _count_range(low, high):
    """Row counts as integers: ``"42"`` or ``"42–43"`` (never a median of 42.5)."""
    low, high = int(low), int(high)
    return f"{low}" if low == high else f"{low}–{high}"


def _learners_text(result, learner_table):
    parts = []
    for name in result.learners:
        if learner_table is not None and name in learner_table.index:
            row = learner_table.loc[name]
            params = row["parameters"]
            text = row["learner"] + (f" with {params}" if params else "")
        else:
            text = result.info.get("learners", {}).get(name, "")
            text = re.sub(r" at 0x[0-9a-fA-F]+>", ">", text)
        parts.append(f"{name}: {text}" if text else name)
    return parts


def methods_record(result, analysis, *, versions, settings=None, learner_table=None):
    """Everything the methods paragraph says, as plain data (for tests and
    both renderings)."""
    info = result.info
    n_failed = int(analysis.failures["count"].sum()) if len(analysis.failures) else 0
    return {
        "learners": _learners_text(result, learner_table),
        "datasets": _datasets_text(result, analysis),
        "cv": str(info["cv"]) if info.get("cv") else None,
        "seed": info.get("seed"),
        "metric": analysis.metric,
        "direction": analysis.direction,
        "confidence_level": analysis.confidence_level,
        "tests": [r.sentence() for r in analysis.methods],
        "citations": sorted(
            {c for r in analysis.methods for c in r.citations}
            | ({"hothorn2005", "berrar2013"} if info.get("cv") else {"berrar2013"})
        ),
        "n_failed": n_failed,
        "n_missing": int(getattr(result, "n_missing_tasks", 0)),
        "versions": dict(versions),
        "settings": dict(settings or {}),
    }


def _join(items):
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return "; ".join(items[:-1]) + "; and " + items[-1]


def _paragraph(rec):
    """The paragraph as a list of sentences (plain text, Unicode)."""
    s = [
        f"We compared {len(rec['learners'])} learners ({_join(rec['learners'])}) "
        f"on {len(rec['datasets'])} data sets ({_join(rec['datasets'])})."
    ]
    if rec["cv"]:
        seed = f", with random seed {rec['seed']}" if rec["seed"] is not None else ""
        s.append(
            f"Performance was measured by {rec['metric']} ({rec['direction']}) on "
            f"resamples drawn by {rec['cv']}, the same learning samples and "
            "validation rows for every learner on a data set (a matched-pairs "
            f"design; Hothorn et al. 2005){seed}."
        )
    else:
        # a table of results from elsewhere (from_frame): say only what is known
        s.append(
            f"Performance was measured by {rec['metric']} ({rec['direction']}); "
            "the results were supplied as a table, so the resampling scheme is not "
            "recorded here."
        )
    if rec["n_missing"]:
        s.append(
            f"The run is partial: {rec['n_missing']} tasks had not run; the "
            "analyses use the finished ones."
        )
    if rec["n_failed"]:
        s.append(
            f"{rec['n_failed']} tasks failed and were scored as missing; a data set "
            "with a missing replicate was left out of the analyses across data sets."
        )
    s.append(
        f"Effect sizes are reported with {rec['confidence_level']:.0%} confidence "
        "intervals before p-values (Berrar & Lozano 2013)."
    )
    if rec["tests"]:
        s.append("Analyses. " + " ".join(rec["tests"]))
    else:
        s.append("No test could be run on these results.")
    v = rec["versions"]
    s.append("Computed with " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".")
    return s


def methods_markdown(rec):
    """The methods paragraph and its references as Markdown."""
    lines = ["# Methods", "", " ".join(_paragraph(rec)), ""]
    if rec["settings"]:
        lines += ["Analysis settings: " + _settings_text(rec["settings"]) + ".", ""]
    if rec["citations"]:
        lines += ["## References", ""]
        lines += [f"- {CITATIONS[c]}" for c in rec["citations"]]
        lines.append("")
    return "\n".join(lines)


def _settings_text(settings):
    return "; ".join(
        f"{name} = {value} ({source})" for name, (value, source) in settings.items()
    )


def methods_latex(rec):
    """The methods paragraph as a LaTeX fragment (``\\paragraph`` and text;
    needs only the base classes and UTF-8 input)."""
    from ..results import escape_latex

    text = escape_latex(" ".join(_paragraph(rec)))
    out = [
        "% Generated by sklearn_bench from the run it describes.",
        r"\paragraph{Methods.}",
        text,
        "",
    ]
    if rec["settings"]:
        settings = _settings_text(rec["settings"])
        out += [escape_latex(f"Analysis settings: {settings}."), ""]
    if rec["citations"]:
        out.append(r"\begin{itemize}")
        out += [rf"\item {escape_latex(CITATIONS[c])}" for c in rec["citations"]]
        out.append(r"\end{itemize}")
    return "\n".join(out) + "\n"


def write_methods(result, analysis, folder, *, versions, settings=None):
    """Write ``methods.md`` and ``methods.tex`` into ``folder``, generated from
    the run's provenance and ``analysis.methods``; returns their paths."""
    from pathlib import Path

    from ._learners import learner_table

    folder = Path(folder)
    rec = methods_record(
        result,
        analysis,
        versions=versions,
        settings=settings,
        learner_table=learner_table(result),
    )
    md, tex = folder / "methods.md", folder / "methods.tex"
    md.write_text(methods_markdown(rec), encoding="utf-8")
    tex.write_text(methods_latex(rec), encoding="utf-8")
    return [md, tex]
