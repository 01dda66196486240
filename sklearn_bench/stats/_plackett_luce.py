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

from .._validation import check_positive_int
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
        Posterior mean of ``w_i`` (scmamp's ``expected.win.prob``).
    p_first_interval, expected_rank_interval : DataFrame
        Columns ``low``, ``high``: equal-tailed credible intervals.
    p_best : Series
        Posterior probability that ``w_i`` is the largest weight.
    expected_rank : Series
        Posterior mean of ``1 + sum_{j != i} w_j / (w_i + w_j)``, learner ``i``'s
        expected position (1 = best) on a new data set.
    mode_rank : Series
        Posterior mean of ``i``'s position in the most probable ranking (the
        learners ordered by weight; scmamp's ``expected.mode.rank``).
    rank_probabilities : DataFrame
        Learners x positions ``1 ... K``: the posterior probability that ``i``
        holds position ``r`` in the most probable ranking (rows sum to 1).
    p_above : DataFrame
        Learners x learners: the posterior mean of ``w_i / (w_i + w_j)``
        (diagonal NaN; ``p_above + p_above.T = 1``).
    n_datasets, n_learners : int
    greater_is_better : bool
    prior : tuple of float
        The Dirichlet concentration of each learner.
    confidence_level : float
    n_tied : int
        Data sets whose ranking had ties, broken at random.
    r_hat, ess : float
        Largest split R-hat and smallest effective sample size of the weights.
    diagnostics_ok : bool
        Whether the fit may decide (R-hat <= 1.01, ESS >= 100 per chain);
        otherwise :meth:`best` declines (``"unreliable fit"``).
    diagnostics, description : str
        The diagnostics, and the model, data and main result, in words.

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
        """Posterior draws of the weights, (draws, learners), chains stacked."""
        return pd.DataFrame(self._weights.copy(), columns=self.p_first.index)

    def best(self, threshold=0.95):
        """The learner whose weight is the largest with posterior probability at
        least ``threshold``, or ``None``; ``"unreliable fit"`` when
        :attr:`diagnostics_ok` is False.

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
        frame = pd.concat(
            [
                self.p_first,
                self.p_first_interval.add_prefix("P(first) "),
                self.p_best,
                self.expected_rank,
                self.expected_rank_interval.add_prefix("rank "),
                self.mode_rank,
            ],
            axis=1,
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
    try:
        alpha = np.broadcast_to(np.asarray(prior), (k,))
    except (TypeError, ValueError):
        raise ValueError(message) from None
    if (
        alpha.dtype.kind not in "iuf"
        or not (np.isfinite(alpha) & (alpha > 0) & (alpha <= _MAX_PRIOR)).all()
    ):
        raise ValueError(message)
    return alpha.astype(float)


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
    # row views made once and take without bounds checks (mode="clip"): a third
    # less time at 50 x 500; np.cumsum along axis 0 is 3-4 times slower than
    # these loops of row additions
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


def _summaries(w, level, learners):
    """The result's posterior summaries (fields by name) from weight draws ``w``
    of shape (draws, K), and ``P(w_i > w_j)``."""
    d, k = w.shape
    p_above, p_greater = np.empty((k, k)), np.empty((k, k))
    rank_draws = np.empty((d, k))
    for i in range(k):
        share = w[:, [i]] / (w[:, [i]] + w)  # P(i above j) per draw, j = 0..K-1
        p_above[i] = share.mean(axis=0)
        p_greater[i] = (w[:, [i]] > w).mean(axis=0)
        rank_draws[:, i] = 1.0 + (1.0 - share).sum(axis=1) - 0.5  # drop j == i
    np.fill_diagonal(p_above, np.nan)
    np.fill_diagonal(p_greater, np.nan)
    position = np.argsort(np.argsort(-w, axis=1, kind="stable"), axis=1) + 1
    # rank_probs[i, r - 1]: share of draws that put learner i at position r
    cells = (np.arange(k) * k + position - 1).ravel()
    rank_probs = np.bincount(cells, minlength=k * k).reshape(k, k) / d
    index = pd.Index(learners, name="learner")
    tails = [(1 - level) / 2, (1 + level) / 2]

    def interval(draws):
        return pd.DataFrame(np.quantile(draws, tails, axis=0).T, index, ["low", "high"])

    def frame(values, columns=learners):
        return pd.DataFrame(values, index=index, columns=columns)

    return {
        "p_first": pd.Series(w.mean(axis=0), index, name="P(first)"),
        "p_first_interval": interval(w),
        "p_best": pd.Series(rank_probs[:, 0], index, name="P(best)"),
        "expected_rank": pd.Series(rank_draws.mean(0), index, name="expected rank"),
        "expected_rank_interval": interval(rank_draws),
        "mode_rank": pd.Series(position.mean(axis=0), index, name="mode rank"),
        "rank_probabilities": frame(rank_probs, range(1, k + 1)),
        "p_above": frame(p_above),
    }, frame(p_greater)


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
        Independent chains, started from draws of the prior.
    n_draws : int, default=None
        Posterior draws per chain after ``n_warmup`` sweeps. ``None``: 2500 when
        ``n_datasets · n_learners`` is at most 10,000 (a learner that wins
        almost everywhere mixes slowly: an ESS of 0.2 to 0.4 per draw), else
        1000 (0.5 to 0.7 per draw, and costlier sweeps). Either gives a Monte
        Carlo error of the weights' means below their posterior sd / 30.
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

    **Sampling.** Caron & Doucet's (2012, Section 3.1) exact Gibbs sweeps, each
    O(n_datasets · n_learners) for all chains at once. The Monte Carlo error
    of a posterior mean is about its posterior sd over ``sqrt(ess)``;
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
    n_chains = check_positive_int(n_chains, "n_chains")
    if n_draws is None:
        n_draws = _DEFAULT_DRAWS if n * k <= _SMALL else _DEFAULT_DRAWS_LARGE
    n_draws = check_positive_int(n_draws, "n_draws")
    n_warmup = check_positive_int(n_warmup, "n_warmup", minimum=0)
    seed, rng = _mcmc.seed(random_state)
    order, n_tied = _orders(values, greater_is_better, rng)

    grouped = _gibbs(
        order, alpha, n_chains=n_chains, n_draws=n_draws, n_warmup=n_warmup, rng=rng
    )
    r_hat = _mcmc.split_rhat(grouped) if n_chains > 1 else 1.0
    ess = _mcmc.effective_sample_size(grouped)
    diagnostics_ok, diagnostics = _mcmc.diagnostics(
        r_hat,
        ess,
        0,
        n_chains,
        name=f"Plackett–Luce ranking of {k} learners",
        sampler="Gibbs",
    )
    w = grouped.reshape(-1, k)
    fields, p_greater = _summaries(w, level, learners)
    top = fields["p_best"].idxmax()
    same = bool(np.all(alpha == alpha[0]))
    prior_words = ", ".join(f"{a:g}" for a in (alpha[:1] if same else alpha))
    ties = f"; ties on {n_tied} data set(s) broken at random" if n_tied else ""
    description = (
        f"Bayesian Plackett–Luce model (Calvo et al. 2018) of the rankings of "
        f"{k} learners on {n} data sets (rank 1 = "
        f"{'highest' if greater_is_better else 'lowest'} score{ties}), "
        f"Dirichlet({prior_words}) prior on the weights, {w.shape[0]} Gibbs draws "
        f"(Caron & Doucet 2012; {n_chains} chains). On a new data set {top!r} ranks "
        f"first with probability {fields['p_first'][top]:.3f}; the posterior "
        f"probability that it is the learner most likely to rank first is "
        f"{fields['p_best'][top]:.3f}. " + diagnostics
    )
    details = {
        "weights_sd": w.std(axis=0),
        "p_greater": p_greater,
        "orders": order,
        "n_draws": w.shape[0],
        "n_chains": n_chains,
        "sampler": "gibbs",
        "seed": seed,
    }
    return PlackettLuceResult(
        **fields,
        n_datasets=n,
        n_learners=k,
        greater_is_better=greater_is_better,
        prior=tuple(float(a) for a in alpha),
        confidence_level=level,
        n_tied=n_tied,
        r_hat=r_hat,
        ess=ess,
        diagnostics_ok=diagnostics_ok,
        diagnostics=diagnostics,
        description=description,
        details=details,
        _weights=w,
    )
