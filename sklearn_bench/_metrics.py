"""What the package knows of a metric from its name: direction, bounds and the one
default-Δ rule (so that results, the analysis plan and the report agree); tested in
``tests/test_validation.py``."""

# Scores that are proportions in [0, 1] and better when higher.
_UNIT_SCORES = tuple(
    "accuracy balanced_accuracy roc_auc average_precision f1 precision recall "
    "jaccard top_k_accuracy".split()
)
# Metrics whose values are proportions in [0, 1], and losses that are >= 0.
_UNIT_METRICS = ("error_rate", *_UNIT_SCORES, "brier_score", "bootstrap632")
_NONNEGATIVE_METRICS = tuple(
    "mean_squared_error root_mean_squared_error mean_absolute_error "
    "median_absolute_error max_error log_loss mean_absolute_percentage_error "
    "mean_squared_log_error root_mean_squared_log_error mean_poisson_deviance "
    "mean_gamma_deviance".split()
)
# Names whose direction is known: higher is better for these ...
_GREATER = (
    *_UNIT_SCORES,
    *"r2 explained_variance d2_ matthews_corrcoef adjusted_rand_score".split(),
)
# ... lower is better for these (errors and losses).
_LOWER = ("error_rate", "brier_score", "bootstrap632", *_NONNEGATIVE_METRICS)

#: The smallest difference that matters, Δ, when none is given, for a metric on a
#: [0, 1] scale (error rate, accuracy, AUC, ...): one percentage point, the region
#: of practical equivalence Benavoli et al. (2017, Section 3.3) use for accuracy.
#: One number serves as the ROPE of every Bayesian test, the target of the power
#: analysis and the margin of practical equivalence. Other metrics have none.
DEFAULT_DELTA = 0.01
DEFAULT_DELTA_REASON = (
    "Δ = 0.01 (one percentage point) is the default for a metric on a [0, 1] "
    "scale: the region of practical equivalence Benavoli et al. (2017) use for "
    "accuracy; set [analysis] delta (or delta=) to the smallest difference that "
    "matters in your application, before looking at the results"
)


def _name(metric):
    if not isinstance(metric, str):
        raise TypeError(f"`metric` must be a metric's name; got {metric!r}.")
    return metric.lower()


def metric_bounds(metric):
    """The natural range ``(low, high)`` of a metric from its name (a suffix such
    as ``"f1_macro"`` allowed): ``(0.0, 1.0)`` for proportions, ``(0.0, None)``
    for losses, ``(None, None)`` otherwise; a ``neg_`` prefix negates the range."""
    name = _name(metric)
    if name.startswith("neg_"):
        low, high = metric_bounds(name[4:])
        return (None if high is None else -high, None if low is None else -low)
    if name.startswith(_UNIT_METRICS):
        return (0.0, 1.0)
    if name.startswith(_NONNEGATIVE_METRICS):
        return (0.0, None)
    return (None, None)


def out_of_bounds(metric, values):
    """A mask of ``values`` of ``metric`` outside :func:`metric_bounds` (NaN,
    a recorded failure, is within them)."""
    import numpy as np

    values = np.asarray(values, dtype=float)
    low, high = metric_bounds(metric)
    with np.errstate(invalid="ignore"):
        return (values < (-np.inf if low is None else low)) | (
            values > (np.inf if high is None else high)
        )


def known_direction(metric):
    """``True`` (higher is better: scores, ``neg_*`` losses), ``False`` (errors
    and losses) or ``None`` (unknown: the caller must say), from the name alone."""
    name = _name(metric)
    if name.startswith("neg_"):
        return True
    if name.startswith(_LOWER):
        return False
    if name.startswith(_GREATER):
        return True
    return None


def wrong_direction(metrics):
    """Why ``metrics`` (``{name: greater_is_better}``) cannot be right: the text
    for the first metric said to be better the other way round than
    :func:`known_direction` says, or ``None``."""
    for name, greater in metrics.items():
        right = known_direction(name) if isinstance(name, str) else None
        if right is not None and greater is not right:
            return (
                f"it says that a {'greater' if greater else 'lower'} {name} is "
                f"better, which is wrong for {name} "
                f"({'higher' if right else 'lower'} is better)"
            )
    return None


def scores_problem(scores, metrics):
    """Why a saved scores table (columns ``metric``, ``value``, ``n_train``,
    ``n_test``, ``error_type``, ...) cannot be what a run wrote: a size that is
    not a whole number >= 0 (-1: unknown), or a finite score of a recorded success
    outside its metric's bounds; the text naming the first such row, or
    ``None``."""
    import numpy as np
    import pandas as pd

    for column in ("n_train", "n_test"):
        if column not in scores:
            continue
        sizes = pd.to_numeric(scores[column], errors="coerce").to_numpy(float)
        bad = ~(np.isnan(sizes) | ((sizes >= -1) & (sizes == np.round(sizes))))
        if bad.any():
            row = scores.iloc[int(np.flatnonzero(bad)[0])]
            learner = row.get("learner")
            return f"{column} = {row[column]!r} is not a size (learner {learner!r})"
    ok = scores["error_type"].fillna("") == "" if "error_type" in scores else True
    for name in metrics:
        at = np.asarray((scores["metric"] == name) & ok)
        values = scores["value"].to_numpy(dtype=float)
        bad = at & np.isfinite(values) & out_of_bounds(name, values)
        if bad.any():
            row = scores.iloc[int(np.flatnonzero(bad)[0])]
            return (
                f"the {name} of learner {row.get('learner')!r} on data set "
                f"{row.get('dataset')!r} is {row['value']!r}, outside its bounds "
                f"{metric_bounds(name)}"
            )
    return None


def default_delta(metric):
    """:data:`DEFAULT_DELTA` for a metric on a [0, 1] scale, else ``None`` (its Δ
    is in the metric's units and must be given)."""
    return DEFAULT_DELTA if metric_bounds(metric) == (0.0, 1.0) else None
