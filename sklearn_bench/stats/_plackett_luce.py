"""The Bayesian Plackett–Luce model of the rankings of K learners over data sets.

Calvo, Ceberio & Lozano (2018), "Bayesian inference for algorithm ranking
analysis", GECCO companion; Calvo, Shir, Ceberio, Doerr, Wang, Bäck & Lozano
(2019), "Bayesian performance analysis for black-box optimization benchmarking",
as scmamp's ``bPlackettLuceModel`` fits it in Stan. The posterior is sampled
exactly by the Gibbs sampler of Caron & Doucet (2012), "Efficient Bayesian
inference for generalized Bradley–Terry models", J. Comput. Graph. Stat. 21(1),
vectorised in NumPy over chains, data sets and positions: no optional back end
is needed.
"""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from . import _mcmc
from ._common import _direction, real_number


@dataclass(frozen=True)
class PlackettLuceResult:
    """Result of :func:`bayesian_plackett_luce`: the posterior of a PL ranking model.

    The model: on each data set the learners' ranking (best first) is drawn from
    a Plackett–Luce distribution with weights ``w`` on the simplex, the same on
    every data set; ``w`` has a Dirichlet prior. ``w_i`` is the probability that
    learner ``i`` ranks first on a new data set, and ``w_i / (w_i + w_j)`` the
    probability that ``i`` ranks above ``j`` there. Every quantity below is a
    posterior summary of ``w``.

    Attributes
    ----------
    p_first : Series
        Posterior mean of ``w_i``: the probability that learner ``i`` ranks first
        on a new data set (scmamp's ``expected.win.prob``).
    p_first_interval : DataFrame
        Columns ``low``, ``high``: the equal-tailed credible interval of ``w_i``.
    p_best : Series
        Posterior probability that ``w_i`` is the largest weight, i.e. that
        learner ``i`` is the one most likely to rank first.
    expected_rank : Series
        Posterior mean of ``1 + sum_{j != i} w_j / (w_i + w_j)``, the expected
        position of learner ``i`` (1 = best) on a new data set.
    expected_rank_interval : DataFrame
        Columns ``low``, ``high``: its equal-tailed credible interval.
    mode_rank : Series
        Posterior mean of learner ``i``'s position when the learners are ordered
        by weight, i.e. in the most probable ranking (scmamp's
        ``expected.mode.rank``).
    rank_probabilities : DataFrame
        Learners x positions ``1 ... K``: the posterior probability that learner
        ``i`` holds position ``r`` in the most probable ranking (rows sum to 1).
    p_above : DataFrame
        Learners x learners: the posterior mean of ``w_i / (w_i + w_j)``, the
        probability that the row learner ranks above the column learner on a
        new data set (diagonal NaN; ``p_above + p_above.T = 1``).
    n_datasets, n_learners : int
    greater_is_better : bool
    prior : tuple of float
        The Dirichlet concentration of each learner.
    confidence_level : float
        Level of the credible intervals.
    n_tied : int
        Data sets whose ranking had ties, broken at random (see
        :func:`bayesian_plackett_luce`).
    r_hat, ess : float
        Largest split R-hat and smallest effective sample size of the weights.
    divergences : int
        Always 0: the Gibbs sampler has no divergent transitions (kept for
        the results of NUTS-based versions).
    diagnostics_ok : bool
        Whether the fit may decide: R-hat at most 1.01 and an effective sample
        size of at least 100 per chain. Otherwise :meth:`best` declines
        (``"unreliable fit"``).
    diagnostics : str
        The diagnostics in words.
    description : str
        The model, the data and the main result in words.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import bayesian_plackett_luce
    >>> rng = np.random.default_rng(0)
    >>> errors = rng.uniform(0.1, 0.3, (12, 1)) + [0.0, 0.02, 0.04] \\
    ...     + rng.normal(0, 0.01, (12, 3))
    >>> res = bayesian_plackett_luce(errors, greater_is_better=False,
    ...                              n_draws=500, random_state=0)
    >>> res.to_frame().columns.tolist()[:3]
    ['P(first)', 'P(first) low', 'P(first) high']
    """

    p_first: pd.Series
    p_first_interval: pd.DataFrame = field(repr=False)
    p_best: pd.Series = field(repr=False)
    expected_rank: pd.Series
    expected_rank_interval: pd.DataFrame = field(repr=False)
    mode_rank: pd.Series = field(repr=False)
    rank_probabilities: pd.DataFrame = field(repr=False)
    p_above: pd.DataFrame = field(repr=False)
    n_datasets: int
    n_learners: int
    greater_is_better: bool
    prior: tuple = field(repr=False)
    confidence_level: float = field(repr=False)
    n_tied: int = field(repr=False)
    r_hat: float = field(repr=False)
    ess: float = field(repr=False)
    divergences: int = field(repr=False)
    diagnostics_ok: bool
    diagnostics: str = field(repr=False)
    description: str = field(repr=False)
    details: dict = field(default_factory=dict, repr=False, compare=False)
    _weights: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def learners(self):
        """The learners, in the columns' order."""
        return list(self.p_first.index)

    @property
    def weights(self):
        """Posterior draws of the weights: DataFrame of shape (draws, learners).

        Each row sums to 1; chains are stacked one after the other.
        """
        return pd.DataFrame(self._weights.copy(), columns=self.p_first.index)

    def best(self, threshold=0.95):
        """The learner whose weight is the largest with posterior probability at
        least ``threshold``, or ``None``; ``"unreliable fit"`` when the
        sampler's diagnostics fail (:attr:`diagnostics_ok` is False: the fit
        declines to decide, :attr:`diagnostics` says why).

        Parameters
        ----------
        threshold : float, default=0.95

        Returns
        -------
        str or None
        """
        threshold = real_number(threshold, "threshold")
        if not 0.5 < threshold <= 1:
            raise ValueError(f"`threshold` must lie in (0.5, 1]; got {threshold!r}.")
        if not self.diagnostics_ok:
            return _mcmc.UNRELIABLE
        top = self.p_best.idxmax()
        return top if self.p_best[top] >= threshold else None

    def to_frame(self):
        """One row per learner, sorted by expected rank.

        Returns
        -------
        DataFrame
            Columns ``P(first)``, ``P(first) low``, ``P(first) high``,
            ``P(best)``, ``expected rank``, ``rank low``, ``rank high``,
            ``mode rank``.
        """
        frame = pd.DataFrame(
            {
                "P(first)": self.p_first,
                "P(first) low": self.p_first_interval["low"],
                "P(first) high": self.p_first_interval["high"],
                "P(best)": self.p_best,
                "expected rank": self.expected_rank,
                "rank low": self.expected_rank_interval["low"],
                "rank high": self.expected_rank_interval["high"],
                "mode rank": self.mode_rank,
            }
        )
        frame.index.name = "learner"
        return frame.sort_values("expected rank", kind="stable")

    def to_dict(self):
        """Plain-data summary (no draws)."""
        return {
            "method": "plackett_luce",
            "learners": [str(v) for v in self.learners],
            "p_first": self.p_first.tolist(),
            "p_best": self.p_best.tolist(),
            "expected_rank": self.expected_rank.tolist(),
            "expected_rank_low": self.expected_rank_interval["low"].tolist(),
            "expected_rank_high": self.expected_rank_interval["high"].tolist(),
            "mode_rank": self.mode_rank.tolist(),
            "p_above": [
                [None if np.isnan(v) else float(v) for v in row]
                for row in self.p_above.to_numpy()
            ],
            "n_datasets": self.n_datasets,
            "greater_is_better": self.greater_is_better,
            "prior": list(self.prior),
            "confidence_level": self.confidence_level,
            "n_tied": self.n_tied,
            "r_hat": self.r_hat,
            "ess": self.ess,
            "divergences": self.divergences,
            "diagnostics": self.diagnostics,
        }


