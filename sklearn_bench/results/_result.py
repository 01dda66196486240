"""BenchmarkResult: the tidy table of a benchmark experiment and what it knows."""

import json
import warnings
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
from . import _scales, _select, _within
from ._leaderboard import LeaderboardMixin
from ._store import read_predictions, read_store

__all__ = ["BenchmarkResult"]

_KEYS = ["dataset", "learner", "split", "replicate", "fold", "metric"]
_SCORE_COLUMNS = [
    *_KEYS,
    "value",
    "fit_time",
    "score_time",
    "n_train",
    "n_test",
    "failed",
    "error_type",
    "error_message",
    "traceback",
]
_PREDICTION_COLUMNS = [
    "dataset",
    "learner",
    "split",
    "replicate",
    "fold",
    "row",
    "correct",
    "y_pred",
]
_INT_COLUMNS = ["split", "replicate", "fold", "n_train", "n_test"]
_FLOAT_COLUMNS = ["value", "fit_time", "score_time"]
_TEXT_COLUMNS = ["error_type", "error_message", "traceback"]
_PROBLEMS = ("real world", "competition", "simulation", "unknown")
_FORMAT_VERSION = 1


_AGGREGATES = ("mean", "median", "std", "var", "min", "max", "count", "sum", "sem")


def _factorize(column):
    """``pd.factorize`` of a Series (string columns stay in C) or of a sequence."""
    if not isinstance(column, pd.Series | pd.Index | np.ndarray):
        column = np.asarray(column, dtype=object)
    return pd.factorize(column)


def _text(column):
    """``str`` of each value (``""`` for a missing one), converted once per label,
    and whether it is not empty."""
    codes, uniques = _factorize(column)
    labels = np.array([*(str(u) for u in uniques), ""], dtype=object)
    # Code -1 (missing) picks the last label, "".
    return labels[codes], (labels != "")[codes]


def _labels(column):
    """A column as a categorical of its ``str`` labels in order of appearance."""
    codes, uniques = _factorize(column)
    labels = [str(u) for u in uniques]
    if (codes < 0).any():  # a missing value is the label "nan", as str() gives
        codes = np.where(codes < 0, len(labels), codes)
        labels.append("nan")
    if len(set(labels)) < len(labels):  # e.g. 1 and "1": one label
        merged = {label: i for i, label in reversed(list(enumerate(labels)))}
        codes = np.array([merged[label] for label in labels])[codes]
        keep = sorted(merged.values())
        codes = np.searchsorted(keep, codes)
        labels = [labels[i] for i in keep]
    return pd.Categorical.from_codes(codes, labels)


