"""Type I error of the tests taken over from autorank and mlxtend (issue 24).

Monte Carlo study under exact nulls, every rate with its Monte Carlo standard error
``sqrt(r (1 − r) / reps)``, at α = 0.05:

1. ``rm_anova`` (type I error) and ``tukey_hsd`` (family-wise error, FWER: at least
   one pair rejected) for the three designs, K = 5 learners, N = 10 and 30 blocks.
   Data: score[i, j] = b_i + ε_ij, b_i ~ N(0, σ_b²) with σ_b = 3 (data sets differ
   much more than learners, as in practice) and ε_ij ~ N(0, 1) (``normal``) or
   exponential minus 1 (``skewed``).
2. ``cochrans_q`` and Looney's F (``rm_anova`` of the 0/1 table) (type I error),
   K = 3 classifiers on n = 50 and 200 test cases. Null: on each case the K
   correctness indicators are exchangeable, drawn as Bernoulli(p_i) with a case
   difficulty p_i ~ Beta(2, 1) shared by the classifiers (cases differ,
   classifiers do not).
3. ``proportion_difference_test`` (two-sided): two accuracies with the same true
   p = 0.8, (a) from independent test sets of n = 100 (the test's assumption) and
   (b) from the same test set (two classifiers whose errors correlate through the
   case difficulty, as in 2): the test's level is wrong on paired data
   (Dietterich 1998) — it is conservative there, not invalid, because a positive
   correlation shrinks the variance of the difference.

Run from the repository root:
    PYTHONPATH=. python benchmarks/peer_tests_calibration.py [--reps 5000] [--seed 0]

The statistics are computed vectorised with the functions' formulas; the first
tables of every setting are checked against the functions themselves.

Measured (5000 replications, seed 0, about one minute on a busy 2-core machine;
MC SE 0.003): rm_anova 0.042-0.053; Tukey "blocks" 0.039-0.053 (at level);
Tukey "aligned" 0.091-0.111 (liberal: its K (N − 1) df and MSE underestimate the
residual variance by (K − 1)/K, so the statistic is inflated by sqrt(K/(K − 1)));
Tukey "independent" (autorank's) 0.000 (the data sets' spread swamps the MSE);
cochrans_q and Looney's F 0.048-0.054; proportion_difference_test 0.049
on independent test sets and 0.033 on one shared test set (wrong level).
"""

import argparse

import numpy as np
from scipy import stats

from sklearn_bench.stats import (
    cochrans_q,
    proportion_difference_test,
    rm_anova,
    tukey_hsd,
)

ALPHA = 0.05


def _fmt(hits, reps):
    r = hits / reps
    return f"{r:6.3f} ± {np.sqrt(r * (1 - r) / reps):.3f}"


def _anova_tukey_stats(tables):
    """Vectorised F of rm_anova and the largest Tukey statistic of each design."""
    reps, n, k = tables.shape
    grand = tables.mean(axis=(1, 2), keepdims=True)
    col = tables.mean(axis=1, keepdims=True)
    row = tables.mean(axis=2, keepdims=True)
    ss_l = n * np.sum((col - grand) ** 2, axis=(1, 2))
    ss_e = np.sum((tables - row - col + grand) ** 2, axis=(1, 2))
    ss_t = np.sum((tables - grand) ** 2, axis=(1, 2))
    df_b, df_a = (k - 1) * (n - 1), k * (n - 1)
    f = (ss_l / (k - 1)) / (ss_e / df_b)
    spread = np.ptp(col[:, 0, :], axis=1)  # largest |mean_i - mean_j|
    q = {
        "blocks": spread / np.sqrt(ss_e / df_b / n),
        "aligned": spread / np.sqrt(ss_e / df_a / n),
        "independent": spread / np.sqrt((ss_t - ss_l) / df_a / n),
    }
    return f, q


def anova_tukey(reps, rng, n_blocks, errors, k=5):
    if errors == "normal":
        eps = rng.normal(size=(reps, n_blocks, k))
    else:
        eps = rng.exponential(size=(reps, n_blocks, k)) - 1.0
    tables = 3.0 * rng.normal(size=(reps, n_blocks, 1)) + eps
    f, q = _anova_tukey_stats(tables)
    df_b, df_a = (k - 1) * (n_blocks - 1), k * (n_blocks - 1)
    f_pvalues = stats.f.sf(f, k - 1, df_b)
    q_crit = {
        "blocks": stats.studentized_range.ppf(1 - ALPHA, k, df_b),
        "aligned": stats.studentized_range.ppf(1 - ALPHA, k, df_a),
        "independent": stats.studentized_range.ppf(1 - ALPHA, k, df_a),
    }
    # the vectorised formulas are the functions' own, checked on the first tables
    for r in range(3):
        assert np.isclose(rm_anova(tables[r]).pvalue, f_pvalues[r], rtol=1e-9)
        for design in q:
            res = tukey_hsd(
                tables[r], design=design, alpha=ALPHA, greater_is_better=False
            )
            rejects = bool(res.to_frame()["reject"].any())
            assert rejects == (q[design][r] > q_crit[design])
    hits = {"rm_anova": int(np.sum(f_pvalues <= ALPHA))}
    for design in q:
        hits[design] = int(np.sum(q[design] > q_crit[design]))
    return hits


