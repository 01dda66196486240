"""The plumbing the MCMC models share: NUTS, seeds, arguments, diagnostics.

Used by :func:`~sklearn_bench.stats.bayesian_hierarchical` (NumPyro's NUTS, the
optional ``[bayes]`` extra) and :func:`~sklearn_bench.stats.bayesian_plackett_luce`
(a Gibbs sampler in NumPy). The diagnostics, in NumPy, decide whether a fit may
decide (:func:`diagnostics`): a rank-normalised split R-hat (bulk and folded) at
most 1.01, a bulk effective sample size of at least 100 per chain (Vehtari,
Gelman, Simpson, Carpenter & Bürkner 2021, Bayesian Analysis 16(2)) and no
divergent transition (NUTS). A fit that fails one is *unreliable*: its result
declines to decide (:data:`UNRELIABLE`) and one :class:`RuntimeWarning` says why.
"""

import math
import warnings

import numpy as np

from .._validation import check_random_state, real_number

EXTRA = 'pip install "sklearn-bench[bayes]"'
RHAT_LIMIT = 1.01
ESS_PER_CHAIN = 100
UNRELIABLE = "unreliable fit"
_TARGET_ACCEPT = 0.8  # NumPyro's default: no divergence on the demo or references
_RETRY_ACCEPT = 0.99  # the one retry when divergences remain
_MAX_COMPILED = 8  # compiled NUTS programs kept (each holds its machine code)
_COMPILED = {}  # by (potential, dim, argument shapes, n_draws, n_warmup)


def _backend():
    """``(jax, hmc)``, or ImportError naming the extra."""
    try:
        import jax
        import numpyro  # noqa: F401 (first: a cached submodule would not fail)
        from numpyro.infer.hmc import hmc
    except ImportError as exc:
        raise ImportError(
            "The Bayesian hierarchical model needs the optional NumPyro/JAX back "
            f"end: {EXTRA} ({exc})."
        ) from None
    return jax, hmc


def nuts(potential, dim, args, *, seed, n_chains, n_draws, n_warmup):
    """NumPyro's NUTS on the density ``exp(-potential(z, *args))`` of a flat ``z``.

    Each chain starts uniform in (−2, 2) (NumPyro's ``init_to_uniform``), adapts
    the step size and a diagonal mass matrix over ``n_warmup`` steps (NumPyro's
    defaults) and keeps ``n_draws``. A chain is one program, compiled once per
    shape and kept (the data, the key and the acceptance rate are arguments);
    chain ``i``'s key is ``fold_in(PRNGKey(seed), i)``. The chains run one after
    the other: vectorising them (``vmap``) saves a quarter of the sampling time
    but costs about 2 s more tracing in every new process. When divergent
    transitions remain, the fit runs once more at ``target_accept_prob=0.99``
    (smaller steps). Only JAX's public API is used and none of its settings is
    touched: a new process compiles again unless the user turned on JAX's
    persistent cache.

    Returns
    -------
    draws : ndarray of shape (n_chains, n_draws, dim)
    divergences : int
        Divergent transitions after warm-up, of the fit kept.
    retried : bool
    """
    jax, hmc = _backend()
    args = tuple(np.asarray(a, dtype=np.float32) for a in args)
    key = (potential, dim, tuple(a.shape for a in args), n_draws, n_warmup)
    program = _COMPILED.get(key)
    if program is None:
        init_kernel, sample_kernel = hmc(
            potential_fn_gen=lambda *a: lambda z: potential(z, *a), algo="NUTS"
        )

        def chain(seed_key, index, accept, args):
            key_init, key_run = jax.random.split(jax.random.fold_in(seed_key, index))
            z = jax.random.uniform(key_init, (dim,), minval=-2.0, maxval=2.0)
            state = init_kernel(
                z, n_warmup, target_accept_prob=accept, model_args=args, rng_key=key_run
            )

            def step(state, _):
                state = sample_kernel(state, model_args=args)
                return state, (state.z, state.diverging)

            steps = n_warmup + n_draws
            _, (zs, diverging) = jax.lax.scan(step, state, None, length=steps)
            return zs[n_warmup:], diverging[n_warmup:].sum()

        example = (np.zeros(2, np.uint32), np.int32(0), np.float32(0.8), args)
        if len(_COMPILED) >= _MAX_COMPILED:
            _COMPILED.clear()
        program = _COMPILED[key] = jax.jit(chain).lower(*example).compile()
    # the key data of jax.random.PRNGKey(seed), without a JAX program
    seed_key = np.array(divmod(seed % 2**64, 2**32), dtype=np.uint32)
    for accept in (_TARGET_ACCEPT, _RETRY_ACCEPT):
        out = [
            program(seed_key, np.int32(i), np.float32(accept), args)
            for i in range(n_chains)
        ]
        draws = np.stack([np.asarray(z, dtype=float) for z, _ in out])
        divergences = sum(int(d) for _, d in out)
        if not divergences:
            break
    return draws, divergences, accept == _RETRY_ACCEPT


