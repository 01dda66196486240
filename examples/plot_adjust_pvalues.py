"""
Many pairs of classifiers: McNemar, Holm and intervals
======================================================

Berrar and Lozano (2013, Table 2) compare five fully specified classifiers on one
test set of :math:`n = 50` cases, ten pairs in all. For each pair, :math:`b` counts
the cases misclassified by the first model only and :math:`c` those misclassified by
the second only. This example reproduces their table with
:func:`~sklearn_bench.stats.error_rate_intervals` (McNemar's test with Yates'
correction, Holm's levels, Quesenberry--Hurst intervals), adjusts the p-values with
:func:`~sklearn_bench.stats.adjust_pvalues`, and draws the intervals of their
Figure 4.
"""

# %%
# The table
# ---------
# Each interval is for :math:`\mathrm{err}(i) - \mathrm{err}(j) = (b - c)/n`;
# negative values mean that the first model of the pair makes fewer errors. With
# Holm's adjustment the pair ranked :math:`k`-th by McNemar's statistic gets the
# level :math:`\alpha / (m - k + 1)`, and its interval uses the same level.
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from sklearn_bench.stats import adjust_pvalues, error_rate_intervals

pairs = ["(1, 4)", "(1, 3)", "(2, 4)", "(1, 5)", "(2, 3)"]
pairs += ["(2, 5)", "(4, 5)", "(1, 2)", "(3, 4)", "(3, 5)"]
b = [3, 1, 4, 4, 2, 4, 13, 0, 11, 14]
c = [21, 15, 20, 19, 14, 17, 10, 2, 15, 15]

holm = error_rate_intervals(b, c, 50, labels=pairs, adjust="holm")
unadjusted = error_rate_intervals(b, c, 50, labels=pairs, adjust="none")
with pd.option_context(
    "display.width",
    120,
    "display.max_columns",
    None,
    "display.float_format",
    "{:.4f}".format,
):
    print(holm)

# %%
# Row (4, 5) is misprinted in the paper (:math:`X^2 = 0.7`, :math:`p = 0.40`); from
# :math:`b = 13, c = 10` it is :math:`X^2 = 0.174`, :math:`p = 0.677`, which moves
# the pair from rank 7 to rank 9 and changes the levels of rows 7--9.
#
# Adjusted p-values
# -----------------
# The same step-down order gives Holm-adjusted p-values: a pair is significant at
# family-wise level :math:`\alpha` when its adjusted p-value is at most
# :math:`\alpha`. Hochberg's step-up procedure is more powerful but needs
# independence or positive dependence between the tests; Bonferroni's is the
# simplest and the least powerful.
p = holm["pvalue"]
adjusted = pd.DataFrame(
    {m: adjust_pvalues(p, adjust=m) for m in ("bonferroni", "holm", "hochberg")},
    index=holm.index,
)
adjusted.insert(0, "raw", p)
print(adjusted.round(4))

# %%
# Intervals, unadjusted and Holm-adjusted
# ---------------------------------------
# As in the paper's Figure 4: the adjustment widens every interval, but no interval
# changes side of zero. The pair with the smallest p-value, (1, 4), has one of the
# widest intervals; the narrowest belongs to (1, 2), which is not significant.
fig, ax = plt.subplots(figsize=(7, 4.2), layout="constrained")
y = np.arange(len(holm))[::-1]
u = unadjusted.loc[holm.index]
ax.hlines(y + 0.15, u["low"], u["high"], color="tab:blue", lw=2, label="95% interval")
ax.hlines(
    y - 0.15, holm["low"], holm["high"], color="tab:orange", lw=2, label="Holm-adjusted"
)
ax.plot(holm["estimate"], y, "k|", markersize=12, label="estimate (b - c)/n")
ax.axvline(0, color="grey", lw=0.8)
ax.set_yticks(y, holm.index)
ax.set_xlabel("difference of error rates, err(i) - err(j)")
ax.set_ylabel("pair (i, j)")
ax.legend(loc="lower left", fontsize="small")
ax.set_title("Quesenberry-Hurst intervals (Berrar and Lozano, 2013, Table 2)")
plt.show()
