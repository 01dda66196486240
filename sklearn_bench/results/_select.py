"""Data selection for the analyses of :class:`BenchmarkResult`.

The methods of :class:`~sklearn_bench.BenchmarkResult` call these helpers to pick
arrays out of the tidy tables, check them (naming the learner, data set and
replicate at fault), and then delegate to :mod:`sklearn_bench.stats`. Nothing here
computes a statistic.
"""

import numpy as np
import pandas as pd

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
    """Mean of the fold scores of each (data set, learner, replicate).

    Parameters
    ----------
    dataset, learner : ndarray of int
        Codes of the score rows (of one metric).
    replicate : ndarray of int
    value : ndarray of float

    Returns
    -------
    dataset, learner, replicate, value : ndarray
        One entry per (data set, learner, replicate), sorted by them; the value
        is NaN when any fold's is (pandas' grouped mean otherwise).
    """
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
    """:meth:`BenchmarkResult.performance` as integer codes and arrays, cached.

    The analyses select from the same performances many times (a report runs
    thousands of paired tests), so they are computed once per metric and kept on
    the result, keyed by the identity of ``result.scores`` (treated as
    read-only): rows sorted by (data set, learner, replicate) codes, with the
    offsets of each data set's rows and the per (data set, learner) means.

    Returns
    -------
    dict
        ``perf`` (the DataFrame of :meth:`~BenchmarkResult.performance`),
        ``dataset``, ``learner`` (codes into ``result.datasets`` and
        ``result.learners``), ``replicate``, ``value``; ``starts`` (offsets of
        the rows of data set code ``i``: ``starts[i]:starts[i + 1]``); ``mean``,
        ``count``, ``n_nan`` (data sets x learners: mean performance over the
        replicates, number of replicates, of NaN performances).
    """
    cache = result.__dict__.setdefault("_performance_cache", {})
    key = (metric, id(result.scores))
    if key in cache:
        return cache[key]
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
    # pandas' grouped mean (as pivot_table), so the numbers equal aggregate()'s.
    means = pd.Series(value).groupby(cell).mean()
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
    cache.clear()  # one metric at a time: the arrays are as large as the scores
    cache[key] = out
    return out


def blocks(result, learners, *, metric, dataset=None):
    """A blocks x learners table of performances, checked for analysis.

    Parameters
    ----------
    result : BenchmarkResult
    learners : list of str
        Checked learner names, the columns in this order.
    metric : str
        Checked metric name.
    dataset : str, default=None
        ``None``: blocks are data sets, each value the mean performance over the
        data set's replicates. A name: blocks are that data set's replicates.

    Returns
    -------
    DataFrame
        Index: data sets (named ``dataset``) or replicates (named ``replicate``);
        columns: ``learners``. No NaN, at least two rows.
    """
    values, labels, key = block_values(result, learners, metric=metric, dataset=dataset)
    table = pd.DataFrame(
        values, index=pd.Index(labels, name=key), columns=list(learners)
    )
    table.columns.name = "learner"
    return table


def block_values(result, learners, *, metric, dataset=None):
    """:func:`blocks` as ``(values, block labels, "dataset" | "replicate")``, the
    values a blocks x learners float array; checked the same way."""
    arrays = performance_arrays(result, metric)
    codes = np.array([arrays["learner_code"][name] for name in learners], dtype=int)
    if dataset is None:
        where, key = "across data sets", "dataset"
        count = arrays["count"][:, codes]
        rows = np.flatnonzero(count.any(axis=1))
        if arrays["n_nan"][rows][:, codes].any():
            perf = arrays["perf"]
            _check_no_nan(perf[perf["learner"].isin(learners)], where)
        names = list(result.datasets)
        labels = [names[i] for i in rows]
        values = arrays["mean"][rows][:, codes]
        values[count[rows] == 0] = np.nan
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
        if np.isnan(value).any():
            perf = arrays["perf"]
            perf = perf[(perf["dataset"] == dataset) & perf["learner"].isin(learners)]
            _check_no_nan(perf, where)
        labels, row = np.unique(rep, return_inverse=True)
        values = np.full((labels.size, codes.size), np.nan)
        values[row, col] = value
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
        raise ValueError(
            f"At least 2 {'data sets' if dataset is None else 'replicates'} are "
            f"needed {where}; got {len(values)}."
        )
    return values, labels, key


def pair(result, a, b, *, metric, dataset=None):
    """Paired performances of learners ``a`` and ``b`` and the phrase for H0.

    Returns ``x, y, scope`` with ``x``, ``y`` float arrays (per data set means
    when ``dataset`` is None, per replicate otherwise).
    """
    a, b = check_learners(result, [a, b])
    if dataset is not None:
        dataset = check_dataset(result, dataset)
    values, _, _ = block_values(result, [a, b], metric=metric, dataset=dataset)
    scope = (
        f"across {len(values)} data sets, on per-data-set mean performances"
        if dataset is None
        else f"within data set {dataset!r} over {len(values)} replicates"
    )
    return values[:, 0].copy(), values[:, 1].copy(), scope


def discordant_counts(result, a, b, *, dataset=None, replicate=None):
    """McNemar's ``b``, ``c`` and ``n`` of learners ``a`` and ``b`` on one test set.

    ``b`` counts the rows ``a`` misclassified and ``b`` classified correctly,
    ``c`` the reverse, ``n`` the rows both predicted (Berrar & Lozano 2013,
    Table 1). The test set is one replicate's validation rows of ``dataset``:
    the fixed test sample of a competition or simulation problem, or the
    out-of-bootstrap / cross-validated rows of one learning sample.
    """
    learners = check_learners(result, [a, b])
    dataset = _one_test_set_dataset(result, dataset)
    preds = result.predictions
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


def _one_test_set_dataset(result, dataset):
    if dataset is None:
        if len(result.datasets) != 1:
            raise ValueError(
                "`dataset` is required for a test on one test set; this result has "
                f"{list(result.datasets)}."
            )
        return next(iter(result.datasets))
    return check_dataset(result, dataset)


def win_tie_loss(table, learners, tolerance, *, greater_is_better):
    """Counts of wins, ties and losses from a blocks x learners array."""
    tolerance = float(tolerance)
    if not (np.isfinite(tolerance) and tolerance >= 0):
        raise ValueError(f"`tolerance` must be a non-negative number; got {tolerance}.")
    sign = 1.0 if greater_is_better else -1.0
    diff = np.round(sign * (table[:, :, None] - table[:, None, :]), 10)
    wins = (diff > tolerance).sum(axis=0)
    losses = (diff < -tolerance).sum(axis=0)
    ties = table.shape[0] - wins - losses
    counts = np.stack([wins, ties, losses], axis=-1).reshape(len(learners), -1)
    columns = pd.MultiIndex.from_product(
        [learners, ["win", "tie", "loss"]], names=["learner", "outcome"]
    )
    return pd.DataFrame(
        counts, index=pd.Index(learners, name="learner"), columns=columns
    )
