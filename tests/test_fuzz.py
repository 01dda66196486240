"""Fuzzing: bad inputs at every public function and constructor (issue 15, item 7).

For each public name of every subpackage's ``__all__`` (``test_every_public_name_is
_fuzzed`` walks them), a valid call is written down once, and hypothesis replaces one
argument at a time by a bad value: NaN, inf, empty, ragged, wrong dtypes, duplicated
names, huge or negative numbers, wrong types. The call must either

- raise a ``ValueError`` or ``TypeError`` whose message names the argument (as
  ``\\`arg\\```, ``'arg'``, ``arg=`` or scikit-learn's "Input arg" / "'arg'
  parameter"), raised by sklearn_bench or scikit-learn's validation, never from
  inside numpy, pandas, scipy or sqlite3; or
- return a result none of whose numbers is a NaN (unless the case is listed in
  ``DOCUMENTED_NAN`` with the docstring that says so).

The distinct bad inputs tried are counted (``N_BAD_INPUTS``, printed at the end of
the run). Hypothesis runs ``max_examples`` examples per argument, without deadline
(no wall-clock limits in tests), derandomised so that every run tries the same
inputs.
"""

import dataclasses
import errno
import importlib
import importlib.util
import itertools
import math
import os
import traceback
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot  # noqa: E402, F401  (closed after every call)

SUBPACKAGES = [
    "sklearn_bench",
    "sklearn_bench.stats",
    "sklearn_bench.model_selection",
    "sklearn_bench.datasets",
    "sklearn_bench.estimators",
    "sklearn_bench.experiment",
    "sklearn_bench.results",
    "sklearn_bench.store",
    "sklearn_bench.plotting",
    "sklearn_bench.analysis",
    "sklearn_bench.report",
]
# Raised here is never an answer: the user cannot tell which argument is bad.
FOREIGN = ("/numpy/", "/pandas/", "/scipy/", "/sqlite3/", "/matplotlib/")
N_BAD_INPUTS = set()

FUZZ = settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# -- bad values ----------------------------------------------------------------------
NAN, INF = float("nan"), float("inf")
_BAD_SCALARS = [NAN, INF, -INF, -1, 0, -1e300, 1e300, 10**12, 2.5, True, "5", None,
                "x", 1j, [], [1, 2], object()]  # fmt: skip
_BAD_1D = [
    [],
    [NAN, 0.1, 0.2],
    [0.1, INF, 0.3],
    [[0.1, 0.2], [0.3]],
    ["a", "b", "c"],
    [None, 0.1, 0.2],
    0.5,
    "abc",
    [[0.1, 0.2], [0.3, 0.4]],
    [1e308, -1e308, 1e308],
    [1j, 2j, 3j],
    np.array([0.1, 0.2], dtype=object),
    [True, False, True],
    pd.Series([0.1, NAN, 0.3]),
    None,
]
_BAD_2D = [[], [[]], np.zeros((0, 3)), [[0.1, NAN], [0.2, 0.3], [0.4, 0.5]],
           [[0.1, INF], [0.2, 0.3], [0.4, 0.5]], [[0.1, 0.2], [0.3]], [0.1, 0.2, 0.3],
           [["a", "b"], ["c", "d"], ["e", "f"]], np.ones((1, 3)), np.ones((3, 1)),
           np.full((4, 3), 1e308), None, "table",
           np.array([[0.1, None], [0.2, 0.3]], dtype=object)]  # fmt: skip


def _finite_floats(n):
    return st.lists(
        st.floats(-1e3, 1e3, allow_nan=False, allow_infinity=False),
        min_size=n,
        max_size=n,
    )


@st.composite
def _injected(draw, shape):
    """A valid-looking array with NaN or inf at a random position."""
    size = int(np.prod(shape))
    values = np.array(draw(_finite_floats(size)), dtype=float).reshape(shape)
    flat = values.reshape(-1)
    flat[draw(st.integers(0, size - 1))] = draw(st.sampled_from([NAN, INF, -INF]))
    return values


class Bad:
    """Bad values of one kind: a fixed list, each always tried, and a strategy."""

    def __init__(self, fixed, generated=None):
        self.fixed = list(fixed)
        self.strategy = st.sampled_from(self.fixed)
        if generated is not None:
            self.strategy = st.one_of(self.strategy, generated)


def bad_scalars():
    return Bad(
        _BAD_SCALARS,
        st.one_of(
            st.integers(-(10**15), -1),
            st.floats(allow_nan=True, allow_infinity=True).filter(
                lambda v: not (0 <= v <= 1)
            ),
        ),
    )


# Sizes (counts of rows, resamples, folds...): a huge positive size is valid and
# only slow, so sizes get every other bad value but not the huge positive ones.
SIZE_ARGS = {
    "n_bootstraps", "n_folds", "n_samples", "n_draws", "n_features", "n_global_markers",
    "block_size", "n_train", "n_test", "n_replicates", "n_resamples",
    "n_collections", "max_datasets", "n_datasets", "n_learners", "n_blocks", "cv",
}  # fmt: skip


def bad_sizes():
    return Bad(
        [v for v in _BAD_SCALARS if not (isinstance(v, int | float) and v > 1)],
        st.one_of(
            st.integers(-(10**15), 0),
            st.floats(allow_nan=True, allow_infinity=True).filter(
                lambda v: not math.isfinite(v) or v != round(v) or v <= 0
            ),
        ),
    )


def bad_1d(n=6):
    return Bad(_BAD_1D, _injected((n,)))


def bad_2d(shape=(6, 3)):
    return Bad(_BAD_2D, _injected(shape))


def bad_choices():
    return Bad(["bogus", "", None, 3, 1.5, ["t"], "T "], st.text(max_size=5))


# Valid names that are hostile as labels (issue 29.8): 10,000 characters (it
# sized a figure to a MemoryError), mathtext (a crash, or α drawn for "$\alpha$"),
# "[" at a LaTeX cell start and a backslash before CJK ("Illegal unit of
# measure"), ESC/BEL (a retitled terminal); and (issue 38) a bare carriage
# return (a CSV its own reader refused), a newline before a forged verdict,
# raw HTML (it ran in methods.md), a zero-width space (a look-alike name).
# Figures made with them are drawn.
HOSTILE_NAMES = ["x" * 10_000, "$\\input{x}$", "$\\alpha$", "[0.5em] a",
                 "\\\\中文", "lr\x1b]0;pwned\x07", "a\rb",
                 "lr\nc is better than every learner (p < 0.001)",
                 "<svg/onload=alert(1)>", "lr\u200b"]  # fmt: skip


def _hostile(value):
    """Whether a fuzzed value is, or holds, one of HOSTILE_NAMES."""
    values = value if isinstance(value, list | tuple) else [value]
    return any(isinstance(v, str) and v in HOSTILE_NAMES for v in values)


def bad_names():
    return Bad(
        [["a", "a"], [1, 2], [], None, "ab", [None, "b"], ["a", ""], [["a"], ["b"]],
         HOSTILE_NAMES[:2], HOSTILE_NAMES[2:4], HOSTILE_NAMES[4:6],
         HOSTILE_NAMES[6:8], HOSTILE_NAMES[8:]]
    )  # fmt: skip


def bad_paths():
    # issue 38: a hard link to a file outside (one file, two names) and a store
    # whose checksums table was dropped
    return Bad(["missing/dir/x.sqlite", "DIR", "TEXT", "EMPTY", "LINK", "HARDLINK",
                "NOCHECKSUMS", 3, None])  # fmt: skip


# -- valid inputs --------------------------------------------------------------------
rng = np.random.default_rng(0)
X6 = rng.normal(size=(30, 3))
Y6 = np.arange(30) % 2
PERF = rng.uniform(0.1, 0.3, size=(8, 3))


