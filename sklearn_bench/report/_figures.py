"""The report's figures, made from a ReportAnalysis (matplotlib, imported lazily)."""

import re

import numpy as np

from .. import plotting

# A study of hundreds of data sets gets the distributions of the first ones only:
# each is a figure, and hundreds would neither render quickly nor be read.
_MAX_DISTRIBUTIONS = 20


def _name(analysis):
    return f"{analysis.metric} ({analysis.direction})"


def make_figures(result, analysis, *, analyses):
    """Every figure the analysis supports, as ``{key: (title, caption, Figure)}``.

    Keys: ``"critical_difference"``, ``"distribution_<data set>"`` (one each),
    ``"forest"``, ``"power"``, ``"datasets_needed"``, ``"win_tie_loss"``.
    """
    import matplotlib

    matplotlib.use("Agg", force=False)
    import matplotlib.pyplot as plt

    figures = {}
    level = f"{analysis.confidence_level:.0%}"
    if analysis.friedman is not None:
        ax = plotting.plot_critical_difference(analysis.friedman)
        ax.set_title(
            f"Average ranks over {analysis.friedman.n_blocks} "
            f"{analysis.friedman_blocks} (Nemenyi, α = 0.05)",
            fontsize=10,
        )
        figures["critical_difference"] = (
            "Critical difference diagram",
            "Average ranks (1 = best). Learners joined by a bar do not differ "
            "significantly by Nemenyi's test (Demšar 2006, Fig. 1).",
            ax.figure,
        )
    if "effects" in analyses:
        shown = analysis.mean.index[:_MAX_DISTRIBUTIONS]
        for dataset in shown:
            ax = plotting.performance_distribution(
                result, dataset, metric=analysis.metric
            )
            ax.set_title(f"{dataset}", fontsize=10)
            slug = re.sub(r"[^A-Za-z0-9_.-]+", "_", str(dataset))
            figures[f"distribution_{slug}"] = (
                f"Performance distribution: {dataset}",
                f"{_name(analysis)} of each learner over the replicates of "
                f"{dataset}: boxplot and kernel density (Hothorn et al. 2005, "
                "Figs. 3-5).",
                ax.figure,
            )
        if len(shown) < len(analysis.mean):
            title, caption, fig = figures[f"distribution_{slug}"]
            caption += (
                f" Distributions are drawn for the first {len(shown)} of the "
                f"{len(analysis.mean)} data sets; draw any other with "
                "sklearn_bench.plotting.performance_distribution."
            )
            figures[f"distribution_{slug}"] = (title, caption, fig)
    if len(analysis.pairs):
        ax = plotting.plot_confidence_intervals(
            analysis.pairs,
            xlabel=f"difference in {_name(analysis)}",
            title=f"Pairwise differences over {analysis.pairs_blocks}",
        )
        figures["forest"] = (
            "Confidence intervals of pairwise differences",
            f"Thick: unadjusted {level} paired-t intervals; thin: at Holm's "
            "step-down levels (Berrar & Lozano 2013, Fig. 4). An interval that "
            "misses the dashed line excludes 'no difference'.",
            ax.figure,
        )
    if analysis.power is not None:
        pw = analysis.power
        sigmas = [pw["sigma"] / 2, pw["sigma"], 2 * pw["sigma"]]
        ax = plotting.plot_power_curve(
            pw["delta"],
            sigmas,
            mark=pw["n_datasets"],
            target_power=pw["target_power"],
        )
        figures["power"] = (
            "Power of the study",
            f"Power of the one-sided paired t-test across J data sets to detect "
            f"Δ = {pw['delta']:.3g} ({pw['delta_source']}) for the observed σ = "
            f"{pw['sigma']:.3g} of the per-data-set differences of "
            f"{pw['pair'][0]} and {pw['pair'][1]}, and for half and twice it "
            "(Boulesteix et al. 2013, Fig. 2 right).",
            ax.figure,
        )
        deltas = np.linspace(pw["sigma"] / 5, max(2 * pw["sigma"], pw["delta"]), 40)
        ax = plotting.plot_datasets_needed(
            sigmas,
            delta=deltas,
            power=pw["target_power"],
            mark=(pw["delta"], pw["n_needed"]),
        )
        figures["datasets_needed"] = (
            "Data sets a decisive study would need",
            f"Number of data sets for power {pw['target_power']:.0%} against the "
            "difference to detect (Boulesteix et al. 2013, Fig. 2 left).",
            ax.figure,
        )
    if "win_tie_loss" in analyses and analysis.mean.shape[1] >= 2:
        ax = plotting.plot_win_tie_loss(
            analysis.mean, greater_is_better=analysis.greater_is_better
        )
        figures["win_tie_loss"] = (
            "Wins, ties and losses",
            f"Counts over the {len(analysis.mean)} data set(s) of the mean "
            f"{analysis.metric}: the raw material of the sign test (Demšar 2006, "
            "Section 3.1.3).",
            ax.figure,
        )
    del plt
    return figures
