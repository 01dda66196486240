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

    A replicate is one learning sample :math:`\\mathfrak{L}^b` (Hothorn et al.,
    2005): a learner's performance on it is the mean of its scores over the
    replicate's splits, and the conditional tests within one data set treat
    replicates, never folds, as the independent units (see the user guide,
    "Tests within one data set"). The rule, in order: ``sklearn_bench``'s
    splitters say it themselves (:class:`BootstrapCV`: ``n_folds`` consecutive
    splits per replicate); :class:`~sklearn.model_selection.RepeatedKFold` and
    :class:`~sklearn.model_selection.RepeatedStratifiedKFold` have ``n_splits``
    consecutive splits per repetition; ``KFold``, ``StratifiedKFold``,
    ``GroupKFold`` and ``StratifiedGroupKFold`` partition one learning sample, so
    all their splits form replicate 0; every other splitter (``ShuffleSplit``,
    ``LeaveOneOut``, ``PredefinedSplit``, a list of ``(train, test)`` pairs, ...)
    has one split per replicate.

    Parameters
    ----------
    cv : cross-validation generator or iterable of (train, test) pairs
        A splitter with ``split`` and ``get_n_splits``, or an iterable of splits.
    X, y, groups : array-like
        As passed to ``cv.split`` (``y`` and ``groups`` default to None).

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
