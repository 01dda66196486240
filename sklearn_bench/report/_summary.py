"""The plain-text summary the CLI prints: effect sizes, then tests, then power."""

import textwrap

import numpy as np

from .._text import terminal_line, terminal_text
from ..analysis import Analysis
from ..analysis._bottom_line import (
    DISAGREEMENTS_TITLE,
    MORE_TITLE,
    adjusted_interval_words,
)
from ..analysis._format import fmt_names, fmt_p_equals
from ..analysis._records import SIGN_CONVENTION
from ._bayesian import bayesian_summary_lines
from ._generalization import generalization_lines


def _num(x, digits=3):
    if x is None or (isinstance(x, float) and np.isnan(x)):
        return "–"
    if np.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:+.{digits}f}"


def _wrapped(text):
    """A sentence of the summary, indented and wrapped at 88 columns."""
    return textwrap.fill(
        terminal_line(text), width=88, initial_indent="   ", subsequent_indent="   ",
        break_long_words=False, break_on_hyphens=False,
    )  # fmt: skip


def iman_davenport_words(fr, digits=2):
    """The Iman–Davenport F of a FriedmanResult and its p, in words."""
    if np.isnan(fr.iman_davenport_statistic):
        return (
            "Iman–Davenport F undefined (every block ranks the learners alike: "
            "zero residual variance)"
        )
    return (
        f"Iman–Davenport F = {fr.iman_davenport_statistic:.{digits}f} "
        f"({fmt_p_equals(fr.iman_davenport_pvalue)})"
    )


