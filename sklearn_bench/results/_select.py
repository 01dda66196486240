"""Data selection for the analyses of :class:`BenchmarkResult`: arrays picked
out of the tidy tables and checked, naming the learner, data set and replicate at
fault. Nothing here computes a statistic."""

from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._validation import check_real

_SHOW = 5  # how many offending (learner, data set, replicate) triples to name


def direction_words(result, metric):
    """``"error_rate, lower is better"``: the metric and its direction in words."""
    better = "higher" if result.metrics[metric] else "lower"
    return f"{metric}, {better} is better"


def check_learners(result, names, *, at_least=None):
    """Return ``names`` as a list after checking that every one is known."""
    names = [str(n) for n in names]
    unknown = [n for n in names if n not in result.learners]
    if unknown:
        raise ValueError(
            f"Unknown learner {', '.join(map(repr, unknown))}; this result has "
            f"{result.learners}."
        )
    if len(set(names)) != len(names):
        raise ValueError(f"The learners to compare must differ; got {names}.")
    if at_least is not None and len(names) < at_least:
        raise ValueError(
            f"At least {at_least} learners are needed; this result has {names}."
        )
    return names


def check_dataset(result, dataset):
    """Return ``dataset`` after checking that it is known."""
    if str(dataset) not in result.datasets:
        raise ValueError(
            f"Unknown `dataset` {dataset!r}; this result has {list(result.datasets)}."
        )
    return str(dataset)


# The role columns that mark an auxiliary split (any value but -1): NestedCV's
# inner splits, PairedSubsampling's half-sample subsamples.
_AUXILIARY_ROLES = ("inner", "pair")


def split_roles(result, dataset):
    """The roles of the splits of ``dataset`` (``split`` and the splitter's
    role columns), or ``None`` when its splitter has no ``split_roles()``."""
    roles = (result.info.get("split_roles") or {}).get(dataset)
    if not roles:
        return None
    return pd.DataFrame(roles["rows"], columns=roles["columns"]).astype(np.int64)


def primary_rows(result, frame):
    """Whether each row of ``frame`` (``dataset`` categorical, ``split``) is on
    a primary split, or ``None`` when every split is (no split roles)."""
    stored = result.info.get("split_roles")
    if not stored:
        return None
    codes = frame["dataset"].cat.codes.to_numpy(np.int64)
    split = frame["split"].to_numpy(np.int64)
    keep = np.ones(len(frame), dtype=bool)
    for i, dataset in enumerate(frame["dataset"].cat.categories):
        auxiliary = _auxiliary_splits(split_roles(result, dataset))
        if auxiliary is not None:
            keep &= ~((codes == i) & np.isin(split, auxiliary))
    return keep


def _auxiliary_splits(roles):
    """The splits that ``roles`` (:func:`split_roles`) mark auxiliary, or None."""
    if roles is None:
        return None
    cols = [c for c in _AUXILIARY_ROLES if c in roles]
    return roles["split"][(roles[cols] != -1).any(axis=1)].to_numpy()


def task_values(result, metric):
    """The score rows of ``metric`` after the one rule for failed tasks: a task
    (data set, learner, split) with any failed metric row has no value (NaN) on any
    metric. Only the primary splits (:func:`primary_rows`) are analysed."""
    scores = result._scores
    mask = (scores["metric"] == metric).to_numpy()
    primary = primary_rows(result, scores)
    if primary is not None:
        mask = mask & primary
    rows = scores[mask].copy()
    failed = failed_task_rows(scores)
    if failed is not None:
        rows.loc[failed[mask], "value"] = np.nan
    return rows


def failed_task_rows(scores):
    """Whether each score row belongs to a failed task (:func:`task_values`), or
    ``None`` if none failed."""
    failed = scores["failed"].to_numpy(dtype=bool)
    if not failed.any():
        return None
    split = scores["split"].to_numpy(dtype=np.int64)
    low = int(split.min())
    key = (
        scores["dataset"].cat.codes.to_numpy(np.int64)
        * len(scores["learner"].cat.categories)
        + scores["learner"].cat.codes.to_numpy(np.int64)
    ) * (int(split.max()) - low + 1) + (split - low)
    return np.isin(key, np.unique(key[failed]))


