"""How good is one learner: the interval of its generalization error from a run
(:meth:`BenchmarkResult.confidence_interval` with one learner, or A − B with
``method="nested_cv"`` or ``"conservative_z"``), the design read from the stored
splits (:func:`~._select.design`); the auxiliary splits of NestedCV and
PairedSubsampling feed only the intervals."""

import functools
import warnings
from dataclasses import replace

import numpy as np
import pandas as pd

from .._metrics import metric_bounds
from .._validation import check_confidence_level
from . import _select
from ._select import primary_rows, split_roles

# Methods on the split scores (any metric) and on the pointwise losses.
SPLIT_MEAN_METHODS = ("corrected_t", "conservative_z", "five_by_two")
POINTWISE_METHODS = ("holdout", "naive_cv", "nested_cv")
METHODS = (*POINTWISE_METHODS, *SPLIT_MEAN_METHODS)
# The two-learner calls this module answers (or refuses): the corrected t of
# A − B is paired_test's.
TWO_LEARNER_METHODS = (*(m for m in METHODS if m != "corrected_t"), "oob", "632plus")
# The splitters each method needs, for the messages.
SPLITTERS = {
    "nested_cv": "NestedCV",
    "conservative_z": "PairedSubsampling",
    "corrected_t": "ShuffleSplit (2 or more splits), RepeatedKFold, KFold, or "
    "the outer splits of NestedCV or whole-data subsamples of PairedSubsampling",
    "holdout": "one split (ShuffleSplit(n_splits=1) or one (train, test) pair)",
    "naive_cv": "one K-fold partition (KFold, StratifiedKFold, cv=K)",
    "five_by_two": "RepeatedKFold(n_splits=2, n_repeats=5) or its stratified twin",
}
# The metrics whose pointwise losses a run keeps (experiment/_scoring.py).
_POINTWISE_WORDS = (
    "error_rate, accuracy, log_loss, brier_score, mean_squared_error and "
    "mean_absolute_error (or their neg_ forms)"
)


def _rows(result, learner, dataset, metric, *, primary):
    """The score rows of ``learner`` (all learners: ``None``) on ``dataset``,
    primary splits only or all, by split; a failed task is a ``ValueError``.
    The general path: :func:`_split_rows` reads the indexed split scores."""
    scores = result._scores
    keep = ((scores["metric"] == metric) & (scores["dataset"] == dataset)).to_numpy()
    if learner is not None:
        keep = keep & (scores["learner"] == learner).to_numpy()
    mask = primary_rows(result, scores) if primary else None
    if mask is not None:
        keep = keep & mask
    failed = _select.failed_task_rows(scores)
    if learner is not None and failed is not None and failed[keep].any():
        _failed(learner, dataset, scores["split"].to_numpy()[keep & failed])
    return scores[keep].sort_values("split", kind="stable")


def _failed(learner, dataset, splits):
    raise ValueError(
        f"Learner {learner!r} failed on data set {dataset!r} (splits "
        f"{sorted(int(s) for s in splits)[:5]}) or has no score there: its "
        "interval needs every split; rerun them."
    )


def _split_rows(result, learner, dataset, metric, *, primary=True, frame=True):
    """``split, loss, n_train, n_test, replicate`` of ``learner`` (``None``: one
    row per split) on ``dataset`` by split, from the indexed split scores when it
    can (a frame, or with ``frame=False`` a dict of arrays)."""
    columns = ["split", "value", "n_train", "n_test", "replicate"]
    table = _select._split_table(result, metric) if primary else None
    if table is None or not table.unique:
        rows = _rows(result, learner, dataset, metric, primary=primary)
        if learner is None:
            rows = rows.drop_duplicates("split")
        rows = rows[columns].rename(columns={"value": "loss"})
        return rows if frame else {c: rows[c].to_numpy() for c in rows}
    t = table.of(dataset)
    any_present = t["present"].any(axis=1)
    at = np.flatnonzero(any_present)
    if learner is None:
        j = np.argmax(t["present"], axis=1)[any_present]
    else:
        j = table.learner_code[learner]
        bad = ~t["present"][at, j] | np.isnan(t["value"][at, j])
        if bad.any():
            _failed(learner, dataset, t["splits"][at[bad]])
    out = {"split": t["splits"][at]}
    out.update({"loss" if c == "value" else c: t[c][at, j] for c in columns[1:]})
    return pd.DataFrame(out) if frame else out


