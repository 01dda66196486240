"""Repeated-measures ANOVA over blocks x learners and Tukey's HSD after it, the
parametric path of autorank (Herbold 2020, JOSS 5(48), 2173)."""

from dataclasses import dataclass, field
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_alpha as _check_alpha
from .._validation import check_choice as _check_choice
from .._validation import check_confidence_level
from ._common import _direction, _Fields, _validate_scores
from ._pairwise import PairwiseTestResult, pairs_frame

_TUKEY_DESIGNS = {  # the error mean square of each design, in words
    "blocks": "the repeated-measures ANOVA's residual mean square",
    "aligned": "the aligned performances' within-learner mean square",
    "independent": "the one-way within-learner mean square, blocks ignored",
}


def _sums_of_squares(x):
    """``(ss_learners, ss_blocks, ss_error, ss_total)`` of a (N, K) table;
    residuals below ``1e-12 max|x|`` count as 0 (rounding noise)."""
    grand = x.mean()
    col = x.mean(axis=0)
    row = x.mean(axis=1)
    n, k = x.shape
    tol = 1e-12 * float(np.max(np.abs(x)))
    dev = col - grand
    dev[np.abs(dev) <= tol] = 0.0
    ss_learners = float(n * np.sum(dev**2))
    ss_blocks = float(k * np.sum((row - grand) ** 2))
    residual = x - row[:, None] - col[None, :] + grand
    residual[np.abs(residual) <= tol] = 0.0
    ss_error = float(np.sum(residual**2))
    ss_total = float(np.sum((x - grand) ** 2))
    return ss_learners, ss_blocks, ss_error, ss_total


def _scaled(values):
    """``values / max|values|`` and that factor (1 for a table of zeros)."""
    scale = float(np.max(np.abs(values)))
    return (values / scale, scale) if scale > 0 else (values, 1.0)


def _unscale(value, factor):
    """``value * factor`` with ``0 * inf = 0`` (a sum of squares of a huge table)."""
    return 0.0 if value == 0 else float(value * factor)


def _tukey_table(means, mse, df, n, confidence_level):
    """Tukey's all-pairs comparison of K means of ``n`` values each, as
    :func:`scipy.stats.tukey_hsd`: arrays over the pairs ``i < j``."""
    k = len(means)
    i, j = np.array(list(combinations(range(k), 2))).T
    diff = means[i] - means[j]
    se = np.sqrt(mse / n)  # Tukey: q * sqrt(MSE/2 (1/n_i + 1/n_j))
    q = stats.studentized_range.ppf(confidence_level, k, df)
    with np.errstate(divide="ignore", invalid="ignore"):
        t = np.abs(diff) / se
    t = np.where(np.abs(diff) == 0, 0.0, t)
    return {
        "pairs": (i, j),
        "difference": diff,
        "low": diff - q * se,
        "high": diff + q * se,
        "statistic": t,
        "pvalue": 2 * stats.t.sf(t * np.sqrt(0.5), df),
        "pvalue_adjusted": np.clip(stats.studentized_range.sf(t, k, df), 0, 1),
    }


@dataclass(frozen=True)
class RMAnovaResult(_Fields):
    """Result of :func:`rm_anova`.

    Attributes
    ----------
    statistic, pvalue : float
        ``F = MS_learners / MS_error`` and its upper tail.
    df_learners, df_error : int
        ``K − 1`` and ``(K − 1)(N − 1)``.
    ss_learners, ss_blocks, ss_error : float
        Sums of squares of the two-way layout without replication.
    mse : float
        ``ss_error / df_error``, the error mean square Tukey's HSD uses.
    partial_eta_squared : float
        ``ss_learners / (ss_learners + ss_error)``, the effect size.
    n_blocks, n_learners : int
    learner_means : pandas.Series
    method, null_hypothesis : str

    Examples
    --------
    >>> from sklearn_bench.stats import rm_anova
    >>> res = rm_anova([[0.2, 0.3, 0.25], [0.1, 0.25, 0.2], [0.3, 0.35, 0.3]])
    >>> round(res.statistic, 3), res.df_learners, res.df_error
    (9.0, 2, 4)
    """

    statistic: float
    pvalue: float
    df_learners: int
    df_error: int
    ss_learners: float
    ss_blocks: float
    ss_error: float
    mse: float
    partial_eta_squared: float
    n_blocks: int
    n_learners: int
    learner_means: pd.Series = field(compare=False)
    method: str = "Repeated-measures ANOVA (one within factor: learner)"
    null_hypothesis: str = (
        "H0: all learners have the same mean performance over the blocks "
        "(normal errors, sphericity)."
    )
    _table: pd.DataFrame = field(repr=False, default=None, compare=False)

    def tukey_hsd(self, *, alpha=0.05, confidence_level=0.95, greater_is_better):
        """:func:`tukey_hsd` on this ANOVA's error mean square (``design="blocks"``)."""
        return tukey_hsd(
            self._table,
            design="blocks",
            alpha=alpha,
            confidence_level=confidence_level,
            greater_is_better=greater_is_better,
        )


