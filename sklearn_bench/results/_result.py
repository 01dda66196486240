"""BenchmarkResult: the tidy table of a benchmark experiment and what it knows."""

import json
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

from .._io import (
    open_for_write,
    refuse_links_below,
    remove_file,
    unescape_frame,
    write_csv,
    write_text,
    writes_into,
)
from .._metrics import scores_problem, wrong_direction
from .._validation import check_saved_metadata
from .._version import __version__
from ..store._reader import losses_loader, predictions_loader, read_store
from . import _select
from ._all_learners import AllLearnersMixin
from ._bayesian import BayesianMixin
from ._latex import LatexMixin
from ._leaderboard import LeaderboardMixin
from ._pairs import PairedComparisonsMixin

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
# A frame the result hands out shares nothing the caller can edit: under pandas
# 3's Copy-on-Write a shallow copy does that; pandas 2 needs a deep copy.
_DEEP_COPY = int(pd.__version__.split(".")[0]) < 3


def _copy(frame):
    return None if frame is None else frame.copy(deep=_DEEP_COPY)


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
    # values with one label (1 and "1") merge, in order of first appearance
    merged, labels = pd.factorize(np.array(labels, dtype=object))
    return pd.Categorical.from_codes(merged[codes], list(labels))


def _split_size(df, arg, size):
    """``from_frame``'s ``n_train``/``n_test``: one positive integer per row, from
    a number or a column."""
    if isinstance(size, str):
        values = pd.to_numeric(df[size], errors="coerce").to_numpy(dtype=float)
    elif isinstance(size, int | np.integer) and not isinstance(size, bool):
        values = np.full(len(df), float(size))
    else:
        raise ValueError(
            f"`{arg}` must be a positive integer or the name of a column; got {size!r}."
        )
    finite = np.isfinite(values).all()
    if not (finite and (values >= 1).all() and (values == np.round(values)).all()):
        raise ValueError(f"`{arg}` must hold positive integers (split sizes).")
    return values.astype(np.int64)


