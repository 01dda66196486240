"""One name per concept in the public signatures of analysis, report and the CLI.

The same conventions as ``tests/stats/test_conventions.py``, checked one layer up:
the analysis plan, the renderers' entry points and the command line's flags use
``confidence_level``, ``alpha``, ``delta``, ``n_resamples``, ``adjust`` and
``greater_is_better``, and every option is keyword-only. An old name is gone
outright (no shim: the package was never released).
"""

import argparse
import dataclasses
import inspect

import numpy as np
import pandas as pd
import pytest

import sklearn_bench.analysis as analysis
import sklearn_bench.report as report
from sklearn_bench import BenchmarkResult
from sklearn_bench.cli._main import _build_parser

FORBIDDEN = {
    "higher_is_better": "greater_is_better",
    "rope": "delta",
    "tolerance": "delta",
    "level": "confidence_level",
    "n_bootstrap": "n_resamples",
    "n_samples": "n_draws",
    "posthoc_adjust": "adjust",
    "correction": "adjust",
}
# record classes: what an analysis found (fields named by the records' own rule,
# built by the package), not options a user passes
RECORDS = {
    "Analysis",
    "BestLearners",
    "BottomLine",
    "Disagreement",
    "LeaderboardAnalysis",
    "PowerAnalysis",
    "TestRecord",
}
# the data an entry point works on, which may stay positional
DATA = {
    ("analyse", "plan"),  # analyse(result, plan): the plan says what to run on it
}


def _entries():
    out = []
    for module in (analysis, report):
        for name in module.__all__:
            obj = getattr(module, name)
            if name in RECORDS or not callable(obj):
                continue
            if inspect.isclass(obj):
                out.append((name, obj))
                out += [
                    (f"{name}.{attr}", member)
                    for attr, member in vars(obj).items()
                    if not attr.startswith("_") and inspect.isfunction(member)
                ]
            else:
                out.append((name, obj))
    return sorted(dict(out).items())


ENTRIES = _entries()


@pytest.mark.parametrize(("ident", "func"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_no_retired_name_in_analysis_or_report(ident, func):
    """Hypothesis: no public signature of analysis or report (the plan's fields
    included) uses a retired name of a concept."""
    names = set(inspect.signature(func).parameters)
    bad = {n: FORBIDDEN[n] for n in names & FORBIDDEN.keys()}
    assert not bad, f"{ident}: rename {bad}"


@pytest.mark.parametrize(("ident", "func"), ENTRIES, ids=[e[0] for e in ENTRIES])
def test_options_of_analysis_and_report_are_keyword_only(ident, func):
    """Hypothesis: every option (a parameter with a default) of a public analysis
    or report signature is keyword-only, except the data an entry point works on;
    a ``greater_is_better`` never has a silent bool default."""
    for p in inspect.signature(func).parameters.values():
        if p.default is p.empty or (ident.split(".")[-1], p.name) in DATA:
            continue
        assert p.kind is p.KEYWORD_ONLY, f"{ident}: `{p.name}` is not keyword-only"
        if p.name == "greater_is_better":
            assert not isinstance(p.default, bool), f"{ident}: silent direction"


def test_analysis_plan_takes_keywords_only():
    """Hypothesis: AnalysisPlan's settings are passed by name (a positional
    AnalysisPlan(0.05, 0.95) would be read wrongly the day a field is added)."""
    fields = dataclasses.fields(analysis.AnalysisPlan)
    assert all(f.kw_only for f in fields)
    with pytest.raises(TypeError):
        analysis.AnalysisPlan("accuracy")


def _cli_options():
    parser = _build_parser()
    (subs,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    out = []
    for command, sub in subs.choices.items():
        for action in sub._actions:
            out += [(command, o) for o in action.option_strings if o.startswith("--")]
    return out


def test_cli_flags_use_the_one_name_of_each_concept():
    """Hypothesis: every documented flag of every command, read as a keyword
    (``--n-resamples`` -> ``n_resamples``), avoids the retired names, so the
    command line and the Python API name each concept the same way."""
    options = _cli_options()
    assert ("report", "--confidence-level") in options  # the walk reads the flags
    bad = [
        (command, flag)
        for command, flag in options
        if flag[2:].replace("-", "_") in FORBIDDEN
    ]
    assert not bad


def _board_result(n=12):
    rng = np.random.default_rng(0)
    df = pd.DataFrame(
        {
            "d": np.repeat([f"d{i}" for i in range(n)], 3),
            "l": ["A", "B", "C"] * n,
            "e": rng.uniform(0.1, 0.3, 3 * n) + [0.0, 0.03, 0.08] * n,
        }
    )
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", value="e", greater_is_better=False
    )


def test_old_names_are_gone(tmp_path, capsys):
    """Hypothesis: the 0.1 names are not accepted: ``leaderboard --n-bootstrap``
    is a usage error (exit 2), and analyse_result and ReportAnalysis do not
    exist."""
    from sklearn_bench.cli import main

    result = _board_result()
    csv = tmp_path / "tab.csv"
    result.scores.rename(columns={"value": "error"})[
        ["dataset", "learner", "error"]
    ].to_csv(csv, index=False)
    with pytest.raises(SystemExit) as exit_:
        main(["leaderboard", str(csv), "--lower-is-better", "--n-bootstrap", "30"])
    assert exit_.value.code == 2
    assert "--n-bootstrap" in capsys.readouterr().err
    assert not hasattr(report, "analyse_result")
    assert not hasattr(analysis, "analyse_result")
    assert not hasattr(analysis, "ReportAnalysis")


def test_config_keys_use_the_one_name_of_each_concept():
    """Hypothesis: the [analysis] keys of a run config (the plan's settings, by
    their config names) avoid the retired names."""
    from sklearn_bench.cli._config import PLAN_KEYS

    assert not set(PLAN_KEYS) & FORBIDDEN.keys()
    assert not set(PLAN_KEYS.values()) & FORBIDDEN.keys()
