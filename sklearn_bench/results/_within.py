"""The unit of a two-learner test within one data set (the user guide's "Tests
within one data set"): ``"corrected_t"`` (the default) answers "is a better than b
on data like this, with training sets of this size?" on the split: every fold
score of (repeated) k-fold (Bouckaert & Frank 2004) and of BootstrapCV, the split
of a holdout scheme (Nadeau & Bengio 2003), the replicate of BootstrapOOB with the
out-of-bootstrap rows over the *distinct* training rows as ``n_test/n_train``;
``"5x2cv"``, ``"5x2cv_f"`` on the 10 fold scores of 5 × 2-fold CV; the other
tests on the replicate performances, conditional on the learning sample (Hothorn
et al. 2005), except for a simulation problem's independent learning samples."""

import numpy as np

from ._select import check_dataset, check_learners, design, dropped_words, split_pair

SPLIT_METHODS = ("corrected_t", "5x2cv", "5x2cv_f")
_FIVE_BY_TWO = "RepeatedStratifiedKFold(n_splits=2, n_repeats=5) (or RepeatedKFold)"


def default_method(result, a, b, *, metric, dataset):
    """The default test within ``dataset``, valid for the generalisation
    question: ``"t"`` for a simulation or competition problem (Hothorn et al. 2005,
    Sec. 3.1), ``"corrected_t"`` on every resampling scheme it knows; an unknown
    scheme raises ``ValueError`` saying what to pass."""
    dataset = check_dataset(result, dataset)
    problem = result.datasets[dataset]
    if problem in ("simulation", "competition"):
        return "t"
    scores = split_pair(result, a, b, metric=metric, dataset=dataset)
    if scores.scheme != "unknown":
        return "corrected_t"
    raise ValueError(
        f"The resampling scheme of data set {dataset!r} is unknown "
        f"({design(result, dataset, metric).why}), so no test valid for the "
        "generalisation question can be chosen for it. Pass "
        "method='corrected_t' with test_train_ratio=n_test/n_train, or "
        "method='t' for Hothorn's test conditional on the learning sample."
    )


def corrected_t_inputs(result, a, b, *, metric, dataset, test_train_ratio=None):
    """``x, y, ratio, rule, scope, n_dropped`` of ``"corrected_t"``: its units,
    ``n_test/n_train``, where that ratio comes from in words (the scheme and its
    reference) and the words for H0."""
    a, b = check_learners(result, [a, b])
    dataset = check_dataset(result, dataset)
    problem = result.datasets[dataset]
    if problem in ("simulation", "competition"):
        why = (
            "its replicates are independent learning samples, so method='t' on "
            "them answers the generalisation question"
            if problem == "simulation"
            else "all its learners are validated on one fixed test sample, so "
            "inference is conditional on that sample (Hothorn et al. 2005, Sec. "
            "3.1); use method='t'"
        )
        raise ValueError(
            f"method='corrected_t' corrects for overlapping training sets of one "
            f"learning sample; data set {dataset!r} is a {problem} problem: {why}."
        )
    s = split_pair(result, a, b, metric=metric, dataset=dataset)
    sizes_known = len(s.n_train) and (s.n_train > 0).all() and (s.n_test > 0).all()
    if s.scheme == "bootstrap_oob":
        # Nadeau-Bengio's heuristic rho = n_test / (n_test + n_train) with the
        # distinct training rows (n - n_oob): repeats add no information. Its
        # type I error is near 0.05 in benchmarks/calibration.py; the stored
        # n_test/n_train (draws) is liberal there.
        ratio = (
            float(np.mean(s.n_test / (s.n_train - s.n_test)))
            if sizes_known and (s.n_train > s.n_test).all()
            else None
        )
        how = (
            "Nadeau & Bengio (2003) correction with n_test = out-of-bootstrap "
            "rows, n_train = distinct training rows (n − n_test), i.e. their "
            "heuristic correlation ρ = n_test/n"
        )
        unit = "replicates"
    else:
        ratio = float(np.mean(s.n_test) / np.mean(s.n_train)) if sizes_known else None
        how, unit = {
            "kfold": (
                f"{s.n_replicates} × {s.n_folds}-fold CV; Bouckaert & Frank (2004) "
                "corrected repeated k-fold t",
                "fold scores",
            ),
            "bootstrap_cv": (
                f"{s.n_replicates} bootstrap samples × {s.n_folds} folds; "
                "Bouckaert & Frank (2004) form on the fold scores",
                "fold scores",
            ),
            "holdout": ("Nadeau & Bengio (2003) corrected resampled t", "splits"),
        }.get(
            s.scheme,
            ("Nadeau & Bengio (2003) correction, resampling scheme unknown", "splits"),
        )
    if test_train_ratio is not None:
        ratio = float(test_train_ratio)
        how += ", n_test/n_train given"
    elif ratio is None:
        raise ValueError(
            f"Data set {dataset!r} stores no split sizes to infer n_test/n_train "
            "from; pass `test_train_ratio` for method='corrected_t'."
        )
    scope = (
        f"within data set {dataset!r} on {len(s.x)} {unit} ({how}, "
        f"n_test/n_train = {ratio:.4g}); H0 about learners trained on samples "
        "of this size from the same population"
        + dropped_words(s.n_dropped, "split", a, b)
    )
    return s.x, s.y, ratio, how, scope, s.n_dropped


