"""Dietterich's 5×2cv t and Alpaydin's combined 5×2cv F against their formulas
and against mlxtend on the same splits."""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.model_selection import train_test_split
from sklearn.naive_bayes import GaussianNB

from sklearn_bench.stats import five_by_two_cv_test


def _by_hand(p):
    """Dietterich (1998) eq. (9) and Alpaydin (1999) eq. (1), written out."""
    s2 = [(p[i, 0] - p[i].mean()) ** 2 + (p[i, 1] - p[i].mean()) ** 2 for i in range(5)]
    t = p[0, 0] / np.sqrt(sum(s2) / 5)
    f = sum(p[i, j] ** 2 for i in range(5) for j in range(2)) / (2 * sum(s2))
    return t, f


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_five_by_two_equals_the_formulas(seed):
    """H: statistic and p-value equal the formulas by hand (t with 5 df, F with
    (10, 5) df) to 1e-12, for random fold scores; the t interval is
    p11 ± t_{5, 0.975} sqrt(Σ s_i²/5)."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(0.1, 0.3, (5, 2))
    y = x + rng.normal(0.01, 0.02, (5, 2))
    t, f = _by_hand(x - y)
    res = five_by_two_cv_test(x, y)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-12)
    assert (res.df, res.n, res.method) == (5, 10, "5x2cv")
    assert res.estimate == (x - y)[0, 0]
    se = (x - y)[0, 0] / t
    ci = res.confidence_interval(0.95)
    q = stats.t.isf(0.025, 5)
    assert ci == pytest.approx((res.estimate - q * se, res.estimate + q * se))
    less = five_by_two_cv_test(x, y, alternative="less")
    assert less.pvalue == pytest.approx(stats.t.cdf(t, 5), rel=1e-12)
    res = five_by_two_cv_test(x, y, method="f")
    assert res.statistic == pytest.approx(f, rel=1e-12)
    assert res.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-12)
    assert (res.df, res.method) == ((10, 5), "5x2cv_f")


def _mlxtend_fold_scores(est1, est2, X, y, random_seed):
    """Accuracy differences on the very splits mlxtend's 5×2cv functions draw
    (mlxtend/evaluate/ttest.py: RandomState(random_seed).randint(0, 32767) as the
    train_test_split seed of each repetition, test_size=0.5, both directions)."""
    rng = np.random.RandomState(random_seed)
    a = np.empty((5, 2))
    b = np.empty((5, 2))
    for i in range(5):
        seed = rng.randint(low=0, high=32767)
        X1, X2, y1, y2 = train_test_split(X, y, test_size=0.5, random_state=seed)
        for j, (Xtr, ytr, Xte, yte) in enumerate([(X1, y1, X2, y2), (X2, y2, X1, y1)]):
            a[i, j] = est1.fit(Xtr, ytr).score(Xte, yte)
            b[i, j] = est2.fit(Xtr, ytr).score(Xte, yte)
    return a, b


def test_five_by_two_matches_mlxtend_on_the_same_splits():
    """H: on the fold scores of mlxtend's own splits, our t, F and p-values equal
    mlxtend's paired_ttest_5x2cv and combined_ftest_5x2cv to 1e-12."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    X, y = load_breast_cancer(return_X_y=True)
    X = X[:, :6]
    lda, nb = LinearDiscriminantAnalysis(), GaussianNB()
    for seed in (1, 7):
        a, b = _mlxtend_fold_scores(lda, nb, X, y, seed)
        t, p = evaluate.paired_ttest_5x2cv(lda, nb, X, y, random_seed=seed)
        res = five_by_two_cv_test(a, b)
        assert res.statistic == pytest.approx(t, rel=1e-12)
        assert res.pvalue == pytest.approx(p, rel=1e-12)
        f, p = evaluate.combined_ftest_5x2cv(lda, nb, X, y, random_seed=seed)
        res = five_by_two_cv_test(a, b, method="f")
        assert res.statistic == pytest.approx(f, rel=1e-12)
        assert res.pvalue == pytest.approx(p, rel=1e-12)


def test_five_by_two_rejects_bad_input():
    """H: wrong shape, NaN, a one-sided F and zero variance raise ValueError with
    the argument named; zero variance is never a p-value of 0."""
    x = np.full((5, 2), 0.2)
    with pytest.raises(ValueError, match=r"shape \(5, 2\).*RepeatedStratifiedKFold"):
        five_by_two_cv_test(np.zeros(10), np.zeros(10))
    with pytest.raises(ValueError, match="finite"):
        five_by_two_cv_test(np.where(np.eye(5, 2) > 0, np.nan, x), x)
    with pytest.raises(ValueError, match="two-sided"):
        five_by_two_cv_test(x, x + 0.01 * np.eye(5, 2), method="f", alternative="less")
    with pytest.raises(ValueError, match="variance estimate is 0"):
        five_by_two_cv_test(x, x + 0.05)
    with pytest.raises(ValueError, match="no confidence interval"):
        five_by_two_cv_test(
            x, x + 0.01 * np.eye(5, 2), method="f"
        ).confidence_interval()
    with pytest.raises(ValueError, match="`method`"):
        five_by_two_cv_test(x, x, method="z")
