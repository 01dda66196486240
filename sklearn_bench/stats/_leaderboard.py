"""Leaderboards for large studies: Bradley–Terry ratings on the Elo scale, win
rates, improvability, mean ranks and confidence sets for the ranks (Mogstad et al.
2024), every interval from one bootstrap over data sets (:ref:`leaderboard`).
"""

import warnings
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.special import expit

from .._validation import check_bool as _check_bool
from .._validation import check_choice as _check_choice
from .._validation import check_confidence_level as _check_level
from .._validation import check_positive_int as _check_positive_int
from .._validation import check_random_state as _as_generator
from ._common import _sample, _validate_scores, real_array, real_number

SCALE = 400.0
BASE = 10.0
# bencheval's ridge on the natural-log strengths (its ``BT_RIDGE``): the L2
# penalty of scikit-learn's LogisticRegression at C = 1e6 on beta = t / ln 10.
# 4e-6 Elo on a real field; it keeps a learner that wins (or loses) every
# comparison finite, as bencheval's ratings are.
RIDGE = 0.5 / (1e6 * np.log(10.0) ** 2)
_RANK_BY = ("score", "mean_rank", "rating")


def _table(scores, name="scores"):
    """Values (data sets × learners, NaN = missing), learners, data sets; data
    sets with fewer than two learners are dropped."""
    values, learners, datasets = _validate_scores(scores, name, allow_nan=True)
    present = ~np.isnan(values)
    empty = ~present.any(axis=0)
    if empty.any():
        raise ValueError(
            f"`{name}`: learner {learners[int(np.argmax(empty))]!r} has no value "
            "on any data set."
        )
    # The bootstrap sums squares of the values over the data sets: beyond
    # sqrt(max / n) they overflow (1e155 gave an infinite standard error).
    bound = np.sqrt(np.finfo(float).max / max(values.size, 1))
    big = int((np.abs(values[present]) > bound).sum())
    if big:
        raise ValueError(
            f"`{name}` holds {big} value(s) beyond ±{bound:.3g}, too large to "
            "average and square without overflow; rescale the scores."
        )
    keep = present.sum(axis=1) >= 2
    if keep.sum() < 2:
        raise ValueError(
            f"`{name}` must have at least 2 data sets (rows) on which two learners "
            f"have a value; got {int(keep.sum())}."
        )
    return values[keep], learners, [d for d, k in zip(datasets, keep, strict=True) if k]


def _pairwise_wins(loss):
    """``(N, p, p)``: 1 where row learner beats column learner on a data set, ½ for
    a tie, 0 otherwise or where either is missing; and ``(N, p, p)`` presence."""
    a = loss[:, :, None]
    b = loss[:, None, :]
    with np.errstate(invalid="ignore"):
        wins = (a < b) + 0.5 * (a == b)
    both = ~np.isnan(a) & ~np.isnan(b)
    p = loss.shape[1]
    both &= ~np.eye(p, dtype=bool)[None]
    return np.where(both, wins, 0.0), both.astype(float)


def _improvability(values, greater_is_better):
    """Per data set ``|v − v*| / max(|v|, |v*|)`` against the best ``v*`` present
    (0 where both are 0; bencheval's ``1 − e*/e``, or ``1 − s/s*``), NaN where
    missing; ``None`` when a value is negative (no relative gap)."""
    if (values[~np.isnan(values)] < 0).any():
        return None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        best = (np.nanmax if greater_is_better else np.nanmin)(values, axis=1)
        gap = np.abs(values - best[:, None])
        den = np.maximum(values, best[:, None])
        out = np.where(gap == 0, 0.0, gap / np.where(den == 0, 1.0, den))
    return np.where(np.isnan(values), np.nan, out)


def _bt_loglik(wins, n, t):
    """Penalised log-likelihood, ``wins (B, p)``, ``n (B, p, p)`` or ``(p, p)``."""
    pair = np.logaddexp(t[:, :, None], t[:, None, :])
    return (wins * t).sum(-1) - 0.5 * (n * pair).sum((-2, -1)) - RIDGE * (t * t).sum(-1)


