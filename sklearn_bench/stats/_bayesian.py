"""Bayesian comparisons of two learners with a region of practical equivalence
(the ROPE ``[−rope, rope]``; Benavoli, Corani, Demšar & Zaffalon 2017, JMLR 18):
the posterior probabilities that ``d = x − y`` is practically positive, within
the ROPE, or negative, in the order and orientation of baycomp's ``(p_left,
p_rope, p_right)``. :func:`bayesian_correlated_t` on one data set (closed form),
:func:`bayesian_signed_rank` and :func:`bayesian_sign_test` across data sets
(Dirichlet-process posteriors, Monte Carlo, vectorised)."""

import warnings
from dataclasses import dataclass, field

import numpy as np

from .._validation import check_bool, check_positive_int, check_random_state
from ._common import _DECIMALS, _check_paired, _scalar, real_number

_BATCH_ELEMENTS = 2_000_000  # Monte Carlo samples x pseudo-observations per batch
_TIE_TOLERANCE = 1e-12  # thetas closer than this count as a tie for the largest
_EQUIVALENT = "equivalent"
_UNDECIDED = "undecided"


# --------------------------------------------------------------------------- result
@dataclass(frozen=True)
class BayesianTestResult:
    """Result of :func:`bayesian_correlated_t`, :func:`bayesian_signed_rank`,
    :func:`bayesian_sign_test` or :func:`bayesian_hierarchical`.

    Attributes
    ----------
    p_greater : float
        Posterior probability that ``x`` is practically larger than ``y``
        (baycomp's ``p_left``): ``P(μ > rope)`` of the mean difference for the
        correlated t-test; for the Dirichlet-process tests the probability that
        ``θ_greater`` is the largest of the three region probabilities.
    p_rope : float
        Posterior probability of practical equivalence (``P(|μ| <= rope)``, or
        that ``θ_rope`` is the largest).
    p_less : float
        Posterior probability that ``x`` is practically smaller (``p_right``).
    rope : float
        Half-width of the region of practical equivalence, in the scores' units.
    n : int
        Number of pairs (resamples or data sets).
    method : str
        ``"correlated_t"``, ``"signed_rank"``, ``"sign"`` or ``"hierarchical"``.
    description : str
        What was compared, the prior, the ROPE and the probabilities in words.
    labels : tuple of two str
        Names of ``x`` and ``y``.
    greater_is_better : bool
        Decides which probability belongs to which name in
        :attr:`probabilities` and :attr:`decision`.
    n_dropped : int
        Units a :class:`~sklearn_bench.BenchmarkResult` left out before the test
        because a task failed or is missing; 0 for arrays passed directly.
    standard_error : float
        Largest Monte Carlo standard error ``sqrt(p (1 − p) / n_draws)`` of the
        three probabilities; 0 for the closed-form correlated t-test.
    details : dict
        Method-specific quantities (posterior ``mean``, ``scale``, ``df``,
        ``rho``; ``prior_strength``, ``n_draws``, counts).

    Examples
    --------
    >>> from sklearn_bench.stats import bayesian_correlated_t
    >>> res = bayesian_correlated_t(
    ...     [0.81, 0.84, 0.80, 0.83, 0.85], [0.78, 0.80, 0.79, 0.80, 0.81],
    ...     delta=0.01, rho=0.2, labels=("A", "B"), greater_is_better=True)
    >>> round(res.p_greater, 4), round(res.p_rope, 4), round(res.p_less, 4)
    (0.9642, 0.0317, 0.0041)
    >>> res.decision, res.decide(0.99)
    ('A', 'undecided')
    >>> res.probabilities == {"A": res.p_greater, "equivalent": res.p_rope,
    ...                       "B": res.p_less}
    True
    """

    p_greater: float
    p_rope: float
    p_less: float
    rope: float
    n: int
    method: str
    description: str = field(repr=False)
    labels: tuple = ("x", "y")
    greater_is_better: bool = True
    standard_error: float = 0.0
    n_dropped: int = 0
    details: dict = field(default_factory=dict, repr=False, compare=False)
    _samples: np.ndarray | None = field(default=None, repr=False, compare=False)

    @property
    def probabilities(self):
        """``{labels[0]: P(x better), "equivalent": P(rope), labels[1]: ...}``.

        "Better" follows :attr:`greater_is_better`: for an error rate the
        probability that ``x`` is better is :attr:`p_less`.
        """
        first, second = (
            (self.p_greater, self.p_less)
            if self.greater_is_better
            else (self.p_less, self.p_greater)
        )
        return {self.labels[0]: first, _EQUIVALENT: self.p_rope, self.labels[1]: second}

    @property
    def p_a_better(self):
        """Posterior probability that ``labels[0]`` is practically better, in
        the metric's direction (:attr:`p_less` for an error rate)."""
        return self.probabilities[self.labels[0]]

    @property
    def p_b_better(self):
        """Posterior probability that ``labels[1]`` is practically better."""
        return self.probabilities[self.labels[1]]

    @property
    def decision(self):
        """The verdict at the threshold 0.95 of Benavoli et al. (2017): a label,
        ``"equivalent"`` or ``"undecided"`` (an array for a batch);
        :meth:`decide` gives it at another threshold."""
        return self.decide()

    def decide(self, threshold=0.95):
        """The name whose posterior probability reaches ``threshold``
        (Benavoli et al. 2017, Section 3.4), else ``"undecided"``.

        Parameters
        ----------
        threshold : float, default=0.95
            In ``(0.5, 1]``, so that at most one of the three can reach it.

        Returns
        -------
        str
            A label, ``"equivalent"`` or ``"undecided"``; an array of them for a
            batch.
        """
        threshold = real_number(threshold, "threshold")
        if not 0.5 < threshold <= 1:
            raise ValueError(f"`threshold` must lie in (0.5, 1]; got {threshold!r}.")
        out = np.full(np.shape(self.p_greater), _UNDECIDED, dtype=object)
        for name, p in self.probabilities.items():
            out[np.asarray(p) >= threshold] = name
        return out[()] if out.ndim == 0 else out

    @property
    def samples(self):
        """Monte Carlo samples of ``(θ_greater, θ_rope, θ_less)``, shape (S, 3).

        Each row is one posterior draw of the probabilities of the three regions
        (baycomp's ``Posterior.sample`` with the same column order). ``None`` for
        the correlated t-test, whose posterior is :meth:`posterior`.
        """
        return self._samples

    def posterior(self):
        """The posterior of the mean difference (correlated t-test only).

        Returns
        -------
        scipy.stats frozen distribution
            ``scipy.stats.t(df, loc=mean, scale=scale)``. Zero variance (a
            point-mass posterior, see :func:`bayesian_correlated_t`) raises
            ``ValueError``.
        """
        if self.method != "correlated_t":
            raise ValueError(
                f"The {self.method} test has Monte Carlo `samples`, not a "
                "closed-form posterior."
            )
        if self.details["scale"] == 0:
            raise ValueError(
                "The differences have zero variance: the posterior is a point mass "
                f"at {self.details['mean']!r}, not a Student t."
            )
        from scipy import stats

        return stats.t(
            self.details["df"], loc=self.details["mean"], scale=self.details["scale"]
        )

    def to_dict(self, threshold=0.95):
        """The result as a flat ``dict``, probabilities named by learner."""
        names = list(self.probabilities)
        probs = list(self.probabilities.values())
        return {
            "a": names[0],
            "b": names[2],
            "p_a": probs[0],
            "p_rope": probs[1],
            "p_b": probs[2],
            "decision": self.decide(threshold),
            "method": self.method,
            "n": self.n,
            "rope": self.rope,
            "standard_error": self.standard_error,
            "n_dropped": self.n_dropped,
            "threshold": threshold,
            "description": self.description,
        }

    def to_frame(self, threshold=0.95):
        """A one-row :class:`pandas.DataFrame` of :meth:`to_dict`: ``a``, ``b``,
        ``p_a`` (``a`` practically better), ``p_rope``, ``p_b``, ``decision``,
        ``method``, ``n``, ``rope``, ``standard_error``, ``n_dropped``,
        ``threshold``, ``description``.
        """
        import pandas as pd

        return pd.DataFrame([self.to_dict(threshold=threshold)])