def _correctness(rng, n, k):
    difficulty = rng.beta(2.0, 1.0, size=(n, 1))
    return rng.random((n, k)) < difficulty


def classifiers(reps, rng, n, k=3):
    hits = {"cochrans_q": 0, "looney_f": 0}
    y = np.zeros(n, dtype=int)
    difficulty = rng.beta(2.0, 1.0, size=(reps, n, 1))
    x = (rng.random((reps, n, k)) < difficulty).astype(float)
    g = x.sum(axis=1)
    t = g.sum(axis=1)
    num = (k - 1) * (k * np.sum(g**2, axis=1) - t**2)
    den = k * t - np.sum(x.sum(axis=2) ** 2, axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        q_pvalues = np.where(num == 0, 1.0, stats.chi2.sf(num / den, k - 1))
    f, _ = _anova_tukey_stats(x)
    with np.errstate(invalid="ignore"):
        f_pvalues = np.where(np.isnan(f), 1.0, stats.f.sf(f, k - 1, (k - 1) * (n - 1)))
    for r in range(3):
        preds = np.where(x[r] == 1, 0, 1)
        assert np.isclose(cochrans_q(y, preds).pvalue, q_pvalues[r], rtol=1e-9)
        looney = rm_anova((preds == y[:, None]).astype(float))  # Looney's F
        assert np.isclose(looney.pvalue, f_pvalues[r], rtol=1e-9)
    hits["cochrans_q"] = int(np.sum(q_pvalues <= ALPHA))
    hits["looney_f"] = int(np.sum(f_pvalues <= ALPHA))
    return hits


def proportions(reps, rng, n=100):
    hits = {"independent test sets": 0, "same test set": 0}
    for _ in range(reps):
        a, b = rng.random(n) < 0.8, rng.random(n) < 0.8
        res = proportion_difference_test(a.mean(), b.mean(), n)
        hits["independent test sets"] += res.pvalue <= ALPHA
        # correlated through a shared case difficulty, Beta(4, 1) of mean 0.8
        difficulty = rng.beta(4.0, 1.0, size=(n, 1))
        correct = rng.random((n, 2)) < difficulty
        res = proportion_difference_test(correct[:, 0].mean(), correct[:, 1].mean(), n)
        hits["same test set"] += res.pvalue <= ALPHA
    return hits


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    reps = args.reps
    print(f"Type I error / FWER at alpha = {ALPHA}, {reps} replications, seed "
          f"{args.seed}; rate ± Monte Carlo SE")  # fmt: skip
    print("\n1. rm_anova and tukey_hsd, K = 5 learners, block SD 3")
    print(f"{'errors':8} {'N':>4}  {'rm_anova':>14}  {'tukey blocks':>14}  "
          f"{'tukey aligned':>14}  {'tukey indep.':>14}")  # fmt: skip
    for errors in ("normal", "skewed"):
        for n_blocks in (10, 30):
            h = anova_tukey(reps, rng, n_blocks, errors)
            print(f"{errors:8} {n_blocks:>4}  {_fmt(h['rm_anova'], reps):>14}  "
                  f"{_fmt(h['blocks'], reps):>14}  {_fmt(h['aligned'], reps):>14}  "
                  f"{_fmt(h['independent'], reps):>14}")  # fmt: skip
    print("\n2. cochrans_q and Looney's F, K = 3 classifiers")
    print(f"{'n':>5}  {'cochrans_q':>14}  {'looney_f':>14}")
    for n in (50, 200):
        h = classifiers(reps, rng, n)
        print(f"{n:>5}  {_fmt(h['cochrans_q'], reps):>14}  "
              f"{_fmt(h['looney_f'], reps):>14}")  # fmt: skip
    print("\n3. proportion_difference_test, p = 0.8, n = 100, two-sided")
    h = proportions(reps, rng)
    for name, hit in h.items():
        print(f"{name:24} {_fmt(hit, reps)}")


if __name__ == "__main__":
    main()
