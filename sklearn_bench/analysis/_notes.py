"""Notes and skips of an analysis as records, a code and its values (issue 47):
the steps build them, :data:`NOTES` and ``str()`` turn them into English."""

from dataclasses import dataclass
from types import MappingProxyType

from ._plan import BAYES_INSTALL

_PER_DATASET = "every learner has every replicate; this result has {n_datasets}"
_ONE_DATASET = (
    "; the comparisons over the replicates of a single data set need every "
    "learner on every replicate"
)
_NO_INTERVAL = "No interval for {n:,} learner × data-set differences ({shown})"
_DRAWN = "the {what} is drawn for at most {most} learners (with {k} its"
# The English of every code; {reason} is a lower layer's message, word for word.
NOTES = {
    "raised": "{reason}",  # a warning, or a message that says it all
    "no_pair_interval": "No interval for {a} − {b}: {reason}",
    "incomplete": "Data sets {dropped} have failed or missing tasks and are left "
    "out of the analyses across data sets.",
    "no_pairs": "No pairwise intervals: {reason}",
    "pairs_need_blocks": "Pairwise intervals need at least 2 complete data sets "
    "(or 2 replicates of a single data set).",
    "no_friedman": "No Friedman test: {reason}",
    "no_posthoc": "No {title} post-hoc: {reason}",
    "friedman_needs_blocks": "Friedman's test needs at least 2 blocks and 2 learners.",
    "no_rm_anova": "No repeated-measures ANOVA: {reason}",
    "no_power": "No power analysis: {reason}.",
    "power_needs_datasets": "The power across data sets needs at least 2 complete "
    "data sets; this study has {n_datasets}.",
    "skip_pairs": "no pairwise intervals: {reason}",
    "skip_friedman": "Friedman's test could not be computed: {reason}",
    "skip_posthoc": "the post-hoc test could not run: {reason}",
    "skip_rm_anova": "RM-ANOVA could not be computed: {reason}",
    "power_spread": "the per-data-set differences between {a} and {b} have "
    "standard deviation {sigma:.3g}",
    "power_no_delta": "no Δ was given and {a} and {b} do not differ on average",
    "skip_power": "the power across data sets needs at least 2 data sets on which "
    + _PER_DATASET,
    "wtl_unreadable": _DRAWN.replace("{what}", "win/tie/loss map")
    + " cells would be unreadable); BenchmarkResult.win_tie_loss() gives the counts",
    "wtl_one_learner": "wins and losses need 2 learners on a data set",
    "wtl_no_pair": "no data set has results of two learners yet",
    "too_many": _DRAWN + " labels would overlap); the average ranks above and "
    "tables/{csv} give the same comparisons",
    "need_learners": "comparisons need at least 2 learners with results",
    "need_datasets": "the analyses across data sets need at least 2 data sets on "
    "which " + _PER_DATASET + " ({n_any} with any result)",
    "need_datasets_one": "the analyses across data sets need at least 2 data sets "
    "on which " + _PER_DATASET + " ({n_any} with any result)" + _ONE_DATASET,
    "pairwise_one_learner": "pairwise tests need at least 2 learners",
    "pairwise_one_dataset": "with one data set the blocks would be its replicates, "
    "which share training rows: a Wilcoxon test over them is conditional on this "
    "learning sample and says nothing about new data of the kind (the bottom line "
    "uses the primary analysis within the data set instead)",
    "no_pairwise": "the pairwise tests could not run: {reason}",
    "no_rope": "Metric {metric!r} has no default region of practical equivalence "
    "and no smallest difference that matters (Δ) was given: the Bayesian "
    "comparisons use ROPE = 0 (set [analysis] delta, or delta=, for practical "
    "equivalence).",
    "without_hierarchical": "The plan's Bayesian model across data sets is the "
    "signed-rank test. bayesian='hierarchical' (config [analysis] bayesian; needs "
    f"{BAYES_INSTALL}) would add the hierarchical model of Corani et al. (2017): "
    "it uses every fold score of every data set, shrinks the per-data-set "
    "differences and gives the probabilities for the next data set; and the "
    "Bayesian Plackett–Luce ranking of all learners (Calvo et al. 2018): each "
    "one's probability of ranking first and its expected rank on a new data set "
    '(the ranking alone needs no extra: "ranking" in [analysis] run).',
    "too_many_fits": "Across data sets the signed-rank test, not the hierarchical "
    "model: {n} comparisons exceed the report's {most} (each is an MCMC fit); "
    "call BenchmarkResult.bayesian_test(method='hierarchical') for a pair.",
    "hierarchical_failed": "Hierarchical model not used, signed-rank instead: {reason}",
    "not_across": "Not across data sets: {reason}",
    "not_within": "Not within a data set: {reason}",
    "no_ranking": "No Plackett–Luce ranking: {reason}",
    "no_learner_interval": "No interval of {learner}'s {metric} on {dataset}: {reason}",
    "no_learner_data": "no data set has the intervals' data",
    "se_clipped": "{n} of {total} nested-CV standard errors fell back to a bound of "
    "Bates et al. (2024) instead of the estimated MSE ({bounds}; lower: folds as "
    "if independent, upper: fully dependent): too few outer folds or repeats to "
    "estimate it; more repeats (NestedCV n_repeats) give an estimate.",
    "naive_cv": "The intervals of each learner's error are naive cross-validation "
    "intervals (one K-fold partition): they cover the expected error less often "
    "than they say (Bates et al. 2024). Run NestedCV (config [experiment.cv] kind "
    '= "nested_cv") for the recommended interval.',
    "within_one": "No interval for {reference} − {learner} on {dataset}: {reason}",
    "within_one_fix": "No interval for {reference} − {learner} on {dataset}: "
    "{reason} {fix}.",
    "within_cause": _NO_INTERVAL + ": {cause}; {fix}.",
    "within_first": _NO_INTERVAL + "; the first: {reason}",
}


@dataclass(frozen=True)
class Note:
    """What an analysis says beside its numbers: a code of :data:`NOTES` and the
    values its template names; ``str()`` is its English (the only one)."""

    code: str
    values: MappingProxyType

    def __str__(self):
        return NOTES[self.code].format_map(self.values)


class Skip(Note):
    """Why a section did not run: a phrase, which a renderer ends (no period)."""

    def __str__(self):
        return super().__str__().rstrip(".")


def note(code, **values):
    """A :class:`Note` of ``code`` (a key of :data:`NOTES`)."""
    return Note(code, MappingProxyType(values))


def skip(code, **values):
    """A :class:`Skip` of ``code`` (a key of :data:`NOTES`)."""
    return Skip(code, MappingProxyType(values))