# ----------------------------------------------------------------------- validation
def _check_labels(labels):
    """The two names of a comparison, as strings: different, and neither the
    name of the ROPE region."""
    labels = tuple(str(v) for v in labels)
    if len(labels) != 2 or labels[0] == labels[1] or _EQUIVALENT in labels:
        raise ValueError(
            f"`labels` must be two different names other than {_EQUIVALENT!r}; "
            f"got {labels!r}."
        )
    return labels


def _check_common(x, y, rope, labels, *, name, axis=None):
    d = _check_paired(x, y, axis)
    if d.shape[-1] < 2:
        raise ValueError(f"The Bayesian {name} needs at least 2 pairs in `x` and `y`.")
    rope = real_number(rope, "delta")
    if not (np.isfinite(rope) and rope >= 0):
        raise ValueError(f"`delta` must be a non-negative number; got {rope!r}.")
    if isinstance(labels, str | bytes) or not hasattr(labels, "__iter__"):
        raise TypeError(f"`labels` must be a pair of names; got {labels!r}.")
    return d, rope, _check_labels(labels)


def _check_monte_carlo(prior_strength, n_draws):
    prior_strength = real_number(prior_strength, "prior_strength")
    if not (np.isfinite(prior_strength) and prior_strength >= 0):
        raise ValueError(
            f"`prior_strength` must be a non-negative number; got {prior_strength!r}."
        )
    return prior_strength, check_positive_int(n_draws, "n_draws")


