"""Simultaneous coverage of the pairwise intervals shown beside Holm-adjusted tests.

Run from the repository root:
``PYTHONPATH=. python benchmarks/simultaneous_coverage.py [N_STUDIES]`` (about a
minute at the default 2000 studies per configuration).

Each simulated study is what the report's primary analysis sees: ``k`` learners
on ``J`` data sets, one mean performance per learner and data set, made of a
data-set level (shared by the learners), a learner effect and heteroscedastic
noise (each data set has its own noise scale). Every pair ``a − b`` of the
``m = k (k − 1) / 2`` pairs gets the paired t over the data sets (estimate,
standard error, ``J − 1`` df), as ``BenchmarkResult.paired_test`` computes it.
Per configuration the script prints, over ``N_STUDIES`` studies:

- the simultaneous coverage (all ``m`` true differences inside their intervals
  at once) of the Bonferroni intervals the report shows (each at ``1 − α/m``),
  of the Strassburger & Bretz (2008) bounds compatible with Holm
  (:func:`~sklearn_bench.stats.simultaneous_intervals` with
  ``adjust="holm"``) and, for comparison, of the intervals the report showed
  before ("at Holm's level" ``α/(m − r + 1)`` for the ``r``-th smallest p,
  every row), and of the unadjusted 95% intervals;
- contradictions: intervals that exclude 0 beside a Holm-adjusted p above α
  (must be 0 for the two compatible constructions);
- the share of Holm rejections whose Bonferroni interval still covers 0 (where
  Bonferroni is more conservative than Holm: no contradiction, a wider interval).

The null configuration has every learner effect 0 (every pair's difference is 0);
the non-null one spreads the effects (0, 0.01, 0.02, 0.04, 0.08), so some pairs
differ by much, some by little. Coverage should be at least 0.95; its Monte Carlo
standard error is about sqrt(0.95 · 0.05 / N) = 0.005 at N = 2000.
"""

import sys
from itertools import combinations

import numpy as np
from scipy import stats

from sklearn_bench.stats import adjust_pvalues, simultaneous_intervals

ALPHA = 0.05
CONFIGURATIONS = {
    "null, 5 learners x 8 data sets": ((0.0, 0.0, 0.0, 0.0, 0.0), 8),
    "non-null, 5 learners x 8 data sets": ((0.0, 0.01, 0.02, 0.04, 0.08), 8),
    "null, 3 learners x 8 data sets": ((0.0, 0.0, 0.0), 8),
    "non-null, 3 learners x 8 data sets": ((0.0, 0.02, 0.03), 8),
}


def _study(rng, effects, n_datasets):
    """Mean performances (J × k): level + learner effect + noise."""
    level = rng.uniform(0.1, 0.3, n_datasets)[:, None]
    scale = rng.uniform(0.01, 0.04, n_datasets)[:, None]  # heteroscedastic
    noise = scale * rng.standard_normal((n_datasets, len(effects)))
    return level + np.asarray(effects) + noise


def _pairs(values, effects):
    """Paired t of every pair: estimate, standard error, df, p, true difference."""
    k = values.shape[1]
    pairs = list(combinations(range(k), 2))
    diff = np.stack([values[:, a] - values[:, b] for a, b in pairs], axis=1)
    n = diff.shape[0]
    est = diff.mean(axis=0)
    se = diff.std(axis=0, ddof=1) / np.sqrt(n)
    p = 2 * stats.t.sf(np.abs(est / se), n - 1)
    truth = np.array([effects[a] - effects[b] for a, b in pairs])
    return est, se, n - 1, p, truth


def _holm_level_intervals(est, se, df, p):
    """The intervals the report showed before: the r-th smallest p-value's at
    1 − α/(m − r + 1), on every row."""
    m = p.size
    order = np.argsort(p, kind="stable")
    tail = np.empty(m)
    tail[order] = ALPHA / (m - np.arange(m))
    half = stats.t.isf(tail / 2, df) * se
    return est - half, est + half


def _covers_holm(res, truth):
    """Coverage of Strassburger & Bretz bounds: a bound of exactly 0 on a rejected
    hypothesis is open (θ > 0, or θ < 0)."""
    low_ok = np.where(res.rejected & (res.low == 0), truth > 0, truth >= res.low)
    high_ok = np.where(res.rejected & (res.high == 0), truth < 0, truth <= res.high)
    return bool((low_ok & high_ok).all())


def run(n_studies):
    rng = np.random.default_rng(20260)
    header = (
        f"{'configuration':36s} {'m':>3s} {'Bonf.':>6s} {'S&B':>6s} "
        f"{'old':>6s} {'unadj':>6s} {'contr.Bonf':>10s} {'contr.S&B':>9s} "
        f"{'contr.old':>9s} {'Holm rej. Bonf. covers 0':>24s}"
    )
    print(f"Simultaneous coverage over {n_studies} studies (alpha = {ALPHA})")
    print(header)
    for name, (effects, n_datasets) in CONFIGURATIONS.items():
        cover = dict.fromkeys(("bonferroni", "holm", "old", "unadjusted"), 0)
        contra = dict.fromkeys(("bonferroni", "holm", "old"), 0)
        holm_rejections = gap = 0
        for _ in range(n_studies):
            est, se, df, p, truth = _pairs(_study(rng, effects, n_datasets), effects)
            holm_p = adjust_pvalues(p, adjust="holm")
            bonf = simultaneous_intervals(est, se, df=df, adjust="bonferroni")
            sb = simultaneous_intervals(est, se, df=df, adjust="holm")
            old_low, old_high = _holm_level_intervals(est, se, df, p)
            q = stats.t.isf(ALPHA / 2, df)
            cover["bonferroni"] += bool(
                ((bonf.low <= truth) & (truth <= bonf.high)).all()
            )
            cover["holm"] += _covers_holm(sb, truth)
            cover["old"] += bool(((old_low <= truth) & (truth <= old_high)).all())
            cover["unadjusted"] += bool((np.abs(est - truth) <= q * se).all())
            above = holm_p > ALPHA
            contra["bonferroni"] += int(
                (((bonf.low > 0) | (bonf.high < 0)) & above).sum()
            )
            contra["holm"] += int((sb.rejected & above).sum())
            contra["old"] += int((((old_low > 0) | (old_high < 0)) & above).sum())
            rejected = holm_p <= ALPHA
            holm_rejections += int(rejected.sum())
            gap += int((rejected & (bonf.low <= 0) & (bonf.high >= 0)).sum())
        share = f"{gap}/{holm_rejections}" if holm_rejections else "0/0"
        print(
            f"{name:36s} {len(effects) * (len(effects) - 1) // 2:3d} "
            f"{cover['bonferroni'] / n_studies:6.3f} {cover['holm'] / n_studies:6.3f} "
            f"{cover['old'] / n_studies:6.3f} "
            f"{cover['unadjusted'] / n_studies:6.3f} {contra['bonferroni']:10d} "
            f"{contra['holm']:9d} {contra['old']:9d} {share:>24s}"
        )
    se = np.sqrt(0.95 * 0.05 / n_studies)
    print(f"Monte Carlo standard error of a coverage near 0.95: {se:.4f}")


if __name__ == "__main__":
    run(int(sys.argv[1]) if len(sys.argv) > 1 else 2000)
