"""Anytime-valid comparisons of learners over a growing sequence of data sets:
betting confidence sequences (Waudby-Smith & Ramdas 2024), a sign e-process
(Grünwald et al. 2024) and a Hoeffding race (Maron & Moore 1994)."""

from dataclasses import dataclass, field

import numpy as np

from .._validation import check_alpha, check_real, real_array
from ._common import ConfidenceInterval, _Fields

__all__ = ["RaceResult", "SequentialTestResult", "race", "sequential_test"]

_C = 0.75  # the truncation of the bets, c in WSR (2024), eq. (27)
_THETA = 0.5  # the hedge between the two one-sided capital processes


def _bets(x, alpha):
    """The predictable plug-in bets λ_t of WSR (2024), eq. (26), on ``x`` in
    [0, 1] (the last axis is time), before truncation at c/m."""
    t = np.arange(1, x.shape[-1] + 1)
    mu = (0.5 + np.cumsum(x, axis=-1)) / (t + 1)
    var = (0.25 + np.cumsum((x - mu) ** 2, axis=-1)) / (t + 1)
    prev = np.concatenate([np.full(x.shape[:-1] + (1,), 0.25), var[..., :-1]], -1)
    return np.sqrt(2 * np.log(2 / alpha) / (prev * t * np.log1p(t)))


def _log_capital(x, lam, m):
    """log K⁺_t(m) and log K⁻_t(m) at every t; ``m`` broadcasts against ``x``."""
    m = np.clip(m, 1e-12, 1 - 1e-12)
    up = np.log1p(np.minimum(lam, _C / m) * (x - m))
    down = np.log1p(-np.minimum(lam, _C / (1 - m)) * (x - m))
    return np.cumsum(up, axis=-1), np.cumsum(down, axis=-1)


def _excluded(log_k, alpha):
    """Whether the hedged capital has reached 1/α by each time (Ville)."""
    return np.maximum.accumulate(np.log(_THETA) + log_k >= -np.log(alpha), axis=-1)


def _decisions(x, m0, margin, alpha):
    """The decision after each look on ``x`` in [0, 1] (null mean ``m0``, Δ =
    ``margin`` or ``None``): 1 better, -1 worse, 2 equivalent, 0 undecided."""
    lam = _bets(x, alpha)
    up0, down0 = _log_capital(x, lam, m0)
    better, worse = _excluded(up0, alpha), _excluded(down0, alpha)
    equivalent = False
    if margin is not None:
        up_lo = _log_capital(x, lam, m0 - margin)[0]
        down_hi = _log_capital(x, lam, m0 + margin)[1]
        equivalent = _excluded(up_lo, alpha) & _excluded(down_hi, alpha)
    return np.select([better, worse, equivalent], [1, -1, 2], 0)


def _signs(d, delta):
    """1 for a win beyond Δ, 0 for a loss beyond Δ, 1/2 otherwise: mean 1/2
    under the sign test's null."""
    return np.where(d > delta, 1.0, np.where(d < -delta, 0.0, 0.5))


def _decide(d, width, delta, alpha):
    """The decisions of :func:`sequential_test` after each look (last axis) on
    the differences ``d`` in [−width, width]: the confidence sequence of the
    mean and that of the net win rate beyond Δ, each at α/2 (Bonferroni)."""
    mean = _decisions((d + width) / (2 * width), 0.5, delta / (2 * width), alpha / 2)
    sign = _decisions(_signs(d, delta), 0.5, None, alpha / 2)
    better, worse = (mean == 1) | (sign == 1), (mean == -1) | (sign == -1)
    return np.select([better, worse, mean == 2], [1, -1, 2], 0)


def _bounds(x, alpha, tol=1e-10):
    """The ends of the running intersection of the hedged confidence sequence
    on ``x`` in [0, 1] after each look, by bisection, rounded outward."""

    def lower(x):
        past = np.tri(x.size, dtype=bool)  # past[t, i]: i <= t
        xs, lams = np.where(past, x, 0.5), np.where(past, _bets(x, alpha), 0.0)
        low, high = np.zeros(x.size), np.ones(x.size)
        while np.max(high - low) > tol:
            mid = (low + high) / 2
            log_k = _log_capital(xs, lams, mid[:, None])[0][:, -1]
            hit = np.log(_THETA) + log_k >= -np.log(alpha)  # mid is excluded
            low, high = np.where(hit, mid, low), np.where(hit, high, mid)
        return np.maximum.accumulate(low)

    return lower(x), 1 - lower(1 - x)