def _result():
    from sklearn_bench import BenchmarkResult

    rows = [
        (d, learner, r, float(v))
        for d in ["p", "q", "s"]
        for r in range(3)
        for learner, v in [("A", rng.uniform(0.1, 0.2)), ("B", rng.uniform(0.2, 0.3))]
    ]
    df = pd.DataFrame(rows, columns=["d", "l", "r", "e"])
    return BenchmarkResult.from_frame(
        df, dataset="d", learner="l", replicate="r", value="e", greater_is_better=False
    )


RESULT = _result()


def _path(value, tmp):
    """Turn the symbolic bad paths into files of the kind named."""
    if value == "DIR":
        return tmp
    if value == "TEXT":
        (tmp / "notes.txt").write_text("not a store")
        return tmp / "notes.txt"
    if value == "EMPTY":
        (tmp / "empty.sqlite").write_bytes(b"")
        return tmp / "empty.sqlite"
    if value == "LINK":  # a dangling link: a write would create its target
        link = tmp / "link.sqlite"
        if not link.is_symlink():
            os.symlink(tmp / "elsewhere.sqlite", link)
        return link
    if value == "HARDLINK":  # a write would change the file at its other name
        link = tmp / "hard.sqlite"
        if not link.exists():
            (tmp / "outside.txt").write_text("the user's")
            os.link(tmp / "outside.txt", link)
        return link
    if value == "NOCHECKSUMS":  # its values cannot be verified
        path = tmp / "unchecked.sqlite"
        if not path.exists():
            import shutil
            import sqlite3

            shutil.copyfile(_clean_store(), path)
            with sqlite3.connect(path) as conn:
                conn.execute("DROP TABLE checksums")
            conn.close()
        return path
    if isinstance(value, str):
        return tmp / value
    return value


_CLEAN = []


def _clean_store():
    """A small store of a finished run, made once (copied by "NOCHECKSUMS")."""
    if not _CLEAN:
        import tempfile

        from sklearn.naive_bayes import GaussianNB

        from sklearn_bench import BenchmarkExperiment

        path = Path(tempfile.mkdtemp()) / "clean.sqlite"
        BenchmarkExperiment({"nb": GaussianNB()}, cv=2, progress=False, store=path).fit(
            {"d": (X6, Y6)}
        )
        _CLEAN.append(path)
    return _CLEAN[0]


def _sampler(n_samples, random_state):
    r = np.random.default_rng(random_state)
    return r.normal(size=(n_samples, 2)), np.arange(n_samples) % 2


def _experiment_fit(datasets=None, **params):
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench import BenchmarkExperiment

    kwargs = {"learners": {"nb": GaussianNB()}, "cv": 2, "progress": False}
    kwargs.update(params)
    exp = BenchmarkExperiment(**kwargs)
    return exp.fit({"d": (X6, Y6)} if datasets is None else datasets).results_


def _split(cls, X=X6, y=Y6, **params):
    return [len(t) for t, _ in itertools.islice(cls(**params).split(X, y), 3)]


def _dlda(X=X6, y=Y6, **params):
    from sklearn_bench.estimators import DiagonalLDA

    return DiagonalLDA(**params).fit(X, y).predict(X6)


def _scorer632(X=X6, y=Y6, **params):
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench.model_selection import Bootstrap632Scorer

    train, test = np.arange(20), np.arange(20, 30)
    est = GaussianNB().fit(X6[train], Y6[train])
    return Bootstrap632Scorer(**params)(est, X, y, train=train, test=test)


def _error_estimated(X=X6, y=Y6, **params):
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench.experiment import ErrorEstimatedLearner

    kwargs = {"learner": GaussianNB(), "random_state": 0}
    kwargs.update(params)
    return ErrorEstimatedLearner(**kwargs).fit(X, y)


def _method(name):
    def call(**kwargs):
        return getattr(RESULT, name)(**kwargs)

    call.__name__ = f"BenchmarkResult.{name}"
    return call


def _from_frame(value=None, **kwargs):
    from sklearn_bench import BenchmarkResult

    df = pd.DataFrame({"d": ["p", "p", "q", "q"], "l": ["A", "B", "A", "B"]})
    df["e"] = [0.1, 0.2, 0.3, 0.4] if value is None else value
    params = {"dataset": "d", "learner": "l", "value": "e", "greater_is_better": False}
    params.update(kwargs)
    return BenchmarkResult.from_frame(df, **params)


def _store_fn(name):
    def call(path, tmp, **kwargs):
        import sklearn_bench.store as store

        extra = {"new_path": tmp / "new.sqlite"} if name == "salvage_store" else {}
        return getattr(store, name)(_path(path, tmp), **extra)

    return call


def _store_api(name, **extra):
    """A function (or class) of sklearn_bench.store (its API or the readers and
    writer of its private modules) called on one store path."""

    def call(path, tmp):
        from sklearn_bench import store
        from sklearn_bench.store import _reader, _repair, _writer

        modules = (store, _reader, _repair, _writer)
        function = next(getattr(m, name) for m in modules if hasattr(m, name))
        out = function(_path(path, tmp), **extra)
        if hasattr(out, "close"):  # a StoreWriter: release the file
            out.close()
        return out

    return call


def _merge(listed):
    """merge_stores; ``listed``: the bad value is the one path in ``sources``."""

    def call(tmp, sources=None, target="new.sqlite"):
        from sklearn_bench.store import merge_stores

        if listed:
            sources = [] if sources is None else [_path(sources, tmp)]
        elif isinstance(sources, list):
            sources = [_path(source, tmp) for source in sources]
        return merge_stores(sources, _path(target, tmp))

    return call


def _simulated(**params):
    from sklearn_bench.datasets import SimulatedDataset

    kwargs = {"sampler": _sampler, "n_train": 10, "n_test": 10, "n_replicates": 2}
    kwargs.update(params)
    data = SimulatedDataset(**kwargs)
    return data.sample(kwargs["n_train"], 0)


def _unconditional(**params):
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench.experiment import unconditional_error

    kwargs = {"learners": {"nb": GaussianNB()}, "sampler": _sampler, "n_train": 20,
              "n_replicates": 3, "n_test": 50, "random_state": 0}  # fmt: skip
    kwargs.update(params)
    return unconditional_error(**kwargs)


def _rule_errors(**params):
    from sklearn.naive_bayes import GaussianNB

    from sklearn_bench.experiment import collect_rule_errors

    kwargs = {"rules": {"nb": GaussianNB()}, "data": {"d": _sampler}, "n_train": 20,
              "n_samples": 2, "n_test": 50, "random_state": 0}  # fmt: skip
    kwargs.update(params)
    return collect_rule_errors(**kwargs)


def _figure_label(**params):
    from sklearn_bench.plotting._common import figure_label

    return figure_label(**params)


def _describe(**params):
    from sklearn_bench.experiment._config import describe

    return describe(**params)


def _analyse(**params):
    from sklearn_bench.analysis import AnalysisPlan, analyse

    return analyse(RESULT, AnalysisPlan(**params))


def _summary(analysis):
    from sklearn_bench.report import format_summary

    return format_summary(analysis)


def _escape_latex(text):
    from sklearn_bench._latex import escape_latex

    return escape_latex(text)


def _learner_table(result):
    from sklearn_bench.analysis._learners import learner_table

    return learner_table(result)


def _latex_frame(**params):
    from sklearn_bench._latex import latex_frame

    return latex_frame(**params)


def _latex_table(**params):
    kwargs = {"method": "t"}  # RESULT has no split sizes: Hothorn's t
    kwargs.update(params)
    return RESULT.to_latex(**kwargs)


def _metric_bounds(metric):
    from sklearn_bench._metrics import metric_bounds

    return metric_bounds(metric)


def _write_report(out_dir, tmp, **params):
    from sklearn_bench.analysis import analyse
    from sklearn_bench.report import write_report

    return write_report(analyse(RESULT), _path(out_dir, tmp), **params)


def _metric(**params):
    from sklearn.metrics import accuracy_score

    from sklearn_bench.experiment import make_metric

    kwargs = {"score_func": accuracy_score, "greater_is_better": True}
    kwargs.update(params)
    return make_metric(**kwargs)