def interval_design(result, dataset, metric):
    """``(design, recommended method or None, why not)`` of ``dataset`` from its
    :func:`~._select.design` (``"nested_cv"``, ``"kfold"``, ``"subsampling"``, ...)."""
    d = _select.design(result, dataset, metric)
    if d.roles is not None:
        return d.roles, _ALLOWED[d.roles][0], ""
    if d.kind.startswith("bootstrap"):
        return "bootstrap", None, (
            "the out-of-bootstrap interval needs each row's count in every "
            "bootstrap sample, which a run does not keep: call "
            "stats.generalization_error_interval(method='oob') on your own loop"
        )  # fmt: skip
    if d.kind == "holdout":
        kind = "holdout" if d.n_repeats == 1 else "subsampling"
    elif d.kind == "kfold":
        kind = "kfold" if d.n_repeats == 1 else "repeated_kfold"
        kind = "five_by_two" if (d.n_folds, d.n_repeats) == (2, 5) else kind
    else:
        return "unknown", None, d.why
    return kind, _ALLOWED[kind][0], ""


# The methods each design supports, the one it gets without one asked for first.
_ALLOWED = {
    "nested_cv": ("nested_cv", "corrected_t"),
    "paired_subsampling": ("conservative_z", "corrected_t"),
    "holdout": ("holdout",),
    "subsampling": ("corrected_t",),
    "kfold": ("naive_cv", "corrected_t"),
    "repeated_kfold": ("corrected_t",),
    "five_by_two": ("corrected_t", "five_by_two"),
}


def _loss_groups(result, metric):
    """The pointwise losses of ``metric`` and the positions of each (data set,
    learner)'s, grouped once per metric and result."""
    key = ("losses", metric)
    if key not in result._arrays:
        losses = result._loaded("losses")
        if losses is not None:
            losses = losses[(losses["metric"] == metric).to_numpy()]
            groups = losses.groupby(["dataset", "learner"], observed=True).indices
        _select._keep(result, key, (losses, {} if losses is None else groups))
    return result._arrays[key]


def _losses(result, learner, dataset, metric, splits):
    """The pointwise losses of ``learner`` on ``splits`` of ``dataset`` (split,
    row, loss), checked to cover every split."""
    losses, groups = _loss_groups(result, metric)
    at = groups.get((dataset, learner))
    if at is None:
        raise ValueError(
            f"The interval needs the pointwise losses of {metric!r} of learner "
            f"{learner!r} on data set {dataset!r}, which this result does not "
            "have: a run keeps them when its splitter has split_roles() "
            "(NestedCV, PairedSubsampling) or with keep_predictions=True, for "
            f"the metrics that are means of pointwise losses ({_POINTWISE_WORDS}); "
            "method='corrected_t' works on the split scores of any metric, on "
            "this run if it has several splits (NestedCV's outer ones included)."
        )
    part = losses.iloc[at]
    part = part[part["split"].isin(splits).to_numpy()]
    missing = sorted(set(splits) - set(part["split"]))
    if missing:
        raise ValueError(
            f"Learner {learner!r} has no pointwise losses of {metric!r} on "
            f"splits {missing[:5]} of data set {dataset!r} (failed tasks?): the "
            "interval needs every split."
        )
    return (
        part[["split", "row", "loss"]]
        .sort_values(["split", "row"], kind="stable")
        .reset_index(drop=True)
    )


def interval_method(result, dataset, method=None, *, metric, two=False):
    """The interval method on ``dataset``: the design's recommended one for
    ``None``, else ``method`` checked against the design (``two``: of A − B); a
    ``ValueError`` names the splitters a method needs."""
    kind, recommended, why = interval_design(result, dataset, metric)
    if method is None:
        if recommended is None:
            raise ValueError(
                f"No interval of a learner's error for data set {dataset!r}: {why}."
            )
        method = recommended
    elif method in ("oob", "632plus"):
        raise ValueError(
            f"method={method!r} needs each row's count in every bootstrap sample "
            + ("and the apparent error of a fit on all rows " * (method != "oob"))
            + "which a run does not keep: call "
            "stats.generalization_error_interval on your own loop."
        )
    elif method not in METHODS:
        raise ValueError(
            f"`method` must be one of {[*METHODS, 'oob', '632plus']} for the "
            f"interval of a learner's error; got {method!r}."
        )
    if two and method not in ("nested_cv", "conservative_z"):
        raise ValueError(  # corrected_t of A − B is paired_test's interval
            f"method={method!r} is not an interval of A − B here; use "
            "'nested_cv' or 'conservative_z' (or a method of paired_test)."
        )
    if method not in _ALLOWED.get(kind, ()):
        raise ValueError(
            f"method={method!r} needs {SPLITTERS[method]}; data set {dataset!r} "
            f"was split as {_select.design(result, dataset, metric).words}."
        )
    return method


