"""The deprecated ``.plot()`` methods of stats results (removed in 0.3).

They are shims over :mod:`sklearn_bench.plotting` (stats/_common.py's
``_deprecated_plot``, the one sanctioned upward reach of stats): each warns,
names the plotting function to call instead, and draws the same figure.
"""

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from sklearn_bench.plotting import (  # noqa: E402
    plot_critical_difference,
    plot_multiple_rule_bias,
    plot_pairwise_significance,
)
from sklearn_bench.stats import (  # noqa: E402
    friedman_test,
    multiple_rule_bias,
    pairwise_tests,
    tukey_hsd,
)

rng = np.random.default_rng(3)
ERRORS = pd.DataFrame(
    rng.normal(0.2, 0.05, (15, 4)) + [0.0, 0.01, 0.05, 0.08], columns=list("ABCD")
)
TRUE = rng.uniform(0.1, 0.4, size=(3, 12, 2))
ESTIMATED = TRUE + rng.normal(0, 0.05, size=(3, 12, 2))


def _drawing(axes):
    """What a figure shows: every line's data and every text, per axes."""
    out = []
    for ax in np.atleast_1d(axes).ravel():
        lines = [
            (line.get_gid(), tuple(line.get_xdata()), tuple(line.get_ydata()))
            for line in ax.lines
        ]
        texts = [(t.get_gid(), t.get_text(), t.get_position()) for t in ax.texts]
        out.append((lines, texts, ax.get_xlim(), ax.get_ylim()))
    return out


CASES = [
    (
        "FriedmanResult",
        lambda: friedman_test(ERRORS, greater_is_better=False),
        {"alpha": 0.1},
        lambda res, **kw: plot_critical_difference(res, **kw),
        "plot_critical_difference",
    ),
    (
        "TukeyHSDResult",
        lambda: tukey_hsd(ERRORS, greater_is_better=False),
        {"colors": {"A": "tab:green"}},
        lambda res, **kw: plot_critical_difference(res, alpha=res.alpha, **kw),
        "plot_critical_difference",
    ),
    (
        "PairwiseTestResult",
        lambda: pairwise_tests(ERRORS, adjust="holm", greater_is_better=False),
        {},
        lambda res, **kw: plot_pairwise_significance(res, **kw),
        "plot_pairwise_significance",
    ),
    (
        "MultipleRuleBiasResult",
        lambda: multiple_rule_bias(TRUE, ESTIMATED),
        {"datasets": None},
        lambda res, **kw: plot_multiple_rule_bias(res, **kw),
        "plot_multiple_rule_bias",
    ),
]


@pytest.mark.parametrize(
    "owner, make, kwargs, draw, function", CASES, ids=[c[0] for c in CASES]
)
def test_plot_method_warns_and_draws_the_same_figure(
    owner, make, kwargs, draw, function
):
    """H: result.plot() gives a FutureWarning naming the plotting function to call
    instead, and draws exactly the figure that function draws."""
    res = make()
    with pytest.warns(FutureWarning, match=rf"{owner}\.plot\(\).*{function}\(result\)"):
        old = res.plot(**kwargs)
    new = draw(res, **kwargs)
    assert _drawing(old) == _drawing(new)
    plt.close("all")


def test_plot_method_draws_on_the_given_axes():
    """H: the shim passes `ax` through: it draws on the given axes and returns
    them."""
    fig, ax = plt.subplots(figsize=(8, 3))
    with pytest.warns(FutureWarning):
        assert friedman_test(ERRORS, greater_is_better=False).plot(ax=ax) is ax
    assert plt.get_fignums() == [fig.number]
    plt.close(fig)


def test_stats_imports_no_plotting_module():
    """H: no module of stats imports plotting (the shims reach it by name, at call
    time): importing stats leaves sklearn_bench.plotting unimported."""
    import subprocess
    import sys

    code = (
        "import sys, sklearn_bench.stats; "
        "print('sklearn_bench.plotting' in sys.modules)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "False"
