"""The plumbing the MCMC models share: back end, seeds, compiled samplers, diagnostics.

Used by the hierarchical model (:func:`~sklearn_bench.stats.bayesian_hierarchical`,
NumPyro's NUTS, the optional ``[bayes]`` extra) and the Plackett–Luce model
(:func:`~sklearn_bench.stats.bayesian_plackett_luce`, a Gibbs sampler in NumPy).
The diagnostics are computed here in NumPy, so that a model needs no back end to
be judged, and they decide whether a fit may decide (:func:`diagnostics`):

- rank-normalised split R-hat (bulk and folded) at most 1.01 and a bulk effective
  sample size of at least 100 per chain (Vehtari, Gelman, Simpson, Carpenter &
  Bürkner 2021, "Rank-normalization, folding, and localization: an improved
  R-hat", Bayesian Analysis 16(2));
- no divergent transition (NUTS only).

A fit that fails one of them is *unreliable*: its result declines to decide
(``decision()`` / ``best()`` give :data:`UNRELIABLE`) and one
:class:`RuntimeWarning` names the comparison and the failed check.
"""

import math
import sys
import warnings

import numpy as np

from .._validation import check_positive_int, check_random_state, real_number

EXTRA = 'pip install "sklearn-bench[bayes]"'
RHAT_LIMIT = 1.01
ESS_PER_CHAIN = 100
UNRELIABLE = "unreliable fit"
_MAX_COMPILED = 8  # compiled NUTS samplers kept, over all models

# compiled samplers by model, then by shape and settings
_CACHES = {}


# ------------------------------------------------------------------ back end
def backend(what="The Bayesian hierarchical model"):
    """Import NumPyro/JAX, or raise ImportError naming the extra.

    Returns ``(jax, numpyro, distributions, MCMC, NUTS)``.
    """
    try:
        import jax
        import numpyro
        from numpyro import distributions as dist
        from numpyro.infer import MCMC, NUTS
    except ImportError as exc:  # pragma: no cover - depends on the environment
        raise ImportError(
            f"{what} needs the optional NumPyro/JAX back end: {EXTRA} (missing: "
            f"{exc.name})."
        ) from exc
    return jax, numpyro, dist, MCMC, NUTS


def nuts_sampler(name, model, model_args, *, size, n_chains, n_draws, n_warmup):
    """NumPyro's NUTS for ``model``, compiled once per shape into one program.

    The program draws the initial values (NumPyro's ``init_to_uniform``:
    uniform in (−2, 2) on the unconstrained scale), runs ``n_warmup``
    adaptation steps (step size and diagonal mass matrix, NumPyro's defaults)
    and ``n_draws`` draws for each chain, one chain after the other, and
    returns the constrained draws with the model's deterministic sites. The
    data and ``target_accept_prob`` are arguments of the program, so a second
    fit of the same shape, or a retry at another acceptance rate, runs the
    compiled code without tracing or compiling again.

    ``numpyro.infer.MCMC`` runs the same kernel, but traced and compiled again
    on every ``run`` when its chains are vectorised (its caches are bypassed
    under ``vmap``): that was 90% of a fit's time.

    Parameters
    ----------
    name : str
        The model's name in the cache of compiled samplers.
    model : callable
        A NumPyro model taking ``model_args`` (arrays).
    model_args : tuple of arrays
        Only their shapes and dtypes are used here.
    size : tuple of int
        What the shapes of ``model_args`` depend on (e.g. ``(n_datasets,)``):
        with the numbers of chains, draws and warm-up steps, the key of the
        compiled program in the cache.
    n_chains, n_draws, n_warmup : int

    Returns
    -------
    run : callable
        ``run(seed, target_accept_prob, *model_args)`` returns ``(draws,
        divergences)``: a dict of NumPy arrays of shape ``(n_chains, n_draws,
        ...)`` per site and the number of divergent transitions after warm-up.
    """
    jax = backend()[0]
    key = (*size, n_chains, n_draws, n_warmup)
    program = compiled_sampler(name, key)
    if program is None:
        program = _nuts_program(jax, model, model_args, n_chains, n_draws, n_warmup)
        remember_sampler(name, key, program)

    def run(seed, target_accept_prob, *args):
        keys = jax.random.split(jax.random.PRNGKey(seed), n_chains)
        accept = np.float32(target_accept_prob)
        draws, diverging = program(keys, accept, args)
        draws = {k: np.asarray(v, dtype=float) for k, v in draws.items()}
        return draws, int(np.asarray(diverging).sum())

    return run


