"""The analysis methods of BenchmarkResult select data and delegate to stats.

Each method is checked against the direct ``sklearn_bench.stats`` call on the same
arrays (the delegation contract), on a real small experiment and on published
tables through ``from_frame``, and against R reference values where they exist.
"""

import itertools
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats as sps
from sklearn.datasets import load_breast_cancer, load_iris
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.tree import DecisionTreeClassifier

from sklearn_bench import BenchmarkExperiment, BenchmarkResult
from sklearn_bench.datasets import Dataset
from sklearn_bench.model_selection import BootstrapOOB
from sklearn_bench.stats import (
    bootstrap_ci,
    error_rate_intervals,
    friedman_test,
    global_permutation_test,
    mcnemar_test,
    n_datasets_needed,
    paired_test,
    power_paired_t,
)

LEARNERS = ["tree", "nb", "knn"]


@pytest.fixture(scope="module")
def run():
    """3 data sets (one a competition) x 3 fast classifiers x 6 bootstrap replicates."""
    Xb, yb = load_breast_cancer(return_X_y=True)
    Xi, yi = load_iris(return_X_y=True)
    datasets = {
        "breast": (Xb, yb),
        "iris": (Xi, yi),
        "breast test": Dataset(Xb[:300], yb[:300], X_test=Xb[300:], y_test=yb[300:]),
    }
    exp = BenchmarkExperiment(
        {
            "tree": DecisionTreeClassifier(max_depth=3),
            "nb": GaussianNB(),
            "knn": KNeighborsClassifier(),
        },
        cv=BootstrapOOB(n_bootstraps=6, random_state=0),
        random_state=0,
        keep_predictions=True,
        progress=False,
    )
    return exp.fit(datasets).results_


@pytest.fixture(scope="module")
def demsar(reference_table):
    table = reference_table("demsar2006_table6_auc.csv")
    long = table.reset_index().melt(id_vars="dataset", var_name="learner")
    return table, BenchmarkResult.from_frame(
        long,
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=True,
    )


@pytest.fixture(scope="module")
def riddle(reference_table):
    table = reference_table("riddle_c45_variants_error.csv")
    long = table.reset_index().melt(id_vars="dataset", var_name="learner")
    return table, BenchmarkResult.from_frame(
        long,
        dataset="dataset",
        learner="learner",
        value="value",
        greater_is_better=False,
    )


def _means(result):
    """Per-data-set mean performance, computed here by plain pandas."""
    perf = result.performance()
    return perf.pivot_table(
        index="dataset", columns="learner", values="value", observed=True
    )


def _replicates(result, dataset):
    perf = result.performance()
    perf = perf[perf["dataset"] == dataset]
    return perf.pivot_table(
        index="replicate", columns="learner", values="value", observed=True
    )[LEARNERS]


def _same(res, ref):
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


# ------------------------------------------------------------------ paired_test
@pytest.mark.parametrize("method", ["t", "wilcoxon", "sign"])
def test_paired_test_across_datasets_delegates(run, method):
    """H: across data sets, .paired_test equals stats.paired_test on the
    per-data-set means, and its H0 names metric, direction and scope."""
    m = _means(run)
    res = run.paired_test("tree", "nb", method=method, alternative="less")
    _same(res, paired_test(m["tree"], m["nb"], method=method, alternative="less"))
    assert res.n <= 3
    assert "error_rate(tree)" in res.null_hypothesis
    assert "error_rate(nb)" in res.null_hypothesis
    assert "lower is better" in res.null_hypothesis
    assert "across 3 data sets" in res.null_hypothesis


