"""Where a sensitivity analysis reaches another verdict than the primary one: a
:class:`Disagreement` with the sentence the report prints, so that no renderer
decides which analysis to believe."""

from dataclasses import dataclass

import numpy as np

from .._text import adjusted_by
from ._format import fmt_names, fmt_p, fmt_p_equals


@dataclass(frozen=True)
class Disagreement:
    """Two analyses of a study that reach different verdicts.

    Attributes
    ----------
    key : str
        Which two analyses, e.g. ``"bayesian_vs_primary"``,
        ``"friedman_chi2_vs_iman_davenport"`` or ``"best_by_summary"``.
    trusted : str
        The analysis the plan trusts (``"primary"``, ``"friedman_exact"``,
        ``"iman_davenport"``; ``"average rank"`` for which learner is best).
    other : str
        The analysis that disagrees with it.
    learners : tuple of str
        The learners concerned (the best learner first), if any.
    sentence : str
        What the report prints: both verdicts, which one the plan trusts and why.
    test : str
        The disagreeing test or summary in a few words.

    Examples
    --------
    Demšar's Table 6: Friedman's test finds differences where the primary
    analysis separates none from the best; the Bayesian signed-rank test finds
    the best practically better than two learners the primary analysis cannot
    separate from it.

    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> analysis = analyse(result, AnalysisPlan())
    >>> [(d.key, d.trusted) for d in analysis.disagreements]
    [('friedman_vs_primary', 'primary'), ('bayesian_vs_primary', 'primary')]
    >>> analysis.disagreements[1].learners
    ('C4.5+m+cf', 'C4.5', 'C4.5+cf')
    """

    key: str
    trusted: str
    other: str
    learners: tuple
    sentence: str
    test: str = ""


def _primary_rows(analysis):
    """``{other: (adjusted p, whether the best is ahead)}`` of the primary
    analysis' tested pairs with the best learner."""
    best, out = analysis.best, {}
    sign = 1.0 if analysis.greater_is_better else -1.0
    for r in analysis.pairs.itertuples(index=False):
        if best in (r.a, r.b) and np.isfinite(r.adjusted_pvalue):  # else no test
            other, flip = (r.b, 1.0) if r.a == best else (r.a, -1.0)
            out[other] = (float(r.adjusted_pvalue), sign * flip * r.estimate > 0)
    return out


def _separated(p, alpha):
    """Whether the primary analysis separates a pair (adjusted p at most α)."""
    return p <= alpha + 1e-12


def friedman_disagreements(analysis):
    """The :class:`Disagreement` of Friedman's test with the primary analysis,
    and of its χ² (or exact) p-value with the Iman–Davenport F."""
    fr, alpha, out = analysis.friedman, analysis.alpha, []
    if fr is None or analysis.blocks != "data sets":
        return out
    rows = _primary_rows(analysis)
    separated = [o for o, (p, _) in rows.items() if _separated(p, alpha)]
    k = len(analysis.mean.columns)
    sentence = None
    if rows and fr.pvalue <= alpha and not separated:
        sentence = (
            f"Friedman's rank test does find differences among the {k} learners "
            f"({fmt_p_equals(fr.pvalue)}) where the primary analysis separates none "
            f"from {analysis.best}. The plan trusts the primary analysis: Friedman's "
            "test uses only the order of the learners within each data set, not the "
            "size of their differences, and tests all learners at once; the primary "
            "paired t weighs the differences, which vary between data sets, and "
            "corrects for every pair."
        )
    elif rows and fr.pvalue > alpha and separated:
        sentence = (
            f"Friedman's rank test finds no difference among the {k} "
            f"learners ({fmt_p_equals(fr.pvalue)}) although the primary analysis "
            f"finds {fmt_names(separated)} worse than {analysis.best}. The plan "
            "trusts the primary analysis: it tests each pair with the best "
            "learner on the size of the differences, corrected for every "
            "pair; Friedman's omnibus test spreads its power over all "
            f"{k} learners and uses only their order within each data set."
        )
    if sentence:
        names, test = (analysis.best, *separated), "Friedman's rank test"
        key = "friedman_vs_primary"
        out.append(Disagreement(key, "primary", "friedman", names, sentence, test))
    id_p = float(fr.iman_davenport_pvalue)
    finite = np.isfinite(id_p) and np.isfinite(fr.pvalue)
    if finite and (fr.pvalue <= alpha) != (id_p <= alpha):
        exact = fr.null_distribution == "exact"
        if exact:
            trusted, other = "friedman_exact", "iman_davenport"
            why = (
                "the plan trusts the exact p-value: it is the permutation "
                "distribution of the rank sums under the null, while the "
                f"Iman–Davenport F approximates it (with {fr.n_blocks} data sets, "
                "not closely)"
            )
        else:
            trusted, other = "iman_davenport", "friedman_chi2"
            why = (
                "the plan trusts the Iman–Davenport F: the χ² approximation of "
                "Friedman's statistic is conservative with few data sets and "
                "learners (Demšar 2006, Sec. 3.2.2)"
            )
        sentence = (
            f"Friedman's test, {fmt_p_equals(fr.pvalue)} "
            f"({'exact' if exact else 'χ² approximation'}), and the Iman–Davenport "
            f"F, {fmt_p_equals(id_p)}, fall on both sides of α = {alpha:g}: {why}. "
            "Both are sensitivity analyses; the bottom line rests on the primary "
            "analysis."
        )
        test = "Friedman's test and the Iman–Davenport F, with each other"
        key = "friedman_chi2_vs_iman_davenport"
        out.append(Disagreement(key, trusted, other, (), sentence, test))
    return out


