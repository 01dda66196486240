"""The Bayesian section of the report and the summary: ``Analysis.bayesian``,
the Plackett–Luce ranking and their figures."""

import html

import numpy as np

from ..analysis._bayesian import (
    HIERARCHICAL_DRAWS,
    MC_ERROR,
    N_SAMPLES,
    SEED,
    THRESHOLD,
)
from ..analysis._bottom_line import DISAGREEMENTS_TITLE
from ..analysis._format import fmt_count, fmt_names
from ._blocks import MAX_DETAIL_ROWS, MAX_SUMMARY_ROWS, _drawn_figure, _table


def _intro(analysis, rope):
    return (
        f"Posterior probabilities that the best learner (a) or the other (b) is "
        f"practically better in {analysis.metric} ({analysis.direction}), or that "
        f"they are practically equivalent (difference within ±{rope:g}), after "
        "Benavoli et al. (2017). Across data sets: "
        + (
            "the hierarchical model of Corani et al. (2017) on every split score "
            f"(NumPyro NUTS, {HIERARCHICAL_DRAWS} draws, seed 0; probabilities for "
            "the next data set), the plan's model; when it cannot be fitted, the "
            if analysis.plan.bayesian == "hierarchical"
            else ""
        )
        + "Bayesian signed-rank test on "
        "the per-data-set means (Dirichlet-process prior of strength 0.5 at 0, "
        f"{N_SAMPLES} Monte Carlo samples, seed {SEED}: Monte Carlo standard error "
        f"of each probability at most {MC_ERROR}); within a data set: "
        "Bayesian correlated t-test (Corani & Benavoli 2015) on the units of the "
        "corrected t, with rho/(1 − rho) = n_test/n_train from the stored split "
        f"sizes. Decision at posterior probability {THRESHOLD}."
    )


def _ranking_html(analysis):
    """The Plackett–Luce table and the rank-posterior figure, or ``""``."""
    ranking, table = analysis.ranking, analysis.ranking_table
    parts = []
    if ranking is not None:
        ties = f"Ties on {ranking.n_tied} data set(s) broken at random. "
        text = html.escape(
            "The rankings of the learners on the data sets modelled as draws from "
            "one Plackett–Luce distribution (Calvo, Ceberio & Lozano 2018), "
            f"Dirichlet(1) prior on the weights, {ranking.details['n_draws']} "
            f"Gibbs draws (Caron & Doucet 2012), seed {SEED}. P(first): the "
            "probability that the learner ranks first on a new data set; P(best): "
            "the posterior probability that it is the learner most likely to rank "
            "first; expected rank on a new data set (1 = best). "
            + (ties if ranking.n_tied else "")
            + ranking.diagnostics
        )
        title = "Bayesian Plackett–Luce ranking beside the Friedman average ranks"
        parts += [
            f"<h3>Ranking of all learners (Plackett–Luce)</h3><p>{text}</p>",
            _table(table, title, table_id="table-bayesian-ranking", index=False),
        ]
        from ..plotting import plot_rank_posterior

        parts.append(
            _drawn_figure(
                "rank_posterior",
                "Rank posteriors (Plackett–Luce)",
                "Shade: posterior probability of each position in the most "
                "probable ranking; red: expected rank on a new data set and its "
                "credible interval.",
                plot_rank_posterior(ranking).figure,
            )
        )
    notes = analysis.ranking_notes
    parts += [f'<p class="note">{html.escape(str(n))}</p>' for n in notes]
    return "".join(parts)


_MAX_SIMPLEX = 4  # simplex panels of hierarchical fits in the report


def _simplex_html(analysis):
    """The simplex of the hierarchical model's draws, best against the others."""
    import matplotlib.pyplot as plt

    from ..plotting import plot_bayesian_posterior
    from ..plotting._common import figure_label

    fits = analysis.hierarchical_fits[:_MAX_SIMPLEX]
    if not fits:
        return ""
    fig, axes = plt.subplots(
        1, len(fits), figsize=(4.2 * len(fits), 4.2), layout="constrained"
    )
    try:
        for ax, res in zip(np.atleast_1d(axes), fits, strict=True):
            a, b = res.labels
            title = f"{figure_label(a)} vs {figure_label(b)}"  # drawn literally
            plot_bayesian_posterior(res, ax=ax, title=title)
    except BaseException:
        plt.close(fig)
        raise
    first = f"; the first {_MAX_SIMPLEX} comparisons."
    return _drawn_figure(
        "bayesian_simplex",
        "Posterior of the hierarchical model (next data set)",
        "Each point is one posterior draw of the probabilities of (a better, "
        "equivalent, b better) on the next data set, coloured by the most "
        "probable region (Benavoli et al. 2017, Figs. 7–9)"
        + (first if len(fits) == _MAX_SIMPLEX else "."),
        fig,
    )