def format_summary(analysis):
    """The summary of an :class:`~sklearn_bench.analysis.Analysis` as text
    (what the CLI prints; :meth:`Analysis.summary` is the short form): the
    bottom line, then (1) effect sizes, (2) sensitivity analyses, (3) power.

    Parameters
    ----------
    analysis : Analysis

    Returns
    -------
    str

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> from sklearn_bench.report import format_summary
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> text = format_summary(analyse(result, AnalysisPlan()))
    >>> print("\\n".join(text.splitlines()[1:5]))  # doctest: +NORMALIZE_WHITESPACE
    Bottom line
       By its primary analysis the study cannot separate the learners: C4.5+m+cf
       ranks best in auc (higher is better) on 14 data sets; no other is worse at
       α = 0.05. C4.5+m+cf − C4.5+m (the runner-up) = +0.007 (unadjusted 95% CI
       [-0.004, +0.017];
    """

    if not isinstance(analysis, Analysis):
        raise TypeError(
            "`analysis` must be an Analysis (from sklearn_bench.analysis.analyse); "
            f"got {type(analysis).__name__}."
        )
    a = analysis
    level = f"{a.confidence_level:.0%}"
    size = f"{len(a.learners)} learners x {len(a.datasets)} data sets"
    if a.datasets_left_out:
        size += (
            f" ({len(a.datasets_across)} in the analyses across data sets: "
            f"{fmt_names(a.datasets_left_out)} left out for failed or missing tasks)"
        )
    cv, seed = a.provenance.get("cv"), a.provenance.get("seed")
    if cv:
        size += f", resampling {cv}"
    if seed is not None:
        size += f", seed {seed}"
    lines = [size + ".", "Bottom line"]
    lines.extend(_wrapped(s) for s in a.bottom_line.sentences)
    if a.bottom_line.more:
        lines.append(MORE_TITLE)
        lines.extend(_wrapped(s) for s in a.bottom_line.more)
    if a.disagreements:
        lines.append(DISAGREEMENTS_TITLE)
        lines.extend(_wrapped(f"- {d.sentence}") for d in a.disagreements)
    lines.append(
        f"1. Effect sizes ({level} confidence intervals), {a.metric} ({a.direction})"
    )
    lines.append(_wrapped(f"{SIGN_CONVENTION}."))
    if a.scales_note:
        lines.append(f"   Warning: {a.scales_note}")
    if len(a.pairs):
        best = a.best_learners
        vs_best = a.pairs[(a.pairs["a"] == a.best) | (a.pairs["b"] == a.best)]
        tied = f" (tied with {fmt_names(best.tied)})" if best.tied else ""
        lines.append(
            f"   Best by average rank: {a.best}{tied}. Differences over {a.blocks}"
            f" ({a.primary_test or 'no test could run'}):\n   estimate, "
            f"unadjusted {level} interval"
            + (
                ",\n   then the "
                + adjusted_interval_words(
                    a.confidence_level, a.pairs["adjusted_level"].iloc[0], len(a.pairs)
                )
                + " interval\n   "
                + (
                    "(compatible with the Holm-adjusted p)"
                    if a.intervals_match_tests
                    else "(not at the tests' 1 − α: not comparable with it)"
                )
                + " and the Holm-adjusted p:"
                if len(a.pairs) > 1
                else ":"
            )
        )
        width = max(len(str(i)) for i in vs_best.index)
        for pair, row in vs_best.iterrows():
            lines.append(
                f"   {pair:<{width}}  {_num(row['estimate'])}  "
                f"[{_num(row['low'])}, {_num(row['high'])}]"
                + (
                    f"  simultaneous [{_num(row['adjusted_low'])}, "
                    f"{_num(row['adjusted_high'])}]  "
                    f"{fmt_p_equals(row['adjusted_pvalue'], 'Holm p')}"
                    if len(a.pairs) > 1
                    else ""
                )
            )
    if len(a.within) and "effects" in a.plan.analyses:
        lines.append(
            f"   Within each data set ({a.within_test or 'no test could run'}), "
            "the best learner "
            "there − each other one:"
        )
        if a.within_ratio:
            ratio = f"n_test/n_train of the corrected t: {a.within_ratio}."
            lines.append(_wrapped(ratio))
        without = 0  # data sets on which no learner has an interval
        for dataset, group in a.within.groupby("dataset", sort=False):
            tested = group[group["n"] > 0]
            if tested.empty:
                without += 1
                continue
            ref, *ties = a.best_learners.by_dataset[dataset]
            tied = f", tied with {fmt_names(ties)}" if ties else ""
            best_mean = a.mean.loc[dataset, ref]
            lines.append(f"   - {dataset}: best {ref} (mean {best_mean:.3f}{tied})")
            width = max(len(str(r)) for r in group["learner"])
            for r in tested.itertuples():
                lines.append(
                    f"       {r.learner:<{width}}  {_num(r.estimate)}  "
                    f"[{_num(r.low)}, {_num(r.high)}]"
                )
            if len(tested) < len(group):
                # The reason is the analysis' note of its cause, printed once.
                lines.append(
                    f"       (no paired interval for {len(group) - len(tested)} "
                    "learner(s): see the notes below)"
                )
        if without:
            lines.append(
                f"   No paired interval on {without} data set(s): see the notes below."
            )
        lines.extend(_wrapped(f"Note: {note}") for note in a.within_notes)
    lines.extend(generalization_lines(a))
    lines.append(
        "2. Sensitivity analyses (ranks within each "
        + ("data set" if a.blocks == "data sets" else "replicate")
        + "; Bayesian)"
    )
    fr = a.friedman
    if fr is not None:
        dist = fr.null_distribution
        f_text = iman_davenport_words(fr)
        lines.append(
            f"   Friedman over {fr.n_blocks} {a.blocks}: χ² = "
            f"{fr.statistic:.2f}, {fmt_p_equals(fr.pvalue)} "
            f"({'exact' if dist == 'exact' else 'χ² approximation'}); {f_text}."
        )
        if a.blocks != "data sets":
            lines.append(
                "   (Conditional on this learning sample: its replicates share "
                "training rows; not a verdict about new data.)"
            )
        ranks = ", ".join(
            f"{name} {rank:.2f}"
            for name, rank in fr.average_ranks.sort_values().items()
        )
        lines.append(
            f"   Average ranks: {ranks}; Nemenyi CD (α = {a.alpha:g}) = "
            f"{a.critical_difference:.2f}."
        )
        post = a.posthoc
        if post is not None:
            sig = post[post["reject"]]
            names = [
                f"{r.learner_i} vs {r.learner_j}" for r in sig.head(5).itertuples()
            ]
            more = f" and {len(sig) - 5} more" if len(sig) > 5 else ""
            lines.append(
                f"   {a.posthoc_title}: pairs that differ at α = {a.alpha:g}: "
                f"{len(sig)} of {len(post)}"
                + (f" ({', '.join(names)}{more})." if names else ".")
            )
    elif "friedman" in a.skipped:
        lines.append(f"   No Friedman test: {a.skipped['friedman']}.")
    elif "friedman" not in a.plan.analyses:
        lines.append("   Friedman's test: not requested.")
    else:
        lines.append("   (no Friedman test: " + "; ".join(map(str, a.notes[:1])) + ")")
    if "bayesian" in a.plan.analyses:
        lines.extend(bayesian_summary_lines(a))
    lines.append("3. Power")
    pw = a.power
    if pw is not None:
        lines.append(
            f"   {pw.pair[0]} vs {pw.pair[1]}: σ of the per-data-set "
            f"differences = {pw.sigma:.4f}."
        )
        if pw.delta is not None:
            lines.append(
                f"   With J = {pw.n_datasets} data sets the {pw.test_words} "
                f"has power {pw.power:.2f} to detect Δ = {pw.delta:g} "
                f"({pw.delta_source} smallest difference that matters);"
            )
            lines.append(
                f"   a decisive study (power {pw.target_power:.0%}) would need "
                f"J = {pw.n_needed} data sets."
            )
        else:
            lines.append(
                "   No smallest difference of interest Δ was given (set `delta`)."
            )
        if pw.posthoc_power is not None:
            lines.append(
                f"   Post-hoc power at the observed difference "
                f"{abs(pw.observed_difference):.4f}: {pw.posthoc_power:.2f} "
                "(a function of the p-value; not evidence)."
            )
    else:
        reason = a.skipped.get("power", "not requested")
        lines.append(f"   Not computed: {reason}.")
    if len(a.failures):
        lines.append(
            f"Failures: {int(a.failures['count'].sum())} failed task(s); see the "
            "report."
        )
    # printed and saved as summary.txt: no name's control character reaches a
    # terminal (ESC sequences retitle and recolour it)
    names = [*a.mean.columns, *a.mean.index, a.metric]
    return terminal_text("\n".join(lines), names=names)
