"""The pairwise post-hoc tests of an analysis: Wilcoxon signed-rank tests of every
pair with Holm's correction, which (unlike Nemenyi's mean-rank test) do not depend
on the other learners (Benavoli, Corani & Mangili 2016).
"""

from ._records import TestRecord, better_first, register_test


def pairwise_analysis(result, analysis, *, method="wilcoxon", adjust="holm"):
    """Pairwise tests over the blocks of the report's comparisons, registered
    with the analysis; ``None`` (with the reason in ``analysis.skipped``) when
    they cannot run.

    Across data sets each pair is tested on the data sets both learners
    finished (``missing="pairwise"``), so a learner that failed on some data
    set does not remove that data set for the others; with one finished data
    set the blocks are its replicates. The level of the tests is the plan's
    ``alpha``. The table of the pairs, each the better-ranked learner first
    (``SIGN_CONVENTION``), is ``analysis.cache["pairwise_frame"]``.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import AnalysisPlan, analyse
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> analysis = analyse(result, AnalysisPlan())  # runs pairwise_analysis
    >>> analysis.cache["pairwise"].method, analysis.cache["pairwise"].adjust
    ('wilcoxon-demsar', 'holm')
    >>> pairs = analysis.cache["pairwise_frame"]  # the better ranked first
    >>> pairs.loc[pairs["reject"], ["learner_i", "learner_j"]]  # separated
             learner_i learner_j
    0  Randomized C4.5      C4.5
    1      Bagged C4.5      C4.5
    2  Adaboosted C4.5      C4.5
    """
    if "pairs" in analysis.skipped or len(analysis.mean.columns) < 2:
        analysis.skipped["pairwise"] = analysis.skipped.get(
            "pairs", "pairwise tests need at least 2 learners"
        )
        return None
    # the plan's level of the tests (before: 1 − confidence_level)
    alpha = analysis.alpha
    across = analysis.pairs_blocks == "data sets"
    if not across:
        # Rank tests over the overlapping replicates of one learning sample
        # answer a question about that sample only and are no verdict about
        # new data: the corrected t of the bottom line is.
        analysis.skipped["pairwise"] = (
            "with one data set the blocks would be its replicates, which share "
            "training rows: a Wilcoxon test over them is conditional on this "
            "learning sample and says nothing about new data of the kind (the "
            "bottom line uses the corrected resampled t instead)"
        )
        return None
    kwargs = {"missing": "pairwise"}
    if not across:
        kwargs["dataset"] = analysis.datasets_across[0]
    try:
        res = result.pairwise_tests(
            method=method, adjust=adjust, alpha=alpha, metric=analysis.metric, **kwargs
        )
    except ValueError as exc:
        analysis.skipped["pairwise"] = f"the pairwise tests could not run: {exc}"
        return None
    frame = res.to_frame()
    # The table the outputs show: each pair better-ranked first (SIGN_CONVENTION)
    analysis.cache["pairwise_frame"] = better_first(frame, analysis.order)
    n_min, n_max = int(frame["n"].min()), int(frame["n"].max())
    blocks = "data sets" if across else f"replicates of {analysis.datasets_across[0]}"
    n_text = f"{n_max}" if n_min == n_max else f"{n_min} to {n_max}"
    if across and n_min < n_max:
        n_text += " (each pair on the data sets both learners finished)"
    name = "Wilcoxon signed-rank" if method == "wilcoxon" else "sign"
    register_test(
        analysis,
        TestRecord(
            "pairwise",
            "every pair of learners on its own, a verdict that no third learner "
            "changes, unlike Nemenyi's (effect size: the matched-pairs "
            "rank-biserial correlation)",
            f"two-sided {name} test",
            f"{n_text} {blocks}",
            correction=f"{adjust.capitalize()}-adjusted over {len(frame)} pairs",
            alpha=alpha,
            citations=("demsar2006", "holm1979", "benavoli2016"),
        ),
    )
    return res
