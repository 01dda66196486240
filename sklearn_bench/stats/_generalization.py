"""Confidence intervals for one learner's generalization error (or for A − B),
from tables of pointwise validation losses (:ref:`one_learner`)."""

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import check_confidence_level, check_member, check_real
from ._common import ConfidenceInterval, real_array

_DIFFERENCE_METHODS = ("corrected_t", "conservative_z", "nested_cv")
_VARIANCES = ("all_pairs", "within_fold")
# What each method needs, for the messages of a wrong method / design pair.
_NEEDS = {
    "holdout": "the losses of one split (train_test_split, ShuffleSplit(n_splits=1))",
    "naive_cv": "one K-fold partition (KFold, StratifiedKFold)",
    "corrected_t": "repeated subsampling (ShuffleSplit) with an 'n_train' column",
    "conservative_z": "PairedSubsampling, its split_roles() merged into `losses`",
    "nested_cv": "NestedCV, its split_roles() merged into `losses`",
    "five_by_two": "RepeatedKFold(n_splits=2, n_repeats=5) or its stratified twin",
    "oob": "BootstrapOOB, with the 'row' column and `train_counts`",
    "632plus": "BootstrapOOB, with 'row', `train_counts`, `apparent`, `no_information`",
}
_METHODS = tuple(_NEEDS)


@dataclass(frozen=True)
class GeneralizationErrorResult:
    """Result of :func:`generalization_error_interval` and :func:`cv_auc_interval`.

    Attributes
    ----------
    estimate, standard_error : float
    df : int or None
        Degrees of freedom of the t quantile; None for a normal quantile.
    method, metric : str
    design : str
        The resampling design read from the table, in words.
    n_samples : int or None
        The data set's n as the table shows it (None when it does not).
    n_splits : int
    difference : bool
        True when the estimate is A − baseline.
    n_train : float or None
        The training size the target refers to (the mean over splits): the
        training parts', (K − 1)/K · n for ``"nested_cv"``, 0.632 n for
        ``"oob"``, n for ``"632plus"``; None when the table does not say.
    confidence_level : float
        The level of :attr:`low` and :attr:`high`; :meth:`confidence_interval`
        gives any other.
    details : dict
        Intermediate quantities (``bias``, ``mse``, ``variance``, ...).

    Examples
    --------
    >>> from sklearn_bench.stats import generalization_error_interval
    >>> res = generalization_error_interval(
    ...     {"split": [0] * 6, "loss": [0, 1, 0, 0, 1, 0]}, method="holdout")
    >>> round(res.estimate, 3), round(res.standard_error, 3), res.design
    (0.333, 0.211, 'holdout, n_test=6')
    >>> round(res.low, 3), round(res.high, 3), res.confidence_level  # at 95%
    (-0.08, 0.747, 0.95)
    """

    estimate: float
    standard_error: float
    df: int | None
    method: str
    metric: str
    design: str
    n_samples: int | None
    n_splits: int
    difference: bool = False
    confidence_level: float = 0.95
    n_train: float | None = None
    details: dict = field(default_factory=dict, repr=False, compare=False)
    _bounds: tuple = field(default=(-np.inf, np.inf), repr=False, compare=False)
    # the bounds at ``confidence_level`` as the method computed them (the only
    # level a BCa or Quesenberry–Hurst interval answers: its se is NaN)
    _fixed: tuple | None = field(default=None, repr=False, compare=False)

    @property
    def low(self):
        """The lower bound at :attr:`confidence_level`."""
        return self.confidence_interval().low

    @property
    def high(self):
        """The upper bound at :attr:`confidence_level`."""
        return self.confidence_interval().high

    def confidence_interval(self, confidence_level=None):
        """Two-sided ``estimate ± q · standard_error``, q of t with ``df`` (or of
        the normal); :func:`cv_auc_interval` cuts the bounds to an AUC's range.

        Parameters
        ----------
        confidence_level : float, default=None
            ``None``: the result's own :attr:`confidence_level`.

        Returns
        -------
        ConfidenceInterval
        """
        if confidence_level is None:
            confidence_level = self.confidence_level
        level = check_confidence_level(confidence_level)
        if self._fixed is not None and level == self.confidence_level:
            return ConfidenceInterval(*self._fixed, level)
        if self._fixed is not None and not np.isfinite(self.standard_error):
            raise ValueError(
                f"The {self.method} interval is not estimate ± q · se; ask "
                f"for it again at confidence_level={level}."
            )
        tail = (1 - level) / 2
        q = stats.norm.isf(tail) if self.df is None else stats.t.isf(tail, self.df)
        half = q * self.standard_error
        low, high = np.clip([self.estimate - half, self.estimate + half], *self._bounds)
        return ConfidenceInterval(float(low), float(high), level)


