"""
How good is one learner?
========================

"Error 0.05, give or take what?" The usual answer, the mean of the
cross-validation errors ± 1.96 standard errors as if the n validation losses were
independent, covers the expected error less often than it says: the folds share
training rows (Bates, Hastie & Tibshirani 2024). This example fits one learner on
the splits of three designs with ``cross_validate``, keeps the pointwise 0-1
losses, and asks :func:`~sklearn_bench.stats.generalization_error_interval` for
the interval each design supports: naive CV (5-fold), the corrected resampled t
(repeated subsampling) and nested CV (:class:`~sklearn_bench.model_selection.NestedCV`,
the user guide's recommendation). Nested CV also gives the interval of the
difference to a second learner on the same splits, and
:func:`~sklearn_bench.stats.cv_auc_interval` the influence-curve interval of the
cross-validated AUC.
"""

# %%
# One loss table per design
# -------------------------
# ``cross_validate`` returns the fitted models and the validation rows of every
# split; each row's 0-1 loss goes into a table with its split. NestedCV's
# ``split_roles()`` says which split is an outer fold and which belongs to the
# inner cross-validation of an outer fold.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import KFold, ShuffleSplit, cross_validate
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bench.model_selection import NestedCV
from sklearn_bench.stats import cv_auc_interval, generalization_error_interval

X, y = load_breast_cancer(return_X_y=True)
logistic = make_pipeline(StandardScaler(), LogisticRegression())


def loss_table(learner, cv):
    """One row per validated observation: split, row, 0-1 loss, n_train."""
    res = cross_validate(learner, X, y, cv=cv, return_estimator=True,
                         return_indices=True)  # fmt: skip
    parts = [
        pd.DataFrame({"split": split, "row": test, "n_train": len(y) - len(test),
                      "loss": fitted.predict(X[test]) != y[test]})
        for split, (fitted, test) in enumerate(
            zip(res["estimator"], res["indices"]["test"], strict=True))
    ]  # fmt: skip
    table = pd.concat(parts, ignore_index=True)
    if hasattr(cv, "split_roles"):
        table = table.merge(cv.split_roles(), on="split")
    return table


nested = NestedCV(n_splits=5, n_repeats=3, random_state=0)  # 75 fits
tables = {
    "naive_cv": loss_table(logistic, KFold(5, shuffle=True, random_state=0)),
    "corrected_t": loss_table(
        logistic, ShuffleSplit(15, test_size=0.1, random_state=0)
    ),
    "nested_cv": loss_table(logistic, nested),
}

# %%
# Three intervals for the same learner
# ------------------------------------
# Each method reads the structure it needs from the table; the nested-CV estimate
# is Bates et al.'s bias-corrected one.
results = {
    method: generalization_error_interval(table, method=method, metric="zero_one")
    for method, table in tables.items()
}
for method, res in results.items():
    ci = res.confidence_interval(0.90)
    print(f"{method:12s} {res.estimate:.4f}  90% CI ({ci.low:.4f}, {ci.high:.4f})"
          f"  [{res.design}]")  # fmt: skip

fig, ax = plt.subplots(figsize=(6, 2.2))
for i, res in enumerate(results.values()):
    ci = res.confidence_interval(0.90)
    below, above = res.estimate - ci.low, ci.high - res.estimate
    ax.errorbar(res.estimate, i, xerr=[[below], [above]], fmt="o", capsize=4)
ax.set_yticks(range(len(results)), list(results))
ax.set_xlabel("expected 0-1 error, 90% interval")
fig.tight_layout()

# %%
# A − B on the same nested splits
# -------------------------------
# The pointwise differences of two learners on the same splits give the interval of
# the difference of their expected errors.
bayes = loss_table(GaussianNB(), nested)
diff = generalization_error_interval(
    tables["nested_cv"], method="nested_cv", baseline=bayes["loss"]
)
ci = diff.confidence_interval(0.90)
print(
    f"logistic − naive Bayes: {diff.estimate:.4f}, 90% CI ({ci.low:.4f}, {ci.high:.4f})"
)

# %%
# The cross-validated AUC
# -----------------------
# The AUC is not a mean of pointwise losses; LeDell et al. (2015) give its
# influence-curve interval from the out-of-fold scores of one K-fold partition.
folds = np.empty(len(y), dtype=int)
scores = np.empty(len(y))
for k, (train, test) in enumerate(KFold(5, shuffle=True, random_state=0).split(X)):
    folds[test] = k
    scores[test] = logistic.fit(X[train], y[train]).decision_function(X[test])
auc = cv_auc_interval(y, scores, folds)
ci = auc.confidence_interval(0.90)
print(f"cvAUC {auc.estimate:.4f}, 90% CI ({ci.low:.4f}, {ci.high:.4f})")
