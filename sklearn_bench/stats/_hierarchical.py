"""The Bayesian hierarchical model of two learners over several data sets.

Corani, Benavoli, Demšar, Mangili & Zaffalon (2017), "Statistical comparison of
classifiers through Bayesian hierarchical modelling", Machine Learning 106, as
implemented by baycomp's ``HierarchicalTest`` (its Stan program
``hierarchical-t-test.stan``). The model is sampled with NumPyro's NUTS, an
optional dependency (``pip install "sklearn-bench[bayes]"``): this module imports
it only when :func:`bayesian_hierarchical` is called.
"""

import math
import warnings

import numpy as np
from scipy import stats

from .._validation import check_random_state as _as_generator
from ._bayesian import (
    _EQUIVALENT,
    BayesianTestResult,
    _fmt,
    _probability_words,
    _rope_words,
    _winner_probabilities,
)
from ._common import real_number

_EXTRA = 'pip install "sklearn-bench[bayes]"'
_RHAT_LIMIT = 1.01  # Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021)
_ESS_PER_CHAIN = 100  # ... and a bulk ESS of at least 100 per chain
_MCMC_CACHE = {}  # compiled samplers by (n_datasets, chains, draws, warmup)
_MAX_COMPILED = 8


def _remember_sampler(cache, key, mcmc, jax):
    """Keep a compiled sampler for its shape; past ``_MAX_COMPILED`` shapes, drop
    every compiled sampler and JAX's caches.

    Dropping one sampler from ``cache`` is not enough: JAX keeps each compiled
    program (about 1,400 memory mappings of machine code apiece) in its own caches,
    so a process fitting many shapes ran out of mappings (``vm.max_map_count``)
    and was aborted by XLA's compiler. Clearing them costs one recompilation.
    """
    if len(cache) >= _MAX_COMPILED:
        release_compiled_samplers(jax)
    cache[key] = mcmc


def release_compiled_samplers(jax=None):
    """Forget the compiled MCMC samplers of the hierarchical and Plackett–Luce
    models and JAX's compilation caches (frees their machine code)."""
    from . import _plackett_luce

    _MCMC_CACHE.clear()
    _plackett_luce._MCMC_CACHE.clear()
    if jax is None:
        import sys

        jax = sys.modules.get("jax")
    if jax is not None:
        jax.clear_caches()
_CHAIN_METHOD = "vectorized"  # measured: faster than sequential on 2 cores


def _backend(what="The Bayesian hierarchical model"):
    """Import NumPyro/JAX, or raise ImportError naming the extra."""
    try:
        import jax
        import numpyro
        from numpyro import distributions as dist
        from numpyro.infer import MCMC, NUTS
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"{what} needs the optional NumPyro/JAX back end: {_EXTRA} (missing: "
            f"{exc.name})."
        ) from exc
    return jax, numpyro, dist, MCMC, NUTS


def _diagnostic_words(r_hat, ess, divergences, n_chains):
    """``(ok, words)`` for the sampler's diagnostics; warns when they are poor.

    Vehtari et al. (2021): split R-hat at most 1.01 and a bulk effective sample
    size of at least 100 per chain; and no divergent transition.
    """
    problems = []
    if n_chains > 1 and r_hat > _RHAT_LIMIT:
        problems.append(f"R-hat {r_hat:.3f} > {_RHAT_LIMIT} (chains disagree)")
    if ess < _ESS_PER_CHAIN * n_chains:
        problems.append(
            f"effective sample size {ess:.0f} < {_ESS_PER_CHAIN * n_chains} "
            f"({_ESS_PER_CHAIN} per chain)"
        )
    if divergences:
        problems.append(
            f"{divergences} divergent transitions (the posterior may be biased)"
        )
    if problems:
        words = (
            "Sampler diagnostics are poor: " + "; ".join(problems) + ". Treat the "
            "probabilities with caution; more draws (n_samples, n_warmup) may help."
        )
        warnings.warn(words, RuntimeWarning, stacklevel=3)
    else:
        words = (
            f"Sampler diagnostics fine: R-hat {r_hat:.3f}, effective sample size "
            f"{ess:.0f}, no divergent transitions."
        )
    return not problems, words