_INTEGER_COLUMNS = ("split", "row", "n_train", "n_test", "repeat", "outer", "inner",
                    "pair", "half")  # fmt: skip


def _frame(data, arg):
    """``data`` as a DataFrame with a numeric ``loss`` and integer role columns."""
    try:
        table = pd.DataFrame(data).reset_index(drop=True)
    except (TypeError, ValueError) as exc:
        raise ValueError(
            f"`{arg}` must be a table (DataFrame or dict): {exc}"
        ) from None
    if not {"split", "loss"} <= set(table.columns) or len(table) == 0:
        raise ValueError(
            f"`{arg}` must be a non-empty table with the columns 'split' and "
            f"'loss'; got columns {list(table.columns)[:8]} and {len(table)} rows."
        )
    for column in ("loss", *(c for c in _INTEGER_COLUMNS if c in table)):
        try:
            values = real_array(table[column], arg)
        except ValueError:
            values = np.array([np.nan])
        if not np.isfinite(values).all() or (
            column != "loss" and (values != np.round(values)).any()
        ):
            kind = "finite numbers" if column == "loss" else "integers"
            raise ValueError(f"`{arg}`: column {column!r} must hold {kind}.")
        table[column] = values if column == "loss" else values.astype(int)
    return table


def _table(losses, baseline, method):
    """The loss table, its ``loss`` A's (or A − baseline)."""
    table = _frame(losses, "losses")
    if baseline is None:
        return table
    if method not in _DIFFERENCE_METHODS:
        raise ValueError(
            f"`baseline` is for the methods whose theory covers a difference "
            f"A − B of pointwise losses, {list(_DIFFERENCE_METHODS)}; got "
            f"method={method!r}."
        )
    if isinstance(baseline, pd.DataFrame | dict):
        other = _frame(baseline, "baseline")
        keys = [c for c in ("split", "row") if c in table and c in other]
        if len(other) != len(table) or not all(
            np.array_equal(table[c], other[c]) for c in keys
        ):
            raise ValueError(
                "`baseline` must hold B's losses on the same (split, row) pairs "
                "as `losses`, in the same order."
            )
        baseline = other["loss"]
    b = real_array(baseline, "baseline")
    if b.shape != (len(table),) or not np.isfinite(b).all():
        raise ValueError(
            f"`baseline` must hold one finite loss per row of `losses` "
            f"({len(table)}); got shape {b.shape}."
        )
    return table.assign(loss=table["loss"] - b)


def _need(method, ok, got):
    if not ok:
        raise ValueError(f"method={method!r} needs {_NEEDS[method]}; {got}.")


def _columns(table, method, names):
    missing = [c for c in names if c not in table]
    _need(method, not missing, f"`losses` has no column {missing}")


def _holdout(table, means, **_):
    _need("holdout", len(means) == 1, f"`losses` holds {len(means)} splits")
    loss = table["loss"].to_numpy()
    _need("holdout", loss.size >= 2, "`losses` holds fewer than 2 losses")
    se = loss.std(ddof=1) / np.sqrt(loss.size)
    design, details = f"holdout, n_test={loss.size}", {"n_train": _mean_train(table)}
    return loss.mean(), se, None, loss.size, design, details