def _advantage(analysis, a, others):
    """How much ``a`` is better than each of ``others`` (columns) on each data
    set of the analyses across data sets (rows)."""
    mean = analysis.mean.loc[list(analysis.datasets_across)]
    sign = 1.0 if analysis.greater_is_better else -1.0
    return sign * (mean[a].to_numpy()[:, None] - mean[list(others)].to_numpy())


def _of_the(counts, n):
    """``"3 of the 8"``, or ``"2 to 5 of the 8"``."""
    low, high = min(counts), max(counts)
    return f"{low} of the {n}" if low == high else f"{low} to {high} of the {n}"


def _why_bayes(method, analysis, a, others, rope):
    """Why a Bayesian 'better' can stand beside a primary 'cannot separate'."""
    if method == "signed-rank":
        advantage = _advantage(analysis, a, others)
        n = len(advantage)
        beyond = _of_the((advantage > rope).sum(axis=0), n)
        return (
            "the Bayesian signed-rank test asks on which side of ±ROPE each Walsh "
            f"average (the mean of two of the {n} per-data-set differences) falls, not "
            "how far beyond it, so differences that vary widely in size weigh alike "
            f"(here {beyond} differences lie beyond the ROPE in {a}'s favour)"
        )
    if method == "hierarchical":
        return (
            "the hierarchical model pools every split score and shrinks the "
            "per-data-set differences towards each other, so its probabilities "
            "for the next data set can be sure where the per-data-set means vary "
            "too much for the t-test"
        )
    return (
        "the correlated t-test's posterior at 0.95 is a one-sided decision for "
        "each pair on its own"
    )


