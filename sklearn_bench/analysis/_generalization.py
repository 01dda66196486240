"""How good is each learner: the interval of each learner's error on each data
set, :meth:`BenchmarkResult.confidence_interval` of one learner with the plan's
level and method (the one recommended for the run's splitter by default)."""

from collections import Counter

import pandas as pd

from ..results._intervals import corrected_t_intervals, interval_method
from ._notes import note, skip
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
                notes.append(note("no_learner_interval", learner=learner, metric=metric,
                                 dataset=dataset, reason=str(exc)))  # fmt: skip
                continue
            if res.details.get("se_clipped"):
                clipped[res.details["se_clipped"]] += 1
            numbers = [res.estimate, res.standard_error, res.low, res.high]
            rows.append([dataset, learner, *numbers, res.method, res.design])
    # the message names the learner's error and the data set: said as it is
    notes.extend(note("raised", reason=w) for w in why.values())
    if not rows:
        first = next(iter(why.values()), None)
        reason = skip("raised", reason=first) if first else skip("no_learner_data")
        return None, None, notes, reason
    methods = list(dict.fromkeys(used))
    if clipped:  # small studies: the estimated MSE fell outside its bounds
        bounds = ", ".join(f"{n} to the {b}" for b, n in sorted(clipped.items()))
        total = sum(r[6] == "nested_cv" for r in rows)
        notes.append(
            note("se_clipped", n=sum(clipped.values()), total=total, bounds=bounds)
        )
    if "naive_cv" in methods:
        notes.append(note("naive_cv"))
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
