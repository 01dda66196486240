"""The .632 and .632+ bootstrap error estimates (Efron and Tibshirani, 1997)."""

from dataclasses import asdict, dataclass

import numpy as np
from sklearn.base import BaseEstimator
from sklearn.utils._param_validation import StrOptions

from ._bootstrap import _check_split_input

_W632 = 0.632  # E&T (1997): 1 - e^{-1} rounded, as in their formulas


@dataclass(frozen=True)
class Bootstrap632Result:
    """The parts of a .632 / .632+ estimate (Efron and Tibshirani, 1997).

    Attributes
    ----------
    apparent : float
        Apparent (resubstitution) error :math:`\\overline{err}`.
    out_of_bootstrap : float
        Out-of-bootstrap error :math:`\\widehat{Err}^{(1)}`.
    no_information : float
        No-information error rate :math:`\\hat\\gamma` (NaN for plain .632).
    relative_overfitting : float
        Clipped relative overfitting rate :math:`\\hat R' \\in [0, 1]`
        (NaN for plain .632).
    weight : float
        Weight :math:`\\hat w` of the out-of-bootstrap error; 0.632 for plain .632.
    estimate : float
        The .632 or .632+ error estimate.
    """

    apparent: float
    out_of_bootstrap: float
    no_information: float
    relative_overfitting: float
    weight: float
    estimate: float

    def to_dict(self):
        """The fields as a plain ``dict``."""
        return asdict(self)


def _pointwise_loss(loss, y_true, y_pred):
    if loss == "zero_one":
        return (np.asarray(y_true) != np.asarray(y_pred)).astype(float)
    return (np.asarray(y_true, float) - np.asarray(y_pred, float)) ** 2


def _no_information(loss, y, y_pred):
    """No-information error rate, Efron & Tibshirani (1997) eq. (27): for 0-1
    loss sum_l p_l (1 - q_l) (observed and predicted class shares)."""
    if loss == "zero_one":
        classes, y_codes = np.unique(np.concatenate([y, y_pred]), return_inverse=True)
        p = np.bincount(y_codes[: len(y)], minlength=len(classes)) / len(y)
        q = np.bincount(y_codes[len(y) :], minlength=len(classes)) / len(y_pred)
        return float(np.sum(p * (1 - q)))
    y, y_pred = np.asarray(y, float), np.asarray(y_pred, float)
    return float(np.mean(y**2) - 2 * np.mean(y) * np.mean(y_pred) + np.mean(y_pred**2))


