"""The Bayesian section of the report and the summary, beside the frequentist one.

Benavoli et al. (2017): each learner against the best one, with the posterior
probabilities that either is practically better or that they are practically
equivalent, across data sets (Bayesian signed-rank test on the per-data-set
means) and within each data set (Bayesian correlated t-test on the units of
the corrected t, with the correlation from the stored split sizes). Everything goes
through :meth:`~sklearn_bench.BenchmarkResult.bayesian_test`. With the [bayes]
extra and several data sets, the section also ranks all learners with the
Bayesian Plackett–Luce model (Calvo et al. 2018,
:meth:`~sklearn_bench.BenchmarkResult.bayesian_ranking`, a Gibbs sampler in
NumPy) beside the Friedman average ranks, with the rank-posterior plot.

An MCMC fit whose diagnostics fail declines: its row's decision is "unreliable
fit", the column ``why undecided`` gives the failed checks, one note names the
comparison, and the bottom line falls back to the deterministic analysis.
"""

import html
import warnings

import numpy as np
import pandas as pd

_THRESHOLD = 0.95
_N_SAMPLES = 20000
_SEED = 0
_HIERARCHICAL_DRAWS = 4000  # 4 chains x 1000: Monte Carlo sd about 0.01
_MAX_HIERARCHICAL = 10  # comparisons across data sets fitted by MCMC in a report
_COLUMNS = [
    "scope",
    "a",
    "b",
    "method",
    "n",
    "P(a better)",
    "P(equivalent)",
    "P(b better)",
    "decision",
]
_WHY = "why undecided"  # column added when an MCMC fit declined


def bayesian_comparisons_table(result, analysis, *, threshold=_THRESHOLD):
    """The best learner against each other one, Bayesian, as a table.

    Parameters
    ----------
    result : BenchmarkResult
    analysis : ReportAnalysis
        Gives the metric, the best learner across data sets and the best learner
        on each data set (the reference of ``analysis.within``).
    threshold : float, default=0.95

    Returns
    -------
    table : DataFrame
        Columns ``scope`` (``"across data sets"`` or a data set), ``a`` (the
        best), ``b``, ``method``, ``n``, the three probabilities and
        ``decision``.
    rope : float
        The ROPE used: the analysis' Δ (``analysis.delta``, given or the
        default for a [0, 1] metric), the one number the power analysis and
        the bottom line use too; 0 for a metric without one.
    notes : list of str
        What was not computed, and why; the ROPE's source.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.report import analyse_result
    >>> from sklearn_bench.report._bayesian import bayesian_comparisons_table
    >>> rng = np.random.default_rng(0)
    >>> df = pd.DataFrame({"d": np.repeat([f"d{i}" for i in range(8)], 2),
    ...                    "l": ["A", "B"] * 8,
    ...                    "error_rate": np.repeat(rng.uniform(0.1, 0.3, 8), 2)
    ...                         + np.tile([0.0, 0.04], 8)})
    >>> result = BenchmarkResult.from_frame(df, dataset="d", learner="l",
    ...     value="error_rate", greater_is_better=False)
    >>> table, rope, notes = bayesian_comparisons_table(
    ...     result, analyse_result(result))
    >>> table[["scope", "a", "b", "decision"]]
                  scope  a  b decision
    0  across data sets  A  B        A
    """
    key = ("bayesian", threshold)
    if key in analysis.cache:  # computed once per report
        table, rope, notes = analysis.cache[key]
        return table.copy(), rope, list(notes)
    metric = analysis.metric
    notes = []
    if analysis.delta is not None:
        rope = float(analysis.delta)
    else:
        rope = 0.0
        notes.append(
            f"Metric {metric!r} has no default region of practical equivalence "
            "and no smallest difference that matters (Δ) was given: the Bayesian "
            "comparisons use ROPE = 0 (set [analysis] delta, or delta=, for "
            "practical equivalence)."
        )
    rows = []
    across_results = []  # the hierarchical fits, for the simplex figure
    options = {"rope": rope, "metric": metric}
    from ..stats._bayesian import shared_dirichlet_draws

    # One seed for every comparison across data sets: their Dirichlet draws are
    # the same, drawn once (shared_dirichlet_draws changes no number).
    with warnings.catch_warnings(record=True) as caught, shared_dirichlet_draws():
        warnings.simplefilter("always", RuntimeWarning)
        datasets = list(analysis.mean.index)
        if len(datasets) >= 2:
            others = [m for m in analysis.mean.columns if m != analysis.best]
            hierarchical = _hierarchical_available()
            if not hierarchical:
                notes.append(_WITHOUT_EXTRA)
            elif len(others) > _MAX_HIERARCHICAL:
                hierarchical = False
                notes.append(
                    f"Across data sets the signed-rank test, not the hierarchical "
                    f"model: {len(others)} comparisons exceed the report's "
                    f"{_MAX_HIERARCHICAL} (each is an MCMC fit); call "
                    "BenchmarkResult.bayesian_test(method='hierarchical') for a pair."
                )
            for other in others:
                try:
                    if hierarchical:
                        try:
                            res = result.bayesian_test(
                                analysis.best,
                                other,
                                method="hierarchical",
                                n_samples=_HIERARCHICAL_DRAWS,
                                random_state=_SEED,
                                **options,
                            )
                        except ValueError as exc:
                            notes.append(
                                f"Hierarchical model not used, signed-rank instead: "
                                f"{exc}"
                            )
                            hierarchical = False
                    if not hierarchical:
                        res = result.bayesian_test(
                            analysis.best,
                            other,
                            n_samples=_N_SAMPLES,
                            random_state=_SEED,
                            **options,
                        )
                except ValueError as exc:
                    notes.append(f"Not across data sets: {exc}")
                    break
                rows.append(_row("across data sets", res, threshold))
                if res.method == "hierarchical":
                    across_results.append(res)
        within_notes = set()
        for dataset, group in analysis.within.groupby("dataset", sort=False):
            reference = group["reference"].iloc[0]
            batch = _within_batch(
                result, list(group["learner"]), reference, dataset, options, threshold
            )
            for other in group["learner"]:
                if other in batch:
                    rows.append(batch[other])
                    continue
                try:
                    res = result.bayesian_test(
                        reference, other, dataset=dataset, **options
                    )
                except ValueError as exc:
                    within_notes.add(str(exc))
                    break
                rows.append(_row(dataset, res, threshold))
    notes.extend(f"Not within a data set: {msg}" for msg in sorted(within_notes))
    notes.extend(sorted({str(w.message) for w in caught}))
    table = pd.DataFrame(rows, columns=_COLUMNS + [_WHY])
    table[_WHY] = table[_WHY].fillna("")
    if (table[_WHY] == "").all():
        table = table[_COLUMNS]
    analysis.cache[key] = (table, rope, tuple(notes))
    analysis.cache[("bayesian_hierarchical_fits", threshold)] = tuple(across_results)
    return table.copy(), rope, notes