def _cd_plot(**params):
    from sklearn_bench.plotting import plot_critical_difference

    return plot_critical_difference(RESULT.friedman(), **params)


def _perf_plot(**params):
    from sklearn_bench.plotting import performance_distribution

    kwargs = {"dataset": "p"}
    kwargs.update(params)
    return performance_distribution(RESULT, **kwargs)


def _wtl(counts=None, **params):
    from sklearn_bench.plotting import plot_win_tie_loss

    return plot_win_tie_loss(RESULT if counts is None else counts, **params)


def _ci_plot(intervals):
    from sklearn_bench.plotting import plot_confidence_intervals

    return plot_confidence_intervals(intervals)


def _rule_bias_plot(result):
    from sklearn_bench.plotting import plot_multiple_rule_bias

    return plot_multiple_rule_bias(result)


def _replicate_ids(cv=None, X=X6, y=Y6):
    from sklearn.model_selection import KFold

    from sklearn_bench.model_selection import replicate_ids

    return replicate_ids(KFold(2) if cv is None else cv, X, y)


def _stats(name):
    def call(**kwargs):
        from sklearn_bench import stats

        return getattr(stats, name)(**kwargs)

    call.__name__ = name
    return call


def _datasets(name):
    def call(**kwargs):
        from sklearn_bench import datasets

        return getattr(datasets, name)(**kwargs)

    return call


def _welch(X=X6, y=Y6):
    from sklearn_bench.estimators import welch_t_score

    return welch_t_score(X, y)


def _dataset(**kwargs):
    from sklearn_bench.datasets import Dataset

    params = {"X": X6, "y": Y6}
    params.update(kwargs)
    return Dataset(**params)


def _splitter(name):
    def call(**kwargs):
        from sklearn_bench import model_selection

        params = {"n_bootstraps": 3, "random_state": 0}
        params.update(kwargs)
        return _split(getattr(model_selection, name), **params)

    return call


def _design(name, **defaults):
    def call(**kwargs):
        from sklearn_bench import model_selection

        return _split(getattr(model_selection, name), **{**defaults, **kwargs})

    return call


# A loss table of 4 subsamples of 20 rows (5 validated each), for the intervals of
# one learner's generalization error; and the out-of-bootstrap table of 3
# bootstrap replicates of 6 rows with its training counts.
LOSS_TABLE = pd.DataFrame(
    {"split": np.repeat(np.arange(4), 5), "row": np.tile(np.arange(5), 4),
     "loss": rng.uniform(0, 1, 20), "n_train": 15}
)  # fmt: skip
OOB_COUNTS = np.array([[2, 0, 1, 0, 2, 1], [0, 3, 0, 1, 1, 1], [1, 1, 2, 2, 0, 0]])
OOB_TABLE = pd.DataFrame(
    {"split": [0, 0, 1, 1, 2, 2], "row": [1, 3, 0, 2, 4, 5],
     "loss": [0.2, 0.5, 0.1, 0.9, 0.4, 0.3]}
)  # fmt: skip
BAD_TABLES = Bad(
    [None, "table", [], pd.DataFrame(), np.zeros((3, 2)), {"split": [0, 1]},
     {"split": [0, 1], "loss": [0.1]}, {"split": [0, 0.5], "loss": [0.1, 0.2]},
     {"split": [0, 1], "loss": [NAN, 0.2]}, {"split": ["a", "b"], "loss": [1, 2]},
     {"split": [0, 1], "loss": ["x", "y"]}, {"split": [0, 1], "loss": [INF, 0.2]},
     {"split": [0, 1], "loss": [1j, 0.2]}, LOSS_TABLE.assign(n_train=0),
     LOSS_TABLE.assign(row=-1), LOSS_TABLE.drop(columns="n_train")]
)  # fmt: skip


def _benchmark_result(**kwargs):
    from sklearn_bench import BenchmarkResult

    params = {
        "scores": RESULT.scores,
        "metrics": dict(RESULT.metrics),
        "datasets": dict(RESULT.datasets),
        "learners": list(RESULT.learners),
    }
    params.update(kwargs)
    return BenchmarkResult(**params)


def _bayes(method="signed_rank"):
    from sklearn_bench import stats

    x, y = PERF[:, 0], PERF[:, 1]
    if method == "correlated_t":
        return stats.bayesian_correlated_t(
            x, y, delta=0.01, rho=0.2, greater_is_better=True
        )
    fn = {"signed_rank": stats.bayesian_signed_rank, "sign": stats.bayesian_sign_test}
    return fn[method](
        x, y, delta=0.01, n_draws=500, random_state=0, greater_is_better=True
    )


def _bayes_plot(fn_name, method="signed_rank"):
    def call(result=None, **params):
        from sklearn_bench import plotting

        result = _bayes(method) if result is None else result
        return getattr(plotting, fn_name)(result, **params)

    call.__name__ = fn_name
    return call


def _rank_plot(result=None, **params):
    """plot_rank_posterior on a small Plackett–Luce fit (issue 23)."""
    from sklearn_bench import stats
    from sklearn_bench.plotting import plot_rank_posterior

    if result is None:
        result = stats.bayesian_plackett_luce(
            PERF,
            greater_is_better=False,
            n_chains=1,
            n_draws=50,
            n_warmup=50,
            random_state=0,
        )
    return plot_rank_posterior(result, **params)


def _pairwise_plot(**params):
    from sklearn_bench.plotting import plot_pairwise_significance
    from sklearn_bench.stats import pairwise_tests

    if "result" not in params and "significant" not in params:
        params["result"] = pairwise_tests(PERF, greater_is_better=False)
    return plot_pairwise_significance(**params)


SIGNIFICANT = np.array([[False, True, False], [True, False, False], [False] * 3])
FOLDS = rng.uniform(0.1, 0.3, size=(5, 2))


# -- issue 24, peers: significance table, Tukey diagram --------------------------
def _sign_table(name):
    def call(**params):
        from sklearn_bench import plotting
        from sklearn_bench.stats import pairwise_tests

        params.setdefault("result", pairwise_tests(PERF, greater_is_better=False))
        return getattr(plotting, name)(**params)

    call.__name__ = name
    return call


def _tukey_plot(**params):
    from sklearn_bench.plotting import plot_critical_difference
    from sklearn_bench.stats import tukey_hsd

    return plot_critical_difference(tukey_hsd(PERF, greater_is_better=False), **params)


# -- issue 24, peers: classifiers on one test set, bias-variance -----------------
LABELS = np.array([0, 1, 2, 0, 1, 2, 0, 1, 2, 0])
PREDICTIONS = np.column_stack(
    [
        LABELS,
        (LABELS + (np.arange(10) % 3 == 0)) % 3,
        (LABELS + (np.arange(10) < 4)) % 3,
    ]
)


def _bias_variance(**params):
    from sklearn.tree import DecisionTreeClassifier

    from sklearn_bench.model_selection import bias_variance_decomposition

    kwargs = {
        "estimator": DecisionTreeClassifier(random_state=0),
        "X_train": X6,
        "y_train": Y6,
        "X_test": X6[:3],
        "y_test": Y6[:3],
        "n_rounds": 3,
        "random_state": 0,
    }
    kwargs.update(params)
    return bias_variance_decomposition(**kwargs)


# (public name, call, {argument: strategy of bad values}, valid kwargs)
S = _stats


def _sequential_rule(**kw):
    from sklearn_bench.experiment import SequentialRule

    return SequentialRule(**kw)


