"""Reproduce the multiple-rule bias curves of Yousefi et al. (2011), Figures 3-4.

    python benchmarks/reproduce/yousefi_bias.py [--samples 150] [--n-jobs 2]

Synthetic microarray model (seed 003, Section 2.1.1, Table 1) with equal and
unequal class variances, n = 60 training points, true errors on 5000 test points.
Reduced from the paper: 6 classification rules instead of 12 (3NN, LDA, DLDA,
NMC, linear SVM, RBF SVM after Welch t-test selection of 5 features; the t-test
+ SFS rules are left out), D = 2000 features instead of 20000 (the 120 markers
and 200 of the 2000 high-variance non-markers kept), and a few hundred samples
instead of 10000. Error estimators: 5-fold, 10-fold CV and LOO, so m = 3..18 with
all three (Figure 3) and m = 1..6 with LOO alone (Figure 4). The two models are
also treated as K = 2 data sets to show the averaged curves of Section 3.3
(eqs. 9-10). Prints the curves and checks the paper's qualitative claims.
"""

import argparse
import sys
import time
from functools import partial
from pathlib import Path

from scipy.stats import spearmanr

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from sklearn.discriminant_analysis import LinearDiscriminantAnalysis  # noqa: E402
from sklearn.feature_selection import SelectKBest  # noqa: E402
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.svm import SVC  # noqa: E402

from sklearn_bench.datasets import make_microarray  # noqa: E402
from sklearn_bench.estimators import DiagonalLDA, welch_t_score  # noqa: E402
from sklearn_bench.experiment import collect_rule_errors  # noqa: E402


def rules(k=5):
    """The six classification rules of Table 3 with one-stage t-test selection."""
    classifiers = {
        "3NN": KNeighborsClassifier(3),
        "LDA": LinearDiscriminantAnalysis(),
        "DLDA": DiagonalLDA(),
        "NMC": NearestCentroid(),
        "L-SVM": SVC(kernel="linear"),
        "RBF-SVM": SVC(kernel="rbf"),
    }
    return {
        name: make_pipeline(SelectKBest(welch_t_score, k=k), clf)
        for name, clf in classifiers.items()
    }


def models(n_features=2000, n_high_variance=200):
    """Equal- and unequal-variance models of Table 1 (reduced dimension)."""
    kw = {"n_features": n_features, "n_high_variance": n_high_variance}
    return {
        "equal var": partial(make_microarray, equal_variance=True, **kw),
        "unequal var": partial(make_microarray, equal_variance=False, **kw),
    }


def collect(n_samples, *, n_train=60, n_test=5000, n_jobs=1, random_state=0, **kw):
    """True and estimated errors of the six rules on both models."""
    return collect_rule_errors(
        rules(),
        models(**kw),
        n_train=n_train,
        n_samples=n_samples,
        n_test=n_test,
        n_jobs=n_jobs,
        random_state=random_state,
    )


def curves_text(res, title):
    frame = res.to_frame()
    cols = ["dataset", "m", "bias", "variance", "rms", "comparative_bias"]
    return f"{title}\n{frame[cols].round(4).to_string(index=False)}"


def claims(res_all, res_loo):
    """The paper's qualitative claims, checked on our curves (text, all_hold)."""
    lines, ok = [], True
    for label, res in [("all 3 estimators", res_all), ("LOO only", res_loo)]:
        frame = res.to_frame()
        for name in dict.fromkeys(frame["dataset"]):
            part = frame[frame["dataset"] == name]
            rho = spearmanr(part["m"], part["bias"]).statistic
            holds = rho < 0 and part["bias"].iloc[-1] < part["bias"].iloc[0]
            ok &= holds
            lines.append(
                f"[{'ok' if holds else 'NO'}] bias grows (more negative) with m "
                f"[{label}, {name}]: Bias {part['bias'].iloc[0]:+.4f} at m="
                f"{part['m'].iloc[0]} -> {part['bias'].iloc[-1]:+.4f} at m="
                f"{part['m'].iloc[-1]} (Spearman {rho:+.2f})"
            )
        avg = frame[frame["dataset"] == "average"].set_index("m")
        single = frame[frame["dataset"] != "average"].groupby("m")
        mean_abs = single["bias"].apply(lambda s: s.abs().mean())
        smaller = (avg["bias"].abs() <= mean_abs + 1e-12).to_numpy()
        holds = smaller[1:].all()
        ok &= holds
        lines.append(
            f"[{'ok' if holds else 'NO'}] averaging over the K = 2 models shrinks "
            f"|bias| [{label}]: |B(m, n, 2)| <= mean |Bias_k| for "
            f"{smaller.sum()} of {len(smaller)} m; at the largest m "
            f"{abs(avg['bias'].iloc[-1]):.4f} vs {mean_abs.iloc[-1]:.4f}"
        )
        rmsd = frame[frame["dataset"] != "average"].groupby("dataset", sort=False)
        first = rmsd["rms"].first()
        lines.append(
            f"[info] RMS at the smallest m [{label}]: "
            + ", ".join(f"{k} {v:.3f}" for k, v in first.items())
            + " (paper, m = 3, n = 60: about 0.1)"
        )
    cb = res_all.to_frame()
    cb = cb[cb["m"] == cb["m"].max()]
    lines.append(
        "[info] comparative bias at the largest m (all estimators): "
        + ", ".join(
            f"{d} {v:+.3f}"
            for d, v in zip(cb["dataset"], cb["comparative_bias"], strict=False)
        )
        + " (paper, m = 36 of 12 rules, n = 60: about -0.1)"
    )
    return "\n".join(lines), ok


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=150)
    parser.add_argument("--n-jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=2011)
    parser.add_argument("--plot", type=str, default=None, help="save Figure 3 here")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    errors = collect(args.samples, n_jobs=args.n_jobs, random_state=args.seed)
    res_all = errors.multiple_rule_bias(random_state=0)
    loo = errors.error_estimators.index("loo")
    from sklearn_bench.stats import multiple_rule_bias

    res_loo = multiple_rule_bias(
        errors.true_error,
        errors.estimated_error[:, [loo]],
        dataset_names=errors.datasets,
    )
    print(
        "Yousefi et al. (2011), synthetic model, n = 60, "
        f"{args.samples} samples per model (paper: 10000), 6 rules x 3 estimators"
    )
    mean_true = errors.true_error.mean(axis=1)
    print("expected true error per rule (columns: " + ", ".join(errors.datasets) + ")")
    for rule, row in zip(errors.rules, mean_true, strict=True):
        print(f"  {rule:8s} " + "  ".join(f"{v:.3f}" for v in row))
    print(curves_text(res_all, "Figure 3 analogue: all three error estimators"))
    print(curves_text(res_loo, "Figure 4 analogue: LOO only"))
    text, ok = claims(res_all, res_loo)
    print("Claims of the paper:")
    print(text)
    if args.plot:
        import matplotlib

        matplotlib.use("Agg")
        from sklearn_bench.plotting import plot_multiple_rule_bias

        axes = plot_multiple_rule_bias(res_all)
        axes[0].figure.savefig(args.plot, dpi=120)
    print(f"all claims hold: {ok}; {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
