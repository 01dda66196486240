"""``sklearn-bench demo``: a small real benchmark experiment, end to end.

Data that ships with scikit-learn or is generated, the papers' learners (DLDA
with Welch t-test selection inside pipelines) next to everyday ones, bootstrap
resampling, and the full report.
"""

from sklearn.datasets import load_breast_cancer, load_digits, load_wine
from sklearn.ensemble import RandomForestClassifier
from sklearn.feature_selection import SelectKBest
from sklearn.linear_model import LogisticRegression
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC

from ..datasets import Dataset, make_microarray
from ..estimators import DiagonalLDA, welch_t_score
from ..model_selection import BootstrapOOB

# size -> (bootstrap replicates, data sets, k of the Welch selection, forest trees)
SIZES = {
    "quick": {
        "n_bootstraps": 4,
        "datasets": ("wine_0v1", "breast_cancer", "microarray"),
        "k": (5,),
        "n_trees": 20,
    },
    "default": {
        "n_bootstraps": 20,
        "datasets": ("breast_cancer", "wine_0v1", "digits_3v8", "microarray"),
        "k": (2, 5, 10),
        "n_trees": 100,
    },
    "full": {
        "n_bootstraps": 50,
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


def demo_datasets(names, *, random_state=0):
    """The demo's data sets by name: ``breast_cancer``, ``wine_AvB``,
    ``digits_AvB`` (two classes of wine or digits) and ``microarray`` /
    ``microarray_unequal`` (Yousefi et al. 2011's model, 120 samples, 500 genes)."""
    out = {}
    for name in names:
        if name == "breast_cancer":
            X, y = load_breast_cancer(return_X_y=True)
        elif name.startswith(("wine_", "digits_")):
            loader = load_wine if name.startswith("wine_") else load_digits
            a, b = (int(c) for c in name.split("_")[1].split("v"))
            X, y = _two_classes(*loader(return_X_y=True), a, b)
        elif name.startswith("microarray"):
            X, y = make_microarray(
                120,
                equal_variance=name == "microarray",
                n_features=500,
                n_high_variance=50,
                random_state=random_state,
            )
        else:  # pragma: no cover - names come from SIZES
            raise ValueError(f"Unknown demo data set {name!r}.")
        out[name] = Dataset(X, y)
    return out


def demo_learners(k_values, n_trees):
    """DLDA with Welch t-test selection of the top k genes (inside the pipeline,
    so the selection is redone on every learning sample), DLDA on all features,
    logistic regression, a random forest and an RBF SVM (both scaled where the
    learner needs it)."""
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
    params = {
        "cv": BootstrapOOB(spec["n_bootstraps"], random_state=random_state),
        "scoring": "error_rate",
        "n_jobs": n_jobs,
        "random_state": random_state,
    }
    if store is not None:
        params["store"] = str(store)
    experiment = BenchmarkExperiment(learners, **params)
    return experiment, demo_datasets(spec["datasets"], random_state=random_state)


def describe(size):
    """One line saying what the demo of ``size`` runs."""
    spec = SIZES[size]
    n_learners = len(spec["k"]) + 4
    return (
        f"{n_learners} learners x {len(spec['datasets'])} data sets "
        f"({', '.join(spec['datasets'])}) x {spec['n_bootstraps']} bootstrap "
        "replicates (out-of-bag error rate)"
    )


__all__ = ["SIZES", "demo_datasets", "demo_experiment", "demo_learners", "describe"]
