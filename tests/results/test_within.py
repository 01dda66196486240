"""Tests within one data set: the unit of analysis, corrected t, 5×2cv, defaults.

References: Bouckaert & Frank (2004) and Nadeau & Bengio (2003) written out by
hand on the fold scores; baycomp's correlated t (its posterior is Student t
with the same location, scale and df, so location/scale is the implied t);
mlxtend's 5×2cv functions on the same splits.
"""

import numpy as np
import pytest
from scipy import stats
from sklearn.datasets import load_breast_cancer
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import (
    RepeatedStratifiedKFold,
    ShuffleSplit,
    train_test_split,
)
from sklearn.naive_bayes import GaussianNB
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import Dataset
from sklearn_bench.model_selection import BootstrapCV, BootstrapOOB
from sklearn_bench.results._select import split_pair
from sklearn_bench.stats import paired_test

X_BC, Y_BC = load_breast_cancer(return_X_y=True)
FAST = {"lda": LinearDiscriminantAnalysis(), "nb": GaussianNB()}


def _run(cv, learners=FAST, scoring=None, data=None):
    exp = BenchmarkExperiment(
        learners, cv=cv, scoring=scoring, random_state=0, progress=False
    )
    return exp.fit({"bc": (X_BC[:, :8], Y_BC)} if data is None else data).results_


def _bouckaert_frank(d, n_test, n_train):
    """Bouckaert & Frank (2004): t = mean / sqrt((1/(k r) + n2/n1) var), k r − 1 df."""
    n = d.size
    t = d.mean() / np.sqrt((1 / n + n_test / n_train) * d.var(ddof=1))
    return t, 2 * stats.t.sf(abs(t), n - 1)


@pytest.fixture(scope="module")
def issue_example():
    """Issue 11: scaled logistic regression against a tree on breast_cancer,
    RepeatedStratifiedKFold(n_splits=10, n_repeats=10)."""
    learners = {
        "lr": make_pipeline(StandardScaler(), LogisticRegression()),
        "dt": DecisionTreeClassifier(random_state=0),
    }
    cv = RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0)
    return _run(cv, learners, data={"bc": (X_BC, Y_BC)})


@pytest.mark.slow
def test_corrected_t_on_repeated_kfold_is_bouckaert_frank(issue_example):
    """H: within a 10 × 10-fold run, corrected_t is the default and equals
    Bouckaert & Frank's corrected repeated k-fold t by hand on the 100 fold
    scores (n_test/n_train from the stored sizes, 99 df) to 1e-10; the issue's
    example gives |t| = 4.65, not the 11.2 of averaging the folds first."""
    result = issue_example
    res = result.paired_test("lr", "dt", dataset="bc")
    rows = result.scores.sort_values("split")
    x = rows.loc[rows.learner == "lr", "value"].to_numpy()
    y = rows.loc[rows.learner == "dt", "value"].to_numpy()
    sizes = rows[rows.learner == "lr"]
    t, p = _bouckaert_frank(x - y, sizes.n_test.mean(), sizes.n_train.mean())
    assert (res.method, res.n, res.df) == ("corrected_t", 100, 99)
    assert res.statistic == pytest.approx(t, rel=1e-10)
    assert res.pvalue == pytest.approx(p, rel=1e-10)
    assert round(abs(res.statistic), 2) == 4.65
    assert "100 fold scores" in res.null_hypothesis
    assert "Bouckaert & Frank" in res.null_hypothesis
    # the old path: 10 replicate means corrected as if each were one split
    perf = result.performance()
    old = paired_test(
        perf.loc[perf.learner == "lr", "value"],
        perf.loc[perf.learner == "dt", "value"],
        method="corrected_t",
        test_train_ratio=1 / 9,
    )
    assert abs(old.statistic) > 11
    # the user's ratio still overrides the inferred one
    res = result.paired_test(
        "lr", "dt", dataset="bc", method="corrected_t", test_train_ratio=0.2
    )
    assert res.statistic == pytest.approx(
        (x - y).mean() / np.sqrt((1 / 100 + 0.2) * (x - y).var(ddof=1)), rel=1e-10
    )