def _naive_cv(table, means, variance, **_):
    _need("naive_cv", len(means) >= 2, f"`losses` holds {len(means)} split(s)")
    repeated = "row" in table and table["row"].duplicated().any()
    _need("naive_cv", not repeated, "`losses` validates a row more than once")
    loss = table["loss"].to_numpy()
    if variance == "all_pairs":  # Bayle et al. (2020): divide by n, not n - 1
        var = np.mean((loss - loss.mean()) ** 2)
    else:
        var = table.groupby("split")["loss"].var(ddof=1).mean()
        if np.isnan(var):
            raise ValueError("variance='within_fold' needs 2 losses in every fold.")
    k = len(means)
    design = f"{k}-fold CV, n={loss.size}"
    details = {"variance": float(var), "n_train": loss.size * (k - 1) / k}
    return loss.mean(), np.sqrt(var / loss.size), None, loss.size, design, details


def _corrected_t(table, means, **_):
    j = len(means)
    _columns(table, "corrected_t", ["n_train"])
    _need("corrected_t", j >= 2, f"`losses` holds {j} split(s)")
    per_split = table.groupby("split")
    n1 = per_split["n_train"].first().mean()
    n2 = (per_split["n_test"].first() if "n_test" in table else per_split.size()).mean()
    _need("corrected_t", n1 > 0, "`losses` has n_train 0")
    se = means.std(ddof=1) * np.sqrt(1 / j + n2 / n1)  # Nadeau & Bengio eq. (13)
    design = f"{j} train/test splits, n_train={n1:g}, n_test={n2:g}"
    return means.mean(), se, j - 1, int(round(n1 + n2)), design, {"n_train": n1}


def _conservative_z(table, means, **_):
    _columns(table, "conservative_z", ["pair", "half"])
    parts = table.groupby("split")[["pair", "half"]].first()
    main = means[parts["pair"] == -1]
    halves = means[parts["pair"] >= 0].groupby([parts["pair"], parts["half"]]).mean()
    halves = halves.unstack()
    ok = len(main) and len(halves) and list(halves.columns) == [0, 1]
    ok = ok and not halves.isna().any(axis=None)
    _need("conservative_z", ok, "a pair, one of its halves or the J subsamples "
          "of the whole data is missing from `losses`")  # fmt: skip
    m = len(halves)
    var = ((halves[0] - halves[1]) ** 2).sum() / (2 * m)  # Nadeau & Bengio eq. (21)
    design = f"paired subsampling, {len(main)} subsamples + {m} pairs of halves"
    details = {"variance": float(var), "n_train": _mean_train(table, main.index)}
    return main.mean(), np.sqrt(var), None, None, design, details


def _nested_cv(table, means, **_):
    _columns(table, "nested_cv", ["repeat", "outer", "inner"])
    is_out = table["inner"].to_numpy() == -1
    out, inn = table[is_out], table[~is_out]
    folds = out.groupby("repeat")["outer"].nunique()
    sizes = out.groupby("repeat").size()
    o = out.groupby(["repeat", "outer"])["loss"]
    i = inn.groupby(["repeat", "outer"])["loss"].mean()
    ok = len(folds) and folds.nunique() == 1 and folds.iloc[0] >= 3
    ok = (
        ok
        and sizes.nunique() == 1
        and o.size().min() >= 2
        and i.index.equals(o.mean().index)
    )
    _need("nested_cv", ok, "its outer or inner splits in `losses` are missing, "
          "uneven or have fewer than 2 losses")  # fmt: skip
    k, n = int(folds.iloc[0]), int(sizes.iloc[0])
    a = (i - o.mean()) ** 2  # Bates et al. (2024), Algorithm 1
    b = o.var(ddof=1) / o.size()
    mse = (k - 1) / k * float((a - b).mean())  # rescaled to a sample of size n
    err_ncv, err_cv = float(inn["loss"].mean()), float(out["loss"].mean())
    se_low = inn["loss"].std(ddof=1) / np.sqrt(n)  # fully independent folds
    raw = np.sqrt(max(mse, 0.0))
    se = min(max(raw, se_low), np.sqrt(k) * se_low)
    # which bound replaced the estimated MSE (a fallback a report counts)
    clipped = "lower" if raw < se_low else "upper" if se > raw else None
    bias = (1 + (k - 2) / k) * (err_ncv - err_cv)
    reps = len(folds)
    design = (
        f"nested CV, {reps} repeat{'s' * (reps > 1)} x {k} folds "
        f"({reps * k * k} fits), n={n}"
    )
    details = {"err_ncv": err_ncv, "err_cv": err_cv, "bias": bias, "mse": mse,
               "se_clipped": clipped, "n_train": n * (k - 1) / k}  # fmt: skip
    return err_ncv - bias, se, None, n, design, details