def bayesian_disagreements(analysis, table, rope):
    """The :class:`Disagreement` of the Bayesian comparisons ``table`` (ROPE
    ``rope``) with the primary analysis: one learner practically better where
    the primary analysis cannot separate the two (or finds the other better),
    or practically equivalent where it finds them different."""
    rows = _primary_rows(analysis)
    if not rows or table is None or not len(table):
        return []
    scope = (
        "across data sets"
        if analysis.blocks == "data sets"
        else (analysis.datasets_across[0] if analysis.datasets_across else None)
    )
    best, alpha, m = analysis.best, analysis.alpha, len(analysis.pairs)
    better, equivalent, opposite, method = [], [], [], ""
    with_best = table[(table["scope"] == scope) & (table["a"] == best)]
    for r in with_best.itertuples(index=False):
        if r.b not in rows or r.decision == "unreliable fit":
            continue
        p, best_ahead = rows[r.b]
        method = r.method
        separated = _separated(p, alpha)
        if r.decision == best and not separated:
            better.append((r.b, r[5], p))
        elif r.decision == r.b and not (separated and not best_ahead):
            opposite.append((r.b, r[7], p))
        elif r.decision == "equivalent" and separated:
            equivalent.append((r.b, r[6], p))
    units = (
        f"{len(analysis.datasets_across)} data sets"
        if analysis.blocks == "data sets"
        else f"data set {scope}"
    )
    holm = f", Holm-adjusted over {m} pairs" if m > 1 else ""
    primary = f"the {analysis.primary_test} over {analysis.blocks}{holm}"
    trust = (
        f"The plan trusts the primary analysis ({primary}): it is "
        "the decision rule fixed before the results, "
        + (
            f"it controls the family-wise error over all {m} pairs at α = "
            f"{alpha:g} and weighs the size of each difference against its "
            "spread; the Bayesian probabilities are for each pair on its own, "
            f"with no adjustment for the {m} comparisons, and "
            if m > 1
            else f"at α = {alpha:g}, and weighs the size of the difference "
            "against its spread; "
        )
    )
    out = []  # (key, the other learners, the sentence)
    if better:
        others, holm = _learners_and_p(better)
        low_p = min(pr for _, pr, _ in better)
        sentence = (
            f"The Bayesian {method} test finds {best} practically better than "
            f"{fmt_names(others)} (P ≥ {low_p:.3f}, ROPE ±{rope:g}, on {units}), "
            f"where the primary analysis cannot separate them ({holm}). {trust}"
            f"{_why_bayes(method, analysis, best, others, rope)}. Read the Bayesian "
            "result as a sensitivity analysis, not as a finding of the study."
        )
        out.append(("bayesian_vs_primary", others, sentence))
    if opposite:
        others, holm = _learners_and_p(opposite)
        sentence = (
            f"The Bayesian {method} test finds {fmt_names(others)} practically "
            f"better than {best}, which has the better average rank; the "
            f"primary analysis does not find that ({holm}). {trust}"
            f"{_why_bayes(method, analysis, others[0], [best], rope)}."
        )
        out.append(("bayesian_vs_primary", others, sentence))
    if equivalent:
        others, holm = _learners_and_p(equivalent)
        sentence = (
            f"The Bayesian {method} test finds {fmt_names(others)} practically "
            f"equivalent to {best} (ROPE ±{rope:g}) while the primary analysis "
            f"finds them different ({holm}). Both can hold: a difference can be "
            "detectable and yet smaller than Δ. The plan trusts the primary "
            "analysis for whether there is a difference, and its simultaneous "
            "interval inside ±Δ for whether it matters."
        )
        out.append(("bayesian_equivalent_vs_primary", others, sentence))
    test = f"the Bayesian {method} test"
    return [
        Disagreement(key, "primary", "bayesian", (best, *others), sentence, test)
        for key, others, sentence in out
    ]


def _p_words(name, pvalues):
    """``"p = 0.012"``, ``"p < 0.001"``, ``"p = 1.00, 0.31"`` or
    ``"p: 0.012, < 0.001"``: never ``"p = < 0.001"``."""
    pvalues = list(pvalues)
    if len(pvalues) == 1:
        return fmt_p_equals(pvalues[0], name)
    texts = [fmt_p(p) for p in pvalues]
    sep = ": " if any(t.startswith("<") for t in texts) else " = "
    return f"{name}{sep}{', '.join(texts)}"


def _learners_and_p(group, column=2, name="Holm-adjusted p"):
    """The learners of ``(learner, ..., p)`` rows and their p-values (the
    ``column``) in words."""
    return [row[0] for row in group], _p_words(name, (row[column] for row in group))


