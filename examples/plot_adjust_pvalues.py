"""
Many pairs of classifiers: McNemar and Holm
===========================================

Berrar and Lozano (2013, Table 2) compare five fully specified classifiers on one
test set of :math:`n = 50` cases, ten pairs in all. For each pair, :math:`b` counts
the cases misclassified by the first model only and :math:`c` those misclassified by
the second only. This example computes McNemar's statistic with Yates' correction,
:math:`X^2 = (|b - c| - 1)^2 / (b + c)`, and adjusts the ten p-values for multiple
testing with :func:`~sklearn_bench.stats.adjust_pvalues`.
"""

# %%
# McNemar's test for each pair
# ----------------------------
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from scipy import stats

from sklearn_bench.stats import adjust_pvalues

table = pd.DataFrame(
    [
        ("(1, 4)", 3, 21),
        ("(1, 3)", 1, 15),
        ("(2, 4)", 4, 20),
        ("(1, 5)", 4, 19),
        ("(2, 3)", 2, 14),
        ("(2, 5)", 4, 17),
        ("(4, 5)", 13, 10),
        ("(1, 2)", 0, 2),
        ("(3, 4)", 11, 15),
        ("(3, 5)", 14, 15),
    ],
    columns=["pair", "b", "c"],
).set_index("pair")
b, c = table["b"].to_numpy(), table["c"].to_numpy()
table["X2"] = np.maximum(np.abs(b - c) - 1, 0) ** 2 / (b + c)
table["p"] = stats.chi2.sf(table["X2"], df=1)

# %%
# Row (4, 5) is misprinted in the paper (:math:`X^2 = 0.7`, :math:`p = 0.40`); from
# :math:`b = 13, c = 10` it is :math:`X^2 = 0.174`, :math:`p = 0.677`.
#
# Adjusted p-values
# -----------------
# Holm's step-down procedure controls the family-wise error rate under any
# dependence between the tests; Hochberg's step-up procedure is more powerful but
# needs independence or positive dependence. A hypothesis is rejected at level
# :math:`\alpha` when its adjusted p-value is at most :math:`\alpha`.
for method in ("bonferroni", "holm", "hochberg"):
    table[method] = adjust_pvalues(table["p"], method=method)
with pd.option_context("display.float_format", "{:.4f}".format):
    print(table)

# %%
# Holm's adjusted p-value of the :math:`i`-th smallest p-value is the running
# maximum of :math:`(m - i + 1)\,p_{(i)}`. The same levels
# :math:`\alpha / (m - i + 1)` give the Holm-adjusted confidence intervals of the
# paper's Figure 4 (see the user guide, "Confidence intervals before p-values").
# The six pairs that are significant unadjusted stay significant after Holm's
# (and Hochberg's) adjustment; Bonferroni's loses (2, 3) and (2, 5).
fig, ax = plt.subplots(figsize=(7, 3.8), layout="constrained")
x = np.arange(len(table))
for offset, column, marker in [
    (-0.2, "p", "o"),
    (0.0, "holm", "s"),
    (0.2, "hochberg", "^"),
]:
    label = "raw p" if column == "p" else column
    ax.scatter(x + offset, table[column], marker=marker, label=label, zorder=3)
ax.axhline(0.05, color="grey", lw=0.8, ls="--", label="0.05")
ax.set_yscale("log")
ax.set_xticks(x, table.index, rotation=45)
ax.set_xlabel("pair of models")
ax.set_ylabel("p-value")
ax.legend(ncols=4, loc="lower right")
ax.set_title("Raw and adjusted McNemar p-values (Berrar and Lozano, 2013, Table 2)")
plt.show()