def _within_batch(result, others, reference, dataset, options, threshold):
    """The rows of the Bayesian correlated t-tests of ``reference`` against
    each of ``others`` on ``dataset``, all at once when they share one design
    (:func:`~sklearn_bench.results._within.corrected_t_block`): bit for bit the
    rows ``bayesian_test`` gives; ``{}`` when they cannot be batched (those,
    and zero-variance comparisons, are tested one by one)."""
    from ..results._within import corrected_t_block
    from ..stats._bayesian import _UNDECIDED, _correlated_t_rows

    metric, rope = options["metric"], float(options["rope"])
    block = corrected_t_block(result, others, reference, metric=metric, dataset=dataset)
    if block is None or block[0].shape[0] < 2:
        return {}
    y, x, ratio = block  # the reference is x
    rho = ratio / (1 + ratio)  # as correlated_splits
    p_greater, p_rope, p_less, constant = _correlated_t_rows(x, y, rope=rope, rho=rho)
    gib = result.metrics[metric]
    rows = {}
    for j, other in enumerate(others):
        if constant[j]:
            continue
        first, second = (p_greater[j], p_less[j]) if gib else (p_less[j], p_greater[j])
        probs = {reference: float(first), "equivalent": float(p_rope[j])}
        probs[other] = float(second)
        decision = next(
            (name for name, p in probs.items() if p >= threshold), _UNDECIDED
        )
        rows[other] = {
            "scope": dataset,
            "a": reference,
            "b": other,
            "method": "correlated-t",
            "n": int(x.shape[0]),
            "P(a better)": probs[reference],
            "P(equivalent)": probs["equivalent"],
            "P(b better)": probs[other],
            "decision": decision,
        }
    return rows


_WITHOUT_EXTRA = (
    'Installing the optional back end (pip install "sklearn-bench[bayes]") would '
    "add the hierarchical model of Corani et al. (2017) across data sets: it uses "
    "every fold score of every data set, shrinks the per-data-set differences and "
    "gives the probabilities for the next data set; and the Bayesian "
    "Plackett–Luce ranking of all learners (Calvo et al. 2018): each one's "
    "probability of ranking first and its expected rank on a new data set."
)


