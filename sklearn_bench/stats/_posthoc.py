"""One interface for the results of post-hoc (all-pairs or many-to-one) comparisons.

The entry points that compare learners pair by pair after an omnibus test,
:func:`pairwise_tests` (paired and rank post-hocs; :meth:`FriedmanResult.posthoc`
and :meth:`GlobalPermutationResult.pairwise` return its result class) and
:func:`tukey_hsd` (and :meth:`RMAnovaResult.tukey_hsd`), each return a
:class:`PosthocResult`: one row per comparison in :meth:`to_frame`,
and the same attributes everywhere, ``statistic``, ``pvalue``, ``pvalue_adjusted``
(pandas Series indexed by the pair ``(learner_i, learner_j)``) and
:meth:`~PosthocResult.confidence_interval` where the method has an interval.
"""

import numpy as np
import pandas as pd
from scipy import stats

from ._common import ConfidenceInterval


class PosthocResult:
    """Base of every post-hoc result (the one shape of the entry points).

    Subclasses hold ``learners``, ``alpha`` and a private table ``_frame`` with
    one row per comparison and the columns ``learner_i``, ``learner_j``,
    ``pvalue`` and ``pvalue_adjusted``.

    Attributes
    ----------
    statistic : pandas.Series
        The test statistic of each comparison, indexed by ``(learner_i,
        learner_j)`` (which statistic is named in :meth:`to_frame`'s docs of
        each entry point).
    pvalue : pandas.Series
        The unadjusted p-value of each comparison.
    pvalue_adjusted : pandas.Series
        The p-value adjusted for multiplicity (the family of all comparisons).

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> from sklearn_bench.stats import PosthocResult, friedman_test, tukey_hsd
    >>> rng = np.random.default_rng(0)
    >>> errors = pd.DataFrame(rng.normal(0.2, 0.05, (12, 3)) + [0.0, 0.02, 0.05],
    ...                       columns=["A", "B", "C"])
    >>> res = tukey_hsd(errors, greater_is_better=False)
    >>> isinstance(res, PosthocResult)
    True
    >>> res.pvalue_adjusted.round(4)
    learner_i  learner_j
    A          B            0.3226
               C            0.0063
    B          C            0.1437
    Name: pvalue_adjusted, dtype: float64
    >>> ci = res.confidence_interval()
    >>> ci.confidence_level, ci.low.round(3).tolist()
    (0.95, [-0.059, -0.088, -0.066])
    >>> nemenyi = friedman_test(errors, greater_is_better=False).posthoc()
    >>> nemenyi.pvalue_adjusted.round(3).tolist()
    [0.326, 0.064, 0.693]
    """

    # column of ``_frame`` that holds the statistic of a comparison
    _statistic_column = "statistic"

    def to_frame(self):
        """One row per comparison (a copy of the result's table)."""
        return self._frame.copy()

    def _series(self, column):
        frame = self._frame
        index = pd.MultiIndex.from_arrays(
            [frame["learner_i"], frame["learner_j"]], names=["learner_i", "learner_j"]
        )
        return pd.Series(frame[column].to_numpy(), index=index, name=column)

    @property
    def statistic(self):
        """The statistic of each comparison (Series indexed by the pair)."""
        return self._series(self._statistic_column).rename("statistic")

    @property
    def pvalue(self):
        """The unadjusted p-value of each comparison (Series indexed by the pair)."""
        return self._series("pvalue")

    @property
    def pvalue_adjusted(self):
        """The adjusted p-value of each comparison (Series indexed by the pair)."""
        return self._series("pvalue_adjusted")

    @property
    def pvalues_adjusted(self):
        """Symmetric learners × learners matrix of the adjusted p-values
        (diagonal 1; NaN for pairs not compared, e.g. two non-controls)."""
        index = {name: i for i, name in enumerate(self.learners)}
        mat = np.full((len(index), len(index)), np.nan)
        np.fill_diagonal(mat, 1.0)
        frame = self._frame
        for a, b, p in zip(
            frame["learner_i"],
            frame["learner_j"],
            frame["pvalue_adjusted"],
            strict=True,
        ):
            mat[index[a], index[b]] = mat[index[b], index[a]] = p
        labels = pd.Index(self.learners, name="learner")
        return pd.DataFrame(mat, index=labels, columns=labels)

    def _intervals(self, confidence_level):
        """``(low, high, achieved level)`` arrays; subclasses override."""
        raise ValueError(
            f"{type(self).__name__} ({self.method}) has no confidence interval: "
            "the method gives p-values only."
        )

    def confidence_interval(self, confidence_level=None):
        """Confidence interval of each comparison's difference.

        Parameters
        ----------
        confidence_level : float, default=None
            The level; ``None`` is the level the result was made at
            (``1 − alpha``). A level the method cannot recompute from the result
            raises ``ValueError`` naming the call that gives it.

        Returns
        -------
        ConfidenceInterval
            ``low`` and ``high`` are Series indexed by the pair; its
            ``confidence_level`` is the level achieved (a Series when it differs
            between pairs, as for rank-based intervals on few blocks).

        Raises
        ------
        ValueError
            Where the method has no interval (rank post-hocs on average ranks,
            the closed permutation test): it tests, it does not estimate.
        """
        low, high, achieved = self._intervals(confidence_level)
        pairs = self.pvalue.index
        return ConfidenceInterval(
            pd.Series(low, index=pairs, name="low"),
            pd.Series(high, index=pairs, name="high"),
            achieved,
        )


def _same_level(result, confidence_level, how):
    """The result's own level ``1 − alpha``; any other level is a ValueError."""
    own = 1 - result.alpha
    if confidence_level is not None and not np.isclose(confidence_level, own):
        raise ValueError(
            f"The intervals of this result are at confidence_level={own:g} "
            f"(1 − alpha); for {confidence_level!r} {how}."
        )
    return own


def tukey_intervals(result, confidence_level):
    """Tukey's simultaneous intervals of a :class:`TukeyHSDResult` at any level.

    ``diff ± q_{level}(K, df) sqrt(MSE / N)`` from the stored MSE and df.
    """
    frame = result._frame
    level = 1 - result.alpha if confidence_level is None else confidence_level
    if not (isinstance(level, int | float) and 0 < level < 1):
        raise ValueError(
            f"`confidence_level` must be a number in (0, 1); got {level!r}."
        )
    k = len(result.learners)
    se = np.sqrt(result.mse / result.n_blocks)
    q = stats.studentized_range.ppf(level, k, result.df)
    diff = frame["mean_difference"].to_numpy()
    return diff - q * se, diff + q * se, float(level)
