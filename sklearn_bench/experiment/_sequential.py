"""A sequential study: data sets run one at a time in a seeded random order until
the comparison is decided, with anytime-valid statistics and racing."""

import hashlib
import warnings
from dataclasses import asdict, dataclass, field
from numbers import Integral
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats as sps
from sklearn.base import clone

from .._metrics import default_delta, metric_bounds
from .._validation import check_alpha, check_real, named_items
from ..datasets._dataset import check_datasets
from ..results import BenchmarkResult
from ..stats import n_datasets_needed, race, sequential_test
from ..store._reader import read_store

__all__ = ["SequentialRule", "SequentialStudy"]


@dataclass(frozen=True)
class SequentialRule:
    """When a sequential study stops: :meth:`BenchmarkExperiment.fit`'s
    ``stopping`` (see :ref:`sequential`).

    After each data set the comparison is updated with
    :func:`~sklearn_bench.stats.sequential_test` (two learners) or
    :func:`~sklearn_bench.stats.race` (more); the study stops when decided, when
    the pool runs out or before a data set would exceed ``max_fits``.

    Parameters
    ----------
    delta : float, default=None
        Δ, the smallest difference that matters; ``None`` is the metric's
        default (see :data:`~sklearn_bench._metrics.DEFAULT_DELTA`).
    alpha : float, default=0.05
        The level, held at every look (and over all pairs of a race).
    max_fits : int, default=None
        The budget of fits (tasks) of the study; ``None`` is no budget.
    metric : str, default=None
        The metric compared; ``None`` is the experiment's first.
    bounds : tuple of float, default=None
        The metric's ``(low, high)``; ``None`` is the package's knowledge of the
        metric (a metric without known bounds needs them).
    """

    delta: float | None = None
    alpha: float = 0.05
    max_fits: int | None = None
    metric: str | None = None
    bounds: tuple | None = None

    def check(self, metrics):
        """``(metric, bounds, delta, alpha)`` resolved against ``metrics``.

        Examples
        --------
        >>> from sklearn_bench.experiment import SequentialRule
        >>> SequentialRule().check(["error_rate"])
        ('error_rate', (0.0, 1.0), 0.01, 0.05)
        >>> SequentialRule().check(["mean_squared_error"])
        Traceback (most recent call last):
        ...
        ValueError: The bounds of metric 'mean_squared_error' are not known ...
        """
        metric = next(iter(metrics)) if self.metric is None else self.metric
        if metric not in metrics:
            raise ValueError(
                f"`metric` of the SequentialRule names no metric of the experiment: "
                f"{metric!r} not in {list(metrics)}."
            )
        bounds = metric_bounds(metric) if self.bounds is None else tuple(self.bounds)
        if len(bounds) != 2 or None in bounds:
            raise ValueError(
                f"The bounds of metric {metric!r} are not known ({bounds}): give "
                "SequentialRule(bounds=(low, high)); a sequential study needs a "
                "bounded metric."
            )
        delta = default_delta(metric) if self.delta is None else self.delta
        if delta is None:
            raise ValueError(
                f"Metric {metric!r} has no default Δ: give SequentialRule(delta=...)."
            )
        if self.max_fits is not None and (
            not isinstance(self.max_fits, Integral) or self.max_fits < 1
        ):
            raise ValueError(
                f"`max_fits` must be a positive integer or None; got {self.max_fits!r}."
            )
        return metric, bounds, check_real(delta, "delta"), check_alpha(self.alpha)