def _five_by_two(table, means, **_):
    _need("five_by_two", len(means) == 10, f"`losses` holds {len(means)} splits")
    p = means.to_numpy().reshape(5, 2)  # rows: repetitions, in split order
    s2 = ((p - p.mean(axis=1, keepdims=True)) ** 2).sum(axis=1)
    first = table[table["split"].isin(means.index[:2])].groupby("split")
    n = int((first["n_test"].first() if "n_test" in table else first.size()).sum())
    design = "5x2cv: 5 repetitions of 2-fold CV"
    details = {"variances": s2.tolist(), "n_train": n / 2}
    return p[0, 0], np.sqrt(s2.sum() / 5), 5, n, design, details


def _mean_train(table, splits=None):
    """The mean ``n_train`` over the (selected) splits, or None."""
    if "n_train" not in table:
        return None
    per_split = table.groupby("split")["n_train"].first()
    return float(per_split.mean() if splits is None else per_split[splits].mean())


def _oob(table, means, train_counts, method="oob", internal_error=False, **_):
    _columns(table, method, ["row"])
    _need(method, train_counts is not None, "`train_counts` is None")
    counts = real_array(train_counts, "train_counts")
    b, n = len(means), counts.shape[-1] if counts.ndim else 0
    ok = np.isfinite(counts).all() and (counts >= 0).all()
    if not ok or counts.shape != (b, n) or n < 2 or (counts % 1).any():
        raise ValueError(
            f"`train_counts` must hold counts of shape (splits in `losses`, "
            f"n_samples) = ({b}, n >= 2); got shape {counts.shape}."
        )
    row = table["row"].to_numpy()
    if row.min() < 0 or row.max() >= n or table.duplicated(["split", "row"]).any():
        raise ValueError("`losses`: 'row' must index the columns of `train_counts` "
                         "once per split.")  # fmt: skip
    loss = np.full((b, n), np.nan)
    loss[np.searchsorted(means.index, table["split"]), row] = table["loss"]
    out = ~np.isnan(loss)
    if not np.array_equal(out, counts == 0) or not out.any(axis=0).all():
        raise ValueError(
            "`losses` must hold exactly the out-of-bootstrap rows of each split "
            "(train_counts 0), and every row must be out of bootstrap at least "
            "once (use more bootstrap replicates)."
        )
    e_i = np.nanmean(loss, axis=0)
    err1 = e_i.mean()  # Efron & Tibshirani (1997) eq. (37)
    q = np.nansum(loss, axis=1) / n  # eq. (36)
    e_n = (1 - 1 / n) ** (-n)
    centred = counts - counts.mean(axis=0)
    d = (2 + 1 / (n - 1)) * (e_i - err1) / n + e_n * (centred * q[:, None]).sum(0) / b
    se = np.sqrt(np.sum(d**2))  # eqs. (40), (35)
    se_int = _internal_error(loss, out, counts, q, e_n)
    corrected = np.sqrt(max(se**2 - se_int**2, 0.0))  # eq. (43)
    # B at which the uncorrected se is within 10% of the corrected one: the
    # internal variance falls as 1/B
    need = np.inf if corrected == 0 else b * se_int**2 / (0.21 * corrected**2)
    details = {
        "standard_error_uncorrected": float(se),
        "internal_standard_error": float(se_int),
        "standard_error_corrected": float(corrected),
        "n_bootstraps_needed": float(np.ceil(need)),
        "n_train": 0.632 * n,
    }
    design = f"{b} bootstrap replicates, n={n}"
    if not internal_error and need > b:
        design += f" (uncorrected se; B >= {details['n_bootstraps_needed']:.0f} for it)"
    if internal_error:
        design += ", se corrected for the internal Monte Carlo error"
    return err1, corrected if internal_error else se, None, n, design, details