def _fmt(value):
    return f"{value:.4g}"


def _rope_words(rope):
    if rope == 0:
        return "no ROPE (rope = 0)"
    return f"ROPE [−{_fmt(rope)}, {_fmt(rope)}]"


def _probability_words(p_greater, p_rope, p_less, rope, what):
    r = _fmt(rope)
    return (
        f"P({what} > {r}) = {p_greater:.4f}, P(|{what}| <= {r}) = {p_rope:.4f}, "
        f"P({what} < −{r}) = {p_less:.4f}"
    )


# --------------------------------------------------------------- correlated t-test
def bayesian_correlated_t(
    x, y, *, delta=0.0, rho, labels=("x", "y"), greater_is_better, axis=0
):
    """Bayesian correlated t-test of resampling scores on one data set.

    Corani & Benavoli (2015), "A Bayesian approach for comparing cross-validated
    algorithms on multiple data sets", Machine Learning 100, Section 3: the
    ``n`` differences ``d = x − y`` of one data set's resamples are modelled as
    Gaussian with mean ``μ``, variance ``σ²`` and correlation ``rho`` between
    any two of them (the overlap of their training sets). Under the
    non-informative (matching) prior, the limit of the Normal–Gamma prior, the
    marginal posterior of ``μ`` is Student t with ``n − 1`` degrees of freedom,

    ``μ | d ~ t_{n−1}(mean(d), (1/n + rho/(1 − rho)) · var(d))``

    (``var`` with ``ddof=1``), the Bayesian counterpart of the Nadeau–Bengio
    corrected t-test. The probabilities are closed form:
    ``p_greater = P(μ > rope)``, ``p_rope = P(|μ| <= rope)``,
    ``p_less = P(μ < −rope)``.

    Parameters
    ----------
    x, y : array-like of shape (n,)
        Paired scores of two learners on the same ``n >= 2`` resamples of one
        data set. Or a batch: arrays that broadcast against each other, the
        resamples along ``axis`` (e.g. ``x`` of shape (n, 1), ``y`` of shape
        (n, m)); the probabilities and ``details`` are then arrays, each entry
        equal to that pair's test to the last bit.
    delta : float, default=0.0
        The smallest difference that matters: half-width of the region of
        practical equivalence ``[−delta, delta]`` in the scores' units (the
        result's ``rope``). ``0`` gives ``p_rope = 0``.
    rho : float
        Correlation of the differences in ``[0, 1)``, ``n_test / (n_test +
        n_train)`` of one resample (``1/k`` for k-fold CV; Nadeau & Bengio
        2003). Required: it depends on how the scores were made.
    labels : tuple of two str, default=("x", "y")
        Names of ``x`` and ``y`` in the result.
    greater_is_better : bool
        Whether larger scores are better (``False`` for an error rate).
    axis : int, default=0
        The axis of the resamples of a batch.

    Returns
    -------
    BayesianTestResult
        ``details`` holds ``mean``, ``scale``, ``df``, ``rho``, ``variance``.

    Notes
    -----
    Equal to baycomp's ``CorrelatedTTest`` with ``rho = 1/nfolds``. Constant
    differences (rounded to 10 decimals) give a point-mass posterior and a
    ``RuntimeWarning`` (the user guide's "Zero variance").

    Examples
    --------
    >>> from sklearn_bench.stats import bayesian_correlated_t
    >>> x = [0.12, 0.15, 0.11, 0.14, 0.13, 0.16, 0.12, 0.13, 0.15, 0.14]
    >>> y = [0.14, 0.15, 0.14, 0.15, 0.16, 0.16, 0.13, 0.15, 0.17, 0.15]
    >>> res = bayesian_correlated_t(x, y, delta=0.01, rho=0.1, labels=("A", "B"),
    ...                             greater_is_better=False)
    >>> {k: round(v, 3) for k, v in res.probabilities.items()}
    {'A': 0.83, 'equivalent': 0.17, 'B': 0.0}
    >>> res.decision
    'undecided'
    """
    greater_is_better = check_bool(greater_is_better, "greater_is_better")
    d, rope, labels = _check_common(
        x, y, delta, labels, name="correlated t-test", axis=axis
    )
    rho = real_number(rho, "rho")
    if not (np.isfinite(rho) and 0 <= rho < 1):
        raise ValueError(f"`rho` must lie in [0, 1); got {rho!r}.")
    n = d.shape[-1]
    df = n - 1
    mean = np.mean(d, axis=-1)
    rounded = np.round(d, _DECIMALS)
    constant = np.all(rounded == rounded[..., :1], axis=-1)
    variance = np.where(constant, 0.0, np.var(d, axis=-1, ddof=1))
    scale = np.sqrt((1 / n + rho / (1 - rho)) * variance)
    point = scale == 0  # zero variance: a point mass at the mean
    safe = np.where(point, 1.0, scale)
    from scipy import stats  # here: the hierarchical model needs none of it

    p_greater = stats.t.sf(rope, df, loc=mean, scale=safe)
    p_less = stats.t.cdf(-rope, df, loc=mean, scale=safe)
    p_rope = 0.0 * p_greater if rope == 0 else np.maximum(0.0, 1 - p_greater - p_less)
    what = f"mean {labels[0]} − {labels[1]}"
    if point.any():
        mean = np.where(point, np.round(mean, _DECIMALS), mean)
        if rope == 0:
            greater = (mean > 0) + 0.5 * (mean == 0)
            less = 1.0 - greater
        else:
            greater = (mean > rope).astype(float)
            less = (mean < -rope).astype(float)
        p_greater = np.where(point, greater, p_greater)
        p_less = np.where(point, less, p_less)
        p_rope = np.where(point, 1.0 - greater - less, p_rope)
        which = (
            f"The {n} differences {labels[0]} − {labels[1]} are all equal "
            f"({float(mean):.4g})"
            if d.ndim == 1
            else f"{int(point.sum())} of {point.size} comparisons have differences "
            "that are all equal"
        )
        warnings.warn(
            f"{which}: the posterior is a point mass and the probabilities are 0 or 1.",
            RuntimeWarning,
            stacklevel=2,
        )
    if d.ndim > 1:
        posterior = f"Student t with {df} df per comparison"
        words = "probabilities per comparison in p_greater, p_rope, p_less"
    else:
        posterior = (
            f"a point mass at {_fmt(mean)} (zero variance)"
            if point
            else f"Student t with {df} df, location {_fmt(mean)}, scale {_fmt(scale)}"
        )
        words = _probability_words(p_greater, p_rope, p_less, rope, what)
    description = (
        f"Bayesian correlated t-test (Corani & Benavoli 2015) of the {what} over "
        f"{n} correlated resamples of one data set (rho = {_fmt(rho)}); "
        "non-informative prior (flat on the mean, 1/σ² on the variance); "
        f"{_rope_words(rope)}; posterior of the mean difference: {posterior}. "
        f"{words}."
    )
    p_greater, p_rope, p_less = map(_scalar, (p_greater, p_rope, p_less))
    mean, scale, variance = map(_scalar, (mean, scale, variance))
    return BayesianTestResult(
        p_greater=p_greater,
        p_rope=p_rope,
        p_less=p_less,
        rope=rope,
        n=n,
        method="correlated_t",
        description=description,
        labels=labels,
        greater_is_better=bool(greater_is_better),
        details={
            "mean": mean,
            "scale": scale,
            "df": df,
            "rho": rho,
            "variance": variance,
        },
    )