def release_compiled_samplers():
    """Forget the compiled NUTS programs (the root conftest.py calls this after
    each test module); JAX's own caches are the user's and are left alone."""
    _COMPILED.clear()


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


def interval_level(confidence_level):
    """The level of the posterior intervals, a float strictly between 0 and 1."""
    level = real_number(confidence_level, "confidence_level")
    if not 0 < level < 1:
        raise ValueError(
            f"`confidence_level` must lie in (0, 1); got {confidence_level!r}."
        )
    return level


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
    """Largest rank-normalised split R-hat over the parameters of ``draws``
    (n_chains, n_draws, ...): Vehtari et al. (2021), eq. (14)–(16), the larger of
    the bulk and folded R-hat (as Stan and ArviZ); their threshold is 1.01.

    Its bulk part is invariant under monotone transformations and neither part
    needs a finite variance (on the demo the classic split R-hat of ``delta0``
    was 1.011 where this one was 1.006). 1 for fewer than 4 draws per chain;
    parameters constant in every chain are ignored.
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
    """Smallest effective sample size over the parameters of ``draws``
    (n_chains, n_draws, ...): Geyer's initial monotone sequence on the
    autocorrelations combined over chains (Stan's estimator; BDA3 §11.5), by FFT.
    ``n_chains * n_draws`` when every parameter is constant."""
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
    within = acov[:, 0].mean(axis=0) * n / (n - 1.0)
    var_plus = within * (n - 1.0) / n
    if m > 1:
        var_plus = var_plus + x.mean(axis=1).var(axis=0, ddof=1)
    valid = np.isfinite(var_plus) & (var_plus > 0)
    if not valid.any():
        return float(m * n)
    rho = 1.0 - (within[valid] - acov.mean(axis=0)[:, valid]) / var_plus[valid]
    rho[0] = 1.0
    n_pairs = (n - 1) // 2
    pairs = rho[0 : 2 * n_pairs : 2] + rho[1 : 2 * n_pairs : 2]
    # the initial monotone sequence: up to the first negative pair, decreasing
    before = np.cumprod(pairs >= 0, axis=0).astype(bool)
    pairs = np.minimum.accumulate(np.where(before, pairs, 0.0), axis=0)
    tau = np.maximum(-1.0 + 2.0 * pairs.sum(axis=0), 1.0 / math.log10(m * n + 10))
    return float((m * n / tau).min())


def diagnostics(r_hat, ess, divergences, n_chains, *, name, sampler="NUTS"):
    """``(ok, words)``: whether a fit with these diagnostics may decide, and
    its diagnostics in a sentence; when poor, one RuntimeWarning naming ``name``
    (e.g. ``"hierarchical model of A − B"``). ``divergences`` is 0 for Gibbs."""
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
