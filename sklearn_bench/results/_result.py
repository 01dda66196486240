"""BenchmarkResult: the tidy table of a benchmark experiment and what it knows."""

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
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


class BenchmarkResult:
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
        unknown = set(column.astype(str).unique()) - set(categories)
        if unknown:
            raise ValueError(
                f"`scores` has {name} values {sorted(unknown)} not listed in `{name}s`."
            )
        return pd.Categorical(column.astype(str), categories=categories)

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
        for col in _TEXT_COLUMNS:
            values = scores[col] if col in scores.columns else [""] * len(df)
            df[col] = pd.array(
                ["" if pd.isna(v) else str(v) for v in values], dtype=object
            )
        df["failed"] = df["error_type"] != ""
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
        cols = [dataset, learner, value] + [c for c in (replicate, metric) if c]
        missing = [c for c in cols if c not in df.columns]
        if missing:
            raise ValueError(f"`df` has no columns {missing}.")
        out = pd.DataFrame(
            {
                "dataset": df[dataset].astype(str).to_numpy(),
                "learner": df[learner].astype(str).to_numpy(),
                "replicate": (
                    0
                    if replicate is None
                    else np.asarray(df[replicate], dtype=np.int64)
                ),
                "metric": (
                    str(value) if metric is None else df[metric].astype(str).to_numpy()
                ),
                "value": np.asarray(df[value], dtype=np.float64),
            }
        )
        out["fold"] = out.groupby(
            ["dataset", "learner", "replicate", "metric"], sort=False
        ).cumcount()
        # Splits matched across learners: one id per (replicate, fold).
        out["split"] = out["replicate"] * (int(out["fold"].max()) + 1) + out["fold"]
        metric_names = list(dict.fromkeys(out["metric"]))
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
            datasets=dict.fromkeys(dict.fromkeys(out["dataset"]), "unknown"),
            learners=list(dict.fromkeys(out["learner"])),
        )

    @classmethod
    def from_store(cls, path):
        """Read the run of a store, finished or partial, without fitting anything.

        Parameters
        ----------
        path : str or Path
            An SQLite store written by
            :class:`~sklearn_bench.BenchmarkExperiment` (``store=path``); it may
            be read while a run is writing it.

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
        content = read_store(path)
        meta = content["result"]
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
        if result.n_missing_tasks:
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
        if metric not in self.metrics:
            raise ValueError(
                f"Unknown `metric` {metric!r}; this result has {list(self.metrics)}."
            )
        return metric

    def performance(self, metric=None):
        """Performance of each learner on each replicate: the mean of its folds.

        The performance :math:`p_{kb}` of Hothorn et al. (2005, Section 3). A
        replicate with a failed fold scored ``NaN`` has ``NaN`` performance.

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
        df = self.scores.loc[
            self.scores["metric"] == metric,
            ["dataset", "learner", "replicate", "value"],
        ]
        grouped = df.assign(nan=df["value"].isna()).groupby(
            ["dataset", "learner", "replicate"], observed=True, sort=True
        )
        out = grouped["value"].mean()
        out[grouped["nan"].any()] = np.nan
        return out.reset_index()

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
        perf = self.performance(metric)
        table = perf.groupby(["dataset", "learner"], observed=True)["value"].agg(stat)
        table = table.unstack("learner")
        return table.reindex(
            index=[d for d in self.datasets if d in table.index],
            columns=[m for m in self.learners if m in table.columns],
        ).rename_axis(index="dataset", columns="learner")

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
        meta = json.loads((path / "metadata.json").read_text())
        if meta.get("format_version") != _FORMAT_VERSION:
            raise ValueError(
                f"{path} holds format version {meta.get('format_version')}; this "
                f"sklearn_bench reads version {_FORMAT_VERSION}."
            )
        fmt = meta["file_format"]
        frames = {}
        for name in (
            ["scores", "predictions"] if meta["has_predictions"] else ["scores"]
        ):
            if fmt == "parquet":
                frames[name] = pd.read_parquet(path / f"{name}.parquet")
            else:
                # Floats are parsed by numpy from their shortest repr, which is
                # exact; pandas' own parser is not guaranteed to round-trip.
                floats = [*_FLOAT_COLUMNS, "y_pred"]
                frame = pd.read_csv(
                    path / f"{name}.csv",
                    keep_default_na=False,
                    na_values={"correct": ["NaN", "<NA>"]},
                    dtype=dict.fromkeys(
                        ["dataset", "learner", "metric", *_TEXT_COLUMNS, *floats], str
                    ),
                )
                for col in floats:
                    if col in frame.columns:
                        frame[col] = np.asarray(frame[col], dtype=str).astype(
                            np.float64
                        )
                frames[name] = frame
        return cls(
            frames["scores"],
            metrics={m["name"]: m["greater_is_better"] for m in meta["metrics"]},
            datasets={d["name"]: d["problem"] for d in meta["datasets"]},
            learners=meta["learners"],
            predictions=frames.get("predictions"),
            info=meta["info"],
        )