def test_paired_test_within_dataset_delegates(run):
    """H: within a data set, .paired_test (t and permutation) equals the stats call
    on the replicate performances (seed 004 statistic (2)), and says it is
    conditional on the learning sample."""
    p = _replicates(run, "breast")
    res = run.paired_test("tree", "knn", dataset="breast", method="t")
    _same(res, paired_test(p["tree"], p["knn"]))
    assert "conditional on this learning sample" in res.null_hypothesis
    res = run.paired_test(
        "tree", "knn", dataset="breast", method="permutation", random_state=3
    )
    _same(res, paired_test(p["tree"], p["knn"], method="permutation", random_state=3))
    assert "within data set 'breast' over 6 replicates" in res.null_hypothesis


def test_paired_test_demsar_table_matches_r(demsar, reference_cases):
    """H: across data sets on Demšar's Table 6 the t-test equals R's t.test and the
    Wilcoxon test Demšar's published R+ = 93, R− = 12 and scipy's p."""
    _, result = demsar
    case = reference_cases["ttest_paired_demsar_c45m_vs_c45_two_sided"]["expected"]
    # R: t.test(x, y, paired = TRUE) (cases.json)
    res = result.paired_test("C4.5+m", "C4.5")
    assert res.statistic == pytest.approx(case["statistic"], rel=1e-8)
    assert res.df == case["df"]
    assert res.pvalue == pytest.approx(case["p_value"], rel=1e-8)
    assert tuple(res.confidence_interval()) == pytest.approx(case["conf_int"], rel=1e-8)
    assert "higher is better" in res.null_hypothesis
    case = reference_cases["wilcoxon_zeros_demsar_table6_c45m_vs_c45"]["expected"]
    case_input = reference_cases["wilcoxon_zeros_demsar_table6_c45m_vs_c45"]["input"]
    dem = case["demsar_convention"]  # hand computation after Demšar (2006) 3.1.3
    res = result.paired_test("C4.5+m", "C4.5", method="wilcoxon")
    assert res.details["r_plus"] == dem["R_plus"]
    assert res.details["r_minus"] == dem["R_minus"]
    assert res.statistic == dem["T"]
    # the 14 differences with their two zeros: scipy's zsplit normal approximation
    d = np.round(np.subtract(case_input["x"], case_input["y"]), 10)
    ref = sps.wilcoxon(d, zero_method="zsplit")
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    # R: wilcox.test(d, exact = FALSE, correct = FALSE)
    res = result.paired_test(
        "C4.5+m", "C4.5", method="wilcoxon", zero_method="wilcox", alternative="greater"
    )
    assert res.pvalue == pytest.approx(case["p_value"]["greater"], rel=1e-8)


def test_paired_test_mcnemar_hand_counted(run):
    """H: McNemar on the competition test set equals mcnemar_test on b, c counted
    here from the kept predictions of replicate 2."""
    pred = run.predictions
    pred = pred[(pred["dataset"] == "breast test") & (pred["replicate"] == 2)]
    tree = pred[pred["learner"] == "tree"].sort_values("row")["correct"].to_numpy()
    nb = pred[pred["learner"] == "nb"].sort_values("row")["correct"].to_numpy()
    assert len(tree) == len(nb) == 269
    b = int(np.sum(~tree & nb))
    c = int(np.sum(tree & ~nb))
    res = run.paired_test(
        "tree", "nb", method="mcnemar", dataset="breast test", replicate=2
    )
    assert (res.details["b"], res.details["c"], res.details["n_test"]) == (b, c, 269)
    _same(res, mcnemar_test(b, c))
    assert res.estimate == (b - c) / 269
    _same(
        run.paired_test(
            "tree",
            "nb",
            method="mcnemar",
            dataset="breast test",
            replicate=2,
            exact=True,
        ),
        mcnemar_test(b, c, exact=True),
    )
    assert (
        res.null_hypothesis == "H0: P(tree wrong, nb right) = P(tree right, nb wrong)"
    )
    ci = run.confidence_interval(
        "tree",
        "nb",
        method="qh",
        dataset="breast test",
        replicate=2,
        confidence_level=0.9,
    )
    ci = ci.confidence_interval()
    assert ci == mcnemar_test(b, c, n=269).confidence_interval(0.9)
    assert res.confidence_interval(0.9) == ci


