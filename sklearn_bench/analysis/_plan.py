"""The analysis plan of a study: which analyses, at which levels, with which Δ."""

import importlib.util
from dataclasses import dataclass, field, fields

from .._metrics import default_delta
from .._text import ADJUST_METHODS
from .._validation import (
    check_choice,
    check_confidence_level,
    check_fraction,
    check_real,
)

# Every section the report can show, by the name config `[analysis] run` uses;
# the report shows exactly those asked for (the bottom line always).
ANALYSES = (
    "effects",
    "friedman",
    "pairwise",
    "bayesian",
    "power",
    "win_tie_loss",
    "generalization",
)
# Run only when asked for: sensitivity analyses of peer packages (autorank's
# RM-ANOVA + Tukey; scmamp's Plackett–Luce ranking), off by default as one more
# ranking is one more analysis that can seem to disagree with the primary one.
OPTIONAL_ANALYSES = ("rm_anova", "ranking")
# The Bayesian model across data sets; "hierarchical" needs NumPyro.
BAYESIAN_MODELS = ("signed_rank", "hierarchical")
BAYES_INSTALL = 'pip install "sklearn-bench[bayes]"'

# The post-hoc tests after Friedman's test: (words for the methods paragraph,
# citation keys, title).
POSTHOCS = {
    "nemenyi": (
        "Nemenyi's all-pairs comparisons of average ranks (critical difference)",
        (),
        "Nemenyi",
    ),
    "conover": (
        "Conover and Iman's all-pairs t-tests of rank sums",
        ("conover1979",),
        "Conover–Iman",
    ),
    "siegel": (
        "Siegel and Castellan's all-pairs z-tests of average ranks",
        ("siegel1988",),
        "Siegel–Castellan",
    ),
    "miller": (
        "Miller's simultaneous all-pairs comparisons of average ranks",
        ("miller1966",),
        "Miller",
    ),
    "quade": (
        "Quade's all-pairs t-tests of range-weighted rank sums",
        ("quade1979",),
        "Quade",
    ),
    "exact_ranksum": (
        "exact all-pairs tests of differences of Friedman rank sums",
        ("eisinga2017",),
        "Exact rank-sum (Eisinga et al. 2017)",
    ),
}
_SINGLE_STEP = ("nemenyi", "miller")
# The intervals of one learner's error a run can give (results/_intervals.py).
GENERALIZATION_METHODS = (
    "nested_cv",
    "conservative_z",
    "corrected_t",
    "holdout",
    "naive_cv",
    "five_by_two",
)
ADJUST_CHOICES = tuple(ADJUST_METHODS)


def hierarchical_installed():
    """Whether NumPyro (the [bayes] extra) is installed, without importing it:
    whether ``bayesian="hierarchical"`` can run, never which model a plan uses."""
    return importlib.util.find_spec("numpyro") is not None


def _setting(default, kind, help, *, choices=None, key=None):
    """A declared setting: default, type, help, choices and its key in the
    config's ``[analysis]`` table (its name unless given)."""
    meta = {"type": kind, "help": help, "choices": choices, "key": key}
    return field(default=default, metadata=meta)


