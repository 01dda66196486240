"""Data selection for analyses: split-level pairs, the scheme, failed tasks."""

import numpy as np
import pandas as pd
import pytest
from sklearn.datasets import load_iris
from sklearn.model_selection import (
    GroupKFold,
    LeaveOneOut,
    PredefinedSplit,
    RepeatedStratifiedKFold,
    ShuffleSplit,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import BootstrapCV, BootstrapOOB
from sklearn_bench.results._select import design, split_pair


def _fit(cv, **kwargs):
    X, y = load_iris(return_X_y=True)
    return (
        BenchmarkExperiment(
            {"tree": DecisionTreeClassifier(max_depth=2), "nb": GaussianNB()},
            cv=cv,
            random_state=0,
            progress=False,
            **kwargs,
        )
        .fit({"iris": (X, y)})
        .results_
    )


def test_split_pair_on_repeated_kfold_keeps_every_fold():
    """H: on RepeatedStratifiedKFold(3, 2) split_pair gives the 6 fold scores of
    each learner in split order, with replicate/fold ids, the stored sizes
    (n_train + n_test = 150, each replicate's n_test summing to 150), k = 3,
    r = 2 and scheme "kfold"."""
    result = _fit(RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0))
    s = split_pair(result, "tree", "nb", metric="error_rate", dataset="iris")
    rows = result.scores.sort_values("split")
    for learner, got in (("tree", s.x), ("nb", s.y)):
        want = rows.loc[rows["learner"] == learner, "value"].to_numpy()
        np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(s.replicate, [0, 0, 0, 1, 1, 1])
    np.testing.assert_array_equal(s.fold, [0, 1, 2, 0, 1, 2])
    assert (s.n_train + s.n_test == 150).all() and s.n_test[:3].sum() == 150
    assert (s.scheme, s.n_folds, s.n_replicates, s.n_dropped) == ("kfold", 3, 2, 0)


@pytest.mark.parametrize(
    ("cv", "scheme", "k", "r"),
    [
        (ShuffleSplit(n_splits=4, test_size=0.25, random_state=0), "holdout", 1, 4),
        (BootstrapCV(n_bootstraps=2, n_folds=3, random_state=0), "bootstrap_cv", 3, 2),
        (3, "kfold", 3, 1),
    ],
)
def test_split_pair_names_the_scheme_of_the_run(cv, scheme, k, r):
    """H: the scheme, k and r are the data set's design, read from the stored
    splits (the sizes of ShuffleSplit, BootstrapCV and KFold runs)."""
    s = split_pair(_fit(cv), "tree", "nb", metric="error_rate", dataset="iris")
    assert (s.scheme, s.n_folds, s.n_replicates) == (scheme, k, r)
    assert len(s.x) == k * r


_FOLD = np.arange(150) % 5  # a 5-fold partition as PredefinedSplit reads it
_HALF = np.arange(150) % 2  # a 2-fold partition as a list of (train, test) pairs
_PAIRS = [(np.flatnonzero(_HALF != f), np.flatnonzero(_HALF == f)) for f in (0, 1)]


