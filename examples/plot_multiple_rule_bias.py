r"""
Multiple-rule bias and the unconditional error
==============================================

Compare :math:`m` classifier rule models on one sample, report the smallest estimated
error, and the report is optimistic -- even when every error estimator is nearly
unbiased on its own (Yousefi et al., 2011). This example simulates the effect with
:func:`~sklearn_bench.experiment.collect_rule_errors`, measures it with
:func:`~sklearn_bench.stats.multiple_rule_bias` and draws the four panels of the
paper's Figures 3-6. A last section estimates the *unconditional* error of a method,
:math:`\varepsilon(n, M, P)`, with its Monte Carlo standard error
(:func:`~sklearn_bench.experiment.unconditional_error`, Boulesteix et al., 2013,
Section 2).

The sizes are cut down so that the example runs in seconds (500 features instead of
20000, 30 samples per model instead of 10000, one error estimator); the curves are
therefore noisy, but their shapes are those of the paper.
``benchmarks/reproduce/yousefi_bias.py`` runs a larger version.
"""

# %%
# True and estimated errors of four rules
# ---------------------------------------
# A *classification rule* includes its feature selection: each rule below selects
# the 5 features with the largest Welch :math:`t`-statistics inside a pipeline, so
# the selection is redone on every cross-validation training part. On each of 30
# samples of :math:`n = 40` rows from a model, every rule is designed on the sample,
# its error is estimated by 5-fold cross-validation on the same sample, and its true
# error is measured on one test sample of 5000 rows from the model. Two models of
# :func:`~sklearn_bench.datasets.make_microarray` (equal and unequal class
# variances, Table 1 of the paper) serve as :math:`K = 2` data sets.
from functools import partial

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.feature_selection import SelectKBest
from sklearn.model_selection import StratifiedKFold
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline

from sklearn_bench.datasets import make_angle_classification, make_microarray
from sklearn_bench.estimators import DiagonalLDA, welch_t_score
from sklearn_bench.experiment import collect_rule_errors, unconditional_error
from sklearn_bench.plotting import plot_multiple_rule_bias

classifiers = {
    "DLDA": DiagonalLDA(),
    "NB": GaussianNB(),
    "3NN": KNeighborsClassifier(3),
    "LDA": LinearDiscriminantAnalysis(),
}
rules = {
    name: make_pipeline(SelectKBest(welch_t_score, k=5), clf)
    for name, clf in classifiers.items()
}
small = {"n_features": 500, "n_high_variance": 50}
models = {
    "equal var": partial(make_microarray, equal_variance=True, **small),
    "unequal var": partial(make_microarray, equal_variance=False, **small),
}
errors = collect_rule_errors(
    rules,
    models,
    n_train=40,
    n_samples=30,
    n_test=5000,
    error_estimators={"cv5": StratifiedKFold(5, shuffle=True)},
    random_state=0,
)
print("true_error:", errors.true_error.shape, "(rules, samples, data sets)")
print(
    "estimated_error:",
    errors.estimated_error.shape,
    "(rules, estimators, samples, data sets)",
)

# %%
# Each rule on its own is estimated without much bias: the mean of its 30
# cross-validation estimates is close to its expected true error (the mean of its
# 30 true errors), within the simulation noise of 30 samples.
means = pd.DataFrame(
    {
        (model, kind): values
        for k, model in enumerate(errors.datasets)
        for kind, values in [
            ("true", errors.true_error[:, :, k].mean(axis=1)),
            ("cv5", errors.estimated_error[:, 0, :, k].mean(axis=1)),
        ]
    },
    index=errors.rules,
)
print(means.round(3))

# %%
# The bias of the minimum
# -----------------------
# :meth:`~sklearn_bench.experiment.RuleErrors.multiple_rule_bias` passes the arrays
# to :func:`~sklearn_bench.stats.multiple_rule_bias`. For each number :math:`r` of
# rules (here :math:`m = r`, one estimator) it takes every collection of
# :math:`r` of the 4 rules, picks on each sample the rule with the smallest
# estimated error, and averages over samples and collections:
#
# * ``bias``: estimated minimum minus the expected true error of the chosen rule
#   (eqs. 2 and 4);
# * ``variance`` and ``rms``: the spread of that difference (eqs. 3 and 5);
# * ``comparative_bias``: how much the estimated advantage of the chosen rule over
#   the other :math:`r - 1` exceeds its true advantage (eqs. 6-7).
#
# With two data sets the result also holds the curves of each model alone, and the
# ``"average"`` curve of eqs. (9)-(10), where each rule's errors are first averaged
# over the two models and the minimum is taken afterwards.
res = errors.multiple_rule_bias()
columns = ["dataset", "m", "estimated_minimum", "true_of_chosen", "bias"]
columns += ["variance", "rms", "comparative_bias"]
with pd.option_context("display.width", 120, "display.max_columns", None):
    print(res.to_frame()[columns].round(4).to_string(index=False))

