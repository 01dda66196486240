"""The Bayesian hierarchical model of two learners over several data sets.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), "Statistical comparison of
classifiers through Bayesian hierarchical modelling", Machine Learning 106, as
baycomp's ``HierarchicalTest`` (its Stan program ``hierarchical-t-test.stan``),
with the per-data-set means integrated out (:func:`_potential`). Sampled with
NumPyro's NUTS, an optional dependency imported only when a model is fitted.
"""

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_bool, check_positive_int
from . import _mcmc
from ._bayesian import (
    BayesianTestResult,
    _check_labels,
    _fmt,
    _probability_words,
    _rope_words,
    _winner_probabilities,
)
from ._common import real_number


@dataclass(frozen=True)
class HierarchicalTestResult(BayesianTestResult):
    """Result of :func:`bayesian_hierarchical`: a :class:`BayesianTestResult`
    that declines to decide when the sampler's diagnostics fail.

    :attr:`decision` is ``"unreliable fit"`` when ``details["diagnostics_ok"]``
    is False (R-hat above 1.01, an effective sample size below 100 per chain or
    a divergent transition left after the sampler's retries);
    ``details["diagnostics"]`` says which.

    Examples
    --------
    50 draws per chain are too few for the diagnostics, so the fit warns and
    declines to decide (:func:`bayesian_hierarchical` shows a reliable fit of
    the same data):

    >>> import numpy as np
    >>> from sklearn_bench.stats import bayesian_hierarchical
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(0.7, 0.9, (6, 1)) + rng.normal(0, 0.02, (6, 10))
    >>> x = y + 0.04 + rng.normal(0, 0.01, (6, 10))
    >>> res = bayesian_hierarchical(x, y, delta=0.01, rho=0.1, random_state=0,
    ...                             greater_is_better=True, n_draws=50)
    >>> res.reliable, res.decision
    (False, 'unreliable fit')
    >>> print(res.details["diagnostics"])
    Sampler diagnostics of the hierarchical model of x − y are poor (NUTS): ...
    """

    @property
    def reliable(self):
        """Whether the sampler's diagnostics allow the fit to decide."""
        return bool(self.details.get("diagnostics_ok", True))

    def decide(self, threshold=0.95):
        """As :meth:`BayesianTestResult.decide`, or ``"unreliable fit"``."""
        verdict = super().decide(threshold)
        return verdict if self.reliable else _mcmc.UNRELIABLE

    def to_dict(self, threshold=0.95):
        """As :meth:`BayesianTestResult.to_dict`, with the diagnostics."""
        out = super().to_dict(threshold)
        out["diagnostics_ok"] = self.reliable
        out["diagnostics"] = self.details.get("diagnostics", "")
        return out


def _params(z, bounds, xp):
    """The model's parameters from unconstrained draws ``z`` (last axis): logits
    of ``δ0``, ``σ0``, ``a``, ``b`` within their uniform priors' bounds,
    ``log(ν − 1)``, the ``η_i`` and the logits of the ``σ_i`` (NumPyro's
    transforms of these priors); ``xp`` is ``numpy`` or ``jax.numpy``."""
    delta_hi, std0_hi, std_hi, alpha_lo, alpha_hi, beta_lo, beta_hi = bounds
    q = (z.shape[-1] - 5) // 2
    s = (1.0 + xp.tanh(z[..., :4] / 2.0)) / 2.0  # the logistic function
    nu = 1.0 + xp.exp(z[..., 4])
    # E log λ = ψ(ν/2) − log(ν/2) and sd(log λ) = sqrt(ψ'(ν/2)) for λ ~
    # Gamma(ν/2, ν/2), by their asymptotic series (within 3% for ν >= 1): any
    # smooth centre and scale keep the change of variables exact (its Jacobian
    # is in _potential), and the series cost a fraction of the polygamma
    inv = 1.0 / nu
    log_sd = xp.sqrt(2.0 * inv + 2.0 * inv**2 + 4.0 * inv**3 / 3.0)
    log_mean = -inv - inv**2 / 3.0
    return {
        "delta0": delta_hi * (2.0 * s[..., 0] - 1.0),
        "std0": std0_hi * s[..., 1],
        "alpha": alpha_lo + (alpha_hi - alpha_lo) * s[..., 2],
        "beta": beta_lo + (beta_hi - beta_lo) * s[..., 3],
        "nu": nu,
        "log_sd": log_sd,
        "log_lam": log_mean[..., None] + log_sd[..., None] * z[..., 5 : 5 + q],
        "sigma": std_hi * (1.0 + xp.tanh(z[..., 5 + q :] / 2.0)) / 2.0,
    }


