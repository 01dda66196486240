"""Tests of sklearn_bench/stats/_classifiers.py and the McNemar tables (issue 24).

References: mlxtend's ``evaluate`` functions (the peer), statsmodels' ``cochrans_q``
and ``AnovaRM``, and the worked example of mlxtend's documentation (the test set of
100 cases and three models of its ``ftest`` and ``cochrans_q`` pages).
"""

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sklearn_bench.stats import (
    cochrans_q,
    mcnemar_test,
    proportion_difference_test,
    rm_anova,
)

RTOL = 1e-12


def _looney_f(y_true, predictions):
    """Looney's F test of K classifiers: rm_anova of the 0/1 correctness table."""
    preds = np.asarray(predictions)
    return rm_anova((preds == np.asarray(y_true)[:, None]).astype(float))


def _predictions(seed, n=60, k=4, n_classes=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, n_classes, n)
    preds = []
    for j in range(k):
        wrong = rng.random(n) < 0.2 + 0.05 * j
        preds.append(
            np.where(wrong, (y + rng.integers(1, n_classes, n)) % n_classes, y)
        )
    return y, preds


def _docs_example():
    # mlxtend user guide, evaluate/ftest and evaluate/cochrans_q (Example 1)
    y_true = np.array([0] * 100)
    y1 = np.array([1] * 16 + [0] * 84)
    y2 = np.array([1] * 12 + [0] * 12 + [1] * 2 + [0] * 74)
    y3 = np.array([1] * 6 + [0] * 6 + [1] * 2 + [0] * 86)
    return y_true, [y1, y2, y3]


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_cochrans_q_matches_mlxtend_and_statsmodels(seed):
    """H: Q and p equal mlxtend's cochrans_q and statsmodels' cochrans_q."""
    from mlxtend.evaluate import cochrans_q as ml_q
    from statsmodels.stats.contingency_tables import cochrans_q as sm_q

    y, preds = _predictions(seed, k=2 + seed)
    res = cochrans_q(y, np.column_stack(preds))
    q, p = ml_q(y, *preds)
    assert res.statistic == pytest.approx(q, rel=RTOL)
    assert res.pvalue == pytest.approx(p, rel=RTOL)
    ref = sm_q(np.column_stack([pr == y for pr in preds]).astype(int))
    assert res.statistic == pytest.approx(ref.statistic, rel=RTOL)
    assert res.df == (1 + seed,)


def test_cochrans_q_docs_example_and_mcnemar_identity():
    """H: on mlxtend's documented example Q equals mlxtend; with K = 2 Q equals
    McNemar's χ² without continuity correction."""
    from mlxtend.evaluate import cochrans_q as ml_q

    y, preds = _docs_example()
    res = cochrans_q(y, {"m1": preds[0], "m2": preds[1], "m3": preds[2]})
    assert res.statistic == pytest.approx(ml_q(y, *preds)[0], rel=RTOL)
    right = [np.asarray(p) == y for p in preds[:2]]
    b, c = np.sum(~right[0] & right[1]), np.sum(right[0] & ~right[1])
    two = cochrans_q(y, {"a": preds[0], "b": preds[1]})
    mc = mcnemar_test(b, c, correction=False)
    assert two.statistic == pytest.approx(mc.statistic, rel=RTOL)
    assert two.pvalue == pytest.approx(mc.pvalue, rel=RTOL)


def test_cochrans_q_all_alike_is_zero():
    """H: every case classified alike by all classifiers gives Q = 0, p = 1."""
    y = np.array([0, 1, 0, 1])
    res = cochrans_q(y, {"a": [0, 1, 1, 0], "b": [0, 1, 1, 0], "c": [0, 1, 1, 0]})
    assert (res.statistic, res.pvalue) == (0.0, 1.0)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_f_test_matches_mlxtend_statistic_and_anovarm(seed):
    """H: F equals mlxtend's ftest to 1e-12 and statsmodels' AnovaRM on the 0/1
    table; the p-value is F(K − 1, (K − 1)(n − 1)) (AnovaRM), and mlxtend's p is
    the same F on (K − 1) n df (its deliberate-difference row)."""
    from mlxtend.evaluate import ftest
    from statsmodels.stats.anova import AnovaRM

    y, preds = _predictions(seed, n=40 + 10 * seed, k=3 + seed)
    res = _looney_f(y, np.column_stack(preds))
    f, p = ftest(y, *preds)
    assert res.statistic == pytest.approx(f, rel=RTOL)
    k, n = len(preds), len(y)
    assert p == pytest.approx(stats.f.sf(res.statistic, k - 1, (k - 1) * n), rel=RTOL)
    correct = pd.DataFrame(np.column_stack([pr == y for pr in preds]).astype(float))
    long = correct.rename_axis("id").reset_index().melt(id_vars="id")
    ref = AnovaRM(long, "value", "id", within=["variable"]).fit().anova_table
    assert res.statistic == pytest.approx(ref["F Value"].iloc[0], rel=1e-10)
    assert res.pvalue == pytest.approx(ref["Pr > F"].iloc[0], rel=1e-10)
    assert (res.df_learners, res.df_error) == (k - 1, (k - 1) * (n - 1))