def _check_no_nan(perf, where):
    bad = perf[perf["value"].isna()]
    if len(bad):
        named = [
            f"{r.learner!r} on {r.dataset!r} replicate {r.replicate}"
            for r in bad.head(_SHOW).itertuples()
        ]
        more = f" and {len(bad) - _SHOW} more" if len(bad) > _SHOW else ""
        raise ValueError(
            f"NaN performance {where} (failed tasks?): {'; '.join(named)}{more}. "
            "Drop or rerun those learners or data sets first."
        )


def replicate_means(dataset, learner, replicate, value):
    """Mean of the fold scores of each (data set, learner, replicate) of the
    code arrays of one metric's rows, sorted by them; NaN when any fold is NaN."""
    if not value.size:
        return dataset, learner, replicate, value
    low = int(replicate.min())
    span = int(replicate.max()) - low + 1
    n_m = int(learner.max()) + 1
    if (int(dataset.max()) + 1) * n_m * span < 2**62:
        key = (dataset.astype(np.int64) * n_m + learner) * span + (replicate - low)
    else:  # sparse replicate ids: rank them first
        ranks = np.unique(replicate, return_inverse=True)[1].reshape(-1)
        span = int(ranks.max()) + 1
        key = (dataset.astype(np.int64) * n_m + learner) * span + ranks
    if key.size < 2 or (np.diff(key) > 0).all():  # one fold each, in order
        return dataset, learner, replicate, value
    grouped = pd.Series(value).groupby(key, sort=True)
    mean = grouped.mean()
    out = mean.to_numpy(dtype=np.float64, copy=True)
    out[(grouped.count() < grouped.size()).to_numpy()] = np.nan
    first = np.unique(key, return_index=True)[1]
    return dataset[first], learner[first], replicate[first], out


def performance_arrays(result, metric):
    """The performances of ``metric`` as codes and arrays sorted by (data set,
    learner, replicate), with ``starts``, name-to-code maps, and the data sets x
    learners ``mean``, ``count``, ``n_nan`` and ``incomplete``; cached per metric."""
    key = ("performance", metric)
    if key in result._arrays:
        return result._arrays[key]
    perf = result.performance(metric)
    d = np.asarray(perf["dataset"].cat.codes, dtype=np.int64)
    m = np.asarray(perf["learner"].cat.codes, dtype=np.int64)
    rep = np.asarray(perf["replicate"], dtype=np.int64)
    value = np.asarray(perf["value"], dtype=np.float64)
    cell = d * len(result.learners) + m
    if cell.size > 1 and (np.diff(cell) < 0).any():  # performance() sorts them
        order = np.argsort(cell, kind="stable")
        d, m, rep, value = d[order], m[order], rep[order], value[order]
    n_d, n_m = len(result.datasets), len(result.learners)
    cell = d * n_m + m
    nan = np.isnan(value)
    # pandas' grouped mean (as pivot_table), so the numbers equal aggregate()'s;
    # NaN left out first: with a NaN anywhere pandas' sums differ in the last bit.
    means = pd.Series(value[~nan]).groupby(cell[~nan]).mean()
    mean = np.full(n_d * n_m, np.nan)
    mean[means.index.to_numpy()] = means.to_numpy()
    out = {
        "perf": perf,
        "dataset": d,
        "learner": m,
        "replicate": rep,
        "value": value,
        "starts": np.searchsorted(d, np.arange(n_d + 1)),
        "dataset_code": {name: i for i, name in enumerate(result.datasets)},
        "learner_code": {name: i for i, name in enumerate(result.learners)},
        "mean": mean.reshape(n_d, n_m),
        "count": np.bincount(cell, minlength=n_d * n_m).reshape(n_d, n_m),
        "n_nan": np.bincount(cell, weights=nan, minlength=n_d * n_m).reshape(n_d, n_m),
    }
    # The one rule of the analyses across data sets: a data set enters only if
    # every learner has every replicate's performance (none missing, none NaN).
    first = np.ones(d.size, dtype=bool)  # distinct (data set, replicate) pairs
    order = np.lexsort((rep, d))
    ds, rs = d[order], rep[order]
    first[1:] = (np.diff(ds) != 0) | (np.diff(rs) != 0)
    n_rep = np.bincount(ds[first], minlength=n_d)
    out["incomplete"] = (
        (n_rep == 0) | (out["count"] != n_rep[:, None]).any(axis=1)
        | (out["n_nan"] > 0).any(axis=1)
    )  # fmt: skip
    _keep(result, key, out)
    return out


