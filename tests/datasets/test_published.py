import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult
from sklearn_bench.datasets import load_demsar2006, load_dietterich2000
from sklearn_bench.stats import friedman_test

LOADERS = [
    (load_demsar2006, "demsar2006_table6_auc.csv", "auc"),
    (load_dietterich2000, "riddle_c45_variants_error.csv", "error_rate"),
]


@pytest.mark.parametrize(
    "load, name, value", LOADERS, ids=lambda v: getattr(v, "__name__", v)
)
def test_wide_table_equals_the_reference_csv(load, name, value, reference_table):
    """H: the embedded table, as printed, equals the reference CSV value for value,
    with data sets and learners in the CSV's order."""
    expected = reference_table(name)
    expected.columns.name = "learner"
    pd.testing.assert_frame_equal(load(wide=True), expected, check_exact=True)


@pytest.mark.parametrize(
    "load, name, value", LOADERS, ids=lambda v: getattr(v, "__name__", v)
)
def test_tidy_table_is_the_wide_table_melted(load, name, value, reference_table):
    """H: the tidy table has one row per data set and learner, in printed order,
    with columns dataset, learner and the metric, holding the CSV's values."""
    expected = reference_table(name)
    tidy = load()
    assert list(tidy.columns) == ["dataset", "learner", value]
    assert len(tidy) == expected.size
    assert list(tidy["dataset"].unique()) == list(expected.index)
    assert list(tidy["learner"].unique()) == list(expected.columns)
    back = tidy.pivot(index="dataset", columns="learner", values=value)
    back = back.loc[expected.index, expected.columns]
    assert (back.to_numpy() == expected.to_numpy()).all()


def test_a_fresh_table_each_call():
    """H: changing a returned table does not change the next one (no shared state)."""
    first = load_demsar2006()
    first.loc[0, "auc"] = -1.0
    assert load_demsar2006().loc[0, "auc"] == 0.763
    wide = load_dietterich2000(wide=True)
    wide.iloc[0, 0] = -1.0
    assert load_dietterich2000(wide=True).iloc[0, 0] == 0.3257


def test_demsar_friedman_reproduces_the_printed_table_value():
    """H: Friedman's test on the loaded AUC table gives the χ²_F of the printed
    (rounded) table, 9.857 by Demšar's formula and 10.952 with R's tie correction."""
    # cases.json friedman_demsar_table6_auc: R friedman.test = 10.952380952381,
    # Demšar's uncorrected formula 9.85714285714285 (voting ties at 0.975).
    auc = load_demsar2006(wide=True)
    res = friedman_test(auc, greater_is_better=True, tie_correction=False)
    assert res.statistic == pytest.approx(9.85714285714285, rel=1e-10)
    assert res.average_ranks.tolist() == pytest.approx(
        [3.14285714285714, 2.0, 2.92857142857143, 1.92857142857143], rel=1e-12
    )
    tied = friedman_test(auc, greater_is_better=True)
    assert tied.statistic == pytest.approx(10.952380952381, rel=1e-10)


def test_dietterich_friedman_through_a_benchmark_result():
    """H: the tidy error table goes through from_frame unchanged: the result's
    Friedman test equals the one on the wide table (lower is better)."""
    result = BenchmarkResult.from_frame(
        load_dietterich2000(),
        dataset="dataset",
        learner="learner",
        value="error_rate",
        greater_is_better=False,
    )
    assert result.learners == list(load_dietterich2000(wide=True).columns)
    direct = friedman_test(load_dietterich2000(wide=True), greater_is_better=False)
    assert result.friedman().statistic == pytest.approx(direct.statistic)
    assert direct.average_ranks.idxmin() == "Adaboosted C4.5"


@pytest.mark.parametrize("wide", [1, "yes", None])
def test_wide_must_be_a_bool(wide):
    """H: a non-bool `wide` is refused with a message naming the argument."""
    with pytest.raises(TypeError, match="`wide`"):
        load_demsar2006(wide=wide)