def rm_anova(scores) -> RMAnovaResult:
    """Repeated-measures ANOVA of K learners over N blocks (autorank's omnibus).

    With ``x_bk`` the performance of learner ``k`` on block (data set) ``b``,
    the two-way layout without replication gives::

        SS_learners = N sum_k (mean_k − grand)²
        SS_error    = sum_bk (x_bk − mean_b − mean_k + grand)²
        F = [SS_learners / (K − 1)] / [SS_error / ((K − 1)(N − 1))]

    referred to F(K − 1, (K − 1)(N − 1)), as statsmodels' ``AnovaRM``.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
        One row per block, one column per learner (a DataFrame's columns name
        the learners).

    Returns
    -------
    RMAnovaResult
        With :meth:`~RMAnovaResult.tukey_hsd` as the follow-up.

    Notes
    -----
    Assumes normal errors and sphericity, without Greenhouse–Geisser correction
    (as ``AnovaRM`` and autorank). Equal means give ``F = 0``, ``p = 1``; an
    exactly additive table ``F = inf``, ``p = 0``.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import rm_anova
    >>> rng = np.random.default_rng(0)
    >>> errors = rng.normal(0.2, 0.05, (12, 3)) + [0.0, 0.02, 0.05]
    >>> res = rm_anova(errors)
    >>> round(res.statistic, 3), round(res.pvalue, 4)
    (5.965, 0.0085)
    """
    values, learners, blocks = _validate_scores(scores)
    n, k = values.shape
    x, scale = _scaled(values)
    ss_l, ss_b, ss_e, _ = _sums_of_squares(x)
    factor = scale * scale
    df_l, df_e = k - 1, (k - 1) * (n - 1)
    if ss_l == 0:
        statistic, pvalue = 0.0, 1.0
    elif ss_e == 0:
        statistic, pvalue = np.inf, 0.0
    else:
        statistic = (ss_l / df_l) / (ss_e / df_e)
        pvalue = float(stats.f.sf(statistic, df_l, df_e))
    total = ss_l + ss_e
    eta = ss_l / total if total > 0 else 0.0
    frame = pd.DataFrame(
        values,
        index=pd.Index(blocks, name="block"),
        columns=pd.Index(learners, name="learner"),
    )
    return RMAnovaResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        df_learners=df_l,
        df_error=df_e,
        ss_learners=_unscale(ss_l, factor),
        ss_blocks=_unscale(ss_b, factor),
        ss_error=_unscale(ss_e, factor),
        mse=_unscale(ss_e / df_e, factor),
        partial_eta_squared=float(eta),
        n_blocks=n,
        n_learners=k,
        learner_means=pd.Series(
            x.mean(axis=0) * scale,
            index=frame.columns,
            name="mean_performance",
        ),
        _table=frame,
    )


