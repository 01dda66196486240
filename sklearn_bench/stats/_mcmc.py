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

import contextlib
import hashlib
import math
import os
import platform
import sys
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np

from .._validation import check_positive_int, check_random_state, real_number

EXTRA = 'pip install "sklearn-bench[bayes]"'
RHAT_LIMIT = 1.01
ESS_PER_CHAIN = 100
UNRELIABLE = "unreliable fit"
_MAX_COMPILED = 8  # compiled NUTS samplers kept, over all models

# compiled samplers by model, then by shape and settings
_CACHES = {}
# The folder of the compiled programs kept across processes; "0" or "off" keeps
# none (see persistent_cache)
CACHE_ENV = "SKLEARN_BENCH_CACHE_DIR"
_PERSISTENT = {}  # the folder set for JAX in this process, once
_VERSIONS = {}  # of JAX, jaxlib and NumPyro, read once


# ------------------------------------------------------------------ back end
def backend(what="The Bayesian hierarchical model"):
    """Import JAX, or raise ImportError naming the extra; NumPyro is looked for
    but imported only to trace a model (:func:`nuts_sampler`): a process that
    loads the traced program from the cache folder never imports it (about a
    second).
    """
    require_backend(what)
    import jax

    if "folder" not in _PERSISTENT:
        _PERSISTENT["folder"] = persistent_cache(jax)
    return jax


def require_backend(what="The Bayesian hierarchical model"):
    """Raise ImportError naming the extra unless JAX and NumPyro are installed
    (looked for, not imported: a sampler kept in memory or in the cache folder
    runs without importing NumPyro, but the answer must not depend on what a
    cache holds)."""
    from importlib.util import find_spec

    for name in ("jax", "numpyro"):
        if find_spec(name) is None:
            raise ImportError(
                f"{what} needs the optional NumPyro/JAX back end: {EXTRA} "
                f"(missing: {name})."
            )


def cache_folder():
    """The folder of sklearn_bench's caches, or ``None`` when they are off.

    ``$SKLEARN_BENCH_CACHE_DIR`` if set (``""``, ``"0"`` or ``"off"``: no cache),
    else ``sklearn_bench`` in the user's cache folder (``$XDG_CACHE_HOME`` or
    ``~/.cache``; ``~/Library/Caches`` on macOS, ``%LOCALAPPDATA%`` on Windows).
    A relative path is refused (``None``): nothing is written to the working
    directory.
    """
    value = os.environ.get(CACHE_ENV)
    if value is not None:
        if value.strip().lower() in ("", "0", "off", "false", "no", "none"):
            return None
        path = Path(value).expanduser()
    else:
        try:
            if sys.platform == "win32":
                base = os.environ.get("LOCALAPPDATA", "")
            elif sys.platform == "darwin":
                base = Path.home() / "Library" / "Caches"
            else:
                base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
        except RuntimeError:  # no home folder
            return None
        path = Path(base) / "sklearn_bench"
    return path if path.is_absolute() else None


def _versions(*names):
    """The versions of the packages ``names``, read without importing them."""
    from importlib.metadata import version

    return [_VERSIONS.get(n) or _VERSIONS.setdefault(n, version(n)) for n in names]


def machine_folder():
    """The folder of the compiled programs of this machine and these versions of
    JAX, or ``None`` when the cache is off (:func:`cache_folder`); computed
    without importing JAX.

    ``jax-<tag>`` in :func:`cache_folder`, the tag a digest of the machine (CPU
    type and features: a program compiled for one CPU is never loaded on
    another) and of the versions of JAX and jaxlib; made private (mode 700).

    Raises
    ------
    OSError
        When it cannot be made, or when it or the cache folder is not private to
        this user (it holds machine code that JAX runs).
    """
    root = cache_folder()
    if root is None:
        return None
    machine = [platform.machine(), *_versions("jax", "jaxlib")]
    try:  # the CPU's features (Linux): programs are compiled for them
        with open("/proc/cpuinfo") as info:
            machine += [line for line in info if line.startswith("flags")][:1]
    except OSError:
        machine.append(platform.processor())
    tag = hashlib.sha256("\n".join(machine).encode()).hexdigest()[:16]
    folder = root / f"jax-{tag}"
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    for path in (root, folder):
        info = path.stat()
        if hasattr(os, "getuid") and (
            info.st_uid != os.getuid() or info.st_mode & 0o022
        ):
            raise PermissionError(
                f"{str(path)!r} is not private to this user (owned by another "
                "user or writable by others)"
            )
    return folder