CASES = [
    (
        "adjust_pvalues",
        S("adjust_pvalues"),
        {"pvalues": bad_1d(3), "adjust": bad_choices()},
        {"pvalues": [0.01, 0.04, 0.03]},
    ),
    (
        "bootstrap_ci",
        S("bootstrap_ci"),
        {
            "x": bad_1d(),
            "y": bad_1d(),
            "confidence_level": bad_scalars(),
            "n_resamples": bad_scalars(),
            "method": bad_choices(),
            "alternative": bad_choices(),
        },
        {"x": PERF[:6, 0], "y": PERF[:6, 1], "n_resamples": 99, "random_state": 0},
    ),
    (
        "error_rate_intervals",
        S("error_rate_intervals"),
        {
            "b": bad_1d(2),
            "c": bad_1d(2),
            "n": bad_scalars(),
            "confidence_level": bad_scalars(),
            "labels": bad_names(),
            "adjust": bad_choices(),
        },
        {"b": [5, 3], "c": [10, 4], "n": 100},
    ),
    (
        "friedman_test",
        S("friedman_test"),
        {"scores": bad_2d()},
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "global_permutation_test",
        S("global_permutation_test"),
        {"performance": bad_2d(), "n_resamples": bad_scalars()},
        {"performance": PERF, "n_resamples": 99, "random_state": 0},
    ),
    (
        "mcnemar_test",
        S("mcnemar_test"),
        {"b": bad_scalars(), "c": bad_scalars(), "n": bad_scalars()},
        {"b": 5, "c": 10, "n": 100},
    ),
    (
        "multiple_rule_bias",
        S("multiple_rule_bias"),
        {
            "true_error": bad_2d((3, 4)),
            "estimated_error": bad_2d((3, 4)),
            "n_collections": bad_scalars(),
            "dataset_names": bad_names(),
        },
        {
            "true_error": rng.uniform(0.1, 0.3, (3, 4)),
            "estimated_error": rng.uniform(0.1, 0.3, (3, 4)),
            "n_collections": 5,
            "random_state": 0,
        },
    ),
    (
        "n_datasets_needed",
        S("n_datasets_needed"),
        {
            "delta": bad_scalars(),
            "sigma": bad_scalars(),
            "power": bad_scalars(),
            "alpha": bad_scalars(),
            "alternative": bad_choices(),
            "method": bad_choices(),
            "max_datasets": bad_scalars(),
        },
        {"delta": 0.05, "sigma": 0.1},
    ),
    (
        "paired_test",
        S("paired_test"),
        {
            "x": bad_1d(),
            "y": bad_1d(),
            "method": bad_choices(),
            "alternative": bad_choices(),
            "zero_method": bad_choices(),
            "n_resamples": bad_scalars(),
            "test_train_ratio": bad_scalars(),
            "axis": bad_scalars(),
        },
        {"x": PERF[:6, 0], "y": PERF[:6, 1]},
    ),
    (
        "simultaneous_intervals",
        S("simultaneous_intervals"),
        {
            "estimate": bad_1d(3),
            "standard_error": bad_1d(3),
            "df": bad_scalars(),
            "confidence_level": bad_scalars(),
            "adjust": bad_choices(),
            "alternative": bad_choices(),
        },
        {
            "estimate": [0.02, -0.01, 0.03],
            "standard_error": [0.01, 0.02, 0.01],
            "df": 7,
        },
    ),
    (
        "power_paired_t",
        S("power_paired_t"),
        {
            "n_datasets": bad_scalars(),
            "delta": bad_scalars(),
            "sigma": bad_scalars(),
            "alpha": bad_scalars(),
            "alternative": bad_choices(),
        },
        {"n_datasets": 10, "delta": 0.05, "sigma": 0.1},
    ),
    (
        "smallest_attainable_pvalue",
        S("smallest_attainable_pvalue"),
        {"method": bad_choices(), "n": bad_scalars(), "alternative": bad_choices()},
        {"method": "wilcoxon", "n": 5},
    ),
    (
        "bayesian_correlated_t",
        S("bayesian_correlated_t"),
        {
            "x": bad_1d(8),
            "y": bad_1d(8),
            "delta": bad_scalars(),
            "labels": bad_names(),
            "greater_is_better": bad_choices(),
            "rho": bad_scalars(),
            "axis": bad_scalars(),
        },
        {"x": PERF[:, 0], "y": PERF[:, 1], "rho": 0.2, "greater_is_better": True},
    ),
    (
        # bad inputs are refused before any MCMC; a valid call would sample
        # (the valid draws are few, so a slip costs seconds, not minutes)
        "bayesian_hierarchical",
        S("bayesian_hierarchical"),
        {
            "x": bad_2d((4, 5)),
            "y": bad_2d((4, 5)),
            "rho": bad_scalars(),
            "confidence_level": bad_scalars(),
        },
        {
            "x": rng.uniform(0.1, 0.3, size=(4, 5)),
            "y": rng.uniform(0.1, 0.3, size=(4, 5)),
            "delta": 0.01,
            "rho": 0.2,
            "greater_is_better": False,
            "n_chains": 1,
            "n_draws": 50,
            "n_warmup": 50,
        },
    ),
    # -- Bayesian Plackett–Luce ranking (issue 23): bad inputs are refused before any
    # MCMC; a valid call samples few draws (1 chain x 50)
    (
        "bayesian_plackett_luce",
        S("bayesian_plackett_luce"),
        {
            "scores": bad_2d((6, 3)),
            "greater_is_better": bad_choices(),
            "prior": bad_scalars(),
            "confidence_level": bad_scalars(),
            "n_draws": bad_scalars(),
        },
        {
            "scores": PERF,
            "greater_is_better": False,
            "n_chains": 1,
            "n_draws": 50,
            "n_warmup": 50,
        },
    ),
    (
        "BenchmarkResult.bayesian_ranking",
        _method("bayesian_ranking"),
        {"learners": bad_names(), "metric": bad_choices(), "prior": bad_scalars()},
        {"n_draws": 200, "random_state": 0},
    ),
    (
        "plot_rank_posterior",
        _rank_plot,
        {"result": bad_choices(), "title": bad_names()},
        {},
    ),
    (
        "bayesian_sign_test",
        S("bayesian_sign_test"),
        {
            "x": bad_1d(8),
            "y": bad_1d(8),
            "delta": bad_scalars(),
            "labels": bad_names(),
            "greater_is_better": bad_choices(),
            "prior_strength": bad_scalars(),
            "n_draws": bad_scalars(),
        },
        {
            "x": PERF[:, 0],
            "y": PERF[:, 1],
            "n_draws": 500,
            "random_state": 0,
            "greater_is_better": True,
        },
    ),
    (
        "bayesian_signed_rank",
        S("bayesian_signed_rank"),
        {
            "x": bad_1d(8),
            "y": bad_1d(8),
            "delta": bad_scalars(),
            "labels": bad_names(),
            "greater_is_better": bad_choices(),
            "prior_strength": bad_scalars(),
            "n_draws": bad_scalars(),
        },
        {
            "x": PERF[:, 0],
            "y": PERF[:, 1],
            "n_draws": 500,
            "random_state": 0,
            "greater_is_better": True,
        },
    ),
    (
        "effect_size",
        S("effect_size"),
        {
            "x": bad_1d(),
            "y": bad_1d(),
            "method": bad_choices(),
            "alternative": bad_choices(),
            "zero_method": bad_choices(),
        },
        {"x": PERF[:6, 0], "y": PERF[:6, 1]},
    ),
    (
        "generalization_error_interval",
        S("generalization_error_interval"),
        {
            "losses": BAD_TABLES,
            "method": bad_choices(),
            "variance": bad_choices(),
            "baseline": bad_1d(20),
        },
        {"losses": LOSS_TABLE, "method": "corrected_t"},
    ),
    (
        "generalization_error_interval.632plus",
        S("generalization_error_interval"),
        {
            "losses": BAD_TABLES,
            "train_counts": bad_2d((3, 6)),
            "apparent": bad_scalars(),
            "no_information": bad_scalars(),
        },
        {
            "losses": OOB_TABLE,
            "method": "632plus",
            "train_counts": OOB_COUNTS,
            "apparent": 0.1,
            "no_information": 0.5,
        },
    ),  # fmt: skip
    (
        "cv_auc_interval",
        S("cv_auc_interval"),
        {
            "y_true": bad_1d(20),
            "y_score": bad_1d(20),
            "folds": bad_1d(20),
            "baseline": bad_1d(20),
        },
        {
            "y_true": np.arange(20) % 2,
            "y_score": rng.normal(size=20),
            "folds": np.arange(20) // 10,
        },
    ),  # fmt: skip
    (
        "pairwise_tests",
        S("pairwise_tests"),
        {
            "scores": bad_2d((8, 3)),
            "method": bad_choices(),
            "adjust": bad_choices(),
            "alpha": bad_scalars(),
            "zero_method": bad_choices(),
            "greater_is_better": bad_choices(),
            "missing": bad_choices(),
        },
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "skillings_mack_test",
        S("skillings_mack_test"),
        {
            "scores": bad_2d((8, 3)),
            "greater_is_better": bad_choices(),
            "n_resamples": bad_scalars(),
            "random_state": bad_choices(),
        },
        {"scores": PERF, "greater_is_better": False},
    ),
    # issue 24 (scikit-posthocs / PMCMRplus / scmamp): rank tests over blocks
    (
        "quade_test",
        S("quade_test"),
        {"scores": bad_2d((8, 3)), "greater_is_better": bad_choices()},
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "durbin_test",
        S("durbin_test"),
        {"scores": bad_2d((8, 3)), "greater_is_better": bad_choices()},
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "friedman_aligned_ranks_test",
        S("friedman_aligned_ranks_test"),
        {
            "scores": bad_2d((8, 3)),
            "greater_is_better": bad_choices(),
            "alignment": bad_choices(),
        },
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "BootstrapOOB",
        _splitter("BootstrapOOB"),
        {"n_bootstraps": bad_scalars(), "random_state": bad_scalars(), "X": bad_2d()},
        {},
    ),
    (
        "StratifiedBootstrapOOB",
        _splitter("StratifiedBootstrapOOB"),
        {"n_bootstraps": bad_scalars(), "y": bad_1d(30)},
        {},
    ),
    (
        "BootstrapCV",
        _splitter("BootstrapCV"),
        {"n_bootstraps": bad_scalars(), "n_folds": bad_scalars(), "X": bad_2d()},
        {},
    ),
    (
        "StratifiedBootstrapCV",
        _splitter("StratifiedBootstrapCV"),
        {"n_folds": bad_scalars(), "y": bad_1d(30)},
        {},
    ),
    (
        "NestedCV",
        _design("NestedCV", n_splits=3, n_repeats=1, random_state=0),
        {
            "n_splits": bad_scalars(),
            "n_repeats": bad_scalars(),
            "random_state": bad_scalars(),
            "X": bad_2d(),
        },
        {},
    ),
    (
        "PairedSubsampling",
        _design("PairedSubsampling", n_subsamples=2, n_pairs=1, random_state=0),
        {
            "n_subsamples": bad_scalars(),
            "n_pairs": bad_scalars(),
            "train_size": bad_scalars(),
            "X": bad_2d(),
        },
        {},
    ),
    ("replicate_ids", _replicate_ids, {"cv": bad_scalars(), "X": bad_2d()}, {}),
    (
        "Bootstrap632Scorer",
        _scorer632,
        {"loss": bad_choices(), "plus": bad_choices(), "X": bad_2d(), "y": bad_1d(30)},
        {},
    ),
    (
        "Dataset",
        _dataset,
        {"X": bad_2d(), "y": bad_1d(30), "X_test": bad_2d(), "groups": bad_1d(30)},
        {},
    ),
    (
        "SimulatedDataset",
        _simulated,
        {
            "sampler": bad_choices(),
            "n_train": bad_scalars(),
            "n_test": bad_scalars(),
            "n_replicates": bad_scalars(),
        },
        {},
    ),
    (
        "make_angle_classification",
        _datasets("make_angle_classification"),
        {
            "n_samples": bad_scalars(),
            "angle": bad_scalars(),
            "random_state": bad_scalars(),
        },
        {"n_samples": 20, "angle": 30.0, "random_state": 0},
    ),
    (
        "make_microarray",
        _datasets("make_microarray"),
        {
            "n_samples": bad_scalars(),
            "n_features": bad_scalars(),
            "n_global_markers": bad_scalars(),
            "block_size": bad_scalars(),
        },
        {
            "n_samples": 20,
            "n_features": 200,
            "n_global_markers": 2,
            "n_heterogeneous_markers": 4,
            "n_high_variance": 20,
            "block_size": 2,
            "random_state": 0,
        },
    ),
    (
        "make_nested_linear",
        _datasets("make_nested_linear"),
        {"n_samples": bad_scalars(), "beta2": bad_scalars(), "beta1": bad_scalars()},
        {"n_samples": 20, "beta2": 1.0, "random_state": 0},
    ),
    ("load_demsar2006", _datasets("load_demsar2006"), {"wide": bad_choices()}, {}),
    (
        "load_dietterich2000",
        _datasets("load_dietterich2000"),
        {"wide": bad_choices()},
        {"wide": True},
    ),
    (
        "DiagonalLDA",
        _dlda,
        {"priors": bad_choices(), "X": bad_2d(), "y": bad_1d(30)},
        {},
    ),
    ("welch_t_score", _welch, {"X": bad_2d(), "y": bad_1d(30)}, {}),
    (
        "BenchmarkExperiment",
        _experiment_fit,
        {
            "learners": bad_names(),
            "cv": bad_scalars(),
            "scoring": bad_choices(),
            "random_state": bad_scalars(),
            "error_score": bad_choices(),
            "n_jobs": Bad([0, 2.5, "2", -(10**6)]),
            "datasets": Bad(
                [
                    {},
                    [],
                    {"d": None},
                    {"d": (X6, Y6[:5])},
                    {1: (X6, Y6)},
                    [("d", (X6, Y6))] * 2,
                    "d",
                ]
            ),
        },
        {},
    ),
    (
        "ErrorEstimatedLearner",
        _error_estimated,
        {
            "error_estimators": bad_choices(),
            "X": bad_2d(),
            "y": bad_1d(30),
            "random_state": bad_scalars(),
        },
        {},
    ),
    (
        "make_metric",
        _metric,
        {
            "score_func": bad_choices(),
            "greater_is_better": bad_choices(),
            "response_method": bad_choices(),
            "task": bad_choices(),
        },
        {},
    ),
    (
        "unconditional_error",
        _unconditional,
        {
            "n_train": bad_scalars(),
            "n_replicates": bad_scalars(),
            "n_test": bad_scalars(),
            "sampler": bad_choices(),
            "learners": bad_names(),
        },
        {},
    ),
    (
        "collect_rule_errors",
        _rule_errors,
        {
            "n_train": bad_scalars(),
            "n_samples": bad_scalars(),
            "n_test": bad_scalars(),
            "rules": bad_names(),
            "data": bad_names(),
        },
        {},
    ),
    (
        "BenchmarkResult",
        _benchmark_result,
        {
            "metrics": bad_names(),
            "datasets": bad_names(),
            "learners": bad_names(),
            "scores": bad_2d(),
        },
        {},
    ),
    (
        "BenchmarkResult.from_frame",
        _from_frame,
        {
            "value": Bad(
                [
                    [0.1, "a", 0.2, 0.3],
                    [None] * 4,
                    [1j] * 4,
                    ["x"] * 4,
                    [[1], [2], [3], [4]],
                ],
                _injected((4,)),
            ),
            "dataset": bad_choices(),
            "greater_is_better": bad_choices(),
        },
        {},
    ),
    (
        "BenchmarkResult.paired_test",
        _method("paired_test"),
        {
            "a": bad_choices(),
            "dataset": bad_choices(),
            "method": bad_choices(),
            "metric": bad_choices(),
            "alternative": bad_choices(),
            "scale": bad_choices(),
        },
        {"a": "A", "b": "B"},
    ),
    (
        "BenchmarkResult.confidence_interval",
        _method("confidence_interval"),
        {
            "b": bad_choices(),
            "confidence_level": bad_scalars(),
            "method": bad_choices(),
            "scale": bad_choices(),
        },
        {"a": "A", "b": "B"},
    ),
    (
        "BenchmarkResult.friedman",
        _method("friedman"),
        {"dataset": bad_choices(), "metric": bad_choices()},
        {},
    ),
    (
        "BenchmarkResult.power",
        _method("power"),
        {"a": bad_choices(), "delta": bad_scalars(), "alpha": bad_scalars()},
        {"a": "A", "b": "B", "delta": 0.05},
    ),
    (
        "BenchmarkResult.win_tie_loss",
        _method("win_tie_loss"),
        {"delta": bad_scalars(), "metric": bad_choices()},
        {},
    ),
    (
        "BenchmarkResult.bayesian_test",
        _method("bayesian_test"),
        {
            "a": bad_choices(),
            "dataset": bad_choices(),
            "delta": bad_scalars(),
            "metric": bad_choices(),
            "method": bad_choices(),
            "prior_strength": bad_scalars(),
            "n_draws": bad_scalars(),
        },
        {"a": "A", "b": "B", "delta": 0.01, "n_draws": 500, "random_state": 0},
    ),
    (
        "BenchmarkResult.bayesian_comparisons",
        _method("bayesian_comparisons"),
        {
            "learners": bad_names(),
            "control": bad_choices(),
            "dataset": bad_choices(),
            "delta": bad_scalars(),
        },
        {"delta": 0.01, "n_draws": 500, "random_state": 0},
    ),
    (
        "BenchmarkResult.pairwise_tests",
        _method("pairwise_tests"),
        {
            "method": bad_choices(),
            "adjust": bad_choices(),
            "alpha": bad_scalars(),
            "metric": bad_choices(),
            "dataset": bad_choices(),
            "missing": bad_choices(),
            "zero_method": bad_choices(),
        },
        {},
    ),
    (
        "BenchmarkResult.skillings_mack_test",
        _method("skillings_mack_test"),
        {"metric": bad_choices(), "n_resamples": bad_scalars()},
        {},
    ),
    (
        "BenchmarkResult.win_tie_loss.test",
        _method("win_tie_loss"),
        {"test": bad_choices(), "alpha": bad_scalars()},
        {"test": "t"},
    ),
    (
        "BenchmarkResult.aggregate",
        _method("aggregate"),
        {"stat": bad_choices(), "metric": bad_choices()},
        {},
    ),
    ("salvage_store", _store_fn("salvage_store"), {"path": bad_paths()}, {}),
    (
        "merge_stores",
        _merge(listed=False),
        {"sources": bad_names(), "target": bad_paths()},
        {"sources": []},
    ),
    ("merge_stores.listed", _merge(listed=True), {"sources": bad_paths()}, {}),
    ("checkpoint_store", _store_fn("checkpoint_store"), {"path": bad_paths()}, {}),
    ("read_store", _store_api("read_store"), {"path": bad_paths()}, {}),
    ("read_predictions", _store_api("read_predictions"), {"path": bad_paths()}, {}),
    ("verify_checksums", _store_api("verify_checksums"), {"path": bad_paths()}, {}),
    ("read_salvageable", _store_api("read_salvageable"), {"path": bad_paths()}, {}),
    ("StoreWriter", _store_api("StoreWriter"), {"path": bad_paths()}, {}),
    (
        "open_writer",
        _store_api("open_writer", overwrite=False),
        {"path": bad_paths()},
        {},
    ),
    ("plot_confidence_intervals", _ci_plot, {"intervals": bad_2d()}, {}),
    (
        "plot_critical_difference",
        _cd_plot,
        {"alpha": bad_scalars(), "method": bad_choices()},
        {},
    ),
    (
        "performance_distribution",
        _perf_plot,
        {"dataset": bad_choices(), "metric": bad_choices()},
        {},
    ),
    ("plot_multiple_rule_bias", _rule_bias_plot, {"result": bad_choices()}, {}),
    (
        "plot_datasets_needed",
        lambda **k: __import__(
            "sklearn_bench.plotting", fromlist=["x"]
        ).plot_datasets_needed(**k),
        {"sigma": bad_scalars(), "delta": bad_scalars(), "power": bad_scalars()},
        {"sigma": 0.1, "delta": 0.05},
    ),
    (
        "plot_power_curve",
        lambda **k: __import__(
            "sklearn_bench.plotting", fromlist=["x"]
        ).plot_power_curve(**k),
        {"delta": bad_scalars(), "sigma": bad_scalars(), "alpha": bad_scalars()},
        {"delta": 0.05, "sigma": 0.1},
    ),
    (
        "plot_bayesian_posterior",
        _bayes_plot("plot_bayesian_posterior"),
        {"result": bad_choices(), "title": bad_names()},
        {},
    ),
    (
        "plot_bayesian_posterior",
        _bayes_plot("plot_bayesian_posterior", "correlated_t"),
        {"result": bad_choices(), "max_points": bad_scalars()},
        {},
    ),
    (
        "plot_pairwise_significance",
        _pairwise_plot,
        {"result": bad_choices(), "label": bad_names()},
        {},
    ),
    (
        "plot_pairwise_significance.matrix",
        _pairwise_plot,
        {"significant": bad_2d((3, 3)), "average_ranks": bad_1d(3)},
        {"significant": SIGNIFICANT, "average_ranks": [1.5, 2.0, 2.5]},
    ),
    (
        "plot_win_tie_loss",
        _wtl,
        {"counts": bad_2d(), "delta": bad_scalars()},
        {},
    ),
    # any value has a description (its repr at worst): no bad input to fuzz
    ("describe", _describe, {}, {"value": 0.5}),
    # a label for any name, cut and drawn literally (issue 29.8)
    (
        "figure_label",
        _figure_label,
        {"name": Bad(HOSTILE_NAMES), "max_length": bad_scalars()},
        {"name": "a"},
    ),
    (
        "analyse",
        _analyse,
        {
            "metric": bad_choices(),
            "confidence_level": bad_scalars(),
            "delta": bad_scalars(),
            "target_power": bad_scalars(),
            "analyses": bad_names(),
        },
        {},
    ),
    ("format_summary", _summary, {"analysis": bad_choices()}, {}),
    (
        "escape_latex",
        _escape_latex,
        {"text": bad_choices()},
        {"text": "a_b"},
    ),
    (
        "latex_frame",
        _latex_frame,
        {
            "frame": bad_2d(),
            "caption": bad_choices(),
            "digits": bad_scalars(),
        },
        {"frame": pd.DataFrame({"x": [0.5, 1.25]}, index=["a", "b"]), "caption": "c"},
    ),
    (
        "latex_table",
        _latex_table,
        {
            "metric": bad_choices(),
            "stat": bad_choices(),
            "alpha": bad_scalars(),
            "digits": bad_scalars(),
            "adjust": bad_choices(),
            "method": bad_choices(),
        },
        {},
    ),
    (
        "learner_table",
        _learner_table,
        {"result": bad_choices()},
        {"result": RESULT},
    ),
    (
        "metric_bounds",
        _metric_bounds,
        {"metric": bad_choices()},
        {"metric": "error_rate"},
    ),
    (
        "write_report",
        _write_report,
        {"out_dir": bad_paths(), "figure_formats": bad_choices()},
        {"out_dir": "rep"},
    ),
    # -- leaderboards (issue 22) ------------------------------------------------
    (
        "leaderboard_table",
        S("leaderboard_table"),
        {
            "scores": bad_2d(),
            "greater_is_better": bad_choices(),
            "reference": bad_choices(),
            "reference_rating": bad_scalars(),
            "rank_by": bad_choices(),
            "n_resamples": bad_sizes(),
            "confidence_level": bad_scalars(),
        },
        {
            "scores": PERF,
            "n_resamples": 50,
            "random_state": 0,
            "greater_is_better": False,
        },
    ),
    (
        "win_rate_matrix",
        S("win_rate_matrix"),
        {"scores": bad_2d(), "greater_is_better": bad_choices()},
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "rank_confidence_sets",
        S("rank_confidence_sets"),
        {
            "estimate": bad_1d(3),
            "bootstrap_draws": bad_2d((8, 3)),
            "greater_is_better": bad_choices(),
            "confidence_level": bad_scalars(),
            "simultaneous": bad_choices(),
            "learners": bad_names(),
        },
        {
            "estimate": PERF.mean(axis=0),
            "bootstrap_draws": PERF,
            "greater_is_better": True,
        },
    ),
    (
        "BenchmarkResult.leaderboard",
        _method("leaderboard"),
        {
            "metric": bad_choices(),
            "reference": bad_choices(),
            "reference_rating": bad_scalars(),
            "n_resamples": bad_sizes(),
            "confidence_level": bad_scalars(),
            "rank_by": bad_choices(),
        },
        {"n_resamples": 50, "random_state": 0},
    ),
    (
        "BenchmarkResult.win_rate_matrix",
        _method("win_rate_matrix"),
        {"metric": bad_choices()},
        {},
    ),
    (
        "plot_rank_intervals",
        lambda **k: __import__(
            "sklearn_bench.plotting", fromlist=["x"]
        ).plot_rank_intervals(**k),
        {"leaderboard": bad_choices()},
        {"leaderboard": RESULT.leaderboard(n_resamples=20, random_state=0)},
    ),
    (
        "plot_win_rate_matrix",
        lambda **k: __import__(
            "sklearn_bench.plotting", fromlist=["x"]
        ).plot_win_rate_matrix(**k),
        {"matrix": bad_2d(), "annotate": bad_choices()},
        {"matrix": RESULT.win_rate_matrix()},
    ),
    # -- issue 24, peers (autorank, mlxtend, scikit-posthocs plots) ---------------
    ("rm_anova", S("rm_anova"), {"scores": bad_2d()}, {"scores": PERF}),
    (
        "tukey_hsd",
        S("tukey_hsd"),
        {
            "scores": bad_2d(),
            "design": bad_choices(),
            "alpha": bad_scalars(),
            "greater_is_better": bad_choices(),
        },
        {"scores": PERF, "greater_is_better": False},
    ),
    (
        "cochrans_q",
        S("cochrans_q"),
        {"y_true": bad_1d(), "predictions": bad_2d()},
        {"y_true": LABELS, "predictions": PREDICTIONS},
    ),
    (
        "proportion_difference_test",
        S("proportion_difference_test"),
        {
            "proportion_1": bad_scalars(),
            "proportion_2": bad_scalars(),
            "n_1": bad_scalars(),
            "n_2": bad_scalars(),
            "alternative": bad_choices(),
        },
        {"proportion_1": 0.8, "proportion_2": 0.7, "n_1": 50},
    ),
    (
        "bias_variance_decomposition",
        _bias_variance,
        {
            "loss": bad_choices(),
            "n_rounds": bad_sizes(),
            "y_test": bad_1d(3),
            "cv": bad_choices(),
        },
        {},
    ),
    (
        "plot_significance_table",
        _sign_table("plot_significance_table"),
        {"result": bad_2d((3, 3)), "levels": bad_1d(2), "annotate": bad_choices()},
        {},
    ),
    (
        "plot_critical_difference.colors",
        _cd_plot,
        {"colors": bad_choices()},
        {"colors": {"A": "red"}},
    ),
    (
        "plot_critical_difference.tukey",
        _tukey_plot,
        {"colors": bad_choices()},
        {},
    ),
    # -- issue 51: sequential studies -------------------------------------------
    (
        "sequential_test",
        S("sequential_test"),
        {
            "differences": bad_1d(8),
            "bounds": Bad([None, (1, 0), (0,), ("a", 1), (0, float("nan"))]),
            "delta": bad_scalars(),
            "alpha": bad_scalars(),
        },
        {
            "differences": np.linspace(-0.05, 0.1, 8),
            "bounds": (0.0, 1.0),
            "delta": 0.01,
        },
    ),
    (
        "race",
        S("race"),
        {
            "performance": bad_2d((8, 3)),
            "bounds": Bad([None, (1, 0), (0,), ("a", 1), (0, float("nan"))]),
            "delta": bad_scalars(),
            "alpha": bad_scalars(),
            "learners": bad_names(),
        },
        {
            "performance": rng.uniform(0.1, 0.3, (8, 3)),
            "bounds": (0.0, 1.0),
            "delta": 0.01,
            "learners": ["a", "b", "c"],
        },
    ),
    (
        "SequentialRule",
        lambda **kw: _sequential_rule(**kw).check(["error_rate"]),
        {
            "delta": bad_scalars(),
            "alpha": bad_scalars(),
            "max_fits": bad_scalars(),
            "metric": bad_choices(),
            "bounds": Bad([(1, 0), (0,), ("a", 1)]),
        },
        {},
    ),
    # -- end of issue 24, peers ---------------------------------------------------
]

