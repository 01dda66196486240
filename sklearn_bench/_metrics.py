"""What the package knows of a metric from its name: direction, bounds and the one
default-Δ rule, so that BenchmarkResult's methods, the analysis plan and the
report cannot disagree on it."""

__all__ = [
    "DEFAULT_DELTA",
    "DEFAULT_DELTA_REASON",
    "default_delta",
    "known_direction",
    "metric_bounds",
    "wrong_direction",
]

# Scores that are proportions in [0, 1] and better when higher.
_UNIT_SCORES = (
    "accuracy",
    "balanced_accuracy",
    "roc_auc",
    "average_precision",
    "f1",
    "precision",
    "recall",
    "jaccard",
    "top_k_accuracy",
)
# Metrics whose values are proportions in [0, 1], and losses that are >= 0.
_UNIT_METRICS = ("error_rate", *_UNIT_SCORES, "brier_score", "bootstrap632")
_NONNEGATIVE_METRICS = (
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "median_absolute_error",
    "max_error",
    "log_loss",
    "mean_absolute_percentage_error",
    "mean_squared_log_error",
    "root_mean_squared_log_error",
    "mean_poisson_deviance",
    "mean_gamma_deviance",
)
# Names whose direction is known: higher is better for these ...
_GREATER = (
    *_UNIT_SCORES,
    "r2",
    "explained_variance",
    "d2_",
    "matthews_corrcoef",
    "adjusted_rand_score",
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
    as ``"f1_macro"`` or a ``neg_`` prefix allowed): ``(0.0, 1.0)`` for proportions,
    ``(0.0, None)`` for losses, ``(None, None)`` otherwise.

    Examples
    --------
    >>> from sklearn_bench._metrics import metric_bounds
    >>> metric_bounds("error_rate"), metric_bounds("mean_squared_error")
    ((0.0, 1.0), (0.0, None))
    """
    name = _name(metric).removeprefix("neg_")
    if name.startswith(_UNIT_METRICS):
        return (0.0, 1.0)
    if name.startswith(_NONNEGATIVE_METRICS):
        return (0.0, None)
    return (None, None)


def known_direction(metric):
    """``True`` (higher is better: scores, ``neg_*`` losses), ``False`` (errors
    and losses) or ``None`` (unknown: the caller must say), from the name alone.

    Examples
    --------
    >>> from sklearn_bench._metrics import known_direction
    >>> known_direction("neg_log_loss"), known_direction("error_rate")
    (True, False)
    """
    name = _name(metric)
    if name.startswith("neg_"):
        return True
    if name.startswith(_LOWER):
        return False
    if name.startswith(_GREATER):
        return True
    return None


def wrong_direction(metrics):
    """Why ``metrics`` (``{name: greater_is_better}``, as a store or a saved
    result records them) cannot be right: the text for the first metric whose
    direction :func:`known_direction` infers (``f1_macro``, ``neg_*``, any case)
    said to be better the other way round, or ``None``.

    Examples
    --------
    >>> from sklearn_bench._metrics import wrong_direction
    >>> wrong_direction({"error_rate": False, "F1_macro": True}) is None
    True
    >>> print(wrong_direction({"f1_macro": False}))
    it says that a lower f1_macro is better, which is wrong for f1_macro (higher
    is better)
    """
    for name, greater in metrics.items():
        right = known_direction(name) if isinstance(name, str) else None
        if right is not None and greater is not right:
            return (
                f"it says that a {'greater' if greater else 'lower'} {name} is "
                f"better, which is wrong for {name} "
                f"({'higher' if right else 'lower'} is better)"
            )
    return None


def default_delta(metric):
    """:data:`DEFAULT_DELTA` for a metric on a [0, 1] scale, else ``None`` (its Δ
    is in the metric's units and must be given)."""
    return DEFAULT_DELTA if metric_bounds(metric) == (0.0, 1.0) else None
