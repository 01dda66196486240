"""Across-data-set differences on incommensurable scales (Demšar 2006, Sec. 3.1):
``scale="raw"`` warns when the data sets' scales differ by a factor of 100 or
more, ``"relative"`` divides by the pair's average on each data set, ``"rank"``
uses the ranks among all learners (1 = the smallest value)."""

import warnings

import numpy as np

from .._validation import check_member
from . import _select

SCALES = ("raw", "relative", "rank")
SCALE_SPREAD_WARN = 100.0  # largest / smallest per-data-set scale that warns
# Methods that average raw differences (the others rank them).
_AVERAGING = ("t", "corrected_t", "permutation", "bootstrap")


class IncommensurableScalesWarning(UserWarning):
    """Per-data-set performances differ by orders of magnitude across data sets."""


def scale_spread(table):
    """``(largest / smallest scale, smallest's data set, largest's)`` of a data
    sets x learners table, a data set's scale being its mean absolute value;
    ``inf`` when one scale is zero and another is not, 1 when all are."""
    scale = table.abs().mean(axis=1)
    low, high = scale.idxmin(), scale.idxmax()
    if scale[high] == 0:
        return 1.0, str(low), str(high)
    spread = np.inf if scale[low] == 0 else float(scale[high] / scale[low])
    return spread, str(low), str(high)


def scale_note(table, metric):
    """One sentence saying that the scales differ, or ``None`` when they do not."""
    if len(table) < 2 or ((table >= 0) & (table <= 1)).all().all():
        return None
    spread, low, high = scale_spread(table)
    if not spread >= SCALE_SPREAD_WARN:
        return None
    times = "infinitely" if np.isinf(spread) else f"{spread:.3g} times"
    return (
        f"The scales of {metric} differ by orders of magnitude across data sets "
        f"({times} larger on {high!r} than on {low!r}), so a mean of differences "
        "is that of the largest scale (Demšar 2006, Sec. 3.1). Prefer "
        "scale='relative' or scale='rank', or method='wilcoxon'."
    )


def check_scales(table, metric, *, stacklevel=3):
    """Warn (and return the message) when the scales differ by orders of
    magnitude."""
    note = scale_note(table, metric)
    if note is not None:
        warnings.warn(note, IncommensurableScalesWarning, stacklevel=stacklevel)
    return note


def relative(table, metric):
    """Each data set's performances divided by their mean there (all positive)."""
    bad = table.index[(table <= 0).any(axis=1) | ~np.isfinite(table).all(axis=1)]
    if len(bad):
        raise ValueError(
            f"scale='relative' needs positive performances; {metric} is not "
            f"positive on data set {bad[0]!r} ({table.loc[bad[0]].to_dict()}). "
            "Use scale='rank'."
        )
    return table.div(table.mean(axis=1), axis=0)


def check_scale_argument(scale, dataset):
    """Check ``scale``; within a data set (one scale) only ``"raw"`` is allowed."""
    check_member(scale, SCALES, "scale")
    if dataset is not None and scale != "raw":
        raise ValueError(
            f"`scale` must be 'raw' within a data set (one scale); got {scale!r}."
        )


def pair(
    result, a, b, *, metric, dataset=None, scale="raw", method="t", with_dropped=False
):
    """:func:`_select.pair` on the scale asked for (across data sets), with
    the warning of ``"raw"`` for the methods that average differences."""
    check_scale_argument(scale, dataset)
    if dataset is not None:
        return _select.pair(
            result, a, b, metric=metric, dataset=dataset, with_dropped=with_dropped
        )
    x, y, scope, n_dropped = _select.pair(
        result, a, b, metric=metric, with_dropped=True
    )
    out = _scaled(result, a, b, x, y, scope, metric=metric, scale=scale, method=method)
    return (*out, n_dropped) if with_dropped else out


def _scaled(result, a, b, x, y, scope, *, metric, scale, method):
    a, b = str(a), str(b)
    table = _select.blocks(result, [a, b], metric=metric, drop_failed=True)
    if scale == "raw":
        if method in _AVERAGING:
            check_scales(table, metric, stacklevel=5)
        return x, y, scope
    if scale == "relative":
        table = relative(table, metric)
        words = "relative to the pair's mean on each data set"
    else:
        learners = list(result.learners)
        table = _select.blocks(result, learners, metric=metric).rank(axis=1)
        words = f"as ranks among {len(learners)} learners (1 = smallest)"
    return table[a].to_numpy(), table[b].to_numpy(), f"{scope}, {words}"