def persistent_cache(jax):
    """Keep JAX's compiled programs in :func:`machine_folder`, so that a new
    process loads the sampler of a shape instead of compiling it again (most of
    a cold fit: 8 x 10 took 9 s in a fresh process, 1.6 s warm).

    JAX's persistent compilation cache keys each program by its code, shapes,
    compiler options and JAX version; the folder adds the machine and the
    versions of JAX. Thresholds are set to 0 so that every program of a fit is
    kept (JAX's default keeps only those that took 1 s to compile). An entry
    that another process is writing reads as damaged: JAX warns, compiles again
    and nothing else happens. Nothing is done when JAX already has a cache
    folder (set by you), when the cache is off (``$SKLEARN_BENCH_CACHE_DIR``), or
    when the folder is not private to this user: a folder owned by someone else
    or writable by others is refused with a warning.

    Returns
    -------
    path : Path or None
        The folder JAX uses, ``None`` when no cache is set here.
    """
    if cache_folder() is None or jax.config.jax_compilation_cache_dir is not None:
        return None
    try:
        folder = machine_folder()
    except OSError as exc:
        warnings.warn(
            f"Compiled MCMC samplers are not kept across processes: {exc}. Set "
            f"{CACHE_ENV} to a private folder, or to 0 to silence this.",
            RuntimeWarning,
            stacklevel=3,
        )
        return None
    jax.config.update("jax_compilation_cache_dir", str(folder))
    jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
    return folder


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
    rate, runs the compiled code without tracing or compiling again. The code
    compiled in a process is also kept on disk (:func:`store_program`), and a
    new process runs it from there (:func:`stored_program`) without tracing,
    lowering or compiling anything; on any failure (the file is then deleted)
    it falls back to JAX's persistent cache (:func:`persistent_cache`), which
    also serves when the program was not kept; a program read from there is
    compiled once more past JAX's caches and then kept (XLA serialises one it
    read from its cache without some of its kernels), so that only the first
    process after a change of this code pays a compilation. The chains run
    at the same time in threads, at most one per CPU this process may use (XLA
    releases the GIL while a program runs); each chain's draws depend only on
    its key (:func:`chain_keys`), so they are the same bit for bit in any
    number of threads, and whether the program was compiled or read.

    ``numpyro.infer.MCMC`` runs the same kernel, but traced and compiled again
    on every ``run`` when its chains are vectorised (its caches are bypassed
    under ``vmap``): that was 90% of a fit's time.

    Parameters
    ----------
    name : str
        The model's name in the cache of compiled samplers.
    make_model : callable
        ``make_model()`` returns a NumPyro model taking ``model_args``; called
        only when the program is traced (not when it is read from the cache
        folder), so that NumPyro is imported only then.
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
    from functools import cache

    key = (*size, n_draws, n_warmup)
    example = (np.zeros(2, np.uint32), np.float32(0.8), model_args)
    # looked for only when the program is not in memory (a digest of two files)
    stored = cache(
        lambda: _program_path(f"{name}-{'-'.join(map(str, key))}", make_model, "xla")
    )

    def compile_program():
        jax = backend()
        chain = _traced(
            jax,
            stored() and stored().with_suffix(".jaxexport"),
            lambda: jax.jit(
                _nuts_chain(jax, make_model(), model_args, n_draws, n_warmup)
            ),
            example,
        )
        # compiled before any thread calls it: once, not once per thread
        hits = _cache_hits(jax)
        compiled = chain.lower(*example).compile()
        # not after a stored one failed when run: it would fail again
        if stored() is not None and not stored().with_suffix(".failed").exists():
            # only a program compiled here: XLA serialises one it read from
            # JAX's cache without some of its kernels (it then fails when run);
            # JAX's cache holds one when the code changed but not the program
            # (a new version of this package), so compile it once more past
            # that cache, or every later process would read it from there
            fresh = (
                compiled if _cache_hits(jax) == hits else _uncached(jax, chain, example)
            )
            if fresh is not None:
                store_program(stored(), fresh, example)

        def program(key, accept, args):
            draws, diverging = compiled(key, accept, args)
            return jax.tree.map(np.asarray, draws), int(diverging)

        return program

    require_backend()
    program = compiled_sampler(name, key)
    if program is None:
        program = stored() and stored_program(stored(), example)
        program = program or compile_program()
        remember_sampler(name, key, program)

    def chains(program, keys, accept, args):
        n_threads = min(n_chains, os.cpu_count() or 1)
        if n_threads > 1:
            with ThreadPoolExecutor(n_threads) as pool:
                out = pool.map(lambda k: program(k, accept, args), keys)
                # what the diagnostics and models need next, imported while
                # the chains run (they release the GIL): 0.2 s of a new process
                from scipy import special  # noqa: F401

                return list(out)
        return [program(k, accept, args) for k in keys]

    def run(seed, target_accept_prob, *args):
        nonlocal program
        keys = chain_keys(seed, n_chains)
        accept = np.float32(target_accept_prob)
        try:
            out = chains(program, keys, accept, args)
        except Exception:
            if not getattr(program, "stored", False):
                raise
            # the stored program failed: compile, and keep no other of it
            stored().unlink(missing_ok=True)
            with contextlib.suppress(OSError):
                stored().with_suffix(".failed").touch()
            program = compile_program()
            remember_sampler(name, key, program)
            out = chains(program, keys, accept, args)
        draws = {
            site: np.stack([np.asarray(c[0][site], dtype=float) for c in out])
            for site in out[0][0]
        }
        return draws, sum(c[1] for c in out)

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


