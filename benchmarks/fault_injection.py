"""Fault injection on a small real store (issue 21): kills, truncations, bit flips.

A committed value must never be lost silently nor changed. This script runs a
small real study (iris, wine and breast cancer; naive Bayes, a tree and kNN;
8 out-of-bootstrap replicates: 72 tasks with kept predictions) once without
faults for the reference values, then injects:

- **kills**: SIGKILL of ``run`` (n_jobs 1 and 2; the first at a random
  instant, the others once a random number of tasks are committed, plus up to
  20 ms), of a ``grow`` (two more learners on a store of one, likewise), and at
  a random instant of ``merge`` (three part stores into one) and of
  ``salvage`` (of a truncated store). After each: the
  store reads, every committed row equals the reference bit for bit; resuming
  runs exactly the tasks not committed and ends equal to the reference; a
  killed merge leaves the target as it was or fully merged; a killed salvage
  leaves no store at NEW or a complete one (its leftover is refused by name);
- **truncations** of the store at random cut points (most off page boundaries):
  salvage keeps no wrong row, and resuming the salvaged store ends equal to the
  reference;
- **bit flips** at random positions of the store file, and of the ``-wal`` file
  of a killed run: either ``store check`` finds the damage (exit 2) and salvage
  keeps only reference rows, or every committed value still reads as the
  reference; a flip that changes a value unseen is a failure.
- **planted SQL** (issue 29, item 4): a trigger that zeroes another learner's
  scores when the study grows, a view, a table, an expression index: ``store
  check`` and ``from_store`` refuse the store, and a grow refuses it before
  writing (the rows stay as they were);
- **values changed** after they were written (item 3): a score (by 2^-20 to
  0.5), a size, kept predictions: ``from_store`` (so ``report`` and
  ``leaderboard``) and ``store check`` refuse the store, naming the task;
- **symbolic links** planted where sklearn-bench writes (item 1 and the store
  paths): at each output name of a report (dangling, or to a file of the
  user's), a symlinked ``figures/`` (also with a planted manifest under
  ``--force``), the leaderboard CSV as a dangling link to a ``.pth`` beside a
  learner whose name is Python code, a run, grow, merge, salvage and
  checkpoint on a store (or a ``-wal``) that is a link: each exits 2 and
  nothing is written through a link (reading a linked store is allowed).
- **trust, third pass** (issue 38), with a folder of the user's beside the
  output folders whose every byte is compared before and after: a lock
  hard-linked to the user's file (leaderboard, report), a hard-linked output
  under ``--force``, a hard-linked store; a store without its checksums table
  and a forged score, deleted rows, a flipped metric direction (stale or
  rewritten checksums) against ``store check``, ``report``, ``leaderboard``,
  ``merge`` and ``salvage``; kept predictions of a forged size; a staging
  folder swapped for a link mid-report; the user's files named like a staging
  folder; a lock that is a folder; a dangling ``report-2``; a name with raw
  HTML, a carriage return, a newline that forges a verdict, a zero-width
  space; a CSV score of 1e308 or a column named twice; a config class in the
  standard library. Each must exit 2 (or be handled safely) and change
  nothing outside the output folder.
- **hostile dask workers** (issue 38, item 6): workers that return, for one
  learner, a score out of bounds, a NaN without a failure, another task's key,
  an object instead of plain data, predictions of other rows (each refused on
  arrival, nothing of it stored), or a score within bounds (refused by
  ``verify=0.25``; the lies stored before are counted).

It prints how many cases were tried, and that none lost or changed a committed
value (exit status 1 otherwise). Run from the repository root:

    python benchmarks/fault_injection.py            # about 3 minutes on 2 cores
    python benchmarks/fault_injection.py --kills 2 --cuts 10 --flips 40 --tampers 10

Measured on the shared 2-core machine (default settings, seed 0): see the
output printed at the end of a run; it is quoted in docs/cli.rst.
"""

import argparse
import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

LEARNERS = ("nb", "tree", "knn")
N_BOOTSTRAPS = 8
DATASETS = ("iris", "wine", "cancer")


def experiment(store, learners=LEARNERS, datasets=DATASETS, n_jobs=1):
    from sklearn.datasets import load_breast_cancer, load_iris, load_wine
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neighbors import KNeighborsClassifier
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench import BenchmarkExperiment
    from sklearn_bench.model_selection import BootstrapOOB

    models = {
        "nb": GaussianNB(),
        "tree": DecisionTreeClassifier(random_state=0),
        "knn": KNeighborsClassifier(),
    }
    loaders = {"iris": load_iris, "wine": load_wine, "cancer": load_breast_cancer}
    exp = BenchmarkExperiment(
        {name: models[name] for name in learners},
        cv=BootstrapOOB(n_bootstraps=N_BOOTSTRAPS),
        random_state=0,
        progress=False,
        store=store,
        keep_predictions=True,
        n_jobs=n_jobs,
    )
    data = {name: loaders[name](return_X_y=True) for name in datasets}
    return exp, data


def child(argv):
    """What a killed process runs: ``run STORE N_JOBS``, ``grow STORE``,
    ``merge TARGET SOURCE...``, ``salvage STORE NEW``."""
    action = argv[0]
    if action in ("run", "grow"):
        exp, data = experiment(argv[1], n_jobs=int(argv[2]) if action == "run" else 1)
        print("started", flush=True)
        exp.fit(data)
    elif action == "merge":
        from sklearn_bench.store import merge_stores

        print("started", flush=True)
        merge_stores(argv[2:], argv[1])
    elif action == "salvage":
        from sklearn_bench.store import salvage_store

        print("started", flush=True)
        salvage_store(argv[1], argv[2])


def values(store):
    """Every committed task's rows: {(dataset, split, learner): (scores, preds)},
    values as exact hex, predictions as a digest; read without changing the
    store (a copy is read when a -wal file is beside it)."""
    if not Path(store).exists() or Path(store).stat().st_size == 0:
        return {}
    uri = f"file:{store}?mode=ro"
    conn = sqlite3.connect(uri, uri=True)
    try:
        tables = {n for (n,) in conn.execute("SELECT name FROM sqlite_master")}
        if not {"tasks", "scores", "predictions"} <= tables:
            return {}
        scores = conn.execute(
            "SELECT t.dataset, t.split, t.learner, s.metric_index, s.metric, "
            "s.value, s.n_train, s.n_test, s.error_type, t.replicate, t.fold "
            "FROM scores s JOIN tasks t NOT INDEXED USING (ordinal) "
            "ORDER BY s.metric_index"
        ).fetchall()
        preds = conn.execute(
            "SELECT t.dataset, t.split, t.learner, p.n, p.rows, p.correct, p.y_pred "
            "FROM predictions p JOIN tasks t NOT INDEXED USING (ordinal)"
        ).fetchall()
    finally:
        conn.close()
    out = {}
    for d, s, m, *rest in scores:
        rest[2] = None if rest[2] is None else float(rest[2]).hex()
        out.setdefault((d, s, m), [[], None])[0].append(tuple(rest))
    for d, s, m, n, rows, correct, y_pred in preds:
        digest = hashlib.sha256(repr((n, rows, correct, y_pred)).encode()).hexdigest()
        if (d, s, m) in out:
            out[d, s, m][1] = digest
    return {k: (tuple(v[0]), v[1]) for k, v in out.items()}