# --------------------------------------------------------- Dirichlet-process tests
def _dirichlet(alpha, size, random_state):
    """``size`` draws of Dirichlet(alpha), components with alpha 0 at 0; a
    :class:`numpy.random.RandomState` draws with its own ``dirichlet`` (baycomp's
    draws for the same seed)."""
    alpha = np.asarray(alpha, dtype=float)
    positive = alpha > 0
    out = np.zeros((size, alpha.size))
    out[:, positive] = random_state.dirichlet(alpha[positive], size)
    return out


# From this many pseudo-observations on, the signed-rank test sums the weights
# of each region in sorted order (O(n) per draw) instead of the quadratic form
# w' A w (O(n^2) per draw): the same sums to rounding (about 1e-16; a test
# checks 1e-12), 20 times faster at 500 data sets.
_SORTED_FROM = 128
# Pseudo-observations x comparisons x draws per column block of the sorted sums
# (_sorted_masses).
_SORTED_BLOCK = 500_000
_MAX_SHARED = 40_000_000  # draws x pseudo-observations kept in `shared_draws`


def _dirichlet_batches(alpha, n_draws, batch, random_state, shared, transposed):
    """``(start, stop, w)`` of consecutive batches of Dirichlet draws (``w``
    transposed when asked), kept in and read from ``shared`` for an integer seed
    (see :func:`bayesian_signed_rank`)."""
    seeded = isinstance(random_state, int | np.integer) and not isinstance(
        random_state, bool
    )
    key = (alpha.tobytes(), n_draws, batch, transposed, seeded and int(random_state))
    if shared is not None and seeded and key in shared:
        yield from shared[key]
        return
    keep = shared is not None and seeded and n_draws * alpha.size <= _MAX_SHARED
    kept = []
    rng = check_random_state(random_state, keep_random_state=True)
    for start in range(0, n_draws, batch):
        stop = min(start + batch, n_draws)
        w = _dirichlet(alpha, stop - start, rng)
        if transposed:
            w = np.ascontiguousarray(w.T)
        if keep:
            w.flags.writeable = False
            kept.append((start, stop, w))
        yield start, stop, w
    if keep:
        shared.clear()  # one set at a time
        shared[key] = kept