def test_f_test_docs_example():
    """H: on mlxtend's documented example F equals mlxtend's (4.484 for the
    docs' data) for rm_anova of the correctness table, whose learner means are
    the accuracies cochrans_q reports."""
    from mlxtend.evaluate import ftest

    y, preds = _docs_example()
    res = _looney_f(y, np.column_stack(preds))
    assert res.statistic == pytest.approx(ftest(y, *preds)[0], rel=RTOL)
    assert res.statistic == pytest.approx(4.484320557490864, rel=1e-12)
    q = cochrans_q(y, np.column_stack(preds))
    np.testing.assert_array_equal(res.learner_means, q.learner_scores)


@pytest.mark.parametrize(
    "p1, p2, n1, n2", [(0.84, 0.92, 100, None), (0.7, 0.65, 50, 80), (0.1, 0.3, 30, 20)]
)
def test_proportion_difference_matches_mlxtend(p1, p2, n1, n2):
    """H: z equals mlxtend's proportion_difference and its p is our
    alternative="less"; the two-sided p is 2 sf(|z|), the Wald interval excludes
    0 exactly when the test rejects."""
    from mlxtend.evaluate import proportion_difference

    z, p = proportion_difference(p1, p2, n_1=n1, n_2=n2)
    less = proportion_difference_test(p1, p2, n1, n2, alternative="less")
    assert less.statistic == pytest.approx(z, rel=RTOL)
    assert less.pvalue == pytest.approx(p, rel=RTOL)
    two = proportion_difference_test(p1, p2, n1, n2)
    assert two.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=RTOL)
    for level in (0.8, 0.9, 0.95, 0.99):
        ci = two.confidence_interval(level)
        assert (ci.low > 0 or ci.high < 0) == (two.pvalue < 1 - level)


def test_proportion_difference_degenerate_and_refusals():
    """H: equal proportions 0 give z = 0, p = 1; bad inputs name the argument."""
    res = proportion_difference_test(0.0, 0.0, 10)
    assert (res.statistic, res.pvalue) == (0.0, 1.0)
    with pytest.raises(ValueError, match="`proportion_1`"):
        proportion_difference_test(1.5, 0.2, 10)
    with pytest.raises(ValueError, match="`n_2`"):
        proportion_difference_test(0.5, 0.2, 10, 0)


def test_inputs_are_refused_with_names():
    """H: mismatched lengths, one classifier and duplicate names are refused."""
    y = np.array([0, 1, 0, 1])
    with pytest.raises(ValueError, match="classifier 'b'"):
        cochrans_q(y, {"a": [0, 1, 0, 1], "b": [0, 1, 0]})
    with pytest.raises(ValueError, match="at least 2 classifiers"):
        cochrans_q(y, {"a": [0, 1, 0, 1]})


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcnemar_on_tables_matches_mlxtend(seed):
    """H: mcnemar_test on the discordant cells of mlxtend's mcnemar_table equals
    mlxtend's mcnemar on the same table (corrected, uncorrected, exact) when
    b != c; with b = c mlxtend's corrected χ² is 1/(b + c), ours 0 (R's
    max(|b − c| − 1, 0))."""
    from mlxtend.evaluate import mcnemar, mcnemar_table

    y, preds = _predictions(seed, n=80, k=2)
    table = mcnemar_table(y, preds[0], preds[1])
    b, c = table[1, 0], table[0, 1]
    assert b != c
    for corrected in (True, False):
        chi2, p = mcnemar(table, corrected=corrected)
        res = mcnemar_test(b, c, correction=corrected)
        assert res.statistic == pytest.approx(chi2, rel=RTOL)
        assert res.pvalue == pytest.approx(p, rel=RTOL)
    _, p = mcnemar(table, exact=True)
    assert mcnemar_test(b, c, exact=True).pvalue == pytest.approx(p, rel=RTOL)
