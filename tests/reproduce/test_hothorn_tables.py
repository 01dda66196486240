"""Scaled-down reproductions of Hothorn et al. (2005), Tables 1 and 2.

The fast closed-form fits of ``benchmarks/reproduce`` are checked against the
generic path (scikit-learn estimators on the package's splitters), and a few
replications check properties the tables must have.
"""

import shutil
import sys
from pathlib import Path

import numpy as np
import pytest
from numpy.testing import assert_allclose, assert_array_equal
from scipy import stats
from sklearn.base import clone
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LinearRegression

from sklearn_bench.datasets import make_angle_classification, make_nested_linear
from sklearn_bench.model_selection import BootstrapOOB

sys.path.insert(
    0, str(Path(__file__).resolve().parents[2] / "benchmarks" / "reproduce")
)

import _hothorn  # noqa: E402
import hothorn_table1  # noqa: E402
import hothorn_table2  # noqa: E402


def _oob_splits(n, n_boot, seed):
    X = np.zeros((n, 1))
    return list(BootstrapOOB(n_bootstraps=n_boot, random_state=seed).split(X))


def test_least_squares_matches_sklearn_on_bootstrap_oob():
    """H: batched least squares equals LinearRegression on BootstrapOOB samples."""
    # Details: the batched weighted least squares of Table 1 gives the out-of-
    # bootstrap MSE of sklearn's LinearRegression fitted on each BootstrapOOB
    # sample.
    X, y = make_nested_linear(60, 0.1, random_state=0)
    x = X[:, 0]
    splits = _oob_splits(60, 4, 1)
    counts = np.array([np.bincount(tr, minlength=60) for tr, _ in splits], float)
    mask = np.array([np.isin(np.arange(60), te) for _, te in splits])
    for quadratic, intercept in [
        (False, True),
        (True, True),
        (False, False),
        (True, False),
    ]:
        fast = hothorn_table1.wls_mse(
            x, y, counts, x, y, mask, quadratic=quadratic, intercept=intercept
        )
        feats = np.column_stack([x, x**2]) if quadratic else x[:, None]
        model = LinearRegression(fit_intercept=intercept)
        slow = [
            np.mean(
                (y[te] - clone(model).fit(feats[tr], y[tr]).predict(feats[te])) ** 2
            )
            for tr, te in splits
        ]
        assert_allclose(fast, slow, rtol=1e-9)


def test_cv_weights_equal_bootstrap_cv():
    """H: the RW-CV counts and masks are BootstrapCV's splits."""
    # Details: the training counts / validation masks of RW-CV are BootstrapCV's
    # splits (same draws from the same seed).
    X = np.zeros((40, 1))
    fast = _hothorn.cv_weights(np.random.RandomState(3), 6, 40)
    slow = _hothorn.cv_weights_from_splitter(X, 6, 3)
    assert_array_equal(fast[0], slow[0])
    assert_array_equal(fast[1], slow[1])


def test_lda_matches_sklearn():
    """H: the closed-form LDA makes sklearn LDA's out-of-bootstrap errors."""
    # Details: the closed-form LDA of Table 2 makes sklearn
    # LinearDiscriminantAnalysis's errors on bootstrap samples (out-of-bootstrap
    # rows).
    X, y = make_angle_classification(80, 30, random_state=0)
    splits = _oob_splits(80, 5, 2)
    counts = np.array([np.bincount(tr, minlength=80) for tr, _ in splits], float)
    mask = np.array([np.isin(np.arange(80), te) for _, te in splits])
    fast = hothorn_table2.lda_errors(X, y, counts, X, y, mask)
    slow = [
        np.mean(LinearDiscriminantAnalysis().fit(X[tr], y[tr]).predict(X[te]) != y[te])
        for tr, te in splits
    ]
    assert_allclose(fast, slow, rtol=1e-12)


def test_tree_errors_match_fit_on_bootstrap_sample():
    """H: the fast tree path equals fit/predict on each bootstrap sample."""
    # Details: the fast tree path equals DecisionTreeClassifier.fit/predict on the
    # rows of each bootstrap sample.
    X, y = make_angle_classification(80, 10, random_state=1)
    splits = _oob_splits(80, 3, 3)
    counts = np.array([np.bincount(tr, minlength=80) for tr, _ in splits], float)
    mask = np.array([np.isin(np.arange(80), te) for _, te in splits])
    fast = hothorn_table2.tree_errors(X, y, counts, X, y, mask)
    slow = [
        np.mean(
            hothorn_table2.tree().fit(X[np.sort(tr)], y[np.sort(tr)]).predict(X[te])
            != y[te]
        )
        for tr, te in splits
    ]
    assert_allclose(fast, slow, rtol=1e-12)


def test_rejection_uses_statistic_2():
    """H: the decision is statistic (2) (scipy's paired t) against z_{0.95}."""
    rng = np.random.default_rng(0)
    p1 = rng.normal(0.11, 0.05, size=250)
    p2 = rng.normal(0.10, 0.05, size=250)
    t = stats.ttest_rel(p1, p2).statistic
    assert _hothorn.one_sided_rejection(p1, p2, 0.05) == (t > stats.norm.ppf(0.95))


