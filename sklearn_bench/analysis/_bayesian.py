"""The Bayesian comparisons of an analysis (Benavoli et al. 2017): each learner
against the best one, across data sets with the plan's model and within each
data set, and the Bayesian Plackett–Luce ranking (Calvo et al. 2018)."""

import warnings

import numpy as np
import pandas as pd

from ..results._bayesian import (  # noqa: F401 (MC_ERROR: the report prints it)
    HIERARCHICAL_DRAWS,
    MC_ERROR,
    N_SAMPLES,
    SEED,
)
from ._format import fmt_count
from ._notes import note
from ._records import TestRecord

THRESHOLD = 0.95
MAX_HIERARCHICAL = 10  # comparisons across data sets fitted by MCMC in a report
_PROBABILITIES = ("P(a better)", "P(equivalent)", "P(b better)")
_COLUMNS = ["scope", "a", "b", "method", "n", *_PROBABILITIES, "decision"]
WHY = "why undecided"  # column added when an MCMC fit declined
SCOPE = "across data sets"  # the scope of a comparison across data sets


def _row(scope, a, b, method, n, probabilities, decision, why=""):
    """One row of the table (:data:`_COLUMNS` and :data:`WHY`)."""
    row = {"scope": scope, "a": a, "b": b, "method": method, "n": n}
    row.update(zip(_PROBABILITIES, map(float, probabilities), strict=True))
    return {**row, "decision": decision, WHY: why}


def bayesian_comparisons(result, *, metric, mean, best, within, delta, model):
    """The best learner against each other one, Bayesian: across data sets with
    the plan's ``model``, within each data set (the rows of ``within``) the
    correlated t-test, ROPE Δ (0 without one). Returns the table
    (:attr:`Analysis.bayesian`), the ROPE, notes (what was not computed and why)
    and the hierarchical fits across data sets."""
    notes = []
    rope = 0.0 if delta is None else float(delta)
    options = {"delta": rope, "metric": metric}
    if delta is None:
        notes.append(note("no_rope", metric=metric))
    rows = []
    across_results = []  # the hierarchical fits, for the simplex figure
    # One seed for every comparison across data sets: their Dirichlet draws are
    # the same, drawn once into `shared` (which changes no number).
    shared = {}
    seeded = {"random_state": SEED, **options}
    signed_rank = {"n_draws": N_SAMPLES, "shared_draws": shared, **seeded}
    mcmc = {"method": "hierarchical", "n_draws": HIERARCHICAL_DRAWS, **seeded}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", RuntimeWarning)
        if len(mean.index) >= 2:
            others = [m for m in mean.columns if m != best]
            # the model the plan names, never what is installed
            hierarchical = model == "hierarchical"
            if not hierarchical:
                notes.append(note("without_hierarchical"))
            elif len(others) > MAX_HIERARCHICAL:
                hierarchical = False
                notes.append(
                    note("too_many_fits", n=len(others), most=MAX_HIERARCHICAL)
                )
            batch = {} if hierarchical else _across_batch(result, best, others, options)
            rows.extend(batch.values())
            for other in (o for o in others if o not in batch):
                try:
                    if hierarchical:
                        try:
                            res = result.bayesian_test(best, other, **mcmc)
                        except ValueError as exc:
                            notes.append(note("hierarchical_failed", reason=str(exc)))
                            hierarchical = False
                    if not hierarchical:
                        res = result.bayesian_test(best, other, **signed_rank)
                except ValueError as exc:
                    notes.append(note("not_across", reason=str(exc)))
                    break
                rows.append(_result_row(SCOPE, res))
                if res.method == "hierarchical":
                    across_results.append(res)
        within_rows, within_notes = _within_rows(result, within, options)
    notes.extend(note("not_within", reason=msg) for msg in sorted(within_notes))
    notes.extend(_warnings(caught))
    columns = {c: [r[c] for r in rows] + within_rows[c] for c in _COLUMNS + [WHY]}
    # no rows at all: object columns, as a frame of no records has
    table = pd.DataFrame(columns if columns["a"] else [], columns=_COLUMNS + [WHY])
    if (table[WHY] == "").all():
        table = table[_COLUMNS]
    return table, rope, notes, across_results