CASES = [
    (case, call, {a: bad_sizes() if a in SIZE_ARGS else b for a, b in args.items()}, kw)
    for case, call, args, kw in CASES
]

# Public names that are not called with inputs: result classes (built by the
# functions above and fuzzed through them), exceptions, the version string.
NOT_CALLED = {
    "__version__", "FriedmanResult", "GlobalPermutationResult",
    "PairedTestResult", "Bootstrap632Result", "Metric",
    "RuleErrors", "UnconditionalErrorResult", "CorruptStoreError", "SalvageReport",
    "NotAStoreError", "StoreMismatchError", "Task", "SCHEMA_VERSION",
    "Analysis", "TestRecord", "BayesianTestResult", "EffectSizeResult",
    "AnalysisPlan", "BottomLine", "Disagreement", "LeaderboardAnalysis",
    "PowerAnalysis", "BestLearners",
    "RaceResult", "SequentialTestResult", "SequentialStudy",  # issue 51
    "PairwiseTestResult",
    "BlockTestResult",  # issue 24
    "LeaderboardResult",
    "RMAnovaResult",  # issue 24
    "BiasVarianceResult",  # issue 24, peers
    "PlackettLuceResult",
    "ConfidenceInterval",
    "GeneralizationErrorResult",  # built by generalization_error_interval
    "IncommensurableScalesWarning",  # a warning class, raised by the analyses
}  # fmt: skip
# Results whose NaN is documented: case -> where it is documented.
DOCUMENTED_NAN = {
    "mcnemar_test": "PairedTestResult: without the test-set size `n` the estimate "
    "(b − c)/n is NaN",
    "analyse": "Analysis: a test that could not run leaves its row NaN (n = 0) "
    "and says why in notes (here: no split sizes, so no test within a data set)",
    "leaderboard_table": "LeaderboardResult: the win-rate matrix's diagonal is NaN "
    "(a learner does not play itself); improvability is NaN with negative values "
    "(a note says so)",
    "win_rate_matrix": "win_rate_matrix: the diagonal is NaN; a pair without a "
    "common data set is NaN",
    "BenchmarkResult.win_rate_matrix": "the diagonal is NaN (stats.win_rate_matrix)",
    "multiple_rule_bias": "MultipleRuleBiasResult: the comparative advantages are "
    "NaN for r = 1 (one rule, nothing to compare)",
    "BenchmarkResult.friedman": "FriedmanResult: iman_davenport_statistic and "
    "_pvalue are NaN when every block ranks the learners in the same order (as "
    "in RESULT, where A is always better)",
}


