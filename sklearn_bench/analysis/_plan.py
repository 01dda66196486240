"""The analysis plan of a study: which analyses, at which levels, with which Δ.

One plan, fixed before looking at the results, gives every output of a study (the
HTML report, the text summary, the LaTeX tables, the methods paragraph and the CLI)
its numbers: :func:`~sklearn_bench.analysis.analyse` runs it once.
"""

import importlib.util
from dataclasses import dataclass, field

from .._metrics import default_delta
from .._validation import check_choice, check_confidence_level, check_real
from ..stats import ADJUST_METHODS as _ADJUST

__all__ = [
    "ANALYSES",
    "BAYESIAN_MODELS",
    "OPTIONAL_ANALYSES",
    "POSTHOCS",
    "AnalysisPlan",
    "check_posthoc",
]

# Every section the report can show, by the name config `[analysis] run` uses;
# the report shows exactly those asked for (the bottom line always).
ANALYSES = ("effects", "friedman", "pairwise", "bayesian", "power", "win_tie_loss")
# Run only when asked for (``[analysis] run`` or ``analyses=``): sensitivity
# analyses a peer package would have chosen (autorank's RM-ANOVA + Tukey; the
# Bayesian Plackett–Luce ranking of scmamp, Calvo et al. 2018). The ranking is
# cheap (a Gibbs sampler in NumPy, no extra) but stays off by default: the report
# already ranks every learner (Friedman's average ranks, the leaderboard), and one
# more ranking by default is one more analysis that can seem to disagree with the
# primary one. It never enters the bottom line.
OPTIONAL_ANALYSES = ("rm_anova", "ranking")

# The Bayesian model across data sets (config ``[analysis] bayesian``): the
# signed-rank test needs no extra; the hierarchical model needs NumPyro, and runs
# only when the plan names it (the Plackett–Luce ranking runs beside it, or when
# ``analyses`` names "ranking"; it needs no extra).
BAYESIAN_MODELS = ("signed_rank", "hierarchical")
BAYES_INSTALL = 'pip install "sklearn-bench[bayes]"'

# The post-hoc tests after Friedman's test (config [analysis] posthoc): (words
# for the methods paragraph, citation keys).
POSTHOCS = {
    "nemenyi": (
        "Nemenyi's all-pairs comparisons of average ranks (critical difference)",
        (),
    ),
    "conover": (
        "Conover and Iman's all-pairs t-tests of rank sums",
        ("conover1979",),
    ),
    "siegel": (
        "Siegel and Castellan's all-pairs z-tests of average ranks",
        ("siegel1988",),
    ),
    "miller": (
        "Miller's simultaneous all-pairs comparisons of average ranks",
        ("miller1966",),
    ),
    "quade": (
        "Quade's all-pairs t-tests of range-weighted rank sums",
        ("quade1979",),
    ),
    "exact_ranksum": (
        "exact all-pairs tests of differences of Friedman rank sums",
        ("eisinga2017",),
    ),
}


def check_posthoc(posthoc, adjust):
    """The post-hoc test after Friedman's and its correction, checked.

    Parameters
    ----------
    posthoc : str
        One of :data:`POSTHOCS`.
    adjust : str or None
        Its multiplicity correction, as ``adjust`` of
        :func:`~sklearn_bench.stats.pairwise_tests`; ``None``: single-step for
        Nemenyi and Miller, Shaffer's otherwise.

    Returns
    -------
    posthoc, adjust : str

    Examples
    --------
    >>> from sklearn_bench.analysis import check_posthoc
    >>> check_posthoc("Conover", None)
    ('conover', 'shaffer')
    """
    posthoc = check_choice(posthoc, POSTHOCS, "posthoc")
    single = posthoc in ("nemenyi", "miller")
    if adjust is not None:
        if not isinstance(adjust, str) or adjust.lower() not in _ADJUST:
            raise ValueError(
                f"`posthoc_adjust` must be one of {list(_ADJUST)}; got {adjust!r}."
            )
        if single != (adjust.lower() == "single_step"):
            raise ValueError(
                "`posthoc_adjust` 'single_step' goes with posthoc 'nemenyi' or "
                f"'miller' and only with them; got posthoc={posthoc!r}, "
                f"posthoc_adjust={adjust!r}."
            )
    if adjust is None:
        return posthoc, "single_step" if single else "shaffer"
    return posthoc, adjust.lower()


def hierarchical_installed():
    """Whether NumPyro (the [bayes] extra) is installed; nothing is imported.

    It only decides whether ``bayesian="hierarchical"`` can run (a clear error
    otherwise), never which model a plan uses.

    Examples
    --------
    >>> from sklearn_bench.analysis import hierarchical_installed
    >>> isinstance(hierarchical_installed(), bool)
    True
    """
    return importlib.util.find_spec("numpyro") is not None