def _across_batch(result, best, others, options):
    """``{other: row}`` of the Bayesian signed-rank tests of ``best`` against
    ``others`` across data sets, at once (one set of draws), bit for bit those
    of ``bayesian_test``, when every one has a finite mean on every data set any
    of them has; ``{}`` otherwise (tested pair by pair)."""
    from ..results._select import performance_arrays
    from ..stats import bayesian_signed_rank

    metric, rope = options["metric"], float(options["delta"])
    arrays = performance_arrays(result, metric)
    codes = [arrays["learner_code"][name] for name in [best, *others]]
    count = arrays["count"][:, codes]
    rows = count.any(axis=1)
    if not others or rows.sum() < 2 or not count[rows].all():
        return {}
    if arrays["n_nan"][rows][:, codes].any():  # failed tasks: pair by pair
        return {}
    values = arrays["mean"][rows][:, codes]
    gib = result.metrics[metric]
    res = bayesian_signed_rank(
        values[:, :1],
        values[:, 1:],
        delta=rope,
        n_draws=N_SAMPLES,
        random_state=SEED,
        labels=("best", "other"),
        greater_is_better=gib,
    )
    probabilities = list(res.probabilities.values())  # best, equivalent, other
    decisions = res.decide(THRESHOLD)
    names = {"best": best, "equivalent": "equivalent", "undecided": "undecided"}
    rows = {}
    for j, other in enumerate(others):
        p, decision = [q[j] for q in probabilities], names.get(decisions[j], other)
        rows[other] = _row(SCOPE, best, other, "signed-rank", res.n, p, decision)
    return rows


def _within_rows(result, within, options):
    """The table's columns within data sets (lists, a row per row of ``within``)
    and why data sets were not tested: those of one number of splits and one ρ in
    one batch, bit for bit ``bayesian_test``; the rest one by one."""
    from ..results._within import corrected_t_block
    from ..stats import bayesian_correlated_t

    metric, rope = options["metric"], float(options["delta"])
    gib = result.metrics[metric]
    scope, a, b = within[["dataset", "reference", "learner"]].to_numpy(object).T
    batches = {}  # (splits, rho): [(rows of within, x, y)]
    for dataset, at in within.groupby("dataset", sort=False).indices.items():
        try:
            block = corrected_t_block(
                result, list(b[at]), a[at[0]], metric=metric, dataset=dataset
            )
        except ValueError:  # the first pair, tested alone, says why
            continue
        if block is not None and block[0].shape[0] >= 2:
            y, x, ratio, _ = block  # the reference is x; rho as correlated_splits
            batches.setdefault((len(x), ratio / (1 + ratio)), []).append((at, x, y))
    rows = {c: np.empty(len(within), dtype=object) for c in _COLUMNS + [WHY]}
    rows.update(scope=scope, a=a, b=b)
    done = np.zeros(len(within), dtype=bool)
    for (n, rho), blocks in batches.items():
        at = np.concatenate([at for at, _, _ in blocks])
        x = np.hstack([np.repeat(x[:, None], y.shape[1], axis=1) for _, x, y in blocks])
        y = np.hstack([y for _, _, y in blocks])
        with warnings.catch_warnings():  # zero-variance pairs: one by one
            warnings.simplefilter("ignore", RuntimeWarning)
            tests = bayesian_correlated_t(
                x, y, rho=rho, delta=rope, greater_is_better=gib
            )
        ok = tests.details["scale"] != 0
        at, decision = at[ok], tests.decide(THRESHOLD)[ok]
        for column, p in zip(_PROBABILITIES, tests.probabilities.values(), strict=True):
            rows[column][at] = p[ok]  # x (the reference), equivalent, y
        labels = [decision == "x", decision == "y"]
        rows["decision"][at] = np.select(labels, [a[at], b[at]], decision)
        rows["n"][at], rows["method"][at], rows[WHY][at] = n, "correlated-t", ""
        done[at] = True
    keep, failed = done.copy(), {}
    for i in np.flatnonzero(~done):
        if scope[i] in failed:  # the rest of a data set whose test failed
            continue
        try:
            res = result.bayesian_test(a[i], b[i], dataset=scope[i], **options)
        except ValueError as exc:
            failed[scope[i]] = str(exc)
            continue
        for column, value in _result_row(scope[i], res).items():
            rows[column][i] = value
        keep[i] = True
    return {c: v[keep].tolist() for c, v in rows.items()}, set(failed.values())


def _warnings(caught):
    """The sampler's warnings, each once, as notes."""
    return [note("raised", reason=m) for m in sorted({str(w.message) for w in caught})]


