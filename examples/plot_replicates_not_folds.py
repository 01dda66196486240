"""
Replicates, not folds
=====================

Repeated k-fold cross-validation gives ``n_splits * n_repeats`` scores per learner.
For Hothorn et al.'s conditional tests within one data set the units of the design
are the *replicates* (one repetition, i.e. one learning sample), not the folds: the
folds of a repetition partition the same rows and their training sets overlap, so
their scores are not independent. This example compares two learners on the same
splits (a matched-pairs design), averages the fold differences per replicate with
:func:`~sklearn_bench.model_selection.replicate_ids`, and shows that treating the
folds as independent observations gets the variance wrong. The last section shows
the one test that does use the fold scores, because it corrects for their
dependence: the corrected repeated k-fold t of Bouckaert and Frank (2004), the
default of ``BenchmarkResult.paired_test`` within a data set, which answers the
question "on new data like this" (user guide, "Tests within one data set").
"""

# %%
# Same splits for both learners
# -----------------------------
# A splitter with a fixed ``random_state`` yields the same splits on every call, so
# both learners see exactly the same training and validation rows.
import matplotlib.pyplot as plt
import numpy as np
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import RepeatedStratifiedKFold, cross_val_score
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from sklearn_bench.model_selection import replicate_ids
from sklearn_bench.stats import paired_test

X, y = load_breast_cancer(return_X_y=True)
cv = RepeatedStratifiedKFold(n_splits=5, n_repeats=10, random_state=0)
learners = {
    "logistic": make_pipeline(StandardScaler(), LogisticRegression()),
    "naive Bayes": GaussianNB(),
}
error = {
    name: 1 - cross_val_score(est, X, y, cv=cv, scoring="accuracy")
    for name, est in learners.items()
}
d_fold = error["logistic"] - error["naive Bayes"]  # one difference per split

# %%
# From folds to replicates
# ------------------------
# ``replicate_ids`` says which splits belong to the same repetition; the mean over
# a replicate's folds is its performance difference :math:`d_b`.
ids = replicate_ids(cv, X, y)
print("replicate of each split:", ids[:12], "...")
d_rep = np.array([d_fold[ids == b].mean() for b in np.unique(ids)])
print(f"{d_fold.size} fold differences, {d_rep.size} replicate differences")

# %%
# Are the folds of a replicate independent?
# -----------------------------------------
# If the five fold differences of a replicate were independent, their mean would
# vary between replicates with standard deviation ``sd(folds) / sqrt(5)``. It
# varies much less: the folds of one repetition partition the same 569 rows, so a
# fold that happens to hold hard cases leaves easier ones to the others, and their
# differences are negatively correlated.
sd_fold = d_fold.std(ddof=1)
print(f"SD of the fold differences:                 {sd_fold:.4f}")
print(f"SD of replicate means if folds independent: {sd_fold / np.sqrt(5):.4f}")
print(f"SD of the replicate means, observed:        {d_rep.std(ddof=1):.4f}")

# %%
# Two intervals for the mean difference
# -------------------------------------
# Both intervals are centred on the same mean. The fold-level interval treats 50
# dependent scores as independent (49 degrees of freedom, between-fold variance);
# the replicate-level interval uses the 10 replicate means, which are independent
# given the data set. The two disagree, here by a factor of almost two in width.
# (Neither describes the variation over *other* data sets from the same
# population: see Nadeau and Bengio, 2003, and the user guide.)


def t_interval(d, confidence_level=0.95):
    """Mean and two-sided t-interval of paired differences."""
    res = stats.ttest_1samp(d, 0.0)
    ci = res.confidence_interval(confidence_level)
    return d.mean(), ci.low, ci.high


for label, d in [("folds", d_fold), ("replicates", d_rep)]:
    mean, low, high = t_interval(d)
    print(
        f"{label:>10}: n = {d.size:2d}, mean difference = {mean:+.4f}, "
        f"95% CI [{low:+.4f}, {high:+.4f}]"
    )

# %%
# The corrected t on the fold scores
# ----------------------------------
# The test for new data like this one keeps all 50 fold scores and widens the
# variance by ``1/(k r) + n_test/n_train`` (here ``1/50 + 1/4``) instead of
# ``1/50``: Bouckaert and Frank (2004), with 49 degrees of freedom. Averaging the
# folds first and then applying that correction would double-count the averaging.
res = paired_test(
    error["logistic"],
    error["naive Bayes"],
    method="corrected_t",
    test_train_ratio=1 / 4,
)
ci = res.confidence_interval()
print(
    f"corrected t on 50 folds: t = {res.statistic:.2f}, df = {res.df}, "
    f"95% CI [{ci.low:+.4f}, {ci.high:+.4f}]"
)

# %%
# The fold differences scatter widely within each replicate; the replicate means
# (black) vary much less, and they are the observations of Hothorn et al.'s
# conditional test within this data set. That test is conditional on this data
# set: it says nothing about new samples of its population, nor about other data
# sets (see the user guide, "Tests within one data set").
fig, ax = plt.subplots(figsize=(7, 3.5), layout="constrained")
for b in np.unique(ids):
    ax.scatter(
        np.full((ids == b).sum(), b),
        d_fold[ids == b],
        color="tab:blue",
        alpha=0.5,
        s=18,
    )
ax.scatter(
    np.unique(ids), d_rep, color="black", marker="D", s=30, label="replicate mean"
)
ax.axhline(0, color="grey", lw=0.8)
ax.set_xlabel("replicate (repetition of 5-fold CV)")
ax.set_ylabel("error(logistic) - error(naive Bayes)")
ax.set_xticks(np.unique(ids))
ax.legend(loc="upper right")
ax.set_title("Fold differences (blue) and their replicate means")
plt.show()
