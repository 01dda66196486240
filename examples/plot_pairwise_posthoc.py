"""
Pairwise post-hoc tests: Wilcoxon with Holm, Shaffer and Bergmann–Hommel
========================================================================

Nemenyi's test compares average ranks, so its verdict on two learners depends on the
other learners in the study (Benavoli, Corani & Mangili 2016). Testing each pair on
its own two columns -- a Wilcoxon signed-rank test over the data sets -- and
adjusting the p-values for the number of pairs does not have that problem. Shaffer's
and Bergmann & Hommel's corrections use the logical relations among pairwise
hypotheses and reject more than Holm's (García & Herrera 2008).

We simulate error rates of five learners on 25 data sets, test every pair, and draw
the CD-style diagram whose bars come from the significance matrix.
"""

# %%
# Simulated error rates
# ---------------------
# A data set effect (some problems are harder), a learner effect and noise. "A" and
# "B" are equally good, "C" is a little worse, "D" and "E" clearly worse.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sklearn_bench.plotting import plot_critical_difference, plot_pairwise_significance
from sklearn_bench.stats import friedman_test, pairwise_tests

rng = np.random.default_rng(7)
n_datasets = 25
learner_effect = {"A": 0.0, "B": 0.0, "C": 0.012, "D": 0.03, "E": 0.032}
difficulty = rng.uniform(0.05, 0.3, size=(n_datasets, 1))
errors = pd.DataFrame(
    difficulty
    + np.array(list(learner_effect.values()))
    + rng.normal(0, 0.012, (n_datasets, 5)),
    columns=list(learner_effect),
    index=[f"data set {i}" for i in range(n_datasets)],
)

# %%
# Every pair, three corrections
# -----------------------------
# The raw p-values are the same for the three corrections; only the adjustment
# differs. The effect size is the matched-pairs rank-biserial correlation.
tables = {}
for adjust in ("holm", "shaffer", "bergmann_hommel"):
    res = pairwise_tests(errors, adjust=adjust, alpha=0.05, greater_is_better=False)
    tables[adjust] = res.to_frame().set_index(["learner_i", "learner_j"])
summary = tables["holm"][["n", "estimate", "pvalue", "effect_size"]].copy()
for adjust, frame in tables.items():
    summary[f"p {adjust}"] = frame["pvalue_adjusted"]
print(summary.round(4).to_string())

# %%
# The diagrams
# ------------
# Left, Nemenyi's critical difference on the average ranks; right, the bars of the
# Bergmann–Hommel-corrected pairwise Wilcoxon tests. A bar joins learners, adjacent
# in rank, no two of which differ significantly.
fig, axes = plt.subplots(2, 1, figsize=(6.5, 4.2))
plot_critical_difference(friedman_test(errors, greater_is_better=False), ax=axes[0])
axes[0].set_title("Nemenyi critical difference", fontsize=10)
plot_pairwise_significance(
    pairwise_tests(errors, adjust="bergmann_hommel", greater_is_better=False),
    ax=axes[1],
)
axes[1].set_title("pairwise Wilcoxon, Bergmann–Hommel", fontsize=10)
fig.tight_layout()
plt.show()

# %%
# Adding a learner
# ----------------
# A sixth learner that is the best on most data sets changes every average rank, and
# with it Nemenyi's p-value for A versus C; the Wilcoxon p-value of A versus C is
# computed from A and C alone and does not move.
more = errors.assign(F=errors["A"] - 0.02 + rng.normal(0, 0.005, n_datasets))
for name, table in (("5 learners", errors), ("6 learners", more)):
    nemenyi = (
        friedman_test(table, greater_is_better=False)
        .posthoc(method="nemenyi")
        .to_frame()
        .set_index(["learner_i", "learner_j"])
    )
    wilcoxon = pairwise_tests(table, adjust="none", greater_is_better=False).to_frame()
    wilcoxon = wilcoxon.set_index(["learner_i", "learner_j"])
    print(
        f"{name}: A vs C  Nemenyi p = {nemenyi.loc[('A', 'C'), 'pvalue_adjusted']:.4f},"
        f"  Wilcoxon raw p = {wilcoxon.loc[('A', 'C'), 'pvalue']:.4f}"
    )
