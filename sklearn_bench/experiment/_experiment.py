"""BenchmarkExperiment: learners x data sets x resamples in a matched-pairs design."""

import contextlib
import copy
import json
import math
import os
import re
import warnings
from numbers import Integral, Real

import numpy as np
import pandas as pd
from joblib import Parallel, delayed
from sklearn.base import BaseEstimator, clone, is_classifier, is_regressor
from sklearn.exceptions import FitFailedWarning
from sklearn.model_selection import RepeatedKFold, RepeatedStratifiedKFold, check_cv
from sklearn.utils.multiclass import type_of_target
from tqdm.auto import tqdm

from .._validation import (
    check_n_jobs,
    check_positive_int,
    named_items,
    real_number,
)
from .._version import __version__
from ..datasets import Dataset, SimulatedDataset
from ..datasets._dataset import check_datasets
from ..model_selection import replicate_ids
from ..results import BenchmarkResult
from ..store._reader import (
    losses_loader,
    losses_table,
    predictions_loader,
    predictions_table,
    read_store,
)
from ..store._schema import Task
from ..store._writer import open_writer
from ._config import class_defaults, describe, experiment_config
from ._dask import (
    DaskRunner,
    active_dask_client,
    describe_lost_workers,
    first_difference,
)
from ._preflight import (
    check_classification_target,
    check_dataset_for_learners,
    check_target,
)
from ._scoring import check_scoring
from ._sequential import fit_sequential
from ._tasks import (
    PREFIX_CACHE_BYTES,
    SEED_CV,
    SEED_LEARNER,
    SEED_LEARNING_SAMPLE,
    SEED_TEST_SAMPLE,
    derive_seed,
    prefix_keys,
    run_tasks,
    watching_workers,
)

__all__ = ["BenchmarkExperiment"]

VERIFY_STREAM = 39  # the seed stream of the tasks ``verify`` re-fits
# ``cv=None``: repeats give the corrected resampled t (Bouckaert & Frank 2004
# recommend 10 for replicable tests) and each learner's interval a variance.
DEFAULT_FOLDS, DEFAULT_REPEATS = 5, 10


def _same_training(splits):
    """``{split: [later splits of the same replicate and training rows]}`` (as
    NestedCV's inner splits (o, j) and (j, o))."""
    first, twins = {}, {}
    for s, (train, test, rep, _) in enumerate(splits):
        if test is None:
            continue
        train = np.asarray(train)
        key = (rep, train.size, hash(train.tobytes()))
        if key in first and np.array_equal(np.asarray(splits[first[key]][0]), train):
            twins.setdefault(first[key], []).append(s)
        else:
            first.setdefault(key, s)
    return twins


