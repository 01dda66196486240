"""
Analysing a benchmark experiment
================================

A small benchmark from start to finish: four learners on three scikit-learn data
sets, each data set bootstrapped 20 times (the *real world* problem of Hothorn et al.
2005: out-of-bootstrap error rates, the same learning samples for every learner).
Then the questions, each answered by a :class:`~sklearn_bench.BenchmarkResult`
method that selects the numbers and hands them to :mod:`sklearn_bench.stats`:

* how big is the difference between two learners, and how sure are we
  (an interval first, then the test) -- within one data set and across data sets;
* do the learners differ at all (Friedman, Hothorn's t*), and which pairs
  (critical difference diagram);
* what do the performance distributions look like;
* and how many data sets would a study need to detect a difference that matters.
"""

# %%
# The experiment
# --------------
import matplotlib.pyplot as plt
import pandas as pd
from sklearn.datasets import load_breast_cancer, load_iris, load_wine
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.plotting import performance_distribution, plot_critical_difference

learners = {
    "tree": DecisionTreeClassifier(max_depth=4),
    "naive Bayes": GaussianNB(),
    "5-NN": make_pipeline(StandardScaler(), KNeighborsClassifier()),
    "LDA": LinearDiscriminantAnalysis(),
}
datasets = {
    "iris": load_iris(return_X_y=True),
    "wine": load_wine(return_X_y=True),
    "breast cancer": load_breast_cancer(return_X_y=True),
}
experiment = BenchmarkExperiment(
    learners,
    cv=BootstrapOOB(n_bootstraps=20, random_state=0),
    random_state=0,
    progress=False,
)
result = experiment.fit(datasets).results_
result.aggregate().round(3)

# %%
# Two learners on one data set
# ----------------------------
# Within one data set the observations are the 20 paired out-of-bootstrap error
# rates of two learners. By default the test answers "is LDA better than the tree
# on new data like this?": the corrected resampled t, whose variance accounts for
# the overlap of the bootstrap samples (user guide, "Tests within one data set").
# The interval for the mean difference comes first; the null hypothesis says which
# difference, which metric, in which direction and on which unit.
res = result.paired_test("LDA", "tree", dataset="breast cancer")
print(res.null_hypothesis)
res.to_frame()[["estimate", "ci_low", "ci_high", "statistic", "pvalue"]].round(4)

# %%
# Hothorn et al.'s paired t on the replicates (statistic (2)) asks a narrower
# question, conditional on this one learning sample; its interval is much
# narrower, and so is what it says.
res = result.paired_test("LDA", "tree", dataset="breast cancer", method="t")
print(res.null_hypothesis)
res.to_frame()[["estimate", "ci_low", "ci_high", "statistic", "pvalue"]].round(4)

# %%
# Across data sets
# ----------------
# Across data sets the observations are the per-data-set mean error rates
# (Boulesteix et al. 2013, H0(real)). Three data sets give a wide interval: the
# honest answer is "we cannot tell yet", not "no difference".
res = result.paired_test("LDA", "tree")
print(res.null_hypothesis)
print("95% interval:", [round(v, 4) for v in res.confidence_interval()])
print("p-value:", round(res.pvalue, 3))

# %%
# Do the four learners differ?
# ----------------------------
# Friedman's test ranks the learners within each block (rank 1 = lowest error). With
# the data sets as blocks there are only three blocks; within one data set the
# replicates are the blocks, and Hothorn's permutation test of t* is the
# alternative that uses the performances themselves rather than their ranks.
across = result.friedman()
within = result.friedman(dataset="breast cancer")
global_perm = result.global_permutation_test("breast cancer", random_state=0)
pd.DataFrame(
    {
        "Friedman, 3 data sets": [across.statistic, across.pvalue],
        "Friedman, breast cancer replicates": [within.statistic, within.pvalue],
        "t*, breast cancer replicates": [global_perm.statistic, global_perm.pvalue],
    },
    index=["statistic", "p-value"],
).round(4)

# %%
# Which pairs differ: the critical difference diagram of the ranks over the 20
# replicates of breast cancer (Nemenyi, alpha = 0.05). Learners joined by a bar are
# not significantly different.
ax = plot_critical_difference(within)
ax.set_title("breast cancer: average ranks over 20 replicates")
plt.show()

# %%
# The distributions behind the ranks
# -----------------------------------
# Hothorn et al. (2005), Figures 3-5: a boxplot and a kernel density estimate of each
# learner's 20 error rates. Skewness and unequal spreads are common, one reason to
# prefer permutation and rank tests to a normal-theory ANOVA.
ax = performance_distribution(result, "breast cancer")
plt.show()

# %%
# Wins, ties and losses
# ---------------------
# Cell (row, (column, "win")) counts the data sets on which the row learner has the
# lower mean error than the column learner.
result.win_tie_loss().xs("win", axis=1, level="outcome")

# %%
# How many data sets would it take?
# ---------------------------------
# Taking this study as a pilot, the spread of the per-data-set differences estimates
# sigma (Boulesteix et al. 2013, Section 3). For a difference in error rate of 0.02
# that we would care about: the power of a one-sided paired t-test with the three data
# sets we have, and the number of data sets needed for 80% power.
result.power("tree", "LDA", delta=0.02).round(3)