def _potential(z, mean, ss, n, rho, bounds):
    """Minus the log posterior density of baycomp's model with the δ_i
    integrated out, in the coordinates ``z`` of :func:`_params`.

    baycomp: ``δ_i ~ t_ν(δ0, σ0)`` and the n fold differences of data set i
    multivariate normal with mean δ_i, variance σ_i² and correlation rho. In the
    data set's mean x̄_i and sum of squares SS_i that likelihood is
    ``σ_i^−(n−1) exp(−SS_i / (2 (1 − rho) σ_i²)) · N(x̄_i; δ_i, c σ_i²)``,
    ``c = (1 + (n − 1) rho) / n`` (up to a constant). The Student t is a scale
    mixture, ``δ_i | λ_i ~ N(δ0, σ0² / λ_i)``, ``λ_i ~ Gamma(ν/2, ν/2)``, so δ_i
    integrates out: ``x̄_i | λ_i ~ N(δ0, σ0² / λ_i + c σ_i²)``. This removes the
    funnel between σ0 and the δ_i that made both the centred and the non-centred
    forms diverge. ``log λ_i`` is sampled standardised by its prior mean and sd
    given ν (``η_i``), which removes the funnel between ν and the λ_i. The δ_i
    are drawn afterwards from their exact conditional (:func:`_delta_draws`).
    """
    import jax.numpy as jnp
    from jax.scipy.special import gammaln

    p = _params(z, bounds, jnp)
    logits = jnp.concatenate([z[:4], z[5 + mean.shape[0] :]])
    # log density of a uniform prior in its logit u: log σ(u) + log σ(−u)
    lp = jnp.sum(logits - 2.0 * jnp.logaddexp(0.0, logits))
    # ν − 1 ~ Gamma(a, b) in its log v
    a, b, v = p["alpha"], p["beta"], z[4]
    lp += a * jnp.log(b) - gammaln(a) + a * v - b * jnp.exp(v)
    # λ_i ~ Gamma(ν/2, ν/2) in η_i: log λ_i and log sd(log λ_i) are the Jacobian
    half, log_lam = p["nu"] / 2.0, p["log_lam"]
    lp += jnp.sum(
        half * jnp.log(half) - gammaln(half) + half * (log_lam - jnp.exp(log_lam))
    ) + mean.shape[0] * jnp.log(p["log_sd"])
    sigma = p["sigma"]
    spread2 = (
        p["std0"] ** 2 * jnp.exp(-log_lam) + (1.0 + (n - 1.0) * rho) / n * sigma**2
    )
    lp += jnp.sum(
        -(n - 1.0) * jnp.log(sigma)
        - 0.5 * ss / ((1.0 - rho) * sigma**2)
        - 0.5 * jnp.log(spread2)
        - 0.5 * (mean - p["delta0"]) ** 2 / spread2
    )
    return -lp