class BenchmarkExperiment(BaseEstimator):
    """Run learners over data sets and resamples in a matched-pairs design.

    The benchmark experiment of Hothorn et al. (2005, Sections 2 and 3): on
    each data set the learning/validation splits are drawn once and every
    learner is fitted (a fresh clone per task) and scored on the same splits,
    so the performances of two learners on one replicate are matched pairs.
    Everything a learner fits, feature selection and tuning included, lives
    inside the learner (a :class:`~sklearn.pipeline.Pipeline`,
    :class:`~sklearn.model_selection.GridSearchCV`), so it is redone on every
    training part (Simon et al., 2003; Boulesteix et al., 2008).

    Parameters
    ----------
    learners : dict of str to estimator, or list of (str, estimator)
        The learners to compare, by name.
    cv : int, cross-validation generator or iterable of splits, default=None
        How each learning sample is split, as in
        :func:`~sklearn.model_selection.cross_validate`; ``None`` is 5-fold
        cross-validation repeated 10 times on shuffled rows (stratified for
        classifiers; see :ref:`problems`). Splits map to replicates by
        :func:`~sklearn_bench.model_selection.replicate_ids`; an unseeded
        shuffling splitter is seeded per data set. Not used by a
        :class:`~sklearn_bench.datasets.SimulatedDataset`.
    scoring : str, callable, Metric, list or dict, default=None
        The performance measures: names of :meth:`Metric.from_name
        <sklearn_bench.experiment.Metric.from_name>`, scorer callables (greater
        is better), scorers with ``needs_split`` (such as
        :class:`~sklearn_bench.model_selection.Bootstrap632Scorer`),
        :class:`~sklearn_bench.experiment.Metric` objects, or a list/dict of
        these. ``None`` is ``"error_rate"`` for classifiers and
        ``"mean_squared_error"`` for regressors.
    n_jobs : int, default=None
        Tasks run in parallel with joblib. Inside
        ``joblib.parallel_config(backend="dask")`` they go through that
        backend's ``Client``, surviving lost workers (see :ref:`cluster`).
    random_state : int, RandomState instance or None, default=None
        Seeds the splits, simulated samples and learners (see Notes); ``None``
        draws a seed, recorded in ``results_.info["seed"]``.
    error_score : "raise" or float, default=np.nan
        Score of a task whose learner fails, as in
        :func:`~sklearn.model_selection.cross_validate`; ``"raise"`` re-raises
        with a note naming the data set, learner and split.
    keep_predictions : bool, default=False
        Keep each task's validation rows and predictions (correct or not for
        classifiers) in ``results_.predictions``, e.g. for McNemar's test.
    progress : bool, default=True
        Show a tqdm progress bar over tasks.
    store : str or path-like, default=None
        An SQLite file to which the driver commits every finished task with the
        configuration. ``fit`` runs only the tasks not stored yet (an
        interrupted run, added learners, data sets or replicates), bit-identical
        to one uninterrupted run; a changed learner, data set, seed, metric set,
        ``error_score``, ``keep_predictions`` or package versions raise a
        ``ValueError`` naming it (see :ref:`large_studies`). ``None`` keeps
        everything in memory.
    overwrite : bool, default=False
        Replace the content of the store instead of refusing a change.
    prefix_cache_bytes : int, default=2**30
        The most bytes of transformed training data one task keeps for
        learners whose pipelines share a deterministic prefix, fitted once per
        split with the same scores bit for bit (see :ref:`large_studies`);
        ``0`` fits every learner alone.
    fit_alone : collection of str, default=()
        Names of learners that never share a prefix (e.g. a step that draws
        from NumPy's global random state).
    verify : float, default=0.0
        The fraction of the tasks (seeded) that the driver fits again, alone;
        a result that differs bit for bit refuses the run with a
        ``RuntimeError`` before its batch is stored (see :ref:`cluster`).

    Attributes
    ----------
    results_ : BenchmarkResult
        The scores of exactly the tasks of this experiment (not the other
        tasks a store may hold), in its order.
    n_tasks_ : int
        Number of tasks run by this ``fit`` (with a store: those not stored
        before).
    n_reused_tasks_ : int
        Number of tasks read from the store instead (0 without a store).

    Notes
    -----
    The seeds are ``SeedSequence([seed, crc32(dataset), purpose, replicate])``
    (purpose 0 learners, 1 ``cv``, 2 and 3 a simulated learning and test
    sample); its first 32-bit word is set on every ``random_state`` of a learner
    (nested too) that is ``None`` or a ``RandomState``, and on its unseeded
    shuffling splitters. All learners get the same seed on a replicate (common
    random numbers), so the scores do not depend on ``n_jobs`` or the backend.

    Examples
    --------
    >>> from sklearn.datasets import load_iris
    >>> from sklearn.model_selection import RepeatedStratifiedKFold
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bench import BenchmarkExperiment
    >>> X, y = load_iris(return_X_y=True)
    >>> experiment = BenchmarkExperiment(
    ...     {"tree": DecisionTreeClassifier(), "knn": KNeighborsClassifier()},
    ...     cv=RepeatedStratifiedKFold(n_splits=5, n_repeats=4, random_state=0),
    ...     random_state=0, progress=False)
    >>> result = experiment.fit({"iris": (X, y)}).results_
    >>> result.aggregate().round(3)
    learner   tree    knn
    dataset
    iris     0.048  0.037
    >>> result.performance().shape  # dataset, learner, replicate, value
    (8, 4)
    """

    def __init__(
        self,
        learners,
        *,
        cv=None,
        scoring=None,
        n_jobs=None,
        random_state=None,
        error_score=np.nan,
        keep_predictions=False,
        progress=True,
        store=None,
        overwrite=False,
        prefix_cache_bytes=PREFIX_CACHE_BYTES,
        fit_alone=(),
        verify=0.0,
    ):
        self.learners = learners
        self.cv = cv
        self.scoring = scoring
        self.n_jobs = n_jobs
        self.random_state = random_state
        self.error_score = error_score
        self.keep_predictions = keep_predictions
        self.progress = progress
        self.store = store
        self.overwrite = overwrite
        self.prefix_cache_bytes = prefix_cache_bytes
        self.fit_alone = fit_alone
        self.verify = verify

    def fit(self, X, y=None, *, info=None, stopping=None):
        """Run every learner on every split of every data set.

        Parameters
        ----------
        X : dict of str to Dataset, SimulatedDataset or (X, y); or array-like
            The data sets by name (or a list of ``(name, data)`` pairs); or, with
            ``y``, the features of a single data set named ``"data"``.
        y : array-like of shape (n_samples,), default=None
            Targets of the single data set ``X``.
        info : dict, default=None
            Extra JSON-safe provenance for ``results_.info`` and the store (not
            compared on resume; a resumed run replaces the same keys).
        stopping : SequentialRule, default=None
            Run a sequential study (see :ref:`sequential`); ``sequential_`` then
            says what it did and decided. ``None`` runs every data set.

        Returns
        -------
        self : BenchmarkExperiment
        """
        extra = {} if info is None else json.loads(json.dumps(dict(info)))
        if stopping is not None:
            data = X if y is None else {"data": (X, y)}
            return fit_sequential(self, data, stopping, extra)
        if self.store is not None:
            return self._fit_store(X, y, extra)
        setup = self._prepare(X, y)
        runner = _dask_runner()
        done = {}  # completion order, put back in task order
        for batch in self._run(setup, runner):
            done.update(batch)
        outs = [done[t.dataset, t.split, t.learner] for t in self._tasks(setup)]
        description = self._result_description(setup)
        description["info"].update(extra)
        cluster = None if runner is None else _report_cluster(runner)
        return self._finish(
            setup,
            setup["n_tasks"],
            pd.DataFrame([row for out in outs for row in out["rows"]]),
            cluster,
            description,
            predictions=_predictions_frame(outs) if self.keep_predictions else None,
            losses=_losses_frame(outs, list(setup["metrics"])),
        )

    def _finish(self, setup, n_run, scores, cluster, description, **frames):
        """Warn of (or refuse) failed tasks, then set the fitted attributes."""
        _report_failures(scores, setup["n_tasks"], len(setup["metrics"]))
        if cluster is not None:
            description["info"]["cluster"] = cluster
        self.results_ = BenchmarkResult(scores, **frames, **description)
        self.n_tasks_ = n_run
        self.n_reused_tasks_ = setup["n_tasks"] - n_run
        return self

    def check(self, X, y=None):
        """Validate the experiment on its data sets without fitting anything.

        Runs every check of :meth:`fit` that needs no fitted learner (the
        splits are drawn); nothing is written, not even to the ``store``.

        Parameters
        ----------
        X : dict of str to Dataset, SimulatedDataset or (X, y); or array-like
            The data sets, as in :meth:`fit`.
        y : array-like of shape (n_samples,), default=None
            Targets of the single data set ``X``, as in :meth:`fit`.

        Returns
        -------
        summary : dict
            ``n_tasks`` (learners x splits of every data set), ``metrics`` (name
            to greater is better), ``datasets`` (name to problem) and
            ``learners`` (names).

        Raises
        ------
        ValueError
            What :meth:`fit` would refuse before running a task, with the same
            message (naming the data set, learner or parameter).

        Examples
        --------
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_bench import BenchmarkExperiment
        >>> from sklearn_bench.model_selection import BootstrapOOB
        >>> X, y = load_iris(return_X_y=True)
        >>> experiment = BenchmarkExperiment(
        ...     {"tree": DecisionTreeClassifier()}, cv=BootstrapOOB(10),
        ...     scoring=["error_rate", "accuracy"], random_state=0)
        >>> summary = experiment.check({"iris": (X, y), "half": (X[::2], y[::2])})
        >>> summary["n_tasks"], summary["metrics"]
        (20, {'error_rate': False, 'accuracy': True})
        >>> experiment.check({"setosa": (X[:50], y[:50])})
        Traceback (most recent call last):
        ...
        ValueError: Data set 'setosa' has only one class in `y`; classifiers need...
        """
        setup = self._prepare(X, y)
        return {"n_tasks": setup["n_tasks"], **_design(setup)}

    def _result_description(self, setup):
        """Metrics, data sets, learners and provenance of the result (JSON-safe)."""
        out = {
            **_design(setup),
            "info": {
                "seed": setup["seed"],
                "cv": _describe_cv(setup["cv"], setup["seed"]),
                "learners": {  # no memory addresses: the same in every run
                    name: _plain_repr(est) for name, est in setup["learners"].items()
                },
                # Every parameter (defaults too), for tables of what differs.
                "learner_params": {
                    name: describe(est) for name, est in setup["learners"].items()
                },
                # Their classes' defaults: a report reads them, never imports.
                "learner_defaults": class_defaults(setup["learners"].values()),
                "dataset_sizes": {
                    name: _dataset_size(data)
                    for name, data in setup["datasets"].items()
                },
                # where the data come from (measured, or simulated by which model)
                "dataset_sources": {
                    name: data.source
                    for name, data in setup["datasets"].items()
                    if getattr(data, "source", None)
                },
                "sklearn_bench_version": __version__,
            },
        }
        roles = {
            name: plan["roles"]
            for name, plan in setup["plans"].items()
            if plan.get("roles") is not None
        }
        if roles:  # NestedCV, PairedSubsampling: what each split is
            out["info"]["split_roles"] = roles
        return out

    def _fit_store(self, X, y, extra=None):
        """:meth:`fit` with a store: run the missing tasks, commit a batch at a
        time, read the result back in canonical order."""
        with _full_disk_keeps(self.store):
            writer = open_writer(self.store, overwrite=self.overwrite)
            try:
                stored = None if self.overwrite else writer.config()
                seed = None
                if stored is not None and self.random_state is None:
                    seed = stored["seed"]  # resume a run whose seed was drawn
                setup = self._prepare(X, y, seed=seed)
                tasks = list(self._tasks(setup))
                description = self._result_description(setup)
                description["info"]["store"] = str(self.store)
                description["info"].update(extra or {})
                kept = copy.deepcopy(description)  # for the result (made once)
                resumed = bool(writer.meta) and not self.overwrite
                done = writer.start(
                    experiment_config(self, setup),
                    tasks,
                    description,
                    keep_predictions=self.keep_predictions,
                    overwrite=self.overwrite,
                )
                if resumed and extra:
                    writer.update_info(extra)  # a resumed run: its own settings
                ordinal = writer.ordinals
                ids = [(t.dataset, t.split, t.learner) for t in tasks]
                n_run = sum(1 for i in ids if i not in done)
                runner = _dask_runner()
                for batch in self._run(setup, runner, skip=done, total=n_run):
                    # one transaction per batch: every task of it, or none
                    writer.write_many([(ordinal[k], out) for k, out in batch.items()])
                cluster = None if runner is None else _report_cluster(runner)
                if cluster is not None:
                    writer.update_info({"cluster": cluster})
            finally:
                writer.close()  # its final checkpoint may hit a full disk
        # Read back in the order of ``ids``: the same result whatever the order
        # of completion; every task is committed now, so none is missing.
        content = read_store(self.store, ids)
        return self._finish(
            setup,
            n_run,
            content["scores"],
            cluster,
            kept,
            predictions=predictions_loader(self.store, content),  # read when used
            losses=losses_loader(self.store, content),
        )

    def _prepare(self, X, y=None, *, seed=None):
        """Validate everything and draw the splits (``seed``: a resumed store's)."""
        if y is not None:
            datasets = {"data": Dataset(X, y)}
        elif isinstance(X, Dataset | SimulatedDataset):
            datasets = {"data": X}
        else:
            datasets = check_datasets(X)
        learners = _check_learners(self.learners)
        for name, data in datasets.items():
            if isinstance(data, Dataset):
                check_dataset_for_learners(name, data, learners)
        if not (self.error_score == "raise" or isinstance(self.error_score, Real)):
            raise ValueError(
                f"`error_score` must be 'raise' or a number; got {self.error_score!r}."
            )
        classifiers = all(is_classifier(e) for e in learners.values())
        regressors = all(is_regressor(e) for e in learners.values())
        metrics = check_scoring(
            self.scoring, all_classifiers=classifiers, all_regressors=regressors
        )
        if seed is None:
            seed = _base_seed(self.random_state)
        cv = _check_cv(self.cv)
        check_n_jobs(self.n_jobs)
        simulations = all(isinstance(d, SimulatedDataset) for d in datasets.values())
        if cv is None and not simulations:
            kind = RepeatedStratifiedKFold if classifiers else RepeatedKFold
            cv = kind(n_splits=DEFAULT_FOLDS, n_repeats=DEFAULT_REPEATS)
        check_positive_int(self.prefix_cache_bytes, "prefix_cache_bytes", minimum=0)
        if not 0 <= real_number(self.verify, "verify") <= 1:
            raise ValueError(f"`verify` must lie in [0, 1]; got {self.verify!r}.")
        if isinstance(self.fit_alone, str) or not all(
            isinstance(n, str) for n in self.fit_alone
        ):
            raise ValueError(
                f"`fit_alone` must be a collection of learner names; got "
                f"{self.fit_alone!r}."
            )
        unknown = sorted(set(self.fit_alone) - set(learners))
        if unknown:
            raise ValueError(f"`fit_alone` names no learner {unknown[0]!r}.")
        plans = {
            name: self._plan(name, data, cv, learners, metrics, seed)
            for name, data in datasets.items()
        }
        return {
            "datasets": datasets,
            "learners": learners,
            # the pointwise losses of the intervals of one learner's error
            "keep_losses": bool(self.keep_predictions) or hasattr(cv, "split_roles"),
            "unseeded": {name: _unseeded_params(e) for name, e in learners.items()},
            "metrics": metrics,
            "seed": seed,
            "cv": cv,
            "plans": plans,
            "n_tasks": sum(len(p["splits"]) for p in plans.values()) * len(learners),
        }

    def _tasks(self, setup):
        """Every task, in the order of ``results_.scores`` (nothing is run)."""
        # Learner-major: interleaved thread pools (OpenMP, BLAS) spin.
        for dname, plan in setup["plans"].items():
            for lname in setup["learners"]:
                for split, (_, _, rep, fold) in enumerate(plan["splits"]):
                    yield Task(dname, split, rep, fold, lname)

    def _jobs(self, setup, skip=frozenset()):
        """Yield ``(tasks, kwargs of run_tasks)``: a task, or those of learners
        that may share a prefix on a split; ids in ``skip`` are left out."""
        learners = setup["learners"]
        groups = self._sharing_groups(learners, setup["unseeded"])
        for dname, plan in setup["plans"].items():
            emitted, twins = set(), _same_training(plan["splits"])
            for lname in learners:
                group = groups.get(lname, [lname])
                if group[0] in emitted:
                    continue
                emitted.add(group[0])
                merged = set()
                for split in range(len(plan["splits"])):
                    names = [n for n in group if (dname, split, n) not in skip]
                    if not names or split in merged:
                        continue
                    # later splits of these training rows: fitted once, here
                    also = [t for t in twins.get(split, ())
                            if [n for n in group if (dname, t, n) not in skip]
                            == names]  # fmt: skip
                    merged.update(also)
                    kwargs = self._job(setup, dname, split, names, also=also)
                    yield kwargs["tasks"], kwargs

    def _job(self, setup, dname, split, names, *, alone=False, also=()):
        """:func:`run_tasks`'s arguments for ``names`` on a split (and ``also``)."""
        plan, seed = setup["plans"][dname], setup["seed"]
        train, test, rep, fold = plan["splits"][split]
        X_l, y_l = plan["learning_sample"](rep)
        lseed = derive_seed(seed, dname, SEED_LEARNER, rep)
        splits = [split, *also]
        return {
            "tasks": [
                Task(dname, s, rep, plan["splits"][s][3], n)
                for s in splits
                for n in names
            ],
            "estimators": [setup["learners"][n] for _ in splits for n in names],
            "seed_params": [
                _seed_params(setup["unseeded"][n], lseed) for _ in splits for n in names
            ],
            "tests": [plan["splits"][s][1] for s in splits for _ in names]
            if also
            else None,
            "X": X_l,
            "y": y_l,
            "train": train,
            "test": test,
            "X_test": plan["X_test"],
            "y_test": plan["y_test"],
            "metrics": setup["metrics"],
            "error_score": self.error_score,
            "keep_predictions": self.keep_predictions,
            "keep_losses": setup["keep_losses"],
            "prefix_cache_bytes": 0 if alone else self.prefix_cache_bytes,
            "driver_pid": os.getpid(),
        }

    def _sharing_groups(self, learners, unseeded):
        """Learner name to the group of learners whose pipelines begin alike."""
        if not self.prefix_cache_bytes:
            return {}
        by_first = {}
        for name, est in learners.items():
            if name in self.fit_alone:
                continue
            est = clone(est).set_params(**_seed_params(unseeded[name], 0))
            keys = prefix_keys(est)
            if keys:
                by_first.setdefault(keys[0], []).append(name)
        return {n: g for g in by_first.values() if len(g) > 1 for n in g}

    def _run(self, setup, runner, skip=frozenset(), total=None):
        """Yield ``{task id: run_tasks's out}`` a job or dask batch at a time, in
        completion order, once ``verify`` has checked it."""
        jobs = self._jobs(setup, skip)
        total = setup["n_tasks"] if total is None else total
        if runner is None:
            parallel = Parallel(
                n_jobs=self.n_jobs,
                return_as="generator_unordered",
                **watching_workers(),
            )
            results = parallel(delayed(run_tasks)(**kw) for _, kw in jobs)
            batches = ([outs] for outs in results)
        else:  # the dask path: survives lost workers (see _dask.py)
            results = runner.run(jobs, total=total)
            batches = ([outs for _, outs in batch] for batch in results)
        check = self._verifier(setup)
        with (
            contextlib.closing(results),  # its workers stop with the run
            tqdm(
                total=total,
                disable=not self.progress,
                desc="BenchmarkExperiment" + ("" if runner is None else " (dask)"),
                unit="task",
            ) as bar,
        ):
            for batch in batches:
                done = {}
                for outs in batch:
                    for out in outs:
                        row = out["rows"][0]
                        done[row["dataset"], row["split"], row["learner"]] = out
                check(done)
                bar.update(len(done))
                yield done

    def _verifier(self, setup):
        """A check of each batch that re-fits a seeded sample of its tasks on the
        driver (``verify``), refusing the run when one differs."""
        tasks = list(self._tasks(setup))
        k = math.ceil(self.verify * len(tasks))
        rng = np.random.default_rng([setup["seed"], VERIFY_STREAM])
        picked = rng.choice(len(tasks), size=k, replace=False) if k else []
        sample = {(tasks[i].dataset, tasks[i].split, tasks[i].learner)
                  for i in picked}  # fmt: skip

        def check(done):
            for key in sorted(sample & done.keys()):
                dname, split, lname = key
                job = self._job(setup, dname, split, [lname], alone=True)
                mine = run_tasks(**job)[0]
                field = first_difference(done[key], mine)
                if field is not None:
                    a, b = done[key]["rows"][0], mine["rows"][0]
                    raise RuntimeError(
                        f"`verify` refused the run: the task of learner {lname!r} on "
                        f"data set {dname!r}, split {split}, gave other {field} when "
                        f"re-fitted on the driver ({b['metric']} = {b['value']!r}) "
                        f"than from the workers ({a['metric']} = {a['value']!r}"
                        f"{_failed(a)}). A worker is faulty or not to be trusted. "
                        "Nothing of this batch was stored; the tasks of this run "
                        "stored before it came from the same workers: start the "
                        "store again (overwrite=True) on workers you trust."
                    )

        return check

    def _plan(self, name, data, cv, learners, metrics, seed):
        """Splits (train, test, replicate, fold) and samples of one data set."""
        split_metrics = [m for m, metric in metrics.items() if metric.needs_split]
        if split_metrics and data.problem != "real world":
            raise ValueError(
                f"Metric {split_metrics[0]!r} scores the training and out-of-bag rows "
                f"of the learning sample, but data set {name!r} is a {data.problem} "
                "problem scored on a fixed test sample; use it on real-world data "
                "sets (Dataset(X, y)) with BootstrapOOB."
            )
        if isinstance(data, SimulatedDataset):
            X_test, y_test = data.sample(
                data.n_test, derive_seed(seed, name, SEED_TEST_SAMPLE)
            )
            check_target(name, y_test)  # a Dataset's: check_dataset_for_learners
            check_classification_target(name, y_test, learners)
            _check_target(name, y_test, learners, metrics)
            train = np.arange(data.n_train)
            splits = [(train, None, b, 0) for b in range(data.n_replicates)]

            def learning_sample(rep):
                return data.sample(
                    data.n_train, derive_seed(seed, name, SEED_LEARNING_SAMPLE, rep)
                )

            return {
                "splits": splits,
                "learning_sample": learning_sample,
                "X_test": X_test,
                "y_test": y_test,
            }
        _check_target(name, data.y, learners, metrics)
        if data.y_test is not None:
            _check_target(name, data.y_test, learners, metrics)
        cv = check_cv(cv, data.y, classifier=all(map(is_classifier, learners.values())))
        if _is_unseeded_splitter(cv):
            cv = copy.deepcopy(cv)
            cv.random_state = derive_seed(seed, name, SEED_CV)
        try:
            split_list = list(cv.split(data.X, data.y, data.groups))
        except ValueError as exc:
            raise ValueError(
                f"`cv` cannot split data set {name!r} ({data.n_samples} rows): {exc}"
            ) from exc
        reps = replicate_ids(cv, data.X, data.y, data.groups)
        if len(reps) != len(split_list):
            raise ValueError(
                f"`cv` yields {len(split_list)} splits on data set {name!r} but "
                f"get_n_splits says {len(reps)}."
            )
        folds = pd.Series(reps).groupby(np.asarray(reps)).cumcount().tolist()
        roles = None
        if hasattr(cv, "split_roles"):  # JSON-safe: column names and rows
            table = cv.split_roles(data.X, data.y, data.groups)
            roles = {"columns": list(table.columns), "rows": table.values.tolist()}
        competition = data.X_test is not None
        splits = [
            (np.asarray(train), None if competition else np.asarray(test), r, f)
            for (train, test), r, f in zip(split_list, reps, folds, strict=True)
        ]
        return {
            "splits": splits,
            "learning_sample": lambda rep: (data.X, data.y),
            "X_test": data.X_test,
            "y_test": data.y_test,
            "roles": roles,
        }


