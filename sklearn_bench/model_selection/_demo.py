"""``sklearn-bench demo``: the bootstrap splitters at work on a real data set."""

import sys

import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from ._bootstrap import BootstrapCV, BootstrapOOB
from ._bootstrap632 import Bootstrap632Scorer
from ._replicates import replicate_ids


def _replicate_errors(cv, result, X, y):
    """Misclassification error per replicate: fold errors averaged within it."""
    ids = replicate_ids(cv, X, y)
    errors = 1 - np.asarray(result["test_score"])
    return np.bincount(ids, weights=errors) / np.bincount(ids)


def run_demo(out=None, *, random_state=0):
    """Compare resampling schemes for one learner on the breast cancer data.

    Fits a scaled logistic regression with 10-fold cross-validation,
    :class:`BootstrapOOB` (RW-OOB) and :class:`BootstrapCV` (RW-CV) of Hothorn et
    al. (2005), and prints for each the number of splits and replicates and the
    mean and standard deviation of the misclassification error over replicates
    (one replicate for k-fold, so no standard deviation) and the mean
    validation-set size,
    then the .632 and .632+ estimates (Efron and Tibshirani, 1997) of the
    out-of-bootstrap splits. Takes a few seconds.

    Parameters
    ----------
    out : file-like, default=None
        Where to print; ``sys.stdout`` if None.
    random_state : int, default=0
        Seed of all splitters.

    Returns
    -------
    exit_code : int
        0.
    """
    out = sys.stdout if out is None else out
    X, y = load_breast_cancer(return_X_y=True)
    learner = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    schemes = {
        "10-fold CV": KFold(10, shuffle=True, random_state=random_state),
        "BootstrapOOB(25)": BootstrapOOB(25, random_state=random_state),
        "BootstrapCV(10, 5)": BootstrapCV(10, 5, random_state=random_state),
    }
    print(
        f"Breast cancer (Wisconsin): n={X.shape[0]}, p={X.shape[1]}; learner: "
        "StandardScaler + LogisticRegression; misclassification error.",
        file=out,
    )
    print(
        f"{'scheme':<20}{'splits':>7}{'replicates':>11}{'mean error':>12}"
        f"{'sd':>8}{'mean |validation|':>19}",
        file=out,
    )
    oob = None
    for name, cv in schemes.items():
        res = cross_validate(
            learner,
            X,
            y,
            cv=cv,
            return_estimator=isinstance(cv, BootstrapOOB),
            return_indices=True,
        )
        errors = _replicate_errors(cv, res, X, y)
        n_val = np.mean([len(t) for t in res["indices"]["test"]])
        sd = f"{errors.std(ddof=1):.4f}" if len(errors) > 1 else "-"
        print(
            f"{name:<20}{len(res['test_score']):>7}{len(errors):>11}"
            f"{errors.mean():>12.4f}{sd:>8}{n_val:>19.1f}",
            file=out,
        )
        if isinstance(cv, BootstrapOOB):
            oob = res
    for label, plus in ((".632", False), (".632+", True)):
        scorer = Bootstrap632Scorer(plus=plus)
        values = [
            scorer(est, X, y, train=train, test=test)
            for est, train, test in zip(
                oob["estimator"],
                oob["indices"]["train"],
                oob["indices"]["test"],
                strict=True,
            )
        ]
        print(
            f"{label + ' on the OOB splits':<38}{np.mean(values):>12.4f}"
            f"{np.std(values, ddof=1):>8.4f}",
            file=out,
        )
    print(
        "Replicates (learning samples) are the units of Hothorn et al.'s (2005) "
        "paired tests;\nBootstrapCV averages its 5 folds into one performance "
        "per replicate.",
        file=out,
    )
    return 0
