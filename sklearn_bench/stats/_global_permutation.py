"""Hothorn et al.'s (2005, JCGS 14, Sec. 4.2) permutation test of K learners on
one data set, and its pairwise follow-up."""

import math
from dataclasses import dataclass, field
from itertools import combinations, permutations

import numpy as np
import pandas as pd

from .._validation import (
    check_alpha,
    check_confidence_level,
    check_member,
    check_positive_int,
    check_random_state,
)
from ._anova import _scaled, _sums_of_squares, _tukey_table
from ._common import _Fields, _validate_scores, monte_carlo_pvalue
from ._pairwise import PairwiseTestResult, pairs_frame

# Elements (resamples x replicates x learners) drawn per batch: bounds memory.
_BATCH_ELEMENTS = 2_000_000
# scipy.stats.permutation_test's tolerance for ">=" against floating-point noise.
_RTOL = 100 * np.finfo(float).eps


def _tstar(p):
    """t* of Hothorn et al. (2005), eq. (3), for a (B, K) performance matrix: 0
    for learners equal on every replicate, ``inf`` for an exactly additive table."""
    ss_learners, _, ss_error, _ = _sums_of_squares(p)
    if ss_learners == 0.0:
        return 0.0
    return np.inf if ss_error == 0.0 else ss_learners / p.shape[0] / ss_error


def _row_centred(x):
    """``x`` minus its row means, with rounding noise (``<= 1e-12 max|x|``) set to 0."""
    centred = x - x.mean(axis=1, keepdims=True)
    centred[np.abs(centred) <= 1e-12 * float(np.max(np.abs(x)))] = 0.0
    return centred