def test_every_public_name_is_fuzzed():
    """H: every name in the __all__ of every subpackage is either fuzzed by a case
    below or a result/exception class built by those calls."""
    fuzzed = {name.split(".")[0] for name, *_ in CASES}
    for module_name in SUBPACKAGES:
        module = importlib.import_module(module_name)
        for name in module.__all__:
            assert name in fuzzed or name in NOT_CALLED, f"{module_name}.{name}"


# An argument that is a learner, data set or rule may be named by what it is.
ALIASES = {
    "a": ["learner"], "b": ["learner"], "control": ["learner"],
    "learners": ["learner", "Learner"],
    "datasets": ["Data set", "data set"], "dataset": ["Data set", "data set"],
    "rules": ["rule", "Rule"], "data": ["Data set", "data set"],
}  # fmt: skip
# scikit-learn-compatible estimators answer bad X and y with scikit-learn's own
# validation (check_array / check_X_y / check_classification_targets), whose
# messages parametrize_with_checks expects; that is their documented answer.
SKLEARN_VALIDATION = ("/sklearn/utils/validation.py", "/sklearn/utils/multiclass.py")
ESTIMATOR_XY = {"DiagonalLDA", "welch_t_score", "ErrorEstimatedLearner",
                "Bootstrap632Scorer"}  # fmt: skip