@pytest.mark.slow
def test_corrected_t_equals_baycomp_implied_t(issue_example):
    """H: baycomp's correlated t (rho = 1/k = n_test/(n_test + n_train), runs=10)
    has a Student-t posterior with location mean(y − x), scale
    sqrt((1/n + rho/(1 − rho)) var) and n − 1 df; −location/scale equals our
    corrected t of x − y to 1e-10, and two_on_single's P(y − x < 0) equals
    1 − our one-sided p-value for "greater"."""
    baycomp = pytest.importorskip("baycomp")
    result = issue_example
    s = split_pair(result, "lr", "dt", metric="error_rate", dataset="bc")
    post = baycomp.CorrelatedTTest(s.x, s.y, runs=10)
    res = result.paired_test("lr", "dt", dataset="bc", alternative="greater")
    assert post.df == res.df
    assert -post.mean / np.sqrt(post.var) == pytest.approx(res.statistic, rel=1e-10)
    p_left, _ = baycomp.two_on_single(s.x, s.y, runs=10)
    assert p_left == pytest.approx(1 - res.pvalue, rel=1e-10)


@pytest.mark.parametrize(
    ("cv", "unit_words", "n"),
    [
        (ShuffleSplit(n_splits=12, test_size=0.25, random_state=0), "12 splits", 12),
        (BootstrapCV(n_bootstraps=3, n_folds=4, random_state=0), "12 fold scores", 12),
    ],
)
def test_corrected_t_on_splits(cv, unit_words, n):
    """H: on ShuffleSplit (Nadeau & Bengio 2003) and on BootstrapCV the default
    corrected t runs on every split with n_test/n_train = mean stored n_test /
    mean stored n_train, equal to the formula by hand to 1e-10."""
    result = _run(cv)
    res = result.paired_test("lda", "nb", dataset="bc")
    s = split_pair(result, "lda", "nb", metric="error_rate", dataset="bc")
    t, p = _bouckaert_frank(s.x - s.y, s.n_test.mean(), s.n_train.mean())
    assert (res.method, res.n) == ("corrected_t", n)
    assert res.statistic == pytest.approx(t, rel=1e-10)
    assert res.pvalue == pytest.approx(p, rel=1e-10)
    assert unit_words in res.null_hypothesis


def test_corrected_t_on_bootstrap_oob_uses_distinct_training_rows():
    """H: on BootstrapOOB the corrected t runs on the replicates with
    n_test/n_train = out-of-bootstrap rows / distinct training rows
    (n_oob / (n − n_oob)), the choice calibrated in benchmarks/calibration.py."""
    result = _run(BootstrapOOB(n_bootstraps=15, random_state=0))
    res = result.paired_test("lda", "nb", dataset="bc")
    s = split_pair(result, "lda", "nb", metric="error_rate", dataset="bc")
    assert (s.n_train == len(Y_BC)).all()
    ratio = np.mean(s.n_test / (len(Y_BC) - s.n_test))
    assert 0.5 < ratio < 0.66  # about 0.368 / 0.632
    d = s.x - s.y
    t = d.mean() / np.sqrt((1 / 15 + ratio) * d.var(ddof=1))
    assert res.statistic == pytest.approx(t, rel=1e-10)
    assert "distinct training rows" in res.null_hypothesis


def test_single_replicate_kfold_is_analysable():
    """H: cv=10 (one replicate) gives corrected t on the 10 folds (9 df), while
    the conditional t on replicates cannot run (1 replicate) and says so."""
    result = _run(10)
    res = result.paired_test("lda", "nb", dataset="bc")
    assert (res.method, res.n, res.df) == ("corrected_t", 10, 9)
    with pytest.raises(ValueError, match="At least 2 replicates"):
        result.paired_test("lda", "nb", dataset="bc", method="t")


class _MlxtendSplits:
    """The ten splits mlxtend's 5×2cv functions draw, as a splitter whose
    replicates are the five repetitions (mlxtend/evaluate/ttest.py)."""

    def __init__(self, random_seed):
        self.random_seed = random_seed

    def split(self, X, y=None, groups=None):
        rng = np.random.RandomState(self.random_seed)
        rows = np.arange(len(X))
        for _ in range(5):
            seed = rng.randint(low=0, high=32767)
            first, second = train_test_split(rows, test_size=0.5, random_state=seed)
            yield first, second
            yield second, first

    def get_n_splits(self, X=None, y=None, groups=None):
        return 10

    def _n_splits_per_replicate(self):
        return 2

    def __repr__(self):
        return f"_MlxtendSplits(random_seed={self.random_seed})"


