"""The pairwise-significance diagram names a Friedman-type post-hoc (issue 24)."""

import numpy as np
import pytest

from sklearn_bench.stats import pairwise_tests

pytest.importorskip("matplotlib")


@pytest.mark.parametrize(
    "method, word", [("conover", "Conover"), ("exact_ranksum", "exact rank sums")]
)
def test_diagram_label_names_the_rank_posthoc(method, word):
    """H: the default label of plot_pairwise_significance names the post-hoc and
    its correction, not "sign"."""
    import matplotlib.pyplot as plt

    from sklearn_bench.plotting import plot_pairwise_significance

    scores = np.random.default_rng(0).normal(size=(10, 4))
    ax = plot_pairwise_significance(
        pairwise_tests(scores, method=method, greater_is_better=False)
    )
    text = " ".join(t.get_text() for t in ax.texts) + ax.get_title()
    text += (
        " ".join(t.get_text() for t in ax.get_legend().get_texts())
        if ax.get_legend()
        else ""
    )
    plt.close(ax.figure)
    assert word in text and "sign," not in text