def bayesian_html(analysis):
    """The ``<section id="bayesian">`` of the report."""
    table, notes = analysis.bayesian, analysis.bayesian_notes
    rope = analysis.delta or 0.0
    parts = [
        '<section id="bayesian"><h2>Bayesian comparisons</h2>',
        f"<p>{html.escape(_intro(analysis, rope))}</p>",
    ]
    csv = {"index": False, "csv": "bayesian.csv"}
    if 0 < len(table) <= MAX_SUMMARY_ROWS:
        title = "The best learner against each other one"
        parts.append(_table(table, title, table_id="table-bayesian", **csv))
    elif len(table):  # many: across data sets whole, within each collapsed
        across = table["scope"] == "across data sets"
        if across.any():
            title = "Across data sets: the best learner against each other one"
            at = {"table_id": "table-bayesian", "max_rows": MAX_SUMMARY_ROWS}
            parts.append(_table(table[across], title, **at, **csv))
        title = "Within each data set: the best learner there against each other one"
        at = {"table_id": "table-bayesian-within", "max_rows": MAX_DETAIL_ROWS}
        parts.append(_table(table[~across], title, **at, **csv))
    parts += [f'<p class="note">{html.escape(str(note))}</p>' for note in notes]
    # where the Bayesian verdict differs from the primary one, the report
    # prints the analysis' record of which one the plan trusts (once)
    parts += [
        f'<p class="disagreement">{html.escape(p)}</p>' for p in _pointers(analysis)
    ]
    parts.append(_simplex_html(analysis))
    parts.append(_ranking_html(analysis))
    parts.append("</section>")
    return "".join(parts)


def bayesian_summary_lines(analysis):
    """Lines of the text summary: the Bayesian comparisons across data sets."""
    table, notes = analysis.bayesian, analysis.bayesian_notes
    rope = analysis.delta or 0.0
    across = table[table["scope"] == "across data sets"]
    hierarchical = (across["method"] == "hierarchical").any()
    name = "hierarchical model" if hierarchical else "signed-rank"
    lines = [
        f"   Bayesian {name} across data sets (ROPE ±{rope:g}; decision at "
        f"{THRESHOLD}):"
    ]
    if across.empty:
        lines.append("   (not computed: needs at least 2 data sets and 2 learners)")
    width = max((len(str(b)) for b in across["b"]), default=0)
    for r in across.itertuples(index=False):
        lines.append(
            f"   {r.a} vs {r.b:<{width}}  P({r.a} better) = {r[5]:.3f}, P(equivalent) "
            f"= {r[6]:.3f}, P({r.b} better) = {r[7]:.3f} -> {r.decision}"
        )
    within = table[table["scope"] != "across data sets"]
    if len(within):
        counts = within["decision"].value_counts().items()
        lines.append(
            f"   Within data sets (correlated t, {fmt_count(len(within), 'comparison')}"
            f" with the best there): {', '.join(f'{n}: {c}' for n, c in counts)}."
        )
    ranking = analysis.ranking
    if ranking is not None:
        each = ", ".join(
            f"{name} {row['P(first)']:.2f} / {row['expected rank']:.1f}"
            for name, row in ranking.to_frame().iterrows()
        )
        lines.append(
            "   Bayesian Plackett–Luce ranking, P(first on a new data set) / "
            f"expected rank: {each}."
        )
    lines.extend(f"   ({note})" for note in notes[:1])
    lines.extend(f"   {p}" for p in _pointers(analysis))
    return lines


def _pointers(analysis):
    """Where the record of each Bayesian verdict the primary analysis does not
    share is printed (once)."""
    out = []
    for d in analysis.disagreements:
        if d.key.startswith("bayesian"):
            names = d.learners
            others = fmt_names(names[1:])
            pair = f" on {names[0]} against {others}" if len(names) > 1 else ""
            out.append(
                f"The Bayesian verdict{pair} differs from the primary analysis; "
                f"'{DISAGREEMENTS_TITLE}' says which one the plan trusts and why."
            )
    return out