def pairs_disagreements(analysis):
    """The :class:`Disagreement` with the primary analysis of the tests of pairs
    the report prints (the plan's post-hoc test, the pairwise Wilcoxon tests,
    Tukey's HSD): each finds the best learner different from another where the
    primary analysis cannot separate the two, or the reverse."""
    rows = _primary_rows(analysis)
    if not rows:
        return []
    tests = []
    if analysis.posthoc is not None:
        title = analysis.posthoc_title
        tests.append(("posthoc", f"the {title} post-hoc test", analysis.posthoc))
    if analysis.pairwise is not None:
        adjusted = adjusted_by(analysis.pairwise.adjust)
        name = f"the pairwise Wilcoxon signed-rank tests ({adjusted})"
        tests.append(("pairwise", name, analysis.pairwise.to_frame()))
    if analysis.tukey is not None:
        tests.append(("tukey", "Tukey's HSD", analysis.tukey.to_frame()))
    out = []
    for key, name, frame in tests:
        out.extend(_pair_verdicts(analysis, rows, key, name, frame))
    return out


def _pair_verdicts(analysis, rows, key, name, frame):
    """The disagreements of one test of pairs (``frame``) with ``rows``."""
    best, alpha = analysis.best, analysis.alpha
    ahead, behind = [], []  # the test separates / the primary analysis does
    for r in frame.itertuples(index=False):
        if best not in (r.learner_i, r.learner_j):
            continue
        other = r.learner_j if r.learner_i == best else r.learner_i
        if other not in rows or not np.isfinite(r.pvalue_adjusted):
            continue
        p, best_ahead = rows[other]
        separated = _separated(p, alpha)
        if r.reject and not separated:
            ahead.append((other, float(r.pvalue_adjusted), p))
        elif separated and best_ahead and not r.reject:
            behind.append((other, float(r.pvalue_adjusted), p))
    smallest = analysis.smallest_pvalue
    if key == "pairwise" and smallest is not None and smallest[1] > alpha:
        behind = []  # the bottom line says the signed-rank test cannot reject
    out = []  # (the other learners, the sentence)
    if ahead:
        others, holm = _learners_and_p(ahead)
        shown = _learners_and_p(ahead, 1, "adjusted p")[1]
        nemenyi = key == "posthoc" and analysis.plan.posthoc == "nemenyi"
        unjoined = ""
        if nemenyi and analysis.critical_difference is not None:
            unjoined = "; the critical difference diagram leaves them unjoined"
        sentence = (
            f"{name[:1].upper()}{name[1:]} finds {best} different from "
            f"{fmt_names(others)} ({shown} at α = {alpha:g}{unjoined}), where the "
            f"primary analysis cannot separate them ({holm}). The plan trusts the "
            "primary analysis, the rule fixed before the results: "
            f"{_why_not_pairs(key, analysis, best, others)}. Read this as a "
            "sensitivity analysis, not as a finding of the study."
        )
        out.append((others, sentence))
    if behind:
        others, holm = _learners_and_p(behind)
        shown = _learners_and_p(behind, 1, "adjusted p")[1]
        sentence = (
            f"The primary analysis finds {fmt_names(others)} worse than {best} "
            f"({holm}) where {name} does not ({shown}). The plan trusts the "
            "primary analysis: it tests each pair on the size of its differences, "
            f"corrected for every pair; {name} "
            + (
                "uses only the order of the learners within each block and "
                "spreads its family-wise error over every pair of learners"
                if key == "posthoc"
                else "ranks the differences, so it cannot weigh their sizes"
                if key == "pairwise"
                else "pools the residual variance of all learners"
            )
            + "."
        )
        out.append((others, sentence))
    vs = f"{key}_vs_primary"
    return [Disagreement(vs, "primary", key, (best, *o), s, name) for o, s in out]


def _why_not_pairs(key, analysis, best, others):
    """Why a test of pairs may separate what the primary analysis cannot."""
    if key == "tukey":
        return (
            "Tukey's HSD pools the residual variance of every learner, so a "
            "pair with widely varying differences borrows the precision of the "
            "others; the paired t weighs each pair's own spread"
        )
    diff = _advantage(analysis, best, others)
    won = _of_the((diff > 0).sum(axis=0), len(diff))
    sizes = f"from {np.abs(diff).min():.3g} to {np.abs(diff).max():.3g}"
    if key == "posthoc":
        return (
            f"the {analysis.posthoc_title} test compares average ranks among all the "
            f"learners, so it uses only their order on each of the {analysis.blocks} "
            f"({best} ahead on {won}), not by how much (here {sizes}), and its verdict "
            "on a pair changes with the other learners in the study (Benavoli et al. "
            "2016); the paired t weighs the size of each difference against its spread"
        )
    return (
        f"the signed-rank test ranks the differences ({best} better on {won} "
        f"{analysis.blocks}), so it cannot see how much their sizes vary (here "
        f"{sizes}); the paired t weighs each size against that spread"
    )


