"""Across-data-set differences on incommensurable scales (Demšar 2006, Section 3.1).

The paired t-test (and the t and bootstrap intervals) across data sets average the
per-data-set differences ``metric(a) − metric(b)``. That is meaningful only when the
differences are commensurable: a mean squared error of ~3000 on one data set and
~1.3 on another makes the average the first data set's difference alone. Demšar
(2006, Sec. 3.1.2-3.1.3) recommends the Wilcoxon signed-ranks test, or ranks, or a
relative measure. Here:

- :func:`scale_spread` measures how far apart the data sets' scales are, and
  :func:`check_scales` warns (:class:`IncommensurableScalesWarning`) when they
  differ by :data:`SCALE_SPREAD_WARN` (100, two orders of magnitude) or more and
  the values are not all in [0, 1] (error rates, accuracies and AUCs share one
  scale);
- ``scale="relative"`` of :meth:`BenchmarkResult.paired_test` and
  :meth:`BenchmarkResult.confidence_interval` divides both learners' mean
  performances on each data set by their average there, so the difference is
  ``2 (a − b) / (a + b)``: a fraction of the pair's performance, unit-free;
- ``scale="rank"`` replaces each data set's mean performances by their ranks
  among all learners on it (ties averaged, as in the Friedman test), ordered like
  the values (1 = the smallest), so a difference of ranks has the sign of the
  difference of the metric and the metric's direction still reads right.
"""

import warnings

import numpy as np

from .._validation import check_member
from . import _select

__all__ = ["IncommensurableScalesWarning", "check_scales", "scale_spread"]

SCALES = ("raw", "relative", "rank")
#: Largest / smallest per-data-set scale at which the warning is given.
SCALE_SPREAD_WARN = 100.0
#: Methods that average raw differences (the others rank them).
_AVERAGING = ("t", "corrected_t", "permutation", "bootstrap")


class IncommensurableScalesWarning(UserWarning):
    """Per-data-set performances differ by orders of magnitude across data sets."""


def scale_spread(table):
    """How far apart the data sets' scales are, and which data sets bound them.

    Parameters
    ----------
    table : DataFrame
        Data sets x learners of mean performances.

    Returns
    -------
    spread : float
        Largest / smallest per-data-set scale, where a data set's scale is the
        mean absolute performance of the learners on it; ``inf`` when a scale is
        zero and another is not, 1 for a single data set.
    smallest, largest : str
        The data sets of the smallest and the largest scale.

    Examples
    --------
    >>> import pandas as pd
    >>> from sklearn_bench.results._scales import scale_spread
    >>> mse = pd.DataFrame({"ridge": [3000.0, 1.3], "tree": [3400.0, 1.1]},
    ...                    index=["diabetes", "synthetic"])
    >>> spread, low, high = scale_spread(mse)
    >>> round(spread), low, high
    (2667, 'synthetic', 'diabetes')
    """
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
    """Warn when the data sets' scales differ by orders of magnitude.

    Parameters
    ----------
    table : DataFrame
        Data sets x learners of mean performances.
    metric : str
        For the message.
    stacklevel : int, default=3

    Returns
    -------
    note : str or None
        The warning's message, or ``None`` when nothing was warned.
    """
    note = scale_note(table, metric)
    if note is not None:
        warnings.warn(note, IncommensurableScalesWarning, stacklevel=stacklevel)
    return note


def _check_scale(scale):
    check_member(scale, SCALES, "scale")


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


def ranks(table):
    """Ranks of the learners on each data set, 1 = smallest value, ties averaged."""
    return table.rank(axis=1, method="average")


def check_scale_argument(scale, dataset):
    """Check ``scale``; within a data set (one scale) only ``"raw"`` is allowed."""
    _check_scale(scale)
    if dataset is not None and scale != "raw":
        raise ValueError(
            f"`scale` must be 'raw' within a data set (one scale); got {scale!r}."
        )


def pair(
    result, a, b, *, metric, dataset=None, scale="raw", method="t", with_dropped=False
):
    """``x, y, scope`` of :func:`_select.pair`, on the scale asked for.

    Across data sets (``dataset=None``), ``scale="raw"`` warns when the scales
    differ by orders of magnitude (for the methods that average differences);
    ``"relative"`` and ``"rank"`` transform the per-data-set means. Within a data
    set only ``"raw"`` is allowed. ``with_dropped=True`` appends the number of
    blocks dropped for failed tasks, as :func:`_select.pair`.
    """
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
        table = ranks(_select.blocks(result, learners, metric=metric))
        words = f"as ranks among {len(learners)} learners (1 = smallest)"
    return table[a].to_numpy(), table[b].to_numpy(), f"{scope}, {words}"
