"""Bias-variance decomposition of a learner's loss over bootstrap learning samples:
squared loss (Geman, Bienenstock & Doursat 1992) and 0-1 loss (Domingos 2000, *A
unified bias-variance decomposition*, ICML, noise taken as zero)."""

from collections.abc import Iterable
from dataclasses import dataclass, field, fields

import numpy as np
import pandas as pd
from sklearn.base import clone
from sklearn.utils.validation import _num_samples

from .._validation import check_member, check_positive_int
from ._bootstrap import BootstrapOOB

_LOSSES = ("0-1", "squared")


@dataclass(frozen=True)
class BiasVarianceResult:
    """Result of :func:`bias_variance_decomposition`.

    Attributes
    ----------
    loss : str
        ``"0-1"`` or ``"squared"``.
    expected_loss : float
        Mean over test points and rounds of the loss of the round's prediction.
    bias : float
        Mean over test points of the loss of the main prediction (the mean
        prediction for squared loss, so this is the *squared* bias; the mode
        for 0-1 loss, ties to the smallest label).
    variance : float
        Mean over test points and rounds of the loss between the round's and
        the main prediction (Domingos' ``V``).
    net_variance : float
        Squared loss: ``variance``. 0-1 loss: Domingos' net variance,
        ``variance_unbiased − sum over biased points of c(x) V(x) / n_test``
        with ``c(x)`` the share of the rounds that differ from the wrong main
        prediction and hit the true label; ``expected_loss = bias +
        net_variance`` exactly (noise taken as zero).
    variance_unbiased, variance_biased : float
        0-1 loss: the variance summed over the points whose main prediction is
        right, resp. wrong, over ``n_test`` (they add up to ``variance``); NaN
        for squared loss.
    n_rounds : int
    n_test : int
    method : str

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeRegressor
    >>> from sklearn_bench.model_selection import bias_variance_decomposition
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(80, 2)); y = X[:, 0] + rng.normal(0, 0.3, 80)
    >>> res = bias_variance_decomposition(
    ...     DecisionTreeRegressor(random_state=0), X[:60], y[:60], X[60:], y[60:],
    ...     loss="squared", n_rounds=20, random_state=0)
    >>> bool(np.isclose(res.expected_loss, res.bias + res.variance))
    True
    """

    loss: str
    expected_loss: float
    bias: float
    variance: float
    net_variance: float
    variance_unbiased: float
    variance_biased: float
    n_rounds: int
    n_test: int
    method: str = ""
    _predictions: np.ndarray = field(default=None, repr=False, compare=False)

    @property
    def predictions(self):
        """The (n_rounds, n_test) array of the rounds' predictions."""
        return self._predictions.copy()

    def to_dict(self):
        """The scalar fields as a plain dict."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.repr}

    def to_frame(self):
        """A one-row DataFrame of :meth:`to_dict`."""
        return pd.DataFrame([self.to_dict()])


def _train_indices(cv, X, y, n_rounds, random_state):
    if cv is None:
        cv = BootstrapOOB(n_bootstraps=n_rounds, random_state=random_state)
    if isinstance(cv, str | bytes | dict) or not (
        hasattr(cv, "split") or isinstance(cv, Iterable)
    ):
        raise ValueError(
            "`cv` must be None, a splitter with `split` or an iterable of "
            f"(train, test) index pairs; got {cv!r}."
        )
    splits = cv.split(X, y) if hasattr(cv, "split") else cv
    out = []
    try:
        splits = list(splits)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"`cv` could not split the learning sample: {exc}") from None
    for split in splits:
        try:
            train = np.asarray(split[0])
        except (TypeError, IndexError, KeyError, ValueError):
            raise ValueError("`cv` must yield (train, test) index pairs.") from None
        if train.ndim != 1 or train.size == 0 or train.dtype.kind not in "iu":
            raise ValueError("`cv` must yield non-empty integer training indices.")
        out.append(train)
    if not out:
        raise ValueError("`cv` yielded no split.")
    return out


def _targets(values, name):
    message = f"`{name}` must be a non-empty one-dimensional array"
    if values is None or isinstance(values, str | bytes):
        raise ValueError(f"{message}; got {values!r}.")
    try:
        arr = np.asarray(values)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{message}: {exc}") from None
    if arr.ndim != 1 or arr.size == 0:
        raise ValueError(f"{message}; got shape {arr.shape}.")
    if arr.dtype.kind == "f" and not np.isfinite(arr).all():
        raise ValueError(f"`{name}` contains NaN or infinite values.")
    if arr.dtype.kind == "O" and any(v is None for v in arr):
        raise ValueError(f"`{name}` contains None.")
    return arr


def _main_label(pred):
    """Per column, the most frequent label; ties go to the smallest label."""
    labels, codes = np.unique(pred, return_inverse=True)
    codes = codes.reshape(pred.shape)
    counts = (codes[None] == np.arange(labels.size)[:, None, None]).sum(axis=1)
    return labels[np.argmax(counts, axis=0)]


def bias_variance_decomposition(
    estimator,
    X_train,
    y_train,
    X_test,
    y_test,
    *,
    loss="0-1",
    n_rounds=200,
    cv=None,
    random_state=None,
) -> BiasVarianceResult:
    """Decompose a learner's expected loss on a test set into bias and variance.

    The learner (a fresh clone each round) is fitted on the training indices of
    each split of ``cv`` and predicts the fixed test set. The main prediction is
    the mean (squared loss) or the most frequent label (0-1 loss, Domingos 2000);
    ``expected_loss = bias + variance`` for squared loss and ``bias +
    net_variance`` for 0-1 loss (see :class:`BiasVarianceResult`).

    Parameters
    ----------
    estimator : estimator object
        Has ``fit`` and ``predict``; cloned for every round (with its own seed:
        ``random_state=None`` adds its own randomness to the variance).
    X_train, y_train : array-like
        The learning sample the bootstrap samples are drawn from.
    X_test, y_test : array-like
        The fixed test set.
    loss : {"0-1", "squared"}, default="0-1"
    n_rounds : int, default=200
        Bootstrap rounds when ``cv`` is None.
    cv : splitter or iterable of (train, test), default=None
        Where the training sets come from (only ``train`` is used), e.g. a
        :class:`StratifiedBootstrapOOB`; ``None`` draws ``n_rounds``
        bootstrap samples.
    random_state : int, RandomState instance or None, default=None
        Seed of the default bootstrap. An int gives mlxtend's draws of
        ``bias_variance_decomp(..., random_seed=random_state)``.

    Returns
    -------
    BiasVarianceResult

    Notes
    -----
    The default draws are mlxtend's, so ``expected_loss``, ``bias`` and
    ``variance`` equal its ``bias_variance_decomp`` (see the user guide's table
    for mlxtend users); a draw containing every point is redrawn.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn.tree import DecisionTreeClassifier
    >>> from sklearn_bench.model_selection import bias_variance_decomposition
    >>> rng = np.random.default_rng(0)
    >>> X = rng.normal(size=(120, 2)); y = (X[:, 0] + X[:, 1] > 0).astype(int)
    >>> res = bias_variance_decomposition(
    ...     DecisionTreeClassifier(random_state=0), X[:80], y[:80], X[80:], y[80:],
    ...     n_rounds=25, random_state=1)
    >>> round(res.expected_loss, 4), round(res.bias, 4), round(res.variance, 4)
    (0.133, 0.125, 0.094)
    >>> bool(np.isclose(res.expected_loss, res.bias + res.net_variance))
    True
    """
    check_member(loss, _LOSSES, "loss")
    n_rounds = check_positive_int(n_rounds, "n_rounds")
    if not (hasattr(estimator, "fit") and hasattr(estimator, "predict")):
        raise TypeError(
            "`estimator` must have `fit` and `predict`; got "
            f"{type(estimator).__name__}."
        )
    sizes, targets = [], []
    for part, X, y in (("train", X_train, y_train), ("test", X_test, y_test)):
        if X is None or isinstance(X, str | bytes):
            raise ValueError(f"`X_{part}` must be array-like.")
        targets.append(_targets(y, f"y_{part}"))
        try:
            sizes.append(_num_samples(X))
        except TypeError as exc:
            raise ValueError(f"`X_{part}` must be array-like: {exc}") from None
        if sizes[-1] != targets[-1].size:
            raise ValueError(
                f"`X_{part}` has {sizes[-1]} rows; `y_{part}` has "
                f"{targets[-1].size} values."
            )
    (n_train, n_test), (y_train, y_test) = sizes, targets
    if loss == "squared":
        if (
            y_test.dtype.kind not in "iufb"
            or not np.isfinite(y_test.astype(float)).all()
        ):
            raise ValueError("`y_test` must be finite numbers for the squared loss.")
    X_tr = X_train.to_numpy() if hasattr(X_train, "iloc") else np.asarray(X_train)
    trains = _train_indices(cv, X_tr, y_train, n_rounds, random_state)
    predictions = []
    for train in trains:
        if train.max() >= n_train:
            raise ValueError(
                f"`cv` yielded training index {int(train.max())} for {n_train} rows."
            )
        model = clone(estimator).fit(X_tr[train], y_train[train])
        predictions.append(np.asarray(model.predict(X_test)).reshape(-1))
    pred = np.stack(predictions)
    rounds = pred.shape[0]
    if loss == "squared":
        pred = pred.astype(float)
        y = y_test.astype(float)
        main = pred.mean(axis=0)
        expected = float(np.mean((pred - y) ** 2))
        bias = float(np.mean((main - y) ** 2))
        variance = float(np.mean((pred - main) ** 2))
        net, v_unbiased, v_biased = variance, np.nan, np.nan
        method = "bias-variance decomposition of the squared loss"
    else:
        main = _main_label(pred)
        biased = main != y_test
        differs = pred != main
        v_x = differs.mean(axis=0)
        hits = (differs & (pred == y_test)).mean(axis=0)  # c(x) V(x) on biased x
        expected = float(np.mean(pred != y_test))
        bias = float(np.mean(biased))
        variance = float(np.mean(v_x))
        v_unbiased = float(np.sum(v_x[~biased]) / n_test)
        v_biased = float(np.sum(v_x[biased]) / n_test)
        net = float(v_unbiased - np.sum(hits[biased]) / n_test)
        method = "bias-variance decomposition of the 0-1 loss (Domingos 2000)"
    return BiasVarianceResult(
        loss=loss,
        expected_loss=expected,
        bias=bias,
        variance=variance,
        net_variance=float(net),
        variance_unbiased=float(v_unbiased),
        variance_biased=float(v_biased),
        n_rounds=rounds,
        n_test=n_test,
        method=method,
        _predictions=pred,
    )
