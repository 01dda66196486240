"""Data selection for the Bayesian comparisons of :class:`BenchmarkResult`: the
correlation ``rho`` of the correlated t-test from the units and ratio of the
corrected t, and Δ by the package's one default-Δ rule."""

import numpy as np

from .._metrics import DEFAULT_DELTA_REASON, default_delta
from .._validation import check_real
from . import _select, _within


def delta_for(result, metric, delta):
    """``delta`` checked, or the metric's default Δ (:func:`default_delta`, the
    rule the report and the analysis plan use); ``ValueError`` if it has none."""
    if delta is None:
        delta = default_delta(metric)
        if delta is None:
            raise ValueError(
                f"`delta` is required for metric {metric!r}: the smallest difference "
                "that matters (the region of practical equivalence is [-delta, "
                "delta]) is in the metric's units, and only metrics on a [0, 1] "
                f"scale have a default ({DEFAULT_DELTA_REASON})."
            )
        return delta
    return _select.check_delta(delta)


def correlated_splits(result, a, b, *, metric, dataset, rho=None):
    """``x, y, rho, scope, n_dropped``: the split scores of ``a`` and ``b`` on
    ``dataset`` on the units and ``r = n_test/n_train`` of ``method="corrected_t"``
    (:func:`._within.corrected_t_inputs`), and ``rho = r / (1 + r)`` (so the test
    with ``rope = 0`` is the one-sided corrected t) unless ``rho`` is given."""
    ratio = None
    if rho is not None:
        rho = check_real(rho, "rho")
        if not 0 <= rho < 1:
            raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
        ratio = rho / (1 - rho)
    try:
        x, y, ratio, _, scope, n_dropped = _within.corrected_t_inputs(
            result, a, b, metric=metric, dataset=dataset, test_train_ratio=ratio
        )
    except ValueError as exc:
        raise ValueError(
            str(exc).replace("`test_train_ratio`", "`rho`")
            + " (The Bayesian correlated t-test uses the units and correction of "
            "method='corrected_t'.)"
        ) from None
    if x.size < 2:
        raise ValueError(
            f"The Bayesian correlated t-test needs at least 2 splits of data set "
            f"{dataset!r}; got {x.size}"
            + _select.dropped_words(n_dropped, "split", a, b)
            + "."
        )
    if rho is None:
        rho = ratio / (1 + ratio)
    return x, y, float(rho), f"{scope}; rho = {rho:.4g}", n_dropped


def hierarchical_splits(result, a, b, *, metric, rho=None):
    """``x, y`` (data sets x scores), ``rho`` (one per data set), ``scope`` and
    ``n_dropped`` of every data set as :func:`correlated_splits` selects them; the
    model needs the same number of scores on every data set."""
    names = list(result.datasets)
    if len(names) < 1:
        raise ValueError("The hierarchical model needs at least one data set.")
    rows_x, rows_y, rhos, total_dropped = [], [], [], 0
    for name in names:
        x, y, r, _, n_dropped = correlated_splits(
            result, a, b, metric=metric, dataset=name, rho=rho
        )
        rows_x.append(x)
        rows_y.append(y)
        rhos.append(r)
        total_dropped += n_dropped
    sizes = {name: len(x) for name, x in zip(names, rows_x, strict=False)}
    if len(set(sizes.values())) > 1:
        raise ValueError(
            "The hierarchical model needs the same number of split scores on every "
            f"data set; got {sizes}"
            + _select.dropped_words(total_dropped, "split", a, b)
            + "."
        )
    rhos = np.asarray(rhos, dtype=float)
    rho_words = (
        f"rho = {rhos[0]:.4g}"
        if np.allclose(rhos, rhos[0])
        else f"rho from {rhos.min():.4g} to {rhos.max():.4g}"
    )
    scope = (
        f"{len(names)} data sets x {len(rows_x[0])} split scores (the units of "
        f"method='corrected_t'); {rho_words} from the split sizes"
        if rho is None
        else f"{len(names)} data sets x {len(rows_x[0])} split scores; rho = {rho}"
    )
    return np.vstack(rows_x), np.vstack(rows_y), rhos, scope, total_dropped