@dataclass(frozen=True, kw_only=True)
class AnalysisPlan:
    """What to compute about a study, fixed before looking at its results.

    Every output of a study (report, summary, LaTeX, methods paragraph, CLI)
    gets its numbers from :func:`~sklearn_bench.analysis.analyse` run with one
    plan. Each setting is declared once (:func:`plan_settings`); the CLI's
    options, the config's ``[analysis]`` table and the report's settings table
    are generated from the declarations.

    Parameters
    ----------
    metric : str, default=None
        Which metric; the result's first by default.
    analyses : tuple of str, default=ANALYSES
        Any of ``"effects"``, ``"friedman"``, ``"pairwise"``, ``"bayesian"``,
        ``"power"``, ``"win_tie_loss"``, ``"generalization"`` (the interval of
        each learner's error on each data set) and, only when named,
        ``"rm_anova"`` (repeated-measures ANOVA and Tukey's HSD) and
        ``"ranking"`` (the Bayesian Plackett–Luce ranking; needs
        ``"bayesian"``), sensitivity analyses outside the bottom line. The
        config's key is ``run``.
    alpha : float, default=0.05
        Significance level of every test, the critical difference and the
        power analysis.
    confidence_level : float, default=0.95
        Level of the confidence intervals.
    delta : float, default=None
        The smallest difference that matters, Δ, in units of the metric: the
        ROPE of the Bayesian comparisons, the target of the power analysis,
        the margin of practical equivalence and of a tie. ``None``: 0.01 for a
        metric on a [0, 1] scale, none otherwise.
    target_power : float, default=0.8
        The power the number of data sets needed is computed for.
    posthoc : {"nemenyi", "conover", "siegel", "miller", "quade", "exact_ranksum"}, \
            default="nemenyi"
        The all-pairs post-hoc test after Friedman's test.
    adjust : str, default=None
        Its multiplicity correction, as ``adjust`` of
        :meth:`~sklearn_bench.BenchmarkResult.pairwise_tests`; ``None``:
        ``"single_step"`` for Nemenyi and Miller, ``"shaffer"`` otherwise (the
        plan stores the resolved name).
    bayesian : {"signed_rank", "hierarchical"}, default="signed_rank"
        The Bayesian model across data sets: the signed-rank test (Benavoli et
        al. 2017), or the hierarchical model of Corani et al. (2017) and the
        Plackett–Luce ranking, by MCMC (needs the [bayes] extra, NumPyro; a
        ``ValueError`` without it).
    generalization_method : str, default=None
        The interval of each learner's error on each data set (as
        :meth:`~sklearn_bench.BenchmarkResult.confidence_interval`):
        ``"nested_cv"``, ``"conservative_z"``, ``"corrected_t"``, ``"holdout"``,
        ``"naive_cv"`` or ``"five_by_two"``; ``None``: the one recommended for
        the run's splits. A method they cannot support is a ``ValueError``.

    Examples
    --------
    >>> from sklearn_bench.analysis import AnalysisPlan
    >>> plan = AnalysisPlan(delta=0.02, posthoc="conover")
    >>> plan.delta, plan.adjust, plan.bayesian
    (0.02, 'shaffer', 'signed_rank')
    >>> plan.resolved_delta("accuracy"), AnalysisPlan().resolved_delta("accuracy")
    ((0.02, 'given'), (0.01, 'default'))
    """

    metric: str | None = _setting(
        None, str, "the metric to analyse (default: the run's first)"
    )
    analyses: tuple = _setting(
        ANALYSES,
        tuple,
        "the analyses to run (default: all but rm_anova and ranking)",
        choices=ANALYSES + OPTIONAL_ANALYSES,
        key="run",
    )
    alpha: float = _setting(
        0.05, float, "the significance level of every test (default: 0.05)"
    )
    confidence_level: float = _setting(
        0.95, float, "the level of the confidence intervals (default: 0.95)"
    )
    delta: float | None = _setting(
        None,
        float,
        "the smallest difference that matters, in the metric's units; the ROPE "
        "of the Bayesian tests, the target of the power analysis, the margin of "
        "practical equivalence and of a tie (default: 0.01 for metrics on a "
        "[0, 1] scale such as the error rate)",
    )
    target_power: float = _setting(
        0.8, float, "the power the number of data sets needed is for (default: 0.8)"
    )
    posthoc: str = _setting(
        "nemenyi",
        str,
        "the post-hoc test after Friedman's (default: nemenyi)",
        choices=tuple(POSTHOCS),
    )
    adjust: str | None = _setting(
        None,
        str,
        "its multiplicity correction (default: single_step for nemenyi and "
        "miller, shaffer otherwise)",
        choices=ADJUST_CHOICES,
    )
    bayesian: str = _setting(
        "signed_rank",
        str,
        "the Bayesian model across data sets: signed_rank (default, needs no "
        f"extra) or hierarchical (needs {BAYES_INSTALL})",
        choices=BAYESIAN_MODELS,
    )
    generalization_method: str | None = _setting(
        None,
        str,
        "the interval of each learner's error (default: the one recommended "
        "for the run's splitter: nested_cv for NestedCV, conservative_z for "
        "PairedSubsampling, corrected_t for ShuffleSplit and RepeatedKFold, "
        "holdout for one split, naive_cv for one K-fold partition)",
        choices=GENERALIZATION_METHODS,
    )

    def __post_init__(self):
        analyses = self.analyses
        if not isinstance(analyses, list | tuple) or not all(
            isinstance(a, str) for a in analyses
        ):
            raise TypeError(f"`analyses` must be a list of names; got {analyses!r}.")
        unknown = [a for a in analyses if a not in ANALYSES + OPTIONAL_ANALYSES]
        if unknown:
            raise ValueError(
                f"`analyses` has unknown entries {unknown}; choose from "
                f"{list(ANALYSES + OPTIONAL_ANALYSES)}."
            )
        if "ranking" in analyses and "bayesian" not in analyses:
            raise ValueError(
                "`analyses` names 'ranking' without 'bayesian': the Plackett–Luce "
                "ranking is shown in the Bayesian section; add 'bayesian'."
            )
        if self.metric is not None and not isinstance(self.metric, str):
            raise TypeError(f"`metric` must be a metric's name; got {self.metric!r}.")
        posthoc = check_choice(self.posthoc, POSTHOCS, "posthoc")
        single = posthoc in _SINGLE_STEP
        adjust = self.adjust
        if adjust is None:
            adjust = "single_step" if single else "shaffer"
        adjust = check_choice(adjust, ADJUST_CHOICES, "adjust")
        if single != (adjust == "single_step"):
            raise ValueError(
                "`adjust` 'single_step' goes with posthoc 'nemenyi' or 'miller' "
                f"and only with them; got posthoc={posthoc!r}, adjust={adjust!r}."
            )
        delta = self.delta
        if delta is not None:
            delta = check_real(delta, "delta")
            if not delta > 0:
                raise ValueError(f"`delta` must be positive (or None); got {delta!r}.")
        bayesian = check_choice(self.bayesian, BAYESIAN_MODELS, "bayesian")
        method = self.generalization_method
        if method is not None:
            method = check_choice(
                method, GENERALIZATION_METHODS, "generalization_method"
            )
        if bayesian == "hierarchical" and not hierarchical_installed():
            raise ValueError(
                "bayesian='hierarchical' fits the hierarchical model by MCMC, which "
                f"needs NumPyro: {BAYES_INSTALL}. Or use bayesian='signed_rank', "
                "which needs no extra."
            )
        for name, value in (
            ("analyses", tuple(analyses)),
            ("alpha", check_fraction(self.alpha, "alpha")),
            ("confidence_level", check_confidence_level(self.confidence_level)),
            ("delta", delta),
            ("target_power", check_fraction(self.target_power, "target_power")),
            ("posthoc", posthoc),
            ("adjust", adjust),
            ("bayesian", bayesian),
            ("generalization_method", method),
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


def plan_settings():
    """The declared settings of :class:`AnalysisPlan`, one ``dataclasses.Field`` each,
    whose ``metadata`` holds ``type``, ``help``, ``choices`` and ``key``."""
    return fields(AnalysisPlan)
