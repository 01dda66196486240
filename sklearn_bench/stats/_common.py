"""Pieces shared by the tests of :mod:`sklearn_bench.stats` (the argument checks
live in :mod:`sklearn_bench._validation`)."""

from collections import namedtuple
from dataclasses import fields

import numpy as np

from .._validation import check_axis, real_array, real_number

# Differences are rounded to this many decimals to find zeros, ties and constant
# differences, so that floating-point noise (0.3 - 0.1 against 0.2) neither makes
# nor breaks a tie.
_DECIMALS = 10

__all__ = [
    "ConfidenceInterval",
    "monte_carlo_pvalue",
    "real_array",
    "real_number",
]


class ConfidenceInterval(namedtuple("_ConfidenceInterval", ["low", "high"])):
    """A confidence interval ``(low, high)`` and the level it achieves.

    It unpacks as ``low, high = ci``; bounds may be ``-inf``/``inf``.

    Attributes
    ----------
    low, high : float
        The bounds.
    confidence_level : float or None
        The coverage the interval achieves (a rank-based interval can only take
        the levels of its discrete null distribution); ``None`` if unknown.

    Examples
    --------
    >>> from sklearn_bench.stats import ConfidenceInterval
    >>> ci = ConfidenceInterval(-0.5, 1.5, confidence_level=0.875)
    >>> low, high = ci
    >>> low, high, ci.confidence_level
    (-0.5, 1.5, 0.875)
    """

    def __new__(cls, low, high, confidence_level=None):
        self = super().__new__(cls, low, high)
        # An attribute, not a third field, so that ``low, high = ci`` still
        # unpacks and ``tuple(ci)`` stays ``(low, high)``.
        object.__setattr__(self, "_confidence_level", confidence_level)
        return self

    @property
    def confidence_level(self):
        return getattr(self, "_confidence_level", None)

    def _replace(self, **kwargs):
        low = kwargs.pop("low", self.low)
        high = kwargs.pop("high", self.high)
        level = kwargs.pop("confidence_level", self.confidence_level)
        if kwargs:
            raise ValueError(f"Got unexpected field names: {sorted(kwargs)!r}")
        return type(self)(low, high, level)

    def __repr__(self):
        if self.confidence_level is None:
            return f"ConfidenceInterval(low={self.low!r}, high={self.high!r})"
        return (
            f"ConfidenceInterval(low={self.low!r}, high={self.high!r}, "
            f"confidence_level={self.confidence_level!r})"
        )

    def __reduce__(self):
        return (type(self), (self.low, self.high, self.confidence_level))


def monte_carlo_pvalue(n_extreme, n_resamples):
    """``(p, standard_error)`` of a randomised test whose ``n_resamples``
    resamples gave ``n_extreme`` statistics at least as extreme as the observed,
    which counts among them (as ``scipy.stats.permutation_test``)."""
    p = (n_extreme + 1) / (n_resamples + 1)
    return p, float(np.sqrt(p * (1 - p) / n_resamples))


def _check_paired(x, y, axis=None):
    """``x − y`` as a C-contiguous float array, the pairs on its last axis:
    ``axis=None`` for 1-D inputs, else SciPy's ``ttest_rel`` broadcasting."""
    x, y = real_array(x, "x"), real_array(y, "y")
    if axis is None:
        if x.ndim != 1 or y.ndim != 1:
            raise ValueError("`x` and `y` must be one-dimensional.")
        axis = 0
    try:
        shape = np.broadcast_shapes(x.shape, y.shape)
    except ValueError:
        shape = None
    if shape is not None and shape:
        axis = check_axis(axis, len(shape))
        sx, sy = ((1,) * (len(shape) - a.ndim) + a.shape for a in (x, y))
    if not shape or sx[axis] != sy[axis]:
        raise ValueError(
            "`x` and `y` must have the same length along `axis` and broadcast "
            f"against each other; got shapes {x.shape} and {y.shape}."
        )
    d = np.ascontiguousarray(np.moveaxis(x - y, axis, -1))
    if d.shape[-1] == 0:
        raise ValueError("`x` and `y` must not be empty.")
    if np.isnan(d).any():
        raise ValueError(
            "`x` and `y` must not contain NaN (a failed task?); drop or impute "
            "those pairs first."
        )
    if not np.isfinite(d).all():
        raise ValueError("`x` and `y` must be finite.")
    return d


def _sample(values, name, min_size=1):
    """``values`` as a finite one-dimensional float array of ``min_size`` or more."""
    a = real_array(values, name)
    if a.ndim != 1 or a.size < min_size:
        what = (
            "non-empty one-dimensional array"
            if min_size == 1
            else f"one-dimensional array of at least {min_size} values"
        )
        raise ValueError(f"`{name}` must be a {what}.")
    if not np.isfinite(a).all():
        raise ValueError(f"`{name}` must be finite (no NaN).")
    return a


