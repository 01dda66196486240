"""McNemar's test and the Quesenberry–Hurst interval: two classifiers, one test set.

Berrar & Lozano (2013), eqs. (2), (4)–(5) and Table 2; only the discordant counts
``b`` (errors of A only) and ``c`` (errors of B only) enter.
"""

from dataclasses import dataclass
from numbers import Integral

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_confidence_level as _check_confidence_level
from .._validation import check_fraction, check_member
from ._common import ConfidenceInterval, _Fields, real_array


def _check_count(value, name):
    if isinstance(value, bool) or not isinstance(value, Integral | np.integer):
        if isinstance(value, float | np.floating) and float(value).is_integer():
            value = int(value)
        else:
            raise ValueError(f"`{name}` must be a non-negative integer; got {value!r}.")
    if value < 0:
        raise ValueError(f"`{name}` must be a non-negative integer; got {value!r}.")
    return int(value)


def _check_discordant(b, c, n=None, *, needs_n=False):
    b = _check_count(b, "b")
    c = _check_count(c, "c")
    if n is None and needs_n:
        raise TypeError("`n` (the test-set size) must be a positive integer; got None.")
    if n is not None:
        n = _check_count(n, "n")
        if n == 0:
            raise ValueError("`n` must be a positive integer (the test-set size).")
        if b + c > n:
            raise ValueError(
                f"`b` + `c` = {b + c} exceeds the test-set size `n` = {n}."
            )
    return b, c, n


def _exact_binomial_pvalue(b, c):
    """Two-sided exact binomial p-value of ``b`` successes in ``b + c``, p = 1/2.

    For p = 1/2 the binomial distribution is symmetric, so R's rule (sum the
    probabilities no larger than that of the observed count) reduces to
    ``min(1, 2 P(B <= min(b, c)))``.
    """
    m = b + c
    if m == 0:
        return 1.0
    return float(min(1.0, 2.0 * stats.binom.cdf(min(b, c), m, 0.5)))


@dataclass(frozen=True)
class McNemarResult(_Fields):
    """Result of :func:`mcnemar_test`.

    Attributes
    ----------
    statistic : float
        ``X²`` for the χ² forms; ``b`` (as R's ``binom.test``) for the exact form.
    pvalue : float
        Two-sided p-value.
    b, c : int
        Discordant counts: errors of A only, errors of B only.
    method : str
        ``"chi2-yates"``, ``"chi2"`` or ``"exact-binomial"``.
    null_hypothesis : str
        The null hypothesis in words.

    Examples
    --------
    >>> from sklearn_bench.stats import mcnemar_test
    >>> res = mcnemar_test(0, 2)                   # Berrar & Lozano, pair (1, 2)
    >>> res.method, round(res.statistic, 2), round(res.pvalue, 2)
    ('chi2-yates', 0.5, 0.48)
    """

    statistic: float
    pvalue: float
    b: int
    c: int
    method: str
    null_hypothesis: str = "H0: P(A wrong, B right) = P(A right, B wrong)"


def mcnemar_test(b, c, *, correction=True, exact=False):
    """McNemar's test for two classifiers evaluated on the same test set.

    Berrar & Lozano (2013), eq. (2): ``X² = (|b − c| − 1)² / (b + c)`` with Yates'
    continuity correction (the paper's Table 2), ``(b − c)² / (b + c)`` without,
    referred to χ² with 1 df; or the exact binomial (sign) test of ``b`` out of
    ``b + c`` at probability 1/2.

    Parameters
    ----------
    b : int
        Number of test cases misclassified by A but not by B.
    c : int
        Number of test cases misclassified by B but not by A.
    correction : bool, default=True
        Apply Yates' correction to the χ² form. As in R's ``mcnemar.test``, the
        corrected numerator is ``max(|b − c| − 1, 0)²``, so ``b = c`` gives 0.
    exact : bool, default=False
        Use the exact two-sided binomial test (R's ``binom.test(b, b + c)``)
        instead of the χ² approximation; ``correction`` is then ignored.

    Returns
    -------
    McNemarResult

    Notes
    -----
    With no discordant pair (``b + c = 0``) the two classifiers erred on exactly
    the same cases; there is no evidence of a difference and the result is
    ``statistic = 0``, ``pvalue = 1`` (R returns ``NaN`` for the χ² form). Only
    ``b`` and ``c`` matter; the concordant counts do not enter.

    Examples
    --------
    >>> from sklearn_bench.stats import mcnemar_test
    >>> res = mcnemar_test(3, 21)
    >>> round(res.statistic, 3), round(res.pvalue, 6)
    (12.042, 0.00052)
    >>> round(mcnemar_test(3, 21, exact=True).pvalue, 6)
    0.000277
    """
    b, c, _ = _check_discordant(b, c)
    if exact:
        return McNemarResult(
            float(b), _exact_binomial_pvalue(b, c), b, c, "exact-binomial"
        )
    method = "chi2-yates" if correction else "chi2"
    m = b + c
    if m == 0:
        return McNemarResult(0.0, 1.0, b, c, method)
    diff = abs(b - c)
    if correction:
        diff = max(diff - 1, 0)
    statistic = diff**2 / m
    return McNemarResult(
        float(statistic), float(stats.chi2.sf(statistic, 1)), b, c, method
    )


