"""A benchmark study on a dask.distributed cluster, resumable.

    python study_on_dask.py SCHEDULER_ADDRESS STORE.sqlite

The driver (this script) sends the tasks to the cluster's workers and commits
each result to the store as it arrives; run it again after an interruption and
only the missing tasks run. The same script runs on a LocalCluster, on a SLURM or
PBS cluster started by dask-jobqueue and on Kubernetes with dask-kubernetes: only
the scheduler's address changes.
"""

import sys

import joblib
from dask.distributed import Client
from sklearn.datasets import load_breast_cancer, load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.model_selection import BootstrapOOB


def study(n_bootstraps=10):
    """The learners, the data sets and the experiment's settings."""
    learners = {
        "forest": RandomForestClassifier(n_estimators=10),
        "logreg": make_pipeline(StandardScaler(), LogisticRegression(max_iter=500)),
    }
    datasets = {
        "breast_cancer": load_breast_cancer(return_X_y=True),
        "wine": load_wine(return_X_y=True),
    }
    settings = {"cv": BootstrapOOB(n_bootstraps=n_bootstraps), "random_state": 0}
    return learners, datasets, settings


def main(address, store):
    learners, datasets, settings = study()
    experiment = BenchmarkExperiment(learners, store=store, progress=False, **settings)
    with Client(address), joblib.parallel_config(backend="dask"):
        experiment.fit(datasets)
    print(f"ran {experiment.n_tasks_} tasks, reused {experiment.n_reused_tasks_}")
    print(experiment.results_.aggregate().round(3))


if __name__ == "__main__":
    main(*sys.argv[1:3])
