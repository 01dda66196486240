"""Splitters of the intervals for one learner's generalization error:
:class:`NestedCV` (Bates, Hastie & Tibshirani, 2024, Algorithm 1) and
:class:`PairedSubsampling` (Nadeau & Bengio, 2003), whose ``split_roles`` says
what each split is (for :func:`~sklearn_bench.stats.generalization_error_interval`).
"""

from numbers import Integral, Real

import numpy as np
import pandas as pd
from sklearn.utils._param_validation import Interval

from ._bootstrap import _Splitter


class _RoleSplitter(_Splitter):
    """A splitter whose splits have roles (:meth:`split_roles`)."""

    def _n_splits(self):
        return len(self._roles())

    def split_roles(self, X=None, y=None, groups=None):
        """What each split is: a DataFrame of int columns ``split`` (0, 1, ...) and
        the roles of the class's description (-1: does not apply), one row per
        split in the order of ``split``; ``X``, ``y`` and ``groups`` are ignored."""
        self._validate_params()
        roles = pd.DataFrame(self._roles(), columns=["split", *self._role_names])
        return roles.astype(int)


class NestedCV(_RoleSplitter):
    """Repeated K-fold cross-validation with an inner CV in every outer fold.

    Bates, Hastie & Tibshirani (2024), Algorithm 1, in the order of mlr3inferr's
    ``ResamplingNestedCV``. Each repetition draws a random partition of the n
    observations into K folds (sizes differ by at most one) and yields the K
    **outer** splits (train on the other K − 1 folds, validate on fold k), then
    for each outer fold k the K − 1 **inner** splits of its training part (train
    on the K − 2 folds other than k and j, validate on fold j): K² splits a
    repetition. :meth:`split_roles` gives ``repeat``, ``outer`` (k) and
    ``inner`` (the position of j among the other folds, -1 for an outer split).

    Parameters
    ----------
    n_splits : int, default=5
        Number of folds K, at least 3 (the inner CV needs two folds).
    n_repeats : int, default=10
        Number of repetitions (random partitions).
    random_state : int, RandomState instance or None, default=None
        Controls the partitions, as in :class:`BootstrapOOB`.

    See Also
    --------
    PairedSubsampling : the design of the conservative Z interval.
    sklearn_bench.stats.generalization_error_interval : the intervals.

    References
    ----------
    Bates S, Hastie T, Tibshirani R (2024). Cross-validation: what does it
    estimate and how well does it do it? Journal of the American Statistical
    Association, 119(546), 1434-1445.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import NestedCV
    >>> cv = NestedCV(n_splits=3, n_repeats=1, random_state=0)
    >>> splits = list(cv.split(np.zeros((6, 1))))
    >>> [test.tolist() for _, test in splits]
    [[3, 4], [2, 5], [0, 1], [2, 5], [0, 1], [3, 4], [0, 1], [3, 4], [2, 5]]
    >>> splits[3][0]  # outer fold 0 ([3, 4]), inner fold [2, 5]: trains on the rest
    array([0, 1])
    >>> cv.split_roles().head(4)
       split  repeat  outer  inner
    0      0       0      0     -1
    1      1       0      1     -1
    2      2       0      2     -1
    3      3       0      0      0
    """

    _parameter_constraints: dict = {
        "n_splits": [Interval(Integral, 3, None, closed="left")],
        "n_repeats": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
    _role_names = ("repeat", "outer", "inner")

    def __init__(self, n_splits=5, *, n_repeats=10, random_state=None):
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.random_state = random_state

    def _n_splits_per_replicate(self):
        """A repetition (one random partition) is one replicate."""
        return self.n_splits**2

    def _pairs(self):
        """(outer, inner, validation fold) of one repetition, in split order."""
        k = self.n_splits
        yield from ((o, -1, o) for o in range(k))
        for o in range(k):
            yield from ((o, i, j) for i, j in enumerate(f for f in range(k) if f != o))

    def _roles(self):
        pairs = list(self._pairs())
        return [
            (r * len(pairs) + s, r, o, i)
            for r in range(self.n_repeats)
            for s, (o, i, _) in enumerate(pairs)
        ]

    def _generate(self, n, y, rng):
        if n < self.n_splits:
            raise ValueError(
                f"`X` has {n} rows: cannot have number of splits "
                f"n_splits={self.n_splits} greater than the number of samples."
            )
        index = np.arange(n)
        for _ in range(self.n_repeats):
            fold = rng.permutation(index % self.n_splits)
            for outer, inner, j in self._pairs():
                out = (fold != j) & ((fold != outer) | (inner == -1))
                yield index[out], index[fold == j]


class PairedSubsampling(_RoleSplitter):
    """Subsamples of the whole data and of paired disjoint halves.

    The design of Nadeau & Bengio's (2003) conservative Z interval, in
    mlr3inferr's order (``ResamplingPairedSubsampling``): J (``n_subsamples``)
    random subsamples of the n observations, each training on
    ``floor(train_size * n)`` rows and validating on the other n2 (their mean
    error is the point estimate); then M (``n_pairs``) times, two disjoint random
    halves of ``n // 2`` rows with J subsamples each, validating on n2 rows and
    training on the other ``n // 2 - n2`` rows of the half (the halves' mean
    errors differ by independent noise only, which gives the variance):
    ``n_subsamples * (2 * n_pairs + 1)`` splits. :meth:`split_roles` gives
    ``pair`` (m, -1 for the whole-data subsamples), ``half`` (0 or 1, -1
    likewise) and ``subsample`` (j).

    Parameters
    ----------
    n_subsamples : int, default=15
        Subsamples J per (half-)sample.
    n_pairs : int, default=10
        Pairs of disjoint halves M.
    train_size : float, default=0.9
        Share of the n rows each whole-data subsample trains on, in (0.5, 1);
        the validation size n2 must leave a half at least one training row.
    random_state : int, RandomState instance or None, default=None
        Controls the draws, as in :class:`BootstrapOOB`.

    See Also
    --------
    NestedCV : the design of the nested CV interval.
    sklearn.model_selection.ShuffleSplit : repeated subsampling (corrected t).

    References
    ----------
    Nadeau C, Bengio Y (2003). Inference for the generalization error.
    Machine Learning, 52(3), 239-281.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import PairedSubsampling
    >>> cv = PairedSubsampling(2, n_pairs=1, train_size=0.75, random_state=0)
    >>> [test.tolist() for _, test in cv.split(np.zeros((8, 1)))]
    [[2, 6], [1, 6], [3, 4], [2, 3], [1, 7], [0, 6]]
    >>> cv.split_roles()
       split  pair  half  subsample
    0      0    -1    -1          0
    1      1    -1    -1          1
    2      2     0     0          0
    3      3     0     0          1
    4      4     0     1          0
    5      5     0     1          1
    """

    _parameter_constraints: dict = {
        "n_subsamples": [Interval(Integral, 1, None, closed="left")],
        "n_pairs": [Interval(Integral, 1, None, closed="left")],
        "train_size": [Interval(Real, 0.5, 1, closed="neither")],
        "random_state": ["random_state"],
    }
    _role_names = ("pair", "half", "subsample")

    def __init__(
        self, n_subsamples=15, *, n_pairs=10, train_size=0.9, random_state=None
    ):
        self.n_subsamples = n_subsamples
        self.n_pairs = n_pairs
        self.train_size = train_size
        self.random_state = random_state

    def _roles(self):
        parts = [(-1, -1)] + [(m, h) for m in range(self.n_pairs) for h in (0, 1)]
        j = self.n_subsamples
        return [
            (p * j + s, m, h, s) for p, (m, h) in enumerate(parts) for s in range(j)
        ]

    def _generate(self, n, y, rng):
        n_test = n - int(np.floor(self.train_size * n))
        half = n // 2
        if n_test < 1 or half - n_test < 1:
            raise ValueError(
                f"`X` has {n} rows, too few for {self!r}: it validates on "
                f"n2={n_test} rows and a half of {half} rows must keep at least "
                "one training row besides them; use more samples or a larger "
                "`train_size`."
            )

        def subsamples(rows):
            for _ in range(self.n_subsamples):
                drawn = rng.permutation(rows)
                yield np.sort(drawn[n_test:]), np.sort(drawn[:n_test])

        yield from subsamples(np.arange(n))
        for _ in range(self.n_pairs):
            order = rng.permutation(n)
            yield from subsamples(order[:half])
            yield from subsamples(order[half : 2 * half])