def test_five_by_two_through_result_matches_mlxtend():
    """H: BenchmarkResult.paired_test(method="5x2cv" / "5x2cv_f") on a run with
    mlxtend's own splits equals mlxtend's paired_ttest_5x2cv /
    combined_ftest_5x2cv (accuracy) to 1e-10; the scheme is recognised from the
    structure (5 replicates × 2 folds partitioning the data)."""
    evaluate = pytest.importorskip("mlxtend.evaluate")
    X = X_BC[:, :8]
    result = _run(_MlxtendSplits(3), scoring=["accuracy"])
    t, p = evaluate.paired_ttest_5x2cv(FAST["lda"], FAST["nb"], X, Y_BC, random_seed=3)
    res = result.paired_test("lda", "nb", dataset="bc", method="5x2cv")
    assert res.statistic == pytest.approx(t, rel=1e-10)
    assert res.pvalue == pytest.approx(p, rel=1e-10)
    f, p = evaluate.combined_ftest_5x2cv(
        FAST["lda"], FAST["nb"], X, Y_BC, random_seed=3
    )
    res = result.paired_test("lda", "nb", dataset="bc", method="5x2cv_f")
    assert res.statistic == pytest.approx(f, rel=1e-10)
    assert res.pvalue == pytest.approx(p, rel=1e-10)


def test_five_by_two_on_repeated_stratified_kfold():
    """H: on RepeatedStratifiedKFold(2, 5) the result's 5×2cv t equals
    paired_test(method="5x2cv") on the fold scores arranged repetition × fold, and its
    interval is the test's."""
    result = _run(RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=1))
    s = split_pair(result, "lda", "nb", metric="error_rate", dataset="bc")
    ref = paired_test(s.x.reshape(5, 2), s.y.reshape(5, 2), method="5x2cv")
    res = result.paired_test("lda", "nb", dataset="bc", method="5x2cv")
    assert res.statistic == ref.statistic and res.pvalue == ref.pvalue
    ci = result.confidence_interval("lda", "nb", dataset="bc", method="5x2cv")
    assert ci.confidence_interval() == ref.confidence_interval()


def test_five_by_two_refuses_other_splitters():
    """H: 5×2cv on a run that is not 5 × 2-fold CV, or across data sets, raises a
    ValueError naming the splitter to use."""
    result = _run(RepeatedStratifiedKFold(n_splits=3, n_repeats=2, random_state=0))
    for method in ("5x2cv", "5x2cv_f"):
        with pytest.raises(ValueError, match=r"RepeatedStratifiedKFold\(n_splits=2"):
            result.paired_test("lda", "nb", dataset="bc", method=method)
        with pytest.raises(ValueError, match="within one data set; pass `dataset`"):
            result.paired_test("lda", "nb", method=method)


def test_defaults_and_refusals_by_problem():
    """H: the default within a competition problem is the t-test on replicates,
    said to be conditional on the fixed test sample, and corrected_t refuses
    there; a result without splitter or sizes has no default within a data set
    and says what to pass."""
    comp = _run(
        BootstrapOOB(n_bootstraps=4, random_state=0),
        data={
            "c": Dataset(
                X_BC[:300, :8], Y_BC[:300], X_test=X_BC[300:, :8], y_test=Y_BC[300:]
            )
        },
    )
    res = comp.paired_test("lda", "nb", dataset="c")
    assert res.method == "t" and "fixed test sample" in res.null_hypothesis
    with pytest.raises(ValueError, match="competition problem"):
        comp.paired_test("lda", "nb", dataset="c", method="corrected_t")
    frame = BenchmarkResult.from_frame(
        comp.scores, dataset="dataset", learner="learner", value="value",
        replicate="replicate", greater_is_better=False,
    )  # fmt: skip
    with pytest.raises(ValueError, match="scheme of data set 'c' is unknown"):
        frame.paired_test("lda", "nb", dataset="c")
    with pytest.raises(ValueError, match="pass `test_train_ratio`"):
        frame.paired_test("lda", "nb", dataset="c", method="corrected_t")
    res = frame.paired_test(
        "lda", "nb", dataset="c", method="corrected_t", test_train_ratio=0.5
    )
    assert res.n == 4