def _nuts_program(jax, model, model_args, n_chains, n_draws, n_warmup):
    from functools import partial

    from numpyro import handlers
    from numpyro.infer.hmc import hmc
    from numpyro.infer.util import constrain_fn, potential_energy

    def latent_values(args):
        trace = handlers.trace(handlers.seed(model, 0)).get_trace(*args)
        return {
            k: site["value"]
            for k, site in trace.items()
            if site["type"] == "sample" and not site["is_observed"]
        }

    # the latent sites' shapes, by abstract evaluation (nothing is compiled); the
    # unconstrained value of each of these sites has the shape of its value
    latent = jax.eval_shape(latent_values, model_args)
    init_kernel, sample_kernel = hmc(
        potential_fn_gen=lambda *args: partial(potential_energy, model, args, {}),
        algo="NUTS",
    )

    def chain(key, accept, args):
        key_init, key_run = jax.random.split(key)
        keys = jax.random.split(key_init, len(latent))
        z = {
            site: jax.random.uniform(k, v.shape, v.dtype, -2.0, 2.0)
            for k, (site, v) in zip(keys, latent.items(), strict=True)
        }
        state = init_kernel(
            z, n_warmup, target_accept_prob=accept, model_args=args, rng_key=key_run
        )

        def step(state, _):
            state = sample_kernel(state, model_args=args)
            return state, (state.z, state.diverging)

        _, (zs, diverging) = jax.lax.scan(step, state, None, length=n_warmup + n_draws)
        zs = jax.tree.map(lambda a: a[n_warmup:], zs)
        draws = jax.vmap(
            lambda z: constrain_fn(model, args, {}, z, return_deterministic=True)
        )(zs)
        return draws, diverging[n_warmup:].sum()

    # chains one after the other inside the program: as fast as vmap over the
    # chains here, and it compiles in about two thirds of the time. Measured and
    # not taken: XLA's xla_backend_optimization_level=0 compiles 8 x 10 in about
    # 2.5 s less CPU but makes every later fit of the shape ~0.2 s (15%) slower,
    # which a report comparing many pairs of one shape pays again and again
    return jax.jit(
        lambda keys, accept, args: jax.lax.map(lambda k: chain(k, accept, args), keys)
    )


def compiled_sampler(model, key):
    """The compiled sampler of ``model`` (a name) for ``key``, or ``None``."""
    return _CACHES.get(model, {}).get(key)


def remember_sampler(model, key, mcmc):
    """Keep a compiled sampler for its shape; past ``_MAX_COMPILED`` samplers,
    release every compiled sampler and JAX's caches first.

    Dropping one sampler is not enough: JAX keeps each compiled program (about
    1,400 memory mappings of machine code apiece) in its own caches, so a
    process fitting many shapes ran out of mappings (``vm.max_map_count``) and
    was aborted by XLA's compiler. Clearing them costs one recompilation.
    """
    if sum(len(c) for c in _CACHES.values()) >= _MAX_COMPILED:
        release_compiled_samplers()
    _CACHES.setdefault(model, {})[key] = mcmc


def compiled_keys(model):
    """The keys of the compiled samplers kept for ``model`` (for tests)."""
    return list(_CACHES.get(model, {}))


def release_compiled_samplers(jax=None):
    """Forget every compiled MCMC sampler and JAX's compilation caches.

    Frees their machine code; the next fit of each shape compiles again. Nothing
    is imported: without JAX loaded this only clears the (empty) caches.
    """
    _CACHES.clear()
    if jax is None:
        jax = sys.modules.get("jax")
    if jax is not None:
        jax.clear_caches()


