"""The report's leaderboard section: ratings, win rates and rank confidence sets,
their two figures (the full tables are written as CSV with the others)."""

import html

import numpy as np

from ._blocks import _drawn_figure


def _interval(value, low, high, digits):
    return (
        f"{value:.{digits}f} <span class='muted'>[{low:.{digits}f}, "
        f"{high:.{digits}f}]</span>"
    )


def _table(board):
    has_times = "fit_time" in board
    times = "<th>fit time (s)</th>" if has_times else ""
    head = (
        "<tr><th>learner</th><th>rank [simultaneous set]</th><th>may be best</th>"
        "<th>rating [interval]</th><th>win rate [interval]</th><th>mean rank</th>"
        f"<th>improvability</th><th>mean score</th>{times}</tr>"
    )
    rows = []
    numbers = {"mean_rank": ".2f", "improvability": ".3f", "mean_score": ".4g"}
    numbers.update({"fit_time": ".3g"} if has_times else {})
    for name, r in board.iterrows():
        cells = [
            f"{int(r['rank'])} [{int(r['rank_low'])}, {int(r['rank_high'])}]",
            "yes" if r["may_be_best"] else "",
            _interval(r["rating"], r["rating_low"], r["rating_high"], 0),
            _interval(r["win_rate"], r["win_rate_low"], r["win_rate_high"], 2),
            *("" if np.isnan(r[c]) else format(r[c], f) for c, f in numbers.items()),
        ]
        tds = "".join(f'<td class="num">{c}</td>' for c in cells)
        rows.append(f"<tr><td>{html.escape(str(name))}</td>{tds}</tr>")
    return (
        f'<table id="leaderboard-table"><thead>{head}</thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
    )


def _delta_words(stability):
    if stability.delta is None:
        return ""
    if stability.n_needed_delta is None:
        return (
            f"; the pairs at least Δ = {stability.delta:g} apart are not all "
            f"ordered even with {stability.table['n_datasets'].max()} data sets"
        )
    return (
        f"; every pair at least Δ = {stability.delta:g} apart is ordered with "
        f"about {stability.n_needed_delta} data sets"
    )


def leaderboard_section(analysis):
    """The ``<section id="leaderboard">`` of the report (``""`` without a
    leaderboard)."""
    from ..plotting import plot_rank_intervals, plot_win_rate_matrix

    lb = analysis.leaderboard
    if lb is None:
        return ""
    metric, level = analysis.metric, analysis.confidence_level
    res, board, matrix = lb.result, lb.board, lb.matrix
    stability, grid, n_resamples = lb.stability, lb.grid, lb.n_resamples
    n = len(res.table)
    observed = stability.table.loc[stability.table["observed"]].iloc[0]
    needed = (
        f"about {stability.n_needed} data sets would bring the mean width to 1 or less"
        if stability.n_needed is not None
        else f"even {grid[-1]} data sets would not bring the mean width to 1 "
        "(some learners are too close to separate)"
    )
    best = [str(i) for i in board.index[board["may_be_best"]]]
    words = {"score": "mean score", "mean_rank": "mean rank", "rating": "rating"}
    parts = [
        '<section id="leaderboard"><h2>Leaderboard</h2>',
        f"<p>{n} learners over {res.n_datasets} data sets (the units), "
        f"{html.escape(str(metric))}. Ranks by "
        f"{words[res.rank_by]}; <em>rank set</em>: the ranks each learner may "
        f"have, at {level:g} for all learners at once (Mogstad, Romano, Shaikh "
        f"&amp; Wilhelm 2024). May be best ({level:g} top-1 confidence set): "
        f"{html.escape(', '.join(best))}. Rating: Bradley–Terry on the Elo scale "
        f"(mean 1000); intervals from {n_resamples} bootstrap resamples of the "
        "data sets. The full table and the win-rate matrix are in "
        "<code>tables/leaderboard.csv</code> and "
        "<code>tables/win_rate_matrix.csv</code>.</p>",
        f"<p>Stability: the learner on top stays on top in "
        f"{observed['p_top_stays']:.0%} of the resamples; the simultaneous rank "
        f"sets are {observed['mean_width']:.1f} ranks wide on average; {needed}"
        + _delta_words(stability)
        + " (a projection that takes the observed differences as true).</p>",
        *(f"<p class='muted'>Note: {html.escape(note)}</p>" for note in res.notes),
        _table(board),
        # drawn one after the other: a failed plot leaves no figure open
        _drawn_figure(
            "rank_intervals",
            "Rank confidence sets",
            f"Thin: simultaneous {level:g} sets; thick: marginal; dot: estimated "
            "rank; red: may be the best.",
            plot_rank_intervals(board).figure,
            dpi=100,
        ),
        _drawn_figure(
            "win_rate_matrix",
            "Win rates, ordered by rating",
            "Share of common data sets on which the row learner beats the "
            "column learner (ties count half).",
            plot_win_rate_matrix(matrix).figure,
            dpi=100,
        ),
        "</section>",
    ]
    return "".join(parts)