def _failed(row):
    return f" ({row['error_type']})" if row["error_type"] else ""


def _design(setup):
    """The metrics, data sets and learners of a prepared experiment."""
    return {
        "metrics": {m.name: m.greater_is_better for m in setup["metrics"].values()},
        "datasets": {name: data.problem for name, data in setup["datasets"].items()},
        "learners": list(setup["learners"]),
    }


def _dask_runner():
    """A :class:`~._dask.DaskRunner` under joblib's dask backend, else ``None``."""
    client = active_dask_client()
    return None if client is None else DaskRunner(client)


def _report_cluster(runner):
    """The cluster's provenance; a warning names each worker lost."""
    lost = runner.lost_workers
    if lost:
        text = "\n".join(describe_lost_workers(lost))
        warnings.warn(text, RuntimeWarning, stacklevel=4)
    try:
        scheduler = runner.client.scheduler.address
    except Exception:  # a client without a scheduler connection
        scheduler = ""
    return {
        "scheduler": str(scheduler),
        "lost_workers": lost,
        "n_resent_tasks": runner.n_resent,
    }


@contextlib.contextmanager
def _full_disk_keeps(store):
    """On a full disk while writing ``store``, say that it is kept and how to
    resume."""
    import errno
    import sqlite3

    try:
        yield
    except Exception as exc:
        if (
            isinstance(exc, sqlite3.OperationalError) and "full" in str(exc).lower()
        ) or (isinstance(exc, OSError) and exc.errno == errno.ENOSPC):
            raise RuntimeError(
                f"The disk is full: the store {str(store)!r} could not be written "
                f"({exc}). The store is kept, with every task committed before; free "
                "some space and fit the same experiment on it again to resume (only "
                "the missing tasks run)."
            ) from exc
        raise