def _model_factory(numpyro, dist, jnp):
    def model(mean, ss, n, rho, bounds):
        """baycomp's Stan program, likelihood in sufficient statistics.

        With ``M = (1 − rho) I + rho 11ᵀ`` the quadratic form of data set i is
        ``SS_i / (1 − rho) + n (x̄_i − δ_i)² / (1 + (n − 1) rho)`` and
        ``log det M = log(1 + (n − 1) rho) + (n − 1) log(1 − rho)`` (a constant).
        """
        delta_hi, std0_hi, std_hi, alpha_lo, alpha_hi, beta_lo, beta_hi = bounds
        q = mean.shape[0]
        delta0 = numpyro.sample("delta0", dist.Uniform(-delta_hi, delta_hi))
        std0 = numpyro.sample("std0", dist.Uniform(0.0, std0_hi))
        alpha = numpyro.sample("gamma_alpha", dist.Uniform(alpha_lo, alpha_hi))
        beta = numpyro.sample("gamma_beta", dist.Uniform(beta_lo, beta_hi))
        nu_minus_one = numpyro.sample("nu_minus_one", dist.Gamma(alpha, beta))
        numpyro.deterministic("nu", nu_minus_one + 1.0)
        with numpyro.plate("datasets", q):
            # non-centred: delta = delta0 + std0 * z, z ~ t(nu), the same prior
            z = numpyro.sample("z", dist.StudentT(nu_minus_one + 1.0, 0.0, 1.0))
            sigma = numpyro.sample("sigma", dist.Uniform(0.0, std_hi))
        delta = numpyro.deterministic("delta", delta0 + std0 * z)
        quad = ss / (1.0 - rho) + n * (mean - delta) ** 2 / (1.0 + (n - 1.0) * rho)
        loglik = -n * jnp.log(sigma) - 0.5 * quad / sigma**2
        numpyro.factor("loglik", jnp.sum(loglik))

    return model


def _seed(random_state):
    """A JAX seed and a NumPy Generator from ``random_state``."""
    if isinstance(random_state, np.random.RandomState):
        seed = int(random_state.randint(0, 2**31 - 1))
    elif isinstance(random_state, int | np.integer) and not isinstance(
        random_state, bool
    ):
        seed = int(random_state)
        if seed < 0:
            raise ValueError(f"`random_state` must be non-negative; got {seed}.")
    else:
        seed = int(_as_generator(random_state).integers(0, 2**31 - 1))
    return seed, np.random.default_rng(seed)


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


def _count(value, name, minimum=1):
    if isinstance(value, bool) or not isinstance(value, int | np.integer):
        raise ValueError(f"`{name}` must be an integer; got {value!r}.")
    if value < minimum:
        raise ValueError(f"`{name}` must be at least {minimum}; got {value}.")
    return int(value)