def _arranged_sums(x, total, indices):
    """``sum_k (sum_b x[b, pi_b(k)])²`` for ``total`` within-row arrangements
    ``pi``, ``indices(start, m)`` giving a batch's ``(m, B, K)`` of them: of
    row-centred ``x``, an increasing function of t* (the same test)."""
    n_rows, k = x.shape
    batch = max(1, _BATCH_ELEMENTS // (n_rows * k))
    out = np.empty(total)
    for start in range(0, total, batch):
        m = min(batch, total - start)
        idx = indices(start, m)
        perm = np.take_along_axis(np.broadcast_to(x, (m, n_rows, k)), idx, axis=-1)
        out[start : start + m] = np.sum(perm.sum(axis=1) ** 2, axis=-1)
    return out


def _null_sums(x, n_resamples, rng):
    """The sums for random within-row permutations."""
    return _arranged_sums(
        x, n_resamples, lambda _, m: rng.random((m, *x.shape)).argsort(axis=-1)
    )


def _exact_sums(x):
    """The sums for every one of the ``(K!)^B`` within-row arrangements."""
    perms = np.array(list(permutations(range(x.shape[1]))))
    shape = (len(perms),) * x.shape[0]

    def indices(start, m):
        codes = np.arange(start, start + m)
        return perms[np.stack(np.unravel_index(codes, shape), axis=1)]

    return _arranged_sums(x, len(perms) ** x.shape[0], indices)


def _count_ge(null, observed):
    return int(np.count_nonzero(null >= observed - _RTOL * abs(observed)))


def _partition_pvalue(x, groups, n_resamples, rng):
    """Monte Carlo p-value of "equal performance within each group": labels
    permuted within each group and row (for one group, the t* test of it)."""
    observed = 0.0
    null = np.zeros(n_resamples)
    for group in groups:
        xg = _row_centred(x[:, list(group)])
        observed += float(np.sum(xg.sum(axis=0) ** 2))
        null += _null_sums(xg, n_resamples, rng)
    p, _ = monte_carlo_pvalue(_count_ge(null, observed), n_resamples)
    return p


def _set_partitions(items):
    """All partitions of ``items`` into blocks (lists), recursively."""
    if len(items) == 1:
        yield [[items[0]]]
        return
    first, rest = items[0], items[1:]
    for part in _set_partitions(rest):
        for i in range(len(part)):
            yield part[:i] + [[first] + part[i]] + part[i + 1 :]
        yield [[first]] + part


def _closure_hypotheses(k):
    """The intersections of the pairwise hypotheses of ``k`` learners: the set
    partitions with a block of two or more (learners in one block equal)."""
    parts = _set_partitions(list(range(k)))
    groups = (tuple(tuple(sorted(b)) for b in part if len(b) >= 2) for part in parts)
    return [g for g in groups if g]


@dataclass(frozen=True)
class GlobalPermutationResult(_Fields):
    """Result of :func:`global_permutation_test`.

    Attributes
    ----------
    statistic : float
        Hothorn et al.'s t* (eq. (3)).
    pvalue : float
        Share of the permutations with t* at least the observed one.
    pvalue_standard_error : float
        Monte Carlo standard error of ``pvalue`` (0 when exact).
    exact : bool
        Whether all ``(K!)^B`` arrangements were enumerated.
    n_resamples : int
        Permutations drawn (or enumerated when ``exact``).
    n_replicates, n_learners : int
        ``B`` (rows) and ``K`` (columns).
    learner_means : pandas.Series
    method, null_hypothesis : str
    """

    statistic: float
    pvalue: float
    pvalue_standard_error: float
    exact: bool
    n_resamples: int
    n_replicates: int
    n_learners: int
    learner_means: pd.Series = field(compare=False)
    method: str = "Permutation test of t* (Hothorn et al. 2005, eq. (3))"
    null_hypothesis: str = (
        "H0: the performance distributions of all learners are equal "
        "(learner labels are exchangeable within each replicate)."
    )
    _performance: pd.DataFrame = field(repr=False, default=None, compare=False)
    _random_state: object = field(repr=False, default=None, compare=False)

    def pairwise(
        self,
        *,
        method: str = "auto",
        alpha: float = 0.05,
        confidence_level: float = 0.95,
        n_resamples: int | None = None,
        random_state=None,
    ):
        """All pairwise comparisons after the global test (Hothorn et al. 2005, 4.2).

        Parameters
        ----------
        method : {"auto", "closed", "tukey"}, default="auto"
            ``"closed"`` (``K <= 4``): the closed testing principle (Hochberg
            and Tamhane 1987), every intersection of pairwise hypotheses tested
            by the permutation test restricted to it; a pair's adjusted p-value
            is the largest of the hypotheses implying it. ``"tukey"``: Tukey's
            simultaneous intervals on the aligned performances, the ``"blocks"``
            design of :func:`tukey_hsd`. ``"auto"``: closed for ``K <= 4``.
        alpha : float, default=0.05
            Family-wise level of ``reject``.
        confidence_level : float, default=0.95
            Simultaneous confidence level of the Tukey intervals.
        n_resamples : int, default=None
            Permutations per hypothesis of the closed test (``None``: the
            global test's).
        random_state : int, numpy.random.Generator or None, default=None
            Of the closed test's permutations (``None``: the global test's).

        Returns
        -------
        PairwiseTestResult
            ``estimate``: mean of ``i`` minus mean of ``j``; ``ci_low``,
            ``ci_high``: Tukey's interval (NaN for the closed test);
            ``pvalue`` unadjusted, ``pvalue_adjusted`` the closed test's
            (``adjust="closed"``) or Tukey's (``"single_step"``).

        Examples
        --------
        >>> import numpy as np
        >>> from sklearn_bench.stats import global_permutation_test
        >>> rng = np.random.default_rng(0)
        >>> perf = rng.normal(0.2, 0.02, (50, 3)) + [0.0, 0.0, 0.03]
        >>> res = global_permutation_test(perf, n_resamples=999, random_state=0)
        >>> res.pairwise().to_frame()[["learner_i", "learner_j", "pvalue_adjusted"]]
           learner_i  learner_j  pvalue_adjusted
        0          0          1            0.136
        1          0          2            0.001
        2          1          2            0.001
        """
        check_member(method, ("auto", "closed", "tukey"), "method")
        alpha = check_alpha(alpha)
        if method == "auto":
            method = "closed" if self.n_learners <= 4 else "tukey"
        x = self._performance.to_numpy(dtype=float)
        learners = list(self._performance.columns)
        i, j = np.array(list(combinations(range(self.n_learners), 2))).T
        means = x.mean(axis=0)
        diff = means[i] - means[j]
        common = {"n": x.shape[0], "mean_difference": diff, "estimate": diff,
                  "statistic": diff}  # fmt: skip
        if method == "closed":
            if self.n_learners > 4:
                raise ValueError(
                    "`method`='closed' is limited to at most 4 learners (the closure "
                    f"grows as the Bell numbers); got {self.n_learners}. Use 'tukey'."
                )
            if n_resamples is None:
                n_resamples = self.n_resamples
            n_resamples = check_positive_int(n_resamples, "n_resamples")
            rng = check_random_state(
                self._random_state if random_state is None else random_state,
                keep_random_state=True,
            )
            hypotheses = _closure_hypotheses(self.n_learners)
            pvalues = {h: _partition_pvalue(x, h, n_resamples, rng) for h in hypotheses}
            raw = [pvalues[((a, b),)] for a, b in zip(i, j, strict=True)]
            adjusted = [
                max(p for h, p in pvalues.items() if any(a in g and b in g for g in h))
                for a, b in zip(i, j, strict=True)
            ]
            frame = pairs_frame(learners, i, j, adjusted, alpha, pvalue=raw, **common)
            level, name = None, "closed testing"
        else:
            level = check_confidence_level(confidence_level)
            b, k = x.shape
            # the "blocks" design of tukey_hsd: K independent aligned samples
            # (K (B - 1) df) rejected about twice as often as alpha
            df = (k - 1) * (b - 1)
            mse = _sums_of_squares(x)[2] / df
            table = _tukey_table(means, mse, df, b, level)
            frame = pairs_frame(
                learners, i, j, table["pvalue_adjusted"], alpha, ci_low=table["low"],
                ci_high=table["high"], ci_level=level, pvalue=table["pvalue"],
                **common,
            )  # fmt: skip
            name = "tukey (blocks)"
        return PairwiseTestResult(
            learners=tuple(learners),
            method=name,
            adjust="single_step" if level else "closed",
            alpha=alpha,
            confidence_level=level,
            n_blocks=x.shape[0],
            null_hypothesis=(
                "H0 (each pair): the two learners' performance distributions are "
                "equal (labels exchangeable within each replicate)"
            ),
            _frame=frame,
        )


def global_permutation_test(
    performance, *, n_resamples: int = 9999, random_state=None
) -> GlobalPermutationResult:
    """Permutation test of equal performance of K learners on one data set.

    Hothorn et al. (2005), Section 4.2, eq. (3)::

        t* = sum_k (mean_k - grand)² / sum_{k,b} (p_kb - rowmean_b - mean_k + grand)²

    for a dependent K samples design (``p_kb``: learner ``k`` on replicate
    ``b``), with labels permuted within each replicate (Pesarin 2001).

    Parameters
    ----------
    performance : DataFrame or array-like of shape (n_replicates, n_learners)
        One row per replicate, one column per learner (a DataFrame's columns name
        the learners).
    n_resamples : int, default=9999
        Number of random permutations. When all ``(K!)^B`` arrangements number no
        more than ``n_resamples`` they are enumerated instead and the p-value is
        exact.
    random_state : int, numpy.random.Generator, RandomState or None, default=None
        Seeds the permutations (and those of :meth:`~GlobalPermutationResult.pairwise`).

    Returns
    -------
    GlobalPermutationResult
        With :meth:`~GlobalPermutationResult.pairwise` for the follow-up.

    Notes
    -----
    As :func:`scipy.stats.permutation_test`, the observed arrangement counts
    among the resamples and ``>=`` allows a relative tolerance of ``100 eps``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import global_permutation_test
    >>> perf = np.array([[0.182, 0.175, 0.160], [0.201, 0.188, 0.195],
    ...                  [0.169, 0.172, 0.151], [0.190, 0.176, 0.170],
    ...                  [0.215, 0.219, 0.198], [0.177, 0.170, 0.166]])
    >>> res = global_permutation_test(perf, n_resamples=6**6)  # all arrangements
    >>> round(res.statistic, 4), round(res.pvalue, 5), res.exact
    (0.3481, 0.00836, True)
    """
    values, learners, replicates = _validate_scores(performance, name="performance")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    rng = check_random_state(random_state, keep_random_state=True)
    b, k = values.shape
    # dividing by max |value| keeps values near the largest float from
    # overflowing into a NaN statistic (t* is invariant to the scale)
    scaled, scale = _scaled(values)
    statistic = _tstar(scaled)
    x = _row_centred(scaled)
    observed = float(np.sum(x.sum(axis=0) ** 2))
    # (K!)^B without overflow: compare logarithms first.
    exact = b * math.lgamma(k + 1) <= math.log(n_resamples) + 1e-9 and (
        math.factorial(k) ** b <= n_resamples
    )
    if exact:
        null = _exact_sums(x)
        pvalue, se, n_used = _count_ge(null, observed) / null.size, 0.0, null.size
    else:
        null = _null_sums(x, n_resamples, rng)
        pvalue, se = monte_carlo_pvalue(_count_ge(null, observed), n_resamples)
        n_used = n_resamples
    frame = pd.DataFrame(
        values,
        index=pd.Index(replicates, name="replicate"),
        columns=pd.Index(learners, name="learner"),
    )
    return GlobalPermutationResult(
        statistic=statistic,
        pvalue=float(pvalue),
        pvalue_standard_error=float(se),
        exact=bool(exact),
        n_resamples=int(n_used),
        n_replicates=b,
        n_learners=k,
        learner_means=(
            pd.DataFrame(scaled, columns=frame.columns).mean(axis=0) * scale
        ).rename("mean_performance"),
        _performance=frame,
        _random_state=random_state,
    )