def test_mcnemar_single_replicate_needs_no_replicate_argument():
    """H: with one replicate (a fixed split) the test set is implied, and b, c
    match a hand count on that split."""
    X, y = load_breast_cancer(return_X_y=True)
    exp = BenchmarkExperiment(
        {
            "tree": DecisionTreeClassifier(max_depth=2, random_state=0),
            "nb": GaussianNB(),
        },
        cv=BootstrapOOB(n_bootstraps=1, random_state=1),
        random_state=0,
        keep_predictions=True,
        progress=False,
    ).fit(Dataset(X[:200], y[:200], X_test=X[200:], y_test=y[200:]))
    result = exp.results_
    pred = result.predictions
    ok = {
        m: pred[pred["learner"] == m].sort_values("row")["correct"].to_numpy()
        for m in ("tree", "nb")
    }
    b = int(np.sum(~ok["tree"] & ok["nb"]))
    c = int(np.sum(ok["tree"] & ~ok["nb"]))
    _same(result.paired_test("tree", "nb", method="mcnemar"), mcnemar_test(b, c))


def test_error_rate_intervals_delegates(run):
    """H: .error_rate_intervals equals stats.error_rate_intervals on all pairs'
    discordant counts, labelled by the learner pair (seed 001 Table 2 layout)."""
    counts = [
        run.paired_test(i, j, method="mcnemar", dataset="breast test", replicate=0)
        for i, j in itertools.combinations(LEARNERS, 2)
    ]
    labels = [f"({i}, {j})" for i, j in itertools.combinations(LEARNERS, 2)]
    ref = error_rate_intervals(
        [r.details["b"] for r in counts],
        [r.details["c"] for r in counts],
        269,
        labels=labels,
        confidence_level=0.9,
    )
    got = run.error_rate_intervals(
        dataset="breast test", replicate=0, confidence_level=0.9
    )
    pd.testing.assert_frame_equal(got, ref)
    assert list(got.columns[:2]) == ["b", "c"]


# ----------------------------------------------------------- confidence_interval
def test_confidence_interval_delegates(run):
    """H: t, corrected t and bootstrap intervals equal the stats calls; each is
    the one-learner form's result (difference=True): a t interval answers at
    another level from its standard error, a BCa one refuses it."""
    m = _means(run)
    got = run.confidence_interval("tree", "nb", confidence_level=0.9)
    t_test = paired_test(m["tree"], m["nb"])
    assert got.difference and got.method == "t"
    assert got.confidence_interval() == t_test.confidence_interval(0.9)
    np.testing.assert_allclose(
        got.confidence_interval(0.95)[:2], t_test.confidence_interval()[:2], rtol=1e-12
    )
    p = _replicates(run, "iris")
    got = run.confidence_interval(
        "tree", "knn", dataset="iris", test_train_ratio=0.368 / 0.632
    )
    ref = paired_test(
        p["tree"], p["knn"], method="corrected_t", test_train_ratio=0.368 / 0.632
    ).confidence_interval()
    assert got.confidence_interval() == ref
    plain = run.confidence_interval("tree", "knn", dataset="iris", method="t")
    assert got.high - got.low > plain.high - plain.low  # the correction widens
    got = run.confidence_interval(
        "tree",
        "knn",
        dataset="iris",
        method="bootstrap",
        n_resamples=999,
        random_state=1,
    )
    ref = bootstrap_ci(p["tree"], p["knn"], n_resamples=999, random_state=1)
    assert got.confidence_interval() == ref and np.isnan(got.standard_error)
    with pytest.raises(ValueError, match="confidence_level=0.9"):
        got.confidence_interval(0.9)