def _hierarchical_available():
    """Whether the [bayes] extra (NumPyro) is installed; nothing is imported."""
    import importlib.util

    return importlib.util.find_spec("numpyro") is not None


def _row(scope, res, threshold):
    a, b = res.labels
    probs = res.probabilities
    declined = res.details.get("diagnostics_ok", True) is False
    return {
        _WHY: _problems(res.details.get("diagnostics", "")) if declined else "",
        "scope": scope,
        "a": a,
        "b": b,
        "method": res.method.replace("_", "-"),
        "n": res.n,
        "P(a better)": probs[a],
        "P(equivalent)": probs["equivalent"],
        "P(b better)": probs[b],
        "decision": res.decision(threshold),
    }


def _problems(words):
    """The failed checks out of an MCMC fit's diagnostics sentence."""
    start, end = words.find(": "), words.find(". The fit declines")
    return words[start + 2 : end] if 0 <= start < end else words


def _intro(analysis, rope):
    return (
        f"Posterior probabilities that the best learner (a) or the other (b) is "
        f"practically better in {analysis.metric} ({analysis.direction}), or that "
        f"they are practically equivalent (difference within ±{rope:g}), after "
        "Benavoli et al. (2017). Across data sets: "
        + (
            "the hierarchical model of Corani et al. (2017) on every split score "
            f"(NumPyro NUTS, {_HIERARCHICAL_DRAWS} draws, seed 0; probabilities for "
            "the next data set) when the "
            "[bayes] extra is installed, otherwise "
            if _hierarchical_available()
            else ""
        )
        + "Bayesian signed-rank test on "
        "the per-data-set means (Dirichlet-process prior of strength 0.5 at 0, "
        f"{_N_SAMPLES} Monte Carlo samples, seed {_SEED}); within a data set: "
        "Bayesian correlated t-test (Corani & Benavoli 2015) on the units of the "
        "corrected t, with rho/(1 − rho) = n_test/n_train from the stored split "
        f"sizes. Decision at posterior probability {_THRESHOLD}."
    )


def _count(n, noun):
    if not n:
        return ""
    plural = noun.replace("comparison", "comparisons")
    return f"{n} {noun if n == 1 else plural}"


def _register(analysis, table, rope):
    """The Bayesian comparisons in the methods paragraph (what actually ran)."""
    from ._methods import TestRecord, register_test

    across = table["scope"] == "across data sets"
    tests = []
    if (across & (table["method"] == "hierarchical")).any():
        tests.append(
            "Bayesian hierarchical model (Corani et al. 2017) on every split score "
            "of every data set"
        )
    elif across.any():
        tests.append(
            "Bayesian signed-rank test on the per-data-set means (Dirichlet-"
            "process prior of strength 0.5 at 0)"
        )
    if (~across).any():
        tests.append(
            "Bayesian correlated t-test within each data set, rho from the split sizes"
        )
    register_test(
        analysis,
        TestRecord(
            "bayesian",
            "the best learner against each other one, as posterior probabilities "
            f"of practical superiority and equivalence (ROPE ±{rope:g}, decision at "
            f"posterior probability {_THRESHOLD})",
            "; ".join(tests),
            " and ".join(
                text
                for text in (
                    _count(int(across.sum()), "comparison across data sets"),
                    _count(int((~across).sum()), "comparison within data sets"),
                )
                if text
            ),
            citations=("benavoli2017", "corani2015"),
        ),
    )


