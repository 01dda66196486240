"""The bottom line of a report: the study's answer in plain words, first.

It is computed from the primary analysis of :class:`ReportAnalysis` and from
nothing else, so it agrees with it by construction:

- across data sets (two or more complete data sets), the data sets are the
  units: the two-sided paired t-test of the per-data-set mean performances,
  the best learner (by average rank) against each other one, Holm-adjusted over
  the pairs of the report (Demšar 2006 for the data sets as units; Berrar &
  Lozano 2013 for intervals first);
- within one data set, the corrected resampled t on the run's own units
  (Nadeau & Bengio 2003; Bouckaert & Frank 2004), valid for new data of the
  kind.

Every other test in the report (Friedman and Nemenyi on ranks, the pairwise
Wilcoxon tests, the Bayesian comparisons, tests conditional on one learning
sample) is a sensitivity analysis; the bottom line names the Bayesian
probabilities for the same Δ beside the primary answer and says whether the
study had the power to see Δ.
"""

import html
from dataclasses import dataclass, field

import numpy as np

from ..analysis import (
    adjusted_interval_words,
    fmt_estimate,
    fmt_interval,
    fmt_level,
    fmt_names,
    fmt_p,
    fmt_p_equals,
)
from ..stats import smallest_attainable_pvalue


@dataclass(frozen=True)
class BottomLine:
    """The answer of a study (see :func:`bottom_line`).

    Attributes
    ----------
    best : str or None
        The learner with the best average rank over the primary analysis'
        blocks; ``None`` when no comparison could run.
    inseparable : list of str
        Learners the primary analysis cannot separate from ``best`` (adjusted
        p-value above α), in rank order.
    separated : list of str
        Learners the primary analysis finds worse than ``best``.
    equivalent : list of str
        Learners whose simultaneous (Bonferroni) interval for the difference
        to ``best`` lies inside ``±Δ``: practically equivalent to it (the
        interval-inclusion form of two one-sided tests, adjusted for every
        pair).
    runner_up : str or None
    comparison : dict or None
        ``estimate, low, high, level, adjusted_low, adjusted_high,
        adjusted_pvalue, n, test`` of ``best − runner_up`` (metric units).
    bayesian : dict or None
        ``P(best better), P(equivalent), P(other better), rope, test,
        decision, why`` for the same pair, when the Bayesian comparison ran;
        a ``decision`` of ``"unreliable fit"`` (an MCMC fit whose diagnostics
        failed) is not quoted in the sentences.
    power : dict or None
        The power entry of the analysis (power of the primary test at Δ).
    sentences : list of str
        The bottom line in words; what the HTML section, the text summary and
        the CLI print.
    """

    best: str | None
    inseparable: list = field(default_factory=list)
    separated: list = field(default_factory=list)
    equivalent: list = field(default_factory=list)
    runner_up: str | None = None
    comparison: dict | None = None
    bayesian: dict | None = None
    power: dict | None = None
    sentences: list = field(default_factory=list)


def _default_delta_words():
    from .._metrics import DEFAULT_DELTA_REASON

    return (
        "Δ, the smallest difference that matters, is used as the margin of "
        "practical equivalence, the ROPE of the Bayesian tests and the target of "
        f"the power analysis. {DEFAULT_DELTA_REASON}."
    )


def _primary_words(analysis):
    m = len(analysis.pairs)
    holm = f", Holm-adjusted over {m} pairs" if m > 1 else " (one pair)"
    if analysis.pairs_blocks == "data sets":
        return (
            "the two-sided paired t-test over data sets on the per-data-set mean "
            f"{analysis.metric}, the best learner against each other one{holm}"
        )
    dataset = analysis.datasets_across[0] if analysis.datasets_across else ""
    return (
        f"the two-sided corrected resampled t-test on the folds or splits of "
        f"{dataset} (valid for new data of its kind), the best learner against "
        f"each other one{holm}"
    )


def _bayes_row(bayes_table, analysis, a, b):
    if bayes_table is None or not len(bayes_table):
        return None
    scope = (
        "across data sets"
        if analysis.pairs_blocks == "data sets"
        else (analysis.datasets_across[0] if analysis.datasets_across else None)
    )
    rows = bayes_table[
        (bayes_table["scope"] == scope)
        & (bayes_table["a"] == a)
        & (bayes_table["b"] == b)
    ]
    if rows.empty:
        return None
    r = rows.iloc[0]
    return {
        "P(best better)": float(r["P(a better)"]),
        "P(equivalent)": float(r["P(equivalent)"]),
        "P(other better)": float(r["P(b better)"]),
        "test": str(r["method"]),
        "decision": str(r["decision"]),
        "why": str(r.get("why undecided", "")),
    }