# ------------------------------------------------------------------- power
def test_power_delegates(riddle):
    """H: .power uses sigma = sd(ddof=1) of the per-data-set differences and equals
    power_paired_t at J = 33 and n_datasets_needed (seed 000 Section 3)."""
    table, result = riddle
    d = table["C4.5"] - table["Bagged C4.5"]
    sigma = float(np.std(d, ddof=1))
    for method in ("approx", "exact"):
        row = result.power(
            "C4.5", "Bagged C4.5", delta=0.01, method=method, n_comparisons=1
        ).iloc[0]
        assert row["n_datasets"] == 33
        assert row["sigma"] == pytest.approx(sigma, rel=1e-12)
        assert row["estimate"] == pytest.approx(d.mean(), rel=1e-12)
        assert row["power"] == pytest.approx(
            power_paired_t(33, 0.01, sigma, method=method), rel=1e-12
        )
        assert row["n_datasets_needed"] == n_datasets_needed(0.01, sigma, method=method)


# ------------------------------------------------------------- win_tie_loss
def test_win_tie_loss_counts_and_direction(riddle):
    """H: cell (i, (j, win)) counts data sets where i has the lower error than j,
    by a plain loop; wins of i over j are losses of j to i; tolerance makes ties."""
    table, result = riddle
    wtl = result.win_tie_loss()
    for i, j in itertools.permutations(table.columns, 2):
        assert wtl.loc[i, (j, "win")] == int((table[i] < table[j]).sum())
        assert wtl.loc[i, (j, "loss")] == int((table[i] > table[j]).sum())
        assert wtl.loc[i, (j, "loss")] == wtl.loc[j, (i, "win")]
    assert (wtl.T.groupby(level=0).sum().T == 33).all().all()
    wide = result.win_tie_loss(delta=0.01)
    i, j = "C4.5", "Bagged C4.5"
    assert wide.loc[i, (j, "tie")] == int(((table[i] - table[j]).abs() <= 0.01).sum())
    flipped = BenchmarkResult(
        result.scores,
        metrics={"value": True},
        datasets=result.datasets,
        learners=result.learners,
    )
    assert flipped.win_tie_loss().loc[i, (j, "win")] == wtl.loc[i, (j, "loss")]


# ----------------------------------------------------------------- friedman
def test_friedman_demsar_table_matches_r(demsar, reference_cases):
    """H: .friedman on Demšar's Table 6 (higher is better) equals R's friedman.test
    and the average ranks of the table as printed."""
    _, result = demsar
    exp = reference_cases["friedman_demsar_table6_auc"]["expected"]
    res = result.friedman(exact=False)
    # R: friedman.test(as.matrix(-scores)) (cases.json)
    assert res.statistic == pytest.approx(exp["chi2_friedman_R"], rel=1e-8)
    assert res.pvalue == pytest.approx(exp["p_value_R"], rel=1e-8)
    assert res.n_blocks == 14
    pd.testing.assert_series_equal(
        res.average_ranks, pd.Series(exp["average_ranks"]), rtol=1e-8, check_names=False
    )
    demsar_form = result.friedman(tie_correction=False)
    assert demsar_form.statistic == pytest.approx(exp["chi2_friedman_demsar"], rel=1e-8)


def test_friedman_riddle_table_delegates(riddle):
    """H: .friedman on the seed 002 33 x 4 error table equals friedman_test and
    scipy's friedmanchisquare (lower is better)."""
    table, result = riddle
    res = result.friedman()
    ref = friedman_test(table, greater_is_better=False)
    _same(res, ref)
    assert res.iman_davenport_statistic == pytest.approx(
        ref.iman_davenport_statistic, rel=1e-12
    )
    scipy_ref = sps.friedmanchisquare(*table.to_numpy().T)
    assert res.statistic == pytest.approx(scipy_ref.statistic, rel=1e-10)
    assert res.average_ranks.idxmin() == "Adaboosted C4.5"