def _check_scores(scores):
    """``(values, learners, datasets)`` of a data sets x learners table."""
    if isinstance(scores, pd.DataFrame):
        learners, datasets = list(scores.columns), list(scores.index)
        obj = scores.to_numpy()
    else:
        obj = scores
        learners = datasets = None
    try:
        values = np.asarray(obj, dtype=float)
    except (TypeError, ValueError):
        raise ValueError("`scores` must hold numbers.") from None
    if values.ndim != 2:
        raise ValueError(
            "`scores` must be two-dimensional (data sets x learners); got "
            f"{values.ndim} dimension(s)."
        )
    n, k = values.shape
    if learners is None:
        learners, datasets = list(range(k)), list(range(n))
    if len(set(learners)) != len(learners):
        raise ValueError("The learners (columns) of `scores` must be unique.")
    if k < 2:
        raise ValueError(f"`scores` must have at least 2 learners (columns); got {k}.")
    if n < 1:
        raise ValueError("`scores` must have at least 1 data set (row).")
    bad = ~np.isfinite(values)
    if bad.any():
        row, col = np.argwhere(bad)[0]
        raise ValueError(
            f"`scores` contains NaN or an infinite value: learner {learners[col]!r} "
            f"on data set {datasets[row]!r} ({int(bad.sum())} in all); the "
            "Plackett–Luce model needs a complete ranking on every data set."
        )
    return values, learners, datasets


