"""The four panels of Yousefi et al. (2011), Figures 3-6."""

from ._common import figure_label

_PANELS = [
    ("bias", "(a) expected bias $\\mathrm{Bias}_{Av}$"),
    ("variance", "(b) expected variance $\\mathrm{Var}_{Av}$"),
    ("rms", "(c) expected RMS $\\mathrm{RMS}_{Av}$"),
    ("comparative_bias", "(d) comparative bias $E_{\\Phi_m}[C_{bias}]$"),
]


def plot_multiple_rule_bias(result, *, axes=None, datasets=None):
    """Plot bias, variance, RMS and comparative-advantage bias against ``m``.

    Yousefi, Hua and Dougherty (2011), Figures 3-6: one line per data set (and
    the ``"average"`` curve of eq. (10)); no comparative bias at ``r = 1``.

    Parameters
    ----------
    result : MultipleRuleBiasResult
        From :func:`sklearn_bench.stats.multiple_rule_bias`.
    axes : array of 4 matplotlib Axes, default=None
        Where to draw; ``None`` makes a new 2 x 2 figure.
    datasets : list of str, default=None
        The ``dataset`` values of ``result.to_frame()`` to draw; ``None`` all.

    Returns
    -------
    axes : ndarray of 4 matplotlib Axes

    Examples
    --------
    >>> import numpy as np
    >>> from sklearn_bench.plotting import plot_multiple_rule_bias
    >>> from sklearn_bench.stats import multiple_rule_bias
    >>> rng = np.random.default_rng(0)
    >>> true = rng.uniform(0.1, 0.3, size=(4, 50))
    >>> res = multiple_rule_bias(true, true + rng.normal(0, 0.05, size=(4, 50)))
    >>> axes = plot_multiple_rule_bias(res)
    >>> [ax.get_title()[:3] for ax in axes]
    ['(a)', '(b)', '(c)', '(d)']
    """
    if not hasattr(result, "to_frame") or not hasattr(result, "m"):
        raise TypeError(
            "`result` must be a MultipleRuleBiasResult (from multiple_rule_bias); "
            f"got {type(result).__name__}."
        )
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    frame = result.to_frame()
    names = list(dict.fromkeys(frame["dataset"]))
    if datasets is not None:
        unknown = [d for d in datasets if d not in names]
        if unknown:
            raise ValueError(
                f"`datasets` has names not in the result: {unknown}; known: {names}."
            )
        names = list(datasets)
    if axes is None:
        _, axes = plt.subplots(2, 2, figsize=(9, 6.5), constrained_layout=True)
    axes = np.asarray(axes).ravel()
    if axes.size != 4:
        raise ValueError(f"`axes` must hold 4 Axes; got {axes.size}.")
    for ax, (column, title) in zip(axes, _PANELS, strict=True):
        for name in names:
            part = frame[frame["dataset"] == name]
            if column == "comparative_bias":
                part = part[part["r"] > 1]
            style = {"color": "black", "lw": 2} if name == "average" else {}
            label = figure_label(name)
            ax.plot(part["m"], part[column], marker="o", ms=3, label=label, **style)
        ax.set_title(title, fontsize=10)
        ax.set_xlabel("number of classifier rule models $m$")
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # m counts rules
        if column in ("bias", "comparative_bias"):
            ax.axhline(0, color="grey", lw=0.8, ls=":", label="_zero")
    if len(names) > 1:
        axes[0].legend(fontsize=8)
    return axes
