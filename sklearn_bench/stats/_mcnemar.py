"""McNemar's test and the Quesenberry–Hurst interval: two classifiers, one test
set (Berrar & Lozano 2013, eqs. (2), (4)–(5) and Table 2)."""

from functools import partial
from numbers import Integral

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_choice, check_confidence_level, real_array
from ._common import ConfidenceInterval
from ._paired import PairedTestResult, _binomial_pvalue

_ADJUST = ("holm", "bonferroni", "none")  # of _text.ADJUST_METHODS


def _check_count(value, name):
    if isinstance(value, float | np.floating) and float(value).is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, Integral) or value < 0:
        raise ValueError(f"`{name}` must be a non-negative integer; got {value!r}.")
    return int(value)


def _check_discordant(b, c, n):
    b, c = _check_count(b, "b"), _check_count(c, "c")
    if n is not None:
        n = _check_count(n, "n")
        if n == 0:
            raise ValueError("`n` must be a positive integer (the test-set size).")
        if b + c > n:
            raise ValueError(
                f"`b` + `c` = {b + c} exceeds the test-set size `n` = {n}."
            )
    return b, c, n


def _qh_bounds(b, c, n, critical_value):
    """Signed Quesenberry–Hurst bounds for ``(b − c)/n`` at χ²₁ critical values
    (arrays of pairs, or scalars)."""
    pb, pc = b / n, c / n
    denominator = n + critical_value
    centre = n * (pb - pc) / denominator
    radicand = critical_value * ((pb + pc) * denominator - n * (pb - pc) ** 2)
    half_width = np.sqrt(np.maximum(radicand, 0.0)) / denominator
    return centre - half_width, centre + half_width


def _qh_interval(b, c, n, confidence_level):
    """:meth:`PairedTestResult.confidence_interval` of :func:`mcnemar_test`."""
    if n is None:
        raise ValueError(
            "McNemar's interval needs the test-set size: pass `n` to mcnemar_test."
        )
    low, high = _qh_bounds(b, c, n, float(stats.chi2.ppf(confidence_level, 1)))
    # asymptotic (chi-square): the nominal level
    return ConfidenceInterval(float(low), float(high), confidence_level)


def mcnemar_test(b, c, *, n=None, correction=True, exact=False):
    """McNemar's test for two classifiers evaluated on the same test set.

    Berrar & Lozano (2013), eq. (2): ``X² = (|b − c| − 1)² / (b + c)`` (Yates)
    or ``(b − c)² / (b + c)`` against χ²₁, or the exact binomial test. With
    ``n``, the estimate is err(A) − err(B) = ``(b − c)/n`` and its interval the
    Quesenberry–Hurst / May–Johnson one (eqs. (4)–(5); :ref:`intervals`).

    Parameters
    ----------
    b : int
        Number of test cases misclassified by A but not by B.
    c : int
        Number of test cases misclassified by B but not by A.
    n : int, default=None
        Size of the test set, for the estimate and its interval.
    correction : bool, default=True
        Yates' correction, ``max(|b − c| − 1, 0)²`` as R's ``mcnemar.test``.
    exact : bool, default=False
        The exact binomial test (R's ``binom.test(b, b + c)``) instead.

    Returns
    -------
    PairedTestResult
        ``method`` ``"mcnemar-chi2-yates"``, ``"mcnemar-chi2"`` or
        ``"mcnemar-exact"``; ``statistic`` ``X²`` (``b`` for the exact form, as
        R's ``binom.test``); ``n`` the discordant cases ``b + c``; ``details``
        ``b``, ``c`` and ``n_test``; no effect size.

    Notes
    -----
    ``b + c = 0`` gives ``statistic = 0``, ``pvalue = 1`` (R: NaN) and the
    interval ``[0, 0]``. The interval is signed, not clipped to ``[−1, 1]``.

    Examples
    --------
    >>> from sklearn_bench.stats import mcnemar_test
    >>> res = mcnemar_test(3, 21)
    >>> round(res.statistic, 3), round(res.pvalue, 6)
    (12.042, 0.00052)
    >>> ci = mcnemar_test(3, 21, n=50).confidence_interval()  # Berrar's pair (1, 4)
    >>> round(ci.low, 3), round(ci.high, 3)
    (-0.495, -0.174)
    """
    b, c, n = _check_discordant(b, c, n)
    m = b + c
    if exact:
        method, statistic, df = "exact", float(b), None
        pvalue = _binomial_pvalue(b, m, "two-sided")
    else:
        method, df = ("chi2-yates" if correction else "chi2"), 1
        diff = max(abs(b - c) - 1, 0) if correction else abs(b - c)
        statistic = diff**2 / m if m else 0.0
        pvalue = float(stats.chi2.sf(statistic, 1)) if m else 1.0
    return PairedTestResult(
        float(statistic),
        pvalue,
        df,
        (b - c) / n if n else np.nan,
        m,
        f"mcnemar-{method}",
        "two-sided",
        "H0: P(A wrong, B right) = P(A right, B wrong)",
        details={"b": b, "c": c, "n_test": n},
        _interval=partial(_qh_interval, b, c, n),
    )