# ------------------------------------------------------------------ arguments
def seed(random_state):
    """A non-negative integer seed and a NumPy Generator seeded by it.

    An int is used as it is (so that ``random_state=3`` gives the seed 3 to
    JAX); a Generator or RandomState gives one draw of its stream; ``None`` a
    fresh seed.
    """
    if isinstance(random_state, np.random.RandomState):
        value = int(random_state.randint(0, 2**31 - 1))
    elif isinstance(random_state, int | np.integer) and not isinstance(
        random_state, bool
    ):
        value = int(random_state)
        if value < 0:
            raise ValueError(f"`random_state` must be non-negative; got {value}.")
    else:
        try:
            rng = check_random_state(random_state)
        except TypeError as exc:
            raise ValueError(str(exc)) from None
        value = int(rng.integers(0, 2**31 - 1))
    return value, np.random.default_rng(value)


def count(value, name, minimum=1):
    """A number of chains, draws or warm-up steps (an int of at least ``minimum``)."""
    return check_positive_int(value, name, minimum=minimum)


def interval_level(confidence_level):
    """The level of the posterior intervals, a float strictly between 0 and 1."""
    level = real_number(confidence_level, "confidence_level")
    if not 0 < level < 1:
        raise ValueError(
            f"`confidence_level` must lie in (0, 1); got {confidence_level!r}."
        )
    return level


# ------------------------------------------------------------------ diagnostics
def _classic_split_rhat(x):
    """Split R-hat of each parameter (Gelman et al. 2013, BDA3 §11.4); ``x`` of
    shape ``(n_chains, n_draws, n_params)``, NaN where a parameter is constant."""
    m, n = x.shape[:2]
    half = n // 2
    x = x[:, : 2 * half].reshape((2 * m, half) + x.shape[2:])
    means = x.mean(axis=1)
    within = x.var(axis=1, ddof=1).mean(axis=0)
    between = half * means.var(axis=0, ddof=1)
    var_plus = (half - 1) / half * within + between / half
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.sqrt(var_plus / within)


def _rank_normal(x):
    """Rank-normalised draws (Vehtari et al. 2021, eq. 14): the ranks ``r`` of
    the draws pooled over chains, ``Φ^−1((r − 3/8) / (S + 1/4))``, ties
    averaged; ``x`` of shape ``(n_chains, n_draws, n_params)``."""
    from scipy import special, stats

    m, n = x.shape[:2]
    ranks = stats.rankdata(x.reshape(m * n, -1), axis=0)
    return special.ndtri((ranks - 0.375) / (m * n + 0.25)).reshape(x.shape)


def split_rhat(draws):
    """Largest rank-normalised split R-hat over the parameters.

    Vehtari, Gelman, Simpson, Carpenter & Bürkner (2021), "Rank-normalization,
    folding, and localization: an improved R-hat", Bayesian Analysis 16(2),
    eq. (14)–(16): for each parameter the larger of the split R-hat (BDA3
    §11.4) of its rank-normalised draws (bulk: chains that disagree in
    location) and of its rank-normalised distances from the median (folded:
    chains that disagree in scale). The threshold 1.01 is theirs, for this
    R-hat (as Stan and ArviZ compute it). Its bulk part is invariant under
    monotone transformations and neither part needs a finite variance: on the
    demo the classic split R-hat of ``delta0`` was 1.011 in a fit whose
    rank-normalised R-hat was 1.006, with no divergence.

    Parameters
    ----------
    draws : ndarray of shape (n_chains, n_draws, ...)

    Returns
    -------
    float
        1 for fewer than 4 draws per chain; parameters constant in every chain
        are ignored.

    See Also
    --------
    effective_sample_size : the other diagnostic :func:`diagnostics` checks.
    """
    draws = np.asarray(draws, dtype=float)
    m, n = draws.shape[:2]
    if n // 2 < 2:
        return 1.0
    x = draws.reshape(m, n, -1)
    x = x[:, :, np.ptp(x.reshape(m * n, -1), axis=0) > 0]
    if not x.shape[2]:
        return 1.0
    folded = np.abs(x - np.median(x.reshape(m * n, -1), axis=0))
    bulk = _classic_split_rhat(_rank_normal(x))
    tail = _classic_split_rhat(_rank_normal(folded))
    rhat = np.fmax(bulk, tail)
    rhat = rhat[np.isfinite(rhat)]
    return float(rhat.max()) if rhat.size else 1.0