def bayesian_ranking(result, analysis):
    """The Bayesian Plackett–Luce ranking of all learners for the report.

    Fitted (once per report, seed 0, the model's default draws: a Gibbs
    sampler in NumPy) when the [bayes] extra is installed and there are at
    least 2 data sets and 2 learners.

    Parameters
    ----------
    result : BenchmarkResult
    analysis : ReportAnalysis

    Returns
    -------
    ranking : PlackettLuceResult or None
    table : DataFrame or None
        One row per learner sorted by expected rank: ``learner``,
        ``P(first)`` and its credible interval, ``P(best)``, ``expected
        rank`` and its interval, and the Friedman average rank (the
        frequentist leaderboard) when the report has it.
    notes : list of str
        Why the ranking was not fitted, or the sampler's warnings.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.report import analyse_result
    >>> from sklearn_bench.report._bayesian import bayesian_ranking
    >>> df = pd.DataFrame({"d": ["p", "p", "q", "q"], "l": ["A", "B"] * 2,
    ...                    "error_rate": [0.1, 0.2, 0.15, 0.25]})
    >>> result = BenchmarkResult.from_frame(df, dataset="d", learner="l",
    ...     value="error_rate", greater_is_better=False)
    >>> ranking, table, notes = bayesian_ranking(result, analyse_result(result))
    >>> ranking is None or list(table["learner"]) == ["A", "B"]
    True
    """
    key = ("bayesian_ranking",)
    if key in analysis.cache:
        ranking, table, notes = analysis.cache[key]
        return ranking, None if table is None else table.copy(), list(notes)
    ranking, table, notes = None, None, []
    learners = list(analysis.mean.columns)
    if (
        len(analysis.mean.index) >= 2
        and len(learners) >= 2
        and _hierarchical_available()
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RuntimeWarning)
            try:
                ranking = result.bayesian_ranking(
                    learners, metric=analysis.metric, random_state=_SEED
                )
            except ValueError as exc:
                notes.append(f"No Plackett–Luce ranking: {exc}")
        notes.extend(sorted({str(w.message) for w in caught}))
    if ranking is not None:
        frame = ranking.to_frame()
        pct = f"{ranking.level:.0%}"
        table = pd.DataFrame(
            {
                "learner": frame.index,
                "P(first)": frame["P(first)"].to_numpy(),
                f"P(first) {pct} interval": [
                    f"[{lo:.3f}, {hi:.3f}]"
                    for lo, hi in zip(
                        frame["P(first) low"], frame["P(first) high"], strict=True
                    )
                ],
                "P(best)": frame["P(best)"].to_numpy(),
                "expected rank": frame["expected rank"].to_numpy(),
                f"rank {pct} interval": [
                    f"[{lo:.2f}, {hi:.2f}]"
                    for lo, hi in zip(
                        frame["rank low"], frame["rank high"], strict=True
                    )
                ],
            }
        )
        friedman = getattr(analysis, "friedman", None)
        if friedman is not None:
            avg = friedman.average_ranks
            table["Friedman average rank"] = [
                float(avg[name]) if name in avg.index else float("nan")
                for name in frame.index
            ]
    analysis.cache[key] = (ranking, table, tuple(notes))
    return ranking, None if table is None else table.copy(), notes


def _ranking_html(result, analysis):
    """The Plackett–Luce table and the rank-posterior figure, or ``""``."""
    import io

    from ._html import _figure_html, _table
    from ._methods import TestRecord, register_test

    ranking, table, notes = bayesian_ranking(result, analysis)
    parts = []
    if ranking is not None:
        register_test(
            analysis,
            TestRecord(
                "bayesian_ranking",
                "all learners ranked on each data set by their mean performance",
                "Bayesian Plackett–Luce model with a Dirichlet(1) prior (Calvo, "
                "Ceberio & Lozano 2018), Gibbs sampler of Caron & Doucet (2012)",
                f"{ranking.n_datasets} data sets",
            ),
        )
        parts.append(
            "<h3>Ranking of all learners (Plackett–Luce)</h3><p>"
            + html.escape(
                "The rankings of the learners on the data sets modelled as draws "
                "from one Plackett–Luce distribution (Calvo, Ceberio & Lozano "
                "2018), Dirichlet(1) prior on the weights, "
                f"{ranking.details['n_draws']} Gibbs draws (Caron & Doucet "
                f"2012), seed {_SEED}. P(first): the "
                "probability that the learner ranks first on a new data set; "
                "P(best): the posterior probability that it is the learner most "
                "likely to rank first; expected rank on a new data set (1 = "
                "best). "
                + (
                    f"Ties on {ranking.n_tied} data set(s) broken at random. "
                    if ranking.n_tied
                    else ""
                )
                + ranking.diagnostics
            )
            + "</p>"
        )
        parts.append(
            _table(
                table,
                "Bayesian Plackett–Luce ranking beside the Friedman average ranks",
                table_id="table-bayesian-ranking",
                index=False,
            )
        )
        import matplotlib.pyplot as plt

        from ..plotting import plot_rank_posterior

        ax = plot_rank_posterior(ranking)
        fig = ax.figure
        try:
            buffer = io.BytesIO()
            fig.savefig(buffer, format="png", dpi=110)
        finally:
            plt.close(fig)
        parts.append(
            _figure_html(
                "rank_posterior",
                "Rank posteriors (Plackett–Luce)",
                "Shade: posterior probability of each position in the most "
                "probable ranking; red: expected rank on a new data set and its "
                "credible interval.",
                buffer.getvalue(),
            )
        )
    for note in notes:
        parts.append(f'<p class="note">{html.escape(note)}</p>')
    return "".join(parts)


_MAX_SIMPLEX = 4  # simplex panels of hierarchical fits in the report