class BenchmarkResult(LeaderboardMixin):
    """Scores of learners on data sets and replicates, with their provenance.

    Usually made by :class:`~sklearn_bench.BenchmarkExperiment` (``results_``),
    by :meth:`from_frame` for results produced elsewhere, or by :meth:`load`.
    The table follows Hothorn et al. (2005, Section 3): the performance
    :math:`p_{kb}` of learner :math:`k` on replicate (learning sample) :math:`b`
    is the mean of its fold scores within that replicate.

    Parameters
    ----------
    scores : DataFrame
        One row per (dataset, learner, split, replicate, fold, metric) with the
        columns described in :attr:`scores`; ``fit_time``, ``score_time``,
        ``n_train``, ``n_test`` and the failure columns may be missing.
    metrics : dict of str to bool
        Each metric and whether greater is better, in order; the first is the
        default metric of :meth:`performance` and :meth:`aggregate`.
    datasets : dict of str to str
        Each data set, in order, and its problem: ``"real world"``,
        ``"competition"``, ``"simulation"`` or ``"unknown"``.
    learners : list of str
        The learners, in order.
    predictions : DataFrame, default=None
        Kept validation predictions (``keep_predictions=True``), one row per
        (dataset, learner, split, validation row): ``row`` (index in the learning
        sample, or in the fixed test sample for competition and simulation),
        ``correct`` (classifiers) or ``y_pred`` (regressors). Failed tasks keep
        no predictions.
    info : dict, default=None
        JSON-serialisable provenance (seeds, ``cv``, learner reprs, versions).

    Attributes
    ----------
    scores : DataFrame
        Long table with columns ``dataset``, ``learner`` and ``metric``
        (categoricals in experiment order), ``split``, ``replicate``, ``fold``,
        ``value``, ``fit_time``, ``score_time``, ``n_train``, ``n_test``,
        ``failed`` and ``error_type``, ``error_message``, ``traceback`` (empty
        strings where the task did not fail).
    metrics, datasets, learners, predictions, info
        As passed.
    n_missing_tasks : int
        Tasks of a store's run that were not run yet (see :meth:`from_store`);
        0 otherwise.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench import BenchmarkResult
    >>> table = pd.DataFrame({
    ...     "data": ["a", "a", "b", "b"], "model": ["m1", "m2", "m1", "m2"],
    ...     "error": [0.10, 0.12, 0.30, 0.25]})
    >>> result = BenchmarkResult.from_frame(
    ...     table, dataset="data", learner="model", value="error",
    ...     greater_is_better=False)
    >>> result.aggregate()
    learner     m1    m2
    dataset
    a          0.1  0.12
    b          0.3  0.25
    """

    def __init__(
        self, scores, *, metrics, datasets, learners, predictions=None, info=None
    ):
        for name, value in [("metrics", metrics), ("datasets", datasets)]:
            if not isinstance(value, dict):
                raise TypeError(f"`{name}` must be a dict; got {value!r}.")
        if isinstance(learners, str) or not isinstance(learners, list | tuple):
            raise TypeError(f"`learners` must be a list of names; got {learners!r}.")
        if len(set(map(str, learners))) != len(learners):
            raise ValueError(f"`learners` has duplicated names: {list(learners)}.")
        if not isinstance(scores, pd.DataFrame):
            raise TypeError(
                f"`scores` must be a DataFrame; got {type(scores).__name__}."
            )
        self.metrics = {str(k): bool(v) for k, v in dict(metrics).items()}
        self.datasets = {str(k): str(v) for k, v in dict(datasets).items()}
        self.learners = [str(name) for name in learners]
        for name, problem in self.datasets.items():
            if problem not in _PROBLEMS:
                raise ValueError(
                    f"Problem of data set {name!r} must be one of {_PROBLEMS}; got "
                    f"{problem!r}."
                )
        self.scores = self._normalise_scores(scores)
        self.predictions = predictions
        self.info = {} if info is None else dict(info)

    # Tasks of a store not yet run (see from_store); 0 for a complete result.
    n_missing_tasks = 0
    _load_predictions = None  # reads predictions from a store when first used

    @property
    def predictions(self):
        """Kept predictions (read from the store when first used), or None."""
        if self._load_predictions is not None:
            self._predictions = self._normalise_predictions(self._load_predictions())
            self._load_predictions = None
        return self._predictions

    @predictions.setter
    def predictions(self, value):
        self._load_predictions = None
        self._predictions = (
            None if value is None else self._normalise_predictions(value)
        )

    # -- construction -------------------------------------------------------------
    def _categorical(self, column, categories, name):
        # Labels are converted and checked once each, never row by row: a long
        # column is factorised (categoricals are already) and its codes recoded.
        if isinstance(column.dtype, pd.CategoricalDtype):
            column = pd.Categorical(column)
            codes, uniques = column.codes, column.categories
            used = np.bincount(codes[codes >= 0], minlength=len(uniques)) > 0
        else:
            codes, uniques = _factorize(column)
            used = np.ones(len(uniques), dtype=bool)
        labels = [str(u) for u in uniques]
        position = {c: i for i, c in enumerate(categories)}
        unknown = sorted(
            {u for u, is_used in zip(labels, used, strict=True) if is_used}
            - set(position)
        )
        if unknown or (codes < 0).any():
            raise ValueError(
                f"`scores` has {name} values "
                f"{unknown if unknown else ['NaN']} not listed in `{name}s`."
            )
        if labels != list(categories):
            recode = np.array([position.get(u, -1) for u in labels], dtype=np.int64)
            codes = recode[codes] if len(recode) else codes
        return pd.Categorical.from_codes(codes, categories=categories)

    def _normalise_scores(self, scores):
        missing = [c for c in [*_KEYS, "value"] if c not in scores.columns]
        if missing:
            raise ValueError(f"`scores` lacks the columns {missing}.")
        df = pd.DataFrame(index=pd.RangeIndex(len(scores)))
        df["dataset"] = self._categorical(
            scores["dataset"], list(self.datasets), "dataset"
        )
        df["learner"] = self._categorical(scores["learner"], self.learners, "learner")
        for col in ["split", "replicate", "fold"]:
            df[col] = np.asarray(scores[col], dtype=np.int64)
        df["metric"] = self._categorical(scores["metric"], list(self.metrics), "metric")
        for col in _FLOAT_COLUMNS:
            df[col] = (
                np.asarray(scores[col], dtype=np.float64)
                if col in scores.columns
                else np.nan
            )
        for col in ["n_train", "n_test"]:
            df[col] = (
                np.asarray(scores[col], dtype=np.int64) if col in scores.columns else -1
            )
        failed = np.zeros(len(df), dtype=bool)
        for col in _TEXT_COLUMNS:
            values = np.full(len(df), "", dtype=object)
            if col in scores.columns:
                values, nonempty = _text(scores[col])
                if col == "error_type":
                    failed = nonempty
            # As an object Series: pandas would convert an array to str row by row.
            df[col] = pd.Series(values, dtype=object, copy=False)
        df["failed"] = failed
        return df[_SCORE_COLUMNS]

    def _normalise_predictions(self, predictions):
        df = pd.DataFrame(index=pd.RangeIndex(len(predictions)))
        df["dataset"] = self._categorical(
            predictions["dataset"], list(self.datasets), "dataset"
        )
        df["learner"] = self._categorical(
            predictions["learner"], self.learners, "learner"
        )
        for col in ["split", "replicate", "fold", "row"]:
            df[col] = np.asarray(predictions[col], dtype=np.int64)
        df["correct"] = pd.array(
            predictions["correct"] if "correct" in predictions else [pd.NA] * len(df),
            dtype="boolean",
        )
        df["y_pred"] = (
            np.asarray(predictions["y_pred"], dtype=np.float64)
            if "y_pred" in predictions
            else np.nan
        )
        return df[_PREDICTION_COLUMNS]

    @classmethod
    def from_frame(
        cls,
        df,
        *,
        dataset,
        learner,
        value,
        replicate=None,
        metric=None,
        greater_is_better,
    ):
        """Results produced elsewhere, as a long table, for the same analyses.

        Parameters
        ----------
        df : DataFrame
            One row per data set, learner (and replicate, metric). Several rows
            with the same keys are taken as folds of one replicate.
        dataset, learner, value : str
            Columns holding the data set, the learner and the score.
        replicate : str, default=None
            Column of the replicate; ``None`` means one replicate per data set
            and learner (e.g. a published table of mean error rates).
        metric : str, default=None
            Column naming the metric of each row; ``None`` means a single metric
            named after the ``value`` column.
        greater_is_better : bool or dict of str to bool
            Direction of the metric, or of each metric.

        Returns
        -------
        result : BenchmarkResult
            Data sets, learners and metrics are ordered by first appearance;
            every data set's problem is ``"unknown"``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> wide = pd.DataFrame({"C4.5": [0.2, 0.3], "C4.5+m": [0.18, 0.31]},
        ...                     index=pd.Index(["adult", "breast"], name="data"))
        >>> long = wide.reset_index().melt(id_vars="data", var_name="learner",
        ...                                value_name="error")
        >>> result = BenchmarkResult.from_frame(
        ...     long, dataset="data", learner="learner", value="error",
        ...     greater_is_better=False)
        >>> result.learners, result.metrics
        (['C4.5', 'C4.5+m'], {'error': False})
        """
        names = {"dataset": dataset, "learner": learner, "value": value}
        names.update({k: v for k, v in [("replicate", replicate), ("metric", metric)]
                      if v})  # fmt: skip
        for arg, column in names.items():
            if not isinstance(column, str) or column not in df.columns:
                raise ValueError(
                    f"`{arg}` must name a column of `df`, but `df` has no columns "
                    f"[{column!r}]; its columns are {list(df.columns)}."
                )
        try:
            values = np.asarray(df[value], dtype=np.float64)
        except (TypeError, ValueError) as exc:
            raise ValueError(
                f"`value`: column {value!r} must hold real numbers ({exc})."
            ) from None
        n = len(df)
        out = pd.DataFrame(
            {
                "dataset": _labels(df[dataset]),
                "learner": _labels(df[learner]),
                "replicate": (
                    np.zeros(n, dtype=np.int64)
                    if replicate is None
                    else np.asarray(df[replicate], dtype=np.int64)
                ),
                "metric": (
                    pd.Categorical.from_codes(np.zeros(n, dtype=np.int64), [str(value)])
                    if metric is None
                    else _labels(df[metric])
                ),
                "value": values,
            }
        )
        # Rows with the same keys are folds, numbered in order of appearance.
        rep_codes, reps = pd.factorize(out["replicate"])
        key = pd.Series(
            (
                (
                    out["dataset"].cat.codes.to_numpy(np.int64)
                    * len(out["learner"].cat.categories)
                    + out["learner"].cat.codes.to_numpy()
                )
                * len(out["metric"].cat.categories)
                + out["metric"].cat.codes.to_numpy()
            )
            * max(len(reps), 1)
            + rep_codes
        )
        out["fold"] = (
            key.groupby(key, sort=False).cumcount().to_numpy()
            if key.duplicated().any()
            else 0
        )
        # Splits matched across learners: one id per (replicate, fold).
        n_folds = int(out["fold"].max()) + 1 if n else 1
        out["split"] = out["replicate"] * n_folds + out["fold"]
        metric_names = list(out["metric"].cat.categories)
        if isinstance(greater_is_better, dict):
            lacking = [m for m in metric_names if m not in greater_is_better]
            if lacking:
                raise ValueError(f"`greater_is_better` lacks the metrics {lacking}.")
            directions = {m: bool(greater_is_better[m]) for m in metric_names}
        elif isinstance(greater_is_better, bool | np.bool_):
            directions = dict.fromkeys(metric_names, bool(greater_is_better))
        else:
            raise ValueError("`greater_is_better` must be a bool or a dict of bools.")
        return cls(
            out,
            metrics=directions,
            datasets=dict.fromkeys(out["dataset"].cat.categories, "unknown"),
            learners=list(out["learner"].cat.categories),
        )

    @classmethod
    def from_store(cls, path):
        """Read the run of a store, finished or partial, without fitting anything.

        Parameters
        ----------
        path : str or Path, or list of them
            An SQLite store written by
            :class:`~sklearn_bench.BenchmarkExperiment` (``store=path``); it may
            be read while a run is writing it. A grown store is read as one run
            of all its tasks. A list of stores of one study (parts run on
            several machines) is combined as
            :func:`~sklearn_bench.results.merge_stores` would combine them,
            without writing any of them; conflicting duplicates are refused.

        Returns
        -------
        result : BenchmarkResult
            The scores of the committed tasks in canonical order; kept
            predictions are read from the store when :attr:`predictions` is
            first used. ``n_missing_tasks`` counts the tasks not run yet (a
            ``UserWarning`` says so when it is not 0);
            ``info["store"]`` gives the path.

        Raises
        ------
        FileNotFoundError
            No file at ``path``.
        ValueError
            The file is not a sklearn_bench store or has a newer schema.

        Examples
        --------
        >>> import tempfile
        >>> from pathlib import Path
        >>> from sklearn.datasets import load_iris
        >>> from sklearn.dummy import DummyClassifier
        >>> from sklearn_bench import BenchmarkExperiment, BenchmarkResult
        >>> X, y = load_iris(return_X_y=True)
        >>> with tempfile.TemporaryDirectory() as folder:
        ...     store = Path(folder) / "run.sqlite"
        ...     experiment = BenchmarkExperiment(
        ...         {"dummy": DummyClassifier()}, cv=3, random_state=0,
        ...         progress=False, store=store).fit(X, y)
        ...     result = BenchmarkResult.from_store(store)
        >>> result.n_missing_tasks
        0
        >>> result.aggregate().round(2)
        learner  dummy
        dataset
        data      0.68
        """
        if isinstance(path, list | tuple):
            return cls._from_stores(path)
        return cls._from_store(path)

    @classmethod
    def _from_stores(cls, paths):
        import tempfile

        from ._store import merge_stores

        with tempfile.TemporaryDirectory() as folder:
            merged = Path(folder) / "merged.sqlite"
            merge_stores(paths, merged)
            result = cls._from_store(merged)
            _ = result.predictions  # read now: the merged store is temporary
        result.info["store"] = [str(p) for p in paths]
        return result

    @classmethod
    def _from_store(cls, path, tasks=None, description=None):
        """``from_store``, or the ``tasks`` of one experiment (ids in order)
        described by ``description`` (metrics, datasets, learners, info)."""
        content = read_store(path, tasks)
        meta = content["result"] if description is None else description
        info = dict(meta["info"], store=str(path))
        result = cls(
            content["scores"],
            metrics=meta["metrics"],
            datasets=meta["datasets"],
            learners=meta["learners"],
            info=info,
        )
        if content["keep_predictions"]:
            done = content["done"]
            where = Path(path).resolve()
            result._load_predictions = lambda: read_predictions(where, done)
        result.n_missing_tasks = content["n_missing_tasks"]
        if result.n_missing_tasks and tasks is None:
            n_tasks = content["n_tasks"]
            warnings.warn(
                f"The store {str(path)!r} holds {n_tasks - result.n_missing_tasks}"
                f" of the {n_tasks} tasks of its run; "
                f"{result.n_missing_tasks} are missing (interrupted or still "
                "running). Fit the same experiment with this `store` to resume it.",
                UserWarning,
                stacklevel=2,
            )
        return result

    # -- views --------------------------------------------------------------------
    def _metric(self, metric):
        if metric is None:
            return next(iter(self.metrics))
        if not isinstance(metric, str) or metric not in self.metrics:
            raise ValueError(
                f"Unknown `metric` {metric!r}; this result has {list(self.metrics)}."
            )
        return metric

    def performance(self, metric=None):
        """Performance of each learner on each replicate: the mean of its folds.

        The performance :math:`p_{kb}` of Hothorn et al. (2005, Section 3). A
        failed task contributes no value to any metric (one failed metric row
        makes all its metrics ``NaN``), and a replicate with a ``NaN`` fold has
        ``NaN`` performance. Paired analyses drop such replicates and say how
        many they dropped.

        Parameters
        ----------
        metric : str, default=None
            Which metric; the first one by default.

        Returns
        -------
        performance : DataFrame
            Columns ``dataset``, ``learner``, ``replicate``, ``value``; one row per
            (dataset, learner, replicate), in experiment order.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["a"] * 4, "l": ["x"] * 4,
        ...                    "r": [0, 0, 1, 1], "v": [0.1, 0.2, 0.3, 0.5]})
        >>> BenchmarkResult.from_frame(df, dataset="d", learner="l", value="v",
        ...     replicate="r", greater_is_better=False).performance()
          dataset learner  replicate  value
        0       a       x          0   0.15
        1       a       x          1   0.40
        """
        metric = self._metric(metric)
        scores = self.scores
        rows = scores["metric"].cat.codes.to_numpy() == list(self.metrics).index(metric)
        value = scores["value"].to_numpy()[rows]
        failed = _select.failed_task_rows(scores)
        if failed is not None:  # the failed-task rule: no value on any metric
            value = np.where(failed[rows], np.nan, value)
        d, m, rep, value = _select.replicate_means(
            scores["dataset"].cat.codes.to_numpy()[rows],
            scores["learner"].cat.codes.to_numpy()[rows],
            scores["replicate"].to_numpy()[rows],
            value,
        )
        return pd.DataFrame(
            {
                "dataset": pd.Categorical.from_codes(d, list(self.datasets)),
                "learner": pd.Categorical.from_codes(m, self.learners),
                "replicate": rep,
                "value": value,
            }
        )

    def aggregate(self, metric=None, stat="mean"):
        """A data set × learner table of a statistic of the replicate performances.

        Parameters
        ----------
        metric : str, default=None
            Which metric; the first one by default.
        stat : str or callable, default="mean"
            Any aggregation pandas accepts (``"mean"``, ``"median"``, ``"std"``,
            a function of a Series).

        Returns
        -------
        table : DataFrame
            Index: data sets; columns: learners (both in experiment order).
        """
        if not (callable(stat) or stat in _AGGREGATES):
            raise ValueError(
                f"`stat` must be one of {list(_AGGREGATES)} or a function of a "
                f"Series; got {stat!r}."
            )
        arrays = _select.performance_arrays(self, self._metric(metric))
        n_d, n_m = arrays["count"].shape
        cell = arrays["dataset"] * n_m + arrays["learner"]
        if stat == "mean":
            values = arrays["mean"].ravel()
        else:
            cells = pd.Series(arrays["value"]).groupby(cell).agg(stat)
            values = np.full(n_d * n_m, np.nan)
            values[cells.index.to_numpy()] = cells.to_numpy(dtype=np.float64)
        rows = np.flatnonzero(arrays["count"].any(axis=1))
        columns = np.flatnonzero(arrays["count"].any(axis=0))
        table = values.reshape(n_d, n_m)[np.ix_(rows, columns)]
        if stat != "mean" and cells.dtype.kind in "iub" and not np.isnan(table).any():
            table = table.astype(cells.dtype)  # counts stay integers
        names = list(self.datasets)
        return pd.DataFrame(
            table,
            index=pd.Index([names[i] for i in rows], name="dataset"),
            columns=pd.Index([self.learners[j] for j in columns], name="learner"),
        )

    def greater_is_better(self, metric=None):
        """Whether greater values of ``metric`` (default: the first) are better."""
        return self.metrics[self._metric(metric)]

    def __repr__(self):
        return (
            f"BenchmarkResult(datasets={list(self.datasets)}, "
            f"learners={self.learners}, metrics={list(self.metrics)}, "
            f"n_rows={len(self.scores)})"
        )

    # -- persistence --------------------------------------------------------------
    def save(self, path, *, format="csv"):
        """Write the result to the directory ``path`` in plain formats.

        ``metadata.json`` holds the metrics with their direction, the data sets
        with their problem, the learners in order and :attr:`info`;
        ``scores.csv`` (or ``.parquet``) the scores and ``predictions.csv`` the
        kept predictions. CSV floats are written with the shortest exact repr and
        read back bit-identically. Nothing is pickled.

        Parameters
        ----------
        path : str or Path
            Directory; created if needed, existing files of a result replaced.
        format : {"csv", "parquet"}, default="csv"
            ``"parquet"`` needs pyarrow.
        """
        if format not in ("csv", "parquet"):
            raise ValueError(f"`format` must be 'csv' or 'parquet'; got {format!r}.")
        path = Path(path)
        path.mkdir(parents=True, exist_ok=True)
        meta = {
            "format_version": _FORMAT_VERSION,
            "sklearn_bench_version": __version__,
            "file_format": format,
            "metrics": [
                {"name": m, "greater_is_better": g} for m, g in self.metrics.items()
            ],
            "datasets": [{"name": d, "problem": p} for d, p in self.datasets.items()],
            "learners": self.learners,
            "has_predictions": self.predictions is not None,
            "info": self.info,
        }
        (path / "metadata.json").write_text(json.dumps(meta, indent=2))
        frames = {"scores": self.scores, "predictions": self.predictions}
        for name, frame in frames.items():
            for old in path.glob(f"{name}.*"):
                old.unlink()
            if frame is None:
                continue
            if format == "parquet":
                frame.to_parquet(path / f"{name}.parquet", index=False)
            else:
                frame.to_csv(path / f"{name}.csv", index=False, na_rep="NaN")

    @classmethod
    def load(cls, path):
        """Read a result written by :meth:`save`.

        Parameters
        ----------
        path : str or Path
            The directory.

        Returns
        -------
        result : BenchmarkResult

        Examples
        --------
        >>> import tempfile
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["a", "a"], "l": ["x", "y"], "v": [0.1, 1 / 3]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="v", greater_is_better=False)
        >>> with tempfile.TemporaryDirectory() as path:
        ...     result.save(path)
        ...     back = BenchmarkResult.load(path)
        >>> back.scores["value"].equals(result.scores["value"])
        True
        """
        path = Path(path)
        meta = _read_saved(path / "metadata.json", lambda f: json.loads(f.read_text()))
        if not isinstance(meta, dict):
            raise ValueError(f"{path / 'metadata.json'} is not a metadata object.")
        if meta.get("format_version") != _FORMAT_VERSION:
            raise ValueError(
                f"{path} holds format version {meta.get('format_version')}; this "
                f"sklearn_bench reads version {_FORMAT_VERSION}."
            )
        missing = [
            k
            for k in ("file_format", "has_predictions", "metrics", "datasets")
            if k not in meta
        ]
        if missing:
            raise ValueError(
                f"{path / 'metadata.json'} lacks {missing}: not written by "
                "BenchmarkResult.save, or damaged."
            )
        fmt = meta["file_format"]
        frames = {}
        for name in (
            ["scores", "predictions"] if meta["has_predictions"] else ["scores"]
        ):
            if fmt == "parquet":
                frames[name] = _read_saved(path / f"{name}.parquet", pd.read_parquet)
            else:
                # Floats are parsed by numpy from their shortest repr, which is
                # exact; pandas' own parser is not guaranteed to round-trip.
                floats = [*_FLOAT_COLUMNS, "y_pred"]

                def read(file, floats=floats):
                    frame = pd.read_csv(
                        file,
                        keep_default_na=False,
                        na_values={"correct": ["NaN", "<NA>"]},
                        dtype=dict.fromkeys(
                            ["dataset", "learner", "metric", *_TEXT_COLUMNS, *floats],
                            str,
                        ),
                    )
                    for col in floats:
                        if col in frame.columns:
                            frame[col] = np.asarray(frame[col], dtype=str).astype(
                                np.float64
                            )
                    return frame

                frames[name] = _read_saved(path / f"{name}.csv", read)
        return cls(
            frames["scores"],
            metrics={m["name"]: m["greater_is_better"] for m in meta["metrics"]},
            datasets={d["name"]: d["problem"] for d in meta["datasets"]},
            learners=meta["learners"],
            predictions=frames.get("predictions"),
            info=meta["info"],
        )

    # -- analyses: select data with ._select, delegate to sklearn_bench.stats -------
    def paired_test(
        self,
        a,
        b,
        *,
        dataset=None,
        method=None,
        metric=None,
        alternative="two-sided",
        replicate=None,
        scale="raw",
        **kwargs,
    ):
        """Test whether learners ``a`` and ``b`` perform differently.

        ``dataset=None`` tests across data sets on the per-data-set mean
        performances (Boulesteix et al. 2013, H0(real); Demšar 2006). A data
        set name tests within it, by default with a test valid for the
        generalisation question on the run's splitter (``"corrected_t"`` on the
        right unit, see the user guide's "Tests within one data set"). The
        differences are ``metric(a) − metric(b)``, so for an error rate
        ``alternative="less"`` is the alternative that ``a`` is better. The null
        hypothesis names the learners, the metric, its direction and the scope:
        the unit, the correction, what the test is conditional on, and how many
        replicates or splits were dropped because a task failed (also in
        ``n_dropped``).

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
        method : str, default=None
            ``None``: ``"t"`` across data sets; within a data set
            ``"corrected_t"`` (``"t"`` for a simulation problem, whose
            replicates are independent learning samples, and for a competition
            problem, conditional on its fixed test sample anyway).

            - ``"t"``, ``"wilcoxon"``, ``"sign"``, ``"permutation"``: the
              methods of :func:`sklearn_bench.stats.paired_test`. Within a data
              set they run on the replicate performances (Hothorn et al. 2005,
              statistic (2)) and are **conditional on the learning sample**
              (Sec. 3): they ask whether a beats b on these resamples of this
              one data set, not on new data of its kind. For that question
              their type I error is far above the nominal level (about 0.8 for
              10 × 10-fold CV in ``benchmarks/calibration.py``).
            - ``"corrected_t"`` (within a data set): the corrected resampled t
              with ``n_test/n_train`` inferred from the stored split sizes
              (``test_train_ratio`` in ``kwargs`` overrides it): Bouckaert &
              Frank (2004) on all k·r fold scores of (repeated) k-fold CV,
              variance factor ``1/(k r) + n_test/n_train``, ``k r − 1`` df;
              Nadeau & Bengio (2003) on the splits of a holdout scheme
              (ShuffleSplit); on BootstrapCV the same on all fold scores; on
              BootstrapOOB on the replicates with the out-of-bootstrap rows over
              the distinct training rows as ``n_test/n_train``.
            - ``"5x2cv"``, ``"5x2cv_f"`` (within a data set run with
              ``RepeatedStratifiedKFold(n_splits=2, n_repeats=5)`` or
              ``RepeatedKFold`` of that shape): Dietterich's 5×2cv paired t and
              Alpaydin's combined 5×2cv F
              (:func:`~sklearn_bench.stats.five_by_two_cv_test`).
            - ``"mcnemar"``: :func:`~sklearn_bench.stats.mcnemar_test` on the
              kept predictions of one test set (``dataset``, ``replicate``;
              two-sided).
        metric : str, default=None
            The first metric by default; ignored by ``"mcnemar"``.
        alternative : {"two-sided", "less", "greater"}, default="two-sided"
        replicate : int, default=None
            ``"mcnemar"`` only: which learning sample's classifiers to compare;
            needed when the data set has several replicates.
        scale : {"raw", "relative", "rank"}, default="raw"
            Across data sets only: the scale of the per-data-set means.
            ``"raw"`` warns (``IncommensurableScalesWarning``) when the data sets'
            scales differ by two orders of magnitude or more (Demšar 2006, Sec.
            3.1); ``"relative"`` divides both means on each data set by their
            average, so the difference is ``2 (a − b) / (a + b)``; ``"rank"``
            uses the ranks of all learners on each data set (1 = smallest value).
            See :mod:`sklearn_bench.results._scales`.
        **kwargs
            Passed on (``zero_method``, ``n_resamples``, ``random_state``,
            ``test_train_ratio``; ``correction``, ``exact`` for McNemar).

        Returns
        -------
        PairedTestResult or McNemarResult

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["p", "p", "q", "q", "r", "r"],
        ...                    "l": ["A", "B"] * 3,
        ...                    "e": [0.10, 0.12, 0.30, 0.33, 0.20, 0.21]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> res = result.paired_test("A", "B", alternative="less")
        >>> res.null_hypothesis
        'H0: mean of e(A) − e(B) >= 0 (e, lower is better; across 3 data sets...)'
        >>> round(res.pvalue, 4)                 # t = -3.464 with 2 df
        0.0371

        Within one data set run with repeated 10-fold CV, the default is the
        corrected t on the 100 fold scores:

        >>> from sklearn.datasets import load_breast_cancer
        >>> from sklearn.model_selection import RepeatedStratifiedKFold
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn.tree import DecisionTreeClassifier
        >>> from sklearn_bench import BenchmarkExperiment
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> result = BenchmarkExperiment(
        ...     {"nb": GaussianNB(), "tree": DecisionTreeClassifier(max_depth=2)},
        ...     cv=RepeatedStratifiedKFold(n_splits=10, n_repeats=10, random_state=0),
        ...     random_state=0, progress=False).fit({"bc": (X, y)}).results_
        >>> res = result.paired_test("nb", "tree", dataset="bc")
        >>> res.method, res.n, res.df
        ('corrected_t', 100, 99)
        """
        from ..stats import five_by_two_cv_test, mcnemar_test, paired_test

        if method == "mcnemar":
            if alternative != "two-sided":
                raise ValueError("`alternative` must be 'two-sided' for McNemar.")
            n_b, n_c, _ = _select.discordant_counts(
                self, a, b, dataset=dataset, replicate=replicate
            )
            res = mcnemar_test(n_b, n_c, **kwargs)
            h0 = f"H0: P({a} wrong, {b} right) = P({a} right, {b} wrong)"
            return replace(res, null_hypothesis=h0)
        metric = self._metric(metric)
        if dataset is not None:
            dataset = _select.check_dataset(self, dataset)
        _scales.check_scale_argument(scale, dataset)
        if method is None:
            method = (
                "t"
                if dataset is None
                else _within.default_method(self, a, b, metric=metric, dataset=dataset)
            )
        if method in _within.SPLIT_METHODS and dataset is None:
            raise ValueError(
                f"method={method!r} tests within one data set; pass `dataset` "
                f"(one of {list(self.datasets)})."
            )
        labels = (f"{metric}({a})", f"{metric}({b})")
        opts = {"alternative": alternative, "labels": labels}
        if method == "corrected_t":
            x, y, ratio, scope, n_dropped = _within.corrected_t_inputs(
                self,
                a,
                b,
                metric=metric,
                dataset=dataset,
                test_train_ratio=kwargs.pop("test_train_ratio", None),
            )

            def run():
                return paired_test(
                    x, y, method=method, test_train_ratio=ratio, **opts, **kwargs
                )

        elif method in ("5x2cv", "5x2cv_f"):
            x, y, scope = _within.five_by_two_inputs(
                self, a, b, metric=metric, dataset=dataset
            )
            kind = "t" if method == "5x2cv" else "f"

            def run():
                return five_by_two_cv_test(x, y, method=kind, **opts, **kwargs)

            n_dropped = 0
        else:
            x, y, scope, n_dropped = _scales.pair(
                self,
                a,
                b,
                metric=metric,
                dataset=dataset,
                scale=scale,
                method=method,
                with_dropped=True,
            )
            if dataset is not None:
                scope += f"; {_within.conditional_words(self, dataset)}"

            def run():
                return paired_test(x, y, method=method, **opts, **kwargs)

        try:
            res = run()
        except ValueError as exc:  # say where: constant differences, n < 2, ...
            raise ValueError(f"{exc} [{a} vs {b}, {scope}]") from None
        words = _select.direction_words(self, metric)
        return replace(
            res,
            null_hypothesis=f"{res.null_hypothesis} ({words}; {scope})",
            n_dropped=n_dropped,
        )

    def confidence_interval(
        self,
        a,
        b,
        *,
        dataset=None,
        method=None,
        confidence_level=0.95,
        metric=None,
        replicate=None,
        scale="raw",
        **kwargs,
    ):
        """Confidence interval for the difference ``metric(a) − metric(b)``.

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
            ``None``: across data sets (per-data-set means); a name: within it.
        method : {"t", "corrected_t", "5x2cv", "bootstrap", "qh"}, default=None
            ``None``: ``"t"`` across data sets, and within a data set the
            default test of :meth:`paired_test` (``"corrected_t"`` on the
            run's unit, valid for the generalisation question).

            - ``"t"``: the paired t interval of the mean difference (within a
              data set on the replicates, conditional on the learning sample);
              with ``test_train_ratio`` in ``kwargs`` (within one data set)
              the corrected interval (``"corrected_t"``).
            - ``"corrected_t"``, ``"5x2cv"``: the interval of that test of
              :meth:`paired_test` (within one data set).
            - ``"bootstrap"``: BCa bootstrap interval of the mean difference
              (:func:`~sklearn_bench.stats.bootstrap_ci`; ``n_resamples``,
              ``random_state`` in ``kwargs``).
            - ``"qh"``: the Quesenberry–Hurst interval for err(a) − err(b) on one
              test set from kept predictions (Berrar & Lozano 2013, eqs. (4)–(5);
              :func:`~sklearn_bench.stats.error_rate_difference_ci`).
        confidence_level : float, default=0.95
        metric : str, default=None
            The first metric by default; ignored by ``"qh"`` (error rate).
        replicate : int, default=None
            ``"qh"`` only, as in :meth:`paired_test`.
        scale : {"raw", "relative", "rank"}, default="raw"
            Across data sets only, as in :meth:`paired_test`: ``"relative"``
            gives the interval of the mean of ``2 (a − b) / (a + b)``.
        **kwargs
            Passed on to the stats function.

        Returns
        -------
        ConfidenceInterval
            ``(low, high)``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["p", "p", "q", "q", "r", "r"],
        ...                    "l": ["A", "B"] * 3,
        ...                    "e": [0.10, 0.12, 0.30, 0.33, 0.20, 0.21]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> ci = result.confidence_interval("A", "B")
        >>> round(ci.low, 4), round(ci.high, 4)
        (-0.0448, 0.0048)
        """
        from ..stats import bootstrap_ci, error_rate_difference_ci

        if method == "qh":
            n_b, n_c, n = _select.discordant_counts(
                self, a, b, dataset=dataset, replicate=replicate
            )
            return error_rate_difference_ci(
                n_b, n_c, n, confidence_level=confidence_level
            )
        metric = self._metric(metric)
        if method == "bootstrap":
            x, y, _ = _scales.pair(
                self, a, b, metric=metric, dataset=dataset, scale=scale, method=method
            )
            return bootstrap_ci(x, y, confidence_level=confidence_level, **kwargs)
        if method not in (None, "t", "corrected_t", "5x2cv"):
            raise ValueError(
                "`method` must be one of ['t', 'corrected_t', '5x2cv', 'bootstrap', "
                f"'qh']; got {method!r}."
            )
        if method == "t" and kwargs.get("test_train_ratio") is not None:
            method = "corrected_t"
        res = self.paired_test(
            a, b, dataset=dataset, method=method, metric=metric, scale=scale, **kwargs
        )
        return res.confidence_interval(confidence_level)

    def error_rate_intervals(self, adjust="holm", *, dataset=None, alpha=0.05, **kw):
        """McNemar tests and Quesenberry–Hurst intervals for all pairs on one test set.

        Berrar & Lozano (2013), Table 2: for every pair ``(i, j)`` of learners
        (in learner order) the discordant counts from the kept predictions,
        McNemar's χ² (Yates) and exact p-values, the Holm-adjusted level and
        the interval for err(i) − err(j) at that level. Delegates to
        :func:`sklearn_bench.stats.error_rate_intervals`.

        Parameters
        ----------
        adjust : {"holm", "bonferroni", None}, default="holm"
        dataset : str, default=None
            Required when the result has several data sets.
        alpha : float, default=0.05
        **kw
            ``replicate`` (as in :meth:`paired_test`) and ``correction``.

        Returns
        -------
        DataFrame
            Index ``pair`` (``"(i, j)"``), columns ``b, c, statistic, pvalue,
            exact_pvalue, alpha, critical_value, estimate, low, high``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> scores = pd.DataFrame({"dataset": "t", "learner": ["A", "B", "C"],
        ...     "split": 0, "replicate": 0, "fold": 0, "metric": "error_rate",
        ...     "value": [0.3, 0.5, 0.4]})
        >>> correct = {"A": [1, 1, 1, 0, 1, 1, 0, 1, 0, 1],
        ...            "B": [0, 1, 0, 0, 1, 0, 1, 1, 0, 1],
        ...            "C": [1, 0, 1, 0, 1, 1, 0, 0, 1, 1]}
        >>> predictions = pd.DataFrame({"dataset": "t",
        ...     "learner": [m for m in correct for _ in range(10)],
        ...     "split": 0, "replicate": 0, "fold": 0, "row": list(range(10)) * 3,
        ...     "correct": [bool(v) for m in correct for v in correct[m]]})
        >>> result = BenchmarkResult(scores, metrics={"error_rate": False},
        ...     datasets={"t": "competition"}, learners=["A", "B", "C"],
        ...     predictions=predictions)
        >>> result.error_rate_intervals()[["b", "c", "alpha", "low", "high"]].round(3)
                b  c  alpha    low   high
        pair
        (A, B)  1  3  0.017 -0.497  0.242
        (A, C)  1  2  0.025 -0.380  0.247
        (B, C)  4  3  0.050 -0.366  0.511
        """
        from ..stats import error_rate_intervals

        replicate = kw.pop("replicate", None)
        _select.check_learners(self, self.learners, at_least=2)
        pairs = list(combinations(self.learners, 2))
        counts = [
            _select.discordant_counts(self, i, j, dataset=dataset, replicate=replicate)
            for i, j in pairs
        ]
        return error_rate_intervals(
            [bc[0] for bc in counts],
            [bc[1] for bc in counts],
            counts[0][2],
            labels=[f"({i}, {j})" for i, j in pairs],
            alpha=alpha,
            adjust=adjust,
            **kw,
        )

    def power(
        self,
        a,
        b,
        *,
        delta,
        alpha=0.05,
        power=0.8,
        method="exact",
        alternative="two-sided",
        metric=None,
    ):
        """Power of the across-data-set paired t-test, this study as a pilot.

        Boulesteix et al. (2013), Section 3: ``σ`` is the standard deviation
        (``ddof=1``) of the per-data-set differences ``metric(a) − metric(b)``
        over the ``J`` data sets of this result. Reported: the power of the
        test at level ``alpha`` to detect a true mean difference ``delta``
        (fixed in advance: the smallest difference that matters, never the
        observed one) with the ``J`` data sets as run, and the number of data
        sets needed for ``power`` (:func:`~sklearn_bench.stats.power_paired_t`,
        :func:`~sklearn_bench.stats.n_datasets_needed`). By default the test
        the analyses run, the two-sided paired t, by the exact noncentral t;
        ``method="approx", alternative="greater"`` is the paper's one-sided
        approximation (seed 000).

        Parameters
        ----------
        a, b : str
        delta : float
            The mean difference worth detecting, in the metric's units (positive).
        alpha : float, default=0.05
        power : float, default=0.8
            Target power for the number of data sets needed.
        method : {"exact", "approx"}, default="exact"
        alternative : {"two-sided", "greater"}, default="two-sided"
        metric : str, default=None

        Returns
        -------
        DataFrame
            One row with ``a, b, metric, n_datasets, estimate`` (mean difference),
            ``sigma, sigma_source`` (where σ comes from, in words), ``delta,
            alpha, power`` (of the study as run), ``target_power,
            n_datasets_needed, method, alternative``. A DataFrame so that several
            pairs concatenate into one table.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["p", "p", "q", "q", "r", "r"],
        ...                    "l": ["A", "B"] * 3,
        ...                    "e": [0.10, 0.12, 0.30, 0.33, 0.20, 0.21]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> row = result.power("A", "B", delta=0.05).iloc[0]
        >>> round(float(row["sigma"]), 4), round(float(row["power"]), 3)
        (0.01, 0.975)
        >>> int(row["n_datasets_needed"])
        3
        """
        from ..stats import n_datasets_needed, power_paired_t

        metric = self._metric(metric)
        x, y, _ = _select.pair(self, a, b, metric=metric)
        d = x - y
        sigma = float(np.std(d, ddof=1)) if d.size > 1 else np.nan
        if not sigma > 1e-10:
            raise ValueError(
                f"The per-data-set differences {metric}({a}) − {metric}({b}) "
                f"over the {d.size} data sets have no spread (sigma = "
                f"{sigma:.3g}): the power of the paired t-test is undefined "
                "with this study as a pilot. Give sigma from elsewhere to "
                "sklearn_bench.stats.power_paired_t / n_datasets_needed."
            )
        opts = {"alpha": alpha, "method": method, "alternative": alternative}
        row = {
            "a": a,
            "b": b,
            "metric": metric,
            "n_datasets": d.size,
            "estimate": float(d.mean()),
            "sigma": sigma,
            "sigma_source": (
                f"standard deviation (ddof=1) of the {d.size} per-data-set "
                f"differences {metric}({a}) − {metric}({b}) of this study"
            ),
            "delta": delta,
            "alpha": alpha,
            "power": float(power_paired_t(d.size, delta, sigma, **opts)),
            "target_power": power,
            "n_datasets_needed": n_datasets_needed(delta, sigma, power=power, **opts),
            "method": method,
            "alternative": alternative,
        }
        return pd.DataFrame([row])

    def win_tie_loss(self, *, tolerance=0.0, metric=None, test=None, alpha=0.05):
        """Wins, ties and losses of every learner against every other (seed 002).

        On each data set the learners' mean performances are compared; a
        difference of at most ``tolerance`` (after rounding to 10 decimals) is a
        tie, otherwise the better one by the metric's direction wins. With
        ``test``, only *significant* wins and losses count: a pair's win or loss
        on a data set stands only if the two-sided test within that data set
        (:meth:`paired_test` with ``method=test``) rejects at ``alpha``;
        otherwise it is a tie. The direction is still that of the mean
        performances.

        Seed 002 (after Demšar 2006) names this practice, with Dietterich's
        5×2cv as the per-data-set test, and warns against it: "statistical
        tests only measure the improbability of the obtained experimental
        result if the null hypothesis was correct, which is not even the
        (im)probability of the null-hypothesis" — a non-significant difference
        is not a tie in truth, and the counts depend on each data set's size
        and resampling. Prefer the tests across data sets (:meth:`paired_test`
        with ``dataset=None``, :meth:`friedman`) for conclusions; no correction
        for the many per-data-set tests is made.

        Parameters
        ----------
        tolerance : float, default=0.0
        metric : str, default=None
        test : str, default=None
            ``None`` counts every difference above ``tolerance``. A method of
            :meth:`paired_test` within a data set: ``"5x2cv"`` (seed 002; needs
            ``RepeatedStratifiedKFold(n_splits=2, n_repeats=5)`` runs),
            ``"5x2cv_f"``, ``"corrected_t"`` (valid on every splitter), or a
            conditional test (``"t"``, ...).
        alpha : float, default=0.05
            Level of each per-data-set test.

        Returns
        -------
        DataFrame
            Index: the row learner ``i``; columns: a MultiIndex (opponent ``j``,
            ``"win" | "tie" | "loss"``). Cell ``(i, (j, "win"))`` counts the data
            sets on which ``i`` is better than ``j``, ``(i, (j, "loss"))`` those
            on which ``j`` is better, ``(i, (j, "tie"))`` the rest; the diagonal
            is all ties. ``.xs("win", axis=1, level=1)`` is the matrix of wins.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["p", "p", "q", "q", "r", "r"],
        ...                    "l": ["A", "B"] * 3,
        ...                    "e": [0.10, 0.12, 0.30, 0.33, 0.20, 0.20]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> result.win_tie_loss().loc["A", "B"]
        outcome
        win     2
        tie     1
        loss    0
        Name: A, dtype: int64
        """
        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        table = _select.blocks(self, learners, metric=metric)
        significant = None
        if test is not None:
            from ..stats._common import real_number

            if not 0 < real_number(alpha, "alpha") < 1:
                raise ValueError(f"`alpha` must lie in (0, 1); got {alpha!r}.")
            if not isinstance(test, str):
                raise TypeError(f"`test` must be a method name; got {test!r}.")
            k = len(learners)
            significant = np.zeros((len(table), k, k), dtype=bool)
            for d, dataset in enumerate(table.index):
                for i, j in combinations(range(k), 2):
                    try:
                        res = self.paired_test(
                            learners[i],
                            learners[j],
                            dataset=dataset,
                            method=test,
                            metric=metric,
                        )
                    except ValueError as exc:
                        if not str(exc).startswith("`method` must be one of"):
                            raise
                        raise ValueError(f"`test` = {test!r}: {exc}") from None
                    significant[d, i, j] = significant[d, j, i] = res.pvalue < alpha
        return _select.win_tie_loss(
            table.to_numpy(),
            learners,
            tolerance,
            greater_is_better=self.metrics[metric],
            significant=significant,
        )

    def friedman(
        self,
        *,
        dataset=None,
        metric=None,
        tie_correction=True,
        exact=None,
        method="friedman",
    ):
        """Friedman's test of all learners (Demšar 2006, Section 3.2.2).

        ``dataset=None``: blocks are the data sets, each learner's value its mean
        performance over the replicates; a data set name: blocks are that data
        set's replicates. Ranks follow the metric's direction (rank 1 = best).
        Delegates to :func:`sklearn_bench.stats.friedman_test`.

        Within one data set the replicates are treated as independent blocks, so
        the test is conditional on that learning sample (Hothorn et al. 2005,
        Sec. 3): it does not answer whether the learners differ on new data of
        the kind, and its type I error for that question is far above α (see
        the user guide's "Tests within one data set" and
        ``benchmarks/calibration.py``).

        Parameters
        ----------
        dataset : str, default=None
        metric : str, default=None
            The first metric by default.
        tie_correction : bool, default=True
            As in :func:`~sklearn_bench.stats.friedman_test` (R's
            ``friedman.test``); ``False`` gives Demšar's formula as printed.
        exact : bool or None, default=None
            As in :func:`~sklearn_bench.stats.friedman_test`: the exact
            permutation p-value where it can be enumerated (``None``), always
            (``True``) or the χ² approximation (``False``); the result's
            ``null_distribution`` and ``notes`` say which.
        method : {"friedman", "quade", "aligned_ranks", "durbin", "rm_anova"}, \
default="friedman"
            The test of all learners over the blocks: Friedman's rank test,
            :func:`~sklearn_bench.stats.quade_test`,
            :func:`~sklearn_bench.stats.friedman_aligned_ranks_test` (mean
            alignment), :func:`~sklearn_bench.stats.durbin_test` across
            data sets with missing learner x data-set cells forming a balanced
            incomplete block design (``dataset`` must be ``None``), or
            ``"rm_anova"``: the parametric omnibus test autorank picks for
            normal, homoscedastic data, :func:`~sklearn_bench.stats.rm_anova`
            on the same table (a sensitivity analysis; its follow-up is
            :meth:`pairwise_test` with ``method="tukey"``).
            ``tie_correction`` and ``exact`` are Friedman's only.

        Returns
        -------
        FriedmanResult, BlockRankTestResult or RMAnovaResult

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["p"] * 3 + ["q"] * 3 + ["r"] * 3,
        ...                    "l": ["A", "B", "C"] * 3,
        ...                    "e": [.1, .2, .3, .2, .1, .3, .1, .2, .4]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> result.friedman().average_ranks.round(3).tolist()
        [1.333, 1.667, 3.0]
        """
        from ..stats import (
            durbin_test,
            friedman_aligned_ranks_test,
            friedman_test,
            quade_test,
            rm_anova,
        )
        from ..stats._friedman import _check_choice

        method = _check_choice(
            method, ("friedman", "quade", "aligned_ranks", "durbin", "rm_anova"),
            "method",
        )
        if method != "friedman" and (tie_correction is not True or exact is not None):
            raise ValueError(
                "`tie_correction` and `exact` are options of method='friedman'; "
                f"got method={method!r}."
            )
        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        gib = self.metrics[metric]
        if method == "durbin":
            if dataset is not None:
                raise ValueError(
                    "method='durbin' works across data sets; pass dataset=None."
                )
            table = _select.blocks_with_missing(self, learners, metric=metric)
            return durbin_test(table, greater_is_better=gib)
        if dataset is not None:
            dataset = _select.check_dataset(self, dataset)
        table = _select.blocks(self, learners, metric=metric, dataset=dataset)
        if method == "quade":
            return quade_test(table, greater_is_better=gib)
        if method == "aligned_ranks":
            return friedman_aligned_ranks_test(table, greater_is_better=gib)
        if method == "rm_anova":
            return rm_anova(table)
        return friedman_test(
            table,
            greater_is_better=self.metrics[metric],
            tie_correction=tie_correction,
            exact=exact,
        )

    def pairwise_test(
        self,
        *,
        method="wilcoxon",
        adjust=None,
        alpha=0.05,
        metric=None,
        dataset=None,
        missing="raise",
        zero_method="demsar",
    ):
        """Paired tests of every pair of learners, corrected for multiplicity.

        Each pair is tested on its own two columns (Benavoli, Corani & Mangili
        2016: unlike Nemenyi's test, no other learner changes the verdict on a
        pair), then the ``k (k − 1) / 2`` p-values are adjusted by Holm,
        Shaffer's static or Bergmann–Hommel's procedure (García & Herrera 2008).
        Delegates to :func:`sklearn_bench.stats.pairwise_tests`.

        Parameters
        ----------
        method : {"wilcoxon", "sign", "conover", "siegel", "miller", "quade", \
"nemenyi", "exact_ranksum", "tukey"}, default="wilcoxon"
            The paired tests (each pair on its own columns), a Friedman-type
            post-hoc on the ranks of all learners (the exact rank-sum
            differences of Eisinga et al. 2017 among them; see
            :func:`~sklearn_bench.stats.pairwise_tests`), or ``"tukey"``:
            Tukey's HSD on the repeated-measures ANOVA's residual
            (:func:`~sklearn_bench.stats.tukey_hsd`, ``design="blocks"``;
            autorank's parametric post-hoc), ``adjust`` ignored (the studentized
            range controls the family-wise error), ``missing`` must be
            ``"raise"``.
        adjust : {"holm", "shaffer", "bergmann_hommel", "bonferroni", \
"hochberg", "hommel", "finner", "holland", "li", "rom", "none", \
"single_step"}, default=None
            ``None``: ``"single_step"`` for Nemenyi and Miller, ``"shaffer"``
            otherwise.
        alpha : float, default=0.05
        metric : str, default=None
            The first metric by default.
        dataset : str, default=None
            ``None``: blocks are the data sets (per-data-set mean performances);
            a name: blocks are that data set's replicates.
        missing : {"raise", "pairwise"}, default="raise"
            Across data sets only. ``"raise"``: every learner must have every
            data set. ``"pairwise"``: each pair is tested on the data sets both
            learners finished (a learner whose task failed on any replicate of a
            data set, or that has fewer replicates there, counts as missing on
            it); the frame's ``n`` says how many.
        zero_method : str, default="demsar"
            Wilcoxon only; see :func:`~sklearn_bench.stats.paired_test`.

        Returns
        -------
        PairwiseTestResult or TukeyHSDResult

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": [f"d{i}" for i in range(8) for _ in "ABC"],
        ...     "l": list("ABC") * 8,
        ...     "e": [.10, .12, .13, .20, .23, .24, .15, .16, .19, .30, .33, .31,
        ...           .11, .14, .16, .25, .27, .30, .18, .21, .20, .22, .26, .27]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> res = result.pairwise_test(adjust="holm")
        >>> res.to_frame()[["learner_i", "learner_j", "pvalue_adjusted"]].round(3)
          learner_i learner_j  pvalue_adjusted
        0         A         B            0.035
        1         A         C            0.035
        2         B         C            0.161
        """
        from ..stats import pairwise_tests, tukey_hsd

        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        if method == "tukey":
            if missing != "raise":
                raise ValueError(
                    "`method`='tukey' needs every learner on every block; "
                    f"got missing={missing!r}."
                )
            if dataset is not None:
                dataset = _select.check_dataset(self, dataset)
            table = _select.blocks(self, learners, metric=metric, dataset=dataset)
            res = tukey_hsd(table, alpha=alpha, greater_is_better=self.metrics[metric])
            words = _select.direction_words(self, metric)
            scope = (
                f"across {len(table)} data sets"
                if dataset is None
                else f"within data set {dataset!r} over {len(table)} replicates"
            )
            return replace(
                res, null_hypothesis=f"{res.null_hypothesis} ({words}; {scope})"
            )
        if missing == "pairwise":
            if dataset is not None:
                raise ValueError(
                    "`missing`='pairwise' works across data sets; pass dataset=None."
                )
            table = _select.blocks_with_missing(self, learners, metric=metric)
        else:
            if dataset is not None:
                dataset = _select.check_dataset(self, dataset)
            table = _select.blocks(self, learners, metric=metric, dataset=dataset)
        res = pairwise_tests(
            table,
            method=method,
            adjust=adjust,
            alpha=alpha,
            zero_method=zero_method,
            greater_is_better=self.metrics[metric],
            missing=missing,
        )
        scope = (
            f"across {len(table)} data sets"
            if dataset is None
            else f"within data set {dataset!r} over {len(table)} replicates"
        )
        words = _select.direction_words(self, metric)
        return replace(res, null_hypothesis=f"{res.null_hypothesis} ({words}; {scope})")

    def skillings_mack(self, *, metric=None, n_resamples=None, random_state=None):
        """Skillings–Mack test of all learners over data sets with missing cells.

        Friedman's test for incomplete blocks (Skillings & Mack 1981): a learner
        that failed on a data set (a NaN score on any replicate, or fewer
        replicates than the others there) is missing on it rather than dropped
        with all its other data sets. Blocks are the data sets, each value the
        mean performance over the replicates; ranks follow the metric's
        direction. With no missing cell it equals Friedman's χ²_F (without the
        tie correction). Delegates to
        :func:`sklearn_bench.stats.skillings_mack_test`.

        Parameters
        ----------
        metric : str, default=None
            The first metric by default.
        n_resamples : int, default=None
            ``None``: χ² p-value; an integer: Monte Carlo p-value from that many
            within-block permutations.
        random_state : int, numpy Generator or RandomState, default=None

        Returns
        -------
        SkillingsMackResult

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": [f"d{i}" for i in range(6) for _ in "ABC"],
        ...     "l": list("ABC") * 6,
        ...     "e": [.10, .12, .13, .20, .23, .24, .15, .16, .19,
        ...           .30, .33, None, .11, .14, .16, .25, .27, .30]})
        >>> result = BenchmarkResult.from_frame(
        ...     df.dropna(), dataset="d", learner="l", value="e",
        ...     greater_is_better=False)
        >>> res = result.skillings_mack()
        >>> res.n_missing, res.df, round(res.statistic, 3)
        (1, 2, 10.842)
        """
        from ..stats import skillings_mack_test

        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        table = _select.blocks_with_missing(self, learners, metric=metric)
        res = skillings_mack_test(
            table,
            greater_is_better=self.metrics[metric],
            n_resamples=n_resamples,
            random_state=random_state,
        )
        words = _select.direction_words(self, metric)
        scope = f"{words}; across {res.n_blocks} data sets, {res.n_missing} missing"
        return replace(res, null_hypothesis=f"{res.null_hypothesis[:-1]} ({scope}).")

    def global_test(self, dataset, *, metric=None, n_resamples=9999, random_state=None):
        """Hothorn et al. (2005) permutation test of t* on one data set, eq. (3).

        Blocks are the data set's replicates, one column per learner; delegates
        to :func:`sklearn_bench.stats.global_permutation_test`. t* does not
        depend on the metric's direction. The test is conditional on the data
        set's learning sample (Hothorn et al. 2005, Sec. 3), like the replicate
        ``"t"`` of :meth:`paired_test`; it is not a test of performance on new
        data of the kind.

        Parameters
        ----------
        dataset : str
        metric : str, default=None
            The first metric by default.
        n_resamples : int, default=9999
        random_state : int, numpy Generator or RandomState, default=None

        Returns
        -------
        GlobalPermutationResult

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> rng = np.random.default_rng(0)
        >>> df = pd.DataFrame({"learner": np.repeat(["A", "B", "C"], 30),
        ...     "replicate": np.tile(np.arange(30), 3),
        ...     "error": rng.normal(0.2, 0.02, 90) + np.repeat([0, 0, 0.03], 30)})
        >>> result = BenchmarkResult.from_frame(df.assign(d="x"), dataset="d",
        ...     learner="learner", value="error", replicate="replicate",
        ...     greater_is_better=False)
        >>> res = result.global_test("x", n_resamples=999, random_state=0)
        >>> res.pvalue < 0.01
        True
        """
        from ..stats import global_permutation_test

        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        dataset = _select.check_dataset(self, dataset)
        table = _select.blocks(self, learners, metric=metric, dataset=dataset)
        return global_permutation_test(
            table, n_resamples=n_resamples, random_state=random_state
        )

    # -- Bayesian comparisons: select with ._bayesian_select, delegate to stats -----
    def bayesian_test(
        self,
        a,
        b,
        *,
        dataset=None,
        rope=None,
        metric=None,
        method=None,
        rho=None,
        prior_strength=None,
        n_samples=None,
        random_state=None,
    ):
        """Posterior probabilities that ``a`` or ``b`` is practically better.

        Benavoli, Corani, Demšar & Zaffalon (2017): instead of a p-value, the
        posterior probabilities that ``a`` is better than ``b`` by more than
        ``rope``, that they are practically equivalent (the difference lies
        within ``[−rope, rope]``), and that ``b`` is better. "Better" follows
        the metric's direction.

        - ``dataset`` given: the Bayesian correlated t-test (Corani & Benavoli
          2015; :func:`~sklearn_bench.stats.bayesian_correlated_t`) on the
          units of ``paired_test(method="corrected_t")``: every fold score of
          (repeated) k-fold and of BootstrapCV, every split of a
          ShuffleSplit-like scheme, the replicates of BootstrapOOB. The
          correlation is ``rho = n_test / (n_test + n_train)`` from the stored
          split sizes (``1/k`` for k-fold, the test fraction for random
          splits, where baycomp would assume k-fold's ``1/n``; for
          BootstrapOOB with the distinct training rows, as the corrected t),
          so that with ``rope=0`` ``probabilities[b]`` equals the one-sided
          corrected-t p-value for "a better". Splits where a task of ``a`` or
          ``b`` failed are dropped and counted. Simulation and competition
          problems raise ``ValueError`` (as ``corrected_t``).
        - ``dataset=None``: across data sets, the Bayesian signed-rank test
          (:func:`~sklearn_bench.stats.bayesian_signed_rank`; or
          ``method="sign"``) on the per-data-set mean performances.
        - ``dataset=None, method="hierarchical"``: the hierarchical model of
          Corani et al. (2017; :func:`~sklearn_bench.stats.bayesian_hierarchical`,
          needs ``pip install "sklearn-bench[bayes]"``) on every split score of
          every data set, the units and ``rho`` of each data set as for the
          correlated t-test; its probabilities are for the *next* data set.

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
        rope : float, default=None
            Half-width of the region of practical equivalence in the metric's
            units. ``None`` uses 0.01 (one percentage point, Benavoli et al.
            2017) for ``error_rate``, ``accuracy`` and ``balanced_accuracy``
            and raises ``ValueError`` for any other metric.
        metric : str, default=None
            The first metric by default.
        method : {"correlated_t", "signed_rank", "sign", "hierarchical"}, default=None
            ``None``: ``"correlated_t"`` within a data set, ``"signed_rank"``
            across data sets.
        rho : float, default=None
            Correlated t-test and hierarchical model: override the correlation
            read from the split sizes (``n_test/n_train = rho/(1 − rho)``).
        prior_strength : float, default=None
            Signed-rank and sign tests: the Dirichlet-process prior strength
            (``None``: their defaults, 0.5 and 1).
        n_samples : int, default=None
            Monte Carlo samples of the signed-rank and sign tests (``None``:
            50000); for the hierarchical model the posterior draws over its 4
            chains (``None``: 8000, 2000 per chain).
        random_state : int, numpy Generator or RandomState, default=None

        Returns
        -------
        BayesianTestResult
            ``probabilities`` is ``{a: ..., "equivalent": ..., b: ...}``; the
            description names the metric, its direction, the scope and the
            source of ``rho``.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> rng = np.random.default_rng(0)
        >>> df = pd.DataFrame({"d": np.repeat([f"d{i}" for i in range(12)], 2),
        ...                    "l": ["A", "B"] * 12,
        ...                    "error_rate": np.repeat(rng.uniform(0.1, 0.3, 12), 2)
        ...                         + np.tile([0.0, 0.03], 12)})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="error_rate",
        ...     greater_is_better=False)
        >>> res = result.bayesian_test("A", "B", random_state=0)
        >>> res.method, res.rope, res.decision()
        ('signed_rank', 0.01, 'A')
        """
        from ..stats import (
            bayesian_correlated_t,
            bayesian_hierarchical,
            bayesian_sign_test,
            bayesian_signed_rank,
        )
        from . import _bayesian_select

        metric = self._metric(metric)
        rope = _bayesian_select.rope_for(self, metric, rope)
        a, b = _select.check_learners(self, [a, b])
        common = {
            "rope": rope,
            "labels": (a, b),
            "greater_is_better": self.metrics[metric],
        }
        if dataset is not None:
            method = "correlated_t" if method is None else method
            if method != "correlated_t":
                raise ValueError(
                    "Within one data set `method` must be 'correlated_t'; got "
                    f"{method!r} (the signed-rank and sign tests compare data sets)."
                )
            if prior_strength is not None:
                raise ValueError(
                    "`prior_strength` applies only across data sets (signed-rank and "
                    "sign tests); the correlated t-test has a non-informative prior."
                )
            x, y, rho, scope, n_dropped = _bayesian_select.correlated_splits(
                self, a, b, metric=metric, dataset=dataset, rho=rho
            )
            res = bayesian_correlated_t(x, y, rho=rho, **common)
        elif method == "hierarchical":
            if prior_strength is not None:
                raise ValueError(
                    "`prior_strength` applies only to the signed-rank and sign tests; "
                    "the hierarchical model's priors are arguments of "
                    "stats.bayesian_hierarchical."
                )
            x, y, rhos, scope, n_dropped = _bayesian_select.hierarchical_splits(
                self, a, b, metric=metric, rho=rho
            )
            draws = {} if n_samples is None else {"n_draws": -(-n_samples // 4)}
            res = bayesian_hierarchical(
                x,
                y,
                rho=rhos,
                random_state=random_state,
                delta=common["rope"],
                labels=common["labels"],
                greater_is_better=common["greater_is_better"],
                **draws,
            )
        else:
            method = "signed_rank" if method is None else method
            funcs = {"signed_rank": bayesian_signed_rank, "sign": bayesian_sign_test}
            if not isinstance(method, str) or method not in funcs:
                raise ValueError(
                    "Across data sets `method` must be 'signed_rank', 'sign' or "
                    "'hierarchical'; got "
                    f"{method!r} (the correlated t-test works within one data set)."
                )
            if rho is not None:
                raise ValueError(
                    "`rho` applies only within one data set and to the hierarchical "
                    "model."
                )
            x, y, scope, n_dropped = _select.pair(
                self, a, b, metric=metric, with_dropped=True
            )
            extra = {} if prior_strength is None else {"prior_strength": prior_strength}
            res = funcs[method](
                x,
                y,
                n_samples=50000 if n_samples is None else n_samples,
                random_state=random_state,
                **extra,
                **common,
            )
        words = _select.direction_words(self, metric)
        text = f"{res.description} Scores: {words}; {scope}."
        return replace(res, description=text, n_dropped=n_dropped)

    def bayesian_comparisons(
        self, learners=None, *, control=None, dataset=None, random_state=None, **kw
    ):
        """:meth:`bayesian_test` for all pairs of learners, or each against a control.

        Parameters
        ----------
        learners : list of str, default=None
            The learners to compare (all by default), in this order.
        control : str, default=None
            Compare each other learner with this one (``(control, other)``
            pairs) instead of all pairs ``(i, j), i < j``.
        dataset : str, default=None
            As in :meth:`bayesian_test`.
        random_state : int, numpy Generator or RandomState, default=None
            One stream for all pairs (each pair gets its own draws).
        **kw
            ``rope``, ``metric``, ``method``, ``rho``, ``prior_strength``,
            ``n_samples``: passed to :meth:`bayesian_test`.

        Returns
        -------
        dict of (str, str) to BayesianTestResult
            In pair order; :func:`~sklearn_bench.stats.bayesian_table` makes the
            table, :func:`~sklearn_bench.plotting.plot_bayesian_posterior` the
            plots.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.stats import bayesian_table
        >>> rng = np.random.default_rng(0)
        >>> df = pd.DataFrame({"d": np.repeat([f"d{i}" for i in range(10)], 3),
        ...                    "l": ["A", "B", "C"] * 10,
        ...                    "error_rate": np.repeat(rng.uniform(0.1, 0.3, 10), 3)
        ...                         + np.tile([0.0, 0.03, 0.001], 10)})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="error_rate",
        ...     greater_is_better=False)
        >>> table = bayesian_table(result.bayesian_comparisons(
        ...     control="A", random_state=0))
        >>> table[["a", "b", "decision"]]
           a  b     decision
        0  A  B            A
        1  A  C  equivalent
        """
        from ..stats._bootstrap_ci import _as_generator

        names = self.learners if learners is None else learners
        names = _select.check_learners(self, names, at_least=2)
        if control is not None:
            (control,) = _select.check_learners(self, [control])
            if control not in names:
                names = [control, *names]
            pairs = [(control, other) for other in names if other != control]
        else:
            pairs = list(combinations(names, 2))
        if not isinstance(random_state, np.random.RandomState):
            random_state = _as_generator(random_state)
        return {
            (a, b): self.bayesian_test(
                a, b, dataset=dataset, random_state=random_state, **kw
            )
            for a, b in pairs
        }

    def bayesian_ranking(
        self,
        learners=None,
        *,
        metric=None,
        prior=1.0,
        n_samples=None,
        level=0.95,
        random_state=None,
    ):
        """Bayesian Plackett–Luce ranking of the learners over the data sets.

        The model of Calvo, Ceberio & Lozano (2018; scmamp's
        ``bPlackettLuceModel``) on each data set's ranking of the learners by
        their mean performance over its replicates, rank 1 = best in the
        metric's direction: the posterior probability that each learner ranks
        first on a new data set, its expected rank with a credible interval and
        the probability that one learner ranks above another, for every pair.
        Delegates to :func:`~sklearn_bench.stats.bayesian_plackett_luce`, which
        needs ``pip install "sklearn-bench[bayes]"``.

        Parameters
        ----------
        learners : list of str, default=None
            The learners to rank (all by default), in this order.
        metric : str, default=None
            The first metric by default.
        prior : float or list of float, default=1.0
            Dirichlet concentration of the weights (one or one per learner).
        n_samples : int, default=None
            Posterior draws over the sampler's 4 chains (``None``: the model's
            default, 2500 per chain, 1000 for more than 10,000 scores).
        level : float, default=0.95
            Level of the credible intervals.
        random_state : int, numpy Generator or RandomState, default=None
            Seeds the sampler and the random breaking of tied ranks.

        Returns
        -------
        PlackettLuceResult
            Its description names the metric, its direction and the data sets.

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> rng = np.random.default_rng(0)
        >>> df = pd.DataFrame({"d": np.repeat([f"d{i}" for i in range(10)], 3),
        ...                    "l": ["A", "B", "C"] * 10,
        ...                    "error_rate": np.repeat(rng.uniform(0.1, 0.3, 10), 3)
        ...                         + np.tile([0.0, 0.03, 0.06], 10)
        ...                         + rng.normal(0, 0.02, 30)})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="error_rate",
        ...     greater_is_better=False)
        >>> ranking = result.bayesian_ranking(n_samples=2000, random_state=0)
        >>> ranking.expected_rank.idxmin()
        'A'
        """
        from ..stats import bayesian_plackett_luce

        metric = self._metric(metric)
        names = self.learners if learners is None else learners
        names = _select.check_learners(self, names, at_least=2)
        table = _select.blocks(self, names, metric=metric)
        draws = {} if n_samples is None else {"n_draws": -(-n_samples // 4)}
        res = bayesian_plackett_luce(
            table,
            greater_is_better=self.metrics[metric],
            prior=prior,
            level=level,
            random_state=random_state,
            **draws,
        )
        words = _select.direction_words(self, metric)
        text = (
            f"{res.description} Scores: {words}; each data set's mean over its "
            f"replicates, {len(table)} data sets."
        )
        return replace(res, description=text)

    def to_latex(
        self,
        metric=None,
        *,
        stat="mean",
        method=None,
        correction="holm",
        alpha=0.05,
        digits=3,
        caption=None,
        label="tab:benchmark",
    ):
        r"""A booktabs LaTeX table of data sets × learners, for a paper.

        Mean ± SD (or median [quartiles]) over replicates, the best per data set
        in bold, a dagger on learners significantly worse than the best on that
        data set (two-sided :meth:`paired_test` over replicates, ``correction``
        over the other learners of the data set, level ``alpha``), average ranks
        as the last row and a caption saying what was tested. See
        :func:`sklearn_bench.report.latex_table` for the details.

        Parameters
        ----------
        metric : str, default=None
        stat : {"mean", "median"}, default="mean"
        method : str, default=None
            A method of :meth:`paired_test`; ``None`` is its default.
        correction : str, default="holm"
        alpha : float, default=0.05
        digits : int, default=3
        caption : str, default=None
        label : str or None, default="tab:benchmark"

        Returns
        -------
        str
            A ``table`` environment; needs ``\usepackage{booktabs}``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> df = pd.DataFrame({"d": ["p", "p", "q", "q"], "l": ["A", "B"] * 2,
        ...                    "e": [0.10, 0.12, 0.30, 0.25]})
        >>> result = BenchmarkResult.from_frame(
        ...     df, dataset="d", learner="l", value="e", greater_is_better=False)
        >>> print(result.to_latex().splitlines()[-4])
        Average rank & 1.50 & 1.50 \\
        """
        from ..report._latex import latex_table

        return latex_table(
            self,
            metric=metric,
            stat=stat,
            method=method,
            correction=correction,
            alpha=alpha,
            digits=digits,
            caption=caption,
            label=label,
        )


def _read_saved(file, read):
    """``read(file)``, its failures as errors that name the file."""
    if not file.is_file():
        raise FileNotFoundError(
            f"{file} is missing: the folder was not written whole by "
            "BenchmarkResult.save (or a file was removed)."
        )
    try:
        return read(file)
    except UnicodeDecodeError as exc:
        raise ValueError(f"{file} is not UTF-8 text ({exc.reason} at byte "
                         f"{exc.start}): damaged, or not written by "
                         "BenchmarkResult.save.") from None  # fmt: skip
    except (ValueError, KeyError, TypeError, OSError) as exc:
        what = " ".join(str(exc).split())[:200]
        raise ValueError(
            f"{file} cannot be read ({type(exc).__name__}: {what}): damaged, or "
            "not written by BenchmarkResult.save."
        ) from None
