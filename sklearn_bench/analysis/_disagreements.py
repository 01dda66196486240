"""Where two analyses of one study disagree, which one the plan trusts, and why.

The analysis plan has one primary analysis (the paired t over data sets, or the
corrected resampled t within one data set, Holm-adjusted over the pairs); every
other analysis is a sensitivity analysis. When a sensitivity analysis reaches
another verdict than the primary one, the analysis records a
:class:`Disagreement` with the sentence the report prints, so that no renderer
decides which analysis to believe.
"""

from dataclasses import dataclass

import numpy as np

from ._format import fmt_names, fmt_p


@dataclass(frozen=True)
class Disagreement:
    """Two analyses of a study that reach different verdicts.

    Attributes
    ----------
    key : str
        ``"bayesian_vs_primary"``, ``"bayesian_equivalent_vs_primary"``,
        ``"friedman_vs_primary"`` or ``"friedman_chi2_vs_iman_davenport"``.
    trusted : str
        The analysis the plan trusts (``"primary"``, ``"friedman_exact"``,
        ``"iman_davenport"``).
    other : str
        The analysis that disagrees with it.
    learners : tuple of str
        The learners concerned (the best learner first), if any.
    sentence : str
        What the report prints: both verdicts, which one the plan trusts and
        why.

    Examples
    --------
    Demšar's Table 6 holds two: Friedman's test finds differences where the
    primary analysis (the paired t of each pair, Holm-adjusted) separates none
    from the best, C4.5+m+cf; and the Bayesian signed-rank test (ROPE 0: AUC
    has no default Δ) finds C4.5+m+cf practically better than two learners
    the primary analysis cannot separate from it.

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


def _primary_rows(analysis):
    """``{other: (adjusted p, True when the best learner is the better one)}``
    of the primary analysis' pairs with the best learner."""
    pairs = analysis.pairs
    if not len(pairs):
        return {}
    best = analysis.best
    sign = 1.0 if analysis.greater_is_better else -1.0
    out = {}
    for _, r in pairs.iterrows():
        if best not in (r["a"], r["b"]):
            continue
        if not np.isfinite(r["adjusted_pvalue"]):  # no test: no verdict
            continue
        other = r["b"] if r["a"] == best else r["a"]
        flip = 1.0 if r["a"] == best else -1.0
        out[other] = (float(r["adjusted_pvalue"]), sign * flip * r["estimate"] > 0)
    return out


def _primary_name(analysis):
    m = len(analysis.pairs)
    holm = f", Holm-adjusted over {m} pairs" if m > 1 else ""
    if analysis.blocks == "data sets":
        return f"the paired t over data sets{holm}"
    return f"the corrected resampled t on the folds or splits{holm}"


def friedman_disagreements(analysis):
    """The disagreements of Friedman's test with the primary analysis, and of its
    χ² (or exact) p-value with the Iman–Davenport F, as :class:`Disagreement`.

    Parameters
    ----------
    analysis : Analysis

    Returns
    -------
    list of Disagreement
    """
    fr = analysis.friedman
    alpha = analysis.alpha
    out = []
    if fr is None or analysis.blocks != "data sets":
        return out
    rows = _primary_rows(analysis)
    separated = [o for o, (p, _) in rows.items() if p <= alpha + 1e-12]
    k = len(analysis.mean.columns)
    if rows and fr.pvalue <= alpha and not separated:
        out.append(
            Disagreement(
                "friedman_vs_primary",
                "primary",
                "friedman",
                (analysis.best,),
                f"Friedman's rank test does find differences among the {k} "
                f"learners (p = {fmt_p(fr.pvalue)}) where the primary analysis "
                f"separates none from {analysis.best}. The plan trusts the "
                "primary analysis: Friedman's test uses only the order of the "
                "learners within each data set, not the size of their "
                "differences, and tests all learners at once; the primary paired "
                "t weighs the differences, which vary between data sets, and "
                "corrects for every pair.",
            )
        )
    elif rows and fr.pvalue > alpha and separated:
        out.append(
            Disagreement(
                "friedman_vs_primary",
                "primary",
                "friedman",
                (analysis.best, *separated),
                f"Friedman's rank test finds no difference among the {k} "
                f"learners (p = {fmt_p(fr.pvalue)}) although the primary analysis "
                f"finds {fmt_names(separated)} worse than {analysis.best}. The plan "
                "trusts the primary analysis: it tests each pair with the best "
                "learner on the size of the differences, corrected for every "
                "pair; Friedman's omnibus test spreads its power over all "
                f"{k} learners and uses only their order within each data set.",
            )
        )
    id_p = float(fr.iman_davenport_pvalue)
    if np.isfinite(id_p) and np.isfinite(fr.pvalue):
        if (fr.pvalue <= alpha) != (id_p <= alpha):
            exact = fr.null_distribution == "exact"
            if exact:
                trusted = "friedman_exact"
                why = (
                    "the plan trusts the exact p-value: it is the permutation "
                    "distribution of the rank sums under the null, while the "
                    "Iman–Davenport F approximates it (with "
                    f"{fr.n_blocks} data sets, not closely)"
                )
            else:
                trusted = "iman_davenport"
                why = (
                    "the plan trusts the Iman–Davenport F: the χ² approximation "
                    "of Friedman's statistic is conservative with few data sets "
                    "and learners (Demšar 2006, Sec. 3.2.2)"
                )
            out.append(
                Disagreement(
                    "friedman_chi2_vs_iman_davenport",
                    trusted,
                    "iman_davenport" if exact else "friedman_chi2",
                    (),
                    f"Friedman's test, p = {fmt_p(fr.pvalue)} "
                    f"({'exact' if exact else 'χ² approximation'}), and the "
                    f"Iman–Davenport F, p = {fmt_p(id_p)}, "
                    f"fall on both sides of α = {alpha:g}: {why}. Both are "
                    "sensitivity analyses; the bottom line rests on the primary "
                    "analysis.",
                )
            )
    return out