def incomplete_datasets(result, metric):
    """The data sets on which some learner lacks a replicate's performance (not
    run, or NaN: a failed task), or that have none at all: the one rule of
    which data sets enter the analyses across data sets (the public methods'
    and the report's) and the average ranks."""
    names = list(result.datasets)
    bad = performance_arrays(result, metric)["incomplete"]
    return {names[i] for i in np.flatnonzero(bad)}


def _keep(result, key, arrays):
    """Keep ``arrays`` under ``key = (kind, metric)``, one metric at a time."""
    if any(metric != key[1] for _, metric in result._arrays):
        result._arrays.clear()
    result._arrays[key] = arrays


def blocks(result, learners, *, metric, dataset=None, drop_failed=False):
    """A blocks x learners table for a paired analysis (:func:`block_values`):
    the complete data sets' means, or ``dataset``'s replicates (``drop_failed``:
    failed ones dropped); ``attrs["n_dropped"]`` counts what was left out."""
    values, labels, key, n_dropped = block_values(
        result, learners, metric=metric, dataset=dataset, drop_failed=drop_failed
    )
    columns = pd.Index(list(learners), name="learner")
    table = pd.DataFrame(values, index=pd.Index(labels, name=key), columns=columns)
    table.attrs["n_dropped"] = n_dropped
    return table


def block_values(result, learners, *, metric, dataset=None, drop_failed=False):
    """:func:`blocks` as ``(values, block labels, "dataset" | "replicate",
    n_dropped)``."""
    arrays = performance_arrays(result, metric)
    codes = np.array([arrays["learner_code"][name] for name in learners], dtype=int)
    n_dropped = 0
    if dataset is None:  # the complete data sets (incomplete_datasets' rule)
        where, key = "across data sets", "dataset"
        bad = arrays["incomplete"]
        n_dropped = int(bad.sum())
        rows, names = np.flatnonzero(~bad), list(result.datasets)
        labels = [names[i] for i in rows]
        values = arrays["mean"][rows][:, codes]
    else:
        where, key = f"on data set {dataset!r}", "replicate"
        i = arrays["dataset_code"][dataset]
        part = slice(arrays["starts"][i], arrays["starts"][i + 1])
        column = np.full(len(result.learners), -1)
        column[codes] = np.arange(codes.size)
        col = column[arrays["learner"][part]]
        keep = col >= 0
        col, rep = col[keep], arrays["replicate"][part][keep]
        value = arrays["value"][part][keep]
        if np.isnan(value).any() and not drop_failed:
            perf = arrays["perf"]
            perf = perf[(perf["dataset"] == dataset) & perf["learner"].isin(learners)]
            _check_no_nan(perf, where)
        labels, row = np.unique(rep, return_inverse=True)
        values = np.full((labels.size, codes.size), np.nan)
        values[row, col] = value
        if drop_failed:  # replicates on which a learner has no value
            unmatched = np.zeros(labels.size, dtype=bool)
            unmatched[row[np.isnan(value)]] = True
            n_dropped = int(unmatched.sum())
            values, labels = values[~unmatched], labels[~unmatched]
        labels = labels.tolist()  # Python ints, as messages print them
    if np.isnan(values).any():
        missing = [
            f"{learner!r} on {key} {labels[i]!r}"
            for j, learner in enumerate(learners)
            for i in np.flatnonzero(np.isnan(values[:, j]))
        ]
        more = f" and {len(missing) - _SHOW} more" if len(missing) > _SHOW else ""
        raise ValueError(
            f"Learners are missing {where}: {'; '.join(missing[:_SHOW])}{more}; "
            "a paired analysis needs every learner on every block."
        )
    if len(values) < 2:
        if not n_dropped:
            dropped = ""
        elif dataset is None:
            dropped = f" ({left_out_words(n_dropped)[2:]})"
        else:
            dropped = (
                f" ({n_dropped} replicate{'s' if n_dropped > 1 else ''} dropped "
                f"because a task of {' or '.join(map(repr, learners))} failed)"
            )
        raise ValueError(
            f"At least 2 {'data sets' if dataset is None else 'replicates'} are "
            f"needed {where}; got {len(values)}{dropped}."
        )
    return values, labels, key, n_dropped