class _SortedWalsh:
    """``w' A w`` for the signed-rank regions in sorted order: row ``i`` of
    ``A_ij = H(z_i + z_j − 2 rope)`` is 0 before ``lo_i``, 1/2 up to ``hi_i``, 1
    after, so ``(A w)_i = C_n − C_hi + (C_hi − C_lo)/2`` (``C``: cumulative sums
    of the sorted weights); likewise below ``−2 rope``."""

    def __init__(self, z, sums, bound):
        self.bound = bound
        self.order = np.argsort(z, kind="stable")
        ordered = sums[np.ix_(self.order, self.order)]
        n = ordered.shape[0]
        self.above_lo = n - (ordered >= bound).sum(axis=1)
        self.above_hi = n - (ordered > bound).sum(axis=1)
        self.below_lo = (ordered < -bound).sum(axis=1)
        self.below_hi = (ordered <= -bound).sum(axis=1)

    def masses(self, wt):
        """``(w' A_above w, w' A_below w)`` for each column of ``wt = w.T``:
        this one comparison's :func:`_sorted_masses`."""
        above, below = _sorted_masses([self], wt)
        return above[0], below[0]


def _sorted_masses(walshes, wt):
    """``(w' A_above w, w' A_below w)`` of each comparison (rows) and draw
    (columns) of ``walshes`` on the draws ``wt = w.T``, in cache-sized column
    blocks; each comparison's masses are bit for bit those of its own batch.
    The mass above is ``(Σ w)² − Σ_i w_i (C_hi + C_lo)_i / 2``; without a ROPE
    the mass below is that subtracted sum (``H(s) + H(−s) = 1``)."""
    n, n_draws = wt.shape
    k = len(walshes)
    order = np.stack([s.order for s in walshes], axis=1)  # (n, k) rows of wt

    def rows(name):  # row i * k + j of the sums: c[bound of i in j, j]
        bounds = np.stack([getattr(s, name) for s in walshes], axis=1)
        return (bounds * k + np.arange(k)).ravel()

    above_hi, above_lo = rows("above_hi"), rows("above_lo")
    below_lo, below_hi = rows("below_lo"), rows("below_hi")
    above_tie = not np.array_equal(above_hi, above_lo)
    below_tie = not np.array_equal(below_lo, below_hi)
    no_rope = all(s.bound == 0 for s in walshes)
    above_out, below_out = np.empty((k, n_draws)), np.empty((k, n_draws))
    width = max(2, _SORTED_BLOCK // (n * k))
    starts = list(range(0, n_draws, width))
    if len(starts) > 1 and n_draws - starts[-1] == 1:
        starts.pop()  # no block of one column: einsum would reduce it otherwise
    blocks = list(zip(starts, [*starts[1:], n_draws], strict=True))

    buffers = {}
    for start, stop in blocks:
        m = stop - start
        if m not in buffers:
            arrays = [np.empty((n + 1 if i == 1 else n, k, m)) for i in range(3)]
            # each row of c and ws as a view made once: the cumulative
            # sums' n additions a block cost their own time, not views
            rows = (
                list(arrays[1].reshape(n + 1, -1)),
                list(arrays[0].reshape(n, -1)),
            )
            buffers[m] = (*arrays, rows)
        ws, c, a, (c_rows, ws_rows) = buffers[m]
        flat_c, flat_a = c.reshape(-1, m), a.reshape(-1, m)
        # indices are in range: "clip" only avoids take's buffered out=
        np.take(wt[:, start:stop], order, axis=0, out=ws, mode="clip")
        c[0] = 0.0  # c[i + 1] = c[i] + ws[i]: np.cumsum's sums, row by row
        if k * m >= 64:
            for before, w, after in zip(c_rows[:-1], ws_rows, c_rows[1:], strict=True):
                np.add(before, w, out=after)
        else:
            np.cumsum(ws, axis=0, out=c[1:])
        # w' A_above w = (Σ w)² − Σ_i w_i (C_hi + C_lo)_i / 2: sums of the
        # gathered cumulative sums, no pass to average or subtract them
        below = _gathered_sum(ws, flat_c, flat_a, above_hi, above_lo, above_tie)
        above_out[:, start:stop] = c[-1] * c[-1] - below
        if not no_rope:  # else H(s) + H(−s) = 1: the rest is the mass below
            below = _gathered_sum(ws, flat_c, flat_a, below_lo, below_hi, below_tie)
        below_out[:, start:stop] = below
    return above_out, below_out


def _gathered_sum(ws, flat_c, flat_a, first, second, tie):
    """``Σ_i ws_i (c[first_i] + c[second_i]) / 2`` over the pseudo-observations
    of a block (``c[first]`` alone where no Walsh sum ties a bound), gathered
    into ``flat_a``."""
    # indices are in range: "clip" only avoids take's buffered out=
    np.take(flat_c, first, axis=0, out=flat_a, mode="clip")
    total = np.einsum("ijb,ijb->jb", ws, flat_a.reshape(ws.shape))
    if tie:
        np.take(flat_c, second, axis=0, out=flat_a, mode="clip")
        total = 0.5 * (total + np.einsum("ijb,ijb->jb", ws, flat_a.reshape(ws.shape)))
    return total


def _winner_probabilities(thetas):
    """P(each column is the largest), ties (within 1e-12) shared equally."""
    top = thetas.max(axis=1, keepdims=True)
    winners = thetas >= top - _TIE_TOLERANCE
    share = winners / winners.sum(axis=1, keepdims=True)
    return share.mean(axis=0)


def _monte_carlo_result(
    thetas, *, rope, n, method, labels, greater_is_better, details, head
):
    n_draws = thetas.shape[-2]
    # a batch: each comparison's probabilities as one comparison's
    probs = np.array([_winner_probabilities(t) for t in thetas.reshape(-1, n_draws, 3)])
    probs = probs.reshape(*thetas.shape[:-2], 3)
    ses = np.sqrt(probs * (1 - probs) / n_draws)
    p_greater, p_rope, p_less = (_scalar(probs[..., i]) for i in range(3))
    ses = [_scalar(ses[..., i]) for i in range(3)]
    most = np.max(ses, axis=0)
    what = f"{labels[0]} − {labels[1]}"
    description = (
        head + f"; {_rope_words(rope)}. Probability that each region is the most "
        f"probable one, over {n_draws} Monte Carlo samples ("
        + (
            f"SE <= {most:.4f}): "
            + _probability_words(p_greater, p_rope, p_less, rope, what)
            if thetas.ndim == 2
            else f"SE <= {np.max(most):.4f}); probabilities per comparison in "
            "p_greater, p_rope, p_less"
        )
        + "."
    )
    return BayesianTestResult(
        p_greater=p_greater,
        p_rope=p_rope,
        p_less=p_less,
        rope=rope,
        n=n,
        method=method,
        description=description,
        labels=labels,
        greater_is_better=bool(greater_is_better),
        standard_error=_scalar(most),
        details={**details, "n_draws": n_draws, "standard_errors": tuple(ses)},
        _samples=thetas,
    )


def bayesian_signed_rank(
    x,
    y,
    *,
    delta=0.0,
    prior_strength=0.5,
    n_draws=50000,
    random_state=None,
    labels=("x", "y"),
    greater_is_better,
    axis=0,
    shared_draws=None,
):
    """Bayesian signed-rank test of paired scores over several data sets.

    Benavoli, Corani, Mangili, Zaffalon & Ruggeri (2014), ICML; Benavoli et al.
    (2017, JMLR 18, Section 4), as the user guide (Bayesian comparisons)
    writes it: a Dirichlet-process prior of strength ``s = prior_strength`` at
    the pseudo-observation 0 on the distribution of ``d = x − y``; each draw of
    its posterior weights gives the probabilities ``θ_greater``, ``θ_rope``,
    ``θ_less`` of the three regions of the Walsh average ``(Z + Z')/2`` (a
    Walsh average on a ROPE boundary counts half). ``p_greater`` is the share of
    ``n_draws`` draws in which ``θ_greater`` is the largest of the three
    (baycomp's ``SignedRankTest.probs``), likewise ``p_rope`` and ``p_less``.

    Parameters
    ----------
    x, y : array-like of shape (n,)
        Paired scores of two learners on ``n >= 2`` data sets, or a batch as in
        :func:`bayesian_correlated_t` (the data sets along ``axis``). Every
        comparison of a batch uses the same draws, so with an integer
        ``random_state`` each equals that pair's test to the last bit.
    delta : float, default=0.0
        As in :func:`bayesian_correlated_t`.
    prior_strength : float, default=0.5
        ``s``, the weight of the pseudo-observation at 0 (baycomp 1.0's and
        Benavoli et al. 2017's choice); ``0`` drops it (the Bayesian bootstrap).
    n_draws : int, default=50000
        Monte Carlo draws of the Dirichlet weights.
    random_state : int, Generator or RandomState, default=None
        A :class:`numpy.random.RandomState` draws with its legacy
        ``dirichlet``, reproducing baycomp's samples for the same seed.
    labels : tuple of two str, default=("x", "y")
    greater_is_better : bool
    axis : int, default=0
        The axis of the data sets of a batch.
    shared_draws : dict, default=None
        A dict the caller keeps across calls (empty at first): tests with the
        same integer ``random_state``, ``prior_strength``, ``n_draws`` and
        number of data sets reuse the Dirichlet draws kept in it (the same seed
        draws the same weights anyway, so every result is unchanged). One set
        of draws is kept at a time, up to 4·10⁷ weights.

    Returns
    -------
    BayesianTestResult
        With :attr:`~BayesianTestResult.samples` (shape ``(n_draws, 3)``; a
        batch's shape without ``axis`` before it).

    Notes
    -----
    Differences and their pairwise sums are rounded to 10 decimals before they
    are compared with the ROPE. Unlike baycomp 1.0's ``argmax``, a draw in
    which two regions are equally probable (within 1e-12) is shared between
    them: all differences zero with ``rope = 0`` gives ``p_greater = p_less =
    0.5`` here, ``p_left = 1`` in baycomp.

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.stats import bayesian_signed_rank
    >>> rng = np.random.default_rng(0)
    >>> y = rng.uniform(0.6, 0.9, 20)
    >>> x = y + rng.normal(0.02, 0.01, 20)
    >>> res = bayesian_signed_rank(x, y, delta=0.01, random_state=0,
    ...                            labels=("A", "B"), greater_is_better=True)
    >>> round(res.p_greater, 2), res.decision
    (1.0, 'A')
    >>> res.samples.shape
    (50000, 3)
    """
    greater_is_better = check_bool(greater_is_better, "greater_is_better")
    d, rope, labels = _check_common(
        x, y, delta, labels, name="signed-rank test", axis=axis
    )
    prior_strength, n_draws = _check_monte_carlo(prior_strength, n_draws)
    n = d.shape[-1]
    z = d.reshape(-1, n)  # one comparison a row
    alpha = np.ones(n)
    if prior_strength > 0:
        z = np.concatenate([np.zeros((len(z), 1)), z], axis=1)
        alpha = np.concatenate([[prior_strength], alpha])
    bound = np.round(2 * rope, _DECIMALS)
    walshes, regions = [], []
    for row in z:
        sums = np.round(row[:, None] + row[None, :], _DECIMALS)
        if row.size >= _SORTED_FROM:
            walshes.append(_SortedWalsh(row, sums, bound))
        else:
            above = (sums > bound) + 0.5 * (sums == bound)
            regions.append((above, (sums < -bound) + 0.5 * (sums == -bound)))
    thetas = np.empty((len(z), n_draws, 3))
    batch = max(1, _BATCH_ELEMENTS // z.shape[1])
    if shared_draws is not None and not isinstance(shared_draws, dict):
        raise TypeError(f"`shared_draws` must be a dict or None; got {shared_draws!r}.")
    for start, stop, w in _dirichlet_batches(  # transposed for the sorted sums
        alpha, n_draws, batch, random_state, shared_draws, bool(walshes)
    ):
        if walshes:  # every comparison on the same draws at once
            masses = _sorted_masses(walshes, w)
            thetas[:, start:stop, 0], thetas[:, start:stop, 2] = masses
        for j, pair in enumerate(regions):
            for col, region in zip((0, 2), pair, strict=True):
                thetas[j, start:stop, col] = np.einsum(
                    "bi,ij,bj->b", w, region, w, optimize=True
                )
    thetas[..., 1] = 1.0 - thetas[..., 0] - thetas[..., 2]
    if rope == 0:
        thetas[..., 1] = 0.0
    thetas = thetas.reshape(*d.shape[:-1], n_draws, 3)
    head = (
        "Bayesian signed-rank test (Benavoli et al. 2014; 2017) of "
        f"{labels[0]} − {labels[1]} over {n} data sets: Dirichlet-process "
        f"posterior, prior strength {_fmt(prior_strength)} at the "
        "pseudo-observation 0; regions of the Walsh average (Z + Z')/2"
    )
    return _monte_carlo_result(
        thetas,
        rope=rope,
        n=n,
        method="signed_rank",
        labels=labels,
        greater_is_better=greater_is_better,
        details={"prior_strength": prior_strength},
        head=head,
    )


def bayesian_sign_test(
    x,
    y,
    *,
    delta=0.0,
    prior_strength=1.0,
    n_draws=50000,
    random_state=None,
    labels=("x", "y"),
    greater_is_better,
):
    """Bayesian sign test of paired scores over several data sets.

    Benavoli et al. (2014; 2017, Section 4): with a Dirichlet-process prior of
    strength ``s`` at the pseudo-observation ``z0 = 0``, the posterior
    probabilities of the three regions ``d > rope``, ``|d| <= rope`` and
    ``d < −rope`` of ``d = x − y`` are
    ``(θ_greater, θ_rope, θ_less) ~ Dirichlet(n_greater, n_rope + s, n_less)``
    (the pseudo-observation 0 lies in the ROPE; counts of differences in each
    region). ``p_greater`` etc. are the posterior probabilities that each
    region is the most probable one, as in :func:`bayesian_signed_rank`.

    Parameters
    ----------
    x, y : array-like of shape (n,)
        Paired scores of two learners on ``n >= 2`` data sets.
    delta : float, default=0.0
        As in :func:`bayesian_correlated_t`; with ``delta = 0`` the ROPE holds
        the ties ``d = 0`` and the prior.
    prior_strength : float, default=1.0
        ``s`` (baycomp 1.0's default for its sign test); ``0`` gives the
        Bayesian bootstrap.
    n_draws : int, default=50000
        Monte Carlo draws of the Dirichlet posterior.
    random_state : int, Generator or RandomState, default=None
    labels : tuple of two str, default=("x", "y")
    greater_is_better : bool

    Returns
    -------
    BayesianTestResult
        ``details`` holds the counts ``n_greater``, ``n_rope``, ``n_less``.

    Notes
    -----
    baycomp 1.0 adds 0.0001 to every count "for numerical stability"; here a
    region with no difference and no prior gets probability exactly 0 (the
    two agree within Monte Carlo error). Ties of the largest region are
    shared, as in :func:`bayesian_signed_rank`.

    Examples
    --------
    >>> from sklearn_bench.stats import bayesian_sign_test
    >>> x = [0.81, 0.84, 0.80, 0.83, 0.85, 0.90, 0.70, 0.75]
    >>> y = [0.78, 0.80, 0.795, 0.80, 0.81, 0.86, 0.66, 0.76]
    >>> res = bayesian_sign_test(x, y, delta=0.01, random_state=0,
    ...                          greater_is_better=True)
    >>> res.details["n_greater"], res.details["n_rope"], res.details["n_less"]
    (6, 2, 0)
    >>> round(res.p_greater, 2)
    0.86
    """
    greater_is_better = check_bool(greater_is_better, "greater_is_better")
    d, rope, labels = _check_common(x, y, delta, labels, name="sign test")
    prior_strength, n_draws = _check_monte_carlo(prior_strength, n_draws)
    bound = np.round(rope, _DECIMALS)
    d = np.round(d, _DECIMALS)
    n_greater = int(np.count_nonzero(d > bound))
    n_less = int(np.count_nonzero(d < -bound))
    n_rope = d.size - n_greater - n_less
    alpha = np.array([n_greater, n_rope + prior_strength, n_less], dtype=float)
    thetas = _dirichlet(
        alpha, n_draws, check_random_state(random_state, keep_random_state=True)
    )
    head = (
        "Bayesian sign test (Benavoli et al. 2014; 2017) of "
        f"{labels[0]} − {labels[1]} over {d.size} data sets "
        f"({n_greater} above the ROPE, {n_rope} inside, {n_less} below): "
        f"Dirichlet posterior, prior strength {_fmt(prior_strength)} at the "
        "pseudo-observation 0"
    )
    return _monte_carlo_result(
        thetas,
        rope=rope,
        n=d.size,
        method="sign",
        labels=labels,
        greater_is_better=greater_is_better,
        details={
            "prior_strength": prior_strength,
            "n_greater": n_greater,
            "n_rope": n_rope,
            "n_less": n_less,
        },
        head=head,
    )
