"""Power simulations of Hothorn et al. (2005), Section 5, Tables 1 and 2.

One Monte Carlo replication of a column of Table 1/2 draws what the column's
problem has (Section 5.1):

- ``sim_large`` / ``sim_small`` (*simulation*): one test sample of ``m`` rows
  (2000, or n) and ``B`` fresh learning samples of ``n`` rows from the DGP; the
  performance of each fitted model is its loss on the test sample (so the
  inference is conditional on the test sample, as the paper says).
- ``competition``: one learning sample (n) and one test sample (m = n); ``B``
  bootstrap samples of the learning sample, performance on the test sample.
- ``oob`` (RW-OOB): one learning sample; ``B`` bootstrap samples, performance on
  the out-of-bootstrap rows (:class:`~sklearn_bench.model_selection.BootstrapOOB`).
- ``oob_2n`` (RW-OOB-2n): as ``oob`` with a learning sample of 2n rows (the
  learning and test samples of the competition merged).
- ``cv`` (RW-CV): 5-fold cross-validation inside each bootstrap sample, rows that
  also occur in the training folds removed from the validation fold
  (:class:`~sklearn_bench.model_selection.BootstrapCV`, same fold rule:
  position ``i`` of the draw goes to fold ``i % 5``).

Each replication ends with the one-sided test of statistic (2) of the paper,
:func:`sklearn_bench.stats.paired_test` (``method="t"``), rejected when the
statistic exceeds the standard normal quantile ``z_{1-alpha}``: the asymptotic
distribution of the permutation test the paper uses ("the corresponding
one-sided permutation test where the asymptotic distribution of its test
statistic (2) is used").

To be fast the two models of each table are fitted in closed form on all ``B``
(or ``B x 5``) training parts at once: least squares with bootstrap counts as
weights (Table 1), and linear discriminant analysis (Table 2, MASS ``lda`` and
scikit-learn's ``LinearDiscriminantAnalysis``: class means, pooled covariance,
priors = class proportions). ``tests/reproduce`` checks these against the
generic path (scikit-learn estimators on the package's splitters). The tree of
Table 2 is scikit-learn's ``DecisionTreeClassifier``, fitted one by one.
"""

import numpy as np
from scipy.stats import norm

from sklearn_bench.model_selection import BootstrapCV
from sklearn_bench.stats import paired_test

COLUMNS = ["sim_large", "sim_small", "competition", "oob", "oob_2n", "cv"]
N_FOLDS = 5


def random_state(seed, *keys):
    """A legacy RandomState (what the package's generators accept) from keys."""
    return np.random.RandomState(
        np.random.MT19937(np.random.SeedSequence([seed, *keys]))
    )


def bootstrap_counts(rs, n_boot, n):
    """Draws (B, n) and counts (B, n) of a bootstrap of n rows."""
    draws = rs.randint(0, n, size=(n_boot, n))
    counts = np.zeros((n_boot, n))
    np.add.at(counts, (np.arange(n_boot)[:, None], draws), 1)
    return draws, counts


def cv_weights(rs, n_boot, n, n_folds=N_FOLDS):
    """Training counts and validation masks (B, k, n) of BootstrapCV.

    Uses ``BootstrapCV._splits_of_draw`` semantics: position i of a draw goes
    to fold ``i % k``; validation rows of fold j are the distinct rows drawn in
    fold j and in no other fold. A draw leaving a validation fold empty is
    redrawn, as in :class:`~sklearn_bench.model_selection.BootstrapCV`.
    """
    train = np.zeros((n_boot, n_folds, n))
    valid = np.zeros((n_boot, n_folds, n), dtype=bool)
    fold = np.arange(n) % n_folds
    for b in range(n_boot):
        while True:
            draw = rs.randint(0, n, size=n)
            per_fold = np.zeros((n_folds, n))
            np.add.at(per_fold, (fold, draw), 1)
            tr = per_fold.sum(axis=0) - per_fold
            va = (per_fold > 0) & (tr == 0)
            if va.any(axis=1).all():
                break
        train[b], valid[b] = tr, va
    return train, valid


def cv_weights_from_splitter(X, n_boot, random_state, n_folds=N_FOLDS):
    """Training counts and validation masks from the package's BootstrapCV."""
    n = len(X)
    cv = BootstrapCV(n_bootstraps=n_boot, n_folds=n_folds, random_state=random_state)
    train = np.zeros((n_boot, n_folds, n))
    valid = np.zeros((n_boot, n_folds, n), dtype=bool)
    for s, (tr, va) in enumerate(cv.split(X)):
        b, j = divmod(s, n_folds)
        np.add.at(train[b, j], tr, 1)
        valid[b, j, va] = True
    return train, valid


def one_sided_rejection(p1, p2, alpha):
    """Reject H0: E(P1) <= E(P2) in favour of P1 > P2 (statistic (2), normal)."""
    res = paired_test(p1, p2, method="t", alternative="greater")
    return bool(res.statistic > norm.ppf(1 - alpha))


def mc_standard_error(k, n_rep):
    """Binomial Monte Carlo SE of a rejection rate, with the Agresti-Coull
    adjusted proportion (k + 2)/(n + 4) so that it is not 0 at k = 0 or n."""
    p = (k + 2) / (n_rep + 4)
    return np.sqrt(p * (1 - p) / n_rep)


def side_by_side(rows, paper, n_rep, n_rep_paper=5000, columns=COLUMNS):
    """Format our rejection rates next to the paper's, flag > 3 SE.

    ``rows``: dict parameter -> dict column -> number of rejections.
    ``paper``: dict parameter -> list of the paper's values (column order).
    The SE combines ours (binomial, ``n_rep``) and the paper's (5000 reps).
    Returns the printed text and the number of flagged cells.
    """
    head = f"{'':>7}" + "".join(f"{c:>24}" for c in columns)
    lines = [head, f"{'':>7}" + "   ours (SE) paper flag" * len(columns)]
    n_flag = 0
    for param, counts in rows.items():
        cells = []
        for c, ref in zip(columns, paper[param], strict=True):
            k = counts[c]
            ours = k / n_rep
            se = mc_standard_error(k, n_rep)
            se_paper = np.sqrt(ref * (1 - ref) / n_rep_paper)
            flag = abs(ours - ref) > 3 * np.hypot(se, se_paper)
            n_flag += flag
            cells.append(f"{ours:6.3f} ({se:.3f}) {ref:5.3f} {'*' if flag else ' '}  ")
        lines.append(f"{param:>7}" + "".join(f"{x:>24}" for x in cells))
    return "\n".join(lines), n_flag