@dataclass(frozen=True)
class SequentialStudy:
    """What a sequential study did and decided: ``experiment.sequential_`` and
    ``results_.info["sequential"]`` (as a dict).

    Attributes
    ----------
    decision : str
        In words: ``"'a' better than 'b'"``, ``"'a' equivalent to 'b' within
        Δ"``, ``"best: 'a'"`` (the race's last learner) or ``"undecided"``.
    reason : {"decided", "pool exhausted", "budget"}
    stopping_time : int
        Data sets run.
    order : list of str
        The data sets run, in order.
    interval, net_wins_interval : dict
        The anytime-valid intervals (``low``, ``high``, ``confidence_level``) of
        the mean difference ``pair[0] − pair[1]`` in the metric's units and of
        the net win rate of ``pair[0]`` beyond Δ, of the compared pair (the
        race's best and runner-up), at the stopping time.
    fixed_interval : dict
        The paired t-interval on the same data sets: valid only for a number of
        data sets fixed in advance, not after looking (a different guarantee).
    n_fits, n_fits_full : int
        Fits (tasks) run, and those of every learner on every data set of the pool.
    n_datasets_fixed, n_fits_fixed : int or None
        The data sets and fits of the fixed design that
        :func:`~sklearn_bench.stats.n_datasets_needed` plans for Δ at 80% power
        with the observed spread (``None`` without a spread).
    dropped : dict
        For each learner a race dropped: ``after`` (data sets) and ``why``.
    pair : list of str
        The compared pair.
    metric : str
    delta, alpha : float
    null_hypothesis : str
    """

    decision: str
    reason: str
    stopping_time: int
    order: list
    interval: dict
    net_wins_interval: dict
    fixed_interval: dict
    n_fits: int
    n_fits_full: int
    n_datasets_fixed: int | None
    n_fits_fixed: int | None
    dropped: dict
    pair: list
    metric: str
    delta: float
    alpha: float
    null_hypothesis: str = field(default="")

    def to_dict(self):
        """The fields as plain data (JSON-safe)."""
        return asdict(self)


def dataset_order(names, seed, first=()):
    """``first`` (those stored) then the others, each in an order that is a pure
    function of ``seed`` and the names."""

    def key(name):
        return name not in first, hashlib.sha256(f"{seed}|{name}".encode()).digest()

    return sorted(names, key=key)


def fit_sequential(experiment, X, rule, info=None):
    """:meth:`BenchmarkExperiment.fit` with ``stopping=rule``."""
    pool = check_datasets(X)
    if not pool:
        raise ValueError("`X` (the pool of data sets) is empty.")
    summary = experiment.check(pool)
    learners, greater = summary["learners"], summary["metrics"]
    if not isinstance(rule, SequentialRule):
        raise TypeError(f"`stopping` must be a SequentialRule; got {rule!r}.")
    metric, bounds, delta, alpha = rule.check(greater)
    if len(learners) < 2:
        raise ValueError("A sequential study needs at least two learners.")
    stored, seed = set(), experiment.random_state
    overwrite, store = experiment.overwrite, experiment.store
    if store is not None and Path(store).exists() and not overwrite:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            content = read_store(store)
        stored = set(content["scores"]["dataset"].astype(str))
        seed = content["result"]["info"]["seed"] if seed is None else seed
    if seed is None:
        seed = int(np.random.SeedSequence().entropy) % 2**32
    if not isinstance(seed, Integral):
        raise ValueError("A sequential study needs an integer `random_state`.")
    sign = 1.0 if greater[metric] else -1.0
    alive, perf, runs, n_fits, reason = list(learners), [], [], 0, "pool exhausted"
    result, reused = None, 0
    named = named_items(experiment.learners, "learners", noun="learner", what="")
    estimators = dict(named)
    for name in dataset_order(pool, seed, stored):
        sub = clone(experiment).set_params(
            learners={k: estimators[k] for k in alive}, random_state=seed,
            overwrite=overwrite and not runs,
        )  # fmt: skip
        n_new = sub.check({name: pool[name]})["n_tasks"]
        if rule.max_fits is not None and n_fits + n_new > rule.max_fits:
            reason = "budget"
            break
        runs.append(sub.fit({name: pool[name]}, info=info).results_)
        n_fits, reused = n_fits + n_new, reused + sub.n_reused_tasks_
        row = runs[-1].aggregate(metric).loc[name].reindex(learners)
        failed = [k for k in alive if np.isnan(row[k])]
        if failed:
            raise ValueError(
                f"Learner {failed[0]!r} has no {metric} on data set {name!r} (its "
                "fits failed): a sequential study needs every score."
            )
        perf.append(sign * row.to_numpy(float))
        table = np.array(perf)
        if len(learners) == 2:
            result = sequential_test(
                table[:, 0] - table[:, 1], bounds=bounds, delta=delta, alpha=alpha
            )
            done = result.decision != "undecided"
        else:
            low, high = sorted(sign * np.array(bounds))
            result = race(
                table, bounds=(low, high), delta=delta, alpha=alpha, learners=learners
            )
            alive = [k for k in learners if k in result.survivors]
            done = len(alive) == 1
        if done:
            reason = "decided"
            break
    if not runs:
        raise ValueError(
            f"`max_fits` = {rule.max_fits} is smaller than the fits of one data set."
        )
    study = _summarise(
        np.array(perf), learners, result, reason, runs, n_fits, summary,
        (metric, delta, alpha, bounds, sign),
    )  # fmt: skip
    experiment.sequential_ = study
    experiment.results_ = _combine(runs, learners, study)
    experiment.n_reused_tasks_ = reused
    experiment.n_tasks_ = n_fits - reused
    return experiment


