"""Power of the across-data-set paired t-test and the number of data sets
needed (Boulesteix et al. 2015, Fig. 2), one curve per σ of the per-data-set
differences. matplotlib is imported inside the functions."""

import numpy as np

from .._validation import real_array, real_number
from ..analysis._analysis import needed_points, power_points
from ._common import fitted_title

_FIGSIZE = (6.0, 4.0)


def _positive_values(values, name, what):
    """``values`` as a 1-D array of positive finite numbers, else a ValueError."""
    values = np.atleast_1d(real_array(values, name))
    if (
        values.ndim != 1
        or values.size == 0
        or not np.all((values > 0) & np.isfinite(values))
    ):
        raise ValueError(f"`{name}` must be {what}.")
    return values


def _sigmas(sigma):
    return _positive_values(sigma, "sigma", "a positive number or a list of them")


def _test_words(alternative):
    return f"{'two' if alternative == 'two-sided' else 'one'}-sided paired t"


def _axes(ax, left, right, pad):
    """``ax``, or the axes of a new figure placed by fixed margins (inches; the
    title's two lines ``pad`` points above): a constrained layout measured
    every tick label twice, to lay out and to draw."""
    import matplotlib.pyplot as plt

    if ax is None:
        (w, h), bottom, top = _FIGSIZE, 0.48, (pad + 28) / 72
        rect = (left / w, bottom / h, (w - left - right) / w, (h - bottom - top) / h)
        ax = plt.figure(figsize=_FIGSIZE).add_axes(rect)
    return ax


def plot_power_curve(
    delta,
    sigma,
    *,
    n_datasets=None,
    alpha=0.05,
    alternative="two-sided",
    method="exact",
    target_power=0.8,
    mark=None,
    ax=None,
):
    """Power of the paired t-test against the number of data sets: one curve of
    :func:`~sklearn_bench.stats.power_paired_t` per ``σ`` and a dotted line at
    ``target_power`` (Boulesteix et al. 2015, Fig. 2 right).

    Parameters
    ----------
    delta : float
        The difference in mean performance to detect (> 0).
    sigma : float or list of float
        Standard deviation(s) of the per-data-set differences.
    n_datasets : array-like of int, default=None
        The ``J`` values of the curve (at least two, each at least 2); default
        ``2..max(50, 1.2 × J needed)``, at most 500, and past ``mark``. A
        single number is refused: the J of the study at hand is ``mark``.
    alpha : float, default=0.05
    alternative : {"two-sided", "greater"}, default="two-sided"
        The test's: two-sided, as the analyses run it; ``"greater"`` with
        ``method="approx"`` redraws Boulesteix et al. (2015)'s figure.
    method : {"exact", "approx"}, default="exact"
        As in :func:`~sklearn_bench.stats.power_paired_t`.
    target_power : float or None, default=0.8
        Reference line; ``None`` draws none.
    mark : int, default=None
        Number of data sets of the study at hand: a point on each curve and a
        vertical line labelled ``this study`` above the axes (off the curves).
    ax : matplotlib.axes.Axes, default=None

    Returns
    -------
    matplotlib.axes.Axes
        The curves carry gid ``"power-curve"`` and labels ``"σ = ..."``.

    Examples
    --------
    >>> from sklearn_bench.plotting import plot_power_curve
    >>> ax = plot_power_curve(0.05, [0.03, 0.05, 0.075, 0.1])
    >>> [line.get_label() for line in ax.lines if line.get_gid() == "power-curve"]
    ['σ = 0.03', 'σ = 0.05', 'σ = 0.075', 'σ = 0.1']
    """
    sigmas = _sigmas(sigma)
    delta = real_number(delta, "delta")
    if not (delta > 0 and np.isfinite(delta)):
        raise ValueError(f"`delta` must be positive; got {delta!r}.")
    J = None
    if n_datasets is not None:
        J = np.unique(real_array(n_datasets, "n_datasets"))
        if J.ndim != 1 or J.size < 2 or not np.all((J >= 2) & (J == np.round(J))):
            raise ValueError(
                "`n_datasets` must be the numbers of data sets along the curve: "
                "at least two integers >= 2 (e.g. range(2, 51)); got "
                f"{n_datasets!r}. To mark the J of this study, pass mark=J."
            )
        J = J.astype(int)
    J, curves, marks = power_points(
        delta, sigmas, alpha=alpha, alternative=alternative, method=method,
        n_datasets=J, mark=mark,
    )  # fmt: skip
    return draw_power_curve(
        J, curves, sigmas, delta=delta, alpha=alpha, alternative=alternative,
        target_power=target_power, mark=mark, marks=marks, ax=ax,
    )  # fmt: skip