def best_by_summary(analysis):
    """``{summary: learner}``: which learner each summary of the report names
    best: ``"average rank"`` (the report's best), ``"mean"``, ``"leaderboard"``,
    ``"Bayesian ranking"`` and ``"Bayesian comparison"`` (the learner the
    comparisons with the best favour most over it, else the best), where run."""
    if analysis.blocks != "data sets" or not len(analysis.datasets_across):
        return {}
    out = {"average rank": analysis.best}
    mean = analysis.mean.loc[list(analysis.datasets_across)].mean(axis=0)
    out["mean"] = mean.idxmax() if analysis.greater_is_better else mean.idxmin()
    if analysis.leaderboard is not None:
        out["leaderboard"] = str(analysis.leaderboard.board.index[0])
    if analysis.ranking_table is not None and len(analysis.ranking_table):
        out["Bayesian ranking"] = str(analysis.ranking_table["learner"].iloc[0])
    table = analysis.bayesian
    if table is not None and len(table):
        across = table["scope"] == "across data sets"
        rows = table[across & (table["a"] == analysis.best)]
        rows = rows[rows["decision"] != "unreliable fit"]
        if len(rows):
            lead = rows["P(b better)"] - rows["P(a better)"]
            at = int(np.argmax(lead.to_numpy()))
            favoured = rows["b"].iloc[at] if lead.iloc[at] > 0 else analysis.best
            out["Bayesian comparison"] = str(favoured)
    return out


def best_disagreements(analysis, best_by):
    """When the summaries of ``best_by`` (:func:`best_by_summary`) name
    different learners best: each one's numbers, which the report uses and
    why, as :class:`Disagreement`."""
    best = analysis.best
    others = {k: v for k, v in best_by.items() if v != best}
    if not others:
        return []
    mean = analysis.mean.loc[list(analysis.datasets_across)].mean(axis=0)
    ranks = analysis.average_ranks
    n, metric = len(analysis.datasets_across), analysis.metric
    parts = []
    if "mean" in others:
        m = others["mean"]
        parts.append(
            f"by mean {metric} over the {n} data sets it is {m} ({mean[m]:.4g} "
            f"against {mean[best]:.4g} for {best}: {best} − {m} = "
            f"{mean[best] - mean[m]:+.3g}; average rank {ranks[m]:.2f})"
        )
    if "leaderboard" in others:
        parts.append(
            f"the leaderboard (ranked by mean score, as `sklearn-bench "
            f"leaderboard` by default) puts {others['leaderboard']} first"
        )
    if "Bayesian ranking" in others:
        parts.append(
            f"the Bayesian Plackett–Luce ranking puts {others['Bayesian ranking']} "
            "first"
        )
    if "Bayesian comparison" in others:
        b, t = others["Bayesian comparison"], analysis.bayesian
        row = t[(t["scope"] == "across data sets") & (t["a"] == best) & (t["b"] == b)]
        row = row.iloc[0]
        parts.append(
            f"the Bayesian comparison favours {b} (P({b} better) = "
            f"{row['P(b better)']:.2f}, P({best} better) = {row['P(a better)']:.2f})"
        )
    return [
        Disagreement(
            "best_by_summary",
            "average rank",
            ", ".join(others),
            (best, *dict.fromkeys(others.values())),
            f"Which learner is best depends on the summary. The report names the "
            f"best by average rank, {best} ({ranks[best]:.2f}; Demšar 2006), "
            "because ranks let no single data set outweigh the others and "
            "compare data sets of different difficulty and scale; "
            + "; ".join(parts)
            + ". The mean weighs each data set by the size of its differences, "
            "the average rank only by their order; the pairwise intervals say "
            "by how much each pair differs, whichever summary one prefers.",
            "which summary names the best learner",
        )
    ]