class Bootstrap632Scorer(BaseEstimator):
    """Score one out-of-bootstrap split by the .632 or .632+ rule.

    Efron and Tibshirani (1997) correct the pessimistic out-of-bootstrap error
    :math:`\\widehat{Err}^{(1)}` with the optimistic apparent error
    :math:`\\overline{err}`: .632, eq. (24), is :math:`\\widehat{Err}^{(.632)} =
    .368\\,\\overline{err} + .632\\,\\widehat{Err}^{(1)}`; .632+, eqs. (27)-(32),
    uses the no-information error rate :math:`\\hat\\gamma = n^{-2}\\sum_i\\sum_j
    Q(y_i, r(t_j))`, the clipped error :math:`\\widehat{Err}^{(1)\\prime} =
    \\min(\\widehat{Err}^{(1)}, \\hat\\gamma)` and the relative overfitting rate
    :math:`\\hat R' = (\\widehat{Err}^{(1)\\prime} - \\overline{err}) / (\\hat\\gamma
    - \\overline{err})` (0 unless both differences are positive),

    .. math::

        \\widehat{Err}^{(.632+)} = \\widehat{Err}^{(.632)} +
        (\\widehat{Err}^{(1)\\prime} - \\overline{err})
        \\frac{.368 \\cdot .632\\, \\hat R'}{1 - .368\\, \\hat R'},

    reported with the weight :math:`\\hat w = .632 / (1 - .368 \\hat R')` of
    eq. (29).

    The scorer needs only the model fitted on one :class:`BootstrapOOB` split
    (one performance per replicate, no extra fit), so it is called as
    ``scorer(estimator, X, y, train=train, test=test)``: pass it in the
    ``scoring`` of :class:`~sklearn_bench.BenchmarkExperiment`, which records the
    metric ``".632+"`` (or ``".632"``); :meth:`combine` takes errors a runner
    already has. The formulas are applied with :math:`\\mathfrak{L}^b` as the
    learning sample, so the mean of per-replicate values differs slightly from
    Efron and Tibshirani's pooled estimator.

    Parameters
    ----------
    loss : {"zero_one", "squared_error"}, default="zero_one"
        Pointwise loss Q: misclassification (the papers' default) or squared
        error. Lower is better.
    plus : bool, default=True
        If True the .632+ rule, else the .632 rule.

    Attributes
    ----------
    name : str
        The metric's name in results tables: ``".632+"`` or ``".632"``.
    greater_is_better : bool
        ``False``: the estimate is an error.
    task : {"classification", "regression"}
        The problem of ``loss``.
    needs_split : bool
        ``True``: called with each split's indices. These four attributes are
        the protocol of a scorer of a split: any callable with ``needs_split``
        true is, as the :class:`~sklearn_bench.experiment.Metric` of the others.

    See Also
    --------
    BootstrapOOB : the splitter whose splits this scores.

    References
    ----------
    Efron B, Tibshirani R (1997). Improvements on cross-validation: the .632+
    bootstrap method. Journal of the American Statistical Association, 92(438),
    548-560.

    Examples
    --------
    >>> from sklearn.datasets import load_breast_cancer
    >>> from sklearn.neighbors import KNeighborsClassifier
    >>> from sklearn_bench.model_selection import BootstrapOOB, Bootstrap632Scorer
    >>> X, y = load_breast_cancer(return_X_y=True)
    >>> scorer = Bootstrap632Scorer(plus=True)
    >>> train, test = next(BootstrapOOB(1, random_state=0).split(X))
    >>> knn = KNeighborsClassifier(n_neighbors=1).fit(X[train], y[train])
    >>> res = scorer.components(knn, X, y, train=train, test=test)
    >>> print(round(res.apparent, 3), round(res.out_of_bootstrap, 3),
    ...       round(res.estimate, 3))
    0.0 0.093 0.064
    """

    _parameter_constraints: dict = {
        "loss": [StrOptions({"zero_one", "squared_error"})],
        "plus": ["boolean"],
    }

    needs_split = True
    greater_is_better = False

    def __init__(self, loss="zero_one", *, plus=True):
        self.loss = loss
        self.plus = plus

    @property
    def name(self):
        """The metric's name in results tables: ``".632+"`` or ``".632"``."""
        return ".632+" if self.plus else ".632"

    @property
    def task(self):
        """``"classification"`` (0-1 loss) or ``"regression"``."""
        return "classification" if self.loss == "zero_one" else "regression"

    def combine(self, apparent, out_of_bootstrap, no_information=None):
        """Combine the apparent and out-of-bootstrap errors of one replicate.

        Parameters
        ----------
        apparent : float
            Apparent error :math:`\\overline{err}` (error on the training rows).
        out_of_bootstrap : float
            Error on the out-of-bootstrap rows :math:`\\widehat{Err}^{(1)}`.
        no_information : float, default=None
            No-information error rate :math:`\\hat\\gamma`; required if ``plus``.

        Returns
        -------
        result : Bootstrap632Result
            The parts and the ``estimate``.
        """
        self._validate_params()
        err, err1 = float(apparent), float(out_of_bootstrap)
        for name, value in (("apparent", err), ("out_of_bootstrap", err1)):
            if not np.isfinite(value) or value < 0:
                raise ValueError(
                    f"`{name}` must be a finite, non-negative error; got {value}."
                )
        err632 = (1 - _W632) * err + _W632 * err1
        if not self.plus:
            return Bootstrap632Result(err, err1, np.nan, np.nan, _W632, err632)
        if no_information is None or not np.isfinite(no_information):
            raise ValueError(
                "`no_information` must be a finite error rate when `plus` is True; "
                f"got {no_information}."
            )
        gamma = float(no_information)
        err1_clipped = min(err1, gamma)  # E&T (1997) eq. (31)
        if err1_clipped > err and gamma > err:
            rate = (err1_clipped - err) / (gamma - err)  # in (0, 1]
        else:
            rate = 0.0
        estimate = err632 + (err1_clipped - err) * (
            (1 - _W632) * _W632 * rate / (1 - (1 - _W632) * rate)
        )
        weight = _W632 / (1 - (1 - _W632) * rate)
        return Bootstrap632Result(err, err1, gamma, rate, weight, estimate)

    def components(self, estimator, X, y, *, train, test):
        """The .632 / .632+ parts for a fitted estimator and one split.

        Parameters
        ----------
        estimator : object
            Fitted on ``X[train], y[train]``; must have ``predict``.
        X : array-like of shape (n_samples, n_features)
            The whole learning sample.
        y : array-like of shape (n_samples,)
            Its targets.
        train : array-like of int
            The split's training indices (with repeats, as drawn).
        test : array-like of int
            The split's out-of-bootstrap indices; must not overlap ``train``.

        Returns
        -------
        result : Bootstrap632Result
        """
        self._validate_params()
        _check_split_input(X, y)
        y = np.asarray(y)
        if y.ndim != 1:
            raise ValueError(f"`y` must be one-dimensional; got shape {y.shape}.")
        train, test = np.asarray(train, dtype=int), np.asarray(test, dtype=int)
        if len(test) == 0 or len(train) == 0:
            raise ValueError("`train` and `test` must both be non-empty.")
        if np.isin(test, train).any():
            raise ValueError(
                "`test` shares rows with `train`; the .632 rules need "
                "out-of-bootstrap validation rows (use BootstrapOOB)."
            )
        y_pred = np.asarray(estimator.predict(X))
        if y_pred.shape != y.shape:
            raise ValueError(
                f"`estimator` predicted {y_pred.shape[0]} values for the {len(y)} rows "
                "of `X`."
            )
        loss = _pointwise_loss(self.loss, y, y_pred)
        gamma = _no_information(self.loss, y, y_pred) if self.plus else None
        return self.combine(loss[train].mean(), loss[test].mean(), gamma)

    def __call__(self, estimator, X, y, *, train, test):
        """The .632 (or .632+) error of ``estimator`` on one split; the
        parameters are those of :meth:`components`."""
        return self.components(estimator, X, y, train=train, test=test).estimate