# Cases whose only argument is the one fuzzed (no valid value is written down).
NO_VALID_CALL = {"salvage_store", "checkpoint_store", "read_store", "read_predictions",
                 "verify_checksums", "read_salvageable", "StoreWriter", "open_writer",
                 "plot_confidence_intervals",
                 "plot_multiple_rule_bias", "format_summary"}  # fmt: skip


# Cases that sample with the optional NumPyro back end: without the [bayes] extra
# they skip, saying why (under CI=true they run, and fail if it is missing).
NEEDS_BAYES = {"bayesian_hierarchical"}
_BAYES_MISSING = (
    importlib.util.find_spec("numpyro") is None
    and os.environ.get("CI", "").lower() != "true"
)


def _marks(case):
    if case in NEEDS_BAYES and _BAYES_MISSING:
        reason = 'needs the [bayes] extra (pip install "sklearn-bench[bayes]")'
        return [pytest.mark.skip(reason=reason)]
    return []


@pytest.mark.parametrize(
    "case, call, kwargs",
    [pytest.param(c, f, kw, id=c, marks=_marks(c))
     for c, f, _, kw in CASES if c not in NO_VALID_CALL],
)  # fmt: skip
def test_the_valid_call_of_each_case_runs(case, call, kwargs, tmp_path):
    """H: the valid call each fuzz case starts from runs without error, so an error
    after one bad argument is about that argument."""
    kwargs = dict(kwargs)
    if "tmp" in call.__code__.co_varnames[: call.__code__.co_argcount]:
        kwargs["tmp"] = tmp_path
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        call(**kwargs)
    matplotlib.pyplot.close("all")