def _dataset_size(data):
    """The sizes of a data set for the methods paragraph (JSON-safe)."""
    if isinstance(data, SimulatedDataset):
        return {"n_train": data.n_train, "n_test": data.n_test}
    size = {"n_samples": int(data.n_samples)}
    shape = getattr(data.X, "shape", None)
    if shape is not None and len(shape) == 2:
        size["n_features"] = int(shape[1])
    if data.X_test is not None:
        size["n_test"] = int(len(data.y_test))
    return size


def _check_cv(cv):
    """``cv``, an iterable of splits read once into a list; refuse what would fail
    inside scikit-learn."""
    if cv is None or hasattr(cv, "split"):
        return cv
    if isinstance(cv, Integral) and not isinstance(cv, bool):
        if cv < 2:
            raise ValueError(
                f"`cv` (the number of folds) must be at least 2; got {cv}."
            )
        return cv
    if isinstance(cv, bool | Real | str | bytes) or not hasattr(cv, "__iter__"):
        raise TypeError(f"`cv` must be None, an integer >= 2, a splitter or an "
                        f"iterable of splits; got {cv!r}.")  # fmt: skip
    cv = list(cv)
    if not cv or not all(isinstance(s, tuple | list) and len(s) == 2 for s in cv):
        raise ValueError(
            "`cv` as an iterable must yield (train, test) pairs of index "
            f"arrays; got {cv[:2]!r}."
        )
    return cv