def _bt_fit(wins, n, t0):
    """Centred natural-log Bradley–Terry strengths of ``wins (B, p)`` (ties ½) in
    ``n (B, p, p)`` or ``(p, p)`` comparisons by Newton's method with step halving
    from ``t0 (B, p)``, until no step exceeds 1e-10; 128 problems at a time."""
    if len(t0) > 128:  # their (128, p, p) arrays stay in the cache
        at = [slice(i, i + 128) for i in range(0, len(t0), 128)]
        fits = [_bt_fit(wins[s], n if n.ndim == 2 else n[s], t0[s]) for s in at]
        return np.concatenate(fits)
    t = np.array(t0, dtype=float)
    n_problems, p = t.shape
    shared = n.ndim == 2
    active = np.arange(n_problems)
    diagonal = np.arange(p)
    for _ in range(200):
        if active.size == 0:
            break
        ta, na = t[active], (n if shared else n[active])
        # one start (warm, from the table's fit) and one n: one Hessian for all
        tp = ta[:1] if shared and (ta == ta[:1]).all() else ta
        prob = tp[:, :, None] - tp[:, None, :]
        v = na * expit(prob, out=prob)
        grad = wins[active] - v.sum(-1) - 2 * RIDGE * ta
        v *= np.subtract(1, prob, out=prob)  # na * prob * (1 - prob)
        diag = v.sum(-1) + 2 * RIDGE
        hess = np.negative(v, out=v)  # minus the Hessian: -v off the diagonal
        hess[:, diagonal, diagonal] = diag
        # The likelihood is flat along (1, ..., 1); a penalty on the mean (zero
        # at the centred maximum) makes the system definite without moving it.
        hess += diag.mean(-1, keepdims=True)[:, :, None] / p + 1e-12
        step = np.linalg.solve(hess, grad[:, :, None])[:, :, 0]
        # Near the maximum (a warm start) Newton's step is sound; a long step
        # is halved until the likelihood does not fall.
        big = np.flatnonzero(np.abs(step).max(-1) > 0.5)
        if big.size:
            wb, nb, tb = wins[active][big], (na if shared else na[big]), ta[big]
            old = _bt_loglik(wb, nb, tb)
            sb = step[big]
            for _ in range(60):
                worse = _bt_loglik(wb, nb, tb + sb) < old - 1e-12 * np.abs(old)
                if not worse.any():
                    break
                sb[worse] *= 0.5
            step[big] = sb
        t[active] = ta + step
        active = active[np.abs(step).max(-1) > 1e-10]
    return t - t.mean(-1, keepdims=True)


