"""Calibration of the Bayesian decisions under exact nulls, and their power.

Run from the repository root:
``PYTHONPATH=. python benchmarks/bayesian_calibration.py`` (a few minutes).

Part 1, correlated t within one data set. Two learners with provably equal
expected error: nearest-centroid classifiers on two exchangeable halves of the
features (features 0-1 for A, 2-3 for B; every feature shifts the class means by
the same amount), so over learning samples of the same size their expected
errors are equal. For each of ``N_DATA`` fresh data sets of ``N_ROWS`` rows, both
learners are scored on the same splits of one scheme; the Bayesian correlated
t-test (rope = 0) declares "A better" or "B better" when that posterior
probability reaches 0.95. Each one-sided declaration under the null is a type I
error of a one-sided 5% test (the correlated t with rope = 0 is the one-sided
corrected t), so each should occur in about 5% of data sets. The table compares
rho from the stored split sizes (what ``BenchmarkResult.bayesian_test`` uses)
with rho = 1/n_splits, baycomp's k-fold assumption, on random 70/30 splits.
A last row shifts B's centroids so A is better (power).

Part 2, signed-rank across data sets. Per-data-set differences drawn from a
distribution symmetric about 0 (Student t with 3 df, heterogeneous scales):
the rate of "x better" at 0.95 with rope = 0 (one-sided 5% would be 0.05); then
the same differences shifted by 0.01 and rope = 0.01, so that the centre of the
differences lies on the ROPE's edge: the rate of a wrong "equivalent" (should be
small) and of "x practically better" (the power at the edge).

Monte Carlo standard errors are binomial, sqrt(r (1 − r) / N_DATA).
"""

import numpy as np

from sklearn_bench.stats import bayesian_correlated_t, bayesian_signed_rank

N_DATA = 1000  # data sets per cell
N_ROWS = 100
SHIFT = 0.6  # class-mean shift per feature
THRESHOLD = 0.95


def _data(rng, b_shift=SHIFT):
    y = rng.integers(0, 2, N_ROWS)
    sign = 2 * y - 1
    X = rng.normal(size=(N_ROWS, 4))
    X[:, :2] += SHIFT / 2 * sign[:, None]
    X[:, 2:] += b_shift / 2 * sign[:, None]
    return X, y


def _centroid_error(X, y, train, test, cols):
    Xtr, ytr = X[np.ix_(train, cols)], y[train]
    c0, c1 = Xtr[ytr == 0].mean(axis=0), Xtr[ytr == 1].mean(axis=0)
    Xte = X[np.ix_(test, cols)]
    pred = (((Xte - c1) ** 2).sum(1) < ((Xte - c0) ** 2).sum(1)).astype(int)
    return float(np.mean(pred != y[test]))


def _splits(rng, scheme):
    if scheme == "random 70/30 x 30":
        n_test = int(0.3 * N_ROWS)
        for _ in range(30):
            perm = rng.permutation(N_ROWS)
            yield perm[n_test:], perm[:n_test]
    else:  # "10-fold x 3"
        for _ in range(3):
            perm = rng.permutation(N_ROWS)
            for fold in np.array_split(perm, 10):
                yield np.setdiff1d(perm, fold), fold


def _rate(hits):
    r = float(np.mean(hits))
    return r, float(np.sqrt(r * (1 - r) / len(hits)))


def part_correlated_t(rng):
    rows = [
        ("random 70/30 x 30", "sizes: 30/100", 0.3, SHIFT),
        ("random 70/30 x 30", "baycomp: 1/30", 1 / 30, SHIFT),
        ("10-fold x 3", "sizes: 10/100", 0.1, SHIFT),
        ("random 70/30 x 30", "sizes (power)", 0.3, 0.0),
    ]
    print("Part 1: Bayesian correlated t within a data set, rope = 0, decision at")
    print(f"{THRESHOLD}; {N_DATA} data sets of {N_ROWS} rows per row of the table.")
    print(f"{'scheme':<20} {'rho':<16} {'P(A)>=.95':>14} {'P(B)>=.95':>14}")
    for scheme, label, rho, b_shift in rows:
        a_wins, b_wins = [], []
        for _ in range(N_DATA):
            X, y = _data(rng, b_shift)
            ea, eb = [], []
            for train, test in _splits(rng, scheme):
                ea.append(_centroid_error(X, y, train, test, [0, 1]))
                eb.append(_centroid_error(X, y, train, test, [2, 3]))
            res = bayesian_correlated_t(
                ea, eb, rho=rho, labels=("A", "B"), greater_is_better=False
            )
            a_wins.append(res.probabilities["A"] >= THRESHOLD)
            b_wins.append(res.probabilities["B"] >= THRESHOLD)
        (ra, sa), (rb, sb) = _rate(a_wins), _rate(b_wins)
        print(f"{scheme:<20} {label:<16} {ra:>7.3f} ({sa:.3f}) {rb:>7.3f} ({sb:.3f})")


def part_signed_rank(rng):
    print()
    print("Part 2: Bayesian signed-rank across data sets (5000 samples per test).")
    print(
        f"{'n data sets':<12} {'null: P(x)>=.95':>18} {'at rope: P(eq)>=.95':>20} "
        f"{'at rope: P(x)>=.95':>20}"
    )
    for n in (5, 10, 30):
        null, equiv, power = [], [], []
        for _ in range(N_DATA // 2):
            scale = rng.uniform(0.005, 0.02, n)
            d = rng.standard_t(3, n) * scale
            res = bayesian_signed_rank(
                d, np.zeros(n), n_draws=5000, random_state=rng, greater_is_better=True
            )
            null.append(res.p_greater >= THRESHOLD)
            res = bayesian_signed_rank(
                d + 0.01,
                np.zeros(n),
                delta=0.01,
                n_draws=5000,
                random_state=rng,
                greater_is_better=True,
            )
            equiv.append(res.p_rope >= THRESHOLD)
            power.append(res.p_greater >= THRESHOLD)
        cells = [_rate(v) for v in (null, equiv, power)]
        print(f"{n:<12} " + " ".join(f"{r:>11.3f} ({s:.3f})" for r, s in cells))


def main():
    rng = np.random.default_rng(20261123)
    part_correlated_t(rng)
    part_signed_rank(rng)


if __name__ == "__main__":
    main()
