"""How good is each learner: the interval of each learner's error on each data
set, :meth:`BenchmarkResult.confidence_interval` of one learner with the plan's
level and method (the one recommended for the run's splitter by default)."""

import pandas as pd

from ..results import interval_method
from ._records import TestRecord

# Each method in words, with the papers it follows.
METHOD_WORDS = {
    "nested_cv": (
        "the nested cross-validation interval: the bias-corrected estimate and "
        "the mean squared error of cross-validation estimated from the inner "
        "and outer folds, its standard error clipped between independent and "
        "fully dependent folds",
        ("bates2024",),
    ),
    "conservative_z": (
        "the conservative Z interval of paired subsampling (the variance from "
        "pairs of disjoint halves)",
        ("nadeau2003",),
    ),
    "corrected_t": (
        "the corrected resampled t interval of the split errors",
        ("nadeau2003", "bouckaert2004"),
    ),
    "holdout": ("the Wald interval of the one validation set", ()),
    "naive_cv": (
        "the naive cross-validation interval, which takes the folds as "
        "independent and covers the expected error less often than it says "
        "(Bates et al. 2024)",
        ("bayle2020", "bates2024"),
    ),
    "five_by_two": ("the 5×2cv t interval of the first fold", ("dietterich1998",)),
}
# The most intervals of single learners a report computes (about 5 ms each).
MAX_INTERVALS = 1000
COLUMNS = [
    "dataset",
    "learner",
    "estimate",
    "standard_error",
    "low",
    "high",
    "method",
    "design",
]


def generalization(result, plan, metric, order):
    """The interval of each learner's ``metric`` on each data set, the
    learners of each in the analysis' ``order`` (one ranking in every table).

    Returns
    -------
    frame : DataFrame or None
        :data:`COLUMNS`, one row per data set and learner; ``None`` when no
        data set's splitter supports a method, or when there are more than
        :data:`MAX_INTERVALS` of them (each takes a few milliseconds: a 50 x
        500 study would spend minutes on 25,000 intervals nobody reads).
    record : TestRecord or None
    notes : list of str
    skipped : str
        Why the section is empty (``""`` when it is not).

    Raises
    ------
    ValueError
        The plan names a method the splitter of a data set cannot support.
    """
    level, named = plan.confidence_level, plan.generalization_method
    n = len(result.learners) * len(result.datasets)
    if n > MAX_INTERVALS:
        return (
            None,
            None,
            [],
            (
                f"{len(result.learners)} learners x {len(result.datasets)} data sets "
                f"would need {n:,} intervals, more than the {MAX_INTERVALS:,} a report "
                "computes; ask for those you need with "
                "BenchmarkResult.confidence_interval(learner, dataset=...)"
            ),
        )
    rows, notes, why, used = [], [], {}, []
    for dataset in result.datasets:
        try:  # a method the plan names must fit every data set's splitter
            method = interval_method(result, dataset, named, metric=metric)
        except ValueError as exc:
            if named is not None:
                raise
            why[dataset] = str(exc)
            continue
        used.append(method)
        for learner in order:
            try:
                res = result.confidence_interval(
                    learner,
                    dataset=dataset,
                    method=method,
                    confidence_level=level,
                    metric=metric,
                )
            except ValueError as exc:
                notes.append(f"No interval of {learner}'s {metric} on {dataset}: {exc}")
                continue
            rows.append(
                [
                    dataset,
                    learner,
                    res.estimate,
                    res.standard_error,
                    res.low,
                    res.high,
                    res.method,
                    res.design,
                ]  # fmt: skip
            )
    notes.extend(f"No interval of a learner's error: {w}" for w in why.values())
    if not rows:
        reason = next(iter(why.values()), "no data set has the intervals' data")
        return None, None, notes, reason
    methods = list(dict.fromkeys(used))
    if "naive_cv" in methods:
        notes.append(
            "The intervals of each learner's error are naive cross-validation "
            "intervals (one K-fold partition): they cover the expected error "
            "less often than they say (Bates et al. 2024). Run NestedCV "
            '(config [experiment.cv] kind = "nested_cv") for the recommended '
            "interval."
        )
    record = TestRecord(
        "generalization",
        f"how good each learner is: its expected {metric} on new data of the "
        f"kind ({level:.0%} confidence intervals)",
        "; ".join(METHOD_WORDS[m][0] for m in methods),
        f"the {'splits' if methods != ['nested_cv'] else 'inner and outer folds'}"
        " of each data set",
        citations=tuple(dict.fromkeys(c for m in methods for c in METHOD_WORDS[m][1])),
    )
    return pd.DataFrame(rows, columns=COLUMNS), record, notes, ""