def _result_row(scope, res):
    """The row of one result of ``bayesian_test``."""
    a, b = res.labels
    probs = res.probabilities
    declined = res.details.get("diagnostics_ok", True) is False
    why = _problems(res.details.get("diagnostics", "")) if declined else ""
    method = res.method.replace("_", "-")
    probabilities = (probs[a], probs["equivalent"], probs[b])
    return _row(scope, a, b, method, res.n, probabilities, res.decide(THRESHOLD), why)


def _problems(words):
    """The failed checks out of an MCMC fit's diagnostics sentence."""
    start, end = words.find(": "), words.find(". The fit declines")
    return words[start + 2 : end] if 0 <= start < end else words


def bayesian_records(table, rope, ranking):
    """The Bayesian comparisons and ranking in the methods paragraph (what
    actually ran): a list of :class:`TestRecord`."""
    records = []
    if table is not None and len(table):
        across = table["scope"] == SCOPE
        hierarchical = (across & (table["method"] == "hierarchical")).any()
        tests = []
        if hierarchical:
            tests.append(
                "the Bayesian hierarchical model (Corani et al. 2017) across data "
                "sets, on every split score of every data set"
            )
        elif across.any():
            tests.append(
                "the Bayesian signed-rank test across data sets, on the "
                "per-data-set means (Dirichlet-process prior of strength 0.5 at 0)"
            )
        if (~across).any():
            tests.append(
                "the Bayesian correlated t-test within each data set (its "
                "correlation ρ from the split sizes, ρ/(1 − ρ) = n_test/n_train)"
            )
        n_across, n_within = int(across.sum()), int((~across).sum())
        counts = []
        if n_across:
            counts.append(fmt_count(n_across, "comparison") + " across data sets")
        if n_within:  # "2 comparisons across data sets and 6 within data sets"
            within = n_within if n_across else fmt_count(n_within, "comparison")
            counts.append(f"{within} within data sets")
        records.append(
            TestRecord(
                "bayesian",
                "the best learner against each other one, as posterior "
                "probabilities of practical superiority and equivalence (ROPE "
                f"±{rope:g}, decision at posterior probability {THRESHOLD})",
                " and ".join(tests),
                " and ".join(counts),
                citations=("benavoli2017", "corani2015")
                + (("corani2017",) if hierarchical else ()),
            )
        )
    if ranking is not None:
        records.append(
            TestRecord(
                "bayesian_ranking",
                "all learners ranked on each data set by their mean performance",
                "Bayesian Plackett–Luce model with a Dirichlet(1) prior (Calvo, "
                "Ceberio & Lozano 2018), Gibbs sampler of Caron & Doucet (2012)",
                f"{ranking.n_datasets} data sets",
                citations=("calvo2018", "caron2012"),
            )
        )
    return records


def bayesian_ranking(result, *, metric, n_datasets, learners, fit, friedman):
    """The Bayesian Plackett–Luce ranking of all learners (seed 0), when the
    plan asks for it (``fit``) and there are at least 2 data sets and 2 learners.

    Returns the result (or None), its table (one row per learner, by expected
    rank, beside the Friedman average rank) and notes (why it was not fitted, or
    the sampler's warnings)."""
    ranking, table, notes = None, None, []
    if n_datasets >= 2 and len(learners) >= 2 and fit:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", RuntimeWarning)
            try:
                ranking = result.bayesian_ranking(
                    learners, metric=metric, random_state=SEED
                )
            except ValueError as exc:
                notes.append(note("no_ranking", reason=str(exc)))
        notes.extend(_warnings(caught))
    if ranking is not None:
        frame = ranking.to_frame()
        pct = f"{ranking.confidence_level:.0%}"

        def interval(column, digits):
            bounds = zip(frame[f"{column} low"], frame[f"{column} high"], strict=True)
            return [f"[{lo:.{digits}f}, {hi:.{digits}f}]" for lo, hi in bounds]

        table = pd.DataFrame(
            {
                "learner": frame.index,
                "P(first)": frame["P(first)"].to_numpy(),
                f"P(first) {pct} interval": interval("P(first)", 3),
                "P(best)": frame["P(best)"].to_numpy(),
                "expected rank": frame["expected rank"].to_numpy(),
                f"rank {pct} interval": interval("rank", 2),
            }
        )
        if friedman is not None:
            avg = friedman.average_ranks.reindex(frame.index).astype(float)
            table["Friedman average rank"] = avg.to_numpy()
    return ranking, table, notes