def _check_sequence(values, bounds, alpha, delta, name):
    """Clean inputs: ``values`` (differences, 1-D; or performances, 2-D, data
    sets first) within the range ``bounds`` gives them, the range's width, α, Δ."""
    values = real_array(values, name)
    if values.size == 0:
        raise ValueError(f"`{name}` is empty: a sequential test needs a data set.")
    if not np.all(np.isfinite(values[~np.isnan(values)])):
        raise ValueError(f"`{name}` must be finite.")
    if bounds is None or np.ndim(bounds) != 1 or len(bounds) != 2 or None in bounds:
        raise ValueError(
            f"`bounds` must be the metric's (low, high), both known; got {bounds!r}: "
            "a confidence sequence by betting needs a bounded metric."
        )
    low, high = (check_real(b, "bounds") for b in bounds)
    if not low < high:
        raise ValueError(f"`bounds` must have low < high; got {bounds!r}.")
    width, delta = high - low, check_real(delta, "delta")
    if not 0 < delta < width:
        raise ValueError(f"`delta` must lie in (0, {width:g}); got {delta!r}.")
    if values.ndim == 1:
        low, high = -width, width  # the range of a difference
    if np.any((values < low) | (values > high)):
        raise ValueError(
            f"`{name}` has values outside [{low:g}, {high:g}], its range for a "
            f"metric in `bounds` = {tuple(bounds)}."
        )
    return values, width, check_alpha(alpha), delta


@dataclass(frozen=True)
class SequentialTestResult(_Fields):
    """Result of :func:`sequential_test`.

    Attributes
    ----------
    decision : {"better", "worse", "equivalent", "undecided"}
        At ``stopping_time`` (or at the last look when undecided).
    stopping_time : int or None
        The number of data sets at the first decision; ``None`` if undecided.
    n_datasets : int
        Data sets (looks) given.
    estimate, net_wins : float
        The mean difference and the net win rate beyond Δ up to then.
    evalue : float
        The sign e-process at the stopping time (2/α rejects H0(sign)).
    delta, alpha : float
    null_hypothesis : str
    """

    decision: str
    stopping_time: int | None
    n_datasets: int
    estimate: float
    net_wins: float
    evalue: float
    delta: float
    alpha: float
    null_hypothesis: str = (
        "H0: the mean over data sets of the difference (first − second, greater "
        "is better) is 0, and wins beyond Δ are as likely as losses beyond Δ"
    )
    _ends: np.ndarray = field(repr=False, default=None)

    def _interval(self, row):
        t = (self.stopping_time or self.n_datasets) - 1
        low, high = self._ends[row, :, t]
        return ConfidenceInterval(float(low), float(high), 1 - self.alpha / 2)

    def confidence_interval(self):
        """The anytime-valid interval of the mean difference at level 1 − α/2 at
        the stopping time, in the metric's units."""
        return self._interval(0)

    def net_wins_interval(self):
        """The anytime-valid interval of P(win beyond Δ) − P(loss beyond Δ) at
        level 1 − α/2 at the stopping time."""
        return self._interval(1)

    def to_dict(self):
        """The fields and both intervals as plain data (JSON-safe)."""
        ci, wins = self.confidence_interval(), self.net_wins_interval()
        return super().to_dict() | {
            "low": ci.low,
            "high": ci.high,
            "net_wins_low": wins.low,
            "net_wins_high": wins.high,
            "confidence_level": ci.confidence_level,
        }


def sequential_test(differences, *, bounds, delta, alpha=0.05):
    """Anytime-valid test of a mean difference over data sets, looked at after
    each one.

    Two hedged betting confidence sequences (Waudby-Smith & Ramdas 2024,
    Theorem 3) at α/2 each, of the mean difference and of the net win rate
    beyond Δ (Grünwald et al. 2024): the first look where either excludes 0, or
    the mean's lies inside (−Δ, Δ), decides, whatever the stopping rule
    (:ref:`sequential`).

    Parameters
    ----------
    differences : array-like of shape (n_datasets,)
        First minus second learner, greater is better, in the order run.
    bounds : tuple of float
        The metric's ``(low, high)``.
    delta : float
        Δ, the smallest difference that matters (> 0).
    alpha : float, default=0.05

    Returns
    -------
    result : SequentialTestResult

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import sequential_test
    >>> d = np.random.default_rng(0).normal(0.04, 0.02, size=40)
    >>> res = sequential_test(d, bounds=(0, 1), delta=0.01)
    >>> res.decision, res.stopping_time
    ('better', 8)
    >>> ci = res.confidence_interval()  # a bounded mean: slow to narrow
    >>> round(ci.low, 3), round(ci.high, 3)
    (-0.469, 0.517)
    """
    d, width, alpha, delta = _check_sequence(
        differences, bounds, alpha, delta, "differences"
    )
    if d.ndim != 1 or np.isnan(d).any():
        raise ValueError("`differences` must be a 1-D array without NaN.")
    codes = _decide(d, width, delta, alpha)
    decided = np.flatnonzero(codes)
    stop = int(decided[0]) + 1 if decided.size else None
    t = stop or d.size
    signs = _signs(d, delta)
    lam = _bets(signs, alpha / 2)
    evalue = _THETA * np.exp(np.maximum(*_log_capital(signs, lam, 0.5)))[t - 1]
    mean_ends = np.array(_bounds((d + width) / (2 * width), alpha / 2))
    names = {1: "better", -1: "worse", 2: "equivalent", 0: "undecided"}
    return SequentialTestResult(
        decision=names[int(codes[t - 1])],
        stopping_time=stop,
        n_datasets=d.size,
        estimate=float(d[:t].mean()),
        net_wins=float(2 * signs[:t].mean() - 1),
        evalue=float(evalue),
        delta=delta,
        alpha=alpha,
        _ends=np.stack(
            [mean_ends * 2 * width - width, np.array(_bounds(signs, alpha / 2)) * 2 - 1]
        ),
    )