def test_friedman_and_global_test_on_a_run(run):
    """H: on a run, .friedman (data sets or replicates as blocks) and .global_test
    equal the direct calls on the same tables."""
    _same(
        run.friedman(),
        friedman_test(_means(run)[LEARNERS], greater_is_better=False),
    )
    p = _replicates(run, "breast")
    _same(
        run.friedman(dataset="breast"),
        friedman_test(p, greater_is_better=False),
    )
    res = run.global_permutation_test("breast", n_resamples=499, random_state=0)
    _same(res, global_permutation_test(p, n_resamples=499, random_state=0))


# ------------------------------------------------------------------- errors
def _frame(values, datasets, learners, replicate=None):
    df = pd.DataFrame({"d": datasets, "l": learners, "v": values})
    if replicate is not None:
        df["r"] = replicate
    return BenchmarkResult.from_frame(
        df,
        dataset="d",
        learner="l",
        value="v",
        replicate="r" if replicate else None,
        greater_is_better=False,
    )


def test_errors_name_what_is_wrong(run):
    """H: each misuse raises a ValueError that names the learner, data set or
    replicate at fault."""
    with pytest.raises(ValueError, match=r"Unknown learner 'svm'.*'tree', 'nb'"):
        run.paired_test("tree", "svm")
    with pytest.raises(ValueError, match="Unknown `dataset` 'nope'"):
        run.friedman(dataset="nope")
    with pytest.raises(ValueError, match="`replicate`"):
        run.paired_test("tree", "nb", method="mcnemar", dataset="breast test")
    with pytest.raises(ValueError, match="`dataset` is required"):
        run.paired_test("tree", "nb", method="mcnemar")
    with pytest.raises(ValueError, match="`method` must be one of"):
        run.confidence_interval("tree", "nb", method="wald")
    nan = _frame([0.1, np.nan, 0.2, 0.3], ["a", "a", "b", "b"], ["x", "y"] * 2)
    # a data set with a failed task is left out across data sets, and counted
    left_out = r"got 1 \(1 data set left out: a task of some learner failed"
    with pytest.raises(ValueError, match=left_out):
        nan.paired_test("x", "y")
    with pytest.raises(ValueError, match=left_out):
        nan.friedman()
    one = _frame([0.1, 0.2], ["a", "a"], ["x", "y"])
    with pytest.raises(ValueError, match="At least 2 data sets"):
        one.paired_test("x", "y")
    with pytest.raises(ValueError, match="At least 2 replicates"):
        one.friedman(dataset="a")
    gap = _frame([0.1, 0.2, 0.3], ["a", "a", "b"], ["x", "y", "x"])
    with pytest.raises(ValueError, match=r"got 1 \(1 data set left out"):
        gap.friedman()  # 'y' has no task on 'b'
    with pytest.raises(ValueError, match="At least 2 learners"):
        _frame([0.1, 0.2], ["a", "b"], ["x", "x"]).friedman()
    with pytest.raises(ValueError, match="keep_predictions=True"):
        one.paired_test("x", "y", method="mcnemar")
    with pytest.raises(ValueError, match="must differ"):
        run.paired_test("tree", "tree")