# %%
# How to read the curves
# ----------------------
# Panel (a) is the optimism of reporting the best of :math:`m` rules. At
# :math:`m = 1` there is no choice and the bias is only that of 5-fold
# cross-validation (plus the noise of 30 samples). It falls with every rule added,
# although no rule and no estimator changed: the minimum of several noisy estimates
# is pulled towards their low tail. The drop from :math:`m = 1` to :math:`m = 4`,
# not the level, is the multiple-rule bias.
#
# Panel (b) is the variance of the difference between the reported minimum and the
# true error of the chosen rule, panel (c) its root mean square. An RMS of about 0.1
# at :math:`n = 40` means that a single reported minimum is typically 0.1 away from
# the error the chosen rule really has -- the order of the paper's "even with
# :math:`m = 3`, the RMS is about 0.1" at :math:`n = 60`.
#
# Panel (d) compares the *advantage* of the chosen rule over the others, estimated
# against true; below zero, the winner is reported as better than the rest by more
# than it is.
#
# The black ``average`` line is the analysis across :math:`K = 2` data sets: the
# errors of each rule are averaged over the two models before the minimum is taken.
# Averaging halves the variance, so the RMS falls well below that of either model,
# and the bias falls less steeply with :math:`m` than for either model alone. The
# paper shows that with unbiased estimators the bias goes to zero as :math:`K` grows;
# two data sets only start that.
axes = plot_multiple_rule_bias(res)
axes[0].figure.suptitle("Multiple-rule bias, 4 rules, n = 40, 5-fold CV")
plt.show()

# %%
# The unconditional error of a method
# -----------------------------------
# The "true error" above is the error of one fitted classifier. A statement about a
# *method* -- LDA at sample size :math:`n` on the distribution :math:`P` -- is about
# its unconditional error :math:`\varepsilon(n, M, P)`, the expectation of that
# error over training samples of size :math:`n` (Boulesteix et al., 2013, Section 2).
# :func:`~sklearn_bench.experiment.unconditional_error` approximates it by fitting on
# :math:`B` training samples and averaging their errors on one large test sample;
# the standard error is that of the Monte Carlo average over the :math:`B` samples.
# On :func:`~sklearn_bench.datasets.make_angle_classification` with angle 90 both
# classes are Gaussian with equal covariance, LDA is the Bayes rule, and the Bayes
# error :math:`\Phi(-1/(2\sqrt{0.2})) \approx 0.132` is the limit for large
# :math:`n`.
from scipy.stats import norm

uncond = unconditional_error(
    {"LDA": LinearDiscriminantAnalysis(), "5NN": KNeighborsClassifier(5)},
    partial(make_angle_classification, angle=90),
    n_train=50,
    n_replicates=100,
    n_test=5000,
    random_state=0,
)
print(uncond.to_frame().round(4).to_string(index=False))
print(f"Bayes error: {norm.cdf(-1 / (2 * np.sqrt(0.2))):.4f}")

# %%
# ``uncond.errors`` holds the :math:`B` conditional errors. Their spread is the
# variability of the error of one fitted model around the unconditional error; the
# standard error of the mean, :math:`\mathrm{sd}/\sqrt{B}`, is much smaller.
fig, ax = plt.subplots(figsize=(6, 3.2), layout="constrained")
ax.boxplot(
    [uncond.errors[name] for name in uncond.learners],
    tick_labels=uncond.learners,
    orientation="horizontal",
)
ax.plot(uncond.estimate, np.arange(1, len(uncond.learners) + 1), "D", color="C3")
ax.axvline(norm.cdf(-1 / (2 * np.sqrt(0.2))), color="grey", ls=":", label="Bayes")
ax.set_xlabel("conditional error on the test sample, B = 100 training samples")
ax.set_title("Unconditional error (diamond) at n = 50, angle 90")
ax.legend(loc="lower right")
plt.show()
