"""
Bayesian comparisons with a region of practical equivalence
===========================================================

Instead of a p-value, Benavoli, Corani, Demšar & Zaffalon (2017) report three
posterior probabilities: that learner A is *practically* better than B (by more
than a region of practical equivalence, the ROPE), that the two are practically
equivalent, and that B is practically better. A decision is taken when one of
them reaches, say, 0.95; otherwise the data do not decide.

Within one data set the scores of the resamples are correlated (their training
sets overlap), and the Bayesian correlated t-test of Corani & Benavoli (2015)
accounts for it with the correlation ``rho = n_test / (n_test + n_train)``.
:meth:`~sklearn_bench.BenchmarkResult.bayesian_test` reads ``rho`` from the
split sizes the run stored, so random splits get their own ``rho``, not
k-fold's. Across data sets the Bayesian signed-rank test compares the
per-data-set means.
"""

# %%
# Two learners on one data set
# ----------------------------
# Logistic regression against naive Bayes on the breast cancer data, scored on
# 20 random 75/25 splits (ShuffleSplit). The error rate's default ROPE is 0.01:
# one percentage point.
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import ShuffleSplit
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import load_demsar2006
from sklearn_bench.plotting import plot_bayesian_posterior

X, y = load_breast_cancer(return_X_y=True)
experiment = BenchmarkExperiment(
    {
        "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
        "naive Bayes": GaussianNB(),
    },
    cv=ShuffleSplit(n_splits=20, test_size=0.25, random_state=0),
    random_state=0,
    progress=False,
)
result = experiment.fit({"breast cancer": (X, y)}).results_
res = result.bayesian_test("logistic", "naive Bayes", dataset="breast cancer")
print({name: round(p, 3) for name, p in res.probabilities.items()})
print("decision:", res.decision)
print(f"rho = {res.details['rho']:.3f} (143 test rows of 569)")
print(res.description)

# %%
# The posterior of the mean difference in error rate: the part left of −0.01
# favours logistic regression, the shaded band is the ROPE.
plot_bayesian_posterior(res)
plt.show()

# %%
# What k-fold's correlation would have said
# -----------------------------------------
# Treating the 20 random splits as 20-fold cross-validation (``rho = 1/20``, what
# baycomp's ``runs`` argument implies) makes the posterior about twice as
# narrow, and the answer more certain than the design allows.
kfold_rho = result.bayesian_test(
    "logistic", "naive Bayes", dataset="breast cancer", rho=1 / 20
)
print(
    f"scale of the posterior: rho from sizes {res.details['scale']:.4f}, "
    f"rho = 1/20 {kfold_rho.details['scale']:.4f}"
)

# %%
# Across data sets
# ----------------
# Demšar's (2006) Table 6: AUC of four C4.5 variants on 14 data sets (higher is
# better). AUC has no agreed default ROPE, so it must be given: 0.01.
tables = BenchmarkResult.from_frame(
    load_demsar2006(),
    dataset="dataset",
    learner="learner",
    value="auc",
    greater_is_better=True,
)
comparisons = tables.bayesian_comparisons(control="C4.5", delta=0.01, random_state=0)
table = pd.concat([c.to_frame() for c in comparisons.values()], ignore_index=True)
print(table.drop(columns="description").round(3).to_string())

# %%
# Each point of the triangle is one posterior draw of the probabilities of the
# three regions; the share of points in each third is the posterior
# probability that its region is the most probable (Benavoli et al. 2017,
# Section 4).
fig, axes = plt.subplots(1, 3, figsize=(13, 4.4), layout="constrained")
for ax, res in zip(axes, comparisons.values(), strict=True):
    plot_bayesian_posterior(res, ax=ax, title=f"{res.labels[0]} vs {res.labels[1]}")
plt.show()