def _summarise(table, learners, result, reason, runs, n_fits, summary, spec):
    metric, delta, alpha, bounds, sign = spec

    def units(low, high, level):  # an oriented interval in the metric's units
        low, high = sorted([sign * low, sign * high])
        return {"low": float(low), "high": float(high), "confidence_level": level}

    k0 = 0 if len(learners) == 2 else learners.index(result.best)
    ran = (~np.isnan(table)).sum(axis=0)  # the runner-up ran longest, then best
    k1 = max((k for k in range(len(learners)) if k != k0),
             key=lambda k: (ran[k], np.nanmean(table[:, k])))  # fmt: skip
    pair = [learners[k0], learners[k1]]
    d = table[: ran[k1], k0] - table[: ran[k1], k1]
    test = sequential_test(d, bounds=(0, bounds[1] - bounds[0]), delta=delta,
                           alpha=alpha)  # fmt: skip
    decision = {
        "better": f"{pair[0]!r} better than {pair[1]!r}",
        "worse": f"{pair[0]!r} worse than {pair[1]!r}",
        "equivalent": f"{pair[0]!r} equivalent to {pair[1]!r} within Δ",
    }.get(test.decision, "undecided")
    if len(learners) > 2:
        decision = f"best: {result.best!r}" if reason == "decided" else "undecided"
    fixed, n_fixed, fits_fixed = {"low": None, "high": None}, None, None
    if d.size > 1 and np.std(d) > 0:
        ci = sps.ttest_1samp(d, 0).confidence_interval(1 - alpha)
        fixed = units(ci.low, ci.high, 1 - alpha)
        n_fixed = int(n_datasets_needed(delta, float(np.std(d, ddof=1)), alpha=alpha))
        fits_fixed = round(n_fixed * len(learners) * n_fits / ran.sum())
    ci, wins = test.confidence_interval(), test.net_wins_interval()
    return SequentialStudy(
        decision=decision,
        reason=reason,
        stopping_time=len(runs),
        order=[next(iter(r.datasets)) for r in runs],
        interval=units(ci.low, ci.high, 1 - alpha / 2),
        net_wins_interval={
            "low": float(wins.low),
            "high": float(wins.high),
            "confidence_level": 1 - alpha / 2,
        },  # fmt: skip
        fixed_interval={"confidence_level": 1 - alpha} | fixed,
        n_fits=n_fits,
        n_fits_full=summary["n_tasks"],
        n_datasets_fixed=n_fixed,
        n_fits_fixed=fits_fixed,
        dropped=getattr(result, "dropped", {}),
        pair=pair,
        metric=metric,
        delta=delta,
        alpha=alpha,
        null_hypothesis=result.null_hypothesis,
    )


def _combine(runs, learners, study):
    """One BenchmarkResult of the data sets run (each with its learners then)."""
    first = runs[0]
    info = dict(first.info)
    for key in ("dataset_sizes", "dataset_sources"):
        info[key] = {k: v for r in runs for k, v in r.info.get(key, {}).items()}
    info["sequential"] = study.to_dict()
    predictions = None
    if all(r.predictions is not None for r in runs):
        predictions = pd.concat([r.predictions for r in runs], ignore_index=True)
    return BenchmarkResult(
        pd.concat([r.scores for r in runs], ignore_index=True),
        metrics=first.metrics,
        datasets={k: v for r in runs for k, v in r.datasets.items()},
        learners=list(learners),
        predictions=predictions,
        info=info,
    )