def learner_interval(result, a, b, *, dataset, method, confidence_level, metric):
    """:meth:`BenchmarkResult.confidence_interval` of one learner ``a`` (or of
    ``a − b``): a :class:`~sklearn_bench.stats.GeneralizationErrorResult`."""
    from ..stats import generalization_error_interval

    confidence_level = check_confidence_level(confidence_level)
    names = [a] if b is None else [a, b]
    _select.check_learners(result, names)
    dataset = _select.only_dataset(
        result, dataset, "the interval of a learner's error (within one data set)"
    )
    given = method
    method = interval_method(result, dataset, method, metric=metric, two=b is not None)
    if given is None and method == "naive_cv":
        warnings.warn(
            "method='naive_cv' (the one method of one K-fold partition) treats "
            "the folds as independent and covers "
            "the expected error less often than it says (Bates et al. 2024); run "
            "NestedCV for the recommended interval.",
            UserWarning,
            stacklevel=3,
        )
    roles = split_roles(result, dataset)
    if method in SPLIT_MEAN_METHODS:
        primary = method != "conservative_z"
        tables = [_split_rows(result, m, dataset, metric, primary=primary)
                  for m in names]  # fmt: skip
        tables = [t.drop(columns="replicate") for t in tables]
    else:
        primary = method != "nested_cv"
        splits = _split_rows(result, a, dataset, metric, primary=primary)["split"]
        tables = [_losses(result, m, dataset, metric, splits.tolist()) for m in names]
    if roles is not None:
        tables = [t.merge(roles, on="split", how="left") for t in tables]
    res = generalization_error_interval(
        tables[0],
        method=method,
        baseline=None if b is None else tables[1],
        metric=metric,
    )
    return replace(res, confidence_level=confidence_level, _bounds=_range(metric, b))


def corrected_t_intervals(result, dataset, *, confidence_level, metric):
    """Every learner's corrected t interval on ``dataset`` at once, as
    :func:`learner_interval` gives it: ``{learner: (estimate, standard_error, low,
    high, design)}`` for the learners finite on every split (``{}`` if none)."""
    m = _select.split_matrix(result, dataset, metric)
    ok = m["ok"] if m is not None else None
    if m is None or len(m["value"]) < 2 or not ok.any():
        return {}
    # learners as rows: each row's sums are those of the learner's own column
    values, n_train, n_test = (
        np.ascontiguousarray(m[c][:, ok].T, dtype=float)
        for c in ("value", "n_train", "n_test")
    )
    j = values.shape[1]
    n1, n2 = n_train.mean(axis=1), n_test.mean(axis=1)
    mean = values.mean(axis=1)
    spread = np.sqrt(((mean[:, None] - values) ** 2).sum(axis=1) / (j - 1))
    with np.errstate(divide="ignore", invalid="ignore"):
        se = spread * np.sqrt(1 / j + n2 / n1)  # Nadeau & Bengio eq. (13)
    level = check_confidence_level(confidence_level)
    q = _t_quantile(level, j - 1)
    low, high = np.clip([mean - q * se, mean + q * se], *_range(metric, None))
    learners = np.asarray(result.learners, dtype=object)[ok]
    return {
        str(name): (float(mean[i]), float(se[i]), float(low[i]), float(high[i]),
                    f"{j} train/test splits, n_train={n1[i]:g}, n_test={n2[i]:g}")
        for i, name in enumerate(learners)
        if n1[i] > 0
    }  # fmt: skip


@functools.lru_cache(maxsize=64)
def _t_quantile(level, df):
    """``t_df`` quantile of a two-sided ``level`` (one scipy call per data set
    costs more than the data set's intervals)."""
    from scipy import stats

    return stats.t.isf((1 - level) / 2, df)


def _range(metric, b):
    """The bounds a proportion's interval is cut to: [0, 1] for one learner,
    [−1, 1] for a difference; no cut for other metrics (or a ``neg_`` name)."""
    if metric.startswith("neg_") or metric_bounds(metric) != (0.0, 1.0):
        return (-np.inf, np.inf)
    return (0.0, 1.0) if b is None else (-1.0, 1.0)