def _internal_error(loss, out, counts, q, e_n):
    """Efron & Tibshirani's (1997) eq. (42): the jackknife-after-bootstrap
    error of SE_del (as nestedcv's ``boot632``); NaN when a row is out of
    bootstrap in only one replicate."""
    b, n = loss.shape
    zero = np.where(out, loss, 0.0)
    s_i, c_i = zero.sum(axis=0), out.sum(axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        e_ib = (s_i - zero) / (c_i - out)  # Ê_i without replicate b, (B, n)
    err1_b = e_ib.mean(axis=1, keepdims=True)
    nq = (counts * q[:, None]).sum(axis=0)
    n_bar = (counts.sum(axis=0) - counts) / (b - 1)
    q_bar = ((q.sum() - q) / (b - 1))[:, None]
    cov = (nq - counts * q[:, None]) / (b - 1) - n_bar * q_bar
    d_b = (2 + 1 / (n - 1)) * (e_ib - err1_b) / n + e_n * cov
    jack = (b - 1) / b * ((d_b - d_b.mean(axis=0)) ** 2).sum(axis=0)
    return float(np.sqrt(jack.sum()))


def _632plus(table, means, train_counts, apparent, no_information, **kw):
    err1, se, _, n, design, oob = _oob(table, means, train_counts, "632plus", **kw)
    for name, value in (("apparent", apparent), ("no_information", no_information)):
        _need("632plus", value is not None, f"`{name}` is None")
        check_real(value, name)
    if err1 <= 0:
        raise ValueError("method='632plus' needs a positive out-of-bootstrap error.")
    # here: scikit-learn (which model_selection needs) only for this method
    from ..model_selection import Bootstrap632Scorer

    parts = Bootstrap632Scorer(plus=True).combine(apparent, err1, no_information)
    # Schulz-Kümpel et al. (2024), infer_632plus: SE_del scaled by .632+/Err(1)
    scale = parts.estimate / err1
    details = {**oob, "out_of_bootstrap": err1, "weight": parts.weight, "n_train": n}
    for key in ("standard_error_uncorrected", "standard_error_corrected"):
        details[key] *= scale
    return parts.estimate, se * scale, None, n, design, details


_COMPUTE = {
    "holdout": _holdout,
    "naive_cv": _naive_cv,
    "corrected_t": _corrected_t,
    "conservative_z": _conservative_z,
    "nested_cv": _nested_cv,
    "five_by_two": _five_by_two,
    "oob": _oob,
    "632plus": _632plus,
}


def generalization_error_interval(
    losses,
    *,
    method,
    baseline=None,
    variance="all_pairs",
    train_counts=None,
    apparent=None,
    no_information=None,
    internal_error=False,
    metric="loss",
):
    """Estimate and standard error of a learner's expected generalization error.

    The expected error of the learner trained on ``n_train`` rows from the
    same distribution (Bates et al.'s Err). The design is read from the columns
    of ``losses``; a method it cannot support is a ``ValueError`` naming the
    splitter it needs.

    ``method`` (z and t are the normal and t quantiles of the level; the table
    of :ref:`one_learner` gives each one's splitter, formula and assumption):

    - ``"holdout"``, ``"naive_cv"`` (Bayle et al. 2020, ``variance``),
      ``"five_by_two"`` (Dietterich 1998, for one learner's error: p11).
    - ``"corrected_t"`` (Nadeau & Bengio 2003, eq. 13): columns ``n_train``
      (and ``n_test`` unless every validation row is in the table).
    - ``"conservative_z"`` (eq. 21): columns ``pair``, ``half``.
    - ``"nested_cv"`` (Bates et al. 2024, Algorithm 1, as mlr3inferr): columns
      ``repeat``, ``outer``, ``inner``; ``details["se_clipped"]`` names the
      bound that replaced the estimated SE, if any.
    - ``"oob"`` (Efron & Tibshirani 1997, eqs. 35-40): ``row`` and
      ``train_counts``; ``details`` holds the internal Monte Carlo error (eq.
      42), the corrected SE (eq. 43) and ``n_bootstraps_needed``.
    - ``"632plus"``: :meth:`Bootstrap632Scorer.combine
      <sklearn_bench.model_selection.Bootstrap632Scorer.combine>`'s estimate,
      SE_del scaled by .632+ / Err(1) (Schulz-Kümpel et al. 2024).

    Parameters
    ----------
    losses : DataFrame or dict of arrays
        One row per validation observation of each split: ``split`` (its
        position in the splitter's order), ``loss`` (lower is better), ``row``
        (the observation) and the columns the method needs.
    method : {"holdout", "naive_cv", "corrected_t", "conservative_z", \
"nested_cv", "five_by_two", "oob", "632plus"}
    baseline : DataFrame, dict or array-like, default=None
        Learner B's losses on the same (split, row) pairs: the interval is then
        of A − B (``"corrected_t"``, ``"conservative_z"``, ``"nested_cv"``).
    variance : {"all_pairs", "within_fold"}, default="all_pairs"
        ``"naive_cv"`` only.
    train_counts : array-like of shape (n_splits, n_samples), default=None
        How often each observation is in each split's training sample.
    apparent : float, default=None
        ``"632plus"``: the apparent error of the learner fitted on all n rows.
    no_information : float, default=None
        ``"632plus"``: the no-information error rate γ̂.
    internal_error : bool, default=False
        ``"oob"``, ``"632plus"``: the standard error corrected for the internal
        Monte Carlo error of B replicates (Efron & Tibshirani 1997, eqs. 42-43).
    metric : str, default="loss"
        The loss's name, kept in the result.

    Returns
    -------
    GeneralizationErrorResult

    References
    ----------
    Bates S, Hastie T, Tibshirani R (2024). Cross-validation: what does it
    estimate and how well does it do it? JASA 119(546), 1434-1445.
    Bayle P, Bayle A, Janson L, Mackey L (2020). Cross-validation confidence
    intervals for test error. NeurIPS 33.
    Dietterich TG (1998). Approximate statistical tests for comparing
    supervised classification learning algorithms. Neural Computation 10(7).
    Efron B, Tibshirani R (1997). Improvements on cross-validation: the .632+
    bootstrap method. JASA 92(438), 548-560.
    Nadeau C, Bengio Y (2003). Inference for the generalization error.
    Machine Learning 52(3), 239-281.
    Schulz-Kümpel H, Fischer S, Hornung R, Boulesteix A-L, Nagler T, Bischl B
    (2024). Constructing confidence intervals for 'the' generalization error
    — a comprehensive benchmark study. arXiv:2409.18836.

    Examples
    --------
    Three subsamples of 10 rows (a nested-CV loop is in :ref:`one_learner`):

    >>> from sklearn_bench.stats import generalization_error_interval
    >>> losses = {"split": [0, 0, 1, 1, 2, 2], "loss": [0, 1, 0, 0, 1, 1],
    ...           "n_train": [8] * 6}
    >>> res = generalization_error_interval(losses, method="corrected_t")
    >>> round(res.estimate, 3), round(res.standard_error, 3), res.df
    (0.5, 0.382, 2)
    >>> res.design
    '3 train/test splits, n_train=8, n_test=2'
    """
    check_member(method, _METHODS, "method")
    check_member(variance, _VARIANCES, "variance")
    table = _table(losses, baseline, method)
    means = table.groupby("split")["loss"].mean()
    if internal_error and method not in ("oob", "632plus"):
        raise ValueError(
            "`internal_error` corrects the out-of-bootstrap standard error; use "
            f"method='oob' or '632plus', not {method!r}."
        )
    estimate, se, df, n, design, details = _COMPUTE[method](
        table,
        means,
        variance=variance,
        train_counts=train_counts,
        apparent=apparent,
        no_information=no_information,
        internal_error=bool(internal_error),
    )
    n_train = details.pop("n_train", None)
    return GeneralizationErrorResult(
        float(estimate),
        float(se),
        df,
        method,
        str(metric),
        design,
        None if n is None else int(n),
        len(means),
        baseline is not None,
        n_train=None if n_train is None else float(n_train),
        details=details,
    )


def _auc_parts(labels, score):
    """AUC and the influence-curve values of one fold (LeDell et al. 2015)."""
    pos, neg = score[labels], score[~labels]
    ranks = stats.rankdata(score)
    auc = (ranks[labels].sum() - pos.size * (pos.size + 1) / 2) / (pos.size * neg.size)
    part = np.empty(score.size)
    part[labels] = np.searchsorted(np.sort(neg), pos, side="left") / neg.size - auc
    part[~labels] = 1 - np.searchsorted(np.sort(pos), neg, side="right") / pos.size
    part[~labels] -= auc
    return auc, part


def _codes(values, name, n=None):
    """Integer codes of a 1-D array of finite labels, in sorted label order."""
    try:
        values = np.asarray(values)
        if values.ndim != 1 or (n is not None and values.size != n):
            raise ValueError
        if values.dtype.kind in "fc" and not np.isfinite(values).all():
            raise ValueError
        return np.unique(values, return_inverse=True)[1].reshape(-1)
    except (TypeError, ValueError):
        what = "labels" if n is None else f"{n} labels, one per entry of `y_true`"
        raise ValueError(f"`{name}` must be a 1-D array of finite {what}.") from None


def cv_auc_interval(y_true, y_score, folds, *, baseline=None):
    """Influence-curve interval of the cross-validated AUC (LeDell et al. 2015).

    As R's ``cvAUC::ci.cvAUC``: the mean of the fold AUCs ± z · √(σ²/n), σ² the
    mean over folds of the squared influence curve, cut to [0, 1]. With
    ``baseline``, AUC(A) − AUC(B) on the same folds from the difference of the
    influence curves (the delta method), cut to [−1, 1].

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels (the larger is the positive class).
    y_score : array-like of shape (n_samples,)
        Out-of-fold scores of learner A.
    folds : array-like of shape (n_samples,)
        The fold of each observation (one K-fold partition).
    baseline : array-like of shape (n_samples,), default=None
        Out-of-fold scores of learner B.

    Returns
    -------
    GeneralizationErrorResult
        ``method="cv_auc"``, ``metric="auc"`` (greater is better).

    References
    ----------
    LeDell E, Petersen M, van der Laan M (2015). Computationally efficient
    confidence intervals for cross-validated area under the ROC curve
    estimates. Electronic Journal of Statistics 9, 1583-1607.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import cv_auc_interval
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 200)
    >>> score = y + rng.normal(size=200)
    >>> res = cv_auc_interval(y, score, np.arange(200) % 5)
    >>> round(res.estimate, 3), round(res.standard_error, 3)
    (0.758, 0.034)
    >>> ci = res.confidence_interval()
    >>> round(ci.low, 3), round(ci.high, 3)
    (0.691, 0.825)
    """
    y = _codes(y_true, "y_true")
    if y.max(initial=0) != 1:
        raise ValueError(
            f"`y_true` must hold two classes; got {y.max(initial=-1) + 1}."
        )
    labels, n = y == 1, y.size
    folds = _codes(folds, "folds", n)
    scores = [real_array(y_score, "y_score")]
    if baseline is not None:
        scores.append(real_array(baseline, "baseline"))
    for s, name in zip(scores, ("y_score", "baseline"), strict=False):
        if s.shape != (n,) or not np.isfinite(s).all():
            raise ValueError(
                f"`{name}` must hold {n} finite scores, one per entry of `y_true`."
            )
    w1, w0 = n / labels.sum(), n / (~labels).sum()
    aucs, sigma2 = [], []
    for f in range(folds.max() + 1):
        at = folds == f
        if labels[at].all() or not labels[at].any():
            raise ValueError(f"`folds`: fold {f} holds one class only; an AUC "
                             "needs both.")  # fmt: skip
        parts = [_auc_parts(labels[at], s[at]) for s in scores]
        auc = parts[0][0] - (parts[1][0] if baseline is not None else 0)
        ic = parts[0][1] - (parts[1][1] if baseline is not None else 0)
        ic = np.where(labels[at], w1, w0) * ic  # inverse probability weights
        aucs.append(auc)
        sigma2.append(np.mean(ic**2))
    bounds = (0.0, 1.0) if baseline is None else (-1.0, 1.0)
    return GeneralizationErrorResult(
        float(np.mean(aucs)),
        float(np.sqrt(np.mean(sigma2) / n)),
        None,
        "cv_auc",
        "auc",
        f"{len(aucs)}-fold CV, n={n}",
        n,
        len(aucs),
        baseline is not None,
        details={"fold_auc": aucs},
        _bounds=bounds,
    )
