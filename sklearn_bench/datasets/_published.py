"""Published tables of benchmark results, typed in from the papers: tidy (one row per
data set and learner, for :meth:`sklearn_bench.BenchmarkResult.from_frame`) or as
printed (data sets x learners, for :mod:`sklearn_bench.stats`)."""

import pandas as pd

from .._validation import check_bool

# Demšar (2006), JMLR 7, Table 6: AUC (three decimals, as printed).
_DEMSAR2006_LEARNERS = ("C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf")
_DEMSAR2006_AUC = (
    ("adult(sample)", 0.763, 0.768, 0.771, 0.798),
    ("breast cancer", 0.599, 0.591, 0.590, 0.569),
    ("breast cancer wisconsin", 0.954, 0.971, 0.968, 0.967),
    ("cmc", 0.628, 0.661, 0.654, 0.657),
    ("ionosphere", 0.882, 0.888, 0.886, 0.898),
    ("iris", 0.936, 0.931, 0.916, 0.931),
    ("liver disorders", 0.661, 0.668, 0.609, 0.685),
    ("lung cancer", 0.583, 0.583, 0.563, 0.625),
    ("lymphography", 0.775, 0.838, 0.866, 0.875),
    ("mushroom", 1.000, 1.000, 1.000, 1.000),
    ("primary tumor", 0.940, 0.962, 0.965, 0.962),
    ("rheum", 0.619, 0.666, 0.614, 0.669),
    ("voting", 0.972, 0.981, 0.975, 0.975),
    ("wine", 0.957, 0.978, 0.946, 0.970),
)

# Dietterich (2000), as printed in Riddle's lecture slides: test error rates.
_DIETTERICH2000_LEARNERS = ("C4.5", "Randomized C4.5", "Bagged C4.5", "Adaboosted C4.5")
_DIETTERICH2000_ERROR = (
    ("sonar", 0.3257, 0.2018, 0.2752, 0.1651),
    ("letter", 0.1225, 0.0285, 0.0552, 0.0271),
    ("splice", 0.0575, 0.0397, 0.0506, 0.0503),
    ("segment", 0.0328, 0.0203, 0.0263, 0.0151),
    ("glass", 0.3437, 0.2277, 0.2723, 0.2277),
    ("soybean", 0.1262, 0.0852, 0.1009, 0.0757),
    ("autos", 0.2326, 0.1581, 0.1814, 0.1814),
    ("satimage", 0.1515, 0.0890, 0.1020, 0.0850),
    ("annealing", 0.0132, 0.0088, 0.0099, 0.0055),
    ("krk", 0.1887, 0.1309, 0.1463, 0.1026),
    ("heart-v", 0.2762, 0.2429, 0.2619, 0.2810),
    ("heart-c", 0.2396, 0.1853, 0.1981, 0.2045),
    ("breast-y", 0.2601, 0.2500, 0.2635, 0.3142),
    ("phoneme", 0.1661, 0.1437, 0.1509, 0.1464),
    ("voting", 0.1146, 0.0921, 0.0966, 0.1034),
    ("vehicle", 0.2944, 0.2477, 0.2570, 0.2196),
    ("lymph", 0.1962, 0.1772, 0.1835, 0.1266),
    ("breast-w", 0.0494, 0.0353, 0.0367, 0.0310),
    ("credit-g", 0.2921, 0.2416, 0.2495, 0.2347),
    ("primary", 0.5845, 0.5501, 0.5645, 0.5960),
    ("shuttle", 0.0003, 0.0002, 0.0002, 0.0001),
    ("heart-s", 0.0677, 0.0677, 0.0677, 0.0902),
    ("iris", 0.0563, 0.0500, 0.0500, 0.0688),
    ("sick", 0.0132, 0.0137, 0.0137, 0.0095),
    ("hepatitis", 0.1758, 0.1636, 0.1636, 0.1636),
    ("credit-a", 0.1614, 0.1400, 0.1371, 0.1300),
    ("waveform", 0.2341, 0.1784, 0.1675, 0.1521),
    ("horse-colic", 0.1561, 0.1561, 0.1481, 0.1825),
    ("heart-h", 0.1645, 0.1809, 0.1579, 0.2039),
    ("labor", 0.1493, 0.1493, 0.1194, 0.1194),
    ("krkp", 0.0075, 0.0075, 0.0056, 0.0037),
    ("audiology", 0.2203, 0.2458, 0.1822, 0.1525),
    ("hypo", 0.0058, 0.0079, 0.0042, 0.0040),
)


