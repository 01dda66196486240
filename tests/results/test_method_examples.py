"""Values the docstrings of BenchmarkResult's methods (sklearn_bench/results/)
showed beyond their first example, kept as tests when the docstrings were cut."""

from sklearn.datasets import load_breast_cancer
from sklearn.model_selection import RepeatedStratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment


def test_paired_test_within_repeated_cv_defaults_to_corrected_t_on_folds():
    """H: within one data set run with repeated 10-fold CV, ``paired_test``'s
    default is the corrected t on the 100 fold scores (99 df), not on the 10
    replicate means."""
    X, y = load_breast_cancer(return_X_y=True)
    result = (
        BenchmarkExperiment(
            {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)},
            cv=RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0),
            random_state=0,
            progress=False,
        )
        .fit({"bc": (X, y)})
        .results_
    )
    res = result.paired_test("nb", "tree", dataset="bc")
    assert (res.method, res.n, res.df) == ("corrected_t", 100, 99)
