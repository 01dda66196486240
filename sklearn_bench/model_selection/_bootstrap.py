"""Bootstrap splitters of the real world problem (Hothorn et al., 2005, Section 3.2):
each of B bootstrap samples :math:`\\mathfrak{L}^b` (n draws with replacement from
the learning sample) with its validation set(s): RW-OOB (:class:`BootstrapOOB`),
RW-CV (:class:`BootstrapCV`), and their stratified forms, which draw within classes.
"""

from numbers import Integral

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import indexable
from sklearn.utils._param_validation import Interval, validate_parameter_constraints
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, column_or_1d

from .._validation import sklearn_random_state

# A replicate whose validation set(s) come out empty is redrawn from the same
# random stream; after this many consecutive empty draws we give up.
_MAX_DRAWS = 10_000


def _check_split_input(X, y):
    """Name `X` or `y` when they are not array-like or differ in length."""
    try:
        n_x = _num_samples(X)
    except TypeError as exc:
        raise TypeError(f"`X` must be array-like with a first axis; {exc}") from None
    if y is not None:
        try:
            n_y = _num_samples(y)
        except TypeError as exc:
            raise TypeError(
                f"`y` must be array-like with a first axis; {exc}"
            ) from None
        if n_x != n_y:
            raise ValueError(
                f"`X` and `y` must have the same number of rows; got {n_x} and {n_y}."
            )


class _Splitter(BaseCrossValidator):
    """The package's splitters: parameter validation and the checks of ``split``."""

    def _validate_params(self):
        params = {name: getattr(self, name) for name in self._parameter_constraints}
        validate_parameter_constraints(
            self._parameter_constraints, params, caller_name=type(self).__name__
        )

    def _n_splits_per_replicate(self):
        """Number of consecutive splits that belong to one replicate."""
        return 1

    def get_n_splits(self, X=None, y=None, groups=None):
        """The number of splits; ``X``, ``y`` and ``groups`` are ignored."""
        self._validate_params()
        return self._n_splits()

    def split(self, X, y=None, groups=None):
        """Yield ``(train, test)`` indices; ``y`` is read by the stratified
        splitters only, ``groups`` by none (as in the class's description)."""
        self._validate_params()
        _check_split_input(X, y)
        X, y, groups = indexable(X, y, groups)
        rng = sklearn_random_state(self.random_state)
        yield from self._generate(_num_samples(X), y, rng)