@dataclass(frozen=True, kw_only=True)
class AnalysisPlan:
    """What to compute about a study, fixed before looking at its results.

    The one set of settings that every output of a study renders: the report,
    the text summary, the LaTeX tables, the methods paragraph and the CLI get
    their numbers from :func:`~sklearn_bench.analysis.analyse` run with it.

    Parameters
    ----------
    metric : str, default=None
        Which metric; the result's first by default.
    alpha : float, default=0.05
        Significance level of the primary analysis and of the power analysis.
    confidence_level : float, default=0.95
        Level of the confidence intervals; their tests use ``1 −
        confidence_level``.
    delta : float, default=None
        The smallest difference that matters, Δ, in units of the metric: the
        ROPE of every Bayesian comparison, the difference the power analysis
        should detect (Boulesteix et al. 2015, Section 3) and the margin of
        practical equivalence. ``None``: the one default rule of the package
        (:func:`sklearn_bench._metrics.default_delta`: 0.01 for a metric on a
        [0, 1] scale, none otherwise).
    target_power : float, default=0.8
        The power the number of data sets needed is computed for.
    analyses : tuple of str, default=ANALYSES
        Any of :data:`ANALYSES` (``"effects"``, ``"friedman"``,
        ``"pairwise"``, ``"bayesian"``, ``"power"``, ``"win_tie_loss"``) and,
        only when named, ``"rm_anova"``: autorank's parametric path
        (repeated-measures ANOVA and Tukey's HSD) as a sensitivity analysis,
        and ``"ranking"``: the Bayesian Plackett–Luce ranking of all learners
        (Calvo et al. 2018; Gibbs sampling, no extra), shown in the Bayesian
        section (so it needs ``"bayesian"`` too); it also runs with
        ``bayesian="hierarchical"``. Neither enters the bottom line.
    posthoc : str, default="nemenyi"
        The all-pairs post-hoc test after Friedman's test, one of
        :data:`POSTHOCS`.
    adjust : str, default=None
        Its multiplicity correction, as ``adjust`` of
        :func:`~sklearn_bench.stats.pairwise_tests`; ``None``: single-step for
        Nemenyi and Miller, Shaffer's otherwise.
    bayesian : {"signed_rank", "hierarchical"}, default="signed_rank"
        The Bayesian model across data sets. ``"signed_rank"`` (Benavoli et
        al. 2017) needs no extra. ``"hierarchical"`` fits the hierarchical
        model of Corani et al. (2017) on every split score, and the Bayesian
        Plackett–Luce ranking of all learners (Calvo et al. 2018), by MCMC; it
        needs the [bayes] extra (NumPyro) and is a ``ValueError`` without it
        (the ranking alone: ``"ranking"`` in ``analyses``, no extra).
        Which model runs never depends on what is installed.

    Examples
    --------
    >>> from sklearn_bench.analysis import AnalysisPlan
    >>> plan = AnalysisPlan(delta=0.02, posthoc="conover")
    >>> plan.delta, plan.adjust, plan.bayesian
    (0.02, 'shaffer', 'signed_rank')
    >>> plan.resolved_delta("accuracy"), AnalysisPlan().resolved_delta("accuracy")
    ((0.02, 'given'), (0.01, 'default'))
    """

    metric: str | None = None
    alpha: float = 0.05
    confidence_level: float = 0.95
    delta: float | None = None
    target_power: float = 0.8
    analyses: tuple = field(default=ANALYSES)
    posthoc: str = "nemenyi"
    adjust: str | None = None
    bayesian: str = "signed_rank"

    def __post_init__(self):
        analyses = self.analyses
        if not isinstance(analyses, list | tuple | set | frozenset) or not all(
            isinstance(a, str) for a in analyses
        ):
            raise TypeError(f"`analyses` must be a list of names; got {analyses!r}.")
        unknown = set(analyses) - set(ANALYSES) - set(OPTIONAL_ANALYSES)
        if unknown:
            raise ValueError(
                f"`analyses` has unknown entries {sorted(unknown)}; choose from "
                f"{list(ANALYSES + OPTIONAL_ANALYSES)}."
            )
        if "ranking" in analyses and "bayesian" not in analyses:
            raise ValueError(
                "`analyses` names 'ranking' without 'bayesian': the Plackett–Luce "
                "ranking is shown in the Bayesian section; add 'bayesian'."
            )
        posthoc, adjust = check_posthoc(self.posthoc, self.adjust)
        target = check_real(self.target_power, "target_power")
        if not 0 < target < 1:
            raise ValueError(
                "`target_power` must lie strictly between 0 and 1; got "
                f"{self.target_power!r}."
            )
        delta = self.delta
        if delta is not None:
            delta = check_real(delta, "delta")
            if not delta > 0:
                raise ValueError(f"`delta` must be positive (or None); got {delta!r}.")
        alpha = check_real(self.alpha, "alpha")
        if not 0 < alpha < 1:
            raise ValueError(
                f"`alpha` must lie strictly between 0 and 1; got {self.alpha!r}."
            )
        level = check_confidence_level(self.confidence_level)
        if not isinstance(self.bayesian, str) or self.bayesian not in BAYESIAN_MODELS:
            raise ValueError(
                f"`bayesian` must be one of {list(BAYESIAN_MODELS)}; got "
                f"{self.bayesian!r}."
            )
        if self.bayesian == "hierarchical" and not hierarchical_installed():
            raise ValueError(
                "bayesian='hierarchical' fits the hierarchical model by MCMC, which "
                f"needs NumPyro: {BAYES_INSTALL}. Or use bayesian='signed_rank', "
                "which needs no extra."
            )
        for name, value in (
            ("analyses", tuple(analyses)),
            ("posthoc", posthoc),
            ("adjust", adjust),
            ("target_power", target),
            ("delta", delta),
            ("alpha", alpha),
            ("confidence_level", level),
        ):
            object.__setattr__(self, name, value)

    def resolved_delta(self, metric):
        """Δ for ``metric`` and where it came from.

        Returns
        -------
        delta : float or None
        source : {"given", "default", "none"}
        """
        if self.delta is not None:
            return float(self.delta), "given"
        default = default_delta(metric)
        if default is None:
            return None, "none"
        return float(default), "default"