_MAX_PRIOR = 1e6  # a larger concentration is no prior a user means
_SMALL = 10_000  # n_datasets x n_learners up to which sweeps are cheap
_DEFAULT_DRAWS = 2500  # per chain, small data
_DEFAULT_DRAWS_LARGE = 1000  # per chain, larger data (faster mixing, costlier sweeps)


def _check_prior(prior, k):
    message = (
        f"`prior` must be a positive number at most {_MAX_PRIOR:g}, or {k} of them "
        f"(one per learner); got {prior!r}."
    )
    if isinstance(prior, str | bytes | bool | np.bool_):
        raise ValueError(message)
    try:
        alpha = np.asarray(prior)
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if alpha.dtype.kind not in "iuf":
        raise ValueError(message)
    alpha = alpha.astype(float)
    if alpha.ndim == 0:
        alpha = np.full(k, float(alpha))
    if (
        alpha.shape != (k,)
        or not (np.isfinite(alpha) & (alpha > 0) & (alpha <= _MAX_PRIOR)).all()
    ):
        raise ValueError(message)
    return alpha


def _orders(values, greater_is_better, rng):
    """Learner indices best first on each data set; ties in random order."""
    key = -values if greater_is_better else values
    tiebreak = rng.random(values.shape)
    order = np.lexsort((tiebreak, key), axis=1)
    sorted_key = np.take_along_axis(key, order, axis=1)
    n_tied = int((np.diff(sorted_key, axis=1) == 0).any(axis=1).sum())
    return order, n_tied


def _gibbs(order, alpha, *, n_chains, n_draws, n_warmup, rng):
    """Posterior draws of the normalised weights, shape (chains, draws, K).

    Caron & Doucet (2012), Section 3.1: with independent Gamma(``alpha_k``, 1)
    priors on the unnormalised weights ``w`` (whose normalisation is
    Dirichlet(``alpha``), the model's prior), each data set ``s`` and position
    ``r < K`` get a latent ``Z_sr ~ Exp(sum_{t >= r} w[o_st])``; given ``Z``,
    ``w_k ~ Gamma(alpha_k + n_k, 1 + sum_{s, r <= p_sk} Z_sr)``, with ``n_k``
    the rankings that place learner ``k`` before the last position and
    ``p_sk`` its position on data set ``s``. Both conditionals are exact. The
    likelihood does not depend on the scale of ``w``, so after each sweep the
    scale is drawn from its posterior, the prior's Gamma(sum alpha, 1), which
    leaves the normalised weights alone and stops the chain from drifting in
    the unidentified direction (without it the draws are biased).

    Arrays are laid out positions x (chains · data sets), so that every
    operation runs over all chains and data sets at once and the sums over
    positions are row additions.
    """
    n, k = order.shape
    m = n_chains * n
    # learner at position r of data set s, offset by chain: shape (K, chains * N)
    learner = (
        np.ascontiguousarray(order.T)[:, None, :]
        + (np.arange(n_chains) * k)[None, :, None]
    ).reshape(k, m)
    bins = learner[:-1].ravel()
    position = np.argsort(order, axis=1)
    shape = alpha + (position < k - 1).sum(axis=0)
    total_shape = float(alpha.sum())
    # over-dispersed starts: independent draws from the prior
    w = rng.standard_gamma(alpha, size=(n_chains, k))
    draws = np.empty((n_chains, n_draws, k))
    remaining = np.empty((k, m))
    z = np.empty((k - 1, m))
    # Row views made once, and take without bounds checks (mode="clip": the
    # indices are valid): a third less time at 50 x 500, the same numbers. The
    # sums by rows stay Python loops of row additions: np.cumsum along axis 0
    # walks the columns and is 3-4 times slower here.
    rem_rows, z_rows, add = list(remaining), list(z), np.add
    for step in range(n_warmup + n_draws):
        # remaining[r] = sum_{t >= r} w[o_t], a reverse cumulative sum by rows
        np.take(w.ravel(), learner, out=remaining, mode="clip")
        for r in range(k - 2, -1, -1):
            add(rem_rows[r], rem_rows[r + 1], out=rem_rows[r])
        rng.standard_exponential(out=z)
        np.divide(z, remaining[:-1], out=z)
        # z[r] <- sum_{r' <= r} Z_r': the rate every learner still unplaced at
        # position r receives
        for r in range(1, k - 1):
            add(z_rows[r], z_rows[r - 1], out=z_rows[r])
        rate = np.bincount(bins, weights=z.ravel(), minlength=n_chains * k)
        rate += np.bincount(learner[-1], weights=z[-1], minlength=n_chains * k)
        w = rng.standard_gamma(shape, size=(n_chains, k)) / (
            1.0 + rate.reshape(n_chains, k)
        )
        w /= w.sum(axis=1, keepdims=True)
        if step >= n_warmup:
            draws[:, step - n_warmup] = w
        w *= rng.standard_gamma(total_shape, size=(n_chains, 1))
    return draws