def _delta_draws(draws, mean, n, rho, rng):
    """Draws of each δ_i from its conditional given the other parameters.

    ``δ_i | λ_i, σ_i, δ0, σ0, x̄_i`` is normal: precision ``λ_i / σ0² + 1 /
    (c σ_i²)``, mean the precision-weighted average of δ0 and x̄_i.
    """
    c = (1.0 + (n - 1.0) * rho) / n
    prior_prec = draws["lam"] / draws["std0"][:, None] ** 2
    data_prec = 1.0 / (c[None, :] * draws["sigma"] ** 2)
    var = 1.0 / (prior_prec + data_prec)
    centre = var * (prior_prec * draws["delta0"][:, None] + data_prec * mean[None, :])
    return centre + np.sqrt(var) * rng.standard_normal(centre.shape)


def _check_matrix(x, y):
    try:
        x, y = np.asarray(x, dtype=float), np.asarray(y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"`x` and `y` must be numeric arrays: {exc}") from None
    if x.ndim != 2 or x.shape != y.shape or x.shape[0] < 1 or x.shape[1] < 2:
        raise ValueError(
            "`x` and `y` must be 2-D arrays of the same shape (data sets x fold "
            "scores), with at least 1 data set and 2 fold scores; got shapes "
            f"{x.shape} and {y.shape}."
        )
    bad = ~(np.isfinite(x) & np.isfinite(y))
    if bad.any():
        rows = np.unique(np.nonzero(bad)[0]).tolist()
        raise ValueError(
            f"`x` and `y` contain NaN or infinite scores (data set rows {rows}); "
            "drop or impute them first."
        )
    return x, y


def _check_rho(rho, q):
    try:
        rho_arr = np.broadcast_to(np.asarray(rho, dtype=float), (q,)).copy()
    except (TypeError, ValueError):
        raise ValueError(
            f"`rho` must be a number in [0, 1) or one per data set ({q}); got {rho!r}."
        ) from None
    if not (np.isfinite(rho_arr) & (rho_arr >= 0) & (rho_arr < 1)).all():
        raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
    return rho_arr


# The largest Monte Carlo standard error of a probability, sqrt(p (1 − p) / ESS)
# <= 0.5 / sqrt(ESS), is MC_ERROR when the effective sample size is 0.25 /
# MC_ERROR² = 2,500. This sampler gives about 0.625 of an effective draw per draw
# (the median smallest bulk ESS over the reference cases at 4 x 1000: 0.51 to
# 0.69), hence the default draws per chain (of the default 4 chains).
MC_ERROR = 0.01
N_DRAWS = math.ceil(0.25 / MC_ERROR**2 / 0.625 / 4)  # 1000