def _why_bayes(method, analysis, a, others, rope):
    """Why a Bayesian 'better' can stand beside a primary 'cannot separate'."""
    if method == "signed-rank":
        mean = analysis.mean.loc[list(analysis.datasets_across)]
        sign = 1.0 if analysis.greater_is_better else -1.0
        n = len(mean)
        counts = [int((sign * (mean[a] - mean[o]) > rope).sum()) for o in others]
        beyond = (
            f"{counts[0]} of the {n}"
            if len(set(counts)) == 1
            else f"{min(counts)} to {max(counts)} of the {n}"
        )
        return (
            f"the signed-rank test uses only the signs and ranks of the {n} "
            f"per-data-set differences (here {beyond} lie beyond the ROPE in "
            f"{a}'s favour), not how much their sizes vary"
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
    """The disagreements of the Bayesian comparisons with the primary analysis,
    as :class:`Disagreement`: the Bayesian test finds one learner practically
    better where the primary analysis cannot separate the two (or finds the
    other better), or finds them practically equivalent where the primary
    analysis finds them different.

    Parameters
    ----------
    analysis : Analysis
    table : DataFrame
        The Bayesian comparisons (:attr:`Analysis.bayesian`).
    rope : float
        Its ROPE (the analysis' Δ).

    Returns
    -------
    list of Disagreement
    """
    rows = _primary_rows(analysis)
    if not rows or table is None or not len(table):
        return []
    scope = (
        "across data sets"
        if analysis.blocks == "data sets"
        else (analysis.datasets_across[0] if analysis.datasets_across else None)
    )
    best, alpha, m = analysis.best, analysis.alpha, len(analysis.pairs)
    better, equivalent, opposite = [], [], []
    method = ""
    for r in table[(table["scope"] == scope) & (table["a"] == best)].itertuples(
        index=False
    ):
        if r.b not in rows or r.decision == "unreliable fit":
            continue
        p, best_ahead = rows[r.b]
        method = r.method
        separated = p <= alpha + 1e-12
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
    trust = (
        f"The plan trusts the primary analysis ({_primary_name(analysis)}): it is "
        "the decision rule fixed before the results, it controls the family-wise "
        f"error over all {m} pairs at α = {alpha:g} and weighs the size of each "
        "difference against its spread; the Bayesian probabilities are for each "
        f"pair on its own, with no adjustment for the {m} comparisons, and "
    )
    out = []
    if better:
        others, holm = _learners_and_p(better)
        low_p = min(pr for _, pr, _ in better)
        out.append(
            _bayesian_against_primary(
                "bayesian_vs_primary",
                best,
                others,
                f"The Bayesian {method} test finds {best} practically better "
                f"than {fmt_names(others)} (P ≥ {low_p:.3f}, ROPE ±{rope:g}, on "
                f"{units}), where the primary analysis cannot separate them "
                f"(Holm-adjusted p = {holm}). "
                + trust
                + _why_bayes(method, analysis, best, others, rope)
                + ". Read the Bayesian result as a sensitivity analysis, not as a "
                "finding of the study.",
            )
        )
    if opposite:
        others, holm = _learners_and_p(opposite)
        out.append(
            _bayesian_against_primary(
                "bayesian_vs_primary",
                best,
                others,
                f"The Bayesian {method} test finds {fmt_names(others)} practically "
                f"better than {best}, which has the better average rank; the "
                f"primary analysis does not find that (Holm-adjusted p = {holm}). "
                + trust
                + _why_bayes(method, analysis, others[0], [best], rope)
                + ".",
            )
        )
    if equivalent:
        others, holm = _learners_and_p(equivalent)
        out.append(
            _bayesian_against_primary(
                "bayesian_equivalent_vs_primary",
                best,
                others,
                f"The Bayesian {method} test finds {fmt_names(others)} practically "
                f"equivalent to {best} (ROPE ±{rope:g}) while the primary "
                f"analysis finds them different (Holm-adjusted p = {holm}). Both "
                "can hold: a difference can be detectable and yet smaller than Δ. "
                "The plan trusts the primary analysis for whether there is a "
                "difference, and its simultaneous interval inside ±Δ for whether "
                "it matters.",
            )
        )
    return out


def _learners_and_p(group):
    """The other learners of a group of ``(learner, P, Holm-adjusted p)`` rows
    and their adjusted p-values in words."""
    return [b for b, _, _ in group], ", ".join(fmt_p(p) for _, _, p in group)


def _bayesian_against_primary(key, best, others, sentence):
    """A Bayesian result about ``best`` and ``others`` that the primary
    analysis does not share; the plan trusts the primary analysis."""
    return Disagreement(key, "primary", "bayesian", (best, *others), sentence)
