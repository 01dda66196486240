"""
Bootstrap splitters in scikit-learn
===================================

:class:`~sklearn_bench.model_selection.BootstrapOOB` and
:class:`~sklearn_bench.model_selection.BootstrapCV` are the real-world resampling
schemes of Hothorn et al. (2005), RW-OOB and RW-CV. They are ordinary scikit-learn
splitters: this example checks their validation sizes against the theory and uses
them as ``cv=`` in ``cross_validate`` and ``GridSearchCV``.
"""

# %%
# Validation sizes
# ----------------
# Out of bootstrap, a fraction :math:`(1 - 1/n)^n \approx e^{-1} \approx 0.368` of
# the rows is left for validation. In ``BootstrapCV`` a fold of the bootstrap sample
# keeps for validation only the rows that do not also occur in the training folds;
# for :math:`k = 5` that is about :math:`(1 - e^{-1/5})\,e^{-4/5} \approx 0.081` of
# the rows per fold (the derivation is in the class docstring).
import matplotlib.pyplot as plt
import numpy as np
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV, cross_validate
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bench.model_selection import BootstrapCV, BootstrapOOB, replicate_ids

X, y = load_breast_cancer(return_X_y=True)
n = len(y)
oob = BootstrapOOB(n_bootstraps=50, random_state=0)
bcv = BootstrapCV(n_bootstraps=50, n_folds=5, random_state=0)

oob_share = [len(test) / n for _, test in oob.split(X, y)]
bcv_share = [len(test) / n for _, test in bcv.split(X, y)]
print(f"OOB:         mean validation share {np.mean(oob_share):.3f}")
print(f"             theory (1 - 1/n)^n    {(1 - 1 / n) ** n:.3f}")
print(f"BootstrapCV: mean validation share {np.mean(bcv_share):.3f} per fold")
print(f"             large-n limit         {(1 - np.exp(-0.2)) * np.exp(-0.8):.3f}")

# %%
# In ``cross_validate``
# ---------------------
# ``BootstrapCV`` yields ``n_bootstraps * n_folds`` splits, five per bootstrap
# sample. :func:`~sklearn_bench.model_selection.replicate_ids` maps them to the
# bootstrap samples, and the fold scores are averaged into one performance per
# replicate -- the :math:`\hat p_{kb}` of RW-CV.
model = make_pipeline(StandardScaler(), LogisticRegression(solver="liblinear"))
scores = cross_validate(model, X, y, cv=bcv, scoring="accuracy")["test_score"]
ids = replicate_ids(bcv, X, y)
per_replicate = np.array([scores[ids == b].mean() for b in np.unique(ids)])
print(f"{scores.size} fold scores -> {per_replicate.size} replicate performances")
print(f"RW-CV error: {1 - per_replicate.mean():.3f}")

oob_scores = cross_validate(model, X, y, cv=oob, scoring="accuracy")["test_score"]
print(f"RW-OOB error: {1 - oob_scores.mean():.3f}")

# %%
# In ``GridSearchCV``
# -------------------
# Tuning inside a learner works with any splitter. The search below selects the
# regularisation of the logistic regression by its out-of-bootstrap accuracy. (In a
# benchmark, such a search is itself the learner, and is refitted on every training
# part of the outer resampling.)
search = GridSearchCV(
    model,
    {"logisticregression__C": [0.01, 0.1, 1.0, 10.0]},
    cv=BootstrapOOB(n_bootstraps=20, random_state=0),
)
search.fit(X, y)
print("best C:", search.best_params_["logisticregression__C"])

# %%
# The distribution of the performance
# -----------------------------------
# The replicate performances are a sample from the performance distribution of
# the learner on this data set; RW-OOB and RW-CV give similar pictures.
fig, ax = plt.subplots(figsize=(6, 3.2), layout="constrained")
ax.hist(1 - oob_scores, bins=15, alpha=0.6, label="RW-OOB")
ax.hist(1 - per_replicate, bins=15, alpha=0.6, label="RW-CV")
ax.set_xlabel("error rate per replicate")
ax.set_ylabel("replicates")
ax.legend()
ax.set_title("Logistic regression on breast_cancer, 50 bootstrap samples")
plt.show()
