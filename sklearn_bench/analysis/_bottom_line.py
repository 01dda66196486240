"""The bottom line of a report: the answer of the primary analysis of an
:class:`Analysis` in plain words, first, so that it agrees with it by
construction (across data sets the paired t of the per-data-set means, Demšar
2006; within one data set the corrected resampled t, Nadeau & Bengio 2003).
Every other test is a sensitivity analysis; the bottom line names the Bayesian
probabilities for the same Δ and whether the study had the power to see Δ.
"""

from dataclasses import dataclass

import pandas as pd

from ._format import (
    fmt_estimate,
    fmt_interval,
    fmt_level,
    fmt_names,
    fmt_p,
    fmt_p_equals,
)


@dataclass(frozen=True)
class BottomLine:
    """The answer of a study (:attr:`Analysis.bottom_line`).

    Attributes
    ----------
    runner_up : str or None
        The learner ranked next to the best; ``None`` when no comparison ran.
    comparison, bayesian : Series or None
        The rows of :attr:`Analysis.pairs` (``best − runner_up``) and of
        :attr:`Analysis.bayesian` (an ``"unreliable fit"`` is not quoted).
    citations : tuple of str
        The keys of the works the sentences cite.
    sentences, more : tuple of str
        The short answer that every output prints first (decision, estimate,
        Bayesian probabilities, power, disagreements), and what follows under
        :data:`MORE_TITLE` (equivalence, smallest p, the tests in words).
    """

    runner_up: str | None = None
    comparison: pd.Series | None = None
    bayesian: pd.Series | None = None
    citations: tuple = ()
    sentences: tuple = ()
    more: tuple = ()


#: The title under which a report prints each :class:`Disagreement` in full.
DISAGREEMENTS_TITLE = "Where the tests disagree, and why"
#: The title of :attr:`BottomLine.more`, after the short answer.
MORE_TITLE = "Reading the bottom line"


def _disagreement_words(disagreements):
    """One sentence naming the analyses that disagree with the plan's (each
    :class:`Disagreement` in full is printed under :data:`DISAGREEMENTS_TITLE`)."""
    parts = []
    for d in disagreements:
        pair = d.learners if d.key != "best_by_summary" else ()
        parts.append(
            d.test + (f" ({pair[0]} against {fmt_names(pair[1:])})" if pair[1:] else "")
        )
    n = len(parts)
    head = "One other analysis disagrees" if n == 1 else f"{n} other analyses disagree"
    return f"{head} with the plan's ({'; '.join(parts)}): see '{DISAGREEMENTS_TITLE}'."


def _primary_words(analysis):
    m = len(analysis.pairs)
    holm = f", Holm-adjusted over {m} pairs" if m > 1 else " (one pair)"
    if analysis.blocks == "data sets":
        return (
            "the two-sided paired t-test over data sets on the per-data-set mean "
            f"{analysis.metric}, the best learner against each other one{holm}"
        ), ()
    dataset = analysis.datasets_across[0] if analysis.datasets_across else ""
    ran = analysis.primary_test  # read from what ran, not from the block count
    if ran and ran != "corrected resampled t":
        return (
            f"the two-sided {ran} test over the replicates of {dataset}, the best "
            f"learner against each other one{holm}"
        ), ()
    ratio = f"; {analysis.within_ratio}" if analysis.within_ratio else ""
    return (
        f"the two-sided corrected resampled t-test on the folds or splits of "
        f"{dataset} (Nadeau & Bengio 2003; Bouckaert & Frank 2004: a heuristic "
        f"correction for the training rows they share{ratio}), the best learner "
        f"against each other one{holm}"
    ), ("nadeau2003", "bouckaert2004")


def _bayes_row(analysis, a, b):
    table = analysis.bayesian
    if table is None or not len(table):
        return None
    across = analysis.blocks == "data sets"
    scope = "across data sets" if across else analysis.datasets_across[0]
    rows = table[(table["scope"] == scope) & (table["a"] == a) & (table["b"] == b)]
    return None if rows.empty else rows.iloc[0]