def pair(result, a, b, *, metric, dataset=None, with_dropped=False):
    """``x, y, scope`` (and ``n_dropped`` with ``with_dropped``): the paired
    performances of ``a`` and ``b`` (per data set means, or per replicate of
    ``dataset``), replicates with a failed task dropped, and the words for H0."""
    a, b = check_learners(result, [a, b])
    if dataset is not None:
        dataset = check_dataset(result, dataset)
    values, _, _, n_dropped = block_values(
        result, [a, b], metric=metric, dataset=dataset, drop_failed=True
    )
    scope = (
        f"across {len(values)} data sets, on per-data-set mean performances"
        if dataset is None
        else f"within data set {dataset!r} over {len(values)} replicates"
    )
    scope += (
        left_out_words(n_dropped)
        if dataset is None
        else dropped_words(n_dropped, "replicate", a, b)
    )
    x, y = values[:, 0].copy(), values[:, 1].copy()
    if with_dropped:
        return x, y, scope, n_dropped
    return x, y, scope


def dropped_words(n_dropped, unit, a, b):
    """``"; 2 replicates dropped (failed tasks of 'a' or 'b')"`` or ``""``."""
    if not n_dropped:
        return ""
    units = unit if n_dropped == 1 else f"{unit}s"
    return f"; {n_dropped} {units} dropped (failed tasks of {a!r} or {b!r})"


def left_out_words(n_left_out):
    """``"; 2 data sets left out: a task of some learner failed or is missing
    there"`` or ``""``: :func:`incomplete_datasets`' rule, in words."""
    if not n_left_out:
        return ""
    sets = "data set" if n_left_out == 1 else "data sets"
    why = "a task of some learner failed or is missing there"
    return f"; {n_left_out} {sets} left out: {why}"


def discordant_counts(result, a, b, *, dataset=None, replicate=None):
    """McNemar's ``b``, ``c`` and ``n`` of learners ``a`` and ``b`` on one test
    set (one replicate's validation rows of ``dataset``): ``a`` wrong and ``b``
    right, the reverse, and the rows both predicted (Berrar & Lozano 2013, Table 1)."""
    learners = check_learners(result, [a, b])
    dataset = only_dataset(result, dataset, "a test on one test set")
    preds = result._loaded("predictions")
    if preds is None:
        raise ValueError(
            "McNemar's test and its interval need kept predictions; this result "
            "has none (run BenchmarkExperiment with keep_predictions=True)."
        )
    preds = preds[preds["dataset"] == dataset]
    if preds["correct"].isna().all() and len(preds):
        raise ValueError(
            f"Data set {dataset!r} has no `correct` column in its predictions "
            "(a regression?); McNemar's test compares classifiers."
        )
    replicates = sorted(set(preds["replicate"]))
    if replicate is None:
        if len(replicates) != 1:
            raise ValueError(
                f"Data set {dataset!r} has {len(replicates)} replicates, i.e. "
                f"{len(replicates)} pairs of fitted classifiers; pass `replicate` "
                f"(one of {replicates[:10]}) to pick the one test set."
            )
        replicate = replicates[0]
    elif replicate not in replicates:
        raise ValueError(
            f"Unknown `replicate` {replicate!r} for data set {dataset!r}; kept "
            f"predictions have {replicates[:10]}."
        )
    preds = preds[preds["replicate"] == replicate]
    correct = {}
    for learner in learners:
        own = preds[preds["learner"] == learner]
        if own.empty:
            raise ValueError(
                f"Learner {learner!r} kept no predictions on data set {dataset!r} "
                f"replicate {replicate} (a failed task?)."
            )
        if own["row"].duplicated().any():
            raise ValueError(
                f"Learner {learner!r} predicted some rows of data set {dataset!r} "
                f"replicate {replicate} more than once; McNemar's test needs one "
                "prediction per test row."
            )
        correct[learner] = own.set_index("row")["correct"]
    both = pd.concat(correct, axis=1, join="inner").dropna()
    if len(both) != len(correct[learners[0]]) or len(both) != len(correct[learners[1]]):
        raise ValueError(
            f"Learners {learners[0]!r} and {learners[1]!r} predicted different rows "
            f"of data set {dataset!r} replicate {replicate}; McNemar's test needs "
            "one common test set."
        )
    ca = both[learners[0]].to_numpy(dtype=bool)
    cb = both[learners[1]].to_numpy(dtype=bool)
    return int(np.sum(~ca & cb)), int(np.sum(ca & ~cb)), len(both)


