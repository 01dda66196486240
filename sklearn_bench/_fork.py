"""A call computed in a child process forked from this one, beside this one's
own work.

The report of a large study has independent parts of a few seconds of CPU each:
the Bayesian comparisons beside the frequentist analyses in ``analyse``, half of
the figures beside the other half and the tables in ``write_report``. Threads
cannot run them at once (matplotlib and the Python parts of the tests hold the
GIL), and a spawned process would first import for seconds what this one has
loaded. A child *forked* from this process starts in milliseconds with
everything loaded, reads the same objects (nothing is pickled on the way in),
and sends its result back pickled through a pipe.

A fork is safe only when nothing else runs in the process: the child has only
the forking thread, and a lock that another thread held at the fork stays held
in the child. So a child is forked only on Linux (fork is unsafe with macOS's
system libraries and absent on Windows), with at least 2 usable CPUs, while no
other Python thread runs and no XLA client runs its threads (JAX's, once it
made its first array, or the one that runs the hierarchical model's stored
sampler). Otherwise the call runs in this process when its result is asked for.
Whatever happens to the child (an exception, a crash, a kill), this process
computes the same call itself: no answer depends on the fork.
"""

import os
import pickle
import signal
import sys
import threading
import warnings
import weakref

from ._validation import check_n_jobs

__all__ = ["Forked", "can_fork", "forbid_forks", "fork_processes", "usable_cpus"]


def usable_cpus():
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


# Why this process may not fork any more: threads that Python does not see
# (an XLA client this package made; see forbid_forks).
_FORBIDDEN = []


def forbid_forks(why):
    """Record that this process now runs threads Python does not see (e.g. an
    XLA client's): no child is forked from then on."""
    _FORBIDDEN.append(why)


def _xla_runs():
    """Whether JAX has made its XLA clients (multi-threaded; JAX then warns at
    any fork). Importing JAX makes none: that is done at its first array."""
    bridge = sys.modules.get("jax._src.xla_bridge")
    if bridge is None:
        return False
    initialized = getattr(bridge, "backends_are_initialized", None)
    return initialized is None or bool(initialized())


def can_fork():
    """Whether a child may be forked now (see the module)."""
    return (
        sys.platform.startswith("linux")
        and hasattr(os, "fork")
        and usable_cpus() >= 2
        and threading.active_count() == 1
        and not _FORBIDDEN
        and not _xla_runs()
    )


def fork_processes(n_jobs):
    """2 when ``n_jobs`` asks for 2 or more processes and a child may be forked
    now, else 1. ``n_jobs`` follows joblib: ``None`` is 1 unless a
    ``joblib.parallel_config`` says otherwise, -1 is every CPU."""
    from joblib import effective_n_jobs

    check_n_jobs(n_jobs)
    return 2 if effective_n_jobs(n_jobs) >= 2 and can_fork() else 1


class Forked:
    """``fn(*args, **kwargs)``, computed in a forked child when ``fork`` is true
    (and :func:`can_fork`), else in this process by :meth:`result`.

    A child whose result is never read is stopped and reaped by :meth:`close`,
    on leaving a ``with`` block, or when the object is collected. Warnings the
    call gives in the child are given again here, under this process's
    filters.

    Examples
    --------
    >>> from sklearn_bench._fork import Forked
    >>> with Forked(sum, [1, 2, 3], fork=True) as job:
    ...     total = job.result()
    >>> total
    6
    """

    def __init__(self, fn, /, *args, fork, **kwargs):
        self._call = (fn, args, kwargs)
        self._pid = self._read = None
        if not (fork and can_fork()):
            return
        read, write = os.pipe()
        with warnings.catch_warnings():
            # Python >= 3.12 warns at the fork of a process with several OS
            # threads; those left are BLAS pools, which re-initialise in the
            # child (no Python thread runs: can_fork).
            warnings.filterwarnings(
                "ignore", message=".*multi-threaded", category=DeprecationWarning
            )
            pid = os.fork()
        if pid == 0:  # the child: compute, send, and never return
            code = 1
            try:
                os.close(read)
                # every warning, filtered by this process's filters when given
                # again (the child's registry may hold what was said before)
                with warnings.catch_warnings(record=True) as caught:
                    warnings.simplefilter("always")
                    value = fn(*args, **kwargs)
                given = [(w.message, w.category, w.filename, w.lineno) for w in caught]
                data = pickle.dumps((value, given), protocol=pickle.HIGHEST_PROTOCOL)
                with os.fdopen(write, "wb") as pipe:
                    pipe.write(data)
                code = 0
            finally:
                os._exit(code)
        os.close(write)
        self._pid, self._read = pid, read
        self._stop = weakref.finalize(self, _stop, pid, read)

    @property
    def forked(self):
        """Whether a child computes the call (until its result is read)."""
        return self._pid is not None

    def result(self):
        """The call's value: the child's, or computed here when there is no
        child or it failed."""
        if self._pid is not None:
            got = self._collect()
            if got is not None:
                value, given = got
                for message, category, filename, lineno in given:
                    warnings.warn_explicit(message, category, filename, lineno)
                return value
        fn, args, kwargs = self._call
        return fn(*args, **kwargs)

    def _collect(self):
        """``(value, warnings)`` read from the child, or None if it failed."""
        pid, self._pid = self._pid, None
        self._stop.detach()
        try:
            with os.fdopen(self._read, "rb") as pipe:
                data = pipe.read()
        finally:  # a closed pipe ends a child still writing (EPIPE)
            _, status = os.waitpid(pid, 0)
        if status != 0 or not data:
            return None
        try:
            return pickle.loads(data)
        except Exception:  # e.g. a class the child's value needs is not importable
            return None

    def close(self):
        """Stop and reap a child whose result was not read."""
        if self._pid is not None:
            self._pid = None
            self._stop()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _stop(pid, read):
    os.close(read)
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    os.waitpid(pid, 0)
