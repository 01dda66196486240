"""The Bayesian comparisons of a BenchmarkResult; data from
:mod:`._bayesian_select` and :mod:`._select`, every model from
:mod:`sklearn_bench.stats`."""

import math
from dataclasses import replace
from itertools import combinations

import numpy as np

from .._validation import check_positive_int, check_random_state
from ..stats._hierarchical import MC_ERROR, N_DRAWS
from . import _bayesian_select, _select

# The defaults of bayesian_test are the report's (analysis/_bayesian.py imports
# them): called with its defaults it reproduces the report's probabilities.
SEED = 0
# One Monte Carlo error target for every probability of the report, the
# hierarchical model's: the signed-rank and sign tests' draws are independent,
# so sqrt(p (1 − p) / n) <= 0.5 / sqrt(n) is MC_ERROR at 2,500 draws (at most
# 0.0044 near the decision threshold 0.95).
N_SAMPLES = math.ceil(0.25 / MC_ERROR**2)  # Dirichlet draws
HIERARCHICAL_DRAWS = 4 * N_DRAWS  # 4 chains


class BayesianMixin:
    """:meth:`bayesian_test`, :meth:`bayesian_comparisons` and
    :meth:`bayesian_ranking`."""

    def bayesian_test(
        self,
        a,
        b,
        *,
        dataset=None,
        delta=None,
        metric=None,
        method=None,
        rho=None,
        prior_strength=None,
        n_draws=None,
        random_state=SEED,
        shared_draws=None,
    ):
        """Posterior probabilities that ``a`` or ``b`` is practically better.

        Benavoli, Corani, Demšar & Zaffalon (2017): the posterior probabilities
        that ``a`` is better than ``b`` by more than ``delta`` (in the metric's
        direction), that the two are practically equivalent (the difference
        lies in the ROPE ``[−delta, delta]``), and that ``b`` is better. Within
        a data set :func:`~sklearn_bench.stats.bayesian_correlated_t` on the
        units of ``paired_test(method="corrected_t")``, ``rho = n_test / (n_test
        + n_train)``; across data sets
        :func:`~sklearn_bench.stats.bayesian_signed_rank` (or
        :func:`~sklearn_bench.stats.bayesian_sign_test`) on the per-data-set
        means, or :func:`~sklearn_bench.stats.bayesian_hierarchical` on every
        split score. Failed tasks are dropped as in :meth:`paired_test`.

        Parameters
        ----------
        a, b : str
            The learners.
        dataset : str, default=None
        delta : float, default=None
            The ROPE's half-width, in the metric's units. ``None``: the package's
            one default Δ, 0.01 for a metric on a [0, 1] scale; any other metric
            raises ``ValueError``.
        metric : str, default=None
        method : {"correlated_t", "signed_rank", "sign", "hierarchical"}, default=None
            ``None``: ``"correlated_t"`` within a data set, ``"signed_rank"``
            across data sets.
        rho : float, default=None
            Correlated t-test and hierarchical model: instead of the one from the
            split sizes.
        prior_strength : float, default=None
            Signed-rank and sign tests (``None``: their defaults).
        n_draws : int, default=None
            Monte Carlo draws (``None``: :data:`N_SAMPLES`; 4000 over the 4
            chains of the hierarchical model), the report's.
        random_state : int, numpy Generator, RandomState or None, default=0
            The report's seed: the defaults reproduce the report's probabilities.
        shared_draws : dict, default=None
            Signed-rank test, as in
            :func:`~sklearn_bench.stats.bayesian_signed_rank`.

        Returns
        -------
        BayesianTestResult
            Its description names the metric, its direction, the scope and the
            source of ``rho``.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_dietterich2000
        >>> result = BenchmarkResult.from_frame(load_dietterich2000(),
        ...     dataset="dataset", learner="learner", value="error_rate",
        ...     greater_is_better=False)
        >>> res = result.bayesian_test("Adaboosted C4.5", "C4.5", random_state=0)
        >>> res.method, res.rope, res.decision
        ('signed_rank', 0.01, 'Adaboosted C4.5')
        """
        from ..stats import (
            bayesian_correlated_t,
            bayesian_hierarchical,
            bayesian_sign_test,
            bayesian_signed_rank,
        )

        metric = self._metric(metric)
        delta = _bayesian_select.delta_for(self, metric, delta)
        if n_draws is not None:
            n_draws = check_positive_int(n_draws, "n_draws")
        a, b = _select.check_learners(self, [a, b])
        common = {
            "delta": delta,
            "labels": (a, b),
            "greater_is_better": self.metrics[metric],
        }
        if dataset is not None and method not in (None, "correlated_t"):
            raise ValueError(
                "Within one data set `method` must be 'correlated_t'; got "
                f"{method!r} (the signed-rank and sign tests compare data sets)."
            )
        if prior_strength is not None and (
            dataset is not None or method == "hierarchical"
        ):
            raise ValueError(
                "`prior_strength` applies only to the signed-rank and sign tests "
                "across data sets; the correlated t-test has a non-informative "
                "prior, the hierarchical model's are arguments of "
                "stats.bayesian_hierarchical."
            )
        if dataset is not None:
            x, y, rho, scope, n_dropped = _bayesian_select.correlated_splits(
                self, a, b, metric=metric, dataset=dataset, rho=rho
            )
            res = bayesian_correlated_t(x, y, rho=rho, **common)
        elif method == "hierarchical":
            x, y, rhos, scope, n_dropped = _bayesian_select.hierarchical_splits(
                self, a, b, metric=metric, rho=rho
            )
            draws = {"n_draws": -(-(n_draws or HIERARCHICAL_DRAWS) // 4)}
            res = bayesian_hierarchical(
                x, y, rho=rhos, random_state=random_state, **draws, **common
            )
        else:
            method = "signed_rank" if method is None else method
            funcs = {"signed_rank": bayesian_signed_rank, "sign": bayesian_sign_test}
            if not isinstance(method, str) or method not in funcs:
                raise ValueError(
                    "Across data sets `method` must be 'signed_rank', 'sign' or "
                    "'hierarchical'; got "
                    f"{method!r} (the correlated t-test works within one data set)."
                )
            if rho is not None:
                raise ValueError(
                    "`rho` applies only within one data set and to the hierarchical "
                    "model."
                )
            x, y, scope, n_dropped = _select.pair(
                self, a, b, metric=metric, with_dropped=True
            )
            extra = {} if prior_strength is None else {"prior_strength": prior_strength}
            if method == "signed_rank":
                extra["shared_draws"] = shared_draws
            res = funcs[method](
                x,
                y,
                n_draws=N_SAMPLES if n_draws is None else n_draws,
                random_state=random_state,
                **extra,
                **common,
            )
        words = _select.direction_words(self, metric)
        text = f"{res.description} Scores: {words}; {scope}."
        return replace(res, description=text, n_dropped=n_dropped)

    def bayesian_comparisons(
        self, learners=None, *, control=None, dataset=None, random_state=SEED, **kw
    ):
        """:meth:`bayesian_test` for all pairs of learners, or each against a control.

        Parameters
        ----------
        learners : list of str, default=None
            The learners to compare (all by default), in this order.
        control : str, default=None
            Compare each other learner with this one instead of all pairs.
        dataset : str, default=None
        random_state : int, numpy Generator, RandomState or None, default=0
            One stream for all pairs (each pair gets its own draws).
        **kw
            Passed to :meth:`bayesian_test`.

        Returns
        -------
        dict of (str, str) to BayesianTestResult
            In pair order.

        Examples
        --------
        >>> import pandas as pd
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> tests = result.bayesian_comparisons(
        ...     control="C4.5", delta=0.01, random_state=0)  # AUC has no default Δ
        >>> table = pd.concat([t.to_frame() for t in tests.values()], ignore_index=True)
        >>> table[["a", "b", "decision"]]
              a          b   decision
        0  C4.5     C4.5+m  undecided
        1  C4.5    C4.5+cf  undecided
        2  C4.5  C4.5+m+cf  C4.5+m+cf
        """
        names = self.learners if learners is None else learners
        names = _select.check_learners(self, names, at_least=2)
        if control is not None:
            (control,) = _select.check_learners(self, [control])
            if control not in names:
                names = [control, *names]
            pairs = [(control, other) for other in names if other != control]
        else:
            pairs = list(combinations(names, 2))
        if not isinstance(random_state, np.random.RandomState):
            random_state = check_random_state(random_state)
        return {
            (a, b): self.bayesian_test(
                a, b, dataset=dataset, random_state=random_state, **kw
            )
            for a, b in pairs
        }

    def bayesian_ranking(
        self,
        learners=None,
        *,
        metric=None,
        prior=1.0,
        n_draws=None,
        confidence_level=0.95,
        random_state=None,
    ):
        """Bayesian Plackett–Luce ranking of the learners over the data sets.

        :func:`~sklearn_bench.stats.bayesian_plackett_luce` (Calvo, Ceberio &
        Lozano 2018; needs ``pip install "sklearn-bench[bayes]"``) on each data
        set's ranking of the learners by their mean performance (rank 1 = best).

        Parameters
        ----------
        learners : list of str, default=None
            The learners to rank (all by default), in this order.
        metric : str, default=None
        prior : float or list of float, default=1.0
            Dirichlet concentration of the weights (one or one per learner).
        n_draws : int, default=None
            Posterior draws over the sampler's 4 chains (``None``: 10000).
        confidence_level : float, default=0.95
            Level of the credible intervals.
        random_state : int, numpy Generator or RandomState, default=None

        Returns
        -------
        PlackettLuceResult
            Its description names the metric, its direction and the data sets.

        Examples
        --------
        >>> from sklearn_bench import BenchmarkResult
        >>> from sklearn_bench.datasets import load_demsar2006
        >>> result = BenchmarkResult.from_frame(load_demsar2006(), dataset="dataset",
        ...     learner="learner", value="auc", greater_is_better=True)
        >>> ranking = result.bayesian_ranking(n_draws=2000, random_state=0)
        >>> ranking.expected_rank.round(2)
        learner
        C4.5         3.10
        C4.5+m       1.96
        C4.5+cf      2.99
        C4.5+m+cf    1.95
        Name: expected rank, dtype: float64
        """
        from ..stats import bayesian_plackett_luce

        metric = self._metric(metric)
        names = self.learners if learners is None else learners
        names = _select.check_learners(self, names, at_least=2)
        table = _select.blocks(self, names, metric=metric)
        if n_draws is not None:
            n_draws = check_positive_int(n_draws, "n_draws")
        draws = {} if n_draws is None else {"n_draws": -(-n_draws // 4)}
        res = bayesian_plackett_luce(
            table,
            greater_is_better=self.metrics[metric],
            prior=prior,
            confidence_level=confidence_level,
            random_state=random_state,
            **draws,
        )
        words = _select.direction_words(self, metric)
        text = (
            f"{res.description} Scores: {words}; each data set's mean over its "
            f"replicates, {len(table)} data sets."
        )
        return replace(res, description=text)
