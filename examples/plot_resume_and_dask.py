"""
Resume an interrupted run, and run on a dask cluster
====================================================

A benchmark experiment of many data sets, learners and resamples runs for hours.
With ``store="run.sqlite"``, :class:`~sklearn_bench.BenchmarkExperiment` commits every
finished task to an SQLite file, each in its own transaction, so a crash, a Ctrl-C or
a preempted node costs at most the tasks that were running. Calling ``fit`` again with
the same configuration runs only the missing tasks, and the result is bit-identical to
an uninterrupted run. The store grows with the study (more learners, data sets,
replicates), stores of several machines combine into one, and the same experiment
runs on a dask cluster through joblib.
"""

# %%
# An experiment with a store
# --------------------------
# Two learners on two data sets, 10 bootstrap replicates each: 40 tasks. One learner
# is a decision tree that, for this demonstration, "crashes the machine" after 15
# fits: it raises ``KeyboardInterrupt``, as a Ctrl-C would.
import tempfile
import warnings
from pathlib import Path

import numpy as np
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.model_selection import BootstrapOOB

X, y = load_breast_cancer(return_X_y=True)
datasets = {"cancer": (X[:, :10], y), "iris": load_iris(return_X_y=True)}

CRASH = {"after": 15, "fits": 0}


class CrashingTree(DecisionTreeClassifier):
    def fit(self, X, y, **kwargs):
        CRASH["fits"] += 1
        if CRASH["after"] is not None and CRASH["fits"] > CRASH["after"]:
            raise KeyboardInterrupt  # the machine goes down
        return super().fit(X, y, **kwargs)


def experiment(store):
    return BenchmarkExperiment(
        {"nb": GaussianNB(), "tree": CrashingTree(max_depth=3)},
        cv=BootstrapOOB(n_bootstraps=10, random_state=0),
        random_state=0,
        progress=False,
        store=store,
    )


folder = Path(tempfile.mkdtemp())
store = folder / "run.sqlite"
try:
    experiment(store).fit(datasets)
except KeyboardInterrupt:
    print("interrupted")

# %%
# What the store holds
# --------------------
# :meth:`~sklearn_bench.BenchmarkResult.from_store` reads a finished or partial run
# without fitting anything (also while a run is writing it). The tasks run data set by
# data set, learner by learner, so the store holds all the tasks but the last 5 tree
# fits on iris; it says how many are missing.
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    partial = BenchmarkResult.from_store(store)
print(caught[0].message)
print(partial.n_missing_tasks, "tasks missing")
print(partial.scores.groupby(["dataset", "learner"], observed=True).size())

# %%
# Resume
# ------
# The same experiment on the same store runs the 5 missing tasks only. A learner
# whose parameters changed under its stored name, a data set whose contents changed,
# another seed or metric set are refused with a ``ValueError`` that names them;
# ``overwrite=True`` or another path starts afresh.
CRASH.update(after=None, fits=0)
resumed = experiment(store).fit(datasets).results_
print("tree fits in the second run:", CRASH["fits"])

uninterrupted = experiment(None).fit(datasets).results_
print(
    "bit-identical to an uninterrupted run:",
    np.array_equal(resumed.scores["value"], uninterrupted.scores["value"]),
)
print(resumed.aggregate().round(3))

# %%
# Grow the study
# --------------
# A store grows with its study: a task is identified by its content (the data set's
# fingerprint, the split's rows, the learner's name and parameters), so one more
# learner and more replicates of the seeded splitter run only the new tasks; the
# stored ones are reused bit for bit. ``results_`` holds the tasks of the experiment
# just fitted.
grown = BenchmarkExperiment(
    {
        "nb": GaussianNB(),
        "tree": CrashingTree(max_depth=3),
        "stump": DecisionTreeClassifier(max_depth=1),
    },
    cv=BootstrapOOB(n_bootstraps=12, random_state=0),
    random_state=0,
    progress=False,
    store=store,
).fit(datasets)
print(grown.n_tasks_, "tasks run,", grown.n_reused_tasks_, "reused from the store")
print(grown.results_.aggregate().round(3))

# %%
# Several machines, one study
# ---------------------------
# Parts of a study run on different machines (here: one data set each) into their
# own stores, and are combined without refitting, into one
# :class:`~sklearn_bench.BenchmarkResult` or one store
# (:func:`~sklearn_bench.store.merge_stores`, or ``sklearn-bench merge``). A task
# stored twice with other scores is refused. The union equals one run of it all.
parts = []
for name in datasets:
    part = folder / f"part-{name}.sqlite"
    experiment(part).fit({name: datasets[name]})
    parts.append(part)
combined = BenchmarkResult.from_store(parts)
print(
    "two machines == one run:",
    np.array_equal(combined.scores["value"], uninterrupted.scores["value"]),
)

# %%
# On a dask cluster
# -----------------
# Parallelism goes through joblib, so the experiment runs on a dask.distributed
# cluster under ``joblib.parallel_config(backend="dask")``. Workers fit and score and
# return rows; only the driver (this process) writes the store. joblib groups quick
# tasks into batches and scatters each data set to the cluster once per ``fit``, not
# once per task. The seeds are derived from ``random_state``, the data set and the
# replicate, so the scores are the same as with ``n_jobs=1``. Here a local cluster of
# two workers (threads, to keep the docs build fast; ``processes=True`` is the usual
# choice on one machine).
#
# On a real cluster, connect to its scheduler instead of starting a local one::
#
#     from dask.distributed import Client
#     client = Client("tcp://scheduler:8786")
#     with joblib.parallel_config(backend="dask"):
#         experiment.fit(datasets)
#
# Keep the store on a local disk of the machine running ``fit``: SQLite's locks are
# not reliable on network file systems.
import joblib
from dask.distributed import Client, LocalCluster

learners = {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=3)}
kw = {"cv": BootstrapOOB(n_bootstraps=10), "random_state": 0, "progress": False}
local = BenchmarkExperiment(learners, n_jobs=1, **kw).fit(datasets).results_
with (
    LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
    ) as cluster,
    Client(cluster),
    joblib.parallel_config(backend="dask"),
):
    on_dask = BenchmarkExperiment(learners, store=folder / "dask.sqlite", **kw)
    on_dask = on_dask.fit(datasets).results_
print(
    "dask == n_jobs=1:",
    np.array_equal(on_dask.scores["value"], local.scores["value"]),
)
