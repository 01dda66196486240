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
(``decision`` / ``best()`` give :data:`UNRELIABLE`) and one
:class:`RuntimeWarning` names the comparison and the failed check.
"""

import math
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
    """Import JAX, or raise ImportError naming the extra."""
    require_backend(what)
    import jax

    return jax


def require_backend(what="The Bayesian hierarchical model"):
    """Raise ImportError naming the extra unless JAX and NumPyro are installed
    (looked for, not imported)."""
    from importlib.util import find_spec

    for name in ("jax", "numpyro"):
        if find_spec(name) is None:
            raise ImportError(
                f"{what} needs the optional NumPyro/JAX back end: {EXTRA} "
                f"(missing: {name})."
            )


def nuts_sampler(name, make_model, model_args, *, size, n_chains, n_draws, n_warmup):
    """NumPyro's NUTS for the model ``make_model()``, one chain compiled once per
    shape.

    The program draws the initial values (NumPyro's ``init_to_uniform``:
    uniform in (−2, 2) on the unconstrained scale), runs ``n_warmup``
    adaptation steps (step size and diagonal mass matrix, NumPyro's defaults)
    and ``n_draws`` draws of one chain, and returns the constrained draws with
    the model's deterministic sites. The data, the chain's key and
    ``target_accept_prob`` are arguments of the program, so a second fit of the
    same shape, another number of chains, or a retry at another acceptance
    rate, runs the compiled code without tracing or compiling again. The
    chains run one after the other (threads would not run them at once: JAX's
    CPU client runs the programs of one device in turn); each chain's draws
    depend only on its key (:func:`chain_keys`).

    Only JAX's public API is used, and none of the user's JAX settings is
    changed: a new process compiles the sampler again unless the user turned
    on JAX's persistent compilation cache (``JAX_COMPILATION_CACHE_DIR``; see
    the user guide), which then serves it like any other program.

    ``numpyro.infer.MCMC`` runs the same kernel, but traced and compiled again
    on every ``run`` when its chains are vectorised (its caches are bypassed
    under ``vmap``): that was 90% of a fit's time.

    Parameters
    ----------
    name : str
        The model's name in the cache of compiled samplers.
    make_model : callable
        ``make_model()`` returns a NumPyro model taking ``model_args``.
    model_args : tuple of NumPy arrays
        Only their shapes and dtypes are used here.
    size : tuple of int
        What the shapes of ``model_args`` depend on (e.g. ``(n_datasets,)``):
        with the numbers of draws and warm-up steps, the key of the compiled
        program in the cache.
    n_chains, n_draws, n_warmup : int

    Returns
    -------
    run : callable
        ``run(seed, target_accept_prob, *model_args)`` returns ``(draws,
        divergences)``: a dict of NumPy arrays of shape ``(n_chains, n_draws,
        ...)`` per site and the number of divergent transitions after warm-up.
    """
    key = (*size, n_draws, n_warmup)
    require_backend()
    program = compiled_sampler(name, key)
    if program is None:
        jax = backend()
        chain = _nuts_chain(jax, make_model(), model_args, n_draws, n_warmup)
        example = (np.zeros(2, np.uint32), np.float32(0.8), model_args)
        program = jax.jit(chain).lower(*example).compile()
        remember_sampler(name, key, program)

    def run(seed, target_accept_prob, *args):
        accept = np.float32(target_accept_prob)
        out = [program(k, accept, args) for k in chain_keys(seed, n_chains)]
        draws = {
            site: np.stack([np.asarray(c[0][site], dtype=float) for c in out])
            for site in out[0][0]
        }
        return draws, sum(int(c[1]) for c in out)

    return run


def chain_keys(seed, n_chains):
    """The chains' keys: ``jax.random.split(jax.random.PRNGKey(seed), n_chains)``
    (JAX's default threefry generator) computed in NumPy for ``seed < 2**32``.

    Threefry-2x32 with 20 rounds (Salmon, Moraes, Dror & Shaw 2011, "Parallel
    random numbers: as easy as 1, 2, 3", SC'11), key ``(0, seed)``, counters
    ``(0, i)`` for chain ``i``, as JAX splits a key. In NumPy a new process
    needs no JAX program for the keys (about 0.1 s: three small programs, each
    traced, lowered and read from the cache).

    Returns
    -------
    keys : ndarray of shape (n_chains, 2), dtype uint32
    """
    if not 0 <= seed < 2**32:
        import jax

        return np.asarray(jax.random.split(jax.random.PRNGKey(seed), n_chains))
    k0, k1 = np.uint32(0), np.uint32(seed)
    ks = (k0, k1, k0 ^ k1 ^ np.uint32(0x1BD11BDA))
    x0 = np.full(n_chains, ks[0], np.uint32)
    x1 = np.arange(n_chains, dtype=np.uint32) + ks[1]
    with np.errstate(over="ignore"):
        for i in range(5):
            for r in ((13, 15, 26, 6), (17, 29, 16, 24))[i % 2]:
                x0 = x0 + x1
                x1 = ((x1 << np.uint32(r)) | (x1 >> np.uint32(32 - r))) ^ x0
            x0 = x0 + ks[(i + 1) % 3]
            x1 = x1 + ks[(i + 2) % 3] + np.uint32(i + 1)
    return np.stack([x0, x1], axis=1)


def _nuts_chain(jax, model, model_args, n_draws, n_warmup):
    """One NUTS chain as a function of ``(key, target_accept_prob, model_args)``."""
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

    # Measured and not taken: XLA's xla_backend_optimization_level=0 compiles
    # 8 x 10 in about 2.5 s less CPU but makes every later fit of the shape ~0.2 s
    # (15%) slower, which a report comparing many pairs of one shape pays again
    # and again; vmap over the chains runs them in about half the CPU time of
    # one after the other, but tracing it takes about 5 s more (a new process
    # pays it even when JAX's cache holds the program).
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

    return chain


def compiled_sampler(model, key):
    """The compiled sampler of ``model`` (a name) for ``key``, or ``None``."""
    return _CACHES.get(model, {}).get(key)


def remember_sampler(model, key, mcmc):
    """Keep a compiled sampler for its shape; past ``_MAX_COMPILED`` samplers,
    forget the others first (their machine code is freed with them)."""
    if sum(len(c) for c in _CACHES.values()) >= _MAX_COMPILED:
        release_compiled_samplers()
    _CACHES.setdefault(model, {})[key] = mcmc


def compiled_keys(model):
    """The keys of the compiled samplers kept for ``model`` (for tests)."""
    return list(_CACHES.get(model, {}))


def release_compiled_samplers():
    """Forget every compiled MCMC sampler; the next fit of each shape compiles
    again. JAX's own caches are the user's and are left alone."""
    _CACHES.clear()


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
    from scipy import special

    m, n = x.shape[:2]
    return special.ndtri(
        (_ranks(x.reshape(m * n, -1)) - 0.375) / (m * n + 0.25)
    ).reshape(x.shape)


def _ranks(x):
    """The ranks of each column of ``x`` (2-D, no NaN), ties averaged: the values
    of ``scipy.stats.rankdata(x, axis=0)``, without importing scipy.stats (a
    second of every fresh process that fits a model)."""
    n, p = x.shape
    order = np.argsort(x, axis=0, kind="stable")
    s = np.take_along_axis(x, order, axis=0)
    at = np.broadcast_to(np.arange(n)[:, None], s.shape)
    tied = s[1:] == s[:-1]  # each value against the next
    no = np.zeros((1, p), dtype=bool)
    # first and last position of each value's run of ties
    first = np.maximum.accumulate(np.where(np.vstack([no, tied]), 0, at), axis=0)
    last = np.where(np.vstack([tied, no]), n - 1, at)[::-1]
    last = np.minimum.accumulate(last, axis=0)[::-1]
    ranks = np.empty(s.shape)
    np.put_along_axis(ranks, order, (first + last) / 2 + 1, axis=0)
    return ranks


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