def _summaries(w, tail):
    """Posterior summaries from weight draws ``w`` of shape (draws, K)."""
    d, k = w.shape
    p_above = np.full((k, k), np.nan)
    p_greater = np.full((k, k), np.nan)
    rank_draws = np.empty((d, k))
    for i in range(k):
        share = w[:, [i]] / (w[:, [i]] + w)  # P(i above j) per draw, j = 0..K-1
        above = share.mean(axis=0)
        above[i] = np.nan
        p_above[i] = above
        greater = (w[:, [i]] > w).mean(axis=0).astype(float)
        greater[i] = np.nan
        p_greater[i] = greater
        rank_draws[:, i] = 1.0 + (1.0 - share).sum(axis=1) - 0.5  # drop j == i
    position = np.argsort(np.argsort(-w, axis=1, kind="stable"), axis=1) + 1
    # rank_probs[i, r - 1]: share of draws that put learner i at position r
    cells = (np.arange(k) * k + position - 1).ravel()
    rank_probs = np.bincount(cells, minlength=k * k).reshape(k, k) / d
    return {
        "p_first": w.mean(axis=0),
        "p_first_low": np.quantile(w, tail, axis=0),
        "p_first_high": np.quantile(w, 1 - tail, axis=0),
        "expected_rank": rank_draws.mean(axis=0),
        "rank_low": np.quantile(rank_draws, tail, axis=0),
        "rank_high": np.quantile(rank_draws, 1 - tail, axis=0),
        "mode_rank": position.mean(axis=0),
        "rank_probabilities": rank_probs,
        "p_above": p_above,
        "p_greater": p_greater,
    }