def _describe_cv(cv, seed=None):
    """A short text of ``cv`` for the provenance."""
    if cv is None or isinstance(cv, Integral) or hasattr(cv, "split"):
        text = repr(cv)
        if seed is not None and _is_unseeded_splitter(cv):
            text = text.replace(
                "random_state=None", f"random_state=<per data set, from seed {seed}>"
            )
        return text
    return f"iterable of {len(list(cv))} (train, test) splits"


def _plain_repr(estimator):
    """``repr`` without memory addresses: ``<function f at 0x…>`` is ``f``."""
    text = re.sub(r"<(?:built-in )?function ([\w.<>]+) at 0x[0-9a-fA-F]+>", r"\1",
                  repr(estimator))  # fmt: skip
    return re.sub(r" at 0x[0-9a-fA-F]+", "", text)


def _check_learners(learners):
    out, what = {}, "estimator"
    for name, est in named_items(learners, "learners", noun="learner", what=what):
        if isinstance(est, type) or not (
            hasattr(est, "fit") and hasattr(est, "get_params")
        ):
            raise TypeError(
                f"Learner {name!r} is not a scikit-learn estimator (it needs `fit` "
                f"and `get_params`); got {est!r}."
            )
        out[name] = est
    return out


def _is_unseeded_splitter(value):
    return (
        hasattr(value, "split")
        and getattr(value, "random_state", 0) is None
        and getattr(value, "shuffle", True)
        and not isinstance(value, type)
    )