_HITS = []  # hits of JAX's persistent cache in this process, once listened to


def _uncached(jax, chain, example):
    """``chain`` lowered and compiled again, past JAX's caches: in memory
    (``jax.clear_caches``) and on disk (switched off and back on through its
    private ``reset_cache``); ``None`` where this JAX cannot."""
    try:
        from jax._src import compilation_cache
    except ImportError:
        return None
    try:
        jax.config.update("jax_enable_compilation_cache", False)
        compilation_cache.reset_cache()
        jax.clear_caches()
        return chain.lower(*example).compile()
    except Exception:
        return None
    finally:
        jax.config.update("jax_enable_compilation_cache", True)
        compilation_cache.reset_cache()


def _cache_hits(jax):
    """How many programs JAX has read from its persistent cache in this process
    (counted from the first call)."""
    if not _HITS:
        _HITS.append(0)

        def count(name, **kwargs):
            if name == "/jax/compilation_cache/cache_hits":
                _HITS[0] += 1

        jax.monitoring.register_event_listener(count)
    return _HITS[0]


def _program_path(name, make_model, suffix):
    """Where the program ``name`` is kept: :func:`machine_folder`, the name and a
    digest of the code that makes it (this module, the module of
    ``make_model``, the versions of JAX, jaxlib and NumPyro, ``$XLA_FLAGS``,
    whether JAX computes in 64 bits); ``None`` when the cache is off, the folder
    not private, or NumPyro missing.
    """
    try:
        folder = machine_folder()
        versions = _versions("jax", "jaxlib", "numpyro")
    except Exception:  # not private (persistent_cache warns), no NumPyro
        return None
    if folder is None:
        return None
    code = hashlib.sha256()
    for part in (__file__, make_model.__code__.co_filename):
        code.update(Path(part).read_bytes())
    jax = sys.modules.get("jax")
    x64 = os.environ.get("JAX_ENABLE_X64", "").lower() in ("1", "true", "yes", "on")
    if jax is not None:
        x64 = bool(jax.config.jax_enable_x64)
    code.update(f"{versions} {os.environ.get('XLA_FLAGS')} {x64}".encode())
    return folder / f"sklearn_bench-{name}-{code.hexdigest()[:20]}.{suffix}"


def _traced(jax, path, make, example):
    """``make()``, the jitted chain, or its traced program read from the cache
    folder (skips tracing NUTS, about a second, in a new process).

    With a cache folder (``path`` not ``None``) and ``flatbuffers`` installed
    (JAX's ``jax.export`` serialises with it: no pickle), the program is kept as
    ``jax.export`` bytes at ``path`` (:func:`_program_path`), written whole
    (a temporary file renamed), and read back by any later process that cannot
    use the compiled program (:func:`stored_program`); a damaged file is
    exported again.
    """
    try:
        import flatbuffers  # noqa: F401  (jax.export's serialisation)
        from jax import export
    except ImportError:
        return make()
    if path is None:
        return make()
    try:
        exported = export.deserialize(bytearray(path.read_bytes()))
    except Exception:  # missing or damaged: trace it and keep it
        exported = export.export(make())(*example)
        _write(path, exported.serialize())

    # named: JAX's cache key includes it, so a cache that holds this program
    # under the former name (jitted ``exported.call``), which could not be
    # stored once read from there, compiles it once more and stores it
    def stored_nuts_chain(*args):
        return exported.call(*args)

    return jax.jit(stored_nuts_chain)


