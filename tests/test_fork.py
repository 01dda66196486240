"""The forked child of ``n_jobs=2`` (``sklearn_bench._fork``): it computes in
another process when it may, gives the same answer as this process, and this
process computes the call itself whenever the child fails."""

import os
import threading
import time
import warnings

import pytest

from sklearn_bench import _fork
from sklearn_bench._fork import Forked, can_fork, fork_processes
from sklearn_bench._validation import check_n_jobs

needs_fork = pytest.mark.usefixtures("forkable")


def _pid_in_child(parent):
    return os.getpid()


def _fails_in_child(parent):
    if os.getpid() != parent:
        raise RuntimeError("the child fails")
    return "computed by the parent"


def _dies_in_child(parent):
    if os.getpid() != parent:
        os._exit(3)
    return "computed by the parent"


def _warns(parent):
    warnings.warn("said in the call", UserWarning, stacklevel=1)
    return os.getpid() != parent


def _sleeps(seconds):
    time.sleep(seconds)
    return seconds


@needs_fork
def test_the_call_runs_in_another_process():
    """H: with fork=True (and a fork allowed) the value comes from a child
    process, not from this one."""
    with Forked(_pid_in_child, os.getpid(), fork=True) as job:
        assert job.forked
        value = job.result()
    assert value != os.getpid()
    assert not job.forked


def test_without_fork_the_call_runs_here_when_asked():
    """H: fork=False forks nothing and computes at result(), in this process."""
    job = Forked(_pid_in_child, os.getpid(), fork=False)
    assert not job.forked
    assert job.result() == os.getpid()


@needs_fork
@pytest.mark.parametrize("call", [_fails_in_child, _dies_in_child])
def test_a_failed_child_leaves_the_call_to_this_process(call):
    """H: an exception or a crash of the child is not an answer: this process
    computes the same call and returns its value."""
    with Forked(call, os.getpid(), fork=True) as job:
        assert job.result() == "computed by the parent"


@needs_fork
def test_an_error_of_the_call_is_raised_here():
    """H: a call that fails anywhere fails here, with its own exception."""
    with Forked(check_n_jobs, 0, fork=True) as job:
        with pytest.raises(ValueError, match="non-zero integer"):
            job.result()


@needs_fork
def test_warnings_of_the_child_are_given_here():
    """H: a warning the call gives in the child is given again by result(),
    under this process's filters (recorded here, ignored here)."""
    with Forked(_warns, os.getpid(), fork=True) as job:
        with pytest.warns(UserWarning, match="said in the call"):
            assert job.result() is True  # computed by the child
    with Forked(_warns, os.getpid(), fork=True) as job:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            warnings.filterwarnings("ignore", message="said in the call")
            assert job.result() is True


@needs_fork
def test_a_child_not_asked_is_stopped_and_reaped():
    """H: leaving the block before result() kills the child and reaps it (no
    zombie: waitpid finds no such child afterwards), well before it ends."""
    start = time.perf_counter()
    with Forked(_sleeps, 30, fork=True) as job:
        pid = job._pid
    assert time.perf_counter() - start < 10
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


@needs_fork
def test_a_child_is_reaped_when_its_job_is_collected():
    """H: a job dropped without result() or close() (an exception between the
    two) does not leave its child behind."""
    job = Forked(_sleeps, 30, fork=True)
    pid = job._pid
    del job
    with pytest.raises(ChildProcessError):
        os.waitpid(pid, os.WNOHANG)


def test_no_fork_while_another_thread_runs():
    """H: a lock held by another thread at a fork stays held in the child, so
    none is forked while a second Python thread runs."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert not can_fork()
        assert fork_processes(2) == 1
        assert not Forked(_pid_in_child, 0, fork=True).forked
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize(
    ("initialized", "forks"),
    [(lambda: True, False), (None, False), (lambda: False, True)],
)
def test_no_fork_once_xla_runs(monkeypatch, initialized, forks):
    """H: JAX's XLA clients run threads (JAX warns at a fork): none is forked
    once JAX made them, or when this JAX cannot say; importing JAX makes
    none, and does not forbid it."""
    import sys
    import types

    monkeypatch.setattr(_fork, "usable_cpus", lambda: 2)
    monkeypatch.setattr(_fork.sys, "platform", "linux")
    bridge = types.ModuleType("jax._src.xla_bridge")
    if initialized is not None:
        bridge.backends_are_initialized = initialized
    monkeypatch.setitem(sys.modules, "jax._src.xla_bridge", bridge)
    assert can_fork() is (forks and threading.active_count() == 1)


def test_no_fork_once_forbidden(monkeypatch):
    """H: threads Python does not see (the XLA client of the stored sampler)
    are recorded by forbid_forks: no child is forked from then on."""
    monkeypatch.setattr(_fork, "_FORBIDDEN", [])
    _fork.forbid_forks("an XLA client runs its threads")
    assert not can_fork()
    assert fork_processes(2) == 1


def test_no_fork_off_linux(monkeypatch):
    """H: fork is unsafe on macOS and absent on Windows: Linux only."""
    monkeypatch.setattr(_fork.sys, "platform", "darwin")
    assert not can_fork()


@pytest.mark.parametrize("n_jobs", [None, 1, -(10**6)])
def test_one_process_unless_asked(n_jobs):
    """H: joblib's convention: None and 1 are one process (and a negative
    count beyond the CPUs is at least one)."""
    assert fork_processes(n_jobs) == 1


@needs_fork
@pytest.mark.parametrize("n_jobs", [2, -1, 8])
def test_two_processes_when_asked(n_jobs):
    """H: 2 or more (or every CPU of 2) ask for the forked child."""
    assert fork_processes(n_jobs) == 2


@pytest.mark.parametrize("n_jobs", [0, 1.5, True, "2"])
def test_n_jobs_is_checked(n_jobs):
    """H: n_jobs is None or a non-zero integer, as joblib and sklearn take it."""
    with pytest.raises(ValueError, match="non-zero integer"):
        check_n_jobs(n_jobs)


_RUN = """
[experiment]
cv = 3
random_state = 0
[learners.lr]
class = "sklearn.linear_model.LogisticRegression"
params = {max_iter = 1000}
[learners.dummy]
class = "sklearn.dummy.DummyClassifier"
[datasets.iris]
sklearn = "iris"
[datasets.wine]
sklearn = "wine"
"""


@needs_fork
def test_a_run_leaves_no_thread_that_forbids_its_reports_fork(tmp_path, monkeypatch):
    """H: `run --n-jobs 2` fits on joblib's worker pool, whose threads would
    forbid the fork; the command ends the pool after the fit, so its report
    forks its second process (can_fork answers True there)."""
    pytest.importorskip("matplotlib")
    from sklearn_bench.cli import main

    answers = []
    real = _fork.can_fork

    def recorded():
        answers.append(real())
        return answers[-1]

    monkeypatch.setattr(_fork, "can_fork", recorded)
    config = tmp_path / "run.toml"
    config.write_text(_RUN)
    code = main(["run", str(config), "--n-jobs", "2", "--out", str(tmp_path / "o")])
    assert code == 0
    assert answers and all(answers)
    assert threading.active_count() == 1
