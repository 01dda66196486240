"""How good is each learner: the interval of each learner's error on each data
set, :meth:`BenchmarkResult.confidence_interval` of one learner with the plan's
level and method (the one recommended for the run's splitter by default)."""

from collections import Counter

import pandas as pd

from ..results._intervals import corrected_t_intervals, interval_method
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
COLUMNS = ["dataset", "learner", "estimate", "standard_error", "low", "high"]
COLUMNS += ["method", "design"]


def generalization(result, plan, metric, order):
    """The interval of each learner's ``metric`` on each data set, learners in
    the analysis' ``order``: ``(frame of COLUMNS or None, TestRecord or None,
    notes, why the section is empty or "")``. A ``ValueError`` when the plan
    names a method the splits of a data set cannot support."""
    level, named = plan.confidence_level, plan.generalization_method
    options = {"confidence_level": level, "metric": metric}
    rows, notes, why, used, clipped = [], [], {}, [], Counter()
    for dataset in result.datasets:
        try:  # a method the plan names must fit every data set's splitter
            method = interval_method(result, dataset, named, metric=metric)
        except ValueError as exc:
            if named is not None:
                raise
            why[dataset] = str(exc)
            continue
        used.append(method)
        batch = {}
        if method == "corrected_t":
            batch = corrected_t_intervals(result, dataset, **options)
        for learner in order:
            if learner in batch:
                rows.append([dataset, learner, *batch[learner][:4], method,
                             batch[learner][4]])  # fmt: skip
                continue
            try:
                res = result.confidence_interval(
                    learner, dataset=dataset, method=method, **options
                )
            except ValueError as exc:
                notes.append(f"No interval of {learner}'s {metric} on {dataset}: {exc}")
                continue
            if res.details.get("se_clipped"):
                clipped[res.details["se_clipped"]] += 1
            numbers = [res.estimate, res.standard_error, res.low, res.high]
            rows.append([dataset, learner, *numbers, res.method, res.design])
    notes.extend(f"No interval of a learner's error: {w}" for w in why.values())
    if not rows:
        reason = next(iter(why.values()), "no data set has the intervals' data")
        return None, None, notes, reason
    methods = list(dict.fromkeys(used))
    if clipped:  # small studies: the estimated MSE fell outside its bounds
        notes.append(
            f"{sum(clipped.values())} of {sum(r[6] == 'nested_cv' for r in rows)} "
            "nested-CV standard errors fell back to a bound of Bates et al. (2024) "
            "instead of the estimated MSE ("
            + ", ".join(f"{n} to the {b}" for b, n in sorted(clipped.items()))
            + "; lower: folds as if independent, upper: fully dependent): too few "
            "outer folds or repeats to estimate it; more repeats (NestedCV "
            "n_repeats) give an estimate."
        )
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
