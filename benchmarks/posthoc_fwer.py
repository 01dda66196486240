"""Family-wise error of the Friedman-type post-hocs and of the p-value
adjustments under an exact null (issue 24).

Monte Carlo study. Under the complete null the k learners are exchangeable in
every block: score[i, j] = b_i + ε_ij with a block (data set) effect
b_i ~ N(0, 1) and ε_ij ~ N(0, 1) i.i.d. (``--tied``: scores rounded to
integers, so blocks have ties). Every pairwise null is true, so the family-wise
error rate (FWER) is P(at least one of the k (k − 1) / 2 pairs rejected at
α = 0.05). Each rate is printed with its Monte Carlo standard error
``sqrt(r (1 − r) / reps)``.

Rows: the post-hocs of ``pairwise_tests`` — Nemenyi and Miller (single-step),
and Conover, Siegel, Quade and the exact rank-sum differences (Eisinga et al.
2017), each with every adjustment of ``adjust_pvalues`` (Holm,
Shaffer, Bergmann–Hommel, Bonferroni, Hochberg, Hommel, Finner, Holland, Li,
Rom) and unadjusted (``none``: the per-pair error, for scale). K = 5 learners,
N = 10 and 30 blocks.

Run from the repository root:
    PYTHONPATH=. python benchmarks/posthoc_fwer.py [--reps 4000] [--seed 0] [--tied]

Measured (4000 replications, seed 0; about 3 minutes each on a busy 2-core
machine; the table is in docs/user_guide/posthoc.rst): every FWER with an
adjustment at or below 0.05 within 2 Monte Carlo SE except Li's (0.049-0.058 on
continuous scores), e.g. N = 10: Nemenyi 0.042, Miller 0.018, Conover / Siegel /
exact rank sums with Holm 0.042, Quade 0.035; unadjusted 0.24-0.31. With tied
(rounded) scores Nemenyi and Siegel fall to 0.012-0.020, the exact rank-sum test
stays at 0.036-0.038.
"""

import argparse
import time

import numpy as np
from scipy import stats

from sklearn_bench.stats import adjust_pvalues, pairwise_tests
from sklearn_bench.stats._rank_posthoc import rank_posthoc

ALPHA = 0.05
K = 5
STEPWISE = ("conover", "siegel", "quade", "exact_ranksum")
SINGLE = ("nemenyi", "miller")
ADJUSTS = (
    "none",
    "bonferroni",
    "holm",
    "hochberg",
    "hommel",
    "finner",
    "holland",
    "li",
    "rom",
    "shaffer",
    "bergmann_hommel",
)


def _fmt(hits, reps):
    r = hits / reps
    return f"{r:.3f} ± {np.sqrt(r * (1 - r) / reps):.3f}"


def _rank_posthoc(ranks, scores, method):
    """The private rank_posthoc of all pairs of the K learners."""
    i, j = np.triu_indices(K, 1)  # combinations order
    return rank_posthoc(
        method, i, j, mean_ranks=ranks.mean(axis=0), n=len(ranks), ranks=ranks,
        values=scores,
    )  # fmt: skip


def _check_against_front_end(rng):
    """The private rank_posthoc gives pairwise_tests' numbers (sanity check)."""
    scores = rng.normal(size=(12, K))
    ranks = stats.rankdata(scores, axis=1)
    for method in STEPWISE + SINGLE:
        ours = _rank_posthoc(ranks, scores, method)
        adjust = "none" if method in STEPWISE else None
        res = pairwise_tests(
            scores, method=method, adjust=adjust, greater_is_better=False
        ).to_frame()
        key = "pvalue" if method in STEPWISE else "pvalue_adjusted"
        got = ours["pvalue"] if method in STEPWISE else ours["pvalue_simultaneous"]
        np.testing.assert_allclose(got, res[key].to_numpy(), rtol=1e-12)


def study(n, reps, rng, tied):
    hits = {(m, "single_step"): 0 for m in SINGLE}
    hits.update({(m, a): 0 for m in STEPWISE for a in ADJUSTS})
    skipped = dict.fromkeys(STEPWISE, 0)
    for _ in range(reps):
        scores = rng.normal(size=(n, 1)) + rng.normal(size=(n, K))
        if tied:
            scores = np.round(scores)
        ranks = stats.rankdata(scores, axis=1)
        for method in SINGLE:
            p = _rank_posthoc(ranks, scores, method)["pvalue_simultaneous"]
            hits[(method, "single_step")] += bool((p <= ALPHA).any())
        for method in STEPWISE:
            try:
                raw = _rank_posthoc(ranks, scores, method)["pvalue"]
            except ValueError:  # Conover/Quade undefined: every block alike
                skipped[method] += 1
                continue
            for adjust in ADJUSTS:
                adj = adjust_pvalues(raw, adjust=adjust)
                hits[(method, adjust)] += bool((adj <= ALPHA).any())
    return hits, skipped


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--tied", action="store_true", help="integer-rounded scores")
    args = parser.parse_args()
    rng = np.random.default_rng(args.seed)
    _check_against_front_end(rng)
    kind = "rounded (tied)" if args.tied else "continuous"
    print(
        f"FWER at α = {ALPHA} under the complete null, K = {K} learners, {kind} "
        f"scores; {args.reps} replications; rate ± Monte Carlo SE"
    )
    results = {}
    start = time.perf_counter()
    for n in (10, 30):
        results[n] = study(n, args.reps, rng, args.tied)
    took = time.perf_counter() - start
    header = f"{'post-hoc':<15}{'adjustment':<17}" + "".join(
        f"{'N = ' + str(n):>16}" for n in results
    )
    print("\n" + header)
    print("-" * len(header))
    for method in SINGLE:
        cells = "".join(
            f"{_fmt(results[n][0][(method, 'single_step')], args.reps):>16}"
            for n in results
        )
        print(f"{method:<15}{'single_step':<17}{cells}")
    for method in STEPWISE:
        for adjust in ADJUSTS:
            cells = []
            for n in results:
                hits, skipped = results[n]
                used = args.reps - skipped[method]
                cells.append(f"{_fmt(hits[(method, adjust)], used):>16}")
            print(f"{method:<15}{adjust:<17}{''.join(cells)}")
    for n in results:
        if any(results[n][1].values()):
            print(f"N = {n}: replications skipped (statistic undefined): "
                  f"{results[n][1]}")  # fmt: skip
    print(f"\n{took:.0f} s")


if __name__ == "__main__":
    main()