class BenchmarkResult(
    PairedComparisonsMixin,
    AllLearnersMixin,
    BayesianMixin,
    LeaderboardMixin,
    LatexMixin,
):
    """Scores of learners on data sets and replicates, with their provenance.

    Usually made by :class:`~sklearn_bench.BenchmarkExperiment` (``results_``),
    by :meth:`from_frame` for results produced elsewhere, or by :meth:`load`.
    The table follows Hothorn et al. (2005, Section 3): the performance
    :math:`p_{kb}` of learner :math:`k` on replicate (learning sample) :math:`b`
    is the mean of its fold scores within that replicate.

    In every method ``a`` and ``b`` name learners, ``metric=None`` is the first
    metric, and ``dataset=None`` works across data sets (on each learner's mean
    performance per data set) while a data set's name works within it (on its
    replicates or splits). A method that calls a function of
    :mod:`sklearn_bench.stats` documents its own arguments; that function
    documents the method's statistics.

    Parameters
    ----------
    scores : DataFrame
        One row per (dataset, learner, split, replicate, fold, metric) with the
        columns described in :attr:`scores`; ``fit_time``, ``score_time``,
        ``n_train``, ``n_test`` and the failure columns may be missing.
    metrics : dict of str to bool
        Each metric and whether greater is better, in order.
    datasets : dict of str to str
        Each data set, in order, and its problem: ``"real world"``,
        ``"competition"``, ``"simulation"`` or ``"unknown"``.
    learners : list of str
        The learners, in order.
    predictions : DataFrame or callable, default=None
        Kept validation predictions (``keep_predictions=True``), one row per
        (dataset, learner, split, validation row): ``row`` (index in the learning
        sample, or in the fixed test sample for competition and simulation),
        ``correct`` (classifiers) or ``y_pred`` (regressors). A callable without
        arguments that returns that table is called once, when
        :attr:`predictions` is first used (a store's predictions are read only
        if they are needed).
    info : dict, default=None
        JSON-serialisable provenance (seeds, ``cv``, learner reprs, versions;
        ``split_roles``, per data set the roles of the splits of a splitter
        with ``split_roles()``, such as
        :class:`~sklearn_bench.model_selection.NestedCV`).
    losses : DataFrame or callable, default=None
        Pointwise validation losses, one row per (dataset, learner, split,
        metric, validation row): ``row`` and ``loss``, for the metrics that are
        means of pointwise losses, read by the intervals of one learner's error
        (:meth:`confidence_interval`). A callable as for ``predictions``.

    Attributes
    ----------
    scores : DataFrame
        Long table with columns ``dataset``, ``learner`` and ``metric``
        (categoricals in experiment order), ``split``, ``replicate``, ``fold``,
        ``value``, ``fit_time``, ``score_time``, ``n_train``, ``n_test``,
        ``failed`` and ``error_type``, ``error_message``, ``traceback`` (empty
        strings where the task did not fail). Each read is a copy that shares
        nothing with the result, so ``result.scores.loc[...] = v`` changes
        nothing; to change the scores, assign the edited frame (``df =
        result.scores; df.loc[...] = v; result.scores = df``).
    predictions, losses
        As passed, normalised; each read a copy, as :attr:`scores`.
    metrics, datasets, learners, info
        As passed.
    n_missing_tasks : int
        Tasks of a store's run that were not run yet (see :meth:`from_store`);
        0 otherwise.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.datasets import load_demsar2006
    >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
    ...     learner="learner", value="auc", greater_is_better=True)
    >>> result.aggregate().head(3)
    learner                   C4.5  C4.5+m  C4.5+cf  C4.5+m+cf
    dataset
    adult(sample)            0.763   0.768    0.771      0.798
    breast cancer            0.599   0.591    0.590      0.569
    breast cancer wisconsin  0.954   0.971    0.968      0.967
    """

    def __init__(
        self,
        scores,
        *,
        metrics,
        datasets,
        learners,
        predictions=None,
        info=None,
        losses=None,
    ):
        for name, value in [("metrics", metrics), ("datasets", datasets)]:
            if not isinstance(value, dict):
                raise TypeError(f"`{name}` must be a dict; got {value!r}.")
        if isinstance(learners, str) or not isinstance(learners, list | tuple):
            raise TypeError(f"`learners` must be a list of names; got {learners!r}.")
        if len(set(map(str, learners))) != len(learners):
            raise ValueError(f"`learners` has duplicated names: {list(learners)}.")
        self.metrics = {str(k): bool(v) for k, v in dict(metrics).items()}
        self.datasets = {str(k): str(v) for k, v in dict(datasets).items()}
        self.learners = [str(name) for name in learners]
        for name, problem in self.datasets.items():
            if problem not in _PROBLEMS:
                raise ValueError(
                    f"Problem of data set {name!r} must be one of {_PROBLEMS}; got "
                    f"{problem!r}."
                )
        self.scores = scores
        self.predictions = predictions
        self.losses = losses
        self.info = {} if info is None else dict(info)

    @property
    def scores(self):
        """The long table of scores, a copy (see the class' Attributes)."""
        return _copy(self._scores)

    @scores.setter
    def scores(self, value):
        if not isinstance(value, pd.DataFrame):
            raise TypeError(
                f"`scores` must be a DataFrame; got {type(value).__name__}."
            )
        self._scores = self._normalise_scores(value)
        # What the analyses read from the scores (results/_select.py), built on
        # first use of each metric and dropped only here: the scores cannot
        # change in place, so it is never stale.
        self._arrays = {}

    # Tasks of a store not yet run (see from_store); 0 for a complete result.
    n_missing_tasks = 0
    _load_predictions = None  # reads predictions from a store when first used

    @property
    def predictions(self):
        """Kept predictions (read from the store when first used), or None; a
        copy, as :attr:`scores`."""
        return _copy(self._loaded("predictions"))

    def _loaded(self, name):
        """The result's own ``"predictions"`` or ``"losses"`` table (not a
        copy: for reading only), read from the store when first used."""
        load = getattr(self, f"_load_{name}")
        if load is not None:
            normalise = getattr(self, f"_normalise_{name}")
            setattr(self, f"_{name}", normalise(load()))
            setattr(self, f"_load_{name}", None)
        return getattr(self, f"_{name}")

    @predictions.setter
    def predictions(self, value):
        self._set_table("predictions", value)

    _load_losses = None

    @property
    def losses(self):
        """Pointwise validation losses (read from the store when first used),
        or None; a copy, as :attr:`scores`."""
        return _copy(self._loaded("losses"))

    @losses.setter
    def losses(self, value):
        self._set_table("losses", value)

    def _set_table(self, name, value):
        """Keep ``value`` as the ``"predictions"`` or ``"losses"`` table,
        normalised, or a reader of it (a callable) called when first used."""
        table, load = None, None
        if callable(value):
            load = value
        elif value is not None:
            table = getattr(self, f"_normalise_{name}")(value)
        setattr(self, f"_load_{name}", load)
        setattr(self, f"_{name}", table)
        self._arrays = {}  # the intervals and designs read them

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
        df = self._keys(scores, ["dataset", "learner", "metric"])
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

    def _keys(self, table, names, ints=("split", "replicate", "fold")):
        """A new frame of ``table``'s columns ``names`` as categoricals of the
        result's data sets, learners or metrics, and ``ints`` as int64."""
        known = {"dataset": self.datasets, "learner": self.learners}
        df = pd.DataFrame(index=pd.RangeIndex(len(table)))
        for col in names:
            categories = list(known.get(col, self.metrics))
            df[col] = self._categorical(table[col], categories, col)
        for col in ints:
            df[col] = np.asarray(table[col], dtype=np.int64)
        return df

    def _normalise_predictions(self, predictions):
        df = self._keys(
            predictions, ["dataset", "learner"], ["split", "replicate", "fold", "row"]
        )
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

    def _normalise_losses(self, losses):
        df = self._keys(losses, ["dataset", "learner", "metric"], ["split", "row"])
        df["loss"] = np.asarray(losses["loss"], dtype=np.float64)
        return df[["dataset", "learner", "split", "metric", "row", "loss"]]

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
        n_train=None,
        n_test=None,
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
        n_train, n_test : int or str, default=None
            The split sizes: a positive number for every row, or the column
            holding each row's. With them the tests within a data set know the
            resampling scheme (the corrected resampled t uses
            ``n_test/n_train``, Nadeau & Bengio 2003); without them a
            comparison within a data set says the scheme is unknown. Give both
            or neither.

        Returns
        -------
        result : BenchmarkResult
            Data sets, learners and metrics are ordered by first appearance;
            every data set's problem is ``"unknown"``.

        Examples
        --------
        A table as papers print it (data sets × learners) becomes a long one
        with :meth:`pandas.DataFrame.melt`:

        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> wide = load_demsar2006(wide=True)
        >>> long = wide.reset_index().melt(id_vars="dataset", var_name="learner",
        ...                                value_name="auc")
        >>> result = BenchmarkResult.from_frame(
        ...     long, dataset="dataset", learner="learner", value="auc",
        ...     greater_is_better=True)
        >>> result.learners, result.metrics
        (['C4.5', 'C4.5+m', 'C4.5+cf', 'C4.5+m+cf'], {'auc': True})
        >>> len(result.datasets)
        14
        """
        names = {"dataset": dataset, "learner": learner, "value": value}
        names.update({k: v for k, v in [("replicate", replicate), ("metric", metric)]
                      if v})  # fmt: skip
        if (n_train is None) != (n_test is None):
            raise ValueError("Give both `n_train` and `n_test`, or neither.")
        names.update({k: v for k, v in [("n_train", n_train), ("n_test", n_test)]
                      if isinstance(v, str)})  # fmt: skip
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
        for arg, size in (("n_train", n_train), ("n_test", n_test)):
            if size is not None:
                out[arg] = _split_size(df, arg, size)
        # Rows with the same keys are folds, numbered in order of appearance.
        keys = ["dataset", "learner", "metric", "replicate"]
        out["fold"] = out.groupby(keys, observed=True).cumcount().to_numpy(np.int64)
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
            :class:`~sklearn_bench.BenchmarkExperiment` (``store=path``), also
            while a run writes it. A list of stores of one study is combined as
            :func:`~sklearn_bench.store.merge_stores` would, without writing
            any of them.

        Returns
        -------
        result : BenchmarkResult
            The scores of the committed tasks; predictions are read when first
            used. ``n_missing_tasks`` counts the tasks not run yet (with a
            ``UserWarning``); ``info["store"]`` gives the path.

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

        from ..store import merge_stores

        with tempfile.TemporaryDirectory() as folder:
            merged = Path(folder) / "merged.sqlite"
            merge_stores(paths, merged)
            result = cls._from_store(merged)
            _ = result._loaded("predictions"), result._loaded("losses")  # temporary
        result.info["store"] = [str(p) for p in paths]
        return result

    @classmethod
    def _from_store(cls, path):
        """``from_store`` of one store."""
        content = read_store(path)
        meta = content["result"]
        result = cls(
            content["scores"],
            metrics=meta["metrics"],
            datasets=meta["datasets"],
            learners=meta["learners"],
            predictions=predictions_loader(path, content),  # read when first used
            info=dict(meta["info"], store=str(path)),
            losses=losses_loader(path, content),
        )
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
        if not isinstance(metric, str) or metric not in self.metrics:
            raise ValueError(
                f"Unknown `metric` {metric!r}; this result has {list(self.metrics)}."
            )
        return metric

    def performance(self, metric=None):
        """Performance of each learner on each replicate: the mean of its folds.

        The performance :math:`p_{kb}` of Hothorn et al. (2005, Section 3), on
        the splits that estimate it (with a splitter of ``split_roles()``, such
        as :class:`~sklearn_bench.model_selection.NestedCV`, its outer splits).
        A failed task has no value on any metric, and a replicate with a
        ``NaN`` fold has ``NaN`` performance; paired analyses drop such
        replicates and say how many.

        Parameters
        ----------
        metric : str, default=None

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
        scores = self._scores
        rows = scores["metric"].cat.codes.to_numpy() == list(self.metrics).index(metric)
        primary = _select.primary_rows(self, scores)  # NestedCV: its outer splits
        if primary is not None:
            rows &= primary
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

    def aggregate(self, metric=None, *, stat="mean"):
        """A data set × learner table of a statistic of the replicate performances.

        Parameters
        ----------
        metric : str, default=None
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
            f"n_rows={len(self._scores)})"
        )

    # -- persistence --------------------------------------------------------------
    @writes_into("path")
    def save(self, path, *, format="csv"):
        """Write the result to the directory ``path`` in plain formats.

        ``metadata.json`` (metrics, data sets with their problem and source,
        learners, :attr:`info`), ``scores.csv`` (or ``.parquet``),
        ``predictions.csv`` and ``losses.csv``. CSV floats are written with the
        shortest exact repr and read back bit-identically. Nothing is pickled.

        Parameters
        ----------
        path : str or Path
            Directory; created if needed, existing files of a result replaced.
        format : {"csv", "parquet"}, default="csv"
            ``"parquet"`` needs pyarrow.
        """
        if format not in ("csv", "parquet"):
            raise ValueError(f"`format` must be 'csv' or 'parquet'; got {format!r}.")
        path = Path(path)  # created and held open by @writes_into
        refuse_links_below(path)
        sources = self.info.get("dataset_sources") or {}  # measured or simulated
        meta = {
            "format_version": _FORMAT_VERSION,
            "sklearn_bench_version": __version__,
            "file_format": format,
            "metrics": [
                {"name": m, "greater_is_better": g} for m, g in self.metrics.items()
            ],
            "datasets": [
                {"name": d, "problem": p}
                | ({"source": sources[d]} if d in sources else {})
                for d, p in self.datasets.items()
            ],
            "learners": self.learners,
            "has_predictions": self._loaded("predictions") is not None,
            "has_losses": self._loaded("losses") is not None,
            "info": self.info,
        }
        write_text(path / "metadata.json", json.dumps(meta, indent=2))
        frames = {
            "scores": self._scores,
            "predictions": self._loaded("predictions"),
            "losses": self._loaded("losses"),
        }
        for name, frame in frames.items():
            for suffix in (".csv", ".parquet"):  # an earlier save's, never a glob
                remove_file(path / f"{name}{suffix}")
            if frame is None:
                continue
            if format == "parquet":
                with open_for_write(path / f"{name}.parquet", "wb") as f:
                    frame.to_parquet(f, index=False)
            else:
                write_csv(frame, path / f"{name}.csv", index=False, na_rep="NaN")

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
        metrics, datasets, learners, info = check_saved_metadata(
            meta, path / "metadata.json", version=_FORMAT_VERSION
        )
        wrong = wrong_direction(metrics)
        if wrong is not None:  # a hand edit would rank the worst learner first
            raise ValueError(
                f"{path / 'metadata.json'} was refused: {wrong}. A saved result "
                "cannot change the direction of a known metric."
            )
        fmt = meta["file_format"]
        frames = {}
        names = ["scores"] + ["predictions"] * bool(meta["has_predictions"])
        for name in names + ["losses"] * bool(meta.get("has_losses")):
            if fmt == "parquet":
                frames[name] = _read_saved(path / f"{name}.parquet", pd.read_parquet)
            else:
                # Floats are parsed by numpy from their shortest repr, which is
                # exact; pandas' own parser is not guaranteed to round-trip.
                floats = [*_FLOAT_COLUMNS, "y_pred", "loss"]

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
                    # text cells written escaped for spreadsheets, names back exactly
                    return unescape_frame(frame)

                frames[name] = _read_saved(path / f"{name}.csv", read)
        problem = scores_problem(frames["scores"], metrics)
        if problem is not None:  # a hand edit, or not a run's
            raise ValueError(f"{path / 'scores.csv'} was refused: {problem}.")
        return cls(
            frames["scores"],
            metrics=metrics,
            datasets=datasets,
            learners=learners,
            predictions=frames.get("predictions"),
            info=info,
            losses=frames.get("losses"),
        )


def _adopt_mixin_methods(cls):
    """Make the methods of ``cls``'s mixins its own: named ``cls.<name>`` (in
    their warnings) and in its ``__dict__`` (so that the API reference, which
    leaves inherited members out, documents them)."""
    for mixin in cls.__mro__[1:-1]:
        for name, member in vars(mixin).items():
            if callable(member) and not name.startswith("__"):
                member.__qualname__ = f"{cls.__name__}.{name}"
                if name not in vars(cls):
                    setattr(cls, name, member)


_adopt_mixin_methods(BenchmarkResult)


def _read_saved(file, read):
    """``read(file)``, its failures as errors that name the file."""
    if file.is_symlink():  # its target's content would show in an error
        raise ValueError(f"{file} is a symbolic link; a saved result holds files.")
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
    except (ValueError, KeyError, TypeError, OSError, RecursionError) as exc:
        what = " ".join(str(exc).split())[:200]
        raise ValueError(
            f"{file} cannot be read ({type(exc).__name__}: {what}): damaged, or "
            "not written by BenchmarkResult.save."
        ) from None