def _unseeded_params(estimator):
    """The parameters that would draw from global randomness."""
    out = {}
    for key, value in estimator.get_params(deep=True).items():
        name = key.rsplit("__", 1)[-1]
        if name == "random_state" and (
            value is None or isinstance(value, np.random.RandomState)
        ):
            out[key] = None
        elif _is_unseeded_splitter(value):
            out[key] = value
    return out


def _seed_params(unseeded, seed):
    params = dict.fromkeys(unseeded, seed)
    for key, value in unseeded.items():
        if value is not None:  # a splitter: a seeded copy
            params[key] = copy.deepcopy(value)
            params[key].random_state = seed
    return params


def _base_seed(random_state):
    if random_state is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(random_state, Integral) and not isinstance(random_state, bool):
        if random_state < 0:
            raise ValueError(
                f"`random_state` must be a non-negative integer; got {random_state}."
            )
        return int(random_state)
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(np.iinfo(np.int32).max))
    raise ValueError(
        "`random_state` must be None, a non-negative integer or a RandomState "
        f"instance; got {random_state!r}."
    )


def _check_target(dataset, y, learners, metrics):
    """Refuse a target that a learner or metric cannot take."""
    kind = type_of_target(y, input_name="y")
    classifiers = [n for n, e in learners.items() if is_classifier(e)]
    regressors = [n for n, e in learners.items() if not is_classifier(e)]
    if kind in ("binary", "multiclass") and classifiers and len(np.unique(y)) < 2:
        raise ValueError(
            f"Data set {dataset!r} has only one class in `y`; classifiers need "
            "at least two."
        )
    if kind.startswith("continuous") and classifiers:
        raise ValueError(
            f"Learner {classifiers[0]!r} is a classifier, but data set {dataset!r} "
            "has a continuous target."
        )
    for name, metric in metrics.items():
        if metric.task == "classification":
            if kind not in ("binary", "multiclass"):
                raise ValueError(
                    f"Metric {name!r} is for classification, but data set "
                    f"{dataset!r} has a {kind} target."
                )
            if regressors:
                raise ValueError(
                    f"Metric {name!r} is for classification, but learner "
                    f"{regressors[0]!r} is not a classifier."
                )
        if metric.binary_only and kind != "binary":
            raise ValueError(
                f"Metric {name!r} needs a binary target, but data set {dataset!r} "
                f"has a {kind} target."
            )