def bottom_line(analysis, bayes_table=None):
    """The bottom line of a :class:`ReportAnalysis`.

    Parameters
    ----------
    analysis : ReportAnalysis
    bayes_table : DataFrame, default=None
        The Bayesian comparisons of the report (same Δ as ROPE), from
        :func:`~sklearn_bench.report._bayesian.bayesian_comparisons_table`.

    Returns
    -------
    BottomLine

    See Also
    --------
    bottom_line_html : Its sentences as the report's first section.
    bottom_line_lines : Its sentences as the text the summary and the CLI open
        with.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> from sklearn_bench.report._bottom_line import bottom_line
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> bl = bottom_line(analyse(result, AnalysisPlan()))
    >>> bl.best, bl.separated, bl.inseparable
    ('Adaboosted C4.5', ['C4.5'], ['Randomized C4.5', 'Bagged C4.5'])
    """
    a = analysis
    alpha = a.alpha
    delta = a.delta
    if a.pairs is None or not len(a.pairs) or "adjusted_pvalue" not in a.pairs:
        why = a.skipped.get("pairs", "no comparison between learners could run")
        return BottomLine(
            best=None,
            sentences=[f"No answer: {why}."],
        )
    best = a.best
    sign = -1.0 if a.greater_is_better else 1.0
    rows = a.pairs[(a.pairs["a"] == best) | (a.pairs["b"] == best)]
    verdicts = {}
    for _, r in rows.iterrows():
        other = r["b"] if r["a"] == best else r["a"]
        flip = 1.0 if r["a"] == best else -1.0
        lows = sorted([flip * r["adjusted_low"], flip * r["adjusted_high"]])
        verdicts[other] = {
            "estimate": flip * r["estimate"],
            "low": min(flip * r["low"], flip * r["high"]),
            "high": max(flip * r["low"], flip * r["high"]),
            "adjusted_low": lows[0],
            "adjusted_high": lows[1],
            "adjusted_pvalue": r["adjusted_pvalue"],
            "pvalue": r["pvalue"],
            "n": r["n"],
            "method": r["method"],
        }
    blocks = a.datasets_across if a.pairs_blocks == "data sets" else None
    mean = a.mean.loc[blocks] if blocks else a.mean
    ranks = (sign * mean).rank(axis=1).mean(axis=0).sort_values(kind="stable")
    order = [name for name in ranks.index if name in verdicts]
    separated = [n for n in order if verdicts[n]["adjusted_pvalue"] <= alpha + 1e-12]
    inseparable = [n for n in order if n not in separated]
    equivalent = []
    if delta is not None:
        equivalent = [
            n
            for n in order
            if -delta <= verdicts[n]["adjusted_low"]
            and verdicts[n]["adjusted_high"] <= delta
        ]
    runner = order[0] if order else None
    comparison = None
    sentences = []
    units = (
        f"{len(a.datasets_across)} data sets"
        if a.pairs_blocks == "data sets"
        else f"data set {a.datasets_across[0]}"
    )
    if not inseparable:
        sentences.append(
            f"{best} is the best learner in {a.metric} ({a.direction}) on "
            f"{units}: the primary analysis finds every other learner worse "
            f"(adjusted p ≤ {alpha:g})."
        )
    elif not separated:
        sentences.append(
            f"The study cannot separate the learners: {best} has the best average "
            f"rank in {a.metric} ({a.direction}) on {units}, but the primary "
            f"analysis finds none of the others worse at α = {alpha:g}."
        )
    else:
        sentences.append(
            f"{best} has the best average rank in {a.metric} ({a.direction}) on "
            f"{units}. The study cannot separate it from {fmt_names(inseparable)}; "
            f"it finds {fmt_names(separated)} worse (adjusted p ≤ {alpha:g})."
        )
    if runner is not None:
        v = verdicts[runner]
        comparison = dict(v, runner_up=runner)
        if len(a.pairs) > 1:
            # the simultaneous interval is compatible with the Holm-adjusted p:
            # it excludes 0 only where that p is below α
            adjusted = (
                f"; {adjusted_interval_words(a.confidence_level, len(a.pairs))} "
                f"CI {fmt_interval(v['adjusted_low'], v['adjusted_high'])}; "
                f"{fmt_p_equals(v['adjusted_pvalue'], 'Holm-adjusted p')}"
            )
            unadjusted = "unadjusted "
        else:
            adjusted = f"; {fmt_p_equals(v['adjusted_pvalue'])}"
            unadjusted = ""
        sentences.append(
            f"Against the runner-up {runner}, the difference {best} − {runner} in "
            f"{a.metric} is {fmt_estimate(v['estimate'])} "
            f"({unadjusted}{fmt_level(a.confidence_level)} CI "
            f"{fmt_interval(v['low'], v['high'])}{adjusted})."
        )
    if a.delta_source == "default":
        sentences.append(_default_delta_words())
    elif delta is None:
        sentences.append(
            f"No smallest difference that matters (Δ) was given, and {a.metric} "
            "has no default: practical equivalence is not assessed, the Bayesian "
            "tests use ROPE = 0 and the power analysis has no target (set "
            "[analysis] delta, or delta=)."
        )
    if delta is not None:
        source = "given" if a.delta_source == "given" else "default"
        if equivalent:
            sentences.append(
                f"Practically equivalent to {best} within Δ = {delta:g} ({source}; "
                "the simultaneous interval lies inside ±Δ): "
                f"{fmt_names(equivalent)}."
            )
        else:
            sentences.append(
                f"No learner is shown practically equivalent to {best} within "
                f"Δ = {delta:g} ({source}): no simultaneous interval lies inside ±Δ."
            )
    bayes = _bayes_row(bayes_table, a, best, runner) if runner else None
    if bayes is not None:
        bayes["rope"] = delta
        rope_words = (
            f"with the same Δ (ROPE ±{delta:g})"
            if delta is not None
            else "with ROPE = 0 (no Δ)"
        )
        if bayes["decision"] == "unreliable fit":  # an MCMC fit that declined
            sentences.append(
                f"The Bayesian {bayes['test']} model {rope_words} declined to "
                f"decide between {best} and {runner}: its sampler's diagnostics "
                f"failed ({bayes['why']}), so its probabilities are not quoted "
                "and this bottom line rests on the plan's deterministic primary "
                "analysis alone."
            )
        else:
            sentences.append(
                f"Bayesian {bayes['test']} test {rope_words}: "
                f"P({best} better) = {bayes['P(best better)']:.2f}, "
                f"P(practically equivalent) = {bayes['P(equivalent)']:.2f}, "
                f"P({runner} better) = {bayes['P(other better)']:.2f}."
            )
    pw = a.power
    if pw is not None and pw.get("power") is not None:
        enough = pw["power"] >= pw["target_power"]
        sentences.append(
            f"Power: with {pw['n_datasets']} data sets the {pw['test_words']} "
            f"has power {pw['power']:.2f} to detect Δ = {pw['delta']:g} between "
            f"{pw['pair'][0]} and {pw['pair'][1]} (σ of the per-data-set "
            "differences from this study); "
            + (
                f"the study had the power to see Δ (target {pw['target_power']:.0%})."
                if enough
                else f"the study did not have the power to see Δ: "
                f"{pw['n_needed']} data sets would give {pw['target_power']:.0%}."
            )
        )
    elif a.pairs_blocks == "data sets" and "power" in a.skipped:
        sentences.append(f"Power not computed: {a.skipped['power']}.")
    if a.pairs_blocks == "data sets":
        n = len(a.datasets_across)
        p_min = smallest_attainable_pvalue("wilcoxon", n)
        if p_min > alpha:
            sentences.append(
                f"With {n} data sets a two-sided signed-rank or sign test of a pair "
                f"cannot reach p below {fmt_p(p_min)}: the pairwise Wilcoxon tests "
                f"cannot reject at α = {alpha:g} whatever the data."
            )
    # Where a sensitivity analysis disagrees with the primary one, the analysis
    # recorded which one the plan trusts and why (the renderer decides nothing).
    sentences.extend(d.sentence for d in getattr(a, "disagreements", ()))
    sentences.append(
        f"Primary analysis: {_primary_words(a)}, at α = {alpha:g}. The other tests "
        "of the report are sensitivity analyses (see their sections for why they "
        "may disagree)."
    )
    return BottomLine(
        best=best,
        inseparable=inseparable,
        separated=separated,
        equivalent=equivalent,
        runner_up=runner,
        comparison=comparison,
        bayesian=bayes,
        power=pw,
        sentences=sentences,
    )


def bottom_line_html(bl):
    """``<section id="bottom-line">``: the answer first, in plain words."""
    items = "".join(f"<p>{html.escape(s)}</p>" for s in bl.sentences)
    return f'<section id="bottom-line"><h2>Bottom line</h2>{items}</section>'


def bottom_line_lines(bl, width=88):
    """The bottom line as text lines (the summary and the CLI open with it)."""
    import textwrap

    lines = ["Bottom line"]
    for s in bl.sentences:
        lines.extend(
            textwrap.wrap(
                s,
                width=width,
                initial_indent="   ",
                subsequent_indent="   ",
                break_on_hyphens=False,  # "per-data-set" stays whole
            )
        )
    return lines


def _is_finite(x):
    return x is not None and np.isfinite(x)