@dataclass(frozen=True)
class RaceResult(_Fields):
    """Result of :func:`race`: which learners it dropped, when and why.

    Attributes
    ----------
    best : str
        The learner with the best mean among those never dropped.
    survivors : list of str
    dropped : dict of str to dict
        For each dropped learner: ``after`` (the number of data sets seen) and
        ``why`` (the interval against the then best learner).
    n_evaluations, n_full : int
        Learner × data set cells the race needs, and the full study's.
    delta, alpha : float
    null_hypothesis : str
    """

    best: str
    survivors: list
    dropped: dict
    n_evaluations: int
    n_full: int
    delta: float
    alpha: float
    null_hypothesis: str = (
        "H0 (each pair with the best): the dropped learner is not worse beyond Δ: "
        "its mean difference to the best is >= −Δ and it wins beyond Δ as often "
        "as it loses beyond Δ"
    )


def _worse(d, width, delta, level):
    """Why a learner with differences ``d`` to the best is worse beyond Δ (the
    mean's interval below −Δ, or the net win rate's below 0, each at level/2),
    or ``""``."""
    x = (d + width) / (2 * width)
    down = _log_capital(x, _bets(x, level / 2), 0.5 - delta / (2 * width))[1]
    if _excluded(down, level / 2)[-1]:
        high = _bounds(x, level / 2)[1][-1] * 2 * width - width
        return f"interval of the mean difference ends at {high:.3g} < −Δ = {-delta:g}"
    signs = _signs(d, delta)
    if _excluded(_log_capital(signs, _bets(signs, level / 2), 0.5)[1], level / 2)[-1]:
        high = _bounds(signs, level / 2)[1][-1] * 2 - 1
        return f"interval of the net win rate beyond Δ ends at {high:.3g} < 0"
    return ""


def race(performance, *, bounds, delta, alpha=0.05, learners=None):
    """A Hoeffding race (Maron & Moore, 1994) with anytime-valid intervals.

    After each data set a learner is dropped when a confidence sequence of
    :func:`sequential_test` (its mean difference to the best so far, or its net
    win rate beyond Δ) says it is worse beyond Δ. Each pair is tested at
    ``alpha / (m − 1)``, so the best learner is dropped with probability at
    most ``alpha`` (Bonferroni).

    Parameters
    ----------
    performance : array-like of shape (n_datasets, n_learners)
        Mean performance of each learner on each data set in the order run,
        greater is better (negate a loss); NaN after a learner was dropped.
    bounds : tuple of float
        The metric's ``(low, high)``.
    delta : float
        Δ (> 0).
    alpha : float, default=0.05
    learners : list of str, default=None
        Names of the columns; ``None`` numbers them.

    Returns
    -------
    result : RaceResult

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import race
    >>> rng = np.random.default_rng(1)
    >>> perf = 0.8 + rng.normal(0, 0.02, (60, 3)) - [0, 0.1, 0.005]
    >>> res = race(perf, bounds=(0, 1), delta=0.01, learners=["a", "b", "c"])
    >>> res.best, res.survivors, res.dropped["b"]["after"]
    ('a', ['a', 'c'], 10)
    """
    perf, width, alpha, delta = _check_sequence(
        performance, bounds, alpha, delta, "performance"
    )
    if perf.ndim != 2 or perf.shape[1] < 2:
        raise ValueError("`performance` must be 2-D with at least two learners.")
    n, m = perf.shape
    names = [str(i) for i in range(m)] if learners is None else list(learners)
    if len(names) != m:
        raise ValueError(f"`learners` must name the {m} columns of `performance`.")
    level = alpha / (m - 1)
    alive, dropped, cells = list(range(m)), {}, 0
    for t in range(1, n + 1):
        rows = perf[:t, alive]
        if np.isnan(rows).any():
            k = alive[int(np.flatnonzero(np.isnan(rows).any(axis=0))[0])]
            raise ValueError(
                f"`performance` of learner {names[k]!r} is NaN on data set {t} "
                "but the race had not dropped it."
            )
        cells += len(alive)
        best = alive[int(np.argmax(rows.mean(axis=0)))]
        for k in [k for k in alive if k != best]:
            why = _worse(perf[:t, k] - perf[:t, best], width, delta, level)
            if why:
                dropped[names[k]] = {
                    "after": t,
                    "why": f"its {why} against {names[best]!r} after {t} data "
                    f"sets (a {1 - level / 2:.4g} anytime-valid confidence "
                    f"sequence; the pair's two at {1 - level:.4g} together)",
                }
                alive.remove(k)
    means = np.nanmean(perf[:, alive], axis=0)
    return RaceResult(
        best=names[alive[int(np.argmax(means))]],
        survivors=[names[k] for k in alive],
        dropped=dropped,
        n_evaluations=cells,
        n_full=n * m,
        delta=delta,
        alpha=alpha,
    )
