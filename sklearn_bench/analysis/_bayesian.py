"""The Bayesian comparisons of an analysis, beside the frequentist ones.

Benavoli et al. (2017): each learner against the best one, with the posterior
probabilities that either is practically better or that they are practically
equivalent, across data sets (the model the plan names: the Bayesian signed-rank
test on the per-data-set means, or the hierarchical model of Corani et al. 2017
on every split score) and within each data set (Bayesian correlated t-test on
the units of the corrected t, with the correlation from the stored split
sizes). Everything goes through
:meth:`~sklearn_bench.BenchmarkResult.bayesian_test`. With the hierarchical
model and several data sets, the analysis also ranks all learners with the
Bayesian Plackett–Luce model (Calvo et al. 2018,
:meth:`~sklearn_bench.BenchmarkResult.bayesian_ranking`).
"""

import warnings

import pandas as pd

from ._plan import BAYES_INSTALL
from ._records import TestRecord, register_test

THRESHOLD = 0.95
N_SAMPLES = 20000
SEED = 0
HIERARCHICAL_DRAWS = 4000  # 4 chains x 1000: Monte Carlo sd about 0.01
MAX_HIERARCHICAL = 10  # comparisons across data sets fitted by MCMC in a report
# Plackett–Luce: the Gibbs sampler's default draws (4 chains x 2500, 1000 per
# chain above 10,000 scores); None passes the model's default on.
RANKING_DRAWS = None
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
WHY = "why undecided"  # column added when an MCMC fit declined

# Said when the plan uses the signed-rank test across data sets.
WITHOUT_HIERARCHICAL = (
    "The plan's Bayesian model across data sets is the signed-rank test. "
    "bayesian='hierarchical' (config [analysis] bayesian; needs "
    f"{BAYES_INSTALL}) would add the hierarchical model of Corani et al. (2017): "
    "it uses every fold score of every data set, shrinks the per-data-set "
    "differences and gives the probabilities for the next data set; and the "
    "Bayesian Plackett–Luce ranking of all learners (Calvo et al. 2018): each "
    "one's probability of ranking first and its expected rank on a new data set "
    '(the ranking alone needs no extra: "ranking" in [analysis] run).'
)