def five_by_two_inputs(result, a, b, *, metric, dataset):
    """The (5, 2) score arrays for the 5×2cv tests, and the scope."""
    a, b = check_learners(result, [a, b])
    dataset = check_dataset(result, dataset)
    s = split_pair(result, a, b, metric=metric, dataset=dataset)
    if result.datasets[dataset] in ("simulation", "competition") or not (
        s.scheme == "kfold" and s.n_folds == 2 and s.n_replicates == 5
    ):
        raise ValueError(
            f"The 5×2cv tests need 5 repetitions of 2-fold cross-validation: run "
            f"data set {dataset!r} with {_FIVE_BY_TWO}. It was split as "
            f"{design(result, dataset, metric).words}; use method='corrected_t' "
            "for it."
        )
    if s.n_dropped:
        raise ValueError(
            f"The 5×2cv tests need all 10 fold scores; {s.n_dropped} splits of data "
            f"set {dataset!r} were dropped because a task of {a!r} or {b!r} "
            "failed. Use method='corrected_t' on the remaining folds."
        )
    order = np.lexsort((s.fold, s.replicate))
    x = s.x[order].reshape(5, 2)
    y = s.y[order].reshape(5, 2)
    scope = (
        f"within data set {dataset!r} on the 10 fold scores of 5 × 2-fold CV; H0 "
        "about learners trained on half the data"
    )
    return x, y, scope


def corrected_t_block(result, learners, reference, *, metric, dataset):
    """``(x, y, ratio, rule)`` for the corrected t of each of ``learners`` against
    ``reference`` at once on ``dataset``: their split scores (n x len(learners)),
    the reference's, ``n_test/n_train`` and where it comes from in words
    (:func:`corrected_t_inputs`); ``None`` (test pair by pair) unless all have a
    finite score on every split any of them has, with one design, and the default
    test there is ``"corrected_t"``. Pairs of one design share the answer of
    :func:`default_method` and :func:`corrected_t_inputs`: when the default test
    cannot run for the first pair (no scheme, no split sizes), the ``ValueError``
    ``paired_test`` would raise for each pair is raised once, here."""
    from ._select import _split_table

    if not learners or result.datasets[dataset] in ("simulation", "competition"):
        return None
    table = _split_table(result, metric)
    if not table.unique:
        return None
    t = table.of(dataset)
    cols = [table.learner_code[m] for m in [*learners, reference]]
    present = t["present"][:, cols]
    rows = present.any(axis=1)
    if not rows.any() or not present[rows].all():
        return None
    values = t["value"][rows][:, cols]
    if not np.isfinite(values).all():
        return None
    for name in ("replicate", "fold", "n_train", "n_test"):
        design = t[name][rows][:, cols]
        if not (design == design[:, -1:]).all():
            return None
    # the answer of every pair, or its error (one design, one answer)
    if default_method(result, learners[0], reference, metric=metric,
                      dataset=dataset) != "corrected_t":  # fmt: skip
        return None
    x, y, ratio, rule, _, n_dropped = corrected_t_inputs(
        result, learners[0], reference, metric=metric, dataset=dataset
    )
    if n_dropped or x.size != values.shape[0]:
        return None
    return values[:, :-1], values[:, -1], ratio, rule


def conditional_words(result, dataset):
    """What a replicate-level test within ``dataset`` is conditional on."""
    problem = result.datasets[dataset]
    if problem == "simulation":
        return "independent learning samples"
    if problem == "competition":
        return "conditional on the fixed test sample (Hothorn et al. 2005, Sec. 3)"
    return "conditional on this learning sample (Hothorn et al. 2005, Sec. 3)"
