"""Comparisons of two learners of a BenchmarkResult: tests, intervals, power and
the win/tie/loss counts of every pair; data from :mod:`._select`, :mod:`._within`
and :mod:`._scales`, every statistic from :mod:`sklearn_bench.stats`."""

from dataclasses import replace
from itertools import combinations

import numpy as np
import pandas as pd
from scipy import stats

from .._metrics import default_delta
from .._validation import check_alpha, check_positive_int
from . import _bayesian_select, _intervals, _scales, _select, _within

# Up to this many learners the report's primary analysis compares every pair;
# beyond, each against the best ranked.
MAX_LEARNERS_ALL_PAIRS = 10


def primary_comparisons(n_learners):
    """The pairs the primary analysis adjusts over for ``n_learners``."""
    k = int(n_learners)
    return max(k * (k - 1) // 2 if k <= MAX_LEARNERS_ALL_PAIRS else k - 1, 1)


class PairedComparisonsMixin:
    """:meth:`paired_test`, :meth:`confidence_interval`,
    :meth:`error_rate_intervals`, :meth:`power` and :meth:`win_tie_loss`."""

    def paired_test(
        self,
        a,
        b,
        *,
        dataset=None,
        method=None,
        metric=None,
        alternative="two-sided",
        replicate=None,
        scale="raw",
        **kwargs,
    ):
        """Test whether learners ``a`` and ``b`` perform differently.

        The differences ``metric(a) − metric(b)`` go to
        :func:`~sklearn_bench.stats.paired_test` (or
        :func:`~sklearn_bench.stats.mcnemar_test`), which documents each method.
        ``dataset=None`` tests the per-data-set means (Demšar 2006), leaving out
        a data set where a task of *any* learner failed, as
        :func:`~sklearn_bench.analysis.analyse` does; a data set name tests
        within it (the user guide's "Tests within one data set"). The null
        hypothesis names the metric, its direction, the unit, the correction
        and what was left out (also in ``n_dropped``).

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
        method : str, default=None
            ``None``: ``"t"`` across data sets; within one ``"corrected_t"`` on
            the run's unit, ``n_test/n_train`` from the stored split sizes
            (``"t"`` for a simulation or competition problem). Else a method of
            :func:`~sklearn_bench.stats.paired_test` (within a data set,
            ``"t"``, ``"wilcoxon"``, ``"sign"`` and ``"permutation"`` are
            conditional on the learning sample, Hothorn et al. 2005) or
            ``"mcnemar"`` on the kept predictions of one test set.
        metric : str, default=None
        alternative : {"two-sided", "less", "greater"}, default="two-sided"
        replicate : int, default=None
            ``"mcnemar"`` only: which learning sample's classifiers to compare.
        scale : {"raw", "relative", "rank"}, default="raw"
            Across data sets only: ``"raw"`` warns
            (``IncommensurableScalesWarning``) when the data sets' scales differ
            by two orders of magnitude; ``"relative"`` divides by the pair's mean
            on each data set; ``"rank"`` uses the ranks of all learners.
        **kwargs
            Passed on (``zero_method``, ``n_resamples``, ``random_state``,
            ``test_train_ratio``; ``correction``, ``exact`` for McNemar).

        Returns
        -------
        PairedTestResult

        See Also
        --------
        sklearn_bench.stats.paired_test : The test, on arrays.
        pairwise_tests : Every pair of learners, adjusted for multiplicity.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> res = result.paired_test("C4.5+m", "C4.5", alternative="greater")
        >>> res.null_hypothesis
        'H0: mean of auc(C4.5+m) − auc(C4.5) <= 0 (auc, higher is better; across 14...)'
        >>> round(res.statistic, 3), res.df, round(res.pvalue, 4)  # as R's t.test
        (2.846, 13, 0.0069)
        """
        from ..stats import mcnemar_test, paired_test

        if method == "mcnemar":
            if alternative != "two-sided":
                raise ValueError("`alternative` must be 'two-sided' for McNemar.")
            n_b, n_c, n = _select.discordant_counts(
                self, a, b, dataset=dataset, replicate=replicate
            )
            res = mcnemar_test(n_b, n_c, n=n, **kwargs)
            h0 = f"H0: P({a} wrong, {b} right) = P({a} right, {b} wrong)"
            return replace(res, null_hypothesis=h0)
        metric = self._metric(metric)
        if dataset is not None:
            dataset = _select.check_dataset(self, dataset)
        _scales.check_scale_argument(scale, dataset)
        if method is None:
            method = (
                "t"
                if dataset is None
                else _within.default_method(self, a, b, metric=metric, dataset=dataset)
            )
        if method in _within.SPLIT_METHODS and dataset is None:
            raise ValueError(
                f"method={method!r} tests within one data set; pass `dataset` "
                f"(one of {list(self.datasets)})."
            )
        opts = {"method": method}
        if method == "corrected_t":
            x, y, ratio, rule, scope, n_dropped = _within.corrected_t_inputs(
                self,
                a,
                b,
                metric=metric,
                dataset=dataset,
                test_train_ratio=kwargs.pop("test_train_ratio", None),
            )
            opts["test_train_ratio"] = ratio
        elif method in ("5x2cv", "5x2cv_f"):
            x, y, scope = _within.five_by_two_inputs(
                self, a, b, metric=metric, dataset=dataset
            )
            n_dropped = 0
        else:
            x, y, scope, n_dropped = _scales.pair(
                self,
                a,
                b,
                metric=metric,
                dataset=dataset,
                scale=scale,
                method=method,
                with_dropped=True,
            )
            if dataset is not None:
                scope += f"; {_within.conditional_words(self, dataset)}"
        labels = (f"{metric}({a})", f"{metric}({b})")
        try:
            res = paired_test(
                x, y, alternative=alternative, labels=labels, **opts, **kwargs
            )
        except ValueError as exc:  # say where: constant differences, n < 2, ...
            raise ValueError(f"{exc} [{a} vs {b}, {scope}]") from None
        words = _select.direction_words(self, metric)
        details = res.details
        if method == "corrected_t":  # the ratio used, and where it comes from
            details = {**details, "test_train_ratio": ratio, "ratio_rule": rule}
        return replace(
            res,
            null_hypothesis=f"{res.null_hypothesis} ({words}; {scope})",
            n_dropped=n_dropped,
            details=details,
        )

    def confidence_interval(
        self,
        a,
        b=None,
        *,
        dataset=None,
        method=None,
        confidence_level=0.95,
        metric=None,
        replicate=None,
        scale="raw",
        **kwargs,
    ):
        """Confidence interval of one learner's error, or of ``metric(a) −
        metric(b)``.

        **One learner** (``b=None``): the interval of ``a``'s expected
        ``metric`` on new data of the kind (Bates et al.'s Err) on one data set,
        by :func:`~sklearn_bench.stats.generalization_error_interval`, which
        documents each method. ``method=None`` picks the one recommended for
        the design of the run (Schulz-Kümpel et al. 2024), read from its stored
        splits (the user guide's "One learner"); a method the design cannot
        support is a ``ValueError`` naming the splitters it needs.

        **Two learners**: the interval of ``metric(a) − metric(b)``, as
        :meth:`paired_test` tests it.

        Parameters
        ----------
        a : str
            The learner.
        b : str, default=None
            The other learner of a difference.
        dataset : str, default=None
            One learner: the data set (``None`` when the result has one).
        method : str, default=None
            One learner: ``"nested_cv"``, ``"conservative_z"``, ``"corrected_t"``,
            ``"holdout"``, ``"naive_cv"``, ``"five_by_two"`` or ``None``. Two
            learners: ``None``, ``"t"``, ``"corrected_t"``, ``"5x2cv"`` (the
            interval of that test of :meth:`paired_test`); ``"bootstrap"`` (BCa,
            :func:`~sklearn_bench.stats.bootstrap_ci`); ``"qh"``
            (Quesenberry–Hurst for err(a) − err(b) on one test set, Berrar &
            Lozano 2013); ``"nested_cv"``, ``"conservative_z"`` (on the pointwise
            differences).
        confidence_level : float, default=0.95
        metric : str, default=None
            Ignored by ``"qh"`` (error rate).
        replicate : int, default=None
            ``"qh"`` only, as in :meth:`paired_test`.
        scale : {"raw", "relative", "rank"}, default="raw"
            As in :meth:`paired_test`.
        **kwargs
            Passed on to the stats function.

        Returns
        -------
        GeneralizationErrorResult
            For one learner and for two (``difference=True``). The
            ``"bootstrap"`` and ``"qh"`` intervals are not ``estimate ± q·se``:
            their ``standard_error`` is NaN and they answer only at
            ``confidence_level``.

        See Also
        --------
        sklearn_bench.stats.generalization_error_interval : One learner, on arrays.

        References
        ----------
        Bates S, Hastie T, Tibshirani R (2024). Cross-validation: what does it
        estimate and how well does it do it? JASA 119(546), 1434-1445.
        Schulz-Kümpel H, et al. (2024). Constructing confidence intervals for
        'the' generalization error. arXiv:2409.18836.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> ci = result.confidence_interval("C4.5+m", "C4.5")  # as R's t.test
        >>> ci.method, round(ci.low, 4), round(ci.high, 4)
        ('t', 0.0037, 0.0273)

        One learner on a run with nested cross-validation:

        >>> from sklearn.datasets import load_breast_cancer
        >>> from sklearn.naive_bayes import GaussianNB
        >>> from sklearn_bench import BenchmarkExperiment
        >>> from sklearn_bench.model_selection import NestedCV
        >>> X, y = load_breast_cancer(return_X_y=True)
        >>> result = BenchmarkExperiment(
        ...     {"nb": GaussianNB()}, cv=NestedCV(5, n_repeats=2, random_state=0),
        ...     random_state=0, progress=False).fit({"bc": (X, y)}).results_
        >>> res = result.confidence_interval("nb", dataset="bc")
        >>> res.method, round(res.estimate, 3), round(res.low, 3), round(res.high, 3)
        ('nested_cv', 0.059, 0.04, 0.079)
        >>> res.design
        'nested CV, 2 repeats x 5 folds (50 fits), n=569'
        """
        from ..stats import bootstrap_ci, mcnemar_test

        if b is None or method in _intervals.TWO_LEARNER_METHODS:
            return _intervals.learner_interval(
                self,
                a,
                b,
                dataset=dataset,
                method=method,
                confidence_level=confidence_level,
                metric=self._metric(metric),
            )

        scope = "across data sets" if dataset is None else f"within {dataset!r}"
        if method == "qh":
            n_b, n_c, n = _select.discordant_counts(
                self, a, b, dataset=dataset, replicate=replicate
            )
            res = mcnemar_test(n_b, n_c, n=n)
            ci = res.confidence_interval(confidence_level)
            return _difference(res.estimate, ci, "qh", "error_rate", n, f"n_test={n}")
        metric = self._metric(metric)
        if method == "bootstrap":
            x, y, _ = _scales.pair(
                self, a, b, metric=metric, dataset=dataset, scale=scale, method=method
            )
            ci = bootstrap_ci(x, y, confidence_level=confidence_level, **kwargs)
            mean = float(np.mean(np.asarray(x) - np.asarray(y)))
            return _difference(mean, ci, "bootstrap", metric, len(x), scope)
        if method not in (None, "t", "corrected_t", "5x2cv"):
            raise ValueError(
                "`method` must be one of ['t', 'corrected_t', '5x2cv', 'bootstrap', "
                f"'qh']; got {method!r}."
            )
        if method == "t" and kwargs.get("test_train_ratio") is not None:
            method = "corrected_t"
        res = self.paired_test(
            a, b, dataset=dataset, method=method, metric=metric, scale=scale, **kwargs
        )
        ci = res.confidence_interval(confidence_level)
        return _difference(res.estimate, ci, res.method, metric, res.n, scope, res.df)

    def error_rate_intervals(
        self, *, adjust="holm", dataset=None, confidence_level=0.95, **kw
    ):
        """McNemar tests and Quesenberry–Hurst intervals for all pairs on one test set.

        Berrar & Lozano (2013), Table 2, from the kept predictions of every pair
        of learners (in learner order), by
        :func:`sklearn_bench.stats.error_rate_intervals`.

        Parameters
        ----------
        adjust : {"holm", "bonferroni", "none"}, default="holm"
        dataset : str, default=None
            Required when the result has several data sets.
        confidence_level : float, default=0.95
            Family-wise level of the intervals.
        **kw
            ``replicate`` (as in :meth:`paired_test`) and ``correction``.

        Returns
        -------
        DataFrame
            As :func:`sklearn_bench.stats.error_rate_intervals`, index ``"(i, j)"``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> scores = pd.DataFrame({"dataset": "t", "learner": ["A", "B", "C"],
        ...     "split": 0, "replicate": 0, "fold": 0, "metric": "error_rate",
        ...     "value": [0.3, 0.5, 0.4]})
        >>> correct = {"A": [1, 1, 1, 0, 1, 1, 0, 1, 0, 1],
        ...            "B": [0, 1, 0, 0, 1, 0, 1, 1, 0, 1],
        ...            "C": [1, 0, 1, 0, 1, 1, 0, 0, 1, 1]}
        >>> predictions = pd.DataFrame({"dataset": "t",
        ...     "learner": [m for m in correct for _ in range(10)],
        ...     "split": 0, "replicate": 0, "fold": 0, "row": list(range(10)) * 3,
        ...     "correct": [bool(v) for m in correct for v in correct[m]]})
        >>> result = BenchmarkResult(scores, metrics={"error_rate": False},
        ...     datasets={"t": "competition"}, learners=["A", "B", "C"],
        ...     predictions=predictions)
        >>> result.error_rate_intervals()[["b", "c", "alpha", "low", "high"]].round(3)
                b  c  alpha    low   high
        pair
        (A, B)  1  3  0.017 -0.497  0.242
        (A, C)  1  2  0.025 -0.380  0.247
        (B, C)  4  3  0.050 -0.366  0.511
        """
        from ..stats import error_rate_intervals

        replicate = kw.pop("replicate", None)
        _select.check_learners(self, self.learners, at_least=2)
        pairs = list(combinations(self.learners, 2))
        counts = [
            _select.discordant_counts(self, i, j, dataset=dataset, replicate=replicate)
            for i, j in pairs
        ]
        return error_rate_intervals(
            [bc[0] for bc in counts],
            [bc[1] for bc in counts],
            counts[0][2],
            labels=[f"({i}, {j})" for i, j in pairs],
            confidence_level=confidence_level,
            adjust=adjust,
            **kw,
        )

    def power(
        self,
        a,
        b,
        *,
        delta=None,
        alpha=0.05,
        n_comparisons=None,
        power=0.8,
        method="exact",
        alternative="two-sided",
        metric=None,
    ):
        """Power of the across-data-set paired t-test, this study as a pilot.

        Boulesteix et al. (2015), Section 3: ``σ`` is the standard deviation
        (``ddof=1``) of the per-data-set differences ``metric(a) − metric(b)``;
        the power to detect a true mean difference ``delta`` (fixed in advance,
        never the observed one) with the ``J`` data sets as run, and the number
        of data sets needed for ``power``.

        Parameters
        ----------
        a, b : str
        delta : float, default=None
            The mean difference worth detecting, in the metric's units.
            ``None``: the package's one default Δ (0.01 for a metric on a
            [0, 1] scale; any other metric raises ``ValueError``).
        alpha : float, default=0.05
            The family-wise level of the primary analysis.
        n_comparisons : int, default=None
            The test is declared at Holm's first-step level ``alpha /
            n_comparisons``. ``None``: the pairs of the report's default plan
            (``K (K − 1) / 2``; ``K − 1`` beyond :data:`MAX_LEARNERS_ALL_PAIRS`
            learners). ``1``: unadjusted.
        power : float, default=0.8
            Target power for the number of data sets needed.
        method : {"exact", "approx"}, default="exact"
        alternative : {"two-sided", "greater"}, default="two-sided"
        metric : str, default=None

        Returns
        -------
        DataFrame
            One row (rows of several pairs concatenate): ``a, b, metric,
            n_datasets, estimate, sigma, sigma_source, delta, alpha,
            n_comparisons, test_alpha, power`` (at ``test_alpha``),
            ``power_unadjusted`` (at ``alpha``), ``target_power,
            n_datasets_needed, method, alternative``.

        See Also
        --------
        sklearn_bench.stats.power_paired_t, sklearn_bench.stats.n_datasets_needed

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> row = result.power("C4.5+m", "C4.5", delta=0.02, n_comparisons=1).iloc[0]
        >>> round(float(row["sigma"]), 4), round(float(row["power"]), 3)
        (0.0204, 0.924)
        >>> int(row["n_datasets_needed"])
        11
        >>> row = result.power("C4.5+m", "C4.5", delta=0.02).iloc[0]  # 4 learners
        >>> int(row["n_comparisons"]), round(float(row["test_alpha"]), 4)
        (6, 0.0083)
        """
        from ..stats import n_datasets_needed, power_paired_t

        metric = self._metric(metric)
        alpha = check_alpha(alpha)
        delta = _bayesian_select.delta_for(self, metric, delta)
        m = primary_comparisons(len(self.learners))
        if n_comparisons is not None:
            m = check_positive_int(n_comparisons, "n_comparisons")
        x, y, _ = _select.pair(self, a, b, metric=metric)
        d = x - y
        sigma = float(np.std(d, ddof=1)) if d.size > 1 else np.nan
        if not sigma > 1e-10:
            raise ValueError(
                f"The per-data-set differences {metric}({a}) − {metric}({b}) "
                f"over the {d.size} data sets have no spread (sigma = "
                f"{sigma:.3g}): the power of the paired t-test is undefined "
                "with this study as a pilot. Give sigma from elsewhere to "
                "sklearn_bench.stats.power_paired_t / n_datasets_needed."
            )
        opts = {"alpha": alpha / m, "method": method, "alternative": alternative}
        row = {
            "a": a,
            "b": b,
            "metric": metric,
            "n_datasets": d.size,
            "estimate": float(d.mean()),
            "sigma": sigma,
            "sigma_source": (
                f"standard deviation (ddof=1) of the {d.size} per-data-set "
                f"differences {metric}({a}) − {metric}({b}) of this study"
            ),
            "delta": delta,
            "alpha": alpha,
            "n_comparisons": m,
            "test_alpha": alpha / m,
            "power": float(power_paired_t(d.size, delta, sigma, **opts)),
            "power_unadjusted": float(
                power_paired_t(d.size, delta, sigma, **{**opts, "alpha": alpha})
            ),
            "target_power": power,
            "n_datasets_needed": n_datasets_needed(delta, sigma, power=power, **opts),
            "method": method,
            "alternative": alternative,
        }
        return pd.DataFrame([row])

    def win_tie_loss(self, *, delta=None, metric=None, test=None, alpha=0.05):
        """Wins, ties and losses of every learner against every other (Demšar 2006).

        On each data set the learners' mean performances are compared; a
        difference within ``delta`` is a tie, otherwise the better one by the
        metric's direction wins. A pair counts the data sets on which both
        learners have every replicate. Demšar (2006) warns against such counts
        (a non-significant difference is not a tie in truth); prefer the tests
        across data sets (:meth:`paired_test`, :meth:`friedman`).

        Parameters
        ----------
        delta : float, default=None
            The largest difference that counts as a tie. ``None``: the metric's
            default Δ, as in the report, else 0 (equal up to a relative 1e-9).
        metric : str, default=None
        test : str, default=None
            A method of :meth:`paired_test` within a data set: a win or loss
            stands only if that two-sided test rejects at ``alpha``, else it is
            a tie.
        alpha : float, default=0.05
            Level of each per-data-set test (no correction for their number).

        Returns
        -------
        DataFrame
            Index: learner ``i``; columns: (opponent ``j``, ``"win" | "tie" |
            "loss"``), the data sets on which ``i`` is better than ``j``, tied,
            or worse. ``.xs("win", axis=1, level=1)`` is the matrix of wins.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> result.win_tie_loss().loc["C4.5+m", "C4.5"]
        outcome
        win     10
        tie      2
        loss     2
        Name: C4.5+m, dtype: int64
        """
        metric = self._metric(metric)
        if delta is None:
            delta = default_delta(metric) or 0.0
        learners = _select.check_learners(self, self.learners, at_least=2)
        table = _select.blocks_with_missing(self, learners, metric=metric)
        significant = None
        if test is not None:
            alpha = check_alpha(alpha)
            if not isinstance(test, str):
                raise TypeError(f"`test` must be a method name; got {test!r}.")
            k = len(learners)
            significant = np.zeros((len(table), k, k), dtype=bool)
            for d, dataset in enumerate(table.index):
                for i, j in combinations(range(k), 2):
                    if table.iloc[d, [i, j]].isna().any():
                        continue  # the pair does not count this data set
                    try:
                        res = self.paired_test(
                            learners[i],
                            learners[j],
                            dataset=dataset,
                            method=test,
                            metric=metric,
                        )
                    except ValueError as exc:
                        if not str(exc).startswith("`method` must be one of"):
                            raise
                        raise ValueError(f"`test` = {test!r}: {exc}") from None
                    significant[d, i, j] = significant[d, j, i] = res.pvalue < alpha
        return _select.win_tie_loss(
            table.to_numpy(),
            learners,
            delta,
            greater_is_better=self.metrics[metric],
            significant=significant,
        )


def _difference(estimate, ci, method, metric, n, design, df=None):
    """A two-learner interval as the one-learner form's result: a t interval
    keeps its standard error (any level), another its bounds (their level)."""
    from ..stats import GeneralizationErrorResult

    t_like = df is not None and np.isfinite(ci.low) and np.isfinite(ci.high)
    se = np.nan
    if t_like:
        se = (ci.high - ci.low) / 2 / stats.t.isf((1 - ci.confidence_level) / 2, df)
    return GeneralizationErrorResult(
        estimate=float(estimate),
        standard_error=float(se),
        df=df,
        method=method,
        metric=metric,
        design=design,
        n_samples=None,
        n_splits=int(n),
        difference=True,
        confidence_level=ci.confidence_level,
        _fixed=(float(ci.low), float(ci.high)),
    )