class Tally:
    def __init__(self):
        self.cases = {}
        self.failures = []
        self.partial = 0  # kills that left some but not all tasks committed

    def case(self, kind):
        self.cases[kind] = self.cases.get(kind, 0) + 1

    def check(self, ok, what):
        if not ok:
            self.failures.append(what)
            print(f"  FAILURE: {what}", flush=True)


def wrong_rows(store, reference):
    got = values(store)
    return [k for k, v in got.items() if reference.get(k) != v], len(got)


def spawn(args):
    env = dict(os.environ, PYTHONPATH=str(ROOT), OMP_NUM_THREADS="1")
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", *map(str, args)],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
        start_new_session=True,
    )
    proc.stdout.readline()  # "started": imports done
    return proc


def timed(args):
    """Seconds from the child's "started" (imports done) to its end: the window
    a kill is drawn in."""
    proc = spawn(args)
    start = time.perf_counter()
    proc.wait()
    return time.perf_counter() - start


def kill_after(args, delay):
    proc = spawn(args)
    time.sleep(delay)
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the driver and its workers
    except ProcessLookupError:
        pass
    proc.wait()


def _n_committed(store):
    try:
        conn = sqlite3.connect(f"file:{store}?mode=ro", uri=True, timeout=0.1)
        try:
            return conn.execute(
                "SELECT count(DISTINCT ordinal) FROM scores"
            ).fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def kill_when(args, store, target, jitter):
    """SIGKILL a child once ``target`` tasks are committed (then a random
    ``jitter`` of seconds later: within a task, or a commit)."""
    proc = spawn(args)
    while proc.poll() is None and _n_committed(store) < target:
        time.sleep(0.005)
    time.sleep(jitter)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()


def resume(store, reference, tally, what, learners=LEARNERS):
    """Resume a store in this process: only the missing tasks run, and every
    value ends equal to the reference."""
    committed = len(values(store)) if store.exists() else 0
    n_all = len(learners) * len(DATASETS) * N_BOOTSTRAPS
    if what.startswith("killed") and 0 < committed < n_all:
        tally.partial += 1
    exp, data = experiment(store, learners=learners)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        exp.fit(data)
    n_all = len(learners) * len(DATASETS) * N_BOOTSTRAPS
    tally.check(
        exp.n_tasks_ == n_all - committed,
        f"{what}: resuming ran {exp.n_tasks_} tasks, {n_all - committed} missing",
    )
    bad, n = wrong_rows(store, reference)
    tally.check(not bad and n == n_all, f"{what}: {len(bad)} wrong rows after resume")