def only_dataset(result, dataset, what):
    """``dataset`` checked, or the result's one data set when it is ``None``;
    with several, a ``ValueError`` says that ``dataset`` is required for
    ``what``."""
    if dataset is None:
        if len(result.datasets) != 1:
            raise ValueError(
                f"`dataset` is required for {what}; this result has "
                f"{list(result.datasets)}."
            )
        return next(iter(result.datasets))
    return check_dataset(result, dataset)


def check_delta(delta):
    """``delta`` as a float, checked to be a non-negative number."""
    delta = check_real(delta, "delta")
    if not delta >= 0:
        raise ValueError(f"`delta` must be a non-negative number; got {delta!r}.")
    return delta


# Two values closer than this, relative to the larger magnitude, are equal: the
# floating-point rounding of a mean (0.1 + 0.2 against 0.3), never a difference.
EQUAL_RTOL = 1e-9


def win_tie_loss(table, learners, delta, *, greater_is_better, significant=None):
    """Wins, ties and losses from a blocks x learners array, the one rule: within
    ``delta + EQUAL_RTOL · max(|a|, |b|)`` a tie, NaN blocks skipped, and with
    ``significant`` only the wins and losses whose per-block test rejected."""
    delta = check_delta(delta)
    a, b = table[:, :, None], table[:, None, :]
    sign = 1.0 if greater_is_better else -1.0
    with np.errstate(invalid="ignore"):
        diff = sign * (a - b)
        valid = np.isfinite(diff)
        tie = np.abs(diff) <= delta + EQUAL_RTOL * np.maximum(np.abs(a), np.abs(b))
        if significant is not None:
            tie |= ~significant
        wins = (valid & ~tie & (diff > 0)).sum(axis=0)
        losses = (valid & ~tie & (diff < 0)).sum(axis=0)
    ties = (valid & tie).sum(axis=0)
    counts = np.stack([wins, ties, losses], axis=-1).reshape(len(learners), -1)
    columns = pd.MultiIndex.from_product(
        [learners, ["win", "tie", "loss"]], names=["learner", "outcome"]
    )
    return pd.DataFrame(
        counts, index=pd.Index(learners, name="learner"), columns=columns
    )


# ------------------------------------------------------------ split-level pairs
@dataclass(frozen=True)
class SplitScores:
    """Per-split scores of two learners on one data set (:func:`split_pair`),
    the unit of the fold-level tests within a data set, with the design."""

    x: np.ndarray  # a's and b's scores on the same splits, failed ones dropped
    y: np.ndarray
    replicate: np.ndarray  # of each split, and its fold within the replicate
    fold: np.ndarray
    n_train: np.ndarray  # stored split sizes (-1: unknown, e.g. from_frame)
    n_test: np.ndarray
    n_dropped: int  # splits dropped because a task of a or b failed
    scheme: str  # the kind of the data set's design()
    n_folds: int  # splits per repeat in the design (k)
    n_replicates: int  # repeats in the design (r), before any was dropped


@dataclass(frozen=True)
class Design:
    """The design of one data set's primary splits (:func:`design`)."""

    kind: str  # "kfold", "holdout", "bootstrap_oob", "bootstrap_cv" or "unknown"
    n_folds: int  # splits per repeat: k of a partition, 1 of a holdout split
    n_repeats: int  # partitions, holdout splits or bootstrap samples
    roles: str | None = None  # "nested_cv", "paired_subsampling" (split roles)
    why: str = ""  # of an unknown design

    @property
    def words(self):
        """The design in words, for messages: ``"one 5-fold partition"``."""
        r, k = self.n_repeats, self.n_folds
        words = {
            "kfold": f"{r} {k}-fold partitions" if r > 1 else f"one {k}-fold partition",
            "holdout": "one holdout split" if r == 1 else f"{r} holdout splits",
            "bootstrap_oob": f"{r} bootstrap samples (out-of-bootstrap rows)",
            "bootstrap_cv": f"{r} bootstrap samples x {k} folds",
        }.get(self.kind, f"an unknown design ({self.why})")
        if self.roles is None:
            return words
        role = {"nested_cv": "nested CV", "paired_subsampling": "paired subsampling"}
        return f"{role[self.roles]}, its primary splits {words}"


