"""The power section says which test it is the power of (issue 28 items 1 and 4)."""

import numpy as np
import pandas as pd
import pytest

from sklearn_bench import BenchmarkResult

from .._report import report

pytest.importorskip("matplotlib")


def _result(n_learners=3, n_datasets=8):
    rng = np.random.default_rng(4)
    base = rng.uniform(0.1, 0.3, n_datasets)
    rows = [
        {
            "dataset": f"d{i}",
            "learner": f"m{j}",
            "error_rate": base[i] + 0.01 * j + rng.normal(0, 0.01),
        }
        for i in range(n_datasets)
        for j in range(n_learners)
    ]
    return BenchmarkResult.from_frame(
        pd.DataFrame(rows),
        dataset="dataset",
        learner="learner",
        value="error_rate",
        greater_is_better=False,
    )


def test_power_text_names_the_two_sided_test_at_the_adjusted_level(tmp_path):
    """H: the report's power paragraph, the figure caption, the bottom line and the
    printed summary call the power that of the two-sided paired t-test (it is the
    two-sided power) at Holm's first-step level α/m over the m pairs of the
    primary analysis, never "one-sided"."""
    from sklearn_bench.report import format_summary

    result = _result()
    analysis = report(result, tmp_path, figure_formats=("png",))
    pw = analysis.power
    m = len(analysis.pairs)
    assert m == 3 and pw.test_alpha == pytest.approx(0.05 / 3)
    html = (tmp_path / "report.html").read_text()
    section = html[html.index('id="power-delta"') :][:800]
    assert "one-sided" not in html
    assert "two-sided paired t-test at Holm" in section and f"α/{m}" in section
    assert "two-sided paired t-test at Holm" in format_summary(analysis)


def test_methods_states_the_power_level_once_rounded():
    """H (issue 37.9): the methods sentence of the power analysis states the level
    of its test once, as the test's words give it (α/3 = 0.017), with no second
    unrounded "at α = 0.0166667" (on 17a1a60 the demo's methods text ended the
    power sentence "at α = 0.00238095" after "α/21 = 0.0024")."""
    from sklearn_bench.analysis import analyse

    analysis = analyse(_result())
    (power,) = [r for r in analysis.methods if r.key == "power"]
    sentence = power.sentence()
    assert "α/3 = 0.017" in sentence
    assert sentence.count("α") == 1 and "0.016666" not in sentence