def bayesian_plackett_luce(
    scores,
    *,
    greater_is_better,
    prior=1.0,
    n_chains=4,
    n_draws=None,
    n_warmup=200,
    confidence_level=0.95,
    random_state=None,
):
    """Bayesian Plackett–Luce model of the rankings of K learners over data sets.

    Calvo, Ceberio & Lozano (2018, GECCO companion, "Bayesian inference for
    algorithm ranking analysis"; Calvo et al. 2019), as scmamp's
    ``bPlackettLuceModel``: on each data set the learners are ranked (rank 1 =
    best), and the rankings are modelled as independent draws from one
    Plackett–Luce distribution with weights ``w`` on the simplex: the
    probability of the ranking ``o_1, ..., o_K`` (best first) is
    ``prod_r w[o_r] / (w[o_r] + ... + w[o_K])``. The prior on ``w`` is
    Dirichlet(``prior``). The posterior is sampled exactly by Caron & Doucet's
    (2012) Gibbs sampler, in NumPy (no optional dependency).

    The weights answer questions about a *new* data set like the ones studied:
    ``w_i`` is the probability that learner ``i`` ranks first on it,
    ``w_i / (w_i + w_j)`` that ``i`` ranks above ``j``, and
    ``1 + sum_{j != i} w_j / (w_i + w_j)`` is ``i``'s expected position. The
    result gives the posterior mean and credible interval of each, and the
    posterior probability that ``w_i`` is the largest (``p_best``).

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_datasets, n_learners)
        One row per data set (e.g. the learners' mean performance on it), one
        column per learner; a DataFrame's columns name the learners.
    greater_is_better : bool
        Whether a higher score ranks first (accuracy) or a lower one (error
        rate; scmamp's ``min=TRUE``). Required.
    prior : float or array-like of shape (n_learners,), default=1.0
        Concentration of the Dirichlet prior on the weights, one number for all
        learners or one per learner, each in ``(0, 1e6]`` (scmamp's ``prior``,
        default all 1: uniform on the simplex, so that the posterior mode is the
        maximum-likelihood estimate).
    n_chains : int, default=4
        Independent chains, started from draws of the prior (R-hat compares
        them).
    n_draws : int, default=None
        Posterior draws per chain after ``n_warmup`` sweeps (``n_samples``
        before 0.2). ``None``: 2500 when ``n_datasets · n_learners`` is at most
        10,000 (a sweep costs microseconds there, and a learner that wins
        almost everywhere mixes slowly: an effective sample size of 0.2 to 0.4
        times the draws), else 1000 (larger data mix better, 0.5 to 0.7 times
        the draws, and a sweep costs ``n_datasets · n_learners`` exponential
        draws per chain). Either gives a Monte Carlo error of the weights'
        means well below their posterior standard deviation / 30.
    n_warmup : int, default=200
        Sweeps discarded at the start of each chain.
    confidence_level : float, default=0.95
        Level of the equal-tailed credible intervals.
    random_state : int, Generator, RandomState or None, default=None
        Seeds the sampler and the breaking of ties: the same seed gives the same
        numbers.

    Returns
    -------
    PlackettLuceResult
        ``p_first``, ``p_best``, ``expected_rank`` with
        ``expected_rank_interval``, ``mode_rank``, ``rank_probabilities``,
        ``p_above`` (every pair), the posterior weight draws (``weights``) and
        the diagnostics (``r_hat``, ``ess``, ``diagnostics_ok``,
        ``diagnostics`` in words). Poor diagnostics (R-hat > 1.01, ESS < 100
        per chain) make the result decline (``best()`` gives ``"unreliable
        fit"``) and raise one :class:`RuntimeWarning` that says so.

    Raises
    ------
    ValueError
        For fewer than 2 learners, no data set, NaN or infinite scores (the
        message names the learner and the data set), a non-positive prior.

    Notes
    -----
    **Ties.** The Plackett–Luce model has no ties. As scmamp (R's
    ``rank(ties.method = "random")``), tied learners on a data set are put in
    a random order, drawn from ``random_state``; ``n_tied`` counts the data
    sets where this happened. With many ties the results vary with the seed
    by more than the Monte Carlo error: compare a few seeds.

    **Scores to rankings.** Only each data set's order of the learners enters
    the model, not the size of the differences; a difference of 0.0001 ranks
    as much as one of 0.1 (use the hierarchical model,
    :func:`bayesian_hierarchical`, for sizes).

    **Sampling.** Caron & Doucet (2012, Section 3.1): a Gamma(``prior``, 1)
    prior on unnormalised weights, whose normalisation is the Dirichlet prior
    of the model, and one exponential latent variable per data set and
    position make both full conditionals exact (Gamma and exponential); the
    scale of the weights, which the likelihood does not see, is redrawn from
    its prior after every sweep. One sweep costs O(n_datasets · n_learners)
    for all chains at once. The Monte Carlo standard error of a posterior
    mean is about its posterior standard deviation over ``sqrt(ess)``;
    ``details`` has ``weights_sd`` and ``p_greater`` (the posterior
    probability that ``w_i > w_j``) besides.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench.stats import bayesian_plackett_luce
    >>> rng = np.random.default_rng(0)
    >>> errors = pd.DataFrame(
    ...     rng.uniform(0.1, 0.3, (15, 1)) + [0.0, 0.02, 0.05]
    ...     + rng.normal(0, 0.01, (15, 3)), columns=["A", "B", "C"])
    >>> res = bayesian_plackett_luce(errors, greater_is_better=False,
    ...                              random_state=0)
    >>> res.expected_rank.round(1).to_dict()
    {'A': 1.2, 'B': 1.9, 'C': 2.9}
    >>> res.best()
    'A'
    >>> float(round(res.p_above.loc["A", "C"], 2))
    0.98
    """
    values, learners, _ = _check_scores(scores)
    greater_is_better = bool(_direction(greater_is_better))
    n, k = values.shape
    alpha = _check_prior(prior, k)
    level = _mcmc.interval_level(confidence_level)
    n_chains = _mcmc.count(n_chains, "n_chains")
    if n_draws is None:
        n_draws = _DEFAULT_DRAWS if n * k <= _SMALL else _DEFAULT_DRAWS_LARGE
    n_draws = _mcmc.count(n_draws, "n_draws")
    n_warmup = _mcmc.count(n_warmup, "n_warmup", minimum=0)
    seed, rng = _mcmc.seed(random_state)
    order, n_tied = _orders(values, greater_is_better, rng)

    grouped = _gibbs(
        order, alpha, n_chains=n_chains, n_draws=n_draws, n_warmup=n_warmup, rng=rng
    )
    r_hat = _mcmc.split_rhat(grouped) if n_chains > 1 else 1.0
    ess = _mcmc.effective_sample_size(grouped)
    divergences = 0
    diagnostics_ok, diagnostics = _mcmc.diagnostics(
        r_hat,
        ess,
        divergences,
        n_chains,
        name=f"Plackett–Luce ranking of {k} learners",
        sampler="Gibbs",
    )
    w = grouped.reshape(-1, k)
    tail = (1 - level) / 2
    s = _summaries(w, tail)
    index = pd.Index(learners, name="learner")
    interval = {"low": s["p_first_low"], "high": s["p_first_high"]}
    rank_interval = {"low": s["rank_low"], "high": s["rank_high"]}
    p_best = pd.Series(s["rank_probabilities"][:, 0], index=index, name="P(best)")
    direction = "highest" if greater_is_better else "lowest"
    top = p_best.idxmax()
    uniform = bool(np.all(alpha == alpha[0]))
    prior_words = (
        f"Dirichlet({alpha[0]:g}) prior"
        if uniform
        else "Dirichlet(" + ", ".join(f"{a:g}" for a in alpha) + ") prior"
    )
    ties = f"; ties on {n_tied} data set(s) broken at random" if n_tied else ""
    description = (
        f"Bayesian Plackett–Luce model (Calvo et al. 2018) of the rankings of "
        f"{k} learners on {n} data sets (rank 1 = {direction} score{ties}), "
        f"{prior_words} on the weights, {w.shape[0]} Gibbs draws (Caron & Doucet "
        f"2012; {n_chains} chains). On a new data set {top!r} ranks first with "
        f"probability {s['p_first'][learners.index(top)]:.3f}; the posterior "
        f"probability that it is the learner most likely to rank first is "
        f"{p_best[top]:.3f}. " + diagnostics
    )
    details = {
        "weights_sd": w.std(axis=0),
        "p_greater": pd.DataFrame(s["p_greater"], index=index, columns=learners),
        "orders": order,
        "n_draws": w.shape[0],
        "n_chains": n_chains,
        "sampler": "gibbs",
        "seed": seed,
    }
    return PlackettLuceResult(
        p_first=pd.Series(s["p_first"], index=index, name="P(first)"),
        p_first_interval=pd.DataFrame(interval, index=index),
        p_best=p_best,
        expected_rank=pd.Series(s["expected_rank"], index=index, name="expected rank"),
        expected_rank_interval=pd.DataFrame(rank_interval, index=index),
        mode_rank=pd.Series(s["mode_rank"], index=index, name="mode rank"),
        rank_probabilities=pd.DataFrame(
            s["rank_probabilities"], index=index, columns=range(1, k + 1)
        ),
        p_above=pd.DataFrame(s["p_above"], index=index, columns=learners),
        n_datasets=n,
        n_learners=k,
        greater_is_better=greater_is_better,
        prior=tuple(float(a) for a in alpha),
        confidence_level=level,
        n_tied=n_tied,
        r_hat=r_hat,
        ess=ess,
        divergences=divergences,
        diagnostics_ok=diagnostics_ok,
        diagnostics=diagnostics,
        description=description,
        details=details,
        _weights=w,
    )