def design(result, dataset, metric):
    """The :class:`Design` of ``dataset``, read from what the run stored (split
    roles, sizes and replicates of the primary splits, the data set's size, kept
    validation rows), never from its splitter's name; cached per metric."""
    key = ("designs", metric)
    if key not in result._arrays:
        _keep(result, key, {})
        _keep(result, ("primary splits", metric), _primary_splits(result))
    found = result._arrays[key]
    if dataset not in found:
        splits = result._arrays["primary splits", metric]
        found[dataset] = _read_design(result, dataset, splits)
    return found[dataset]


def _primary_splits(result):
    """``split, replicate, n_train, n_test`` of each primary split of every data
    set (its first score row), by data set and split; ``starts`` by data set."""
    scores = result._scores
    d = scores["dataset"].cat.codes.to_numpy(np.int64)
    split = scores["split"].to_numpy(np.int64)
    keep = primary_rows(result, scores)
    at = np.arange(d.size) if keep is None else np.flatnonzero(keep)
    order = at[np.lexsort((split[at], d[at]))]  # stable: first row of a split first
    d, split = d[order], split[order]
    first = np.ones(d.size, dtype=bool)
    first[1:] = (np.diff(d) != 0) | (np.diff(split) != 0)
    out = {"split": split[first]}
    for name in ("replicate", "n_train", "n_test"):
        out[name] = scores[name].to_numpy(np.int64)[order][first]
    out["starts"] = np.searchsorted(d[first], np.arange(len(result.datasets) + 1))
    out["code"] = {name: i for i, name in enumerate(result.datasets)}
    return out