def bayesian_hierarchical(
    x,
    y,
    *,
    rope,
    rho,
    lower_alpha=1.0,
    upper_alpha=2.0,
    lower_beta=0.01,
    upper_beta=0.1,
    upper_sigma=1000.0,
    n_chains=4,
    n_samples=5000,
    n_warmup=1000,
    level=0.95,
    random_state=None,
    labels=("x", "y"),
    greater_is_better=True,
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
    rope : float
        Half-width of the region of practical equivalence, in the scores' units.
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
    n_samples : int, default=5000
        Posterior draws per chain after ``n_warmup`` adaptation steps.
    n_warmup : int, default=1000
    level : float, default=0.95
        Level of the equal-tailed credible intervals of the ``δ_i``.
    random_state : int, Generator, RandomState or None, default=None
        Seeds the sampler (and the jitter of zero-variance rows, see Notes): the
        same seed gives the same draws on the same machine.
    labels : tuple of two str, default=("x", "y")
    greater_is_better : bool, default=True

    Returns
    -------
    BayesianTestResult
        ``method="hierarchical"``, ``n`` the number of data sets,
        :attr:`~BayesianTestResult.samples` the per-draw region probabilities of
        the next data set (shape ``(n_chains · n_samples, 3)``), and
        ``details`` with ``mean_probabilities``; ``datasets`` (posterior mean,
        credible interval of each shrunken ``δ_i`` in the scores' units, and
        the raw mean difference); ``delta0``, ``std0``, ``nu`` posterior means;
        ``r_hat`` (largest split R-hat), ``ess`` (smallest effective sample
        size), ``divergences``; ``diagnostics_ok`` and ``diagnostics`` in words.
        Poor diagnostics (R-hat > 1.01, ESS < 100 per chain, any divergent
        transition) also raise a :class:`RuntimeWarning`.

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
    >>> res = bayesian_hierarchical(x, y, rope=0.01, rho=0.1, random_state=0,
    ...                             n_samples=1000, labels=("A", "B"))
    >>> res.decision()
    'A'
    >>> len(res.details["datasets"])
    6
    """
    x, y = _check_matrix(x, y)
    rope = real_number(rope, "rope")
    if not (np.isfinite(rope) and rope >= 0):
        raise ValueError(f"`rope` must be a non-negative number; got {rope!r}.")
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
    level = real_number(level, "level")
    if not 0 < level < 1:
        raise ValueError(f"`level` must lie in (0, 1); got {level!r}.")
    n_chains = _count(n_chains, "n_chains")
    n_samples = _count(n_samples, "n_samples")
    n_warmup = _count(n_warmup, "n_warmup", minimum=0)
    labels = tuple(str(v) for v in labels)
    if len(labels) != 2 or labels[0] == labels[1] or _EQUIVALENT in labels:
        raise ValueError(
            f"`labels` must be two different names other than {_EQUIVALENT!r}; "
            f"got {labels!r}."
        )
    seed, rng = _seed(random_state)
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
    jax, numpyro, dist, MCMC, NUTS = _backend()
    import jax.numpy as jnp
    from numpyro.diagnostics import effective_sample_size, split_gelman_rubin

    key = (q, n_chains, n_samples, n_warmup)
    mcmc = _MCMC_CACHE.get(key)
    if mcmc is None:
        # jit_model_args: the compiled sampler is reused for data of this shape
        mcmc = MCMC(
            NUTS(_model_factory(numpyro, dist, jnp), target_accept_prob=0.9),
            num_warmup=n_warmup,
            num_samples=n_samples,
            num_chains=n_chains,
            chain_method=_CHAIN_METHOD,
            progress_bar=False,
            jit_model_args=True,
        )
        _remember_sampler(_MCMC_CACHE, key, mcmc, jax)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        mcmc.run(
            jax.random.PRNGKey(seed),
            jnp.asarray(row_mean, dtype=jnp.float32),
            jnp.asarray(row_ss, dtype=jnp.float32),
            jnp.asarray(float(n), dtype=jnp.float32),
            jnp.asarray(rho_arr, dtype=jnp.float32),
            jnp.asarray(bounds, dtype=jnp.float32),
            extra_fields=("diverging",),
        )
    grouped = {
        k: np.asarray(v, dtype=float)
        for k, v in mcmc.get_samples(group_by_chain=True).items()
    }
    divergences = int(np.asarray(mcmc.get_extra_fields()["diverging"]).sum())
    r_hat, ess = 1.0, math.inf
    for name in ("delta0", "std0", "nu", "delta", "sigma"):
        v = grouped[name]
        if n_chains > 1:
            r_hat = max(r_hat, float(np.nanmax(split_gelman_rubin(v))))
        ess = min(ess, float(np.nanmin(effective_sample_size(v))))
    flat_draws = {k: v.reshape((-1,) + v.shape[2:]) for k, v in grouped.items()}
    mu, std0, nu = flat_draws["delta0"], flat_draws["std0"], flat_draws["nu"]
    thetas = np.empty((mu.size, 3))
    thetas[:, 0] = stats.t.sf(srope, nu, mu, std0)
    thetas[:, 2] = stats.t.cdf(-srope, nu, mu, std0)
    thetas[:, 1] = 1.0 - thetas[:, 0] - thetas[:, 2]
    probs = _winner_probabilities(thetas)
    p_greater, p_rope, p_less = (float(p) for p in probs)
    n_draws = thetas.shape[0]
    ses = tuple(
        float(np.sqrt(p * (1 - p) / min(n_draws, max(ess, 1.0)))) for p in probs
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
    diagnostics_ok, diagnostics = _diagnostic_words(r_hat, ess, divergences, n_chains)
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
        f"one over {n_draws} NUTS draws ({n_chains} chains, SE <= {max(ses):.4f}): "
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
        "diagnostics_ok": diagnostics_ok,
        "diagnostics": diagnostics,
        "n_samples": n_draws,
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
    return BayesianTestResult(
        p_greater=p_greater,
        p_rope=p_rope,
        p_less=p_less,
        rope=rope,
        n=q,
        method="hierarchical",
        description=description,
        labels=labels,
        greater_is_better=bool(greater_is_better),
        standard_error=max(ses),
        details=details,
        _samples=thetas,
    )