def draw_power_curve(
    J, curves, sigmas, *, delta, alpha, alternative="two-sided", target_power=0.8,
    mark=None, marks=None, ax=None,
):  # fmt: skip
    """Draw :func:`plot_power_curve`'s figure from its points: ``curves[i]`` is
    the power at ``J`` for ``sigmas[i]``, ``marks[i]`` at ``mark``."""
    pad = 18 if mark is not None else 6  # room for "this study" above
    ax = _axes(ax, 0.55, 0.45 if mark is not None else 0.15, pad)
    for i, s in enumerate(sigmas):
        (line,) = ax.plot(J, curves[i], label=f"σ = {s:.3g}", gid="power-curve")
        if mark is not None:
            ax.plot([mark], [marks[i]], "o", color=line.get_color(), gid="power-mark")
    if target_power is not None:
        ax.axhline(target_power, color="0.5", linestyle=":", gid="power-target")
    if mark is not None:
        ax.axvline(mark, color="0.3", linestyle="--", linewidth=1, gid="power-study")
        # Above the axes, where no curve can run through it.
        ax.annotate(
            f"this study (J = {mark})",
            xy=(mark, 1.0),
            xycoords=("data", "axes fraction"),
            xytext=(0, 3),
            textcoords="offset points",
            ha="center",
            va="bottom",
            fontsize=9,
            annotation_clip=False,
            gid="power-study-label",
        )
    ax.set_xlim(np.min(J), np.max(J) if mark is None else max(np.max(J), mark))
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("number of data sets J")
    ax.set_ylabel("power")
    fitted_title(
        ax,
        f"Power of the {_test_words(alternative)} to detect Δ = {delta:.3g} "
        f"(α = {alpha:.3g})",
        pad=pad,
        y=1.0,  # where matplotlib puts it, without measuring every tick label
    )
    ax.legend(loc="lower right", fontsize=9)
    ax.grid(color="0.92")
    return ax


def plot_datasets_needed(
    sigma,
    *,
    delta=None,
    power=0.8,
    alpha=0.05,
    alternative="two-sided",
    method="exact",
    mark=None,
    ax=None,
):
    """Number of data sets needed against the difference to detect: one curve
    of :func:`~sklearn_bench.stats.n_datasets_needed` per ``σ``, log ``J`` axis
    (Boulesteix et al. 2015, Fig. 2 left).

    Parameters
    ----------
    sigma : float or list of float
        Standard deviation(s) of the per-data-set differences.
    delta : array-like of float, default=None
        The differences; default 40 values from ``σ_min/5`` to ``2 σ_max``.
    power : float, default=0.8
    alpha : float, default=0.05
    alternative, method : str
        As in :func:`plot_power_curve`.
    mark : tuple of (float, int), default=None
        ``(Δ, J)`` of the study at hand, drawn as a labelled point.
    ax : matplotlib.axes.Axes, default=None

    Returns
    -------
    matplotlib.axes.Axes
        The curves carry gid ``"needed-curve"``.

    Examples
    --------
    >>> from sklearn_bench.plotting import plot_datasets_needed
    >>> ax = plot_datasets_needed([0.03, 0.1], delta=[0.05, 0.1])
    >>> [[int(v) for v in line.get_ydata()] for line in ax.lines
    ...  if line.get_gid() == "needed-curve"]
    [[6, 3], [34, 10]]
    """
    sigmas = _sigmas(sigma)
    if delta is None:
        deltas = np.linspace(sigmas.min() / 5, 2 * sigmas.max(), 40)
    else:
        deltas = _positive_values(delta, "delta", "a list of positive numbers")
    opts = {"power": power, "alpha": alpha, "alternative": alternative}
    curves = needed_points(deltas, sigmas, method=method, **opts)
    return draw_datasets_needed(deltas, curves, sigmas, mark=mark, ax=ax, **opts)


def draw_datasets_needed(
    deltas, curves, sigmas, *, power, alpha, alternative="two-sided", mark=None,
    ax=None,
):  # fmt: skip
    """Draw :func:`plot_datasets_needed`'s figure from its points:
    ``curves[i]`` is the J needed at ``deltas`` for ``sigmas[i]``."""
    digits = len(f"{np.nanmax(curves) * 1.5:.0f}")  # of the longest tick label
    ax = _axes(ax, 0.4 + 0.075 * digits, 0.1, 6)
    for s, needed in zip(sigmas, curves, strict=True):
        ax.plot(
            deltas,
            needed,
            label=f"σ = {s:.3g}",
            gid="needed-curve",
            drawstyle="steps-post",
        )
    if mark is not None:
        d, J = mark
        ax.plot([d], [J], "o", color="black", gid="needed-mark")
        ax.annotate(
            f"J = {J} for Δ = {d:.3g}",
            xy=(d, J),
            xytext=(6, 6),
            textcoords="offset points",
            fontsize=9,
            bbox={"facecolor": "white", "edgecolor": "none", "alpha": 0.6},
        )
    from matplotlib.ticker import LogLocator, ScalarFormatter

    ax.set_yscale("log")
    # plain integers on the log axis (2, 5, 10, 20, ...), not 10^1
    ax.yaxis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
    formatter = ScalarFormatter()
    formatter.set_scientific(False)
    ax.yaxis.set_major_formatter(formatter)
    ax.set_xlabel("difference to detect Δ (metric units)")
    ax.set_ylabel("data sets needed J")
    fitted_title(
        ax,
        f"Data sets the {_test_words(alternative)} needs for power {power:.0%} "
        f"(α = {alpha:.3g})",
        y=1.0,
    )
    ax.legend(loc="upper right", fontsize=9)
    ax.grid(color="0.92", which="both")
    return ax