@pytest.mark.parametrize(
    ("cv", "kwargs", "want"),
    [
        (PredefinedSplit(_FOLD), {"keep_predictions": True}, ("kfold", 5, 1)),
        (PredefinedSplit(_FOLD), {}, ("holdout", 1, 5)),  # sizes alone
        (GroupKFold(5), {}, ("kfold", 5, 1)),
        (LeaveOneOut(), {"keep_predictions": True}, ("kfold", 150, 1)),
        ([*_PAIRS, *_PAIRS[::-1]], {"keep_predictions": True}, ("kfold", 2, 2)),
        (_PAIRS[:1] * 3, {"keep_predictions": True}, ("holdout", 1, 3)),
        (BootstrapOOB(3, random_state=0), {}, ("bootstrap_oob", 1, 3)),
    ],
    ids=["predefined", "predefined-sizes", "groupkfold", "loo", "pairs", "repeated",
         "bootstrap"],
)  # fmt: skip
def test_the_design_is_read_from_the_stored_splits(cv, kwargs, want):
    """H: the design comes from the stored split sizes, replicates, the data
    set's size and, for one split per replicate, the kept validation rows, not
    from the splitter: a PredefinedSplit of 5 folds with kept predictions and
    GroupKFold are one 5-fold partition (sizes alone cannot tell the
    PredefinedSplit from 5 holdout splits), LeaveOneOut one 150-fold
    partition, a list of 4 (train, test) pairs whose test sets cover the rows
    twice is 2 partitions of 2 folds, the same pair three times is 3 holdout
    splits, and
    bootstrap samples are known by their repeated training rows."""
    if isinstance(cv, GroupKFold):
        X, y = load_iris(return_X_y=True)
        from sklearn_bench.datasets import Dataset

        result = (
            BenchmarkExperiment({"nb": GaussianNB(), "tree": GaussianNB()}, cv=cv,
                                random_state=0, progress=False)
            .fit({"iris": Dataset(X, y, groups=np.arange(150) // 3)})
            .results_
        )  # fmt: skip
    else:
        result = _fit(cv, **kwargs)
    d = design(result, "iris", "error_rate")
    assert (d.kind, d.n_folds, d.n_repeats) == want


def _scores(n_train, n_test, replicate, values_a, values_b):
    n = len(replicate)
    fold = pd.Series(replicate).groupby(replicate).cumcount().to_numpy()
    return pd.DataFrame(
        {
            "dataset": "d",
            "learner": ["a"] * n + ["b"] * n,
            "split": list(range(n)) * 2,
            "replicate": list(replicate) * 2,
            "fold": list(fold) * 2,
            "metric": "error_rate",
            "value": [*values_a, *values_b],
            "n_train": list(n_train) * 2,
            "n_test": list(n_test) * 2,
        }
    )


def test_scheme_from_structure_without_a_splitter():
    """H: the stored sizes decide: constant n_train + n_test whose replicate
    n_test sum to it is k-fold; one split per replicate of a constant total is
    holdout; bootstrap-like varying totals are unknown without the data set's
    size and bootstrap_oob with it (training rows repeat: n_train + n_test > n)."""
    kw = {"metrics": {"error_rate": False}, "datasets": {"d": "unknown"}}
    kw["learners"] = ["a", "b"]
    va, vb = [0.1, 0.2, 0.3, 0.2], [0.2, 0.2, 0.4, 0.1]
    kfold = _scores([6, 6, 6, 6], [2, 2, 2, 2], [0, 0, 0, 0], va, vb)
    holdout = _scores([6, 6, 6, 6], [2, 2, 2, 2], [0, 1, 2, 3], va, vb)
    boot = _scores([8, 8, 8, 8], [3, 2, 4, 3], [0, 1, 2, 3], va, vb)
    for scores, scheme in ((kfold, "kfold"), (holdout, "holdout"), (boot, "unknown")):
        s = split_pair(BenchmarkResult(scores, **kw), "a", "b", metric="error_rate",
                       dataset="d")  # fmt: skip
        assert s.scheme == scheme
    sized = BenchmarkResult(boot, **kw, info={"dataset_sizes": {"d": {"n_samples": 8}}})
    assert design(sized, "d", "error_rate").kind == "bootstrap_oob"
    frame = BenchmarkResult.from_frame(
        kfold.assign(r=kfold["replicate"]), dataset="dataset", learner="learner",
        value="value", replicate="r", greater_is_better=False,
    )  # fmt: skip
    s = split_pair(frame, "a", "b", metric="value", dataset="d")
    assert (s.scheme, s.n_folds, s.n_replicates) == ("unknown", 4, 1)  # no sizes


def _with_failed_auc():
    """Two learners, 4 replicates (holdout), error_rate and roc_auc; the roc_auc
    row of learner b on split 1 failed but its error_rate row is numeric."""
    rng = np.random.default_rng(0)
    n = 4
    rows = []
    for metric in ("error_rate", "roc_auc"):
        for learner in ("a", "b"):
            for split in range(n):
                failed = metric == "roc_auc" and learner == "b" and split == 1
                rows.append(
                    {
                        "dataset": "d",
                        "learner": learner,
                        "split": split,
                        "replicate": split,
                        "fold": 0,
                        "metric": metric,
                        "value": np.nan if failed else float(rng.uniform(0.1, 0.3)),
                        "n_train": 80,
                        "n_test": 20,
                        "error_type": "ValueError" if failed else "",
                    }
                )
    scores = pd.DataFrame(rows)
    # the failed task's error_rate row is numeric but flagged, as the runner does
    scores.loc[(scores.learner == "b") & (scores.split == 1), "error_type"] = (
        "ValueError"
    )
    scores.loc[
        (scores.learner == "b") & (scores.split == 1) & (scores.metric == "error_rate"),
        "value",
    ] = 0.99
    result = BenchmarkResult(
        scores,
        metrics={"error_rate": False, "roc_auc": True},
        datasets={"d": "real world"},
        learners=["a", "b"],
        info={"cv": "ShuffleSplit(n_splits=4, random_state=0, test_size=0.2)"},
    )
    return result, scores


def test_failed_task_contributes_to_no_metric():
    """H: a task with one failed metric row has no value on any metric: its
    numeric error_rate (0.99) is neither in performance() nor in a paired test
    within the data set, which drops that replicate and says so (regression:
    the test used to run on the failed task's error_rate silently)."""
    result, scores = _with_failed_auc()
    perf = result.performance("error_rate")
    assert perf.loc[(perf.learner == "b") & (perf.replicate == 1), "value"].isna().all()
    res = result.paired_test("a", "b", dataset="d", method="t")
    keep = scores[(scores.metric == "error_rate") & (scores.split != 1)]
    x = keep.loc[keep.learner == "a", "value"].to_numpy()
    y = keep.loc[keep.learner == "b", "value"].to_numpy()
    d = x - y
    t = d.mean() / (d.std(ddof=1) / np.sqrt(3))
    assert res.n == 3 and res.n_dropped == 1
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert "over 3 replicates; 1 replicate dropped (failed tasks of 'a' or 'b')" in (
        res.null_hypothesis
    )
    s = split_pair(result, "a", "b", metric="error_rate", dataset="d")
    assert s.n_dropped == 1 and 0.99 not in s.y and len(s.x) == 3
    np.testing.assert_array_equal(s.replicate, [0, 2, 3])


def test_failed_task_is_dropped_from_the_corrected_t_too():
    """H: the default test within the data set (corrected t on the 4 ShuffleSplit
    splits) drops the failed split, uses the other 3 with n_test/n_train = 20/80,
    and says it dropped 1 split."""
    result, scores = _with_failed_auc()
    res = result.paired_test("a", "b", dataset="d")
    keep = scores[(scores.metric == "error_rate") & (scores.split != 1)]
    d = (
        keep.loc[keep.learner == "a", "value"].to_numpy()
        - keep.loc[keep.learner == "b", "value"].to_numpy()
    )
    t = d.mean() / np.sqrt((1 / 3 + 0.25) * d.var(ddof=1))
    assert (res.method, res.n, res.n_dropped) == ("corrected_t", 3, 1)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert "1 split dropped (failed tasks of 'a' or 'b')" in res.null_hypothesis