def tukey_hsd(
    scores, *, design="blocks", alpha=0.05, confidence_level=0.95, greater_is_better
) -> PairwiseTestResult:
    """Tukey's honestly significant difference for all pairs of learners.

    Two mean performances differ when ``|diff| > q_{1−α}(K, df) sqrt(MSE /
    N)`` (Tukey 1953); the designs differ in the error mean square:

    - ``"blocks"`` (default): :func:`rm_anova`'s residual on ``(K − 1)(N −
      1)`` df (R's ``TukeyHSD(aov(y ~ learner + block))``).
    - ``"aligned"``: K independent samples of the aligned performances,
      ``SS_error / (K (N − 1))`` on ``K (N − 1)`` df, as
      :func:`scipy.stats.tukey_hsd` on the aligned table; liberal.
    - ``"independent"``: the blocks ignored, the one-way ANOVA's within-group
      mean square on ``K (N − 1)`` df, as autorank (``MultiComparison(...)
      .tukeyhsd()``); it loses power. For comparison with autorank only.

    Parameters
    ----------
    scores : DataFrame or array-like of shape (n_blocks, n_learners)
    design : {"blocks", "aligned", "independent"}, default="blocks"
    alpha : float, default=0.05
        Family-wise error rate of the rejections (``reject``, ``significant``,
        and the ``hsd`` in ``details``).
    confidence_level : float, default=0.95
        Simultaneous level of the intervals (``ci_low``, ``ci_high``).
    greater_is_better : bool
        Direction of the scores: orders the diagram (best on the left).
        Required.

    Returns
    -------
    PairwiseTestResult
        With ``learner_means`` and, in ``details``, ``design``, ``mse``,
        ``df``, ``critical_value`` and ``hsd``; ``adjust`` is
        ``"single_step"`` (the studentized range).

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import tukey_hsd
    >>> rng = np.random.default_rng(0)
    >>> errors = rng.normal(0.2, 0.05, (12, 3)) + [0.0, 0.02, 0.05]
    >>> res = tukey_hsd(errors, greater_is_better=False)
    >>> res.to_frame()[["learner_i", "learner_j", "pvalue_adjusted"]].round(4)
       learner_i  learner_j  pvalue_adjusted
    0          0          1           0.3226
    1          0          2           0.0063
    2          1          2           0.1437
    """
    design = _check_choice(design, _TUKEY_DESIGNS, "design")
    alpha = _check_alpha(alpha)
    level = check_confidence_level(confidence_level)
    greater_is_better = _direction(greater_is_better)
    values, learners, blocks = _validate_scores(scores)
    n, k = values.shape
    x, factor = _scaled(values)
    ss_l, ss_b, ss_e, ss_t = _sums_of_squares(x)
    df = (k - 1) * (n - 1) if design == "blocks" else k * (n - 1)
    # "independent": the within-group SS of the one-way layout
    mse = (ss_t - ss_l if design == "independent" else ss_e) / df
    words = _TUKEY_DESIGNS[design]
    means = x.mean(axis=0)
    table = _tukey_table(means, mse, df, n, level)
    difference = table["difference"] * factor
    frame = pairs_frame(
        learners, *table["pairs"], table["pvalue_adjusted"], alpha, n=n,
        mean_difference=difference, estimate=difference,
        ci_low=table["low"] * factor, ci_high=table["high"] * factor,
        ci_level=level, statistic=table["statistic"], pvalue=table["pvalue"],
    )  # fmt: skip
    q = float(stats.studentized_range.ppf(1 - alpha, k, df))
    return PairwiseTestResult(
        learners=tuple(learners),
        method=f"tukey ({design})",
        adjust="single_step",
        alpha=alpha,
        confidence_level=level,
        n_blocks=n,
        null_hypothesis=(
            "H0(i, j): mean performance of learner i = that of learner j "
            f"(studentized range of {k} means, {words}, {df} df; "
            f"family-wise α = {alpha:g})"
        ),
        learner_means=pd.Series(
            means * factor,
            index=pd.Index(learners, name="learner"),
            name="mean_performance",
        ),
        greater_is_better=bool(greater_is_better),
        details={
            "design": design,
            "mse": _unscale(_unscale(mse, factor), factor),
            "df": int(df),
            "critical_value": q,
            "hsd": float(q * np.sqrt(mse / n)) * factor,
        },
        _frame=frame,
    )
