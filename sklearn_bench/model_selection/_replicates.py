"""Map the splits of a cross-validator to replicates (learning samples)."""

from collections.abc import Iterable

import numpy as np
from sklearn.model_selection import (
    GroupKFold,
    KFold,
    RepeatedKFold,
    RepeatedStratifiedKFold,
    StratifiedGroupKFold,
    StratifiedKFold,
)

# Partitions of one learning sample: all their folds belong to a single replicate.
_KFOLD_OF_ONE_REPLICATE = (KFold, StratifiedKFold, GroupKFold, StratifiedGroupKFold)
_REPEATED_KFOLD = (RepeatedKFold, RepeatedStratifiedKFold)


def _n_splits_per_replicate(cv, n_splits):
    hook = getattr(cv, "_n_splits_per_replicate", None)
    if callable(hook):  # sklearn_bench's own splitters say it themselves
        return hook()
    if isinstance(cv, _REPEATED_KFOLD):
        return cv.cvargs["n_splits"]
    if isinstance(cv, _KFOLD_OF_ONE_REPLICATE):
        return n_splits
    return 1


def replicate_ids(cv, X, y=None, groups=None):
    """Replicate (learning sample) of each split that ``cv.split(X, y, groups)`` yields.

    A replicate is one learning sample :math:`\\mathfrak{L}^b` in the sense of
    Hothorn et al. (2005): the performance of a learner on a replicate is the
    average of its scores over the replicate's splits, and the conditional tests
    within one data set (Hothorn et al.'s ``"t"``, ``"permutation"``) treat
    replicates, never folds, as the independent units. The corrected resampled t
    (the default within a data set) uses the fold scores with a variance
    correction for their dependence (Bouckaert & Frank 2004); see the user
    guide, "Tests within one data set".

    The rule, in order:

    - ``sklearn_bench`` splitters say it themselves: :class:`BootstrapOOB` has
      one split per replicate, :class:`BootstrapCV` ``n_folds`` consecutive splits
      per replicate (replicate-major order).
    - :class:`~sklearn.model_selection.RepeatedKFold` and
      :class:`~sklearn.model_selection.RepeatedStratifiedKFold`: ``n_splits``
      consecutive splits per repetition.
    - :class:`~sklearn.model_selection.KFold`,
      :class:`~sklearn.model_selection.StratifiedKFold`,
      :class:`~sklearn.model_selection.GroupKFold` and
      :class:`~sklearn.model_selection.StratifiedGroupKFold`: a k-fold partition of
      one learning sample, so all splits form replicate 0.
    - Every other splitter (``ShuffleSplit``, ``StratifiedShuffleSplit``,
      ``LeaveOneOut``, ``LeavePOut``, ``TimeSeriesSplit``, ``PredefinedSplit``, a list
      of ``(train, test)`` pairs, ...): one split per replicate.

    Parameters
    ----------
    cv : cross-validation generator or iterable of (train, test) pairs
        A splitter with ``split`` and ``get_n_splits`` (as in scikit-learn), or an
        iterable of splits.
    X : array-like of shape (n_samples, n_features)
        The data, as passed to ``cv.split``.
    y : array-like of shape (n_samples,), default=None
        Targets, as passed to ``cv.split``.
    groups : array-like of shape (n_samples,), default=None
        Group labels, as passed to ``cv.split``.

    Returns
    -------
    ids : ndarray of shape (n_splits,), dtype=int
        ``ids[i]`` is the replicate of the i-th split; replicates are numbered
        0, 1, ... in the order in which they first occur.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.model_selection import RepeatedKFold, ShuffleSplit
    >>> from sklearn_bench.model_selection import replicate_ids
    >>> X = np.zeros((10, 1))
    >>> replicate_ids(RepeatedKFold(n_splits=3, n_repeats=2), X)
    array([0, 0, 0, 1, 1, 1])
    >>> replicate_ids(ShuffleSplit(n_splits=4), X)
    array([0, 1, 2, 3])
    """
    if hasattr(cv, "split") and hasattr(cv, "get_n_splits"):
        n_splits = cv.get_n_splits(X, y, groups)
    elif isinstance(cv, Iterable) and not isinstance(cv, str | bytes):
        n_splits = len(list(cv))
    else:
        raise ValueError(
            "`cv` must be a cross-validation splitter with `split` and `get_n_splits`, "
            f"or an iterable of (train, test) splits; got {cv!r}."
        )
    per = _n_splits_per_replicate(cv, n_splits)
    return np.arange(n_splits, dtype=int) // max(int(per), 1)