def _write(path, data):
    """Write ``data`` to ``path`` whole: a temporary file of this process and
    thread, renamed (atomic: a reader sees the old file or the new one); an
    error leaves nothing."""
    import threading

    temporary = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    try:
        temporary.write_bytes(data)
        os.replace(temporary, path)
    except OSError:
        temporary.unlink(missing_ok=True)


_MAGIC = b"sklearn_bench XLA executable 1"
_CLIENT = []  # the XLA CPU client that runs stored programs, made once


def _signature(example):
    """The shapes and dtypes of a program's flattened inputs."""
    key, accept, args = example
    return [[list(np.shape(a)), np.asarray(a).dtype.str] for a in (key, accept, *args)]


def store_program(path, compiled, example):
    """Keep the compiled program ``compiled`` (a ``jax.stages.Compiled`` taking
    ``example``) at ``path``, for :func:`stored_program`; nothing on failure.

    The file is one line of magic, one line of JSON (the inputs' shapes and
    dtypes, where each output site is, the SHA-256 of the executable) and the
    executable's bytes as XLA serialises them (``Client.serialize_executable``:
    machine code and its metadata, no pickle). It is written whole (a temporary
    file renamed), so processes writing the same program at once are safe.
    """
    import json

    import jax

    try:
        executable = compiled.runtime_executable()
        if executable.client.platform != "cpu" or len(
            executable.get_parameter_layouts()
        ) != len(_signature(example)):
            return  # not for the CPU (run there), or not a plain program
        where, diverging = jax.tree.unflatten(
            compiled.out_tree, range(compiled.out_tree.num_leaves)
        )
        payload = executable.client.serialize_executable(executable)
        header = {
            "inputs": _signature(example),
            "sites": where,
            "diverging": diverging,
            "sha256": hashlib.sha256(payload).hexdigest(),
        }
    except Exception:  # pragma: no cover - depends on the version of jaxlib
        return
    _write(path, b"\n".join([_MAGIC, json.dumps(header).encode(), payload]))


def stored_program(path, example):
    """The program kept at ``path`` by :func:`store_program`, loaded and ready to
    run on NumPy arrays, or ``None`` (missing, damaged, other inputs, or a
    jaxlib that cannot load it: the caller compiles).

    In a new process this replaces tracing, lowering, computing JAX's cache key
    and JAX's reading of its cache (about 0.5 s for 8 x 10): jaxlib's CPU client
    (one per process, beside JAX's) loads the executable in a thread, which
    releases the GIL, while JAX is imported (needed to move the arrays) in this
    one. Uses jaxlib's ``Client.deserialize_executable``,
    ``LoadedExecutable.execute_sharded`` and DLPack: private API, so any error,
    here or at the first run (:func:`nuts_sampler`: the file is then deleted),
    falls back to compiling.

    Returns
    -------
    program : callable or None
        ``program(key, accept, args)`` returns ``(draws, diverging)``: a dict of
        NumPy arrays per site and the number of divergent transitions.
    """
    import json

    try:
        magic, header, payload = path.read_bytes().split(b"\n", 2)
        header = json.loads(header)
        if (
            magic != _MAGIC
            or header["inputs"] != _signature(example)
            or hashlib.sha256(payload).hexdigest() != header["sha256"]
        ):
            return None
        # jax/__init__.py sets this before jaxlib loads; the client made below
        # before `import jax` ends would otherwise print its INFO lines
        # ("PjRt-IFRT device count") on stderr
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")
        from jaxlib import _jax, xla_client

        def load():
            if not _CLIENT:
                _CLIENT.append(xla_client.make_cpu_client())
            device = _CLIENT[0].local_devices()[0]
            return device, _CLIENT[0].deserialize_executable(
                payload, executable_devices=xla_client.DeviceList((device,))
            )

        with ThreadPoolExecutor(1) as pool:
            loading = pool.submit(load)
            import jax  # noqa: F401  (its arrays; at the same time as the load)

            device, executable = loading.result()
    except Exception:
        return None
    sites, diverging = header["sites"], header["diverging"]

    def program(key, accept, args):
        inputs = [
            _jax.dlpack_managed_tensor_to_buffer(np.array(a).__dlpack__(), device, None)
            for a in (key, accept, *args)
        ]
        out = executable.execute_sharded(inputs)
        out = [np.asarray(a[0]) for a in out.disassemble_into_single_device_arrays()]
        return {site: out[i] for site, i in sites.items()}, int(out[diverging])

    program.stored = True
    return program


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
    # and again; vmap over the chains is no faster than one chain after the
    # other in one thread, and threads run them at the same time.
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