def bayesian_comparisons_table(result, analysis, *, threshold=THRESHOLD):
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
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import (
    ...     AnalysisPlan, analyse, bayesian_comparisons_table)
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> table, rope, notes = bayesian_comparisons_table(
    ...     result, analyse(result, AnalysisPlan()))
    >>> rope  # the error rate's default Δ
    0.01
    >>> table[["a", "b", "decision"]]
                     a                b         decision
    0  Adaboosted C4.5             C4.5  Adaboosted C4.5
    1  Adaboosted C4.5  Randomized C4.5        undecided
    2  Adaboosted C4.5      Bagged C4.5        undecided
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
    options = {"delta": rope, "metric": metric}
    # One seed for every comparison across data sets: their Dirichlet draws are
    # the same, drawn once into `shared` (which changes no number).
    shared = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        datasets = list(analysis.mean.index)
        if len(datasets) >= 2:
            others = [m for m in analysis.mean.columns if m != analysis.best]
            # the model the plan names, never what is installed
            hierarchical = getattr(analysis, "bayesian", "") == "hierarchical"
            if not hierarchical:
                notes.append(WITHOUT_HIERARCHICAL)
            elif len(others) > MAX_HIERARCHICAL:
                hierarchical = False
                notes.append(
                    f"Across data sets the signed-rank test, not the hierarchical "
                    f"model: {len(others)} comparisons exceed the report's "
                    f"{MAX_HIERARCHICAL} (each is an MCMC fit); call "
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
                                n_draws=HIERARCHICAL_DRAWS,
                                random_state=SEED,
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
                            n_draws=N_SAMPLES,
                            random_state=SEED,
                            shared_draws=shared,
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
    table = pd.DataFrame(rows, columns=_COLUMNS + [WHY])
    # rows of the batched path carry no reason: every fit there decided
    table[WHY] = [w if isinstance(w, str) else "" for w in table[WHY]]
    if (table[WHY] == "").all():
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
    from ..results import corrected_t_block
    from ..stats import bayesian_correlated_t

    metric, rope = options["metric"], float(options["delta"])
    block = corrected_t_block(result, others, reference, metric=metric, dataset=dataset)
    if block is None or block[0].shape[0] < 2:
        return {}
    y, x, ratio = block  # the reference is x
    rho = ratio / (1 + ratio)  # as correlated_splits
    gib = result.metrics[metric]
    with warnings.catch_warnings():  # zero-variance pairs are tested one by one
        warnings.simplefilter("ignore", RuntimeWarning)
        tests = bayesian_correlated_t(
            x[:, None], y, rho=rho, delta=rope, greater_is_better=gib
        )
    names = {"x": reference, "equivalent": "equivalent", "undecided": "undecided"}
    decisions = tests.decision(threshold)
    probabilities = list(tests.probabilities.values())  # x, equivalent, y
    rows = {}
    for j, other in enumerate(others):
        if tests.details["scale"][j] == 0:
            continue
        rows[other] = {
            "scope": dataset,
            "a": reference,
            "b": other,
            "method": "correlated-t",
            "n": int(x.shape[0]),
            "P(a better)": float(probabilities[0][j]),
            "P(equivalent)": float(probabilities[1][j]),
            "P(b better)": float(probabilities[2][j]),
            "decision": names.get(decisions[j], other),
        }
    return rows


def _row(scope, res, threshold):
    a, b = res.labels
    probs = res.probabilities
    declined = res.details.get("diagnostics_ok", True) is False
    return {
        WHY: _problems(res.details.get("diagnostics", "")) if declined else "",
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


def _count(n, noun):
    if not n:
        return ""
    plural = noun.replace("comparison", "comparisons")
    return f"{n} {noun if n == 1 else plural}"


def register_bayesian(analysis, table, rope):
    """The Bayesian comparisons in the methods paragraph (what actually ran)."""
    across = table["scope"] == "across data sets"
    tests = []
    if (across & (table["method"] == "hierarchical")).any():
        tests.append(
            "the Bayesian hierarchical model (Corani et al. 2017) across data "
            "sets, on every split score of every data set"
        )
    elif across.any():
        tests.append(
            "the Bayesian signed-rank test across data sets, on the per-data-set "
            "means (Dirichlet-process prior of strength 0.5 at 0)"
        )
    if (~across).any():
        tests.append(
            "the Bayesian correlated t-test within each data set (its correlation "
            "ρ from the split sizes, ρ/(1 − ρ) = n_test/n_train)"
        )
    n_across, n_within = int(across.sum()), int((~across).sum())
    counts = [
        _count(n_across, "comparison across data sets"),
        _count(n_within, "comparison within data sets"),
    ]
    if n_across and n_within:  # "2 comparisons across data sets and 6 within"
        counts[1] = f"{n_within} within data sets"
    register_test(
        analysis,
        TestRecord(
            "bayesian",
            "the best learner against each other one, as posterior probabilities "
            f"of practical superiority and equivalence (ROPE ±{rope:g}, decision at "
            f"posterior probability {THRESHOLD})",
            " and ".join(tests),
            " and ".join(text for text in counts if text),
            citations=("benavoli2017", "corani2015")
            + (
                ("corani2017",)
                if (across & (table["method"] == "hierarchical")).any()
                else ()
            ),
        ),
    )


def bayesian_ranking(result, analysis):
    """The Bayesian Plackett–Luce ranking of all learners for the report.

    Fitted (once per analysis, seed 0) when the plan asks for it (``"ranking"``
    in its ``analyses``, or the hierarchical model, ``bayesian="hierarchical"``)
    and there are at least 2 data sets and 2 learners. A Gibbs sampler in
    NumPy: it needs no extra. Off by default (see
    :data:`~sklearn_bench.analysis.OPTIONAL_ANALYSES`); it never changes the
    bottom line.

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
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse, bayesian_ranking
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> ranking, table, notes = bayesian_ranking(
    ...     result, analyse(result, AnalysisPlan()))
    >>> ranking is None  # not asked for: the default plan leaves it out
    True
    >>> from sklearn_bench.analysis import ANALYSES
    >>> plan = AnalysisPlan(analyses=ANALYSES + ("ranking",))
    >>> ranking, table, notes = bayesian_ranking(result, analyse(result, plan))
    >>> list(table["learner"])
    ['C4.5+m+cf', 'C4.5+m', 'C4.5+cf', 'C4.5']
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
        and (
            getattr(analysis, "bayesian", "") == "hierarchical"
            or "ranking" in getattr(analysis, "analyses", ())
        )
    ):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RuntimeWarning)
            try:
                ranking = result.bayesian_ranking(
                    learners,
                    metric=analysis.metric,
                    random_state=SEED,
                )
            except ValueError as exc:
                notes.append(f"No Plackett–Luce ranking: {exc}")
        notes.extend(sorted({str(w.message) for w in caught}))
    if ranking is not None:
        frame = ranking.to_frame()
        pct = f"{ranking.confidence_level:.0%}"
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


def register_ranking(analysis, ranking):
    """The Plackett–Luce ranking in the methods paragraph."""
    register_test(
        analysis,
        TestRecord(
            "bayesian_ranking",
            "all learners ranked on each data set by their mean performance",
            "Bayesian Plackett–Luce model with a Dirichlet(1) prior (Calvo, "
            "Ceberio & Lozano 2018), Gibbs sampler of Caron & Doucet (2012)",
            f"{ranking.n_datasets} data sets",
            citations=("calvo2018", "caron2012"),
        ),
    )