def error_rate_intervals(
    b, c, n, *, labels=None, confidence_level=0.95, adjust="holm", correction=True
):
    """Berrar & Lozano (2013)'s Table 2 for many pairs of classifiers on one test set.

    For every pair: McNemar's test (χ² and exact), the adjusted level, its χ²₁
    critical value and :func:`mcnemar_test`'s interval at that level (Berrar &
    Lozano 2013, Sections 6–8; the misprinted row (4, 5) in :ref:`intervals`).

    Parameters
    ----------
    b, c : array-like of int, shape (m,)
        Per pair, errors of the first classifier only and of the second only.
    n : int
        Size of the test set.
    labels : sequence of str, default=None
        Pair labels such as ``"(1,4)"``; default ``"0"``, ``"1"``, ...
    confidence_level : float, default=0.95
        Family-wise level of the intervals, ``1 − α``.
    adjust : {"holm", "bonferroni", "none"}, default="holm"
        ``"holm"``: the pairs are ranked by McNemar's statistic, largest first, and
        the pair of rank ``k`` gets ``α_k = α/(m − k + 1)`` (the paper's α column;
        ties keep input order). ``"bonferroni"``: ``α/m`` for all. ``"none"``: ``α``.
    correction : bool, default=True
        Yates' correction in the χ² statistic (the paper's choice).

    Returns
    -------
    table : pandas.DataFrame
        One row per pair, sorted by decreasing statistic: ``b, c, statistic,
        pvalue, exact_pvalue, alpha, critical_value, estimate, low, high``.

    Examples
    --------
    >>> from sklearn_bench.stats import error_rate_intervals
    >>> table = error_rate_intervals([3, 0], [21, 2], 50, labels=["(1,4)", "(1,2)"])
    >>> table[["statistic", "alpha", "low", "high"]].round(3)
           statistic  alpha    low   high
    pair
    (1,4)     12.042  0.025 -0.509 -0.145
    (1,2)      0.500  0.050 -0.090  0.015
    """
    b, c = real_array(b, "b"), real_array(c, "c")
    if b.ndim != 1 or c.ndim != 1 or b.shape != c.shape or b.size == 0:
        raise ValueError("`b` and `c` must be non-empty 1-d arrays of equal length.")
    m = b.size
    labels = [str(i) for i in range(m)] if labels is None else list(labels)
    if len(labels) != m:
        raise ValueError(f"`labels` has {len(labels)} entries; `b` has {m}.")
    # 1 − 0.95 is 0.050000000000000044: rounded, the α column is the paper's
    alpha = round(1 - check_confidence_level(confidence_level), 12)
    adjust = check_choice(adjust, _ADJUST, "adjust")
    rows = []
    for bi, ci in zip(b.tolist(), c.tolist(), strict=True):
        bi, ci, n = _check_discordant(bi, ci, _check_count(n, "n"))
        test = mcnemar_test(bi, ci, correction=correction)
        rows.append(
            {"b": bi, "c": ci, "statistic": test.statistic, "pvalue": test.pvalue,
             "exact_pvalue": _binomial_pvalue(bi, bi + ci, "two-sided")}
        )  # fmt: skip
    table = pd.DataFrame(rows, index=pd.Index(labels, name="pair"))
    table = table.iloc[np.argsort(-table["statistic"].to_numpy(), kind="stable")]
    divisor = {"holm": m - np.arange(m), "bonferroni": m, "none": 1}[adjust]
    table["alpha"] = alpha / divisor
    table["critical_value"] = stats.chi2.isf(table["alpha"].to_numpy(), 1)
    table["estimate"] = (table["b"] - table["c"]) / n
    b, c = table[["b", "c"]].to_numpy(float).T
    table["low"], table["high"] = _qh_bounds(
        b, c, n, table["critical_value"].to_numpy()
    )
    return table
