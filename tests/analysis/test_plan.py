"""Tests of sklearn_bench/analysis/_plan.py: the analysis plan, its checks, the
one default-Δ rule, and its settings declared once (the CLI's options, the
config's keys and the report's settings table are generated from them)."""

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sklearn_bench import BenchmarkResult  # noqa: E402
from sklearn_bench._metrics import default_delta  # noqa: E402
from sklearn_bench.analysis import AnalysisPlan, analyse
from sklearn_bench.analysis._plan import (
    ANALYSES,
    plan_settings,  # noqa: E402
)
from sklearn_bench.cli._config import ConfigError, parse_config  # noqa: E402


def _result(n_datasets=6):
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(n_datasets)], 3),
            "l": list("ABC") * n_datasets,
            "error_rate": rng.uniform(0.1, 0.3, 3 * n_datasets)
            + np.tile([0.0, 0.02, 0.05], n_datasets),
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="error_rate", greater_is_better=False
    )


def test_defaults_and_the_one_delta_rule():
    """H: the default plan is α 0.05, 95% intervals, every analysis, Nemenyi
    single-step and the signed-rank model; Δ None resolves by
    _metrics.default_delta (0.01 on [0, 1] metrics, none otherwise) and a given
    Δ is used as given."""
    plan = AnalysisPlan()
    assert (plan.alpha, plan.confidence_level, plan.analyses) == (0.05, 0.95, ANALYSES)
    assert (plan.posthoc, plan.adjust, plan.bayesian) == (
        "nemenyi",
        "single_step",
        "signed_rank",
    )
    for metric in ("roc_auc", "accuracy", "mean_squared_error", "error_rate"):
        expected = default_delta(metric)
        source = "none" if expected is None else "default"
        assert plan.resolved_delta(metric) == (expected, source)
    assert AnalysisPlan(delta=2).resolved_delta("mean_squared_error") == (2.0, "given")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"delta": 0}, ValueError, "`delta` must be positive"),
        ({"delta": "0.1"}, TypeError, "`delta`"),
        ({"alpha": 1.5}, ValueError, "`alpha` must lie strictly between 0 and 1"),
        ({"confidence_level": 0}, ValueError, "`confidence_level`"),
        ({"target_power": 1}, ValueError, "`target_power`"),
        ({"analyses": ["effects", "anova"]}, ValueError, "unknown entries"),
        ({"analyses": "effects"}, TypeError, "`analyses` must be a list"),
        ({"posthoc": "dunn"}, ValueError, "`posthoc` must be one of"),
        ({"posthoc": "nemenyi", "adjust": "holm"}, ValueError, "single_step"),
        ({"adjust": "bogus"}, ValueError, "`adjust` must be one of"),
        ({"metric": 3}, TypeError, "`metric`"),
        ({"bayesian": "baycomp"}, ValueError, "`bayesian` must be one of"),
    ],
)
def test_a_bad_plan_is_refused_naming_the_setting(kwargs, error, match):
    """H: every setting is checked when the plan is made, and the error names
    it."""
    with pytest.raises(error, match=match):
        AnalysisPlan(**kwargs)


def test_the_plan_is_frozen_and_resolves_the_posthoc_correction():
    """H: a plan cannot be changed after it is made, and stores its correction
    resolved: Shaffer's after Conover's, single step after Nemenyi's."""
    plan = AnalysisPlan(posthoc="Conover")
    assert (plan.posthoc, plan.adjust) == ("conover", "shaffer")
    assert AnalysisPlan().adjust == "single_step"
    with pytest.raises(AttributeError):
        plan.alpha = 0.1


def test_settings_are_declared_once():
    """H: each setting of the plan is declared once, with its type, default,
    help and choices; the config's [analysis] keys, the options of
    `sklearn-bench report` and the rows of the report's settings table are
    exactly these settings (``run`` is the config's name of ``analyses``)."""
    from sklearn_bench.cli._config import PLAN_KEYS
    from sklearn_bench.cli._main import _build_parser
    from sklearn_bench.report._methods import settings_table

    names = [f.name for f in plan_settings()]
    assert names == [
        "metric", "analyses", "alpha", "confidence_level", "delta",
        "target_power", "posthoc", "adjust", "bayesian", "generalization_method",
    ]  # fmt: skip
    assert all(f.metadata["help"] and f.metadata["type"] for f in plan_settings())
    assert sorted(PLAN_KEYS.values()) == sorted(names) and "run" in PLAN_KEYS
    report = _build_parser()._subparsers._group_actions[0].choices["report"]
    options = {a.dest: a for a in report._actions if a.option_strings}
    for f in plan_settings():
        option = options[f.name]
        assert option.option_strings == [f"--{f.name.replace('_', '-')}"]
        assert f.metadata["help"] in option.help
        assert option.choices == f.metadata["choices"]
    table = settings_table(analyse(_result(), AnalysisPlan(alpha=0.1)))
    assert list(table) == names
    assert table["alpha"] == (0.1, "given") and table["posthoc"][1] == "default"


def test_hierarchical_without_numpyro_is_a_clear_error(monkeypatch):
    """H: asking for the hierarchical model without NumPyro is a ValueError that
    gives the install line, in Python and in the config (`analysis.bayesian`);
    nothing is chosen by what is installed."""
    from sklearn_bench.analysis import _plan

    monkeypatch.setattr(_plan, "hierarchical_installed", lambda: False)
    with pytest.raises(ValueError, match=r'pip install "sklearn-bench\[bayes\]"'):
        AnalysisPlan(bayesian="hierarchical")
    good = {
        "experiment": {"cv": 3},
        "learners": {"lr": {"class": "sklearn.linear_model.LogisticRegression"}},
        "datasets": {"iris": {"sklearn": "iris"}},
    }
    with pytest.raises(ConfigError, match=r"`analysis.bayesian`.*sklearn-bench\["):
        parse_config({**good, "analysis": {"bayesian": "hierarchical"}})
    with pytest.raises(ConfigError, match="`analysis.bayesian`"):
        parse_config({**good, "analysis": {"bayesian": "stan"}})
    assert parse_config({**good, "analysis": {}}).plan.bayesian == "signed_rank"
    with pytest.raises(ConfigError, match="`analysis.adjust`: adjust must be one of"):
        parse_config({**good, "analysis": {"adjust": "bogus"}})
