r"""
Simulation, competition and real world
======================================

Hothorn et al. (2005, Section 3.2) distinguish three problems by what is known about
the data generating process (DGP). This example compares a classification tree with
linear discriminant analysis on their angle problem (Section 5.2, :math:`\gamma =
30` degrees, :math:`n = 200`) in all three:

- **simulation**: the DGP is known; each replicate is a fresh learning sample, and
  the error is measured on one large test sample (:math:`m = 5000`);
- **competition**: one learning sample and one fixed test sample of :math:`m = 200`;
  the learning sample is bootstrapped and every model is scored on the test sample;
- **real world**: one learning sample only; it is bootstrapped, and every model is
  scored on its out-of-bootstrap rows (RW-OOB).

With plain scikit-learn the three differ only in where the learning samples come
from and where the models are scored.
"""

# %%
# One replicate = one learning sample, shared by both learners
# ------------------------------------------------------------
import matplotlib.pyplot as plt
import numpy as np
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench.datasets import make_angle_classification
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.stats import paired_test

learners = {
    "tree": DecisionTreeClassifier(random_state=0),
    "lda": LinearDiscriminantAnalysis(),
}
B, n, angle = 100, 200, 30


def difference(X_train, y_train, X_test, y_test):
    """Error of the tree minus error of LDA, both fitted on the same sample."""
    err = {
        name: np.mean(clone(est).fit(X_train, y_train).predict(X_test) != y_test)
        for name, est in learners.items()
    }
    return err["tree"] - err["lda"]


# simulation: fresh learning samples, one large test sample
X_big, y_big = make_angle_classification(5000, angle, random_state=1)
rng = np.random.default_rng(0)
d_simulation = np.array(
    [
        difference(
            *make_angle_classification(n, angle, random_state=seed), X_big, y_big
        )
        for seed in rng.integers(2**31, size=B)
    ]
)

# one learning sample L for the other two problems
X, y = make_angle_classification(n, angle, random_state=2)
bootstrap = BootstrapOOB(n_bootstraps=B, random_state=0)

# competition: bootstrap L, score on a fixed test sample T (three different T)
d_competition = {}
for t in range(3):
    X_t, y_t = make_angle_classification(n, angle, random_state=10 + t)
    d_competition[f"competition, T{t + 1}"] = np.array(
        [difference(X[tr], y[tr], X_t, y_t) for tr, _ in bootstrap.split(X, y)]
    )

# real world: bootstrap L, score out of bootstrap
d_oob = np.array(
    [difference(X[tr], y[tr], X[te], y[te]) for tr, te in bootstrap.split(X, y)]
)

# %%
# Intervals for the mean difference
# ---------------------------------
# Each interval is conditional on what its problem holds fixed. The simulation
# interval is about the DGP itself. Each competition interval is about one
# particular test sample: the three test samples were drawn from the same DGP, yet
# their intervals need not agree, and "we may favour algorithms that perform well
# on that particular test sample but worse on other test samples just by chance".
# The real-world interval is about learning samples drawn from this one learning
# sample, with the out-of-bootstrap performance measure.
problems = {"simulation": d_simulation, **d_competition, "real world (RW-OOB)": d_oob}
for name, d in problems.items():
    res = paired_test(d, np.zeros_like(d))  # one-sample t-test of the differences
    ci = res.confidence_interval(0.95)
    print(
        f"{name:>22}: mean {res.estimate:+.4f}, 95% CI [{ci.low:+.4f}, {ci.high:+.4f}]"
    )

# %%
# The distributions of the per-replicate differences (positive: LDA has the lower
# error).
# With 100 replicates each interval is narrow, but only the simulation problem
# answers a question about the learners on this DGP; the others answer questions
# about one sample.
fig, ax = plt.subplots(figsize=(7, 3.6), layout="constrained")
ax.boxplot(
    list(problems.values()), orientation="horizontal", tick_labels=list(problems)
)
ax.axvline(0, color="grey", lw=0.8)
ax.invert_yaxis()
ax.set_xlabel("error(tree) - error(LDA) per replicate")
ax.set_title("Angle problem, 30 degrees, n = 200")
plt.show()