def _rates(wins_d, both_d):
    """The Bradley–Terry strengths of the whole table, the pair counts and the
    win rate of each pair (NaN on the diagonal)."""
    n_pairs = both_d.sum(axis=0)
    wins = wins_d.sum(axis=(0, 2))[None]
    t_hat = _bt_fit(wins, n_pairs, np.zeros((1, n_pairs.shape[0])))[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = wins_d.sum(axis=0) / n_pairs
    np.fill_diagonal(rate, np.nan)
    return t_hat, n_pairs, rate


def _to_rating(t, offset=0.0):
    return SCALE * t / np.log(BASE) + 1000.0 + offset


def _studentised(estimate, draws, se_hat=None, se_draws=None):
    """The level-free pieces of :func:`_rank_sets_from`: pairs studentised by the
    bootstrap sd of their difference (``csranks``), or the bootstrap-t with
    ``se_hat (p, p)`` and ``se_draws (B, p, p)``; −inf off the pairs in play."""
    estimate = np.asarray(estimate, dtype=float)
    draws = np.asarray(draws, dtype=float)
    keep = np.isfinite(draws).all(axis=1)
    if not keep.all():
        draws = draws[keep]
        se_draws = None if se_draws is None else se_draws[keep]
    if draws.shape[0] == 0:
        raise ValueError(
            "`bootstrap_draws` has no finite draw to compute rank sets from."
        )
    p = estimate.size
    diff = estimate[:, None] - estimate[None, :]
    dev = draws - estimate
    tstat = dev[:, :, None] - dev[:, None, :]
    offdiag = ~np.eye(p, dtype=bool)
    scale = 1e-12 * (np.abs(diff) + np.abs(estimate).max() + 1e-300)
    sigma = tstat.std(axis=0) if se_hat is None else se_hat
    varies = sigma > scale
    with np.errstate(divide="ignore", invalid="ignore"):
        tstat /= sigma if se_hat is None else se_draws
        if se_hat is not None:
            tstat[~(se_draws > scale)] = 0.0
        tstat[:, ~(offdiag & varies)] = -np.inf
        z = np.where(varies, diff / sigma, np.where(diff > 0, np.inf, -np.inf))
    fixed = offdiag & ~varies & (diff > 0)  # decided without sampling error
    return z, tstat, fixed, offdiag & varies


def _pair_standard_errors(x, counts):
    """Plug-in standard errors of the mean pairwise differences of ``x (N, p)``,
    on the data and within each resample of multiplicities ``counts (B, N)``."""
    n, p = x.shape
    d = x[:, :, None] - x[:, None, :]
    se_hat = d.std(axis=0) / np.sqrt(n)
    total = counts.sum(axis=1)[:, None, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        m = counts @ x / total[:, :, 0]
        xx = (x[:, :, None] * x[:, None, :]).reshape(n, p * p)
        cross = (counts @ xx).reshape(-1, p, p)
        cross /= total
        sq = np.einsum("bjj->bj", cross)
        var = sq[:, :, None] + sq[:, None, :]
        var -= np.multiply(cross, 2, out=cross)  # in place: no more (B, p, p)
        dm = np.subtract(m[:, :, None], m[:, None, :], out=cross)
        var -= np.square(dm, out=dm)
        np.divide(np.maximum(var, 0.0, out=var), total, out=var)
        se_draws = np.sqrt(var, out=var)
    return se_hat, se_draws


def _max_where(tstat, mask, axis):
    """``np.where(mask, tstat, -inf).max(axis)``, 64 draws at a time."""
    blocks = np.split(tstat, np.arange(64, len(tstat), 64))
    return np.concatenate([np.where(mask, t, -np.inf).max(axis=axis) for t in blocks])


def _rank_sets_from(parts, level, *, marginal):
    """``(low, high, rejected)``: rank bounds (1 = best; higher estimate = better)
    by ``csranks``'s two-sided step-down (steps 1-4 of :ref:`leaderboard`) and,
    simultaneous only, the pairs ``(j, k)`` found ``j`` better."""
    z, tstat, fixed, in_play = parts
    p = z.shape[0]
    if not marginal:
        rejected = fixed.copy()
        active = in_play.copy()
        while active.any():
            crit = np.quantile(_max_where(tstat, active, (1, 2)), level)
            new = active & (z > crit)
            if not new.any():
                break
            rejected |= new
            active &= ~new
        better = rejected.sum(axis=0)  # learners found better than each column
        return 1 + better, p - rejected.sum(axis=1), rejected
    # Marginal: for learner i the pairs (i, k) ("i better") and (k, i).
    row_rej = fixed.copy()  # [i, k]: i found better than k
    col_rej = fixed.T.copy()  # [i, k]: k found better than i
    row_act = in_play.copy()
    col_act = in_play.T.copy()
    while row_act.any() or col_act.any():
        stat = np.maximum(
            _max_where(tstat, row_act, 2), _max_where(tstat, col_act.T, 1)
        )  # (B, p)
        crit = np.quantile(stat, level, axis=0)  # (p,)
        new_row = row_act & (z > crit[:, None])
        new_col = col_act & (z.T > crit[:, None])
        if not (new_row.any() or new_col.any()):
            break
        row_rej |= new_row
        col_rej |= new_col
        row_act &= ~new_row
        col_act &= ~new_col
    return 1 + col_rej.sum(axis=1), p - row_rej.sum(axis=1), None


def _point_ranks(estimate):
    """``1 + #{k: θ_k > θ_j}`` (higher is better), as the paper's ranks."""
    estimate = np.asarray(estimate, dtype=float)
    return 1 + (estimate[None, :] > estimate[:, None]).sum(axis=1)


@dataclass(frozen=True)
class RankConfidenceSetsResult:
    """Result of :func:`rank_confidence_sets`; its Returns section describes the
    fields."""

    learners: tuple
    rank: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence_level: float
    simultaneous: bool
    may_be_best: np.ndarray
    n_resamples: int
    null_hypothesis: str = field(repr=False)

    def to_frame(self):
        """One row per learner: ``rank``, ``low``, ``high``, ``may_be_best``."""
        columns = ("rank", "low", "high", "may_be_best")
        return pd.DataFrame(
            {c: getattr(self, c) for c in columns},
            index=pd.Index(self.learners, name="learner"),
        )


def rank_confidence_sets(
    estimate,
    bootstrap_draws,
    *,
    greater_is_better,
    confidence_level=0.95,
    simultaneous=True,
    learners=None,
) -> RankConfidenceSetsResult:
    """Confidence sets for the ranks of learners from bootstrap draws.

    Mogstad, Romano, Shaikh & Wilhelm (2024, *Review of Economic Studies*),
    Sections 3.1–3.3, as their R package ``csranks`` (``stepdown=TRUE``) with
    any bootstrap of the estimates (:ref:`leaderboard`): simultaneous sets cover
    all learners' true ranks at once, a marginal set its own learner's.

    Parameters
    ----------
    estimate : array-like of shape (p,)
        The statistic of each learner on all data.
    bootstrap_draws : array-like of shape (B, p)
        The statistic on each bootstrap resample (non-finite rows dropped); a
        few hundred at least.
    greater_is_better : bool
        Direction of the statistic. Required.
    confidence_level : float, default=0.95
    simultaneous : bool, default=True
    learners : sequence of str, default=None
        Names; ``0 .. p − 1`` by default.

    Returns
    -------
    RankConfidenceSetsResult
        ``rank`` (1 + the number of better learners), ``low`` and ``high`` (the
        sets ``{low, ..., high}``), ``may_be_best`` (``low == 1``: of the
        simultaneous sets, the top-1 confidence set), ``n_resamples`` (finite
        draws used), ``learners``, ``confidence_level``, ``simultaneous``,
        ``null_hypothesis``.

    Notes
    -----
    A pair whose bootstrap difference never varies is decided by the sign of
    its estimate. With fewer than about 20 data sets the sets are not reliable.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import rank_confidence_sets
    >>> rng = np.random.default_rng(0)
    >>> draws = rng.normal([3.0, 2.9, 1.0, 0.0], 0.1, size=(1000, 4))
    >>> res = rank_confidence_sets([3.0, 2.9, 1.0, 0.0], draws,
    ...                            greater_is_better=True)
    >>> res.low.tolist(), res.high.tolist(), res.may_be_best.tolist()
    ([1, 1, 3, 4], [2, 2, 3, 4], [True, True, False, False])
    """
    est, draws = _estimate_and_draws(estimate, bootstrap_draws, greater_is_better)
    level = _check_level(confidence_level)
    simultaneous = _check_bool(simultaneous, "simultaneous")
    learners = _check_learner_names(learners, est.size)
    parts = _studentised(est, draws)
    low, high, _ = _rank_sets_from(parts, level, marginal=not simultaneous)
    words = "simultaneous" if simultaneous else "marginal"
    return RankConfidenceSetsResult(
        learners=tuple(learners),
        rank=_point_ranks(est),
        low=low,
        high=high,
        confidence_level=level,
        simultaneous=simultaneous,
        may_be_best=low == 1,
        n_resamples=draws.shape[0],
        null_hypothesis=(
            f"{words} {level:g} confidence sets for the ranks (Mogstad et al. 2024; "
            "step-down over the pairwise hypotheses θ_j <= θ_k)"
        ),
    )


def _estimate_and_draws(estimate, bootstrap_draws, greater_is_better):
    """The estimates and their finite draws, oriented so that higher is better."""
    est = _sample(estimate, "estimate")
    if np.abs(est).max() > 1e150:
        raise ValueError("`estimate` holds values too large to compare (> 1e150).")
    p = est.size
    if p < 2:
        raise ValueError(f"`estimate` must hold at least 2 learners; got {p}.")
    draws = real_array(bootstrap_draws, "bootstrap_draws")
    if draws.ndim != 2 or draws.shape[1] != p:
        raise ValueError(
            f"`bootstrap_draws` must have shape (B, {p}) (one column per learner "
            f"of `estimate`); got shape {draws.shape}."
        )
    finite = draws[np.isfinite(draws)]
    if finite.size and np.abs(finite).max() > 1e150:
        raise ValueError("`bootstrap_draws` holds values too large to compare.")
    sign = 1.0 if _check_bool(greater_is_better, "greater_is_better") else -1.0
    draws = draws[np.isfinite(draws).all(axis=1)]
    if draws.shape[0] < 2:
        raise ValueError(
            "`bootstrap_draws` must have at least 2 rows without NaN or infinity."
        )
    return sign * est, sign * draws


def _check_learner_names(learners, p):
    if learners is None:
        return list(range(p))
    if isinstance(learners, str) or not hasattr(learners, "__len__"):
        raise TypeError(f"`learners` must be a sequence of names; got {learners!r}.")
    names = list(learners)
    if len(names) != p or len(set(map(str, names))) != p:
        raise ValueError(f"`learners` must hold {p} distinct names; got {names!r}.")
    return names


@dataclass(frozen=True)
class RankStabilityResult:
    """Result of :meth:`LeaderboardResult.stability` (its Returns section
    describes the fields; ``null_hypothesis``, what the projection assumes)."""

    table: pd.DataFrame
    top: str
    target_width: float
    n_needed: int | None
    n_needed_top: int | None
    confidence_level: float
    null_hypothesis: str = field(repr=False)
    delta: float | None = None
    n_needed_delta: int | None = None

    def to_frame(self):
        """The table."""
        return self.table.copy()


def _rank_stability(
    estimate,
    bootstrap_draws,
    *,
    n_datasets,
    greater_is_better,
    target_width=1.0,
    confidence_level=0.95,
    grid=None,
    learners=None,
    delta=None,
) -> RankStabilityResult:
    """:meth:`LeaderboardResult.stability` of any estimates and bootstrap draws
    over ``n_datasets`` data sets (the parameters are the method's)."""
    est, draws = _estimate_and_draws(estimate, bootstrap_draws, greater_is_better)
    n = _check_positive_int(n_datasets, "n_datasets", minimum=2)
    target = real_number(target_width, "target_width")
    if not (np.isfinite(target) and target >= 0):
        raise ValueError(f"`target_width` must be >= 0; got {target!r}.")
    level = _check_level(confidence_level)
    learners = _check_learner_names(learners, est.size)
    if delta is not None:
        delta = real_number(delta, "delta")
        if not (np.isfinite(delta) and delta > 0):
            raise ValueError(f"`delta` must be a positive number; got {delta!r}.")
    if grid is None:
        grid = sorted({max(2, int(round(n * 2.0**e))) for e in np.arange(-3, 6.5, 0.5)})
    else:
        try:
            grid = sorted({_check_positive_int(g, "grid", minimum=2) for g in grid})
        except TypeError:
            raise TypeError(
                f"`grid` must be a sequence of integers; got {grid!r}."
            ) from None
        if not grid:
            raise ValueError("`grid` must not be empty.")
    top = int(np.argmax(est))
    apart = None
    if delta is not None:
        apart = (est[:, None] - est[None, :]) >= delta  # j better by Δ or more
    rows = []
    z, *rest = _studentised(est, draws)  # scaling the draws scales z only
    for m in grid:
        scaled = est + np.sqrt(n / m) * (draws - est)
        parts = (z * np.sqrt(m / n), *rest)
        low, high, rejected = _rank_sets_from(parts, level, marginal=False)
        width = high - low
        row = {
            "n_datasets": m,
            "observed": m == n,
            "p_top_stays": float(np.mean(np.argmax(scaled, axis=1) == top)),
            "mean_width": float(width.mean()),
            "max_width": int(width.max()),
            "n_may_be_best": int((low == 1).sum()),
        }
        if apart is not None:
            row["p_ordered_delta"] = (
                float(rejected[apart].mean()) if apart.any() else 1.0
            )
        rows.append(row)
    table = pd.DataFrame(rows)

    def first(reached):  # the fewest data sets of the grid where it holds
        hits = table.loc[reached, "n_datasets"]
        return int(hits.iloc[0]) if len(hits) else None

    return RankStabilityResult(
        table=table,
        top=str(learners[top]),
        target_width=target,
        n_needed=first(table["mean_width"] <= target),
        n_needed_top=first(table["p_top_stays"] >= level),
        confidence_level=level,
        null_hypothesis=(
            "plug-in projection: the observed differences between learners are "
            "taken as the true ones; sampling error scales as sqrt(N / m)"
        ),
        delta=delta,
        n_needed_delta=None if apart is None else first(table["p_ordered_delta"] >= 1),
    )


def _check_reference(reference, reference_rating, learners):
    rating = real_number(reference_rating, "reference_rating")
    if not np.isfinite(rating):
        raise ValueError(f"`reference_rating` must be finite; got {rating!r}.")
    if reference is None:
        return None, rating
    names = [str(x) for x in learners]
    if not isinstance(reference, str) or reference not in names:
        raise ValueError(
            f"`reference` must be one of the learners {names}; got {reference!r}."
        )
    return names.index(reference), rating


def win_rate_matrix(scores, *, greater_is_better) -> pd.DataFrame:
    """How often the row learner beats the column learner over data sets.

    Ties count half, each pair over the data sets both have a value on, as
    ``bencheval``'s ``compute_winrate_matrix``; ordered by rating, best first.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_learners)
    greater_is_better : bool
        Whether larger scores are better. Required.

    Returns
    -------
    DataFrame
        Learners × learners; NaN on the diagonal.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.stats import win_rate_matrix
    >>> errors = pd.DataFrame({"C": [.3, .3, .5, .1], "A": [.1, .2, .3, .1],
    ...                        "B": [.2, .1, .4, .2]})
    >>> win_rate_matrix(errors, greater_is_better=False)
    opponent      A     B      C
    learner
    A           NaN  0.75  0.875
    B         0.250   NaN  0.750
    C         0.125  0.25    NaN
    """
    values, learners, _ = _table(scores)
    greater_is_better = _check_bool(greater_is_better, "greater_is_better")
    wins_d, both_d = _pairwise_wins(-values if greater_is_better else values)
    t, _, rate = _rates(wins_d, both_d)
    order = np.argsort(-_to_rating(t), kind="stable")
    index = pd.Index(learners, name="learner")[order]
    return pd.DataFrame(
        rate[np.ix_(order, order)], index=index, columns=index.rename("opponent")
    )


@dataclass(frozen=True)
class LeaderboardResult:
    """Result of :func:`leaderboard_table`.

    Attributes
    ----------
    table : DataFrame
        One row per learner, sorted by ``rank`` (then rating); the columns are
        described in :func:`leaderboard_table`.
    win_rate_matrix : DataFrame
        Row beats column (ties ½), in the table's order.
    rank_by : str
        The statistic of the ranks and rank sets.
    confidence_level : float
    n_resamples : int
    n_datasets, n_complete_datasets : int
        Data sets where at least two learners, and where every learner, have a
        value.
    notes : tuple of str
        What the table had to decide (missing learners, empty columns, ...).
    null_hypothesis : str
    """

    table: pd.DataFrame
    win_rate_matrix: pd.DataFrame
    rank_by: str
    confidence_level: float
    n_resamples: int
    n_datasets: int
    n_complete_datasets: int
    notes: tuple
    null_hypothesis: str = field(repr=False)
    _estimate: np.ndarray = field(repr=False, default=None)
    _draws: np.ndarray = field(repr=False, default=None)
    _n_units: int = field(repr=False, default=0)
    _names: tuple = field(repr=False, default=())

    def to_frame(self):
        """The leaderboard table."""
        return self.table.copy()

    @property
    def n_units(self):
        """Data sets the ranked statistic rests on: all for ``rank_by="rating"``,
        the complete ones otherwise."""
        return self._n_units

    def stability(self, *, target_width=1.0, grid=None, delta=None):
        """How many data sets a stable order of the ranked statistic needs,
        projected from the same bootstrap.

        For each ``m`` of a grid the draws ``θ̂ + sqrt(N / m) (θ* − θ̂)`` give
        the probability that the learner on top stays on top and the width of
        the simultaneous rank sets (a plug-in projection, :ref:`leaderboard`).

        Parameters
        ----------
        target_width : float, default=1.0
            Target mean width (``high − low``) of the simultaneous rank sets.
        grid : sequence of int, default=None
            Numbers of data sets; by default ``N/8 .. 64 N``, geometric.
        delta : float, default=None
            The study's Δ, in the units of the ranked statistic: adds
            ``p_ordered_delta``, the share of the pairs at least Δ apart that
            the sets order, and ``n_needed_delta``, the fewest data sets that
            order all of them.

        Returns
        -------
        RankStabilityResult
            ``table``, one row per ``n_datasets`` (the study's own marked
            ``observed``): ``p_top_stays``, ``mean_width``, ``max_width``,
            ``n_may_be_best`` (and ``p_ordered_delta``); ``top``; ``n_needed``,
            the fewest data sets with mean width at most ``target_width``
            (``None`` when not reached on the grid); ``n_needed_top``, the
            fewest with ``p_top_stays >= confidence_level``; ``delta``,
            ``n_needed_delta``.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from sklearn_bench.stats import leaderboard_table
        >>> rng = np.random.default_rng(0)
        >>> errors = pd.DataFrame(rng.uniform(0.1, 0.3, (20, 3)) + [0, .02, .1],
        ...                       columns=["A", "B", "C"])
        >>> res = leaderboard_table(errors, greater_is_better=False,
        ...                         n_resamples=500, random_state=0)
        >>> stab = res.stability()
        >>> stab.top, stab.n_needed, stab.n_needed_top
        ('A', 7, 57)
        """
        return _rank_stability(
            self._estimate,
            self._draws,
            n_datasets=self._n_units,
            greater_is_better=True,
            target_width=target_width,
            confidence_level=self.confidence_level,
            grid=grid,
            learners=list(self._names),
            delta=delta,
        )


def _percentile(draws, level):
    lo, hi = (1 - level) / 2, (1 + level) / 2
    if not np.isnan(draws).any():
        return np.quantile(draws, [lo, hi], axis=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanquantile(draws, [lo, hi], axis=0)


def _resampled_means(counts, x):
    """The mean of the rows of ``x`` in each resample (NaN in an empty one)."""
    total = counts.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(total > 0, counts @ x / total, np.nan)


def _with_ci(name, value, ci):
    return {name: value, f"{name}_low": ci[0], f"{name}_high": ci[1]}


def leaderboard_table(
    scores,
    *,
    greater_is_better,
    reference=None,
    reference_rating=1000.0,
    rank_by="score",
    n_resamples=1000,
    confidence_level=0.95,
    random_state=None,
) -> LeaderboardResult:
    """A leaderboard of learners over data sets, with intervals from one bootstrap.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_learners)
        One value per data set and learner; NaN where a learner has none.
    greater_is_better : bool
        Whether larger scores are better. Required.
    reference : str, default=None
        Learner rated ``reference_rating`` (``None``: the ratings average it).
    reference_rating : float, default=1000.0
    rank_by : {"score", "mean_rank", "rating"}, default="score"
        Statistic of the ranks and of their confidence sets.
    n_resamples : int, default=1000
        Resamples of the data sets, shared by every interval.
    confidence_level : float, default=0.95
    random_state : int, numpy Generator or RandomState, default=None

    Returns
    -------
    LeaderboardResult
        Its ``table`` has, per learner (defined in :ref:`leaderboard`):
        ``rating``, ``win_rate``, ``mean_rank``, ``improvability`` (each with
        ``_low`` and ``_high``, the bootstrap percentile interval; a rating's
        interval is bencheval's, shifted with the ``reference``); ``rank`` by
        ``rank_by`` with its simultaneous (``rank_low``, ``rank_high``) and
        marginal (``rank_low_marginal``, ``rank_high_marginal``) confidence
        sets; ``may_be_best``; ``mean_score`` and ``n_datasets``.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench.stats import leaderboard_table
    >>> rng = np.random.default_rng(0)
    >>> errors = pd.DataFrame(rng.uniform(0.1, 0.3, (30, 4)) + [0, .02, .05, .1],
    ...                       columns=["A", "B", "C", "D"])
    >>> res = leaderboard_table(errors, greater_is_better=False, n_resamples=200,
    ...                         random_state=0)
    >>> res.table[["rating", "win_rate", "rank_low", "rank_high"]].round(1)
             rating  win_rate  rank_low  rank_high
    learner
    A        1165.4       0.8         1          2
    B        1072.6       0.6         1          2
    C         920.1       0.4         3          4
    D         841.9       0.2         3          4
    """
    values, learners, datasets = _table(scores)
    greater_is_better = _check_bool(greater_is_better, "greater_is_better")
    ref, ref_rating = _check_reference(reference, reference_rating, learners)
    rank_by = _check_choice(rank_by, _RANK_BY, "rank_by")
    n_boot = _check_positive_int(n_resamples, "n_resamples", minimum=2)
    level = _check_level(confidence_level)
    rng = _as_generator(random_state)
    n, p = values.shape
    names = [str(x) for x in learners]
    notes = []

    loss = -values if greater_is_better else values  # lower is better
    present = ~np.isnan(values)
    complete = present.all(axis=1)
    n_complete = int(complete.sum())
    missing = not complete.all()
    if missing:
        lacking = [names[j] for j in np.flatnonzero(~present.all(axis=0))]
        notes.append(
            f"{len(lacking)} learner(s) lack a value on some data sets "
            f"({', '.join(lacking[:5])}{', ...' if len(lacking) > 5 else ''}): "
            "ratings use every comparison of two present learners, win rates the "
            "data sets each pair shares, improvability each learner's own data "
            f"sets; mean score and mean rank use the {n_complete} data sets "
            "where every learner has a value."
        )
    wins_d, both_d = _pairwise_wins(loss)
    wins_total = wins_d.sum(axis=2)  # (n, p): wins of each learner per data set
    t_hat, n_pairs, pair_rate = _rates(wins_d, both_d)
    won = wins_total.sum(axis=0)
    played = n_pairs.sum(axis=1)
    extreme = [names[j] for j in range(p) if won[j] in (0.0, played[j])]
    if extreme:
        notes.append(
            f"{', '.join(extreme)} won or lost every comparison: the likelihood "
            "has no finite maximum and the rating is set by the ridge (as "
            "bencheval's); read it as beyond every other rating."
        )

    # -- the bootstrap over data sets: multiplicities, one row per resample
    counts = rng.multinomial(n, np.full(n, 1.0 / n), size=n_boot).astype(float)
    wins_b = counts @ wins_total
    n_b = n_pairs  # a complete table's resamples compare each pair n times
    if missing:
        n_b = (counts @ both_d.reshape(n, p * p)).reshape(n_boot, p, p)
    t_b = _bt_fit(wins_b, n_b, np.tile(t_hat, (n_boot, 1)))

    offset = ref_rating - (1000.0 if ref is None else _to_rating(t_hat)[ref])
    rating = _to_rating(t_hat, offset)
    rating_draws = _to_rating(t_b)
    rating_ci = _percentile(rating_draws, level) + offset

    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        win_rate = np.nanmean(pair_rate, axis=1)
        if missing:
            w_b = (counts @ wins_d.reshape(n, p * p)).reshape(n_boot, p, p)
            rate_b = w_b / n_b
            rate_b[:, np.eye(p, dtype=bool)] = np.nan
            win_rate_draws = np.nanmean(rate_b, axis=2)
        else:
            win_rate_draws = wins_b / (counts.sum(axis=1)[:, None] * (p - 1))
    win_rate_ci = _percentile(win_rate_draws, level)

    imp = _improvability(values, greater_is_better)
    if imp is None:
        notes.append(
            "improvability is empty: some values are negative, and a relative "
            "gap to the best needs non-negative values (errors, accuracies)."
        )
        improvability = np.full(p, np.nan)
        imp_ci = np.full((2, p), np.nan)
    else:
        improvability = np.nanmean(imp, axis=0)
        with np.errstate(invalid="ignore", divide="ignore"):
            imp_draws = (counts @ np.nan_to_num(imp)) / (counts @ present)
        imp_ci = _percentile(imp_draws, level)

    if n_complete >= 2:
        ranks_c = pd.DataFrame(loss[complete]).rank(axis=1).to_numpy()
        mean_rank = ranks_c.mean(axis=0)
        mean_score = values[complete].mean(axis=0)
        counts_c = counts[:, complete]
        mean_rank_ci = _percentile(_resampled_means(counts_c, ranks_c), level)
    else:
        notes.append(
            f"only {n_complete} data set(s) have a value for every learner: mean "
            "score and mean rank are empty"
            + ("" if rank_by == "rating" else ", and the ranks are by rating")
            + "."
        )
        mean_rank = mean_score = np.full(p, np.nan)
        mean_rank_ci = np.full((2, p), np.nan)
        rank_by = "rating"

    est, draws, se = rating, rating_draws, (None, None)
    if rank_by != "rating":  # oriented so that higher is better
        sign = 1.0 if greater_is_better else -1.0
        x = sign * values[complete] if rank_by == "score" else -ranks_c
        est, draws = x.mean(axis=0), _resampled_means(counts_c, x)
        se = _pair_standard_errors(x, counts_c)
    finite = np.isfinite(draws).all(axis=1)
    parts = _studentised(est, draws, *se)  # of the finite draws
    low, high, _ = _rank_sets_from(parts, level, marginal=False)
    low_m, high_m, _ = _rank_sets_from(parts, level, marginal=True)
    rank = _point_ranks(est)

    index = pd.Index(names, name="learner")
    table = pd.DataFrame(
        {
            **_with_ci("rating", rating, rating_ci),
            **_with_ci("win_rate", win_rate, win_rate_ci),
            **_with_ci("mean_rank", mean_rank, mean_rank_ci),
            "rank": rank,
            "rank_low": low,
            "rank_high": high,
            "rank_low_marginal": low_m,
            "rank_high_marginal": high_m,
            "may_be_best": low == 1,
            **_with_ci("improvability", improvability, imp_ci),
            "mean_score": mean_score,
            "n_datasets": present.sum(axis=0),
        },
        index=index,
    )
    order = np.lexsort((-rating, rank))
    table = table.iloc[order]
    ordered = [names[i] for i in order]
    by = {"score": "mean score", "mean_rank": "mean rank", "rating": "rating"}[rank_by]
    if rank_by != "mean_rank" and np.isfinite(mean_rank).all():
        by_rank = names[int(np.argmin(mean_rank))]
        if by_rank != ordered[0]:  # two summaries, two "best" learners: say so
            first = table["mean_rank"]
            notes.append(
                f"{ordered[0]} ranks first by {by}, but {by_rank} has the best "
                f"mean rank ({first[by_rank]:.2f} against {first[ordered[0]]:.2f}), "
                "the order of Friedman's test and of sklearn-bench's report "
                "(Demšar 2006): the mean score weighs each data set by the size "
                "of its differences, the mean rank only by their order "
                "(rank_by='mean_rank' ranks by it)."
            )
    matrix = pd.DataFrame(pair_rate, index=index, columns=index.rename("opponent"))
    matrix = matrix.loc[ordered, ordered]
    return LeaderboardResult(
        table=table,
        win_rate_matrix=matrix,
        rank_by=rank_by,
        confidence_level=level,
        n_resamples=n_boot,
        n_datasets=n,
        n_complete_datasets=n_complete,
        notes=tuple(notes),
        null_hypothesis=(
            f"ranks by {by}; rank sets at {level:g} hold simultaneously for all "
            f"learners (Mogstad et al. 2024), from {n_boot} bootstrap resamples "
            f"of {n} data sets"
        ),
        _estimate=est,
        _draws=draws[finite],
        _n_units=n if rank_by == "rating" else n_complete,
        _names=tuple(names),
    )