def _table(rows, learners, value, wide):
    """The printed ``rows`` as a tidy frame, or as printed when ``wide``."""
    wide = check_bool(wide, "wide")
    table = pd.DataFrame.from_records(rows, columns=["dataset", *learners])
    table = table.set_index("dataset")
    table.columns.name = "learner"
    if wide:
        return table
    return table.stack().rename(value).reset_index()


def load_demsar2006(*, wide=False):
    """AUC of four C4.5 variants on 14 data sets, Demšar (2006), Table 6.

    Demšar's worked example of the Friedman test: C4.5 with default settings,
    with ``m`` tuned, with ``cf`` tuned and with both tuned, on 14 UCI data sets.
    Higher is better. The "voting" row prints a tie that the paper ranked from
    unrounded values (see the user guide, "Many learners").

    Parameters
    ----------
    wide : bool, default=False
        Return the table as printed, one row per data set and one column per
        learner (for :func:`sklearn_bench.stats.friedman_test` and the other
        functions on a data sets × learners table), instead of the tidy table.

    Returns
    -------
    table : DataFrame
        Tidy: 56 rows with columns ``dataset``, ``learner`` and ``auc``, data
        sets and learners in the paper's order. With ``wide=True``: 14 rows
        indexed by ``dataset``, one column per learner (columns named
        ``learner``).

    See Also
    --------
    load_dietterich2000 : A table of error rates (lower is better).
    sklearn_bench.BenchmarkResult.from_frame : Analyse the tidy table.

    References
    ----------
    Demšar, J. (2006). Statistical comparisons of classifiers over multiple
    data sets. Journal of Machine Learning Research, 7, 1-30.

    Examples
    --------
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> auc = load_demsar2006()
    >>> auc.head(3)
             dataset learner    auc
    0  adult(sample)    C4.5  0.763
    1  adult(sample)  C4.5+m  0.768
    2  adult(sample) C4.5+cf  0.771
    >>> from sklearn_bench.stats import friedman_test
    >>> res = friedman_test(load_demsar2006(wide=True), greater_is_better=True,
    ...                     tie_correction=False)
    >>> res.average_ranks.round(3).tolist(), round(res.statistic, 3)
    ([3.143, 2.0, 2.929, 1.929], 9.857)
    """
    return _table(_DEMSAR2006_AUC, _DEMSAR2006_LEARNERS, "auc", wide)


def load_dietterich2000(*, wide=False):
    """Error rates of C4.5 and three C4.5 ensembles on 33 data sets.

    Dietterich (2000) on 33 UCI data sets, as printed in Riddle's lecture slides
    after Demšar (2006) (error rates only, without their ± terms and marks).
    Lower is better; several rows hold ties.

    Parameters
    ----------
    wide : bool, default=False
        As in :func:`load_demsar2006`.

    Returns
    -------
    table : DataFrame
        Tidy: 132 rows with columns ``dataset``, ``learner`` and ``error_rate``;
        with ``wide=True``: 33 rows, as :func:`load_demsar2006`.

    See Also
    --------
    load_demsar2006 : A table of AUC (higher is better).

    References
    ----------
    Dietterich, T. G. (2000). An experimental comparison of three methods for
    constructing ensembles of decision trees: bagging, boosting, and
    randomization. Machine Learning, 40(2), 139-157.

    Riddle, P. J. Evaluating hypothesis and experimental design #2, lecture
    slides, Computer Science 760.

    Examples
    --------
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> errors = load_dietterich2000(wide=True)
    >>> errors.shape
    (33, 4)
    >>> from sklearn_bench.stats import friedman_test
    >>> friedman_test(errors, greater_is_better=False).average_ranks.round(3).tolist()
    [3.53, 2.106, 2.439, 1.924]
    """
    return _table(_DIETTERICH2000_ERROR, _DIETTERICH2000_LEARNERS, "error_rate", wide)