@pytest.mark.slow
def test_confidence_interval_default_within_is_corrected(issue_example):
    """H: confidence_interval(dataset=...) with no method is the corrected t
    interval of the default test; across data sets it stays the t interval."""
    result = issue_example
    got = result.confidence_interval("lr", "dt", dataset="bc")
    ref = result.paired_test("lr", "dt", dataset="bc").confidence_interval()
    assert got.confidence_interval() == ref
    plain = result.confidence_interval("lr", "dt", dataset="bc", method="t")
    assert got.high - got.low > plain.high - plain.low


def test_win_tie_loss_counts_only_significant_wins():
    """H: win_tie_loss(test="5x2cv") counts a win of i over j on a data set only
    when the 5x2cv paired_test on that data set's fold scores rejects at alpha
    (direction from the mean performances); all other pairs are ties; without
    `test` the counts are the plain ones."""
    from sklearn.datasets import load_iris, load_wine
    from sklearn.dummy import DummyClassifier

    learners = {**FAST, "dummy": DummyClassifier()}
    data = {
        "bc": (X_BC[:, :8], Y_BC),
        "iris": load_iris(return_X_y=True),
        "wine": load_wine(return_X_y=True),
    }
    cv = RepeatedStratifiedKFold(n_splits=2, n_repeats=5, random_state=0)
    result = _run(cv, learners, data=data)
    names = list(learners)
    got = result.win_tie_loss(test="5x2cv", alpha=0.05)
    means = result.aggregate()
    want = {(i, j): [0, 0, 0] for i in names for j in names}
    for dataset in data:
        for i in names:
            for j in names:
                if i == j:
                    want[i, j][1] += 1
                    continue
                s = split_pair(result, i, j, metric="error_rate", dataset=dataset)
                p = paired_test(
                    s.x.reshape(5, 2), s.y.reshape(5, 2), method="5x2cv"
                ).pvalue
                diff = means.loc[dataset, j] - means.loc[dataset, i]  # error: lower
                if p < 0.05 and diff > 0:
                    want[i, j][0] += 1
                elif p < 0.05 and diff < 0:
                    want[i, j][2] += 1
                else:
                    want[i, j][1] += 1
    for (i, j), counts in want.items():
        assert got.loc[i, j].tolist() == counts, (i, j)
    assert got.loc["lda", "dummy"].tolist() == [3, 0, 0]  # dummy loses everywhere
    plain = result.win_tie_loss()
    assert (
        (plain.xs("tie", axis=1, level=1) <= got.xs("tie", axis=1, level=1)).all().all()
    )
    with pytest.raises(ValueError, match="RepeatedStratifiedKFold"):
        _run(3, data={k: data[k] for k in ("bc", "iris")}).win_tie_loss(test="5x2cv")


def test_corrected_t_block_raises_the_error_of_every_pair():
    """H: when the learners share one design on which the default test within
    a data set cannot run (no split sizes stored: no design, whatever
    info["cv"] says), the block raises once the
    very ValueError that paired_test raises for each pair, so a report decides
    it once instead of once per learner; with the sizes stored it returns the
    block instead."""
    import pandas as pd

    from sklearn_bench.results._within import corrected_t_block

    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        [(f"d{d}", f"m{j}", r, rng.uniform(0.1, 0.3)) for d in range(2)
         for j in range(4) for r in range(5)],
        columns=["data", "model", "rep", "err"],
    )  # fmt: skip
    kw = {"dataset": "data", "learner": "model", "value": "err", "replicate": "rep"}
    result = BenchmarkResult.from_frame(df, greater_is_better=False, **kw)
    result.info["cv"] = "RepeatedKFold(n_splits=5, n_repeats=1)"  # not read
    others = ["m1", "m2", "m3"]
    with pytest.raises(ValueError, match="scheme .*no split sizes") as raised:
        corrected_t_block(result, others, "m0", metric="err", dataset="d1")
    for learner in others:
        with pytest.raises(ValueError) as each:
            result.paired_test(learner, "m0", dataset="d1")
        assert str(each.value) == str(raised.value)
    sized = BenchmarkResult.from_frame(
        df, greater_is_better=False, n_train=80, n_test=20, **kw
    )
    x, y, ratio, _ = corrected_t_block(sized, others, "m0", metric="err", dataset="d1")
    assert x.shape == (5, 3) and y.shape == (5,) and ratio == 0.25
