"""Tests of all learners of a BenchmarkResult at once: the omnibus tests, the
post-hoc tests of every pair and the global permutation test; blocks from
:mod:`._select`, every statistic from :mod:`sklearn_bench.stats`."""

from dataclasses import replace

from .._validation import check_choice
from ..stats import (
    durbin_test,
    friedman_aligned_ranks_test,
    friedman_test,
    global_permutation_test,
    pairwise_tests,
    quade_test,
    rm_anova,
    skillings_mack_test,
    tukey_hsd,
)
from . import _select


class AllLearnersMixin:
    """:meth:`friedman`, :meth:`pairwise_tests`, :meth:`skillings_mack_test`
    and :meth:`global_permutation_test`."""

    def _all_blocks(self, metric, dataset=None, *, missing=False):
        """The metric's name and its blocks × learners table of every learner:
        the per-data-set means (``dataset=None``; NaN cells allowed with
        ``missing``) or the replicates of ``dataset``."""
        metric = self._metric(metric)
        learners = _select.check_learners(self, self.learners, at_least=2)
        if missing:
            return metric, _select.blocks_with_missing(self, learners, metric=metric)
        if dataset is not None:
            dataset = _select.check_dataset(self, dataset)
        return metric, _select.blocks(self, learners, metric=metric, dataset=dataset)

    def friedman(
        self,
        *,
        dataset=None,
        metric=None,
        tie_correction=True,
        exact=None,
        method="friedman",
    ):
        """Friedman's test of all learners (Demšar 2006, Section 3.2.2).

        Blocks are the data sets (``dataset=None``; each learner's mean over
        the replicates) or one data set's replicates, a test conditional on
        that learning sample (Hothorn et al. 2005). Ranks follow the metric's
        direction (rank 1 = best).

        Parameters
        ----------
        dataset : str, default=None
        metric : str, default=None
        tie_correction : bool, default=True
            As in :func:`~sklearn_bench.stats.friedman_test`.
        exact : bool or None, default=None
            As in :func:`~sklearn_bench.stats.friedman_test`.
        method : {"friedman", "quade", "aligned_ranks", "durbin", "rm_anova"}, \
        default="friedman"
            The test: :func:`~sklearn_bench.stats.friedman_test`,
            :func:`~sklearn_bench.stats.quade_test`,
            :func:`~sklearn_bench.stats.friedman_aligned_ranks_test`,
            :func:`~sklearn_bench.stats.durbin_test` (across data sets with
            missing cells in a balanced incomplete block design) or
            :func:`~sklearn_bench.stats.rm_anova` (parametric, a sensitivity
            analysis; its post-hoc is :meth:`pairwise_tests` with
            ``method="tukey"``).

        Returns
        -------
        FriedmanResult, BlockTestResult or RMAnovaResult

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> res = result.friedman()  # tie-corrected, as R's friedman.test
        >>> res.average_ranks.round(3).tolist(), round(res.statistic, 3)
        ([3.143, 2.0, 2.929, 1.929], 10.952)
        """
        method = check_choice(
            method,
            ("friedman", "quade", "aligned_ranks", "durbin", "rm_anova"),
            "method",
        )
        if method != "friedman" and (tie_correction is not True or exact is not None):
            raise ValueError(
                "`tie_correction` and `exact` are options of method='friedman'; "
                f"got method={method!r}."
            )
        if method == "durbin" and dataset is not None:
            raise ValueError(
                "method='durbin' works across data sets; pass dataset=None."
            )
        metric, table = self._all_blocks(metric, dataset, missing=method == "durbin")
        gib = self.metrics[metric]
        if method == "rm_anova":
            res = rm_anova(table)
        elif method == "friedman":
            res = friedman_test(
                table, greater_is_better=gib, tie_correction=tie_correction,
                exact=exact,
            )  # fmt: skip
        else:
            tests = {"durbin": durbin_test, "quade": quade_test}
            test = tests.get(method, friedman_aligned_ranks_test)
            res = test(table, greater_is_better=gib)
        left_out = _select.left_out_words(table.attrs.get("n_dropped", 0))
        if dataset is None and left_out:
            res = replace(
                res, null_hypothesis=f"{res.null_hypothesis} ({left_out[2:]})"
            )
        return res

    def pairwise_tests(
        self,
        *,
        method="wilcoxon",
        adjust=None,
        alpha=0.05,
        confidence_level=0.95,
        metric=None,
        dataset=None,
        missing="raise",
        zero_method="demsar",
    ):
        """Paired tests of every pair of learners, corrected for multiplicity.

        :func:`sklearn_bench.stats.pairwise_tests` (or
        :func:`~sklearn_bench.stats.tukey_hsd` for ``method="tukey"``) on the
        blocks of :meth:`friedman`, with the learners in the order of their
        average rank (best first), so that every pair is written
        ``learner_i − learner_j`` as the report writes it.

        Parameters
        ----------
        method : {"wilcoxon", "sign", "conover", "siegel", "miller", "quade", \
"nemenyi", "exact_ranksum", "tukey"}, default="wilcoxon"
            As in :func:`~sklearn_bench.stats.pairwise_tests`; ``"tukey"``:
            Tukey's HSD on the repeated-measures ANOVA's residual
            (``adjust`` ignored, ``missing`` must be ``"raise"``).
        adjust : str, default=None
            As in :func:`~sklearn_bench.stats.pairwise_tests`.
        alpha : float, default=0.05
            Family-wise level of the tests.
        confidence_level : float, default=0.95
            Level of the pairs' intervals (simultaneous for Tukey's).
        metric : str, default=None
        dataset : str, default=None
        missing : {"raise", "pairwise"}, default="raise"
            Across data sets only. ``"pairwise"``: each pair is tested on the
            data sets both learners finished (every replicate); the frame's
            ``n`` says how many.
        zero_method : str, default="demsar"
            Wilcoxon only; see :func:`~sklearn_bench.stats.paired_test`.

        Returns
        -------
        PairwiseTestResult

        See Also
        --------
        paired_test : One pair, unadjusted, with its confidence interval and
            effect size; within one data set also the corrected resampled t.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> table = result.pairwise_tests(adjust="holm").to_frame()
        >>> table[["learner_i", "learner_j", "pvalue", "pvalue_adjusted"]].round(3)
           learner_i learner_j  pvalue  pvalue_adjusted
        0  C4.5+m+cf    C4.5+m   0.422            0.844
        1  C4.5+m+cf   C4.5+cf   0.030            0.121
        2  C4.5+m+cf      C4.5   0.012            0.066
        3     C4.5+m   C4.5+cf   0.057            0.171
        4     C4.5+m      C4.5   0.011            0.066
        5    C4.5+cf      C4.5   0.878            0.878
        """
        if method == "tukey" and missing != "raise":
            raise ValueError(
                "`method`='tukey' needs every learner on every block; "
                f"got missing={missing!r}."
            )
        if missing == "pairwise" and dataset is not None:
            raise ValueError(
                "`missing`='pairwise' works across data sets; pass dataset=None."
            )
        if dataset is not None:
            dataset = _select.check_dataset(self, dataset)
        metric, table = self._all_blocks(metric, dataset, missing=missing == "pairwise")
        # the learners best first (average rank over the blocks every learner
        # has), so that each pair is written better ranked − worse ranked
        sign = -1.0 if self.metrics[metric] else 1.0
        ranks = (sign * table.dropna()).rank(axis=1).mean(axis=0)
        if dataset is None:  # and the data sets left out (incomplete_datasets')
            n_dropped = table.attrs.get("n_dropped", 0)
            scope = f"across {len(table)} data sets{_select.left_out_words(n_dropped)}"
        else:
            scope = f"within data set {dataset!r} over {len(table)} replicates"
        table = table[list(ranks.sort_values(kind="stable").index)]
        common = {
            "alpha": alpha,
            "confidence_level": confidence_level,
            "greater_is_better": self.metrics[metric],
        }
        if method == "tukey":
            res = tukey_hsd(table, **common)
        else:
            res = pairwise_tests(
                table,
                method=method,
                adjust=adjust,
                zero_method=zero_method,
                missing=missing,
                **common,
            )
        words = _select.direction_words(self, metric)
        return replace(res, null_hypothesis=f"{res.null_hypothesis} ({words}; {scope})")

    def skillings_mack_test(self, *, metric=None, n_resamples=None, random_state=None):
        """Skillings–Mack test of all learners over data sets with missing cells.

        :func:`sklearn_bench.stats.skillings_mack_test`, Friedman's test for
        incomplete blocks (Skillings & Mack 1981): a learner that failed on a
        data set (on any replicate) is missing on it rather than dropped with
        all its other data sets.

        Parameters
        ----------
        metric : str, default=None
        n_resamples : int, default=None
            ``None``: χ² p-value; an integer: Monte Carlo p-value.
        random_state : int, numpy Generator or RandomState, default=None

        Returns
        -------
        BlockTestResult

        Examples
        --------
        Demšar's Table 6 with one score missing, as if C4.5+cf had failed on
        "wine":

        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> auc = load_demsar2006()
        >>> failed = (auc["dataset"] == "wine") & (auc["learner"] == "C4.5+cf")
        >>> result = BenchmarkResult.from_frame(auc[~failed], dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> res = result.skillings_mack_test()
        >>> res.n_missing, res.df, round(res.statistic, 3)
        (1, (3,), 9.354)
        """
        metric, table = self._all_blocks(metric, missing=True)
        res = skillings_mack_test(
            table,
            greater_is_better=self.metrics[metric],
            n_resamples=n_resamples,
            random_state=random_state,
        )
        words = _select.direction_words(self, metric)
        scope = f"{words}; across {res.n_blocks} data sets, {res.n_missing} missing"
        return replace(res, null_hypothesis=f"{res.null_hypothesis[:-1]} ({scope}).")

    def global_permutation_test(
        self, dataset, *, metric=None, n_resamples=9999, random_state=None
    ):
        """Hothorn et al. (2005) permutation test of t* on one data set, eq. (3).

        :func:`sklearn_bench.stats.global_permutation_test` on the data set's
        replicates, one column per learner. Like the replicate ``"t"`` of
        :meth:`paired_test`, it is conditional on the data set's learning
        sample, not a test of performance on new data of the kind.

        Parameters
        ----------
        dataset : str
        metric : str, default=None
        n_resamples : int, default=9999
        random_state : int, numpy Generator or RandomState, default=None

        Returns
        -------
        GlobalPermutationResult

        Examples
        --------
        >>> import numpy as np
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> rng = np.random.default_rng(0)
        >>> df = pd.DataFrame({"learner": np.repeat(["A", "B", "C"], 30),
        ...     "replicate": np.tile(np.arange(30), 3),
        ...     "error": rng.normal(0.2, 0.02, 90) + np.repeat([0, 0, 0.03], 30)})
        >>> result = BenchmarkResult.from_frame(df.assign(d="x"), dataset="d",
        ...     learner="learner", value="error", replicate="replicate",
        ...     greater_is_better=False)
        >>> res = result.global_permutation_test("x", n_resamples=999, random_state=0)
        >>> res.pvalue < 0.01
        True
        """
        _select.check_dataset(self, dataset)  # required: None is not "all"
        metric, table = self._all_blocks(metric, dataset)
        return global_permutation_test(
            table, n_resamples=n_resamples, random_state=random_state
        )