class _BaseBootstrap(_Splitter):
    """Common machinery: the draw and its redraws."""

    _parameter_constraints: dict = {
        "n_bootstraps": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
    _stratified = False

    def __init__(self, n_bootstraps=200, *, random_state=None):
        self.n_bootstraps = n_bootstraps
        self.random_state = random_state

    def _n_splits(self):
        return self.n_bootstraps * self._n_splits_per_replicate()

    def _strata(self, y, n_samples):
        """Index arrays of the strata within which the draw is made."""
        if not self._stratified:
            return [np.arange(n_samples)]
        if y is None:
            raise ValueError(
                f"`y` is required by {type(self).__name__}: the bootstrap draw keeps "
                "the class counts of `y`; got None."
            )
        y = np.asarray(y)
        type_of_target_y = type_of_target(y, input_name="y")
        if type_of_target_y not in ("binary", "multiclass"):
            raise ValueError(
                f"`y` must be class labels for {type(self).__name__}. Supported "
                f"target types are: ('binary', 'multiclass'). Got "
                f"{type_of_target_y!r} instead."
            )
        _, y_encoded = np.unique(column_or_1d(y), return_inverse=True)
        order = np.argsort(y_encoded, kind="stable")
        bounds = np.cumsum(np.bincount(y_encoded))[:-1]
        return np.split(order, bounds)

    def _generate(self, n_samples, y, rng):
        strata = self._strata(y, n_samples)
        self._check_n_samples(n_samples, strata)
        for _ in range(self.n_bootstraps):
            for _attempt in range(_MAX_DRAWS):
                # n_c draws with replacement within each stratum, class-sorted
                draw = np.concatenate(
                    [s[rng.randint(0, len(s), size=len(s))] for s in strata]
                )
                splits = self._splits_of_draw(draw, n_samples)
                if all(len(test) > 0 for _, test in splits):
                    break
            else:
                raise ValueError(
                    f"{_MAX_DRAWS} consecutive bootstrap draws each left a validation "
                    f"set empty: n_samples={n_samples} is too small for "
                    f"{self!r}; use more samples (or fewer folds)."
                )
            yield from splits


class BootstrapOOB(_BaseBootstrap):
    """Out-of-bootstrap splitter: train on a bootstrap sample, validate on the rest.

    Hothorn et al. (2005), Section 3.2, RW-OOB: split b yields ``train`` = the n
    indices drawn with replacement (with repeats, in drawn order) and ``test`` =
    the sorted indices never drawn, on average a fraction
    :math:`(1 - 1/n)^n \\approx e^{-1} \\approx 0.368`. Each split is one
    replicate. A draw that contains every observation (probability
    :math:`n!/n^n`) is discarded for the next draw of the same random stream, so
    no validation set is empty and the splits stay a deterministic function of
    ``random_state``; ``split`` raises a ``ValueError`` for fewer than 2 samples.

    Parameters
    ----------
    n_bootstraps : int, default=200
        Number of bootstrap samples B (replicates).
    random_state : int, RandomState instance or None, default=None
        Controls the draws. Resolved with :func:`~sklearn.utils.check_random_state`
        inside ``split``: an int gives the same splits on every call; a
        ``RandomState`` instance advances, as in
        :class:`~sklearn.model_selection.ShuffleSplit`.

    See Also
    --------
    BootstrapCV : cross-validation within each bootstrap sample (RW-CV).
    StratifiedBootstrapOOB : the draw keeps the class counts.
    Bootstrap632Scorer : the .632 / .632+ error of an out-of-bootstrap split.

    References
    ----------
    Hothorn T, Leisch F, Zeileis A, Hornik K (2005). The design and analysis of
    benchmark experiments. Journal of Computational and Graphical Statistics,
    14(3), 675-699.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import BootstrapOOB
    >>> X = np.arange(8).reshape(-1, 1)
    >>> cv = BootstrapOOB(n_bootstraps=2, random_state=0)
    >>> for train, test in cv.split(X):
    ...     print(train, test)
    [4 7 5 0 3 3 3 7] [1 2 6]
    [0 4 2 1 6 7 7 6] [3 5]
    """

    def _check_n_samples(self, n_samples, strata):
        largest = max((len(s) for s in strata), default=0)
        if largest < 2:
            need, got = "at least 2 samples", f"n_samples={n_samples}"
            if self._stratified:
                need, got = f"a class with {need}", f"{got}, largest class {largest}"
            raise ValueError(
                f"{type(self).__name__} needs {need} for a non-empty "
                f"out-of-bootstrap set; got {got}."
            )

    @staticmethod
    def _splits_of_draw(draw, n_samples):
        return [(draw, np.flatnonzero(np.bincount(draw, minlength=n_samples) == 0))]


class BootstrapCV(_BaseBootstrap):
    """k-fold cross-validation within each bootstrap sample, without leakage.

    Hothorn et al. (2005), Section 3.2, RW-CV: each bootstrap sample (n draws
    with replacement) is divided into k folds; fold j trains on the other folds
    (with their repeats) and validates on the distinct observations of fold j
    that do not occur in the training folds. The splits come in replicate-major
    order, ``n_folds`` consecutive splits per replicate (whose scores average into
    :math:`\\hat p_{kb}`). Draw i goes to fold ``i % n_folds``, so fold j holds
    :math:`m_j = \\lceil (n - j) / k \\rceil` draws, and observation i is
    validated in fold j with probability

    .. math::

        P_j = \\left[1 - (1 - 1/n)^{m_j}\\right] (1 - 1/n)^{n - m_j},
        \\qquad E|V_j| = n P_j,

    which tends to :math:`(1 - e^{-1/k}) e^{-(1 - 1/k)}` (0.081 for k = 5), far
    below the n/k of plain k-fold. ``split`` raises a ``ValueError`` when n <
    ``n_folds``; a draw that leaves a fold's validation set empty is discarded for
    the next draw of the same random stream (deterministic given
    ``random_state``), and 10 000 such draws in a row (n barely above
    ``n_folds``) raise a ``ValueError``.

    Parameters
    ----------
    n_bootstraps : int, default=200
        Number of bootstrap samples B (replicates).
    n_folds : int, default=5
        Number of folds k per bootstrap sample; at least 2.
    random_state : int, RandomState instance or None, default=None
        Controls the draws, as in :class:`BootstrapOOB`.

    See Also
    --------
    BootstrapOOB : validate on the out-of-bootstrap observations (RW-OOB).
    StratifiedBootstrapCV : the draw keeps the class counts.

    References
    ----------
    Hothorn et al. (2005), as in :class:`BootstrapOOB`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import BootstrapCV, replicate_ids
    >>> X = np.arange(10).reshape(-1, 1)
    >>> cv = BootstrapCV(n_bootstraps=2, n_folds=2, random_state=1)
    >>> for train, test in cv.split(X):
    ...     print(np.sort(train), test)
    [0 5 7 8 9] [1 6]
    [0 1 5 6 9] [7 8]
    [2 2 4 7 9] [5]
    [2 4 4 5 7] [9]
    >>> replicate_ids(cv, X)
    array([0, 0, 1, 1])
    """

    _parameter_constraints: dict = {
        **_BaseBootstrap._parameter_constraints,
        "n_folds": [Interval(Integral, 2, None, closed="left")],
    }

    def __init__(self, n_bootstraps=200, n_folds=5, *, random_state=None):
        self.n_bootstraps = n_bootstraps
        self.n_folds = n_folds
        self.random_state = random_state

    def _n_splits_per_replicate(self):
        return self.n_folds

    def _check_n_samples(self, n_samples, strata):
        if self.n_folds > n_samples:
            raise ValueError(
                f"Cannot have number of folds `n_folds`={self.n_folds} greater than "
                f"the number of samples: n_samples={n_samples}."
            )

    def _splits_of_draw(self, draw, n_samples):
        fold = np.arange(len(draw)) % self.n_folds
        splits = []
        for j in range(self.n_folds):
            in_fold = fold == j
            train = draw[~in_fold]
            in_validation = np.bincount(draw[in_fold], minlength=n_samples) > 0
            in_validation[train] = False
            splits.append((train, np.flatnonzero(in_validation)))
        return splits


class StratifiedBootstrapOOB(BootstrapOOB):
    """Out-of-bootstrap splitter whose draws keep the class counts of ``y``.

    As :class:`BootstrapOOB`, but each bootstrap sample draws :math:`n_c`
    observations with replacement from the :math:`n_c` of each class c; the
    training indices come class by class (sorted classes), each class's draws in
    random order. ``split`` raises a ``ValueError`` when no class has 2 or more
    observations, and for a ``y`` that is not a binary or multiclass target.

    Parameters
    ----------
    n_bootstraps, random_state
        As in :class:`BootstrapOOB`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import StratifiedBootstrapOOB
    >>> X = np.zeros((6, 1))
    >>> y = np.array([0, 0, 0, 0, 1, 1])
    >>> cv = StratifiedBootstrapOOB(n_bootstraps=2, random_state=0)
    >>> for train, test in cv.split(X, y):
    ...     print(train, y[train], test)
    [0 3 1 0 5 5] [0 0 0 0 1 1] [2 4]
    [3 3 1 3 5 4] [0 0 0 0 1 1] [0 2]
    """

    _stratified = True


class StratifiedBootstrapCV(BootstrapCV):
    """k-fold cross-validation within bootstrap samples that keep the class counts.

    As :class:`BootstrapCV`, but the bootstrap sample draws :math:`n_c`
    observations with replacement within each class c. The draws are ordered class
    by class before draw i goes to fold ``i % n_folds``, so the folds are
    stratified too (a class's count differs by at most one between folds).
    ``split`` also raises a ``ValueError`` for a ``y`` that is not a binary or
    multiclass target.

    Parameters
    ----------
    n_bootstraps, n_folds, random_state
        As in :class:`BootstrapCV`.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import StratifiedBootstrapCV
    >>> X = np.zeros((12, 1))
    >>> y = np.array([0] * 8 + [1] * 4)
    >>> cv = StratifiedBootstrapCV(n_bootstraps=1, n_folds=2, random_state=0)
    >>> cv.get_n_splits()
    2
    >>> for train, test in cv.split(X, y):
    ...     print(np.bincount(y[train]), test)
    [4 2] [4 5 9]
    [4 2] [ 0  7 10 11]
    """

    _stratified = True
