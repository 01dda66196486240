"""Statistics for comparing learners: pure functions on arrays, frozen results."""

from importlib import import_module as _import_module

# Each public name, by its module, imported from it on first use (PEP 562): a
# program that uses one test loads only that test's dependencies (``import
# sklearn_bench.stats`` took 2.8 s, loading pandas, scipy.stats and scikit-learn,
# before a Bayesian model could start in a fresh process).
_MODULES = {
    "_anova": ("RMAnovaResult", "rm_anova", "tukey_hsd"),
    "_bayesian": (
        "BayesianTestResult",
        "bayesian_correlated_t",
        "bayesian_sign_test",
        "bayesian_signed_rank",
    ),
    "_block_rank_tests": (
        "BlockTestResult",
        "durbin_test",
        "friedman_aligned_ranks_test",
        "quade_test",
    ),
    "_bootstrap_ci": ("bootstrap_ci",),
    "_classifiers": ("cochrans_q", "proportion_difference_test"),
    "_common": ("ConfidenceInterval",),
    "_effect_size": ("EffectSizeResult", "effect_size"),
    "_friedman": ("FriedmanResult", "friedman_test"),
    "_generalization": (
        "GeneralizationErrorResult",
        "cv_auc_interval",
        "generalization_error_interval",
    ),
    "_global_permutation": ("GlobalPermutationResult", "global_permutation_test"),
    "_hierarchical": ("bayesian_hierarchical",),
    "_leaderboard": (
        "LeaderboardResult",
        "leaderboard_table",
        "rank_confidence_sets",
        "win_rate_matrix",
    ),
    "_mcnemar": ("error_rate_intervals", "mcnemar_test"),
    "_multiple_rule_bias": ("multiple_rule_bias",),
    "_multitest": ("adjust_pvalues",),
    "_paired": ("PairedTestResult", "paired_test", "smallest_attainable_pvalue"),
    "_pairwise": ("PairwiseTestResult", "pairwise_tests"),
    "_plackett_luce": ("PlackettLuceResult", "bayesian_plackett_luce"),
    "_power": ("n_datasets_needed", "power_paired_t"),
    "_sequential": ("RaceResult", "SequentialTestResult", "race", "sequential_test"),
    "_simultaneous": ("simultaneous_intervals",),
    "_skillings_mack": ("skillings_mack_test",),
}
_LAZY = {name: module for module, names in _MODULES.items() for name in names}

__all__ = sorted(_LAZY)


def __getattr__(name):
    if name in _LAZY:
        value = getattr(_import_module(f"{__name__}.{_LAZY[name]}"), name)
        globals()[name] = value  # once: later lookups do not come here
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_LAZY))
