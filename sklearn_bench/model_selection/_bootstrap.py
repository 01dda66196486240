"""Bootstrap splitters of the real world problem (Hothorn et al., 2005, Section 3.2).

Four splitters redraw learning samples :math:`\\mathfrak{L}^1, \\dots,
\\mathfrak{L}^B` from the empirical distribution of the one learning sample
:math:`\\mathfrak{L}` (n-out-of-n with replacement) and define a validation set
for each:

- :class:`BootstrapOOB` (RW-OOB): validate on the out-of-bootstrap observations
  :math:`\\mathfrak{L} \\setminus \\mathfrak{L}^b`.
- :class:`BootstrapCV` (RW-CV): cut :math:`\\mathfrak{L}^b` into k folds and
  validate fold j on its observations that do not also occur in the training folds.
- :class:`StratifiedBootstrapOOB`, :class:`StratifiedBootstrapCV`: the same, with
  the bootstrap draw made within each class, so every learning sample keeps the
  counts of ``y``.
"""

from numbers import Integral

import numpy as np
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state, indexable
from sklearn.utils._param_validation import Interval, validate_parameter_constraints
from sklearn.utils.multiclass import type_of_target
from sklearn.utils.validation import _num_samples, column_or_1d

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


class _BaseBootstrap(BaseCrossValidator):
    """Common machinery: parameter validation, the draw and its redraws."""

    _parameter_constraints: dict = {
        "n_bootstraps": [Interval(Integral, 1, None, closed="left")],
        "random_state": ["random_state"],
    }
    _stratified = False

    def __init__(self, n_bootstraps=200, *, random_state=None):
        self.n_bootstraps = n_bootstraps
        self.random_state = random_state

    def _validate_params(self):
        params = {name: getattr(self, name) for name in self._parameter_constraints}
        validate_parameter_constraints(
            self._parameter_constraints, params, caller_name=type(self).__name__
        )

    def _n_splits_per_replicate(self):
        """Number of consecutive splits that belong to one replicate."""
        return 1

    def get_n_splits(self, X=None, y=None, groups=None):
        """Return the number of splits, ``n_bootstraps * _n_splits_per_replicate()``.

        Parameters
        ----------
        X : object
            Always ignored, exists for compatibility.
        y : object
            Always ignored, exists for compatibility.
        groups : object
            Always ignored, exists for compatibility.

        Returns
        -------
        n_splits : int
            The number of splitting iterations.
        """
        self._validate_params()
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

    @staticmethod
    def _draw(strata, rng):
        """One bootstrap sample: n_c draws with replacement within each stratum.

        The sample is returned stratum by stratum (class-sorted), each stratum's
        draws in random order.
        """
        return np.concatenate([s[rng.randint(0, len(s), size=len(s))] for s in strata])

    def split(self, X, y=None, groups=None):
        """Generate indices to split data into training and validation set.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            Training data, where `n_samples` is the number of samples
            and `n_features` is the number of features.
        y : array-like of shape (n_samples,), default=None
            The target variable; the stratified splitters draw within its classes.
        groups : object
            Always ignored, exists for compatibility.

        Yields
        ------
        train : ndarray
            The training set indices for that split: the bootstrap sample (or its
            training folds), with repeats.
        test : ndarray
            The validation set indices for that split, sorted and distinct.
        """
        self._validate_params()
        _check_split_input(X, y)
        X, y, groups = indexable(X, y, groups)
        n_samples = _num_samples(X)
        try:
            rng = check_random_state(self.random_state)
        except (TypeError, ValueError) as exc:
            raise ValueError(f"`random_state`: {exc}") from None
        strata = self._strata(y, n_samples)
        self._check_n_samples(n_samples, strata)
        for _ in range(self.n_bootstraps):
            for _attempt in range(_MAX_DRAWS):
                draw = self._draw(strata, rng)
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

    Hothorn et al. (2005), Section 3.2, RW-OOB: for each bootstrap sample
    :math:`\\mathfrak{L}^b` (b = 1, ..., B) of n draws with replacement from the
    learning sample :math:`\\mathfrak{L}`, the out-of-bootstrap observations
    :math:`\\mathfrak{L} \\setminus \\mathfrak{L}^b` are the test sample. On
    average a fraction :math:`(1 - 1/n)^n \\approx e^{-1} \\approx 0.368` of the
    observations is out of bootstrap.

    Split b yields ``train`` = the n drawn indices (with repeats, in drawn order)
    and ``test`` = the sorted indices never drawn. Each split is one replicate.

    A validation set is never empty: when a draw happens to contain every
    observation (probability :math:`n!/n^n`), it is discarded and the next draw
    of the same random stream is taken, so the splits stay a deterministic
    function of ``random_state``. This conditions the bootstrap on a non-empty
    out-of-bootstrap set, which matters only for tiny n. ``split`` raises a
    ``ValueError`` for fewer than 2 samples, where no non-empty split exists.

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
    >>> cv
    BootstrapOOB(n_bootstraps=2, random_state=0)
    >>> for train, test in cv.split(X):
    ...     print(train, test)
    [4 7 5 0 3 3 3 7] [1 2 6]
    [0 4 2 1 6 7 7 6] [3 5]
    """

    def _check_n_samples(self, n_samples, strata):
        largest = max((len(s) for s in strata), default=0)
        if largest >= 2:
            return
        if self._stratified:
            raise ValueError(
                f"{type(self).__name__} needs a class with at least 2 samples for a "
                f"non-empty out-of-bootstrap set; got n_samples={n_samples}, "
                f"largest class {largest}."
            )
        raise ValueError(
            f"{type(self).__name__} needs at least 2 samples for a non-empty "
            f"out-of-bootstrap set; got n_samples={n_samples}."
        )

    @staticmethod
    def _splits_of_draw(draw, n_samples):
        return [(draw, np.flatnonzero(np.bincount(draw, minlength=n_samples) == 0))]


class BootstrapCV(_BaseBootstrap):
    """k-fold cross-validation within each bootstrap sample, without leakage.

    Hothorn et al. (2005), Section 3.2, RW-CV: each bootstrap sample
    :math:`\\mathfrak{L}^b` (n draws with replacement) is divided into k folds;
    for fold j the learner is trained on the other folds (with their repeats)
    and validated on the distinct original observations of fold j that do not
    occur in the training folds ("observations which are elements of training
    and validation fold are removed from the latter"). The performance
    :math:`\\hat p_{kb}` of replicate b is the average over its k folds.

    The splits come in replicate-major order: ``n_folds`` consecutive splits per
    bootstrap sample, ``n_bootstraps * n_folds`` in all. Position i of the drawn
    sample goes to fold ``i % n_folds``, so fold j holds
    :math:`m_j = \\lceil (n - j) / k \\rceil` draws (sizes differ by at most one,
    as in :class:`~sklearn.model_selection.KFold`); since the draws are i.i.d.
    this is a random partition of the draws.

    **Expected validation size.** Fold j holds :math:`m_j` i.i.d. uniform draws
    and the training folds the other :math:`n - m_j`. Observation i is validated
    in fold j iff it is drawn at least once in fold j and never in the others:

    .. math::

        P_j = \\left[1 - (1 - 1/n)^{m_j}\\right] (1 - 1/n)^{n - m_j},
        \\qquad E|V_j| = n P_j.

    With :math:`m_j \\approx n/k` and large n, :math:`E|V_j|/n \\to
    (1 - e^{-1/k}) e^{-(1 - 1/k)}`, about 0.081 for k = 5: much smaller than the
    n/k of plain k-fold, because most of fold j's observations also occur in the
    training folds. The union of a replicate's validation folds is the set of
    distinct drawn observations (:math:`1 - (1 - 1/n)^n \\approx 0.632` n on
    average) minus those drawn in more than one fold.

    **Small samples.** Every fold needs at least one draw, so ``split`` raises a
    ``ValueError`` when n < ``n_folds``. When a draw leaves some fold's
    validation set empty, the whole bootstrap sample is discarded and the next
    draw of the same random stream is taken (deterministic given
    ``random_state``; it conditions the bootstrap on non-empty validation sets,
    which matters only for small n/k). If 10 000 consecutive draws fail (n barely
    above ``n_folds``, e.g. n = k = 20), a ``ValueError`` says so.

    Parameters
    ----------
    n_bootstraps : int, default=200
        Number of bootstrap samples B (replicates).
    n_folds : int, default=5
        Number of folds k per bootstrap sample; at least 2.
    random_state : int, RandomState instance or None, default=None
        Controls the draws. Resolved with :func:`~sklearn.utils.check_random_state`
        inside ``split``: an int gives the same splits on every call; a
        ``RandomState`` instance advances, as in
        :class:`~sklearn.model_selection.ShuffleSplit`.

    See Also
    --------
    BootstrapOOB : validate on the out-of-bootstrap observations (RW-OOB).
    StratifiedBootstrapCV : the draw keeps the class counts.

    References
    ----------
    Hothorn T, Leisch F, Zeileis A, Hornik K (2005). The design and analysis of
    benchmark experiments. Journal of Computational and Graphical Statistics,
    14(3), 675-699.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.model_selection import BootstrapCV, replicate_ids
    >>> X = np.arange(10).reshape(-1, 1)
    >>> cv = BootstrapCV(n_bootstraps=2, n_folds=2, random_state=1)
    >>> cv
    BootstrapCV(n_bootstraps=2, n_folds=2, random_state=1)
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
        """Number of consecutive splits that belong to one replicate: ``n_folds``."""
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

    As :class:`BootstrapOOB` (Hothorn et al., 2005, Section 3.2, RW-OOB), but
    each bootstrap sample draws :math:`n_c` observations with replacement from
    the :math:`n_c` observations of each class c, so every training set has
    exactly the class counts of ``y``. The training indices come class by class
    (classes in sorted order), each class's draws in random order.

    A validation set is never empty: a draw that leaves no observation out of
    bootstrap is discarded and the next draw of the same random stream taken
    (deterministic given ``random_state``). ``split`` raises a ``ValueError``
    when no class has 2 or more observations, so no non-empty split exists, and
    for a ``y`` that is not a binary or multiclass target.

    Parameters
    ----------
    n_bootstraps : int, default=200
        Number of bootstrap samples B (replicates).
    random_state : int, RandomState instance or None, default=None
        Controls the draws; resolved with
        :func:`~sklearn.utils.check_random_state` inside ``split``.

    See Also
    --------
    BootstrapOOB : the unstratified form.

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

    As :class:`BootstrapCV` (Hothorn et al., 2005, Section 3.2, RW-CV), but the
    bootstrap sample draws :math:`n_c` observations with replacement within each
    class c, so every replicate has exactly the class counts of ``y``. The drawn
    sample is ordered class by class and position i goes to fold ``i % n_folds``,
    so the folds are stratified too: the count of a class differs by at most one
    between folds. Validation sets hold the distinct observations of fold j that
    do not occur in the training folds; the expected-size derivation of
    :class:`BootstrapCV` applies within each class.

    ``split`` raises a ``ValueError`` when n < ``n_folds`` and for a ``y`` that is
    not a binary or multiclass target. Draws that leave a validation set empty
    are discarded and redrawn from the same random stream (deterministic given
    ``random_state``), as in :class:`BootstrapCV`.

    Parameters
    ----------
    n_bootstraps : int, default=200
        Number of bootstrap samples B (replicates).
    n_folds : int, default=5
        Number of folds k per bootstrap sample; at least 2.
    random_state : int, RandomState instance or None, default=None
        Controls the draws; resolved with
        :func:`~sklearn.utils.check_random_state` inside ``split``.

    See Also
    --------
    BootstrapCV : the unstratified form.

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