def bayesian_hierarchical(
    x,
    y,
    *,
    delta,
    rho,
    lower_alpha=1.0,
    upper_alpha=2.0,
    lower_beta=0.01,
    upper_beta=0.1,
    upper_sigma=1000.0,
    n_chains=4,
    n_draws=N_DRAWS,
    n_warmup=500,
    confidence_level=0.95,
    random_state=None,
    labels=("x", "y"),
    greater_is_better,
):
    """Bayesian hierarchical comparison of two learners over several data sets.

    Corani, Benavoli, Demšar, Mangili & Zaffalon (2017, Machine Learning 106),
    as baycomp's ``HierarchicalTest``. On data set ``i`` the ``n`` fold
    differences ``d_i = x_i − y_i`` are multivariate normal with mean ``δ_i``,
    variance ``σ_i²`` and correlation ``rho`` between any two folds (Nadeau &
    Bengio's overlap). The ``δ_i`` are drawn from a Student t with location
    ``δ0``, scale ``σ0`` and ``ν`` degrees of freedom, so each data set's
    difference is shrunk towards the others. Priors (baycomp's, on the
    standardised differences, see Notes): ``δ0 ~ U(−max|d|, max|d|)``,
    ``σ0 ~ U(0, upper_sigma · sd(d̄_i))``, ``σ_i ~ U(0, upper_sigma ·
    mean_i sd(d_i))``, ``ν − 1 ~ Gamma(a, b)`` (rate ``b``) with
    ``a ~ U(lower_alpha, upper_alpha)``, ``b ~ U(lower_beta, upper_beta)``.

    For each posterior draw the Student t of the *next* data set's difference
    gives the probabilities of the three regions ``δ > rope``, ``|δ| <= rope``,
    ``δ < −rope``; ``p_greater``, ``p_rope``, ``p_less`` are the shares of
    draws in which that region is the most probable (baycomp's
    ``Posterior.probs``), and ``details["mean_probabilities"]`` are the
    posterior means of the three region probabilities (the posterior
    predictive probabilities). The posterior is sampled with NumPyro's NUTS.

    Parameters
    ----------
    x, y : array-like of shape (n_datasets, n_scores)
        Fold (or split) scores of two learners: one row per data set, the same
        folds in the same columns of ``x`` and ``y``.
    delta : float
        The smallest difference that matters: half-width of the region of
        practical equivalence (ROPE), in the scores' units (the result's
        ``rope``).
    rho : float or array-like of shape (n_datasets,)
        Correlation of two fold differences, in ``[0, 1)``: ``n_test / n`` of one
        split (baycomp's ``1 / n_folds`` = ``runs / n_scores`` for k-fold); one
        per data set if their splits differ.
    lower_alpha, upper_alpha, lower_beta, upper_beta : float, default=1, 2, 0.01, 0.1
        Bounds of the uniform hyperpriors of the shape and rate of the gamma
        prior on ``ν − 1`` (Corani et al. 2017, Section 4; baycomp's defaults).
    upper_sigma : float, default=1000
        The upper bounds of ``σ_i`` and ``σ0`` as multiples of the mean
        within-data-set standard deviation and of the standard deviation of the
        data-set means.
    n_chains : int, default=4
    n_draws : int, default=1000
        Posterior draws per chain after ``n_warmup`` adaptation steps. The
        default gives 4 chains an effective sample size of about 2,500: a Monte
        Carlo standard error of each probability of at most about 0.01
        (``details["standard_errors"]`` has the fit's own).
    n_warmup : int, default=500
    confidence_level : float, default=0.95
        Level of the equal-tailed credible intervals of the ``δ_i``.
    random_state : int, Generator, RandomState or None, default=None
        Seeds the sampler (and the jitter of zero-variance rows, see Notes): the
        same seed gives the same draws on the same machine.
    labels : tuple of two str, default=("x", "y")
    greater_is_better : bool
        Whether larger scores are better; decides which probability belongs to
        which label. Required.

    Returns
    -------
    HierarchicalTestResult
        ``method="hierarchical"``, ``n`` the number of data sets,
        :attr:`~BayesianTestResult.samples` the per-draw region probabilities of
        the next data set (shape ``(n_chains · n_draws, 3)``), and ``details``
        with ``mean_probabilities``; ``datasets`` (posterior mean, credible
        interval of each shrunken ``δ_i`` in the scores' units, and the raw mean
        difference); ``delta0``, ``std0``, ``nu`` posterior means; ``r_hat``
        (largest split R-hat), ``ess`` (smallest effective sample size),
        ``divergences``; ``diagnostics_ok`` and ``diagnostics`` in words. Poor
        diagnostics (R-hat > 1.01, ESS < 100 per chain, any divergent transition
        left after one retry at ``target_accept_prob=0.99``) make the result
        decline (``decision`` is ``"unreliable fit"``) and raise one
        :class:`RuntimeWarning` that names the comparison.

    Raises
    ------
    ImportError
        Without the optional back end: install it with
        ``pip install "sklearn-bench[bayes]"``.

    Notes
    -----
    As baycomp, the differences are divided by the mean over data sets of their
    standard deviation (``ddof=0``) before sampling, the ROPE likewise; all
    results are reported back in the scores' units. A data set whose differences
    are all equal to ``c`` gets, as in baycomp, ``c ± u`` with ``u`` uniform in
    the (standardised) ROPE, half of the folds each sign (baycomp replaces the
    row by ``±u``, i.e. drops ``c``: the same when ``c = 0``, the case it is
    meant for); with ``rope = 0`` this is impossible and raises ``ValueError``,
    as do all data sets of zero variance. The per-data-set means ``δ_i`` are
    integrated out of the sampled posterior and drawn afterwards from their
    exact conditional, which samples without the divergences of baycomp's
    parametrisation. NumPyro works in 32-bit floats (JAX's default).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import bayesian_hierarchical
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(0.7, 0.9, (6, 1)) + rng.normal(0, 0.02, (6, 10))
    >>> x = y + 0.04 + rng.normal(0, 0.01, (6, 10))
    >>> res = bayesian_hierarchical(x, y, delta=0.01, rho=0.1, random_state=0,
    ...                             labels=("A", "B"), greater_is_better=True)
    >>> res.decision
    'A'
    >>> len(res.details["datasets"])
    6
    """
    x, y = _check_matrix(x, y)
    greater_is_better = check_bool(greater_is_better, "greater_is_better")
    rope = real_number(delta, "delta")
    if not (np.isfinite(rope) and rope >= 0):
        raise ValueError(f"`delta` must be a non-negative number; got {rope!r}.")
    q, n = x.shape
    rho_arr = _check_rho(rho, q)
    priors = {
        "lower_alpha": lower_alpha,
        "upper_alpha": upper_alpha,
        "lower_beta": lower_beta,
        "upper_beta": upper_beta,
        "upper_sigma": upper_sigma,
    }
    for name, value in priors.items():
        priors[name] = real_number(value, name)
        if not (np.isfinite(priors[name]) and priors[name] > 0):
            raise ValueError(f"`{name}` must be a positive number; got {value!r}.")
    for bound in ("alpha", "beta"):
        if not priors[f"lower_{bound}"] < priors[f"upper_{bound}"]:
            raise ValueError(f"`lower_{bound}` must be smaller than `upper_{bound}`.")
    level = _mcmc.interval_level(confidence_level)
    n_chains = check_positive_int(n_chains, "n_chains")
    n_draws = check_positive_int(n_draws, "n_draws")
    n_warmup = check_positive_int(n_warmup, "n_warmup", minimum=0)
    labels = _check_labels(labels)
    seed, rng = _mcmc.seed(random_state)
    diff = x - y
    scale = float(np.mean(np.std(diff, axis=1)))
    if scale == 0:
        raise ValueError(
            "The differences x − y are constant within every data set: the "
            "hierarchical model has no within-data-set variance to work with; use "
            "bayesian_signed_rank on the per-data-set means instead."
        )
    d = diff / scale
    srope = rope / scale
    flat = np.nonzero(np.var(d, axis=1) == 0)[0]
    if flat.size and rope == 0:
        raise ValueError(
            f"Data set rows {flat.tolist()} have constant differences x − y and "
            "rope = 0: baycomp's jitter within the ROPE is impossible; give rope > 0."
        )
    for i in flat:
        u = rng.uniform(-srope, srope, n // 2)
        d[i] = d[i, 0] + np.r_[u, -u, [0.0] * (n % 2)]  # baycomp: 0 + jitter
    std_within = float(np.mean(np.std(d, axis=1)))
    std_among = float(np.std(np.mean(d, axis=1))) if q > 1 else std_within
    row_mean = d.mean(axis=1)
    row_ss = ((d - row_mean[:, None]) ** 2).sum(axis=1)
    bounds = (
        float(np.max(np.abs(d))),
        (std_among or std_within) * priors["upper_sigma"],
        std_within * priors["upper_sigma"],
        *(
            priors[k]
            for k in ("lower_alpha", "upper_alpha", "lower_beta", "upper_beta")
        ),
    )
    z, divergences, retried = _mcmc.nuts(
        _potential,
        5 + 2 * q,
        (row_mean, row_ss, float(n), rho_arr, bounds),
        seed=seed,
        n_chains=n_chains,
        n_draws=n_draws,
        n_warmup=n_warmup,
    )
    p = _params(z, bounds, np)
    p["lam"] = np.exp(p["log_lam"])
    checked = np.dstack([p[k] for k in ("delta0", "std0", "nu", "lam", "sigma")])
    r_hat = _mcmc.split_rhat(checked) if n_chains > 1 else 1.0
    ess = _mcmc.effective_sample_size(checked)
    p = {k: v.reshape((-1,) + v.shape[2:]) for k, v in p.items()}
    mu, std0, nu = p["delta0"], p["std0"], p["nu"]
    from scipy import special

    # scipy.stats.t.sf(srope, nu, mu, std0) and .cdf(-srope, ...), bit for bit,
    # without importing scipy.stats (a second in a fresh process)
    thetas = np.empty((mu.size, 3))
    thetas[:, 0] = special.stdtr(nu, -((srope - mu) / std0))
    thetas[:, 2] = special.stdtr(nu, (-srope - mu) / std0)
    thetas[:, 1] = 1.0 - thetas[:, 0] - thetas[:, 2]
    probs = _winner_probabilities(thetas)
    p_greater, p_rope, p_less = (float(v) for v in probs)
    n_total = thetas.shape[0]
    ses = tuple(
        float(np.sqrt(v * (1 - v) / min(n_total, max(ess, 1.0)))) for v in probs
    )
    tail = (1 - level) / 2
    delta = _delta_draws(p, row_mean, float(n), rho_arr, rng) * scale
    low, high = np.quantile(delta, [tail, 1 - tail], axis=0)
    datasets = [
        {
            "mean": float(m),
            "low": float(lo),
            "high": float(hi),
            "observed_mean": float(o),
        }
        for m, lo, hi, o in zip(
            delta.mean(axis=0), low, high, diff.mean(axis=1), strict=True
        )
    ]
    what = f"{labels[0]} − {labels[1]}"
    diagnostics_ok, diagnostics = _mcmc.diagnostics(
        r_hat, ess, divergences, n_chains, name=f"hierarchical model of {what}"
    )
    mean_probs = tuple(float(v) for v in thetas.mean(axis=0))
    same_rho = bool(np.all(rho_arr == rho_arr[0]))
    rho_words = (
        f"rho = {_fmt(rho_arr[0])}"
        if same_rho
        else f"rho {_fmt(rho_arr.min())} to {_fmt(rho_arr.max())}"
    )
    description = (
        f"Bayesian hierarchical model (Corani et al. 2017) of {what} over {q} data "
        f"sets x {n} fold scores, correlation {rho_words}; {_rope_words(rope)}. "
        "For the next data set, probability that each region is the most probable "
        f"one over {n_total} NUTS draws ({n_chains} chains, SE <= {max(ses):.4f}): "
        + _probability_words(p_greater, p_rope, p_less, rope, what)
        + "; mean predictive probabilities "
        + ", ".join(_fmt(v) for v in mean_probs)
        + ". "
        + diagnostics
    )
    details = {
        "rho": float(rho_arr[0]) if same_rho else rho_arr,
        "mean_probabilities": mean_probs,
        "datasets": datasets,
        "level": level,
        "delta0": float(mu.mean() * scale),
        "std0": float(std0.mean() * scale),
        "nu": float(nu.mean()),
        "scale": scale,
        "r_hat": r_hat,
        "ess": ess,
        "divergences": divergences,
        "retried": retried,
        "diagnostics_ok": diagnostics_ok,
        "diagnostics": diagnostics,
        "n_draws": n_total,
        "n_chains": n_chains,
        "standard_errors": ses,
        "priors": priors,
        "seed": seed,
    }
    return HierarchicalTestResult(
        p_greater=p_greater,
        p_rope=p_rope,
        p_less=p_less,
        rope=rope,
        n=q,
        method="hierarchical",
        description=description,
        labels=labels,
        greater_is_better=greater_is_better,
        standard_error=max(ses),
        details=details,
        _samples=thetas,
    )
