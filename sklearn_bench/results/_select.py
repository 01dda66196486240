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
    perf = result.performance(metric)
    perf = perf[perf["learner"].isin(learners)].copy()
    perf["learner"] = perf["learner"].astype(str)
    perf["dataset"] = perf["dataset"].astype(str)
    if dataset is None:
        where = "across data sets"
        key = "dataset"
        order = [d for d in result.datasets if d in set(perf["dataset"])]
    else:
        where = f"on data set {dataset!r}"
        perf = perf[perf["dataset"] == dataset]
        key = "replicate"
        order = sorted(set(perf["replicate"]))
    _check_no_nan(perf, where)
    table = perf.pivot_table(index=key, columns="learner", values="value")
    table = table.reindex(index=order, columns=learners)
    if table.isna().any().any():
        missing = [
            f"{learner!r} on {key} {block!r}"
            for learner in learners
            for block in table.index[table[learner].isna()]
        ]
        more = f" and {len(missing) - _SHOW} more" if len(missing) > _SHOW else ""
        raise ValueError(
            f"Learners are missing {where}: {'; '.join(missing[:_SHOW])}{more}; "
            "a paired analysis needs every learner on every block."
        )
    if len(table) < 2:
        raise ValueError(
            f"At least 2 {'data sets' if dataset is None else 'replicates'} are "
            f"needed {where}; got {len(table)}."
        )
    table.columns.name = "learner"
    return table


def pair(result, a, b, *, metric, dataset=None):
    """Paired performances of learners ``a`` and ``b`` and the phrase for H0.

    Returns ``x, y, scope`` with ``x``, ``y`` float arrays (per data set means
    when ``dataset`` is None, per replicate otherwise).
    """
    a, b = check_learners(result, [a, b])
    if dataset is not None:
        dataset = check_dataset(result, dataset)
    table = blocks(result, [a, b], metric=metric, dataset=dataset)
    scope = (
        f"across {len(table)} data sets, on per-data-set mean performances"
        if dataset is None
        else f"within data set {dataset!r} over {len(table)} replicates"
    )
    return table[a].to_numpy(), table[b].to_numpy(), scope


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


def blocks_with_missing(result, learners, *, metric):
    """A data sets x learners table of mean performances with NaN where missing.

    For analyses that accept incomplete blocks (pairwise tests on common data
    sets, Skillings–Mack). A cell is NaN when the learner has no score on the data
    set, a NaN score (a failed task) on any replicate, or fewer replicates than
    the data set has for any learner: a mean over other learning samples would
    not be matched with the other learners' means.

    Returns
    -------
    DataFrame
        Index: data sets (named ``dataset``); columns: ``learners`` (named
        ``learner``). Only data sets on which at least one learner has a value.
    """
    perf = result.performance(metric)
    perf = perf[perf["learner"].isin(learners)].copy()
    perf["learner"] = perf["learner"].astype(str)
    perf["dataset"] = perf["dataset"].astype(str)
    order = [d for d in result.datasets if d in set(perf["dataset"])]
    grouped = perf.groupby(["dataset", "learner"], observed=True)["value"]
    mean = grouped.mean().unstack("learner")
    complete = grouped.apply(lambda v: bool(v.notna().all())).unstack("learner")
    n_rep = perf.groupby(["dataset", "learner"], observed=True)["replicate"].nunique()
    n_rep = n_rep.unstack("learner")
    full = perf.groupby("dataset", observed=True)["replicate"].nunique()
    ok = complete.fillna(False).astype(bool) & n_rep.eq(full, axis=0)
    table = mean.where(ok).reindex(index=order, columns=learners)
    table = table.dropna(how="all")
    table.index.name = "dataset"
    table.columns.name = "learner"
    return table