def _simplex_html(analysis):
    """The simplex of the hierarchical model's draws, best against the others."""
    import io

    import matplotlib.pyplot as plt

    from ..plotting import plot_posterior_simplex
    from ._html import _figure_html

    fits = analysis.cache.get(("bayesian_hierarchical_fits", _THRESHOLD), ())
    fits = list(fits)[:_MAX_SIMPLEX]
    if not fits:
        return ""
    fig, axes = plt.subplots(
        1, len(fits), figsize=(4.2 * len(fits), 4.2), layout="constrained"
    )
    axes = np.atleast_1d(axes)
    try:
        for ax, res in zip(axes, fits, strict=True):
            a, b = res.labels
            plot_posterior_simplex(res, ax=ax, title=f"{a} vs {b}")
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110)
    finally:
        plt.close(fig)
    return _figure_html(
        "bayesian_simplex",
        "Posterior of the hierarchical model (next data set)",
        "Each point is one posterior draw of the probabilities of (a better, "
        "equivalent, b better) on the next data set, coloured by the most "
        "probable region (Benavoli et al. 2017, Figs. 7–9)"
        + (
            f"; the first {_MAX_SIMPLEX} comparisons."
            if len(fits) == _MAX_SIMPLEX
            else "."
        ),
        buffer.getvalue(),
    )


def bayesian_html(result, analysis):
    """The ``<section id="bayesian">`` of the report."""
    from ._html import MAX_DETAIL_ROWS, MAX_SUMMARY_ROWS, _table

    table, rope, notes = bayesian_comparisons_table(result, analysis)
    if len(table):
        _register(analysis, table, rope)
    parts = [
        '<section id="bayesian"><h2>Bayesian comparisons</h2>',
        f"<p>{html.escape(_intro(analysis, rope))}</p>",
    ]
    if 0 < len(table) <= MAX_SUMMARY_ROWS:
        parts.append(
            _table(
                table,
                "The best learner against each other one",
                table_id="table-bayesian",
                index=False,
                csv="bayesian.csv",
            )
        )
    elif len(table):  # many: across data sets whole, within each collapsed
        across = table["scope"] == "across data sets"
        if across.any():
            parts.append(
                _table(
                    table[across],
                    "Across data sets: the best learner against each other one",
                    table_id="table-bayesian",
                    index=False,
                    csv="bayesian.csv",
                    max_rows=MAX_SUMMARY_ROWS,
                )
            )
        parts.append(
            _table(
                table[~across],
                "Within each data set: the best learner there against each other one",
                table_id="table-bayesian-within",
                index=False,
                csv="bayesian.csv",
                max_rows=MAX_DETAIL_ROWS,
            )
        )
    for note in notes:
        parts.append(f'<p class="note">{html.escape(note)}</p>')
    parts.append(_simplex_html(analysis))
    parts.append(_ranking_html(result, analysis))
    parts.append("</section>")
    return "".join(parts)


def bayesian_summary_lines(result, analysis):
    """Lines of the text summary: the Bayesian comparisons across data sets."""
    if result is None:
        return []
    table, rope, notes = bayesian_comparisons_table(result, analysis)
    across = table[table["scope"] == "across data sets"]
    name = (
        "hierarchical model"
        if (across["method"] == "hierarchical").any()
        else "signed-rank"
    )
    lines = [
        f"   Bayesian {name} across data sets (ROPE ±{rope:g}; decision at "
        f"{_THRESHOLD}):"
    ]
    if across.empty:
        lines.append("   (not computed: needs at least 2 data sets and 2 learners)")
    width = max((len(str(b)) for b in across["b"]), default=0)
    for r in across.itertuples(index=False):
        lines.append(
            f"   {r.a} vs {r.b:<{width}}  P({r.a} better) = {r[5]:.3f}, "
            f"P(equivalent) = {r[6]:.3f}, P({r.b} better) = {r[7]:.3f} -> "
            f"{r.decision}"
        )
    within = table[table["scope"] != "across data sets"]
    if len(within):
        counts = within["decision"].value_counts()
        lines.append(
            f"   Within data sets (correlated t, {len(within)} comparisons with the "
            "best there): "
            + ", ".join(f"{name}: {count}" for name, count in counts.items())
            + "."
        )
    ranking, _, _ = bayesian_ranking(result, analysis)
    if ranking is not None:
        frame = ranking.to_frame()
        lines.append(
            "   Bayesian Plackett–Luce ranking, P(first on a new data set) / "
            "expected rank: "
            + ", ".join(
                f"{name} {row['P(first)']:.2f} / {row['expected rank']:.1f}"
                for name, row in frame.iterrows()
            )
            + "."
        )
    lines.extend(f"   ({note})" for note in notes[:1])
    return lines
