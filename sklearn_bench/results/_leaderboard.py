"""The leaderboard methods of BenchmarkResult: select, then delegate to
:func:`sklearn_bench.stats.leaderboard_table` (issue 22)."""

import numpy as np
import pandas as pd

from .._validation import check_bool, check_positive_int
from ..stats import leaderboard_table, win_rate_matrix
from . import _select


class LeaderboardMixin:
    """:meth:`leaderboard` and :meth:`win_rate_matrix` of a BenchmarkResult."""

    def _mean_times(self, metric):
        """Mean fit and score time per learner (mean over data sets of the mean
        over its tasks), or an empty frame when none is stored."""
        scores = self._scores
        rows = scores[scores["metric"] == metric]
        out = {}
        for column in ("fit_time", "score_time"):
            if column not in rows or not rows[column].notna().any():
                continue
            per = rows.groupby(["dataset", "learner"], observed=True)[column].mean()
            out[column] = per.groupby(level="learner", observed=True).mean()
        return pd.DataFrame(out)

    def leaderboard(
        self,
        *,
        metric=None,
        reference=None,
        reference_rating=1000,
        n_resamples=1000,
        confidence_level=0.95,
        random_state=None,
        rank_by="score",
        return_result=False,
    ):
        """A leaderboard of the learners over the data sets, with honest intervals.

        :func:`sklearn_bench.stats.leaderboard_table`, where every column is
        defined, on each learner's mean performance per data set: ratings
        (Bradley–Terry on the Elo scale), win rates, mean ranks, improvability
        and confidence sets for the ranks (Mogstad et al. 2024), all from one
        bootstrap over the data sets. A learner with no score, a failed task or
        fewer replicates than the others on a data set is missing there.

        Parameters
        ----------
        metric : str, default=None
        reference : str, default=None
            Learner whose rating is ``reference_rating``; ``None``: the ratings
            average ``reference_rating``.
        reference_rating : float, default=1000
        n_resamples : int, default=1000
            Bootstrap resamples of the data sets.
        confidence_level : float, default=0.95
            Level of every interval and of the rank confidence sets.
        random_state : int, numpy Generator or RandomState, default=None
        rank_by : {"score", "mean_rank", "rating"}, default="score"
            Statistic of ``rank`` and of the rank confidence sets.
        return_result : bool, default=False
            Also return the :class:`~sklearn_bench.stats.LeaderboardResult`
            behind the table.

        Returns
        -------
        board : DataFrame
            The result's ``table`` (indexed by learner, sorted by ``rank``) and,
            where the result stores them, ``fit_time`` and ``score_time``
            (seconds, mean over data sets). ``attrs["notes"]`` says what the
            table had to decide.
        result : LeaderboardResult
            Only with ``return_result=True``.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_dietterich2000
        >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
        ...     dataset="dataset", learner="learner", value="error_rate",
        ...     greater_is_better=False)
        >>> board = result.leaderboard(n_resamples=200, random_state=0)
        >>> board[["rating", "win_rate", "rank_low", "rank_high"]].round(2)
                          rating  win_rate  rank_low  rank_high
        learner
        Adaboosted C4.5  1120.85      0.69         1          3
        Randomized C4.5  1083.68      0.63         1          3
        Bagged C4.5      1017.59      0.52         1          3
        C4.5              777.88      0.16         4          4
        """
        check_bool(return_result, "return_result")
        metric = self._metric(metric)
        n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
        learners = _select.check_learners(self, self.learners, at_least=2)
        res = leaderboard_table(
            _select.blocks_with_missing(self, learners, metric=metric),
            greater_is_better=self.metrics[metric],
            reference=reference,
            reference_rating=reference_rating,
            rank_by=rank_by,
            n_resamples=n_resamples,
            confidence_level=confidence_level,
            random_state=random_state,
        )
        board = self._board(res, metric)
        return (board, res) if return_result else board

    def _board(self, res, metric):
        """The leaderboard DataFrame of a LeaderboardResult, with the times."""
        table = res.table.copy()
        times = self._mean_times(self._metric(metric))
        for column in times:
            table[column] = times[column].reindex(table.index).to_numpy(np.float64)
        table.attrs.update(
            {
                "notes": list(res.notes),
                "rank_by": res.rank_by,
                "confidence_level": res.confidence_level,
                "n_datasets": res.n_datasets,
                "n_complete_datasets": res.n_complete_datasets,
            }
        )
        return table

    def win_rate_matrix(self, *, metric=None):
        """How often the row learner beats the column learner over data sets.

        Ties count half; each pair over the data sets where both have a value.
        Rows and columns are ordered by rating (best first), as in the report's
        heat map. Delegates to :func:`sklearn_bench.stats.win_rate_matrix`.

        Parameters
        ----------
        metric : str, default=None

        Returns
        -------
        DataFrame
            Learners × learners; the diagonal is NaN.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> result.win_rate_matrix().round(2)
        opponent   C4.5+m+cf  C4.5+m  C4.5+cf  C4.5
        learner
        C4.5+m+cf        NaN    0.54     0.71  0.82
        C4.5+m          0.46     NaN     0.75  0.79
        C4.5+cf         0.29    0.25      NaN  0.54
        C4.5            0.18    0.21     0.46   NaN
        """
        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        table = _select.blocks_with_missing(self, learners, metric=metric)
        return win_rate_matrix(table, greater_is_better=self.metrics[metric])
