"""``sklearn-bench demo``: the papers' learners (DLDA with Welch t-test selection
inside pipelines) next to everyday ones, on measured and simulated data, over nested
cross-validation (Bates et al. 2024), with the full report."""

from functools import partial

from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ..datasets import Dataset, SimulatedDataset, make_microarray
from ..estimators import DiagonalLDA, welch_t_score
from ..model_selection import NestedCV

# size -> (nested CV folds and repeats: repeats x folds**2 splits, data sets, k of
# the Welch selection, forest trees). The default fits 25 splits per learner and
# data set (the bootstrap demo fitted 20): about a minute on two cores.
SIZES = {
    "quick": {
        "n_splits": 3,
        "n_repeats": 1,
        "datasets": ("wine_0v1", "breast_cancer", "microarray"),
        "k": (5,),
        "n_trees": 20,
    },
    "default": {
        "n_splits": 5,
        "n_repeats": 1,
        "datasets": ("breast_cancer", "wine_0v1", "digits_3v8", "microarray"),
        "k": (2, 5, 10),
        "n_trees": 100,
    },
    "full": {
        "n_splits": 5,
        "n_repeats": 2,
        "datasets": (
            "breast_cancer",
            "wine_0v1",
            "wine_1v2",
            "digits_3v8",
            "digits_1v7",
            "digits_4v9",
            "microarray",
            "microarray_unequal",
        ),
        "k": (2, 5, 10, 20),
        "n_trees": 200,
    },
}


def _two_classes(X, y, a, b):
    keep = (y == a) | (y == b)
    return X[keep], (y[keep] == b).astype(int)


def demo_datasets(names, *, n_replicates=25):
    """The demo's data sets by name: ``breast_cancer``, ``wine_AvB`` and
    ``digits_AvB`` (measured), ``microarray[_unequal]`` (simulated, Yousefi et
    al. 2011's model with 500 genes: 120 rows a replicate, a test sample of 2,000)."""
    out = {}
    for name in names:
        if name == "breast_cancer":
            X, y = load_breast_cancer(return_X_y=True)
            source = (
                "measured: the Wisconsin diagnostic breast cancer data (UCI), "
                "scikit-learn's load_breast_cancer"
            )
        elif name.startswith(("wine_", "digits_")):
            loader = load_wine if name.startswith("wine_") else load_digits
            a, b = (int(c) for c in name.split("_")[1].split("v"))
            X, y = _two_classes(*loader(return_X_y=True), a, b)
            what = "cultivars" if name.startswith("wine_") else "digits"
            source = (
                f"measured: {what} {a} and {b} of scikit-learn's "
                f"{loader.__name__} (UCI)"
            )
        elif name.startswith("microarray"):
            equal = name == "microarray"
            sampler = partial(
                make_microarray, equal_variance=equal, n_features=500,
                n_high_variance=50,
            )  # fmt: skip
            source = (
                "simulated, not measured: make_microarray, the synthetic "
                "microarray model of Yousefi et al. (2011, Table 1; "
                f"{'equal' if equal else 'unequal'} class variances, 500 genes)"
            )
            out[name] = SimulatedDataset(
                sampler, 120, 2000, n_replicates, source=source
            )
            continue
        else:  # pragma: no cover - names come from SIZES
            raise ValueError(f"Unknown demo data set {name!r}.")
        out[name] = Dataset(X, y, source=source)
    return out


def demo_learners(k_values, n_trees):
    """DLDA with Welch t-test selection of the top k genes (redone on every
    learning sample) or on all features, logistic regression, a forest, an SVM."""
    learners = {
        f"dlda_k{k}": make_pipeline(SelectKBest(welch_t_score, k=k), DiagonalLDA())
        for k in k_values
    }
    learners["dlda_all"] = DiagonalLDA()
    learners["logreg"] = make_pipeline(
        StandardScaler(), LogisticRegression(max_iter=2000)
    )
    learners["random_forest"] = RandomForestClassifier(n_estimators=n_trees)
    learners["svm_rbf"] = make_pipeline(StandardScaler(), SVC())
    return learners


def demo_experiment(size="default", *, n_jobs=None, random_state=0, store=None):
    """The demo's experiment and data sets for ``size`` in ``SIZES``."""
    from ..experiment import BenchmarkExperiment

    spec = SIZES[size]
    learners = demo_learners(spec["k"], spec["n_trees"])
    cv = NestedCV(
        spec["n_splits"], n_repeats=spec["n_repeats"], random_state=random_state
    )
    experiment = BenchmarkExperiment(
        learners,
        cv=cv,
        scoring="error_rate",
        n_jobs=n_jobs,
        random_state=random_state,
        store=None if store is None else str(store),
    )
    n = spec["n_repeats"] * spec["n_splits"] ** 2  # as many fits as nested CV
    return experiment, demo_datasets(spec["datasets"], n_replicates=n)


def describe(size):
    """One line saying what the demo of ``size`` runs."""
    spec = SIZES[size]
    n_learners = len(spec["k"]) + 4
    names = [
        f"{name} (simulated)" if name.startswith("microarray") else name
        for name in spec["datasets"]
    ]
    k, r = spec["n_splits"], spec["n_repeats"]
    return (
        f"{n_learners} learners x {len(spec['datasets'])} data sets "
        f"({', '.join(names)}) x nested {k}-fold cross-validation, {r} "
        f"repeat{'s' * (r > 1)} ({r * k * k} splits; a simulated data set: as "
        "many fresh learning samples; error rate)"
    )


__all__ = ["SIZES", "demo_datasets", "demo_experiment", "demo_learners", "describe"]