def test_mc_standard_error_never_zero():
    """H: the Agresti-Coull standard error is positive at 0 and n rejections."""
    # (0 + 2)/(100 + 4) = 0.01923; sqrt(0.01923 * 0.98077 / 100) = 0.01373
    assert_allclose(_hothorn.mc_standard_error(0, 100), 0.013734, rtol=1e-4)
    assert_allclose(_hothorn.mc_standard_error(100, 100), 0.013734, rtol=1e-4)


def test_table1_replication_is_deterministic():
    """H: one Monte Carlo replication depends only on (seed, beta2, rep)."""
    a = hothorn_table1.replication(0.06, 3, seed=1, n_boot=50)
    b = hothorn_table1.replication(0.06, 3, seed=1, n_boot=50)
    assert a == b and set(a) == set(_hothorn.COLUMNS)


def test_table1_size_and_power_scaled_down():
    """H: real-world tests hold alpha at beta2 = 0 and reject at beta2 = 0.16."""
    # Details: at beta2 = 0 the real-world tests reject at about alpha (paper:
    # 0.054, 0.059, 0.054), the simulation test with m = 2000 never; at beta2 =
    # 0.16 all real-world tests reject almost always (paper: 1.000).
    n_rep = 40
    counts = hothorn_table1.rejection_counts([0.0, 0.16], n_rep, seed=7, chunk=n_rep)
    real_world = ["oob", "oob_2n", "cv"]
    # 120 pooled tests at beta2 = 0: for a true rate of 0.06 the count is
    # Binomial(120, 0.06), mean 7.2, sd 2.6; 3 sd above is 15.
    pooled_null = sum(counts[0.0][c] for c in real_world)
    assert pooled_null <= 15
    # a1 is much better at beta2 = 0 with a large test sample: paper 0.000
    assert counts[0.0]["sim_large"] <= 1
    # beta2 = 0.16: paper 1.000 for the real-world tests; a true power of 0.99
    # gives at most 2 failures in 40 with probability 0.992
    for c in real_world:
        assert counts[0.16][c] >= n_rep - 2, c


def test_table2_scaled_down():
    """H: at 50 degrees LDA's superiority is detected (sim m large, RW-OOB)."""
    # Details: at 50 degrees LDA's superiority is detected with a large test
    # sample (paper 1.000) and in RW-OOB (paper 0.938); B and the replications
    # reduced.
    n_rep = 4
    rej = [
        hothorn_table2.replication(
            50, r, seed=3, n_boot=60, columns=["sim_large", "oob"], m_large=1000
        )
        for r in range(n_rep)
    ]
    # sim: the LDA-tree error gap at 50 degrees is ~0.03 with sd ~0.02 over
    # learning samples, so t ~ 0.03/0.02 * sqrt(60) ~ 11: always rejected.
    assert all(r["sim_large"] for r in rej)
    assert sum(r["oob"] for r in rej) >= n_rep - 1


@pytest.mark.parametrize("column", ["bad"])
def test_unknown_column(column):
    """H: an unknown column name is a ValueError."""
    with pytest.raises(ValueError, match="unknown column"):
        hothorn_table1.performances(column, 0.0, np.random.RandomState(0))


def test_rpart_path_replays_the_very_same_samples(monkeypatch):
    """H: the two-pass rpart path hands every recorded sample back in order:
    with scikit-learn's tree standing in for R it equals the sklearn path."""
    # Details: RpartBatch.run is replaced by a fit of tree_errors on the
    # recorded tasks, so no R is needed; equal rejections and mean error
    # differences show that record/replay keep the samples and their order.

    def fake_run(self):
        self.results = [hothorn_table2.tree_errors(*task) for task in self.tasks]

    monkeypatch.setattr(hothorn_table2.RpartBatch, "run", fake_run)
    opts = {"seed": 5, "n_boot": 6, "m_large": 100}
    via_batch = hothorn_table2.replication(20, 0, learner="rpart", **opts)
    direct = hothorn_table2.replication(20, 0, learner="sklearn", **opts)
    assert via_batch == direct
    with pytest.raises(ValueError, match="`learner`"):
        hothorn_table2.replication(20, 0, learner="cart", **opts)


@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs R (rpart)")
def test_rpart_batch_fits_r(tmp_path):
    """H: rpart_errors.R reads the tasks and returns one error per fit: 0 on a
    sample separated by x1 > 0, and the out-of-sample error on masked rows."""
    rng = np.random.RandomState(0)
    X = rng.normal(size=(60, 2))
    y = (X[:, 0] > 0).astype(int)
    counts = np.ones((3, 60))
    mask = np.zeros((3, 60), dtype=bool)
    mask[:, :30] = True
    batch = hothorn_table2.RpartBatch()
    batch.record(X, y, counts, X, y)
    batch.record(X, y, counts, X, y, mask)
    batch.run()
    assert [r.shape for r in batch.results] == [(3,), (3,)]
    assert_allclose(batch.results[0], 0.0)
    assert_allclose(batch.results[1], 0.0)