def bottom_line(analysis):
    """The bottom line of an :class:`Analysis` (its :attr:`~Analysis.pairs`
    with the best learner, its Bayesian row for the runner-up, its power, the
    smallest attainable p and its disagreements), as :class:`BottomLine`.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> bl = analyse(result, AnalysisPlan()).bottom_line
    >>> bl.runner_up, float(bl.comparison["adjusted_pvalue"].round(3))
    ('Randomized C4.5', 0.795)
    """
    a, b = analysis, analysis.best_learners
    alpha, delta, best = a.alpha, a.delta, b.learner
    if not len(a.pairs):
        why = a.skipped.get("pairs", "no comparison between learners could run")
        return BottomLine(sentences=(f"No answer: {why}.",))
    separated, inseparable, equivalent = b.separated, b.inseparable, b.equivalent
    # every pair is better ranked − worse ranked, in rank order: the best first
    rows = a.pairs[a.pairs["a"] == best].set_index("b")
    runner = rows.index[0] if len(rows) else None
    sentences, more = [], []
    tied = f" (tied on average rank with {fmt_names(b.tied)})" if b.tied else ""
    units = (
        f"{len(a.datasets_across)} data sets"
        if a.blocks == "data sets"
        else f"data set {a.datasets_across[0]}"
    )
    if not inseparable:
        sentences.append(
            f"{best} is the best learner in {a.metric} ({a.direction}) on "
            f"{units}{tied}: the primary analysis finds every other learner worse "
            f"(adjusted p ≤ {alpha:g})."
        )
    elif not separated:
        sentences.append(
            f"By its primary analysis the study cannot separate the learners: "
            f"{best} ranks best in {a.metric} ({a.direction}) on {units}{tied}; no "
            f"other is worse at α = {alpha:g}."
        )
    else:
        sentences.append(
            f"{best} ranks best in {a.metric} ({a.direction}) on "
            f"{units}{tied}; the primary analysis finds {fmt_names(separated)} worse "
            f"(adjusted p ≤ {alpha:g}) and cannot separate it from "
            f"{fmt_names(inseparable)}."
        )
    comparison = None if runner is None else rows.loc[runner].drop("a")
    if comparison is not None:
        v = comparison
        interval = (
            f"{fmt_level(a.confidence_level)} CI {fmt_interval(v['low'], v['high'])}"
        )
        if len(a.pairs) > 1:
            # the simultaneous interval is compatible with the Holm-adjusted p:
            # it excludes 0 only where that p is below α
            interval = (
                f"unadjusted {interval}; simultaneous "
                f"{fmt_interval(v['adjusted_low'], v['adjusted_high'])}; "
                f"{fmt_p_equals(v['adjusted_pvalue'], 'Holm-adjusted p')}"
            )
            words = adjusted_interval_words(
                a.confidence_level, v["adjusted_level"], len(a.pairs)
            )
            more.append(
                f"Simultaneous interval: {words}, compatible with the "
                "Holm-adjusted p (it excludes 0 only where that p is below α)."
            )
        else:
            interval += f"; {fmt_p_equals(v['adjusted_pvalue'])}"
        sentences.append(
            f"{best} − {runner} (the runner-up) = {fmt_estimate(v['estimate'])} "
            f"({interval})."
        )
    bayes = _bayes_row(a, best, runner) if runner else None
    rope_words = f"ROPE ±{delta:g}" if delta is not None else "ROPE = 0 (no Δ)"
    if bayes is not None and bayes["decision"] == "unreliable fit":
        sentences.append(
            f"The Bayesian {bayes['method']} model declined to decide (its "
            "sampler's diagnostics failed): this answer rests on the "
            "deterministic primary analysis alone."
        )
        more.append(
            f"The Bayesian {bayes['method']} model ({rope_words}) between {best} "
            f"and {runner}: {bayes.get('why undecided', '')}."
        )
    elif bayes is not None:
        sentences.append(
            f"Bayesian {bayes['method']} test, {rope_words}: "
            f"P({best} better) = {bayes['P(a better)']:.2f}, "
            f"P(equivalent) = {bayes['P(equivalent)']:.2f}, "
            f"P({runner} better) = {bayes['P(b better)']:.2f}."
        )
    pw = a.power
    if pw is not None and pw.power is not None:
        level = (
            f"α = {pw.test_alpha:.2g}"
            if pw.n_comparisons == 1
            else f"α/{pw.n_comparisons} = {pw.test_alpha:.2g}"
        )
        seen = pw.power >= pw.target_power
        sentences.append(
            f"Could the study see Δ = {pw.delta:g} ({a.delta_source})? "
            + ("Yes" if seen else "No")
            + f": power {pw.power:.2f} with {pw.n_datasets} data sets (paired t at "
            f"{level})"
            + (
                f", target {pw.target_power:.0%}."
                if seen
                else f"; {pw.n_needed} data sets would give {pw.target_power:.0%}."
            )
        )
        more.append(
            f"Power: the {pw.test_words} between {pw.pair[0]} and {pw.pair[1]}, "
            "σ of the per-data-set differences from this study."
        )
    elif delta is None:
        sentences.append(
            f"No Δ was given and {a.metric} has no default, so practical "
            "equivalence and the power to see Δ are not assessed (set "
            "[analysis] delta, or delta=)."
        )
    elif a.blocks == "data sets" and "power" in a.skipped:
        sentences.append(f"Power not computed: {a.skipped['power']}.")
    if a.disagreements:
        sentences.append(_disagreement_words(a.disagreements))
    if delta is not None:
        source = "given" if a.delta_source == "given" else "default"
        if equivalent:
            more.append(
                f"Practically equivalent to {best} within Δ = {delta:g} ({source}; "
                "the simultaneous interval lies inside ±Δ): "
                f"{fmt_names(equivalent)}."
            )
        else:
            more.append(
                f"No learner is shown practically equivalent to {best} within "
                f"Δ = {delta:g} ({source}): no simultaneous interval lies inside ±Δ."
            )
    if a.blocks == "data sets" and a.smallest_pvalue is not None:
        n, p_min = a.smallest_pvalue
        if p_min > alpha:
            more.append(
                f"With {n} data sets a two-sided signed-rank or sign test of a pair "
                f"cannot reach p below {fmt_p(p_min)}: the pairwise Wilcoxon tests "
                f"cannot reject at α = {alpha:g} whatever the data."
            )
    more.append(
        f"Primary analysis: {_primary_words(a)[0]}, at α = {alpha:g}. The other tests "
        "of the report are sensitivity analyses (see their sections for why they "
        "may disagree)."
    )
    others = [m for m in a.metrics if m != a.metric]
    if others:  # every scored metric is analysed or said not to be
        more.append(
            f"Scored but not analysed here: {fmt_names(others)}. A report "
            f"analyses one metric ({a.metric}, the plan's); set [analysis] metric "
            "(or AnalysisPlan(metric=...)) for another report."
        )
    return BottomLine(
        runner_up=runner,
        comparison=comparison,
        bayesian=bayes,
        citations=_primary_words(a)[1],
        sentences=tuple(sentences),
        more=tuple(more),
    )


def delta_words(analysis):
    """The one explanation of a default Δ (for the methods paragraph), or ``""``
    when Δ was given or the metric has none."""
    if analysis.delta_source != "default" or analysis.delta is None:
        return ""
    return (
        f"Δ = {analysis.delta:g}, the smallest difference that matters (the margin "
        "of practical equivalence, the ROPE and the power target), is the default "
        "for a metric on a [0, 1] scale, Benavoli et al.'s (2017) ROPE for "
        "accuracy; set [analysis] delta (or delta=) before looking at the results."
    )


def adjusted_interval_words(confidence_level, adjusted_level, n_pairs):
    """How the adjusted intervals of ``n_pairs`` pairs are labelled: their
    simultaneous level, the method and the level of each (``adjusted_level``,
    the column of :attr:`Analysis.pairs`).
    """
    if n_pairs <= 1:
        return f"{fmt_level(confidence_level)}"
    return (
        f"simultaneous {fmt_level(confidence_level)} (Bonferroni, each at "
        f"{fmt_level(adjusted_level, digits=2)})"
    )
