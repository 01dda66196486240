"""The report's figures, drawn from the fields of an Analysis (matplotlib,
imported lazily)."""

import re

import numpy as np

from .. import plotting
from .._text import adjusted_by
from ..analysis._bottom_line import adjusted_interval_words
from ..plotting._common import figure_label
from ..plotting._performance_distribution import (
    FEW_VALUES,
    draw_performance_distribution,
)
from ..plotting._power import draw_datasets_needed, draw_power_curve


def file_slug(name, max_length=40):
    """A file-name part for a data-set or learner name: a safe ASCII slug and a
    short hash of the raw name, so that names never crash a run nor collide."""
    import hashlib

    text = str(name)
    slug = re.sub(r"[^A-Za-z0-9_-]+", "_", text)[:max_length].strip("_") or "x"
    digest = hashlib.sha1(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{slug}-{digest}"


def _name(analysis):
    return f"{analysis.metric} ({analysis.direction})"


def make_figures(analysis):
    """Every figure the analysis supports and did not skip, as ``{key: (title,
    caption, Figure, citations)}``."""
    import matplotlib

    matplotlib.use("Agg", force=False)

    figures = {}
    level = f"{analysis.confidence_level:.0%}"
    alpha = f"{analysis.alpha:g}"
    fr = analysis.friedman
    if fr is not None and "critical_difference" not in analysis.skipped:
        # the analysis' critical difference, at the plan's α
        ax = plotting.plot_critical_difference(
            fr, cd=analysis.critical_difference, groups=analysis.cd_groups
        )
        ax.set_title(
            f"Average ranks over {fr.n_blocks} {analysis.blocks} (Nemenyi, "
            f"α = {alpha})",
            fontsize=10,
        )
        figures["critical_difference"] = (
            "Critical difference diagram",
            "Average ranks (1 = best). Learners joined by a bar do not differ "
            f"significantly by Nemenyi's test at α = {alpha} (Nemenyi 1963; "
            "Demšar 2006, Fig. 1).",
            ax.figure,
            ("nemenyi1963", "demsar2006"),
        )
    pairwise = analysis.pairwise
    if pairwise is not None and "pairwise_significance" not in analysis.skipped:
        ax = plotting.plot_pairwise_significance(pairwise)
        figures["pairwise_significance"] = (
            "Pairwise significance diagram",
            "Average ranks (1 = best); a bar joins learners no two of which differ "
            "by the pairwise Wilcoxon signed-rank tests, "
            f"{adjusted_by(pairwise.adjust)}, at α = {pairwise.alpha:g} "
            "(Benavoli et al. 2016). The table above is the full answer.",
            ax.figure,
            ("benavoli2016",),
        )
    shown = analysis.distributions
    for dataset, values in shown.items():
        slug = file_slug(dataset)
        ax = draw_performance_distribution(
            values, dataset=dataset, metric=analysis.metric,
            greater_is_better=analysis.greater_is_better,
        )  # fmt: skip
        ax.set_title(f"{dataset}", fontsize=10)
        few = max((v.size for v in values.values()), default=0)
        drawn = (
            f"the {few} value(s) of each learner as points: too few replicates "
            "for a boxplot or a density (run more repeats)."
            if few <= FEW_VALUES
            else "boxplot and kernel density (Hothorn et al. 2005, Figs. 3-5), "
            "reflected at the ends of the metric's range (an error rate lies "
            "in [0, 1]) so that no curve runs beyond them."
        )
        figures[f"distribution_{slug}"] = (
            f"Performance distribution: {dataset}",
            f"{_name(analysis)} of each learner over the replicates of "
            f"{dataset}: {drawn}",
            ax.figure,
            () if few <= FEW_VALUES else ("hothorn2005",),
        )
    if 0 < len(shown) < len(analysis.mean):
        title, caption, fig, cites = figures[f"distribution_{slug}"]
        caption += (
            f" Distributions are drawn for the first {len(shown)} of the "
            f"{len(analysis.mean)} data sets; draw any other with "
            "sklearn_bench.plotting.performance_distribution."
        )
        figures[f"distribution_{slug}"] = (title, caption, fig, cites)
    if len(analysis.pairs):
        m = len(analysis.pairs)
        adjusted = adjusted_interval_words(
            analysis.confidence_level, analysis.pairs["adjusted_level"].iloc[0], m
        )
        ax = plotting.plot_confidence_intervals(
            analysis.pairs,
            xlabel=f"difference in {figure_label(_name(analysis))}",
            title="Pairwise differences over " + figure_label(analysis.blocks),
            confidence_level=analysis.confidence_level,
            adjusted_label=adjusted if m > 1 else None,
        )
        figures["forest"] = (
            "Confidence intervals of pairwise differences",
            f"Thick: unadjusted {level} paired-t intervals, each on its own; "
            + (
                f"thin: {adjusted} intervals, which cover all {m} differences "
                f"together with probability {level} (Berrar & Lozano 2013, Fig. "
                "4, with Bonferroni's level). A thin interval that misses the "
                "dashed line excludes 'no difference' for the family: the "
                "Holm-adjusted p of that pair is below α too. A thick interval "
                "that misses it does so at its own level only, not adjusted for "
                f"the {m} comparisons."
                if m > 1
                else "with one comparison there is no adjustment. An interval "
                f"that misses the dashed line excludes 'no difference' at {level}."
            ),
            ax.figure,
            ("berrar2013",) if m > 1 else (),
        )
    pw = analysis.power
    if pw is not None:
        if pw.delta is not None:
            delta, n_needed = pw.delta, pw.n_needed
            what = f"Δ = {delta:.3g} ({pw.delta_source}, fixed in advance)"
            title = "Power of the study"
        else:
            # Only the observed difference: post-hoc power, labelled as such.
            delta, n_needed = abs(pw.observed_difference), pw.posthoc_n_needed
            what = (
                f"the observed difference {delta:.3g} (post-hoc power: no Δ was "
                "given; a function of the p-value, not evidence)"
            )
            title = "Post-hoc power at the observed difference"
        ax = draw_power_curve(
            pw.n_grid, pw.power_curves, pw.sigmas, delta=delta,
            alpha=pw.test_alpha, target_power=pw.target_power,
            mark=pw.n_datasets, marks=pw.power_marks,
        )  # fmt: skip
        if pw.delta is None:
            ax.set_title(f"Post-hoc power at the observed {delta:.3g}", pad=18)
        figures["power"] = (
            title,
            f"Power of the {pw.test_words} across J data sets to detect "
            f"{what} for the observed σ = "
            f"{pw.sigma:.3g} of the per-data-set differences of "
            f"{pw.pair[0]} and {pw.pair[1]}, and for half and twice it "
            "(Boulesteix et al. 2015, Fig. 2 right).",
            ax.figure,
            ("boulesteix2015",),
        )
        ax = draw_datasets_needed(
            pw.delta_grid, pw.needed_curves, pw.sigmas, power=pw.target_power,
            alpha=pw.test_alpha, mark=(delta, n_needed),
        )  # fmt: skip
        figures["datasets_needed"] = (
            "Data sets a decisive study would need",
            f"Number of data sets for power {pw.target_power:.0%} against the "
            "difference to detect (Boulesteix et al. 2015, Fig. 2 left).",
            ax.figure,
            ("boulesteix2015",),
        )
    counts = analysis.win_tie_loss
    if counts is not None:
        ax = plotting.plot_win_tie_loss(counts)
        total = (
            counts.T.groupby(level=0, sort=False).sum().T.to_numpy().astype(int)
        )  # wins + ties + losses of each pair: the data sets both have
        np.fill_diagonal(total, -1)
        n = int(total.max())
        caption = (
            f"Counts over the {n} data set(s) with results of at least two "
            f"learners, of the mean {analysis.metric}: the raw material of the "
            "sign test (Demšar 2006, Section 3.1.3). "
            + (
                f"A difference within Δ = {analysis.delta:g} (the smallest "
                "difference that matters) is a tie."
                if analysis.delta
                else "Only equal means are ties (no Δ was given)."
            )
        )
        if n == 1:
            caption += (
                " With one data set each cell is a single win, tie or loss; the "
                "within-data-set intervals above say by how much and how surely."
            )
        if (total == 0).any():
            caption += " A pair without a data set on which both have results is 0/0/0."
        figures["win_tie_loss"] = (
            "Wins, ties and losses",
            caption,
            ax.figure,
            ("demsar2006",),
        )
    return figures