def kills(folder, reference, tally, rng, n_kills):
    base = folder / "base.sqlite"
    t_run = timed(["run", base, 1])
    print(f"a run's fit in a child process: {t_run:.1f} s", flush=True)
    for n_jobs in (1, 2):
        for i in range(n_kills):
            store = folder / f"run{n_jobs}_{i}.sqlite"
            target = rng.randrange(1, len(reference))
            if i == 0:  # any instant, before the store exists included
                kill_after(["run", store, n_jobs], rng.uniform(0, t_run))
            else:  # after a random number of commits, plus up to 20 ms
                jitter = rng.uniform(0, 0.02)
                kill_when(["run", store, n_jobs], store, target, jitter)
            tally.case(f"kill run n_jobs={n_jobs}")
            if not store.exists():
                continue
            bad, _ = wrong_rows(store, reference)
            tally.check(not bad, f"killed run: {len(bad)} wrong committed rows")
            resume(store, reference, tally, f"killed run n_jobs={n_jobs}")
    for i in range(n_kills):  # grow: one learner stored, then all three
        store = folder / f"grow{i}.sqlite"
        exp, data = experiment(store, learners=("nb",))
        exp.fit(data)
        n_before = len(values(store))
        target = n_before + rng.randrange(1, len(reference) - n_before)
        kill_when(["grow", store], store, target, rng.uniform(0, 0.02))
        tally.case("kill grow")
        bad, _ = wrong_rows(store, reference)
        tally.check(not bad, f"killed grow: {len(bad)} wrong committed rows")
        resume(store, reference, tally, "killed grow")
    parts = []
    for d in DATASETS:  # merge: one part store per data set
        part = folder / f"part_{d}.sqlite"
        exp, data = experiment(part, datasets=(d,))
        exp.fit(data)
        parts.append(part)
    t_merge = timed(["merge", folder / "m_timing.sqlite", *parts])
    for i in range(n_kills):
        target = folder / f"merged{i}.sqlite"
        shutil.copyfile(parts[0], target)
        before = target.read_bytes()
        kill_after(["merge", target, *parts[1:]], rng.uniform(0, t_merge))
        tally.case("kill merge")
        got = values(target)
        whole = target.read_bytes() == before or len(got) == len(reference)
        tally.check(whole, f"killed merge left a partial target ({len(got)} tasks)")
        bad, _ = wrong_rows(target, reference)
        tally.check(not bad, f"killed merge: {len(bad)} wrong rows")
        resume(target, reference, tally, "killed merge")
    truncated = folder / "truncated.sqlite"
    shutil.copyfile(base, truncated)
    with open(truncated, "r+b") as file:
        file.truncate(truncated.stat().st_size * 3 // 4 + 1234)
    t_salvage = timed(["salvage", truncated, folder / "s_timing.sqlite"])
    complete = values(folder / "s_timing.sqlite")
    for i in range(n_kills):
        new = folder / f"salvaged{i}.sqlite"
        kill_after(["salvage", truncated, new], rng.uniform(0, t_salvage))
        tally.case("kill salvage")
        if new.exists():
            tally.check(values(new) == complete, "killed salvage left a half store")
        else:
            leftovers = list(folder.glob(f".{new.name}.salvaging-*"))
            for leftover in leftovers:
                refused = _refused_as_leftover(leftover)
                tally.check(refused, "a salvage leftover was not named as such")
            from sklearn_bench.store import salvage_store

            salvage_store(truncated, new)
            tally.check(values(new) == complete, "salvage after a kill differs")
        resume(new, reference, tally, "killed salvage")


def _refused_as_leftover(path):
    from sklearn_bench import BenchmarkResult

    try:
        BenchmarkResult.from_store(path)
    except ValueError as exc:
        return "leftover of a killed" in str(exc)
    return False


def truncations(folder, reference, tally, rng, n_cuts):
    from sklearn_bench.store import salvage_store

    base = folder / "base.sqlite"
    size = base.stat().st_size
    resumed = 0
    for i in range(n_cuts):
        cut = rng.randrange(size // 4, size)
        bad = folder / f"cut{i}.sqlite"
        shutil.copyfile(base, bad)
        with open(bad, "r+b") as file:
            file.truncate(cut)
        new = folder / f"cut{i}_salvaged.sqlite"
        tally.case("truncation")
        try:
            salvage_store(bad, new)
        except ValueError as exc:
            tally.check("beyond salvage" in str(exc), f"cut {cut}: {exc}")
            continue
        wrong, n = wrong_rows(new, reference)
        tally.check(not wrong, f"cut at {cut}: salvage kept {len(wrong)} wrong rows")
        if resumed < 2 and 0 < n < len(reference):
            resume(new, reference, tally, f"salvaged cut {cut}")
            resumed += 1


def _store_check(path):
    from sklearn_bench.cli import main

    with open(os.devnull, "w") as null:
        stdout, stderr = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = null
        try:
            return main(["store", "check", str(path)])
        finally:
            sys.stdout, sys.stderr = stdout, stderr


def flips(folder, reference, tally, rng, n_flips):
    from sklearn_bench.store import salvage_store

    base = folder / "base.sqlite"
    data = base.read_bytes()
    outcomes = {"detected": 0, "harmless": 0}
    for i in range(n_flips):
        path = folder / f"flip{i}.sqlite"
        flipped = bytearray(data)
        at = rng.randrange(len(flipped))
        flipped[at] ^= 1 << rng.randrange(8)
        path.write_bytes(bytes(flipped))
        tally.case("bit flip in the store")
        code = _store_check(path)
        if code == 0:
            wrong, n = wrong_rows(path, reference)
            tally.check(
                not wrong and n == len(reference),
                f"flip at byte {at}: check said ok but {len(wrong)} rows differ",
            )
            outcomes["harmless"] += 1
            continue
        outcomes["detected"] += 1
        new = folder / f"flip{i}_salvaged.sqlite"
        try:
            salvage_store(path, new)
        except ValueError:
            continue  # the configuration itself was hit: nothing kept
        wrong, _ = wrong_rows(new, reference)
        tally.check(not wrong, f"flip at byte {at}: salvage kept {len(wrong)} wrong")
    # The -wal file of a killed run: its committed tasks are in its frames.
    killed = folder / "wal_source.sqlite"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    subprocess.run(
        [sys.executable, "-c", _KILLED_WRITER, str(killed)], check=True, env=env
    )
    wal = Path(f"{killed}-wal").read_bytes()
    committed = values_via_copy(killed)
    lost_named = 0
    outcomes["wal detected"] = 0
    for i in range(max(n_flips // 4, 1)):
        path = folder / f"walflip{i}.sqlite"
        shutil.copyfile(killed, path)
        flipped = bytearray(wal)
        at = rng.randrange(32, len(flipped))
        flipped[at] ^= 1 << rng.randrange(8)
        Path(f"{path}-wal").write_bytes(bytes(flipped))
        tally.case("bit flip in the -wal")
        code = _store_check(path)
        new = folder / f"walflip{i}_salvaged.sqlite"
        if code == 0:
            got = values_via_copy(path)
            tally.check(got == committed, f"-wal flip at {at}: check ok, rows differ")
            continue
        outcomes["wal detected"] += 1
        try:
            salvage_store(path, new)
        except ValueError:
            lost_named += len(committed)
            continue
        got = values(new)
        tally.check(
            all(committed.get(k) == v for k, v in got.items()),
            f"-wal flip at {at}: salvage kept a wrong row",
        )
        lost_named += len(set(committed) - set(got))
    return outcomes, lost_named, len(committed)


_TRIGGER = (
    "CREATE TRIGGER zero AFTER INSERT ON scores BEGIN "
    "UPDATE scores SET value = 0.0 WHERE learner = 'nb'; END"
)
_FOREIGN = {
    "trigger": _TRIGGER,
    "view": "CREATE VIEW v AS SELECT * FROM scores",
    "table": "CREATE TABLE notes (text TEXT)",
    "expression index": "CREATE INDEX slow ON scores (abs(value) * 2)",
}


def _edit(source, path, *statements):
    shutil.copyfile(source, path)
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()
    return path


def crafted(folder, reference, tally, rng, n_tampers):
    """SQL planted in a store (a trigger that zeroes another learner's scores
    when the study grows, a view, a table, an expression index) and values
    changed after they were written (a score, a size, kept predictions): every
    read (``from_store``, so ``report`` and ``leaderboard``) and ``store
    check`` must refuse the store, and a grow must refuse it before writing."""
    from sklearn_bench import BenchmarkResult
    from sklearn_bench.store import CorruptStoreError, NotAStoreError

    base = folder / "reference.sqlite"
    outcomes = {"sql refused": 0, "tamper refused": 0}
    for kind, statement in _FOREIGN.items():
        path = _edit(base, folder / f"sql_{kind.replace(' ', '_')}.sqlite", statement)
        tally.case(f"planted {kind}")
        refused = _store_check(path) == 2
        try:
            BenchmarkResult.from_store(path)
        except NotAStoreError:
            pass
        else:
            refused = False
        if kind == "trigger":  # the knn tasks rerun: the trigger would fire
            _edit(
                base,
                path,
                _TRIGGER,
                "DELETE FROM checksums WHERE ordinal IN (SELECT ordinal FROM "
                "tasks WHERE learner = 'knn')",
                "DELETE FROM predictions WHERE ordinal IN (SELECT ordinal FROM "
                "tasks WHERE learner = 'knn')",
                "DELETE FROM scores WHERE learner = 'knn'",
            )
            before = values(path)
            exp, data = experiment(path)
            try:
                exp.fit(data)
                refused = False
            except NotAStoreError:
                pass
            tally.check(values(path) == before, "a planted trigger changed rows")
        tally.check(refused, f"a planted {kind} was not refused by every read")
        outcomes["sql refused"] += refused
    tampers = {
        "score": "UPDATE scores SET value = value + {delta} WHERE ordinal = {o}",
        "size": "UPDATE scores SET n_test = n_test + 1 WHERE ordinal = {o}",
        "predictions": "UPDATE predictions SET correct = zeroblob(length(correct)) "
        "WHERE ordinal = {o}",
    }
    for i in range(n_tampers):
        kind = rng.choice(sorted(tampers))
        ordinal = rng.randrange(len(reference))
        delta = rng.choice([2.0**-20, 0.03125, -0.5])
        path = _edit(
            base,
            folder / f"tamper{i}.sqlite",
            tampers[kind].format(o=ordinal, delta=delta),
        )
        tally.case(f"value changed: {kind}")
        refused = _store_check(path) == 2
        try:
            BenchmarkResult.from_store(path)
            refused = values(path) == reference  # nothing changed after all
        except CorruptStoreError as exc:
            refused &= "do not match their checksum" in str(exc)
        tally.check(refused, f"a changed {kind} of task {ordinal} was read")
        outcomes["tamper refused"] += refused
    return outcomes


def _tree(folder):
    """Every name below ``folder`` (links not followed) with its bytes or link
    target: what a write through a link would change."""
    out = {}
    for root, dirs, files in os.walk(folder, followlinks=False):
        for name in (*dirs, *files):
            path = Path(root) / name
            rel = path.relative_to(folder).as_posix()
            if path.is_symlink():
                out[rel] = ("link", os.readlink(path))
            elif path.is_file():
                out[rel] = path.read_bytes()
    return out


def _cli(*argv):
    """``sklearn-bench ARGV`` in this process, quiet; its exit status."""
    import contextlib
    import io

    from sklearn_bench.cli import main as cli_main

    sink = io.StringIO()
    with contextlib.redirect_stdout(sink), contextlib.redirect_stderr(sink):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return cli_main([str(a) for a in argv]), sink.getvalue()


_OUTPUT_NAMES = (
    "report.html",
    "methods.md",
    "methods.tex",
    "tables/critical_difference.tex",
    ".sklearn_bench_outputs.json",
    ".sklearn_bench.lock",
)


def links(folder, reference, tally):
    """Symbolic links planted where sklearn-bench writes (issue 29): at an
    output name (dangling, or to a file of the user's), a symlinked figures/
    (with a planted manifest listing the linked folder's files, under
    ``--force``), the leaderboard CSV as a dangling link to a ``.pth`` in a
    site-packages folder (beside a learner whose name is Python code), and a
    store, its -wal, a merge's target, a salvage's NEW and a checkpoint's store
    that are links. Each command must exit 2 and write nothing through a link:
    the linked folders and files keep every byte, no link target is created,
    and the reference store's values are unchanged."""
    import pandas as pd

    from sklearn_bench.store import NotAStoreError

    base = folder / "links"
    victim = base / "victim"
    site = base / "site-packages"
    victim.mkdir(parents=True)
    site.mkdir()
    (victim / "keep.txt").write_text("the user's file")
    store = folder / "reference.sqlite"
    watched = {"victim": victim, "site-packages": site}
    before = {name: _tree(path) for name, path in watched.items()}
    outcomes = {"refused": 0, "written through a link": 0}

    def fit_status(path, **kwargs):
        """0 fitted, 2 refused (NotAStoreError), 1 another error."""
        exp, data = experiment(path, **kwargs)
        try:
            exp.fit(data)
        except NotAStoreError:
            return 2
        except Exception:
            return 1
        return 0

    def judge(kind, code, expect=2):
        tally.case(kind)
        through = [n for n, p in watched.items() if _tree(p) != before[n]]
        tally.check(not through, f"{kind}: written through a link into {through}")
        tally.check(code == expect, f"{kind}: exit status {code}, not {expect}")
        outcomes["written through a link"] += bool(through)
        outcomes["refused"] += code == expect and expect == 2

    for i, name in enumerate(_OUTPUT_NAMES):
        for target in ("dangling", "a user's file"):
            out = base / f"out{i}-{target[0]}"
            (out / name).parent.mkdir(parents=True, exist_ok=True)
            points = victim / ("new.txt" if target == "dangling" else "keep.txt")
            os.symlink(points, out / name)
            code, _ = _cli("report", store, "--out", out)
            judge(f"link at an output name ({target})", code)
    for planted in (False, True):
        out = base / f"figures{int(planted)}"
        out.mkdir()
        os.symlink(victim, out / "figures")
        extra = []
        if planted:  # a manifest that lists the linked folder's files as ours
            (out / ".sklearn_bench_outputs.json").write_text(
                '{"written_by": "sklearn-bench", "files": ["figures/keep.txt"]}'
            )
            extra = ["--force"]
        code, _ = _cli("report", store, "--out", out, *extra)
        judge("symlinked figures/" + (" + planted manifest, --force" * planted), code)
    names = ["nb", "tree", "lr\nimport os;os.system('touch PWNED')#"]
    rows = [
        {"dataset": f"d{j}", "learner": name, "error": 0.1 + 0.01 * ((j + k) % 3)}
        for j in range(6)
        for k, name in enumerate(names)
    ]
    csv = base / "results.csv"
    pd.DataFrame(rows).to_csv(csv, index=False)
    for target in (site / "zz.pth", victim / "keep.txt"):
        link = base / "results-leaderboard.csv"
        os.symlink(target, link)
        code, _ = _cli("leaderboard", csv, "--value-col", "error", "--lower-is-better")
        link.unlink()
        judge("leaderboard CSV a link (" + target.suffix + ")", code)
    # Stores: a copy of the reference, reached through links.
    real = base / "real.sqlite"
    shutil.copyfile(store, real)
    watched["store"] = real.parent / "real-only"
    watched["store"].mkdir()
    shutil.copyfile(store, watched["store"] / "real.sqlite")
    before["store"] = _tree(watched["store"])
    linked = base / "linked.sqlite"
    os.symlink(watched["store"] / "real.sqlite", linked)
    judge("run/grow on a linked store", fit_status(linked))
    dangling = base / "new.sqlite"
    os.symlink(victim / "planted.sqlite", dangling)
    code = fit_status(dangling, learners=("nb",), datasets=("iris",))
    judge("new store at a dangling link", code)
    os.symlink(victim / "keep.txt", f"{real}-wal")
    code = fit_status(real)
    os.unlink(f"{real}-wal")
    judge("store whose -wal is a link", code)
    code, _ = _cli("merge", linked, real)
    judge("merge into a linked target", code)
    code, _ = _cli("store", "salvage", real, dangling)
    judge("salvage into a dangling link", code)
    code, _ = _cli("store", "checkpoint", linked)
    judge("checkpoint of a linked store", code)
    code, _ = _cli("report", linked, "--out", base / "read-through-link")
    judge("report reads a linked store (allowed)", code, expect=0)
    tally.check(values(store) == reference, "the reference store changed")
    tally.check(not Path("PWNED").exists(), "the learner's name ran as code")
    return outcomes


def _signed(source, path, *statements):
    """A copy of ``source`` with ``statements`` run, its checksums rewritten
    to match (as someone who knows the format can)."""
    from sklearn_bench.store._digests import sign_store

    _edit(source, path, *statements)
    conn = sqlite3.connect(path)
    try:
        conn.execute("DELETE FROM checksums")
        sign_store(conn)
        conn.commit()
    finally:
        conn.close()
    return path


def _results_csv(path, names=("nb", "tree", "knn"), value=None):
    """A CSV of results (every text quoted: names may hold line ends)."""
    import csv

    rows = [
        [f"d{j}", name, 0.1 + 0.01 * ((j + k) % 3)]
        for j in range(6)
        for k, name in enumerate(names)
    ]
    if value is not None:
        rows[0][2] = value
    with open(path, "w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file, quoting=csv.QUOTE_NONNUMERIC)
        writer.writerows([["dataset", "learner", "error"], *rows])
    return path


def trust(folder, reference, tally):
    """Issue 38 (third trust pass), each case as an attacker would try it, with
    a folder of the user's beside the output folders whose every byte must be
    unchanged afterwards: a hard-linked lock (leaderboard, report), a
    hard-linked output under --force, a hard-linked store; a store without its
    checksums table and forged scores (every reader, merge, salvage), a
    flipped metric direction (checksums stale, or rewritten), rows deleted
    with their checksum kept, kept predictions of a forged size; a staging
    folder swapped for a link mid-report; the user's files named like a
    staging folder; a lock that is a folder, a dangling report-2 link; names:
    raw HTML in methods.md, a carriage return in a saved CSV, a newline that
    forges a printed verdict, names that look alike; a CSV with a score of
    1e308 or a column named twice; a config class in the standard library."""
    import json

    import pandas as pd

    import sklearn_bench.report._html as html
    from sklearn_bench import BenchmarkResult
    from sklearn_bench.store._reader import read_predictions

    base = folder / "trust"
    user = base / "user"  # the user's folder beside every output folder
    (user / "sub").mkdir(parents=True)
    (user / "notes.txt").write_text("the user's notes")
    (user / "methods.md").write_text("the user's methods")
    (user / "sub" / "theirs.sqlite").write_bytes(
        (folder / "reference.sqlite").read_bytes()
    )
    before = _tree(user)
    store = folder / "reference.sqlite"
    outcomes = {"held": 0, "changed outside": 0}

    def judge(kind, code, expect=2, ok=True):
        tally.case(kind)
        outside = _tree(user) != before
        tally.check(not outside, f"{kind}: a file outside the output folder changed")
        tally.check(code == expect, f"{kind}: exit status {code}, not {expect}")
        tally.check(ok, f"{kind}: not handled as it should be")
        outcomes["changed outside"] += outside
        outcomes["held"] += code == expect and ok and not outside

    # -- files: hard links, the lock, the staging folder, the user's files
    study = base / "study"
    study.mkdir()
    csv = _results_csv(study / "results.csv")
    os.link(user / "notes.txt", study / ".sklearn_bench.lock")
    code, _ = _cli("leaderboard", csv, "--lower-is-better")
    judge("hard-linked lock: leaderboard", code)
    code, _ = _cli("report", store, "--out", study)
    judge("hard-linked lock: report", code)
    (study / ".sklearn_bench.lock").unlink()
    out = base / "forced"
    out.mkdir()
    os.link(user / "methods.md", out / "methods.md")
    (out / ".sklearn_bench_outputs.json").write_text(
        '{"written_by": "sklearn-bench", "files": ["methods.md"]}'
    )
    code, _ = _cli("report", store, "--out", out, "--force")
    judge("hard-linked output under --force (replaced, not written)", code, 0)
    hard = base / "hard.sqlite"
    os.link(user / "sub" / "theirs.sqlite", hard)
    exp, data = experiment(hard)
    try:
        exp.fit(data)
        code = 0
    except ValueError:
        code = 2
    judge("hard-linked store: grow", code)
    lockdir = base / "lockdir"
    (lockdir / ".sklearn_bench.lock").mkdir(parents=True)
    code, err = _cli("report", store, "--out", lockdir)
    judge("a lock that is a folder", code, ok="Traceback" not in err)
    reports = base / "reports"
    reports.mkdir()
    shutil.copyfile(store, reports / "s.sqlite")
    _cli("report", reports / "s.sqlite", "--out", reports / "s-report")
    os.symlink(user / "new-folder", reports / "s-report-2")  # STEM-report-2
    code, err = _cli("report", reports / "s.sqlite")
    judge("a dangling report-2 link", code, ok="Traceback" not in err)
    swapped = base / "swapped"
    write = html.write_latex_tables

    def swap(*args, **kwargs):
        (stage,) = [p for p in swapped.iterdir() if "writing" in p.name]
        stage.rename(base / "moved")
        os.symlink(user, stage)
        return write(*args, **kwargs)

    html.write_latex_tables = swap
    try:
        code, _ = _cli("report", store, "--out", swapped)
    finally:
        html.write_latex_tables = write
    judge("staging folder swapped for a link mid-report", code)
    mine = base / "mine"
    mine.mkdir()
    (mine / "thesis.sklearn_bench-writing-backup.txt").write_text("mine")
    (mine / "old.sklearn_bench-writing-dir").mkdir()
    code, _ = _cli("report", store, "--out", mine, "--force")
    kept = (mine / "thesis.sklearn_bench-writing-backup.txt").exists() and (
        mine / "old.sklearn_bench-writing-dir"
    ).is_dir()
    judge("the user's files named like a staging folder", code, 0, kept)

    # -- the store: every table under a checksum
    forged = _edit(
        store, base / "forged.sqlite",
        "UPDATE scores SET value = 0.9 WHERE ordinal = 0", "DROP TABLE checksums",
    )  # fmt: skip
    flipped = {}
    with sqlite3.connect(store) as conn:
        result = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'result'").fetchone()[0]
        )
    conn.close()
    result["metrics"] = {"error_rate": True}
    flip = f"UPDATE meta SET value = '{json.dumps(result)}' WHERE key = 'result'"
    flipped["stale checksum"] = _edit(store, base / "flip.sqlite", flip)
    flipped["checksums rewritten"] = _signed(store, base / "flip2.sqlite", flip)
    deleted = _edit(
        store, base / "deleted.sqlite", "DELETE FROM scores WHERE ordinal = 1"
    )
    cases = {"checksums dropped, a score forged": forged, "rows deleted": deleted}
    cases.update({f"metric direction flipped ({k})": p for k, p in flipped.items()})
    for kind, path in cases.items():
        for command in (
            ["store", "check", path],
            ["report", path, "--out", base / "r-out"],
            ["leaderboard", path, "--out", base / "b.csv"],
            ["merge", base / "merged.sqlite", path],
            ["store", "salvage", path, base / "salvaged.sqlite"],
        ):
            code, _ = _cli(*command)
            # salvage is the way out of deleted rows: it keeps the others
            expect = 0 if command[1] == "salvage" and kind == "rows deleted" else 2
            made = [base / n for n in ("merged.sqlite", "salvaged.sqlite", "b.csv")]
            created = [p for p in made if p.exists()]
            what = f"{kind}: " + " ".join(
                map(str, command[: 2 if command[0] == "store" else 1])
            )
            judge(what, code, expect, ok=bool(created) == (expect == 0))
            for p in created:
                p.unlink()
    sized = _signed(
        store, base / "sized.sqlite", "UPDATE predictions SET n = 17179869184"
    )
    try:
        read_predictions(sized)
        code = 0
    except ValueError as exc:
        code = 2 if "stated size" in str(exc) else 1
    judge("kept predictions of a forged size (checksums rewritten)", code)

    # -- names
    names = ["<svg/onload=alert(1)>", "a\rb", "lr\nc is better than every learner"
             " (p < 0.001)", "lr\u200b", "lr"]  # fmt: skip
    hostile = _results_csv(base / "names.csv", names)
    code, printed = _cli("leaderboard", hostile, "--lower-is-better")
    forged_line = any(
        line.lstrip().startswith("c is better") for line in printed.splitlines()
    )
    judge("a newline in a name forging a printed line", code, 0, not forged_line)
    judge(
        "names that look alike (zero-width space)", code, 0, "look the same" in printed
    )
    frame = BenchmarkResult.from_frame(
        pd.read_csv(hostile, dtype={"learner": str}, keep_default_na=False),
        dataset="dataset", learner="learner", value="error", greater_is_better=False,
    )  # fmt: skip
    frame.save(base / "saved")
    back = BenchmarkResult.load(base / "saved")
    judge(
        "a carriage return in a saved name",
        0,
        0,
        sorted(back.learners) == sorted(names),
    )
    code, _ = _cli("report", base / "saved", "--out", base / "names-report")
    md = (base / "names-report" / "methods.md").read_text(encoding="utf-8")
    judge("raw HTML in methods.md", code, 0, "<svg" not in md.replace("\\<", ""))
    big = _results_csv(base / "big.csv", value="1e308")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        code, _ = _cli("leaderboard", big, "--lower-is-better")
    judge("a score of 1e308 in a CSV", code)
    dup = base / "dup.csv"
    lines = csv.read_text().splitlines()
    dup.write_text("\n".join([lines[0] + ",error", *(x + ",0.5" for x in lines[1:])]))
    code, _ = _cli("leaderboard", dup, "--lower-is-better")
    judge("a column named twice", code)
    config = base / "c.toml"
    config.write_text('[learners.bad]\nclass = "this.Nope"\n[datasets.iris]\n'
                      'sklearn = "iris"\n')  # fmt: skip
    sys.modules.pop("this", None)
    code, printed = _cli("run", config, "--check")
    judge("a config class in the standard library (this.Nope)", code,
          ok="this" not in sys.modules and "Beautiful" not in printed)  # fmt: skip
    tally.check(values(store) == reference, "the reference store changed")
    return outcomes


def values_via_copy(store):
    """values() of a store with its -wal file, read from a copy (never changes
    the store)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "s.sqlite"
        shutil.copyfile(store, copy)
        if Path(f"{store}-wal").exists():
            shutil.copyfile(f"{store}-wal", f"{copy}-wal")
        conn = sqlite3.connect(copy)
        conn.execute("SELECT count(*) FROM scores").fetchone()
        conn.close()
        return values(copy)


_KILLED_WRITER = f"""
import os, sys
sys.path.insert(0, {str(Path(__file__).resolve().parent)!r})
from fault_injection import experiment
from sklearn_bench.store import _writer as _store
exp, data = experiment(sys.argv[1])
close = _store.StoreWriter.close
_store.StoreWriter.close = lambda self: os._exit(0)  # killed: no checkpoint
exp.fit(data)
"""


def _lie(kind, encode):
    """``encode`` of the worker, whose result for the learner 'tree' becomes a lie
    of ``kind`` (the others are honest)."""

    import numpy as np

    def lie(out):
        result = encode(out)
        if result[2] != "tree":
            return result
        r = list(result)
        if kind == "score out of bounds":
            r[4] = (2.0,) * len(r[4])
        elif kind == "NaN score without a failure":
            r[4] = (float("nan"),) * len(r[4])
        elif kind == "another task's key":
            r[2] = "knn"
        elif kind == "an object, not plain data":
            return object()
        elif kind == "predictions of other rows":
            r[10] = (r[10][0], r[10][1][::-1].copy(), r[10][2])
        elif kind == "a score within bounds (verify)":
            r[4] = (0.0,) * len(r[4])
        elif kind == "every prediction correct":
            r[10] = (r[10][0], r[10][1], np.ones_like(r[10][2]))
        elif kind == "flat losses of the right mean (verify)" and r[11] is not None:
            index, rows, loss = r[11]
            flat = np.repeat(loss.mean(axis=1, keepdims=True), loss.shape[1], axis=1)
            r[11] = (index, rows, flat)
        return tuple(r)

    return lie


HOSTILE = (
    "score out of bounds",
    "NaN score without a failure",
    "another task's key",
    "an object, not plain data",
    "predictions of other rows",
    "a score within bounds (verify)",
    "every prediction correct",
    "flat losses of the right mean (verify)",
)


def hostile_workers(folder, reference, tally):
    """Issue 38, item 6: workers (threads of this process, so that they can be
    made to lie) return a lie for one learner; each run must be refused with a
    RuntimeError. A lie out of bounds or of the wrong shape is refused on arrival,
    before any of it is stored; a lie within bounds only by verify= (0.25 here),
    which may come after lies were stored: the count is printed."""
    import distributed
    import joblib

    from sklearn_bench.experiment import _dask

    honest = _dask.encode
    out = {"refused": 0, "lies stored before verify": 0}
    with (
        distributed.LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, protocol="tcp",
            host="127.0.0.1", dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster),
        joblib.parallel_config(backend="dask"),
    ):  # fmt: skip
        for i, kind in enumerate(HOSTILE):
            tally.case(f"hostile worker: {kind}")
            store = folder / f"hostile-{i}.sqlite"
            exp, data = experiment(store)
            if "verify" in kind:
                exp.set_params(verify=0.25)
            _dask.encode = _lie(kind, honest)
            try:
                exp.fit(data)
            except RuntimeError as exc:
                refused = "refused" in str(exc)
            else:
                refused = False
            finally:
                _dask.encode = honest
            wrong, _ = wrong_rows(store, reference)
            tally.check(refused, f"hostile worker ({kind}): the run was not refused")
            if "verify" in kind:
                out["lies stored before verify"] = len(wrong)
            else:
                tally.check(not wrong, f"hostile worker ({kind}): {wrong} stored")
            out["refused"] += refused
    return out


def trust50(folder, reference, tally):
    """Issue 50 (fourth trust pass), each case as an attacker would try it, with
    a folder of the user's beside whose every byte must be unchanged: inferred
    metric directions flipped (re-signed), a finished study thinned, a planted
    link at a folder name a command chose, outputs over inputs, leftover names
    of no ASCII pid, malformed results folders, a reader gone (EPIPE), a read
    that would make a -shm, a -wal or -shm that is not a file, re-signed values
    out of bounds or of another type, inflating losses, names that forge a
    wrapped line or look alike, a URL in a name."""
    import json
    import zlib

    from sklearn_bench._text import markdown_text
    from sklearn_bench.report._summary import _wrapped
    from sklearn_bench.store._digests import sign_store

    base = folder / "trust50"
    user = base / "user"
    user.mkdir(parents=True)
    (user / "notes.txt").write_text("the user's notes")
    before = _tree(user)
    store = folder / "reference.sqlite"
    out = {"held": 0, "changed outside": 0}

    def judge(kind, code, expect=2, ok=True):
        tally.case(f"issue 50: {kind}")
        outside = _tree(user) != before
        tally.check(not outside, f"{kind}: a file outside the output folder changed")
        tally.check(code == expect, f"{kind}: exit status {code}, not {expect}")
        tally.check(ok, f"{kind}: not handled as it should be")
        out["changed outside"] += outside
        out["held"] += code == expect and ok and not outside

    def refused_everywhere(kind, path):
        codes = [_cli("store", "check", path)[0],
                 _cli("report", path, "--out", base / "r")[0],
                 _cli("leaderboard", path, "--out", base / "b.csv")[0],
                 _cli("merge", base / "m.sqlite", path)[0]]  # fmt: skip
        judge(kind, max(codes), ok=min(codes) == 2 and not (base / "r").exists())

    with sqlite3.connect(store) as conn:
        result = json.loads(
            conn.execute("SELECT value FROM meta WHERE key = 'result'").fetchone()[0]
        )
    for name in ("f1_macro", "F1_Macro", "precision_weighted", "neg_log_loss",
                 "roc_auc_ovr_weighted", "Error_Rate"):  # fmt: skip
        flipped = {**result, "metrics": {name: name.lower() == "error_rate"}}
        text = json.dumps(flipped).replace("'", "''")
        sql = f"UPDATE meta SET value = '{text}' WHERE key = 'result'"
        path = _signed(store, base / f"dir-{name}.sqlite", sql)
        refused_everywhere(f"direction of {name} flipped (re-signed)", path)
    thin = _edit(store, base / "thin.sqlite",
                 "DELETE FROM checksums WHERE ordinal IN (SELECT ordinal FROM "
                 "tasks WHERE learner = 'knn')",
                 "DELETE FROM scores WHERE learner = 'knn'",
                 "DELETE FROM predictions WHERE ordinal IN (SELECT ordinal FROM "
                 "tasks WHERE learner = 'knn')",
                 "DELETE FROM losses WHERE ordinal IN (SELECT ordinal FROM "
                 "tasks WHERE learner = 'knn')")  # fmt: skip
    refused_everywhere("a finished study thinned of one learner's tasks", thin)
    shared = base / "shared"
    shared.mkdir()
    shutil.copyfile(store, shared / "run.sqlite")
    (shared / "run-report").symlink_to(user)
    code, _ = _cli("report", shared / "run.sqlite")
    judge("a planted link at run-report", code)
    own = base / "own"
    own.mkdir()
    shutil.copyfile(store, own / "run.sqlite")
    (own / ".sklearn_bench_outputs.json").write_text('{"files": ["run.sqlite"]}')
    data = (own / "run.sqlite").read_bytes()
    code, _ = _cli("leaderboard", own / "run.sqlite", "--out", own / "run.sqlite",
                   "--force")  # fmt: skip
    judge("leaderboard STORE --out STORE --force", code,
          ok=(own / "run.sqlite").read_bytes() == data)  # fmt: skip
    for pid in ("99999999999999999999", "-\u0663"):
        odd = base / f".new.sqlite.salvaging-{pid}"
        shutil.copyfile(store, odd)
        code, _ = _cli("store", "salvage", store, base / "new.sqlite")
        judge(f"a leftover named ...salvaging-{pid!r}", code, 0, odd.exists())
        (base / "new.sqlite").unlink(missing_ok=True)
    saved = base / "saved"
    from sklearn_bench import BenchmarkResult

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        BenchmarkResult.from_store(store).save(saved)
    meta = json.loads((saved / "metadata.json").read_text())
    for field, value in [
        ("metrics", "x"),
        ("learners", {"a": 1}),
        ("has_predictions", "yes"),
        ("info", []),
        ("format_version", "1"),
        ("datasets", [{"name": "d"}]),
    ]:
        bad = base / f"saved-{field}"
        shutil.copytree(saved, bad)
        (bad / "metadata.json").write_text(json.dumps({**meta, field: value}))
        code, printed = _cli("report", bad, "--out", base / "r")
        judge(f"metadata.json {field} = {value!r}", code,
              ok=field in printed and "Traceback" not in printed)  # fmt: skip
    linked = base / "saved-link"
    shutil.copytree(saved, linked)
    (linked / "scores.csv").unlink()
    (linked / "scores.csv").symlink_to(user / "notes.txt")
    code, printed = _cli("report", linked, "--out", base / "r")
    judge("scores.csv linked to a file of the user's", code,
          ok="the user's notes" not in printed)  # fmt: skip
    read, write = os.pipe()
    os.close(read)
    done = subprocess.run(
        [sys.executable, "-m", "sklearn_bench", "leaderboard", store, "--out",
         base / "piped.csv"], stdout=write, stderr=subprocess.PIPE, text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )  # fmt: skip
    os.close(write)
    judge("the reader gone (EPIPE)", done.returncode, 0, done.stderr == "")
    walled = base / "walled"
    walled.mkdir()
    source = shutil.copyfile(store, base / "w-source.sqlite")
    conn = sqlite3.connect(source, isolation_level=None)
    conn.execute("PRAGMA wal_autocheckpoint=0")
    conn.execute("BEGIN")
    conn.execute("UPDATE meta SET value = value WHERE key = 'format'")
    sign_store(conn)
    conn.execute("COMMIT")
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{source}{suffix}", walled / f"s.sqlite{suffix}")
    conn.close()
    code, _ = _cli("store", "check", walled / "s.sqlite")
    judge("a -wal without -shm read by store check", code, 0,
          not (walled / "s.sqlite-shm").exists())  # fmt: skip
    for suffix, kind in [("-wal", "fifo"), ("-wal", "/dev/zero"), ("-shm", "fifo")]:
        odd = base / f"odd{suffix}{kind.replace('/', '_')}"
        odd.mkdir()
        shutil.copyfile(store, odd / "s.sqlite")
        part = odd / f"s.sqlite{suffix}"
        os.mkfifo(part) if kind == "fifo" else part.symlink_to(kind)
        code, _ = _cli("store", "check", odd / "s.sqlite")
        judge(f"a {suffix} that is {kind}", code)
    for what, sql in [
        ("an error rate of 7.5", "UPDATE scores SET value = 7.5 WHERE ordinal = 0"),
        ("an error rate of -5", "UPDATE scores SET value = -5.0 WHERE ordinal = 0"),
        ("n_test = -5", "UPDATE scores SET n_test = -5 WHERE ordinal = 0"),
        ("a text score '0.1'", "UPDATE scores SET value = '0.1' WHERE ordinal = 0"),
        ("a blob score", "UPDATE scores SET value = x'3f' WHERE ordinal = 0"),
    ]:
        path = _signed(store, base / f"v-{len(what)}-{what[:5]}.sqlite", sql)
        refused_everywhere(f"{what} (re-signed)", path)
    bomb = zlib.compress(bytes(64 * 2**20), 9)
    path = _edit(store, base / "bomb.sqlite")
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE losses SET loss = ? WHERE ordinal = 0", (bomb,))
        conn.execute("DELETE FROM checksums")
        sign_store(conn)
    code, _ = _cli("store", "salvage", path, base / "bomb-new.sqlite")
    judge("losses inflating to 64 MB (salvage drops the task)", code, 0)
    wrapped = _wrapped("x" * 80 + " c\nSPOOFED verdict")
    judge("a newline in a name inside a wrapped note", 2, ok=not any(
        ln.lstrip().startswith("SPOOF") for ln in wrapped.splitlines()))  # fmt: skip
    csv = _results_csv(base / "alike.csv", names=("caf\u00e9", "cafe\u0301",
                                                  "c\u2028SPOOFED"))  # fmt: skip
    code, printed = _cli("leaderboard", csv, "--lower-is-better")
    judge("look-alike names and U+2028", 2 * (code == 0),
          ok="caf\\xe9" in printed and "\u2028" not in printed)  # fmt: skip
    judge(
        "a URL in a name in methods.md",
        2,
        ok=markdown_text("http://evil.example") == "`http://evil.example`",
    )
    tally.check(values(store) == reference, "the reference store changed")
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--child", nargs=argparse.REMAINDER)
    parser.add_argument("--kills", type=int, default=3, help="per kind of kill")
    parser.add_argument("--cuts", type=int, default=30)
    parser.add_argument("--flips", type=int, default=100)
    parser.add_argument("--tampers", type=int, default=30)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.child:
        return child(args.child)
    rng = random.Random(args.seed)
    tally = Tally()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        exp, data = experiment(folder / "reference.sqlite")
        exp.fit(data)
        reference = values(folder / "reference.sqlite")
        print(f"reference: {len(reference)} tasks", flush=True)
        kills(folder, reference, tally, rng, args.kills)
        print(f"kills done ({time.perf_counter() - start:.0f} s)", flush=True)
        truncations(folder, reference, tally, rng, args.cuts)
        print(f"truncations done ({time.perf_counter() - start:.0f} s)", flush=True)
        outcomes, lost_named, n_wal = flips(folder, reference, tally, rng, args.flips)
        print(f"bit flips done ({time.perf_counter() - start:.0f} s)", flush=True)
        planted = crafted(folder, reference, tally, rng, args.tampers)
        print(f"planted SQL, tampers done ({time.perf_counter() - start:.0f} s)")
        n_before = sum(tally.cases.values())
        linked = links(folder, reference, tally)
        n_links = sum(tally.cases.values()) - n_before
        print(f"links done ({time.perf_counter() - start:.0f} s)", flush=True)
        trusted = trust(folder, reference, tally)
        n_trust = sum(tally.cases.values()) - n_before - n_links
        n_before = sum(tally.cases.values())
        trusted50 = trust50(folder, reference, tally)
        n_trust50 = sum(tally.cases.values()) - n_before
        print(f"issue 50 done ({time.perf_counter() - start:.0f} s)", flush=True)
        hostile = hostile_workers(folder, reference, tally)
    took = time.perf_counter() - start
    total = sum(tally.cases.values())
    print()
    print(f"{total} cases in {took:.0f} s (seed {args.seed}):")
    for kind, n in tally.cases.items():
        print(f"  {n:4d}  {kind}")
    n_kills = sum(n for kind, n in tally.cases.items() if kind.startswith("kill"))
    print(
        f"kills: {tally.partial} of {n_kills} left a partial store (the others "
        "came before the first or after the last commit)"
    )
    print(
        f"bit flips in the store: {outcomes['detected']} found by `store check` "
        f"(salvage then kept only reference rows), {outcomes['harmless']} changed "
        "no committed value"
    )
    n_wal_flips = tally.cases.get("bit flip in the -wal", 0)
    print(
        f"bit flips in the -wal ({n_wal} committed tasks each): "
        f"{outcomes['wal detected']} of {n_wal_flips} found by `store check`; "
        f"salvage then lost {lost_named} committed task(s) in all (named, rerun "
        "on resume); the others changed no committed value"
    )
    n_sql = sum(n for kind, n in tally.cases.items() if kind.startswith("planted"))
    n_tampered = sum(n for kind, n in tally.cases.items() if kind.startswith("value"))
    print(
        f"SQL planted in a store: {planted['sql refused']} of {n_sql} refused by "
        f"`store check` and from_store (a grow refused the trigger before writing); "
        f"values changed after they were written: {planted['tamper refused']} of "
        f"{n_tampered} refused by from_store (report, leaderboard) and `store check`"
    )
    print(
        f"symbolic links planted where sklearn-bench writes: {linked['refused']} of "
        f"{n_links - 1} refused with exit 2 (and a report read a linked store); "
        f"{linked['written through a link']} wrote through a link"
    )
    print(
        f"issue 38 (hard links, checksums of every table, staging, names): "
        f"{trusted['held']} of {n_trust} refused with exit 2 or handled safely; "
        f"{trusted['changed outside']} changed a file outside the output folder"
    )
    print(
        f"issue 50 (directions, sealed task sets, links, outputs over inputs, "
        f"folders, EPIPE, -wal/-shm, values, losses, names): {trusted50['held']} "
        f"of {n_trust50} refused with exit 2 or handled safely; "
        f"{trusted50['changed outside']} changed a file outside the output folder"
    )
    print(
        f"hostile dask workers: {hostile['refused']} of {len(HOSTILE)} runs refused "
        "(out of bounds or of the wrong shape: on arrival, nothing of the lie "
        "stored; a lie within bounds: by verify=0.25, after "
        f"{hostile['lies stored before verify']} lied task(s) had been stored)"
    )
    if tally.failures:
        print(f"{len(tally.failures)} FAILURES: a committed value lost or changed")
        return 1
    print("none lost or changed a committed value silently.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
