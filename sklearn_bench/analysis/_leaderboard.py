"""The leaderboard of an analysis: ratings, win rates and rank confidence sets of
all learners over the data sets (the units), and how stable its top is."""

# Below these sizes there is no leaderboard: two learners are a paired
# comparison (the bottom line), and rank sets from a handful of data sets are
# not to be trusted (the bootstrap's guarantee is in the number of data sets).
MIN_LEARNERS = 3
MIN_DATASETS = 10


def leaderboard_analysis(result, *, analysis=None, n_resamples=1000, random_state=0):
    """The leaderboard of a result with the analysis' metric and level, once.

    Parameters
    ----------
    result : BenchmarkResult
    analysis : ReportAnalysis, default=None
        Its metric and confidence level are used (the plan's); the first metric
        and 0.95 without it. The leaderboard is kept in its ``cache``.
    n_resamples : int, default=1000
        Bootstrap resamples of the data sets for the intervals.
    random_state : int, default=0

    Returns
    -------
    dict or None
        ``result`` (the leaderboard's result object), ``board`` (every column of
        :meth:`~sklearn_bench.BenchmarkResult.leaderboard`), ``matrix`` (the
        win-rate matrix), ``stability`` and ``grid`` (its numbers of data
        sets), ``metric`` and ``level``; ``None`` with fewer than
        :data:`MIN_LEARNERS` learners or :data:`MIN_DATASETS` data sets.

    Examples
    --------
    >>> from sklearn_bench import BenchmarkResult
    >>> from sklearn_bench.analysis import leaderboard_analysis
    >>> from sklearn_bench.datasets import load_dietterich2000
    >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
    ...     dataset="dataset", learner="learner", value="error_rate",
    ...     greater_is_better=False)
    >>> board = leaderboard_analysis(result)["board"]
    >>> board[["rank", "rank_low", "rank_high", "n_datasets"]]
                     rank  rank_low  rank_high  n_datasets
    learner
    Adaboosted C4.5     1         1          3          33
    Randomized C4.5     2         1          3          33
    Bagged C4.5         3         1          3          33
    C4.5                4         4          4          33
    """
    cache = getattr(analysis, "cache", None)
    key = ("leaderboard", n_resamples, random_state)
    if cache is not None and key in cache:
        return cache[key]
    metric = getattr(analysis, "metric", None)
    level = getattr(analysis, "confidence_level", 0.95)
    table = result.aggregate(metric)
    out = None
    if table.shape[1] >= MIN_LEARNERS and table.shape[0] >= MIN_DATASETS:
        board, res = result.leaderboard(
            metric=metric,
            n_resamples=n_resamples,
            confidence_level=level,
            random_state=random_state,
            return_result=True,
        )
        matrix = result.win_rate_matrix(metric=metric)
        grid = [res.n_units * k for k in (1, 2, 4, 8)]
        delta = getattr(analysis, "delta", None) if res.rank_by == "score" else None
        stability = res.stability(target_width=1.0, grid=grid, delta=delta)
        out = {
            "result": res,
            "board": board,
            "matrix": matrix,
            "stability": stability,
            "grid": grid,
            "metric": metric,
            "level": level,
        }
    if cache is not None:
        cache[key] = out
    return out
