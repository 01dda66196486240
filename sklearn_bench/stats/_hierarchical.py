"""The Bayesian hierarchical model of two learners over several data sets.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), "Statistical comparison of
classifiers through Bayesian hierarchical modelling", Machine Learning 106, as
implemented by baycomp's ``HierarchicalTest`` (its Stan program
``hierarchical-t-test.stan``). The model is sampled with NumPyro's NUTS, an
optional dependency (``pip install "sklearn-bench[bayes]"``): this module imports
it only when :func:`bayesian_hierarchical` is called. The per-data-set means are
integrated out of the sampled posterior (see ``_model_factory``), which samples
without divergences where baycomp's parametrisation and the non-centred one both
diverged.
"""

import math
from dataclasses import dataclass

import numpy as np

from .._validation import check_bool
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


def _model_factory():
    import jax.numpy as jnp
    import numpyro
    from numpyro import distributions as dist

    def model(mean, ss, n, rho, bounds):
        """baycomp's Stan program with the δ_i integrated out.

        baycomp: ``δ_i ~ t_ν(δ0, σ0)`` and the n fold differences of data set i
        multivariate normal with mean δ_i, variance σ_i² and correlation rho. In
        the data set's mean x̄_i and sum of squares SS_i that likelihood is
        ``σ_i^−(n−1) exp(−SS_i / (2 (1 − rho) σ_i²)) · N(x̄_i; δ_i, c σ_i²)``,
        ``c = (1 + (n − 1) rho) / n`` (up to a constant). The Student t is a
        scale mixture, ``δ_i | λ_i ~ N(δ0, σ0² / λ_i)``, ``λ_i ~ Gamma(ν/2,
        ν/2)``, so δ_i integrates out: ``x̄_i | λ_i ~ N(δ0, σ0² / λ_i + c σ_i²)``.
        This removes the funnel between σ0 and the δ_i that made both the
        centred and the non-centred forms diverge (the first when the data sets
        agree, the second when they are informative). ``log λ_i`` is sampled
        standardised by its prior mean and sd given ν (an exact change of
        variables, its Jacobian added), which removes the funnel between ν and
        the λ_i. The δ_i are drawn afterwards from their exact conditional.
        """
        delta_hi, std0_hi, std_hi, alpha_lo, alpha_hi, beta_lo, beta_hi = bounds
        q = mean.shape[0]
        delta0 = numpyro.sample("delta0", dist.Uniform(-delta_hi, delta_hi))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, std0_hi))
        alpha = numpyro.sample("gamma_alpha", dist.Uniform(alpha_lo, alpha_hi))
        beta = numpyro.sample("gamma_beta", dist.Uniform(beta_lo, beta_hi))
        nu_minus_one = numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))
        nu = numpyro.deterministic("nu", nu_minus_one + 1.0)
        half = nu / 2.0
        # E log λ = ψ(ν/2) − log(ν/2) and sd(log λ) = sqrt(ψ'(ν/2)) for λ ~
        # Gamma(ν/2, ν/2), by their asymptotic series (within 3% for ν >= 1):
        # any smooth centre and scale keep the change of variables exact (its
        # Jacobian is added below), and the series cost a fraction of XLA's
        # polygamma at every leapfrog step.
        inv = 1.0 / nu
        log_mean = -inv - inv**2 / 3.0
        log_sd = jnp.sqrt(2.0 * inv + 2.0 * inv**2 + 4.0 * inv**3 / 3.0)
        with numpyro.plate("datasets", q):
            eta = numpyro.sample("eta", dist.Normal(0.0, 1.0))
            sigma = numpyro.sample("sigma", dist.Uniform(0.0, std_hi))
        log_lam = log_mean + log_sd * eta
        lam = numpyro.deterministic("lam", jnp.exp(log_lam))
        # the Gamma(ν/2, ν/2) density of λ in the coordinate eta, less the
        # standard normal that eta was given above
        numpyro.factor(
            "lam_prior",
            jnp.sum(
                dist.Gamma(half, half).log_prob(lam)
                + log_lam
                + jnp.log(log_sd)
                - dist.Normal(0.0, 1.0).log_prob(eta)
            ),
        )
        c = (1.0 + (n - 1.0) * rho) / n
        spread = jnp.sqrt(std0**2 / lam + c * sigma**2)
        loglik = (
            -(n - 1.0) * jnp.log(sigma)
            - 0.5 * ss / ((1.0 - rho) * sigma**2)
            + dist.Normal(delta0, spread).log_prob(mean)
        )
        numpyro.factor("loglik", jnp.sum(loglik))

    return model


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
        x = np.asarray(x, dtype=float)
        y = np.asarray(y, dtype=float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"`x` and `y` must be numeric arrays: {exc}") from None
    if x.ndim != 2 or y.ndim != 2:
        raise ValueError(
            "`x` and `y` must be 2-D arrays (data sets x fold scores); got shapes "
            f"{x.shape} and {y.shape}."
        )
    if x.shape != y.shape:
        raise ValueError(
            f"`x` and `y` must have the same shape; got {x.shape} and {y.shape}."
        )
    if x.shape[0] < 1 or x.shape[1] < 2:
        raise ValueError(
            "The hierarchical model needs at least 1 data set and 2 fold scores per "
            f"data set; got shape {x.shape}."
        )
    bad = ~(np.isfinite(x) & np.isfinite(y))
    if bad.any():
        rows = sorted(set(np.nonzero(bad)[0].tolist()))
        raise ValueError(
            f"`x` and `y` contain NaN or infinite scores (data set rows {rows}); "
            "drop or impute them first."
        )
    return x, y


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
    n_draws=2000,
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
    predictive probabilities).

    Parameters
    ----------
    x, y : array-like of shape (n_datasets, n_scores)
        Fold (or split) scores of two learners: one row per data set, the same
        folds in the same columns of ``x`` and ``y``.
    delta : float
        The smallest difference that matters: half-width of the region of
        practical equivalence (ROPE), in the scores' units (``rope`` before
        0.2; the result keeps the field ``rope``).
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
    n_draws : int, default=2000
        Posterior draws per chain after ``n_warmup`` adaptation steps
        (``n_samples`` before 0.2).
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
        A :class:`BayesianTestResult` whose
        :attr:`~HierarchicalTestResult.decision` is ``"unreliable fit"`` when
        the diagnostics fail; ``method="hierarchical"``, ``n`` the number of
        data sets,
        :attr:`~BayesianTestResult.samples` the per-draw region probabilities of
        the next data set (shape ``(n_chains · n_draws, 3)``), and
        ``details`` with ``mean_probabilities``; ``datasets`` (posterior mean,
        credible interval of each shrunken ``δ_i`` in the scores' units, and
        the raw mean difference); ``delta0``, ``std0``, ``nu`` posterior means;
        ``r_hat`` (largest split R-hat), ``ess`` (smallest effective sample
        size), ``divergences``; ``diagnostics_ok`` and ``diagnostics`` in words.
        Poor diagnostics (R-hat > 1.01, ESS < 100 per chain, any divergent
        transition left after one retry at ``target_accept_prob=0.99``) make
        the result decline (``decision`` is ``"unreliable fit"``) and raise
        one :class:`RuntimeWarning` that names the comparison.

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
    row by ``±u``, i.e. drops ``c``: the same when the two learners' scores are
    identical, ``c = 0``, the case it is meant for); with ``rope = 0`` this is
    impossible and raises ``ValueError``, as do all data sets of zero variance.
    The likelihood is baycomp's multivariate normal written in each data set's
    mean and sum of squares, which is the same density. NumPyro works in 32-bit
    floats (JAX's default) on the standardised data.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import bayesian_hierarchical
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(0.7, 0.9, (6, 1)) + rng.normal(0, 0.02, (6, 10))
    >>> x = y + 0.04 + rng.normal(0, 0.01, (6, 10))
    >>> res = bayesian_hierarchical(x, y, delta=0.01, rho=0.1, random_state=0,
    ...                             n_draws=1000, labels=("A", "B"),
    ...                             greater_is_better=True)
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
    try:
        rho_arr = np.asarray(rho, dtype=float)
    except (TypeError, ValueError):
        raise ValueError(f"`rho` must be a number in [0, 1); got {rho!r}.") from None
    if rho_arr.ndim == 0:
        rho_arr = np.full(x.shape[0], float(rho_arr))
    if rho_arr.shape != (x.shape[0],):
        raise ValueError(
            f"`rho` must be a number or one per data set ({x.shape[0]}); got shape "
            f"{rho_arr.shape}."
        )
    if not (np.isfinite(rho_arr) & (rho_arr >= 0) & (rho_arr < 1)).all():
        raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
    for name, value in [
        ("lower_alpha", lower_alpha),
        ("upper_alpha", upper_alpha),
        ("lower_beta", lower_beta),
        ("upper_beta", upper_beta),
        ("upper_sigma", upper_sigma),
    ]:
        value = real_number(value, name)
        if not (np.isfinite(value) and value > 0):
            raise ValueError(f"`{name}` must be a positive number; got {value!r}.")
    if not lower_alpha < upper_alpha:
        raise ValueError("`lower_alpha` must be smaller than `upper_alpha`.")
    if not lower_beta < upper_beta:
        raise ValueError("`lower_beta` must be smaller than `upper_beta`.")
    level = _mcmc.interval_level(confidence_level)
    n_chains = _mcmc.count(n_chains, "n_chains")
    n_draws = _mcmc.count(n_draws, "n_draws")
    n_warmup = _mcmc.count(n_warmup, "n_warmup", minimum=0)
    labels = _check_labels(labels)
    seed, rng = _mcmc.seed(random_state)
    diff = x - y
    q, n = diff.shape
    scale = float(np.mean(np.std(diff, axis=1)))
    if scale == 0:
        raise ValueError(
            "The differences x − y are constant within every data set: the "
            "hierarchical model has no within-data-set variance to work with; use "
            "bayesian_signed_rank on the per-data-set means instead."
        )
    d = diff / scale
    srope = rope / scale
    flat = np.var(d, axis=1) == 0
    if flat.any():
        if rope == 0:
            rows = np.nonzero(flat)[0].tolist()
            raise ValueError(
                f"Data set rows {rows} have constant differences x − y and rope = 0: "
                "baycomp's jitter within the ROPE is impossible; give rope > 0."
            )
        half = n // 2
        for i in np.nonzero(flat)[0]:
            u = rng.uniform(-srope, srope, half)
            jitter = np.r_[u, -u] if 2 * half == n else np.r_[u, -u, 0.0]
            d[i] = d[i, 0] + jitter  # baycomp puts 0 + jitter: the same when d = 0
    std_within = float(np.mean(np.std(d, axis=1)))
    std_among = float(np.std(np.mean(d, axis=1))) if q > 1 else std_within
    if std_among == 0:
        std_among = std_within
    maxdiff = float(np.max(np.abs(d)))
    row_mean = d.mean(axis=1)
    row_ss = ((d - row_mean[:, None]) ** 2).sum(axis=1)
    bounds = (
        maxdiff,
        std_among * upper_sigma,
        std_within * upper_sigma,
        float(lower_alpha),
        float(upper_alpha),
        float(lower_beta),
        float(upper_beta),
    )
    grouped, divergences, retried = _sample(
        row_mean, row_ss, n, rho_arr, bounds, n_chains, n_draws, n_warmup, seed
    )
    r_hat, ess = 1.0, math.inf
    for name in ("delta0", "std0", "nu", "lam", "sigma"):
        v = grouped[name]
        if n_chains > 1:
            r_hat = max(r_hat, _mcmc.split_rhat(v))
        ess = min(ess, _mcmc.effective_sample_size(v))
    flat_draws = {k: v.reshape((-1,) + v.shape[2:]) for k, v in grouped.items()}
    flat_draws["delta"] = _delta_draws(flat_draws, row_mean, float(n), rho_arr, rng)
    mu, std0, nu = flat_draws["delta0"], flat_draws["std0"], flat_draws["nu"]
    thetas = np.empty((mu.size, 3))
    from scipy import special

    # scipy.stats.t.sf(srope, nu, mu, std0) and .cdf(-srope, ...), bit for bit,
    # without importing scipy.stats (a second in a fresh process)
    thetas[:, 0] = special.stdtr(nu, -((srope - mu) / std0))
    thetas[:, 2] = special.stdtr(nu, (-srope - mu) / std0)
    thetas[:, 1] = 1.0 - thetas[:, 0] - thetas[:, 2]
    probs = _winner_probabilities(thetas)
    p_greater, p_rope, p_less = (float(p) for p in probs)
    n_draws_total = thetas.shape[0]
    ses = tuple(
        float(np.sqrt(p * (1 - p) / min(n_draws_total, max(ess, 1.0)))) for p in probs
    )
    tail = (1 - level) / 2
    delta = flat_draws["delta"] * scale
    datasets = [
        {
            "mean": float(delta[:, i].mean()),
            "low": float(np.quantile(delta[:, i], tail)),
            "high": float(np.quantile(delta[:, i], 1 - tail)),
            "observed_mean": float(diff[i].mean()),
        }
        for i in range(q)
    ]
    diagnostics_ok, diagnostics = _mcmc.diagnostics(
        r_hat,
        ess,
        divergences,
        n_chains,
        name=f"hierarchical model of {labels[0]} − {labels[1]}",
    )
    mean_probs = tuple(float(v) for v in thetas.mean(axis=0))
    what = f"{labels[0]} − {labels[1]}"
    rho_words = (
        f"rho = {_fmt(rho_arr[0])}"
        if np.all(rho_arr == rho_arr[0])
        else f"rho {_fmt(rho_arr.min())} to {_fmt(rho_arr.max())}"
    )
    description = (
        f"Bayesian hierarchical model (Corani et al. 2017) of {what} over {q} data "
        f"sets x {n} fold scores, correlation {rho_words}; {_rope_words(rope)}. "
        "For the next data set, probability that each region is the most probable "
        f"one over {n_draws_total} NUTS draws ({n_chains} chains, "
        f"SE <= {max(ses):.4f}): "
        + _probability_words(p_greater, p_rope, p_less, rope, what)
        + "; mean predictive probabilities "
        + ", ".join(_fmt(v) for v in mean_probs)
        + ". "
        + diagnostics
    )
    details = {
        "rho": float(rho_arr[0]) if np.all(rho_arr == rho_arr[0]) else rho_arr,
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
        "n_draws": n_draws_total,
        "n_chains": n_chains,
        "standard_errors": ses,
        "priors": {
            "lower_alpha": float(lower_alpha),
            "upper_alpha": float(upper_alpha),
            "lower_beta": float(lower_beta),
            "upper_beta": float(upper_beta),
            "upper_sigma": float(upper_sigma),
        },
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


_TARGET_ACCEPT = 0.8  # NumPyro's default: no divergence on the demo or references
_RETRY_ACCEPT = 0.99  # the one retry when divergences remain


def _sample(mean, ss, n, rho, bounds, n_chains, n_draws, n_warmup, seed):
    """Posterior draws by chain, divergences, and whether NUTS was retried.

    One program is compiled per shape and kept (``_mcmc.nuts_sampler``); when
    divergent transitions remain, the fit is run once more with a smaller step
    size (``target_accept_prob=0.99``, the same compiled program) and the
    retry's draws are kept.
    """
    # NumPy arrays: jnp.asarray(..., dtype=float32) ran a compiled conversion
    # program per array (each looked up in the cache in a new process)
    args = tuple(
        np.asarray(a, dtype=np.float32) for a in (mean, ss, float(n), rho, bounds)
    )
    run = _mcmc.nuts_sampler(
        "hierarchical",
        _model_factory,
        args,
        size=(len(mean),),
        n_chains=n_chains,
        n_draws=n_draws,
        n_warmup=n_warmup,
    )
    retried = False
    for accept in (_TARGET_ACCEPT, _RETRY_ACCEPT):
        grouped, divergences = run(seed, accept, *args)
        if not divergences:
            break
        retried = accept == _TARGET_ACCEPT
    return grouped, divergences, retried