def _report_failures(scores, n_tasks, n_metrics):
    failed = scores[scores["error_type"] != ""]
    if failed.empty:
        return
    tasks = failed.drop_duplicates(["dataset", "split", "learner"])
    n_failed = len(tasks)
    details = [
        f"{len(group)} task(s) of learner(s) {sorted(set(group['learner']))} failed "
        f"with:\n{group['traceback'].iloc[0]}"
        for _, group in tasks.groupby(["error_type", "error_message"], sort=False)
    ]
    rule = "\n" + "-" * 80 + "\n"
    summary = f"{n_failed} of the {n_tasks} tasks failed.{rule}" + rule.join(details)
    if n_failed == n_tasks:
        raise ValueError(f"All the {n_tasks} tasks failed.\n{summary}")
    warnings.warn(
        f"{summary}\nTheir scores are set to `error_score`; see "
        "results_.scores['traceback'].",
        FitFailedWarning,
        stacklevel=3,
    )


def _losses_frame(outs, metric_names):
    """Kept pointwise losses of all tasks as one long frame (see
    :func:`~sklearn_bench.store._reader.losses_table`), or ``None``."""
    items = [
        (h["dataset"], h["learner"], h["split"], o["metrics"], o["rows"], o["loss"])
        for h, o in ((out["rows"][0], out.get("losses")) for out in outs)
        if o is not None
    ]
    return losses_table(items, metric_names) if items else None


def _predictions_frame(outs):
    """Kept predictions of all tasks as one long frame (keys as categorical codes)."""
    keys, items = ["dataset", "learner", "split", "replicate", "fold"], []
    for out in outs:
        if (p := out["predictions"]) is not None:
            head = [out["rows"][0][k] for k in keys]
            items.append((*head, p["rows"], p.get("correct"), p.get("y_pred")))
    return predictions_table(items)