def _names_argument(message, arg):
    forms = [f"`{arg}`", f"'{arg}'", f"{arg}=", f"Input {arg}", f'"{arg}"',
             f"{arg} must", f"{arg} has", f"{arg} is"]  # fmt: skip
    forms += ALIASES.get(arg, [])
    return any(form in message for form in forms)


# Arguments that are paths of files or folders: the bad path itself, quoted in the
# message ("The store '/tmp/.../x' is a directory"), names what is wrong.
PATH_ARGS = ("path", "out_dir", "sources", "target")


def _names_path(message, arg, tmp):
    return arg in PATH_ARGS and str(tmp) in message


def _sklearn_answer(case, arg, exc):
    """scikit-learn's validation of an estimator's X or y (see ESTIMATOR_XY)."""
    if case not in ESTIMATOR_XY or arg not in ("X", "y"):
        return False
    tb = exc.__traceback__
    files = []
    while tb is not None:
        files.append(tb.tb_frame.f_code.co_filename)
        tb = tb.tb_next
    return any(any(v in f for v in SKLEARN_VALIDATION) for f in files)


def _origin(exc):
    tb = exc.__traceback__
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code.co_filename


def _numbers(value, depth=0):
    """Every float inside a result (dataclass fields, tuples, frames, arrays)."""
    if depth > 3:
        return
    if isinstance(value, float | np.floating):
        yield float(value)
    elif isinstance(value, np.ndarray) and value.dtype.kind == "f":
        yield from value.ravel().tolist()
    elif isinstance(value, pd.DataFrame | pd.Series):
        numeric = value.select_dtypes("number") if value.ndim == 2 else value
        if value.ndim == 1 and value.dtype.kind != "f":
            return
        yield from np.asarray(numeric, dtype=float).ravel().tolist()
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            if f.repr:
                yield from _numbers(getattr(value, f.name), depth + 1)
    elif isinstance(value, tuple | list) and len(value) < 1000:
        for item in value:
            yield from _numbers(item, depth + 1)


def check_call(case, call, arg, value, kwargs, tmp):
    """Call with one bad argument; a clear error or a NaN-free result."""
    N_BAD_INPUTS.add((case, arg, repr(value)[:200]))
    kwargs = dict(kwargs)
    kwargs[arg] = value
    if "tmp" in call.__code__.co_varnames[: call.__code__.co_argcount]:
        kwargs["tmp"] = tmp
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            out = call(**kwargs)
            figure = getattr(out, "figure", None)
            if figure is not None and _hostile(value):  # mathtext parses at draw
                figure.canvas.draw()
    except (ValueError, TypeError) as exc:
        message = str(exc)
        origin = _origin(exc)
        if _sklearn_answer(case, arg, exc):
            return
        assert not any(part in origin for part in FOREIGN), (
            f"{case}({arg}={value!r}) raised from inside {origin}: "
            f"{type(exc).__name__}: {message}\n{traceback.format_exc()}"
        )
        assert _names_argument(message, arg) or _names_path(message, arg, tmp), (
            f"{case}({arg}={value!r}): the message does not name `{arg}`: "
            f"{type(exc).__name__}: {message}"
        )
        return
    except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as exc:
        # The operating system's answer for a path argument names the path.
        assert arg in PATH_ARGS or _names_argument(str(exc), arg), (
            f"{case}({arg}={value!r}): {type(exc).__name__}: {exc}"
        )
        return
    except OSError as exc:
        # A hostile name used as a path (10,000 characters): the system's
        # "File name too long", which names the path.
        if exc.errno != errno.ENAMETOOLONG or arg not in PATH_ARGS:
            raise
        return
    finally:
        matplotlib.pyplot.close("all")
        if isinstance(value, str) and value == "LINK":  # never through a link
            assert not (Path(tmp) / "elsewhere.sqlite").exists(), (
                f"{case}({arg}=a dangling link) wrote where the link points"
            )
        if isinstance(value, str) and value == "HARDLINK":  # nor a hard link
            assert (Path(tmp) / "outside.txt").read_text() == "the user's", (
                f"{case}({arg}=a hard link) wrote into the file's other name"
            )
    nan = [v for v in _numbers(out) if isinstance(v, float) and math.isnan(v)]
    assert not nan or case in DOCUMENTED_NAN, (
        f"{case}({arg}={value!r}) returned a NaN without saying so: {out!r}"
    )


_PARAMS = [
    pytest.param(
        case, call, arg, strategy, kwargs, id=f"{case}-{arg}", marks=_marks(case)
    )
    for case, call, args, kwargs in CASES
    for arg, strategy in args.items()
]


@pytest.mark.parametrize("case, call, arg, strategy, kwargs", _PARAMS)
def test_bad_input_gets_a_clear_answer(case, call, arg, strategy, kwargs,
                                       tmp_path_factory):  # fmt: skip
    """H: one bad argument (each fixed bad value of its kind, then hypothesis's
    draws) gives a ValueError/TypeError naming it (not raised inside
    numpy/pandas/scipy/sqlite3), or a result without an unexplained NaN."""

    for value in strategy.fixed:
        check_call(case, call, arg, value, kwargs, tmp_path_factory.mktemp("fuzz"))

    @FUZZ
    @given(value=strategy.strategy)
    def run(value):
        tmp = tmp_path_factory.mktemp("fuzz")
        check_call(case, call, arg, value, kwargs, Path(tmp))

    run()