def effective_sample_size(draws):
    """Smallest effective sample size over the parameters.

    Geyer's initial monotone sequence on the autocorrelations combined over
    chains (Stan's estimator; Gelman et al. 2013, BDA3 §11.5), by FFT.

    Parameters
    ----------
    draws : ndarray of shape (n_chains, n_draws, ...)

    Returns
    -------
    float
        ``n_chains * n_draws`` when every parameter is constant.

    See Also
    --------
    split_rhat : the other diagnostic :func:`diagnostics` checks.
    """
    draws = np.asarray(draws, dtype=float)
    m, n = draws.shape[:2]
    x = draws.reshape(m, n, -1)
    if n < 4:
        return float(m * n)
    centred = x - x.mean(axis=1, keepdims=True)
    size = 1 << (2 * n - 1).bit_length()
    spectrum = np.fft.rfft(centred, n=size, axis=1)
    acov = np.fft.irfft(spectrum * np.conj(spectrum), n=size, axis=1)[:, :n]
    acov /= n  # biased autocovariance, as Stan
    chain_var = acov[:, 0] * n / (n - 1.0)
    within = chain_var.mean(axis=0)
    var_plus = within * (n - 1.0) / n
    if m > 1:
        var_plus = var_plus + x.mean(axis=1).var(axis=0, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        rho = 1.0 - (within - acov.mean(axis=0)) / var_plus
    rho[0] = 1.0
    best = math.inf
    for j in range(rho.shape[1]):
        if not np.isfinite(var_plus[j]) or var_plus[j] <= 0:
            continue
        r = rho[:, j]
        n_pairs = (n - 1) // 2
        pairs = r[0 : 2 * n_pairs : 2] + r[1 : 2 * n_pairs : 2]
        positive = np.nonzero(pairs < 0)[0]
        stop = positive[0] if positive.size else pairs.size
        pairs = np.minimum.accumulate(pairs[:stop])  # initial monotone sequence
        tau = -1.0 + 2.0 * pairs.sum() if pairs.size else 1.0
        tau = max(tau, 1.0 / math.log10(m * n + 10))
        best = min(best, m * n / tau)
    return float(m * n) if best == math.inf else float(best)


def diagnostics(r_hat, ess, divergences, n_chains, *, name, sampler="NUTS"):
    """``(ok, words)`` for a fit's diagnostics; one warning naming ``name`` when
    they are poor.

    Parameters
    ----------
    r_hat, ess : float
        Largest split R-hat and smallest effective sample size.
    divergences : int
        Divergent transitions left after the sampler's retries (0 for Gibbs).
    n_chains : int
    name : str
        What was fitted, e.g. ``"hierarchical model of A − B"``: the warning and
        the words name it.
    sampler : str, default="NUTS"

    Returns
    -------
    ok : bool
        Whether the fit may decide.
    words : str
        The diagnostics in a sentence, and, when poor, that the result declines.
    """
    problems = []
    if n_chains > 1 and not r_hat <= RHAT_LIMIT:
        problems.append(f"R-hat {r_hat:.3f} > {RHAT_LIMIT} (chains disagree)")
    if not ess >= ESS_PER_CHAIN * n_chains:
        problems.append(
            f"effective sample size {ess:.0f} < {ESS_PER_CHAIN * n_chains} "
            f"({ESS_PER_CHAIN} per chain)"
        )
    if divergences:
        problems.append(
            f"{divergences} divergent transitions (the posterior may be biased)"
        )
    if problems:
        words = (
            f"Sampler diagnostics of the {name} are poor ({sampler}): "
            + "; ".join(problems)
            + f". The fit declines to decide ({UNRELIABLE!r}); more draws "
            "(n_draws, n_warmup) may help."
        )
        # the caller of the model that called this
        warnings.warn(words, RuntimeWarning, stacklevel=3)
    else:
        words = (
            f"Sampler diagnostics fine ({sampler}): R-hat {r_hat:.3f}, effective "
            f"sample size {ess:.0f}"
            + (", no divergent transitions." if sampler == "NUTS" else ".")
        )
    return not problems, words
