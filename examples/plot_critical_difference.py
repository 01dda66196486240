"""
Critical difference diagrams
============================

Demšar (2006) compares learners over many data sets by their average ranks: the
Friedman test asks whether the learners differ at all, and the Nemenyi test which
pairs differ. The critical difference (CD) diagram shows both at once: an axis of
average ranks (1 = best, on the left), each learner at its average rank, and a thick
bar joining every maximal group of learners whose average ranks differ by less than
the critical difference, i.e. learners that are not significantly different.

We draw it for two published tables: Demšar's Table 6 (AUC of four C4.5 variants on
14 data sets, higher is better) and a table of Riddle's lecture slides (error
rates of four C4.5 variants on 33 data sets, after Dietterich 2000; lower is
better). The tables are embedded below so that the example runs anywhere.
"""

# %%
# Demšar's Table 6
# ----------------
# AUC as printed (three decimals). Note the trap on "voting": C4.5+cf and C4.5+m+cf
# both print as 0.975, so here they tie at rank 2.5, while the paper ranked the
# unrounded values 2 and 3. The average ranks are therefore 2.929 and 1.929 instead
# of the published 2.893 and 1.964.
import matplotlib.pyplot as plt
import pandas as pd

from sklearn_bench.plotting import plot_critical_difference
from sklearn_bench.stats import friedman_test

auc = pd.DataFrame.from_records(
    [
        ("adult(sample)", 0.763, 0.768, 0.771, 0.798),
        ("breast cancer", 0.599, 0.591, 0.590, 0.569),
        ("breast cancer wisconsin", 0.954, 0.971, 0.968, 0.967),
        ("cmc", 0.628, 0.661, 0.654, 0.657),
        ("ionosphere", 0.882, 0.888, 0.886, 0.898),
        ("iris", 0.936, 0.931, 0.916, 0.931),
        ("liver disorders", 0.661, 0.668, 0.609, 0.685),
        ("lung cancer", 0.583, 0.583, 0.563, 0.625),
        ("lymphography", 0.775, 0.838, 0.866, 0.875),
        ("mushroom", 1.000, 1.000, 1.000, 1.000),
        ("primary tumor", 0.940, 0.962, 0.965, 0.962),
        ("rheum", 0.619, 0.666, 0.614, 0.669),
        ("voting", 0.972, 0.981, 0.975, 0.975),
        ("wine", 0.957, 0.978, 0.946, 0.970),
    ],
    columns=["dataset", "C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"],
).set_index("dataset")

demsar = friedman_test(auc, greater_is_better=True)
print(demsar.average_ranks.round(3))
print(
    f"Friedman chi2 = {demsar.statistic:.3f} "
    f"(p = {demsar.pvalue:.4f}, {demsar.null_distribution}), "
    f"Iman-Davenport F = {demsar.iman_davenport_statistic:.3f} "
    f"(p = {demsar.iman_davenport_pvalue:.4f})"
)
print(f"Nemenyi CD at alpha = 0.10: {demsar.critical_difference(alpha=0.10):.3f}")

# %%
# Demšar draws his diagram at alpha = 0.10 (CD = 1.12). C4.5 is worse than C4.5+m
# (by 1.14 average ranks) and than C4.5+m+cf (1.21): those pairs are not joined.
# The three variants C4.5+m+cf, C4.5+m and C4.5+cf form one group, C4.5+cf and
# C4.5 another; each maximal group gets exactly one bar.
ax = plot_critical_difference(demsar, alpha=0.10)
ax.set_title("Demšar (2006), Table 6: AUC, Nemenyi test at alpha = 0.10")
plt.show()

# %%
# Holm's step-down test against C4.5 (the control) is more powerful than Nemenyi's
# all-pairs test: it finds C4.5+m and C4.5+m+cf better than C4.5 at 0.05.
print(demsar.posthoc(method="holm", control="C4.5").to_frame().round(4).to_string())