def test_mcnemar_error_on_failed_learner():
    """H: a learner whose task failed kept no predictions; McNemar says which."""

    class Fails(DecisionTreeClassifier):
        def fit(self, X, y):
            raise RuntimeError("boom")

    X, y = load_iris(return_X_y=True)
    exp = BenchmarkExperiment(
        {"tree": DecisionTreeClassifier(), "fails": Fails()},
        cv=BootstrapOOB(n_bootstraps=1, random_state=0),
        random_state=0,
        keep_predictions=True,
        progress=False,
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = exp.fit(Dataset(X[::2], y[::2], X_test=X[1::2], y_test=y[1::2]))
    result = result.results_
    with pytest.raises(ValueError, match="'fails' kept no predictions"):
        result.paired_test("tree", "fails", method="mcnemar")
    with pytest.raises(ValueError, match=r"got 0 \(1 replicate dropped.*'fails'"):
        result.paired_test("tree", "fails", dataset=list(result.datasets)[0])


# ------------------------------------------------------- degenerate inputs (#11)
def _agreeing_result():
    """3 learners ranked alike on 3 data sets, B always A + 0.05 (issue 11)."""
    rows = []
    for d, base in enumerate([0.10, 0.20, 0.15]):
        for r in range(4):
            e = base + 0.01 * r
            rows += [(f"d{d}", "A", r, e), (f"d{d}", "B", r, e + 0.05)]
            rows += [(f"d{d}", "C", r, e + 0.10 + 0.01 * d)]
    df = pd.DataFrame(rows, columns=["d", "l", "r", "v"])
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="v", replicate="r", greater_is_better=False
    )


def test_friedman_perfect_agreement_on_a_result():
    """H: .friedman on 3 learners ranked alike on 3 data sets gives the exact
    p = 1/36 and an undefined (NaN) Iman-Davenport F with a note, not inf / 0."""
    res = _agreeing_result().friedman()
    assert res.pvalue == pytest.approx(1 / 36, rel=1e-12)
    assert res.null_distribution == "exact"
    assert np.isnan(res.iman_davenport_statistic)
    assert np.isnan(res.iman_davenport_pvalue)
    assert any("undefined" in n for n in res.notes)
    chi = _agreeing_result().friedman(exact=False)
    assert chi.pvalue == pytest.approx(np.exp(-3), rel=1e-12)  # chi2(2) at 6


@pytest.mark.parametrize("dataset", [None, "d1"])
def test_t_family_on_constant_differences_names_learners_and_scope(dataset):
    """H: paired_test and confidence_interval (t, and corrected_t within a data
    set) on constant differences raise a ValueError naming both learners and the
    data set."""
    result = _agreeing_result()
    where = "across 3 data sets" if dataset is None else "within data set 'd1'"
    methods = [("t", {})]
    if dataset is not None:  # corrected_t is a within-data-set test
        methods.append(("corrected_t", {"test_train_ratio": 0.25}))
    for method, kw in methods:
        with pytest.raises(ValueError, match="essentially constant") as info:
            result.paired_test("A", "B", dataset=dataset, method=method, **kw)
        assert "v(A) − v(B)" in str(info.value) and where in str(info.value)
        assert "A vs B" in str(info.value)
        with pytest.raises(ValueError, match=where):
            result.confidence_interval("A", "B", dataset=dataset, method=method, **kw)


def test_exact_methods_on_constant_differences_of_a_result():
    """H: sign, Wilcoxon and permutation on B = A + 0.05 over 4 replicates give
    the exact p = 2^(1-4) = 1/8; the bootstrap interval is the point -0.05."""
    result = _agreeing_result()
    for method in ("sign", "wilcoxon", "permutation"):
        res = result.paired_test("A", "B", dataset="d0", method=method)
        assert res.pvalue == pytest.approx(1 / 8, rel=1e-12)
    ci = result.confidence_interval("A", "B", method="bootstrap", random_state=0)
    assert ci.low == pytest.approx(-0.05) and ci.high == pytest.approx(-0.05)


def test_power_on_constant_differences_names_learners():
    """H: .power with zero spread of the per-data-set differences raises a
    ValueError naming the learners (sigma = 0), and stats.power_paired_t
    refuses sigma = 0 too."""
    with pytest.raises(ValueError, match=r"v\(A\) − v\(B\).*no spread"):
        _agreeing_result().power("A", "B", delta=0.05)
    with pytest.raises(ValueError, match="`sigma` must be a positive"):
        power_paired_t(3, 0.05, 0.0)
    with pytest.raises(ValueError, match="`sigma` must be a positive"):
        n_datasets_needed(0.05, 0.0)