def _read_design(result, dataset, splits):
    roles, role = split_roles(result, dataset), None
    if roles is not None and "inner" in roles:
        role = "nested_cv"
    elif roles is not None and "pair" in roles:
        role = "paired_subsampling"
    i = splits["code"][dataset]
    part = slice(splits["starts"][i], splits["starts"][i + 1])
    split, rep, n_train, n_test = (
        splits[c][part] for c in ("split", "replicate", "n_train", "n_test")
    )
    reps, inverse = np.unique(rep, return_inverse=True)
    inverse = inverse.reshape(-1)
    per = np.bincount(inverse)
    k = int(per.max()) if per.size else 0

    def unknown(why):
        return Design("unknown", k, reps.size, role, why)

    problem = result.datasets[dataset]
    if problem in ("simulation", "competition"):
        return unknown(
            f"data set {dataset!r} is a {problem} problem: its replicates are "
            "scored on a fixed test sample, not resampled from one data set"
        )
    if not split.size or (n_train < 0).any() or (n_test <= 0).any():
        return unknown("no split sizes were stored")
    total = n_train + n_test
    size = (result.info.get("dataset_sizes") or {}).get(dataset, {})
    n = size.get("n_samples") if isinstance(size, dict) else None
    if n is None and np.unique(total).size == 1:
        n = int(total[0])
    if n is None:
        return unknown("no data set size was stored")
    tested = np.bincount(inverse, weights=n_test)
    if (per == 1).all() and (total > n).any():
        return Design("bootstrap_oob", 1, reps.size, role)
    if k > 1 and (np.bincount(inverse, weights=n_train) == (per - 1) * n).all():
        if (total == n).all() and (tested == n).all():
            return Design("kfold", k, reps.size, role)
        if (total < n).any() and (tested < n).all():
            return Design("bootstrap_cv", k, reps.size, role)
    if (per == 1).all() and (total <= n).all():
        if (total == n).all() and split.size > 1:
            repeats = _partitions(result, dataset, split, n)
            if repeats:
                return Design("kfold", split.size // repeats, repeats, role)
        if np.unique(n_train).size == 1 and np.unique(n_test).size == 1:
            return Design("holdout", 1, split.size, role)
    return unknown(
        "its stored splits are neither partitions, holdout splits of constant "
        "size nor bootstrap samples"
    )


def _partitions(result, dataset, split, n):
    """How many partitions of the ``n`` rows the consecutive ``split``s form, by
    the validation rows the run kept (one learner's losses or predictions);
    0 when they are not such partitions of equal length, or no rows were kept."""
    for table in map(result._loaded, ("losses", "predictions")):
        if table is None:
            continue
        part = table[(table["dataset"] == dataset).to_numpy()]
        if "metric" in part and len(part):
            part = part[(part["metric"] == part["metric"].iloc[0]).to_numpy()]
        codes = part["learner"].cat.codes.to_numpy()
        for code in np.unique(codes):
            one = part[codes == code]
            if np.array_equal(np.unique(one["split"].to_numpy()), split):
                return _count_partitions(one, split, n)
    return 0


def _count_partitions(rows, split, n):
    order = np.lexsort((rows["row"].to_numpy(), rows["split"].to_numpy()))
    at = rows["split"].to_numpy()[order]
    row = rows["row"].to_numpy()[order]
    starts = np.searchsorted(at, split)
    seen, ends = np.zeros(n, dtype=bool), []
    for i, (lo, hi) in enumerate(zip(starts, [*starts[1:], at.size], strict=True)):
        test = row[lo:hi]
        if (test >= n).any() or seen[test].any():
            return 0
        seen[test] = True
        if seen.all():
            seen[:] = False
            ends.append(i + 1)
    lengths = np.diff([0, *ends])
    if not ends or ends[-1] != split.size or np.unique(lengths).size != 1:
        return 0
    return len(ends)


_SPLIT_COLUMNS = ("value", "replicate", "fold", "n_train", "n_test")


class _SplitTable:
    """The split scores of one metric, built once per metric and result (a report
    selects from them thousands of times), each data set's splits x learners matrices
    made when first asked for."""

    def __init__(self, result, metric):
        rows = task_values(result, metric)
        d = rows["dataset"].cat.codes.to_numpy(np.int64)
        m = rows["learner"].cat.codes.to_numpy(np.int64)
        split = rows["split"].to_numpy(np.int64)
        order = np.lexsort((m, split, d))
        self.d, self.m, self.split = d[order], m[order], split[order]
        same = (
            (np.diff(self.d) == 0) & (np.diff(self.split) == 0) & (np.diff(self.m) == 0)
        )
        # Two rows of one (data set, split, learner): pivot_table averages them;
        # the general path keeps that rule.
        self.unique = not same.any()
        self.columns = {name: rows[name].to_numpy()[order] for name in _SPLIT_COLUMNS}
        self.starts = np.searchsorted(self.d, np.arange(len(result.datasets) + 1))
        self.n_learners = len(result.learners)
        self.learner_code = {name: i for i, name in enumerate(result.learners)}
        self.dataset_code = {name: i for i, name in enumerate(result.datasets)}
        self._tables = {}

    def of(self, dataset):
        """The split ids and splits x learners matrices of one data set."""
        i = self.dataset_code[dataset]
        if i in self._tables:
            return self._tables[i]
        part = slice(self.starts[i], self.starts[i + 1])
        splits, row = np.unique(self.split[part], return_inverse=True)
        row = row.reshape(-1)
        col = self.m[part]
        shape = (splits.size, self.n_learners)
        present = np.zeros(shape, dtype=bool)
        present[row, col] = True
        out = {"splits": splits, "present": present}
        for name, column in self.columns.items():
            fill = np.nan if name == "value" else -1
            matrix = np.full(shape, fill, dtype=np.float64 if fill != -1 else np.int64)
            matrix[row, col] = column[part]
            out[name] = matrix
        self._tables = {i: out}  # one data set at a time: the report walks them
        return out


def _split_table(result, metric):
    """The :class:`_SplitTable` of ``metric``, kept as :func:`_keep` keeps arrays."""
    key = ("splits", metric)
    if key not in result._arrays:
        _keep(result, key, _SplitTable(result, metric))
    return result._arrays[key]


def split_matrix(result, dataset, metric, learners=None):
    """The split scores of ``learners`` (all: ``None``) on ``dataset`` as splits x
    learners matrices, ``ok`` the learners finite on every split any has; ``None``
    unless one row per (split, learner). The batched corrected t's selection."""
    table = _split_table(result, metric)
    if not table.unique:
        return None
    t = table.of(dataset)
    cols = slice(None)
    if learners is not None:
        cols = [table.learner_code[m] for m in learners]
    present = t["present"][:, cols]
    rows = present.any(axis=1)
    out = {name: t[name][rows][:, cols] for name in _SPLIT_COLUMNS}
    out["ok"] = (present[rows] & np.isfinite(out["value"])).all(axis=0)
    return out


def _missing_splits_error(dataset, missing):
    more = f" and {len(missing) - _SHOW} more" if len(missing) > _SHOW else ""
    return ValueError(
        f"Learners are missing on data set {dataset!r}: "
        f"{'; '.join(missing[:_SHOW])}{more}; a paired analysis needs every "
        "learner on every split."
    )


def split_pair(result, a, b, *, metric, dataset):
    """The :class:`SplitScores` of learners ``a`` and ``b`` on ``dataset``.

    Splits on which a task of ``a`` or ``b`` failed are dropped and counted; the
    scheme and its counts are the data set's :func:`design`."""
    a, b = check_learners(result, [a, b])
    dataset = check_dataset(result, dataset)
    table = _split_table(result, metric)
    if not table.unique:
        return _split_pair_frame(result, a, b, metric=metric, dataset=dataset)
    ia, ib = table.learner_code[a], table.learner_code[b]
    t = table.of(dataset)
    sel = t["present"][:, ia] | t["present"][:, ib]
    if not sel.any():  # neither learner on this data set: the general path's answer
        return _split_pair_frame(result, a, b, metric=metric, dataset=dataset)
    splits = t["splits"][sel]
    has_a, has_b = t["present"][sel, ia], t["present"][sel, ib]
    if not (has_a.all() and has_b.all()):
        missing = [
            f"{learner!r} on split {split}"
            for learner, has in ((a, has_a), (b, has_b))
            for split in splits[~has]
        ]
        raise _missing_splits_error(dataset, missing)
    x, y = t["value"][sel, ia], t["value"][sel, ib]
    ok = ~(np.isnan(x) | np.isnan(y))
    sizes = {k: t[k][sel, ia] for k in _SPLIT_COLUMNS[1:]}
    return _split_scores(result, dataset, x, y, ok, sizes, metric)


def _split_scores(result, dataset, x, y, ok, splits, metric):
    """The :class:`SplitScores` of the selected splits (``ok``: both scored)."""
    d = design(result, dataset, metric)
    return SplitScores(
        x=np.asarray(x, dtype=float)[ok],
        y=np.asarray(y, dtype=float)[ok],
        **{k: np.asarray(v, dtype=np.int64)[ok] for k, v in splits.items()},
        n_dropped=int((~ok).sum()),
        scheme=d.kind,
        n_folds=d.n_folds,
        n_replicates=d.n_repeats,
    )


def _split_pair_frame(result, a, b, *, metric, dataset):
    """:func:`split_pair` with pandas on the whole table: the path for rows
    repeated for one split and learner (averaged, as ``pivot_table`` does), and the
    reference the indexed path is tested against."""
    rows = task_values(result, metric)
    rows = rows[(rows["dataset"] == dataset) & rows["learner"].isin([a, b])]
    wide = rows.pivot_table(
        index="split", columns="learner", values="value", dropna=False, observed=True
    ).reindex(columns=[a, b])
    present = rows.groupby(["split", "learner"], observed=True).size().unstack()
    present = present.reindex(index=wide.index, columns=[a, b])
    if present.isna().any().any():
        missing = [
            f"{learner!r} on split {split}"
            for learner in (a, b)
            for split in present.index[present[learner].isna()]
        ]
        raise _missing_splits_error(dataset, missing)
    sizes = (
        rows[rows["learner"] == a]
        .drop_duplicates("split")
        .set_index("split")
        .reindex(wide.index)
    )
    ok = wide.notna().all(axis=1).to_numpy()
    x, y = wide[a].to_numpy(dtype=float), wide[b].to_numpy(dtype=float)
    sizes = {k: sizes[k].to_numpy(dtype=np.int64) for k in _SPLIT_COLUMNS[1:]}
    return _split_scores(result, dataset, x, y, ok, sizes, metric)


def blocks_with_missing(result, learners, *, metric):
    """A data sets x learners table of mean performances, NaN where a learner has
    no score on the data set, a NaN score on any replicate, or fewer replicates
    than another learner there (its mean would not be matched); only data sets on
    which some learner has a value. Read from :func:`performance_arrays`."""
    arrays = performance_arrays(result, metric)
    columns = [arrays["learner_code"][name] for name in learners]
    count = arrays["count"][:, columns]
    ok = (count > 0) & (arrays["n_nan"][:, columns] == 0)
    ok &= count == count.max(axis=1, keepdims=True)
    rows = np.flatnonzero(ok.any(axis=1))
    names = list(result.datasets)
    return pd.DataFrame(
        np.where(ok, arrays["mean"][:, columns], np.nan)[rows],
        index=pd.Index([names[i] for i in rows], name="dataset"),
        columns=pd.Index(list(learners), name="learner"),
    )