# %%
# Dietterich (2000): C4.5, randomized, bagged and boosted C4.5 on 33 data sets
# ----------------------------------------------------------------------------
# Error rates, so lower is better (the default ``greater_is_better=False``).
errors = pd.DataFrame.from_records(
    [
        ("sonar", 0.3257, 0.2018, 0.2752, 0.1651),
        ("letter", 0.1225, 0.0285, 0.0552, 0.0271),
        ("splice", 0.0575, 0.0397, 0.0506, 0.0503),
        ("segment", 0.0328, 0.0203, 0.0263, 0.0151),
        ("glass", 0.3437, 0.2277, 0.2723, 0.2277),
        ("soybean", 0.1262, 0.0852, 0.1009, 0.0757),
        ("autos", 0.2326, 0.1581, 0.1814, 0.1814),
        ("satimage", 0.1515, 0.0890, 0.1020, 0.0850),
        ("annealing", 0.0132, 0.0088, 0.0099, 0.0055),
        ("krk", 0.1887, 0.1309, 0.1463, 0.1026),
        ("heart-v", 0.2762, 0.2429, 0.2619, 0.2810),
        ("heart-c", 0.2396, 0.1853, 0.1981, 0.2045),
        ("breast-y", 0.2601, 0.2500, 0.2635, 0.3142),
        ("phoneme", 0.1661, 0.1437, 0.1509, 0.1464),
        ("voting", 0.1146, 0.0921, 0.0966, 0.1034),
        ("vehicle", 0.2944, 0.2477, 0.2570, 0.2196),
        ("lymph", 0.1962, 0.1772, 0.1835, 0.1266),
        ("breast-w", 0.0494, 0.0353, 0.0367, 0.0310),
        ("credit-g", 0.2921, 0.2416, 0.2495, 0.2347),
        ("primary", 0.5845, 0.5501, 0.5645, 0.5960),
        ("shuttle", 0.0003, 0.0002, 0.0002, 0.0001),
        ("heart-s", 0.0677, 0.0677, 0.0677, 0.0902),
        ("iris", 0.0563, 0.0500, 0.0500, 0.0688),
        ("sick", 0.0132, 0.0137, 0.0137, 0.0095),
        ("hepatitis", 0.1758, 0.1636, 0.1636, 0.1636),
        ("credit-a", 0.1614, 0.1400, 0.1371, 0.1300),
        ("waveform", 0.2341, 0.1784, 0.1675, 0.1521),
        ("horse-colic", 0.1561, 0.1561, 0.1481, 0.1825),
        ("heart-h", 0.1645, 0.1809, 0.1579, 0.2039),
        ("labor", 0.1493, 0.1493, 0.1194, 0.1194),
        ("krkp", 0.0075, 0.0075, 0.0056, 0.0037),
        ("audiology", 0.2203, 0.2458, 0.1822, 0.1525),
        ("hypo", 0.0058, 0.0079, 0.0042, 0.0040),
    ],
    columns=["dataset", "C4.5", "Randomized C4.5", "Bagged C4.5", "Adaboosted C4.5"],
).set_index("dataset")

riddle = friedman_test(errors, greater_is_better=False)
print(riddle.average_ranks.round(3))
print(
    f"Friedman chi2 = {riddle.statistic:.3f} "
    f"(p = {riddle.pvalue:.2g}, {riddle.null_distribution}), "
    f"Iman-Davenport F = {riddle.iman_davenport_statistic:.3f} "
    f"(p = {riddle.iman_davenport_pvalue:.2g})"
)

# %%
# At alpha = 0.05 the CD is 0.82 average ranks. Plain C4.5 (3.53) is significantly
# worse than each ensemble; randomized, bagged and boosted C4.5 (1.92 to 2.44) are
# one group: these 33 data sets do not tell them apart.
ax = plot_critical_difference(riddle, alpha=0.05)
ax.set_title("Dietterich (2000): error of C4.5 variants, Nemenyi test at alpha = 0.05")
plt.show()

# %%
# All pairs with Nemenyi-adjusted p-values: the pairs joined by a bar above are
# exactly those with an adjusted p-value above 0.05.
print(riddle.posthoc(method="nemenyi").to_frame().round(4).to_string())
