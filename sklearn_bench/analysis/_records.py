"""What an analysis ran: one record per test, with the papers it follows.

Every test an analysis ran is a :class:`TestRecord` in ``Analysis.methods``;
the methods paragraph of a report is generated from those records, so it never
describes a test that did not run.
"""

import re
from dataclasses import dataclass

from .._latex import PAIRED_TEST_NAMES
from ._notes import note

# Each citation once, by key; the paragraph lists the keys its records use.
CITATIONS = {
    "waudbysmith2024": (
        "Waudby-Smith, I. and Ramdas, A. (2024). Estimating means of bounded random "
        "variables by betting. Journal of the Royal Statistical Society Series B, "
        "86(1), 1–27."
    ),
    "maron1994": (
        "Maron, O. and Moore, A. W. (1994). Hoeffding races: accelerating model "
        "selection search for classification and function approximation. Advances "
        "in Neural Information Processing Systems 6, 59–66."
    ),
    "grunwald2024": (
        "Grünwald, P., de Heide, R. and Koolen, W. M. (2024). Safe testing. Journal "
        "of the Royal Statistical Society Series B, 86(5), 1091–1128."
    ),
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
    "boulesteix2015": (
        "Boulesteix, A.-L., Hable, R., Lauer, S. and Eugster, M. J. A. (2015). A "
        "statistical framework for hypothesis testing in real data comparison "
        "studies. The American Statistician, 69(3), 201–212."
    ),
    "corani2017": (
        "Corani, G., Benavoli, A., Demšar, J., Mangili, F. and Zaffalon, M. "
        "(2017). Statistical comparison of classifiers through Bayesian "
        "hierarchical modelling. Machine Learning, 106(11), 1817–1837."
    ),
    "calvo2018": (
        "Calvo, B., Ceberio, J. and Lozano, J. A. (2018). Bayesian inference for "
        "algorithm ranking analysis. In Proceedings of the Genetic and "
        "Evolutionary Computation Conference Companion (GECCO '18), 324–325."
    ),
    "caron2012": (
        "Caron, F. and Doucet, A. (2012). Efficient Bayesian inference for "
        "generalized Bradley–Terry models. Journal of Computational and "
        "Graphical Statistics, 21(1), 174–196."
    ),
    "mogstad2024": (
        "Mogstad, M., Romano, J. P., Shaikh, A. M. and Wilhelm, D. (2024). "
        "Inference for ranks with applications to mobility across neighbourhoods "
        "and academic achievement across countries. The Review of Economic "
        "Studies, 91(1), 476–518."
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
    # the tests every report names (issue 37.8: each named test is cited)
    "friedman1937": (
        "Friedman, M. (1937). The use of ranks to avoid the assumption of "
        "normality implicit in the analysis of variance. Journal of the American "
        "Statistical Association, 32(200), 675–701."
    ),
    "iman1980": (
        "Iman, R. L. and Davenport, J. M. (1980). Approximations of the critical "
        "region of the Friedman statistic. Communications in Statistics – Theory "
        "and Methods, 9(6), 571–595."
    ),
    "nemenyi1963": (
        "Nemenyi, P. B. (1963). Distribution-free multiple comparisons. PhD "
        "thesis, Princeton University."
    ),
    "wilcoxon1945": (
        "Wilcoxon, F. (1945). Individual comparisons by ranking methods. "
        "Biometrics Bulletin, 1(6), 80–83."
    ),
    "hodges1963": (
        "Hodges, J. L. and Lehmann, E. L. (1963). Estimates of location based on "
        "rank tests. The Annals of Mathematical Statistics, 34(2), 598–611."
    ),
    "shaffer1986": (
        "Shaffer, J. P. (1986). Modified sequentially rejective multiple test "
        "procedures. Journal of the American Statistical Association, 81(395), "
        "826–831."
    ),
    # issue 40: the intervals of one learner's error
    "bates2024": (
        "Bates, S., Hastie, T. and Tibshirani, R. (2024). Cross-validation: what "
        "does it estimate and how well does it do it? Journal of the American "
        "Statistical Association, 119(546), 1434–1445."
    ),
    "bayle2020": (
        "Bayle, P., Bayle, A., Janson, L. and Mackey, L. (2020). Cross-validation "
        "confidence intervals for test error. Advances in Neural Information "
        "Processing Systems, 33, 16339–16350."
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
    # the model of the demo's simulated microarray (datasets.make_microarray)
    "yousefi2011": (
        "Yousefi, M. R., Hua, J. and Dougherty, E. R. (2011). Multiple-rule bias "
        "in the comparison of classification rules. Bioinformatics, 27(12), "
        "1675–1683."
    ),
    "siegel1988": (
        "Siegel, S. and Castellan, N. J. (1988). Nonparametric Statistics for the "
        "Behavioral Sciences, 2nd ed. McGraw-Hill, New York."
    ),
}


def short_citation(key):
    """The author–year text of a work of :data:`CITATIONS`: ``"Demšar 2006"``."""
    return _SHORT[key]


def _author_year(entry):
    """(first author's surname, year) of a reference entry."""
    year = re.search(r"\((\d{4})\)", entry).group(1)
    return entry.split(",", 1)[0].strip(), year


def cited_keys(text):
    """The keys of :data:`CITATIONS` that ``text`` cites in author–year form: the
    first author's surname followed within a few words by the year."""
    keys = []
    for key, entry in CITATIONS.items():
        surname, year = _author_year(entry)
        pattern = rf"{re.escape(surname)}\b[^()\n]{{0,60}}?\(?{year}\b"
        if re.search(pattern, text):
            keys.append(key)
    return sorted(keys)


def _short(entry):
    """``"Surname year"``, ``"A & B year"`` or ``"A et al. year"`` of an entry."""
    year = re.search(r"\((\d{4})\)", entry)
    names = re.split(r",? and |(?<=\.), ", entry[: year.start()].strip())
    surnames = [n.split(",")[0].strip() for n in names]
    if len(surnames) > 2:
        return f"{surnames[0]} et al. {year[1]}"
    return f"{' & '.join(surnames)} {year[1]}"


# Author-year text of each key, for "(Demšar 2006)"; the works their records
# already cite in words ("Calvo, Ceberio & Lozano 2018") get no second one.
_SHORT = {
    k: _short(v)
    for k, v in CITATIONS.items()
    if k not in {"corani2017", "calvo2018", "caron2012", "mogstad2024"}
}

# Citations of the paired tests of sklearn_bench.stats.paired_test (their names
# are the LaTeX captions', one list: sklearn_bench._latex.PAIRED_TEST_NAMES).
_PAIRED_CITATIONS = {
    "t": ("hothorn2005",),
    "corrected_t": ("nadeau2003", "bouckaert2004"),
    "5x2cv": ("dietterich1998",),
    "5x2cv_f": ("alpaydin1999",),
    "wilcoxon": ("wilcoxon1945", "demsar2006"),
    "sign": ("demsar2006",),
    "permutation": ("hothorn2005",),
    "mcnemar": ("berrar2013",),
}


@dataclass(frozen=True)
class TestRecord:
    """One test (or interval, or power analysis) a report ran.

    Attributes
    ----------
    key, what, test, blocks : str
        A short identifier unique within a report (``"friedman"``), what was
        compared, the procedure and the independent units, in words.
    correction : str
        The multiplicity correction, or ``""`` for none.
    alpha : float or None
        The level of the tests, or ``None`` for intervals only.
    citations : tuple of str
        Keys of :data:`CITATIONS`.

    Examples
    --------
    >>> from sklearn_bench.analysis import TestRecord
    >>> TestRecord("pairs", "each pair of learners", "paired t-test",
    ...            "8 data sets", alpha=0.05, citations=("demsar2006",)).sentence()
    'Each pair of learners: paired t-test over 8 data sets, at α = 0.05 (Demšar 2006).'
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
        cites = self.cites()
        return text + (f" ({cites})." if cites else ".")

    def cites(self):
        """The record's citations in author–year form: ``"Demšar 2006"``."""
        return "; ".join(_SHORT[c] for c in self.citations if c in _SHORT)


# A method of ``paired_test`` as a label beside its numbers.
_SHORT_NAMES = {
    "t": "paired t",
    "corrected_t": "corrected resampled t",
    "5x2cv": "5×2cv paired t",
    "5x2cv_f": "combined 5×2cv F",
    "wilcoxon": "Wilcoxon signed-rank",
    "sign": "sign test",
    "permutation": "paired permutation",
    "mcnemar": "McNemar",
}


def short_test_names(methods):
    """The label of the tests that ran, from their ``method`` column."""
    used = sorted({str(m) for m in methods if isinstance(m, str) and m})
    return " / ".join(_SHORT_NAMES.get(m, m) for m in used)


def paired_method(method):
    """``(name, citation keys)`` of a method of ``paired_test``."""
    name = PAIRED_TEST_NAMES.get(method, f"{method} test")
    return name, _PAIRED_CITATIONS.get(method, ())


# Why a test within a data set cannot run, by cause: a phrase of the error that
# names the cause, the cause in words for a group, and the way out.
_SCHEME_FIX = (
    "pass the split sizes to `BenchmarkResult.from_frame` (`n_train=` and "
    "`n_test=`, numbers or columns; a store holds them), or call `paired_test` "
    "with method='corrected_t' and test_train_ratio=n_test/n_train"
)
_REPEAT_FIX = (
    "run a repeated scheme, e.g. RepeatedStratifiedKFold(n_splits=10, "
    "n_repeats=10), or BootstrapOOB"
)
WITHIN_CAUSES = (
    (
        ("resampling scheme of data set", "is unknown"),
        "the resampling scheme is unknown (no splitter recorded and no split "
        "sizes stored), so no test valid for new data of the kind can be chosen",
        _SCHEME_FIX,
    ),
    (("At least 2 replicates",), "a test needs at least 2 replicates", _REPEAT_FIX),
    (("at least 2 pairs",), "a test needs at least 2 paired scores", _REPEAT_FIX),
)
# Examples named in a note of a group.
MAX_NOTE_EXAMPLES = 3


def within_notes(failures):
    """One note per cause, in order, of the failed tests within a data set
    (``failures``: their ``(learner, reference, dataset, message)``): a cause of
    one comparison gives its note, of several one note with their number, the
    first :data:`MAX_NOTE_EXAMPLES` of them and the way out."""
    groups, causes = {}, {}  # the cause of each message, looked up once
    for learner, reference, dataset, message in failures:
        if message not in causes:  # (cause, fix) of WITHIN_CAUSES, or None
            causes[message] = next(
                ((c, f) for p, c, f in WITHIN_CAUSES if all(x in message for x in p)),
                None,
            )
        known = causes[message]
        if known is None:  # a cause of its own: the message without the names
            key = message
            for name in (dataset, learner, reference):
                key = key.replace(repr(str(name)), "…")
        else:
            key = known
        groups.setdefault(key, []).append((learner, reference, dataset, message))
    notes = []
    for key, members in groups.items():
        learner, reference, dataset, message = members[0]
        if len(members) == 1:
            # reference (the best there) − learner: the report's sign convention
            names = {"reference": reference, "learner": learner, "dataset": dataset}
            if isinstance(key, tuple):  # the way out, as a sentence of its own
                fix = f"{key[1][0].upper()}{key[1][1:]}"
                notes.append(note("within_one_fix", **names, reason=message, fix=fix))
            else:
                notes.append(note("within_one", **names, reason=message))
            continue
        shown = ", ".join(
            f"{b} − {a} on {d}" for a, b, d, _ in members[:MAX_NOTE_EXAMPLES]
        )
        more = len(members) - MAX_NOTE_EXAMPLES
        shown += f" and {more:,} more" if more > 0 else ""
        if isinstance(key, tuple):
            cause, fix = key
            notes.append(note("within_cause", n=len(members), shown=shown,
                              cause=cause, fix=fix))  # fmt: skip
        else:
            notes.append(note("within_first", n=len(members), shown=shown,
                              reason=message))  # fmt: skip
    return notes


# The sign convention of every table of an analysis: "A − B" with A the better
# ranked learner of the pair (average rank over the data sets, rank 1 = best;
# within a data set, the best learner there), B the other.
SIGN_CONVENTION = (
    "Differences are A − B with A the better-ranked learner of the pair (by "
    "average rank over the data sets; within a data set, the best learner "
    "there) and B the other"
)
