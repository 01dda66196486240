import numpy as np
import pytest
from sklearn.datasets import load_breast_cancer
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.datasets import Dataset
from sklearn_bench.model_selection import Bootstrap632Scorer, BootstrapOOB

X, y = load_breast_cancer(return_X_y=True)
X, y = X[:150], y[:150]


@pytest.mark.parametrize("plus", [False, True])
def test_632_through_the_experiment_equals_the_scorer_by_hand(plus):
    """H: with a Bootstrap632Scorer in `scoring`, each replicate's value equals the
    scorer called by hand on the same fitted model, learning sample and split, and
    the metric is a loss named '.632' / '.632+'."""
    cv = BootstrapOOB(n_bootstraps=4, random_state=3)
    scorer = Bootstrap632Scorer(plus=plus)
    learners = {"knn": KNeighborsClassifier(n_neighbors=3)}
    exp = BenchmarkExperiment(
        learners, cv=cv, scoring=["error_rate", scorer], progress=False
    ).fit(X, y)
    name = ".632+" if plus else ".632"
    assert exp.results_.metrics[name] is False  # lower is better
    got = exp.results_.performance(metric=name)["value"].to_numpy()
    expected = [
        scorer(
            KNeighborsClassifier(n_neighbors=3).fit(X[tr], y[tr]),
            X,
            y,
            train=tr,
            test=te,
        )
        for tr, te in cv.split(X, y)
    ]
    np.testing.assert_array_equal(got, expected)
    oob = exp.results_.performance(metric="error_rate")["value"].to_numpy()
    assert not np.array_equal(got, oob)  # the .632 rule moved the OOB error


def test_632_refused_on_a_fixed_test_sample():
    """H: a .632 metric on a competition data set (no out-of-bag rows of the learning
    sample to score) is refused with a ValueError naming the metric and data set."""
    data = Dataset(X[:100], y[:100], X_test=X[100:], y_test=y[100:])
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier()},
        cv=BootstrapOOB(2, random_state=0),
        scoring=Bootstrap632Scorer(),
        progress=False,
    )
    with pytest.raises(ValueError, match=r"'\.632\+'.*'comp'.*competition"):
        exp.fit({"comp": data})