def _qh_bounds(b, c, n, critical_value):
    """Signed Quesenberry–Hurst bounds for ``(b − c)/n`` at a χ²₁ critical value."""
    pb, pc = b / n, c / n
    denominator = n + critical_value
    centre = n * (pb - pc) / denominator
    radicand = critical_value * ((pb + pc) * denominator - n * (pb - pc) ** 2)
    half_width = np.sqrt(max(radicand, 0.0)) / denominator
    return centre - half_width, centre + half_width


def error_rate_difference_ci(b, c, n, *, confidence_level=0.95):
    """Quesenberry–Hurst / May–Johnson interval for err(A) − err(B) on one test set.

    Berrar & Lozano (2013), eqs. (4)–(5) (after Quesenberry & Hurst 1964 and May &
    Johnson 1997), solved for the *signed* difference ``δ = π_b − π_c``:

    ``[n d ∓ sqrt(χ² ((p_b + p_c)(n + χ²) − n d²))] / (n + χ²)``, with
    ``p_b = b/n``, ``p_c = c/n``, ``d = p_b − p_c`` and ``χ² = χ²_{1, level}``.

    Parameters
    ----------
    b : int
        Errors of A only (A wrong, B right).
    c : int
        Errors of B only (A right, B wrong).
    n : int
        Size of the test set.
    confidence_level : float, default=0.95
        For a Holm- or Bonferroni-adjusted interval pass ``1 − α_adjusted``.

    Returns
    -------
    ConfidenceInterval
        ``(low, high)`` for err(A) − err(B), whose point estimate is ``(b − c)/n``.

    Notes
    -----
    The paper writes the interval for the absolute difference ``|p_b − p_c|``.
    The inequality it solves (its eq. (3)/(A1)) depends on the difference only
    through ``(p_b − p_c − δ)²`` and ``δ²``, so solving it for the signed
    difference gives the same half-width around ``n (p_b − p_c)/(n + χ²)``: for
    ``b >= c`` this interval equals the paper's, for ``b < c`` it is the paper's
    interval negated (``[−high, −low]``). A negative error-rate difference means
    A errs less than B. Both bounds are shrunk towards 0 by ``n/(n + χ²)`` and
    are not clipped to ``[−1, 1]``. With ``b + c = 0`` the interval is ``[0, 0]``.

    Examples
    --------
    >>> from sklearn_bench.stats import error_rate_difference_ci
    >>> ci = error_rate_difference_ci(3, 21, 50)   # Berrar & Lozano, pair (1, 4)
    >>> round(ci.low, 3), round(ci.high, 3)
    (-0.495, -0.174)
    >>> ci = error_rate_difference_ci(3, 21, 50, confidence_level=1 - 0.005)
    >>> round(-ci.high, 3), round(-ci.low, 3)      # the paper's |p_b - p_c| form
    (0.087, 0.535)
    """
    b, c, n = _check_discordant(b, c, n, needs_n=True)
    level = _check_confidence_level(confidence_level)
    critical_value = float(stats.chi2.ppf(level, 1))
    low, high = _qh_bounds(b, c, n, critical_value)
    # asymptotic (chi-square): the nominal level
    return ConfidenceInterval(float(low), float(high), level)


_ADJUST = ("holm", "bonferroni", None)