def _differences(x, y):
    """``x − y`` (or ``x`` when ``y`` is None) of paired samples."""
    d = _sample(x, "x", 1)
    if y is not None:
        y = _sample(y, "y", 1)
        if y.shape != d.shape:
            raise ValueError(
                f"`x` and `y` must have the same length; got {d.size} and {y.size}."
            )
        d = d - y
    return d


def _scalar(value):
    """A 0-d array or numpy scalar as a float; an array of a batch as it is."""
    value = np.asarray(value)
    return float(value) if value.ndim == 0 else value


def _validate_scores(scores, name="scores", *, allow_nan=False):
    """``(values, learners, blocks)`` of a blocks x learners table; NaN cells
    pass with ``allow_nan=True``."""
    import pandas as pd  # here: a model that needs no table loads no pandas

    frame = isinstance(scores, pd.DataFrame)
    try:
        values = scores.to_numpy(dtype=float) if frame else np.asarray(scores, float)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"`{name}` must hold numbers.") from exc
    if values.ndim != 2:
        raise ValueError(
            f"`{name}` must be two-dimensional (blocks x learners); got "
            f"{values.ndim} dimension(s)."
        )
    learners = list(scores.columns) if frame else list(range(values.shape[1]))
    blocks = list(scores.index) if frame else list(range(values.shape[0]))
    if len(set(learners)) != len(learners):
        raise ValueError(f"The learners (columns) of `{name}` must be unique.")
    n_blocks, n_learners = values.shape
    if n_learners < 2:
        raise ValueError(
            f"`{name}` must have at least 2 learners (columns); got {n_learners}."
        )
    if n_blocks < 2:
        raise ValueError(
            f"`{name}` must have at least 2 blocks (rows); got {n_blocks}."
        )
    nan = np.isnan(values)
    if nan.any() and not allow_nan:
        row, col = np.argwhere(nan)[0]
        raise ValueError(
            f"`{name}` contains NaN: learner {learners[col]!r} on block "
            f"{blocks[row]!r} ({int(nan.sum())} NaN value(s) in all)."
        )
    if np.isinf(values).any():
        row, col = np.argwhere(np.isinf(values))[0]
        raise ValueError(
            f"`{name}` contains an infinite value: learner {learners[col]!r} on "
            f"block {blocks[row]!r}."
        )
    return values, learners, blocks


def _direction(greater_is_better):
    """``greater_is_better`` of a test on a block design, a bool (else a
    ``ValueError``)."""
    if not isinstance(greater_is_better, bool | np.bool_):
        raise ValueError(
            f"`greater_is_better` must be a bool; got {greater_is_better!r}."
        )
    return greater_is_better


def _pair_matrix(frame, learners, column, diagonal):
    """Symmetric learners x learners DataFrame of ``column`` of a table of pairs
    (NaN, or False for ``"reject"``, where a pair was not compared)."""
    k = len(learners)
    boolean = column == "reject"
    mat = np.full(
        (k, k), False if boolean else np.nan, dtype=object if boolean else float
    )
    np.fill_diagonal(mat, diagonal)
    index = {name: i for i, name in enumerate(learners)}
    for row in frame.itertuples(index=False):
        a, b = index[row.learner_i], index[row.learner_j]
        mat[a, b] = mat[b, a] = getattr(row, column)
    import pandas as pd

    labels = pd.Index(learners, name="learner")
    out = pd.DataFrame(mat, index=labels, columns=labels)
    return out.astype(bool) if column == "reject" else out


def _plain(value):
    """A field's value as plain data: a pandas object as a dict, a tuple as a
    list, a numpy scalar as a Python number."""
    import pandas as pd

    if isinstance(value, pd.Series | pd.DataFrame):
        return value.to_dict()
    if isinstance(value, tuple):
        return list(value)
    return value.item() if isinstance(value, np.generic) else value


class _Fields:
    """``to_dict`` and ``to_frame`` of a result dataclass, from its fields and
    the properties a subclass lists in ``_also``."""

    _also = ()

    def to_dict(self):
        """The result's public fields, in order, as plain data (dicts, lists,
        Python numbers)."""
        names = [f.name for f in fields(self) if not f.name.startswith("_")]
        return {name: _plain(getattr(self, name)) for name in [*names, *self._also]}

    def to_frame(self):
        """One row of the scalar fields of :meth:`to_dict` (lists as tuples,
        ``notes`` as one string in the last column)."""
        record = self.to_dict()
        row = {
            k: str(tuple(v)) if isinstance(v, list) else v
            for k, v in record.items()
            if not isinstance(v, dict) and k != "notes"
        }
        if "notes" in record:
            row["notes"] = " ".join(record["notes"])
        import pandas as pd

        return pd.DataFrame([row])
