"""BenchmarkResult: the tidy table of a benchmark experiment and what it knows."""

import json
import warnings
from dataclasses import replace
from itertools import combinations
from pathlib import Path

import numpy as np
import pandas as pd

from .._version import __version__
from . import _select
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
        if isinstance(column.dtype, pd.CategoricalDtype):
            # Long frames (kept predictions) arrive categorical: recode the labels,
            # never the millions of rows.
            column = column.cat.remove_unused_categories()
            labels = column.cat.categories.astype(str)
            unknown = set(labels) - set(categories)
            if not unknown:
                recoded = column.cat.rename_categories(labels)
                return pd.Categorical(recoded).set_categories(categories)
        else:
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

    # -- analyses: select data with ._select, delegate to sklearn_bench.stats -------
    def paired_test(
        self,
        a,
        b,
        *,
        dataset=None,
        method="t",
        metric=None,
        alternative="two-sided",
        replicate=None,
        **kwargs,
    ):
        """Test whether learners ``a`` and ``b`` perform differently.

        ``dataset=None`` tests across data sets on the per-data-set mean
        performances (Boulesteix et al. 2013, H0(real); Demšar 2006); a data set
        name tests within it over the replicates (Hothorn et al. 2005,
        statistic (2)). The differences are ``metric(a) − metric(b)``, so for an
        error rate ``alternative="less"`` is the alternative that ``a`` is
        better. The null hypothesis names the learners, the metric, its
        direction and the scope.

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
        method : str, default="t"
            Any method of :func:`sklearn_bench.stats.paired_test` (``"t"``,
            ``"wilcoxon"``, ``"sign"``, ``"permutation"``, ``"corrected_t"``), or
            ``"mcnemar"``: :func:`~sklearn_bench.stats.mcnemar_test` on the kept
            predictions of one test set (``dataset``, ``replicate``; two-sided).
        metric : str, default=None
            The first metric by default; ignored by ``"mcnemar"``.
        alternative : {"two-sided", "less", "greater"}, default="two-sided"
        replicate : int, default=None
            ``"mcnemar"`` only: which learning sample's classifiers to compare;
            needed when the data set has several replicates.
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
        """
        from ..stats import mcnemar_test, paired_test

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
        x, y, scope = _select.pair(self, a, b, metric=metric, dataset=dataset)
        res = paired_test(
            x,
            y,
            method=method,
            alternative=alternative,
            labels=(f"{metric}({a})", f"{metric}({b})"),
            **kwargs,
        )
        words = _select.direction_words(self, metric)
        return replace(res, null_hypothesis=f"{res.null_hypothesis} ({words}; {scope})")

    def confidence_interval(
        self,
        a,
        b,
        *,
        dataset=None,
        method="t",
        confidence_level=0.95,
        metric=None,
        replicate=None,
        **kwargs,
    ):
        """Confidence interval for the difference ``metric(a) − metric(b)``.

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
            ``None``: across data sets (per-data-set means); a name: within it
            over the replicates.
        method : {"t", "corrected_t", "bootstrap", "qh"}, default="t"
            - ``"t"``: the paired t interval of the mean difference; with
              ``test_train_ratio`` in ``kwargs`` (within one data set) the
              Nadeau–Bengio corrected interval (``"corrected_t"``).
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
        from ..stats import bootstrap_ci, error_rate_difference_ci, paired_test

        if method == "qh":
            n_b, n_c, n = _select.discordant_counts(
                self, a, b, dataset=dataset, replicate=replicate
            )
            return error_rate_difference_ci(
                n_b, n_c, n, confidence_level=confidence_level
            )
        metric = self._metric(metric)
        x, y, _ = _select.pair(self, a, b, metric=metric, dataset=dataset)
        if method == "bootstrap":
            return bootstrap_ci(x, y, confidence_level=confidence_level, **kwargs)
        if method not in ("t", "corrected_t"):
            raise ValueError(
                "`method` must be one of ['t', 'corrected_t', 'bootstrap', 'qh']; "
                f"got {method!r}."
            )
        if method == "t" and kwargs.get("test_train_ratio") is not None:
            method = "corrected_t"
        res = paired_test(x, y, method=method, **kwargs)
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
        self, a, b, *, delta, alpha=0.05, power=0.8, method="approx", metric=None
    ):
        """Power of the across-data-set paired t-test, this study as a pilot.

        Boulesteix et al. (2013), Section 3: ``σ`` is the standard deviation
        (``ddof=1``) of the per-data-set differences ``metric(a) − metric(b)``
        over the ``J`` data sets of this result. Reported: the power of the
        one-sided test at level ``alpha`` to detect a true mean difference
        ``delta`` with the ``J`` data sets as run, and the number of data sets
        needed for ``power`` (:func:`~sklearn_bench.stats.power_paired_t`,
        :func:`~sklearn_bench.stats.n_datasets_needed`).

        Parameters
        ----------
        a, b : str
        delta : float
            The mean difference worth detecting, in the metric's units (positive).
        alpha : float, default=0.05
        power : float, default=0.8
            Target power for the number of data sets needed.
        method : {"approx", "exact"}, default="approx"
        metric : str, default=None

        Returns
        -------
        DataFrame
            One row with ``a, b, metric, n_datasets, estimate`` (mean difference),
            ``sigma, delta, alpha, power`` (of the study as run),
            ``target_power, n_datasets_needed, method``. A DataFrame so that
            several pairs concatenate into one table.

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
        >>> float(row["sigma"]), round(float(row["power"]), 3)
        (0.01, 0.985)
        >>> int(row["n_datasets_needed"])
        3
        """
        from ..stats import n_datasets_needed, power_paired_t

        metric = self._metric(metric)
        x, y, _ = _select.pair(self, a, b, metric=metric)
        d = x - y
        sigma = float(np.std(d, ddof=1))
        opts = {"alpha": alpha, "method": method}
        row = {
            "a": a,
            "b": b,
            "metric": metric,
            "n_datasets": d.size,
            "estimate": float(d.mean()),
            "sigma": sigma,
            "delta": delta,
            "alpha": alpha,
            "power": float(power_paired_t(d.size, delta, sigma, **opts)),
            "target_power": power,
            "n_datasets_needed": n_datasets_needed(delta, sigma, power=power, **opts),
            "method": method,
        }
        return pd.DataFrame([row])

    def win_tie_loss(self, *, tolerance=0.0, metric=None):
        """Wins, ties and losses of every learner against every other (seed 002).

        On each data set the learners' mean performances are compared; a
        difference of at most ``tolerance`` (after rounding to 10 decimals) is a
        tie, otherwise the better one by the metric's direction wins.

        Parameters
        ----------
        tolerance : float, default=0.0
        metric : str, default=None

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
        table = _select.blocks(self, learners, metric=metric).to_numpy()
        return _select.win_tie_loss(
            table, learners, tolerance, greater_is_better=self.metrics[metric]
        )

    def friedman(self, *, dataset=None, metric=None, tie_correction=True):
        """Friedman's test of all learners (Demšar 2006, Section 3.2.2).

        ``dataset=None``: blocks are the data sets, each learner's value its mean
        performance over the replicates; a data set name: blocks are that data
        set's replicates. Ranks follow the metric's direction (rank 1 = best).
        Delegates to :func:`sklearn_bench.stats.friedman_test`.

        Parameters
        ----------
        dataset : str, default=None
        metric : str, default=None
            The first metric by default.
        tie_correction : bool, default=True
            As in :func:`~sklearn_bench.stats.friedman_test` (R's
            ``friedman.test``); ``False`` gives Demšar's formula as printed.

        Returns
        -------
        FriedmanResult

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
        from ..stats import friedman_test

        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        if dataset is not None:
            dataset = _select.check_dataset(self, dataset)
        table = _select.blocks(self, learners, metric=metric, dataset=dataset)
        return friedman_test(
            table,
            greater_is_better=self.metrics[metric],
            tie_correction=tie_correction,
        )

    def pairwise_test(
        self,
        *,
        method="wilcoxon",
        adjust="shaffer",
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
        method : {"wilcoxon", "sign"}, default="wilcoxon"
        adjust : {"holm", "shaffer", "bergmann_hommel", "bonferroni", "none"}, \
default="shaffer"
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
        PairwiseTestResult

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
        from ..stats import pairwise_tests

        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
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
        depend on the metric's direction.

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