def error_rate_intervals(
    b, c, n, *, labels=None, alpha=0.05, adjust="holm", correction=True
):
    """Berrar & Lozano (2013)'s Table 2 for many pairs of classifiers on one test set.

    For every pair: McNemar's test (χ², with Yates' correction by default, and
    exact), the adjusted significance level, its χ²₁ critical value and the
    Quesenberry–Hurst interval for err(i) − err(j) at that level (Berrar &
    Lozano 2013, Sections 6–8, Table 2, Figure 4).

    Parameters
    ----------
    b, c : array-like of int, shape (m,)
        Per pair, errors of the first classifier only and of the second only.
    n : int
        Size of the test set.
    labels : sequence of str, default=None
        Pair labels such as ``"(1,4)"``; default ``"0"``, ``"1"``, ...
    alpha : float, default=0.05
        Family-wise significance level.
    adjust : {"holm", "bonferroni", None}, default="holm"
        ``"holm"``: the pairs are ranked by McNemar's statistic, largest first, and
        the pair of rank ``k`` gets ``α_k = α/(m − k + 1)`` (the paper's α column;
        ties keep input order). ``"bonferroni"``: ``α/m`` for all. ``None``: ``α``.
    correction : bool, default=True
        Yates' correction in the χ² statistic (the paper's choice).

    Returns
    -------
    table : pandas.DataFrame
        One row per pair, index ``labels``, sorted by decreasing statistic, with
        columns ``b, c, statistic, pvalue, exact_pvalue, alpha, critical_value,
        estimate, low, high`` where ``estimate = (b − c)/n`` and ``[low, high]``
        is the signed interval of :func:`error_rate_difference_ci` at level
        ``1 − alpha`` of that row.

    Notes
    -----
    The Holm-adjusted intervals are Berrar & Lozano's construction: each pair's
    interval uses the level its test gets in Holm's step-down order. The paper's
    printed row (4, 5) (``X² = 0.7``, ``p = 0.40``) does not follow from
    ``b = 13, c = 10``; computed correctly that pair ranks 9th, not 7th, which
    changes ``alpha`` for rows (4, 5), (1, 2) and (3, 4).

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
    import pandas as pd

    b = real_array(b, "b")
    c = real_array(c, "c")
    if b.ndim != 1 or c.ndim != 1 or b.shape != c.shape or b.size == 0:
        raise ValueError("`b` and `c` must be non-empty 1-d arrays of equal length.")
    m = b.size
    if labels is None:
        labels = [str(i) for i in range(m)]
    labels = list(labels)
    if len(labels) != m:
        raise ValueError(f"`labels` has {len(labels)} entries; `b` has {m}.")
    alpha = check_fraction(alpha, "alpha")
    check_member(adjust, _ADJUST, "adjust")
    rows = []
    for bi, ci in zip(b.tolist(), c.tolist(), strict=True):
        bi, ci, n_checked = _check_discordant(bi, ci, n, needs_n=True)
        test = mcnemar_test(bi, ci, correction=correction)
        rows.append(
            {
                "b": bi,
                "c": ci,
                "statistic": test.statistic,
                "pvalue": test.pvalue,
                "exact_pvalue": _exact_binomial_pvalue(bi, ci),
            }
        )
    table = pd.DataFrame(rows, index=pd.Index(labels, name="pair"))
    order = np.argsort(-table["statistic"].to_numpy(), kind="stable")
    table = table.iloc[order]
    if adjust == "holm":
        table["alpha"] = alpha / (m - np.arange(m))
    elif adjust == "bonferroni":
        table["alpha"] = alpha / m
    else:
        table["alpha"] = alpha
    table["critical_value"] = stats.chi2.isf(table["alpha"].to_numpy(), 1)
    table["estimate"] = (table["b"] - table["c"]) / n_checked
    bounds = [
        _qh_bounds(bi, ci, n_checked, crit)
        for bi, ci, crit in zip(
            table["b"], table["c"], table["critical_value"], strict=True
        )
    ]
    table["low"] = [float(lo) for lo, _ in bounds]
    table["high"] = [float(hi) for _, hi in bounds]
    return table


# ---------------------------------- correctness tables of classifiers (issue 24)
def _labels(values, name):
    """A 1-D label array (any dtype but object soup), or a ValueError naming it."""
    if values is None or isinstance(values, str | bytes):
        raise ValueError(f"`{name}` must be a one-dimensional array of labels.")
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"`{name}` must be a one-dimensional array of labels: {exc}"
        ) from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(
            f"`{name}` must be a non-empty one-dimensional array of labels; got "
            f"shape {arr.shape}."
        )
    if arr.dtype.kind == "f" and np.isnan(arr).any():
        raise ValueError(f"`{name}` contains NaN.")
    if arr.dtype.kind == "O" and any(v is None for v in arr):
        raise ValueError(f"`{name}` contains None.")
    return arr


def _correctness(y_true, predictions, *, at_least=2):
    """``(correct, names)``: a (n_samples, K) bool matrix and the classifiers' names.

    ``predictions`` is a mapping name -> labels, a DataFrame (one column per
    classifier) or a 2-D array of shape (n_samples, n_classifiers).
    """
    y = _labels(y_true, "y_true")
    if isinstance(predictions, pd.DataFrame):
        names = list(predictions.columns)
        columns = [predictions[c].to_numpy() for c in names]
    elif isinstance(predictions, dict):
        names = list(predictions)
        columns = [predictions[c] for c in names]
    else:
        if predictions is None or isinstance(predictions, str | bytes):
            raise ValueError(
                "`predictions` must be a dict, a DataFrame or a 2-D array "
                "(n_samples, n_classifiers)."
            )
        try:
            arr = np.asarray(predictions)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"`predictions` must be a 2-D array: {exc}") from None
        if arr.ndim != 2:
            raise ValueError(
                "`predictions` must be a dict, a DataFrame or a 2-D array of shape "
                f"(n_samples, n_classifiers); got shape {arr.shape}."
            )
        names = list(range(arr.shape[1]))
        columns = list(arr.T)
    if len(set(names)) != len(names):
        raise ValueError("The classifiers' names in `predictions` must be unique.")
    if len(columns) < at_least:
        raise ValueError(
            f"`predictions` must hold at least {at_least} classifiers; got "
            f"{len(columns)}."
        )
    correct = []
    for name, column in zip(names, columns, strict=True):
        try:
            pred = _labels(column, "predictions")
        except ValueError as exc:
            raise ValueError(f"{exc} (classifier {name!r})") from None
        if pred.shape != y.shape:
            raise ValueError(
                f"`predictions` of classifier {name!r} has {pred.size} labels; "
                f"`y_true` has {y.size} (a 2-D array is (n_samples, n_classifiers))."
            )
        correct.append(pred == y)
    return np.column_stack(correct), names
