"""One name per concept in the public signatures of stats and plotting.

The conventions: ``greater_is_better`` (a required keyword where direction matters:
never a silent bool default), ``delta`` for the smallest difference that matters
(``rope`` only as a result field), ``confidence_level`` for intervals and ``alpha``
for tests, ``n_resamples`` for bootstrap and permutation resamples, ``n_draws`` for
posterior (Monte Carlo) draws, ``adjust`` for multiplicity with the choices of the
one list ``ADJUST_METHODS`` (``correction`` only for a continuity correction,
``method`` never for a multiplicity correction), options keyword-only. An old name
is gone outright (no shim: the package was never released).

Most checks read the signatures and the numpydoc ``Parameters`` of every public
function and result method, so a new function that names a concept otherwise
fails here without a test of its own.
"""

import dataclasses
import importlib
import inspect
import pkgutil
import re

import numpy as np
import pandas as pd
import pytest

import sklearn_bench.plotting as plotting
import sklearn_bench.stats as stats
from sklearn_bench._text import ADJUST_METHODS

# parameter names no public signature may use, and the name that replaces each
FORBIDDEN = {
    "higher_is_better": "greater_is_better",
    "rope": "delta",
    "tolerance": "delta",
    "level": "confidence_level",
    "conf_level": "confidence_level",
    "ci_level": "confidence_level",
    "n_bootstrap": "n_resamples",
    "n_boot": "n_resamples",
    "n_bootstraps": "n_resamples",
    "n_permutations": "n_resamples",
    "n_perm": "n_resamples",
    "n_samples": "n_draws",  # the only n_samples of stats were posterior draws
    "n_mc": "n_draws",
    "posthoc_adjust": "adjust",
    "p_adjust": "adjust",
    "multitest": "adjust",
    "correction_method": "adjust",
}
# where ``correction`` is a continuity correction (R's ``correct=``), not multiplicity
CONTINUITY_CORRECTION = {"mcnemar_test", "error_rate_intervals", "paired_test"}
# optional second samples: data, not options, so they may stay positional
OPTIONAL_DATA = {
    ("bootstrap_ci", "y"),
    ("effect_size", "y"),
    ("proportion_difference_test", "n_2"),
    ("plot_pairwise_significance", "result"),  # or `significant` + `average_ranks`
}
# result fields that must carry the one name of their concept (``rope`` stays as
# the field of a Bayesian result; MultipleRuleBiasResult's n_samples counts data
# samples, not draws)
FORBIDDEN_FIELDS = set(FORBIDDEN) - {"rope", "n_samples"}
# every count a public signature may take, one name per concept, and what its doc
# must say: a new spelling of a resampling count (n_permutations, n_boot, ...) fails
COUNTS = {
    "n_resamples": r"resampl|permutation|bootstrap",
    "n_draws": r"\bdraws\b",
    "n_chains": r"chain",
    "n_warmup": r"warm|discarded",
    "n_collections": r"collection",
    "n_datasets": r"data set|``J``",
    "n_blocks": r"block",
    "n": r"pairs|test set|test-set",
    "n_1": r"sample",
    "n_2": r"second",
}
# the multiplicity corrections: choices of `adjust` only
MULTIPLICITY = set(ADJUST_METHODS) - {"none", "single_step"}


def _public_callables():
    """pytest params (callable, is_method) of every public function and method."""
    out = []
    for module in (stats, plotting):
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj):
                for attr, member in vars(obj).items():
                    if isinstance(member, classmethod):
                        member = member.__func__
                    if attr.startswith("_") or not inspect.isfunction(member):
                        continue
                    out.append(pytest.param(member, True, id=f"{name}.{attr}"))
            elif callable(obj):
                out.append(pytest.param(obj, False, id=name))
    return out


CALLABLES = _public_callables()


def _section(func, title):
    """The text of a numpydoc section of ``func``'s docstring ("" if none)."""
    doc = inspect.getdoc(func) or ""
    pattern = rf"^{title}\n-+\n(.*?)(?=^\w[\w ]*\n-+\n|\Z)"
    match = re.search(pattern, doc, re.S | re.M)
    return match.group(1) if match else ""


def _parameters_doc(func):
    """``{name: "type and description"}`` of the numpydoc Parameters section."""
    out, names = {}, []
    for line in _section(func, "Parameters").splitlines():
        if line and not line.startswith(" "):
            names = [n.strip().strip("*") for n in line.split(" : ")[0].split(",")]
            out.update({n: line.split(" : ", 1)[-1] for n in names})
        else:
            for n in names:
                out[n] += "\n" + line
    return out


def _choices(text):
    """The quoted choices of a ``{"a", "b"}`` type spec in a parameter's doc."""
    spec = re.search(r"\{([^}]*)\}", text.replace("\\\n", "").replace("\n", " "))
    return set(re.findall(r'"([^"]+)"', spec.group(1))) if spec else set()


@pytest.mark.parametrize(("func", "is_method"), CALLABLES)
def test_no_forbidden_parameter_name(func, is_method):
    """Hypothesis: no public signature uses a retired name of a concept (it would be
    a second name for one thing); ``correction`` appears only where it is a
    continuity correction."""
    names = set(inspect.signature(func).parameters)
    bad = {n: FORBIDDEN[n] for n in names & FORBIDDEN.keys()}
    assert not bad, f"{func.__qualname__}: rename {bad}"
    if "correction" in names:
        assert func.__name__ in CONTINUITY_CORRECTION, (
            f"{func.__qualname__}: `correction` for multiplicity is `adjust`"
        )


@pytest.mark.parametrize(("func", "is_method"), CALLABLES)
def test_alpha_is_a_test_level_and_intervals_take_confidence_level(func, is_method):
    """Hypothesis: a parameter ``alpha`` is the level of a test (its doc never
    says it sets an interval); an interval's level is ``confidence_level``,
    whose doc never calls it the level of a rejection."""
    docs = _parameters_doc(func)
    assert not re.search(r"interval", docs.get("alpha", ""), re.I), (
        f"{func.__qualname__}: `alpha` sets an interval level; use confidence_level"
    )
    if "alpha" in docs and "confidence_level" not in docs:
        assert not re.search(r"interval", _section(func, "Returns"), re.I), (
            f"{func.__qualname__} returns intervals at a level `alpha` sets; "
            "take confidence_level"
        )
    assert not re.search(r"reject|significan", docs.get("confidence_level", "")), (
        f"{func.__qualname__}: `confidence_level` sets a test; use alpha"
    )


@pytest.mark.parametrize(("func", "is_method"), CALLABLES)
def test_one_adjust_with_one_choice_list(func, is_method):
    """Hypothesis: a multiplicity correction is chosen by ``adjust`` only, from the
    one list ``ADJUST_METHODS`` ("none", never None, for no correction);
    no other parameter (``method``) offers Holm, Bonferroni, ... as a choice."""
    params = inspect.signature(func).parameters
    for name, text in _parameters_doc(func).items():
        choices = _choices(text)
        if name == "adjust":
            assert choices <= set(ADJUST_METHODS), (func.__qualname__, choices)
            assert not re.search(r"\{[^}]*\bNone\b", text), func.__qualname__
            default = params["adjust"].default
            assert default is None or default in ADJUST_METHODS
        else:
            assert not choices & MULTIPLICITY, (
                f"{func.__qualname__}: `{name}` offers {choices & MULTIPLICITY}; a "
                "multiplicity correction is `adjust`"
            )


def test_the_convention_checks_read_the_docs():
    """Hypothesis: the parser the checks above rely on finds the choices of a
    multi-line type spec and the descriptions of grouped parameters (else those
    checks could pass by reading nothing)."""
    docs = _parameters_doc(stats.pairwise_tests)
    assert {"holm", "shaffer", "rom"} <= _choices(docs["adjust"])
    assert "nemenyi" in _choices(docs["method"])
    assert "interval" in _parameters_doc(stats.tukey_hsd)["confidence_level"]
    assert "Demšar" in _parameters_doc(stats.paired_test)["x"]


@pytest.mark.parametrize(("func", "is_method"), CALLABLES)
def test_one_name_per_count(func, is_method):
    """Hypothesis: every count a public function takes has its concept's one name
    (``n_resamples`` for bootstrap and permutation resamples, ``n_draws`` for
    posterior and Monte Carlo draws, ...) and its description, where it has one,
    says what it counts."""
    docs = _parameters_doc(func)
    for name in inspect.signature(func).parameters:
        if name == "n" or name.startswith("n_"):
            assert name in COUNTS, f"{func.__qualname__}: a new count name `{name}`"
            described = docs.get(name, "").partition("\n")[2]
            assert not described or re.search(COUNTS[name], described, re.I), (
                f"{func.__qualname__}: the doc of `{name}` does not say it counts "
                f"what {name} counts elsewhere"
            )


def test_interval_levels_follow_confidence_level_and_tests_alpha():
    """Hypothesis: where a call gives both tests and intervals, alpha moves the
    rejections only and confidence_level the intervals only."""
    rng = np.random.default_rng(3)
    errors = pd.DataFrame(
        rng.normal(0.2, 0.03, (15, 4)) + [0.0, 0.01, 0.02, 0.03], columns=list("ABCD")
    )
    glob = stats.global_permutation_test(errors, n_resamples=99, random_state=0)
    calls = {
        "pairwise_tests": lambda **kw: stats.pairwise_tests(
            errors, greater_is_better=False, **kw
        ),
        "tukey_hsd": lambda **kw: stats.tukey_hsd(
            errors, greater_is_better=False, **kw
        ),
        "pairwise": lambda **kw: glob.pairwise(method="tukey", **kw),
    }
    for name, call in calls.items():
        base = call().to_frame()
        wide = call(confidence_level=0.8).to_frame()
        loose = call(alpha=0.5).to_frame()
        width = base["ci_high"] - base["ci_low"]
        assert (wide["ci_high"] - wide["ci_low"] < width).all(), name
        np.testing.assert_array_equal(wide["reject"], base["reject"])
        np.testing.assert_array_equal(loose["ci_low"], base["ci_low"])
        np.testing.assert_array_equal(loose["reject"], loose["pvalue_adjusted"] <= 0.5)
        assert loose["reject"].sum() >= base["reject"].sum(), name
    table = stats.error_rate_intervals([3, 0, 5], [21, 2, 6], 50, confidence_level=0.9)
    np.testing.assert_allclose(table["alpha"], [0.1 / 3, 0.1 / 2, 0.1])


@pytest.mark.parametrize(("func", "is_method"), CALLABLES)
def test_options_are_keyword_only(func, is_method):
    """Hypothesis: every option (a parameter with a default) is keyword-only, except
    optional data (a second sample), the one option of a result method (scipy's
    ``confidence_interval(confidence_level)``) and ``ax`` of a ``plot`` method
    (scikit-learn's Display ``plot(ax=None, *, ...)``)."""
    params = list(inspect.signature(func).parameters.values())
    options = [
        p for p in params if p.default is not p.empty and p.kind is not p.KEYWORD_ONLY
    ]
    allowed = set()
    if is_method:
        allowed.add("ax")
        n_options = sum(p.default is not p.empty for p in params)
        if n_options == 1:
            allowed |= {p.name for p in options}
    bad = [
        p.name
        for p in options
        if p.name not in allowed and (func.__name__, p.name) not in OPTIONAL_DATA
    ]
    assert not bad, f"{func.__qualname__}: make {bad} keyword-only"


@pytest.mark.parametrize(("func", "is_method"), CALLABLES)
def test_direction_has_no_silent_default(func, is_method):
    """Hypothesis: a ``greater_is_better`` parameter is a required keyword (no
    default) or ``None`` (a metric may say it), never ``True``/``False``: a bool
    default meant opposite things in different functions."""
    param = inspect.signature(func).parameters.get("greater_is_better")
    if param is None:
        return
    assert param.kind is param.KEYWORD_ONLY, func.__qualname__
    assert param.default is param.empty or param.default is None, (
        f"{func.__qualname__}: greater_is_better={param.default!r}"
    )


def _result_classes():
    """Every result class of stats, exported or only returned (e.g. by
    LeaderboardResult.stability)."""
    out = {}
    for info in pkgutil.iter_modules(stats.__path__):
        module = importlib.import_module(f"sklearn_bench.stats.{info.name}")
        for name, obj in vars(module).items():
            if name.endswith("Result") and dataclasses.is_dataclass(obj):
                out[name] = obj
    return [pytest.param(cls, id=name) for name, cls in sorted(out.items())]


@pytest.mark.parametrize("cls", _result_classes())
def test_result_fields_use_one_name(cls):
    """Hypothesis: result attributes use the same names as the parameters
    (``n_resamples``, ``confidence_level``, ``greater_is_better``); ``rope`` stays
    as the field of a Bayesian result."""
    names = {f.name for f in dataclasses.fields(cls)}
    assert not names & FORBIDDEN_FIELDS, f"{cls.__name__}: {names & FORBIDDEN_FIELDS}"


def test_confidence_interval_is_public():
    """Hypothesis: ``ConfidenceInterval``, the return type of every
    ``confidence_interval()``, is importable from ``sklearn_bench.stats`` and is the
    class the results return."""
    assert "ConfidenceInterval" in stats.__all__
    res = stats.paired_test([0.2, 0.3, 0.25, 0.4], [0.1, 0.2, 0.3, 0.2])
    assert isinstance(res.confidence_interval(), stats.ConfidenceInterval)


def test_test_functions_are_named_test():
    """Hypothesis: no public stats function is a test without the ``_test`` suffix
    that a test function's name carries (``friedman_test``, ``pairwise_tests``,
    ``global_permutation_test``); the short names are not in the public API."""
    for short in ("friedman", "pairwise_test", "global_test"):
        assert not hasattr(stats, short)


# ------------------------------------------------------------ required direction
@pytest.fixture(scope="module")
def errors():
    rng = np.random.default_rng(0)
    return pd.DataFrame(
        rng.uniform(0.1, 0.3, (12, 4)) + [0.0, 0.02, 0.05, 0.1],
        columns=["A", "B", "C", "D"],
    )


def _pair(e):
    return e["A"].to_numpy(), e["B"].to_numpy()


# every function whose direction no metric says, called without greater_is_better
WITHOUT_DIRECTION = {
    **{
        name: (lambda e, name=name: getattr(stats, name)(e))
        for name in (
            "friedman_test",
            "quade_test",
            "durbin_test",
            "friedman_aligned_ranks_test",
            "skillings_mack_test",
            "pairwise_tests",
            "tukey_hsd",
            "win_rate_matrix",
            "leaderboard_table",
            "bayesian_plackett_luce",
        )
    },
    "RMAnovaResult.tukey_hsd": lambda e: stats.rm_anova(e).tukey_hsd(),
    "bayesian_correlated_t": lambda e: stats.bayesian_correlated_t(*_pair(e), rho=0.1),
    "bayesian_signed_rank": lambda e: stats.bayesian_signed_rank(*_pair(e)),
    "bayesian_sign_test": lambda e: stats.bayesian_sign_test(*_pair(e)),
    "bayesian_hierarchical": lambda e: stats.bayesian_hierarchical(
        e.to_numpy(), e.to_numpy(), delta=0.01, rho=0.1
    ),
    "rank_confidence_sets": lambda e: stats.rank_confidence_sets(
        e.mean().to_numpy(), e.to_numpy()
    ),
}


@pytest.mark.parametrize("name", sorted(WITHOUT_DIRECTION))
def test_direction_left_out_is_an_error(errors, name):
    """Hypothesis: where no metric says the direction, leaving out
    ``greater_is_better`` is a TypeError naming it (no old default is assumed,
    with or without a warning)."""
    with pytest.raises(TypeError, match="greater_is_better"):
        WITHOUT_DIRECTION[name](errors)


# ------------------------------------------------------ one post-hoc result shape
def _posthocs(errors):
    """The post-hoc entry points on the same table of error rates."""
    fr = stats.friedman_test(errors, greater_is_better=False)
    glob = stats.global_permutation_test(errors, n_resamples=99, random_state=0)
    return {
        "pairwise_tests": stats.pairwise_tests(errors, greater_is_better=False),
        "pairwise_tests.conover": stats.pairwise_tests(
            errors, method="conover", greater_is_better=False
        ),
        "tukey_hsd": stats.tukey_hsd(errors, greater_is_better=False),
        "rm_anova.tukey_hsd": stats.rm_anova(errors).tukey_hsd(greater_is_better=False),
        "posthoc.nemenyi": fr.posthoc(),
        "posthoc.holm_control": fr.posthoc(method="siegel", adjust="holm", control="A"),
        "pairwise.closed": glob.pairwise(method="closed"),
        "pairwise.tukey": glob.pairwise(method="tukey"),
    }


HAS_INTERVAL = {"pairwise_tests", "tukey_hsd", "rm_anova.tukey_hsd", "pairwise.tukey"}


def test_every_posthoc_is_one_result_shape(errors):
    """Hypothesis: each post-hoc entry point returns a PairwiseTestResult whose
    ``statistic``, ``pvalue`` and ``pvalue_adjusted`` are the columns of its table,
    indexed by the pair, and whose ``confidence_interval()`` exists exactly where
    the method estimates (an explicit ValueError elsewhere)."""
    for name, res in _posthocs(errors).items():
        assert isinstance(res, stats.PairwiseTestResult), name
        frame = res.to_frame()
        for attr in ("pvalue", "pvalue_adjusted"):
            series = getattr(res, attr)
            np.testing.assert_array_equal(series.to_numpy(), frame[attr].to_numpy())
            assert list(series.index) == list(
                zip(frame["learner_i"], frame["learner_j"], strict=True)
            ), name
        assert res.statistic.index.equals(res.pvalue.index), name
        assert np.isfinite(res.statistic.to_numpy(dtype=float)).all(), name
        if name in HAS_INTERVAL:
            ci = res.confidence_interval()
            assert (ci.low <= ci.high).all(), name
            assert ci.low.index.equals(res.pvalue.index), name
        else:
            with pytest.raises(ValueError, match="interval"):
                res.confidence_interval()


def test_posthoc_intervals_agree_with_their_tables(errors):
    """Hypothesis: the intervals are the table's (``ci_low``/``ci_high`` or
    ``low``/``high``); Tukey's at another level equal ``tukey_hsd`` with that
    ``confidence_level``; a level a result cannot recompute is a ValueError naming
    the call that gives it."""
    res = stats.pairwise_tests(errors, greater_is_better=False)
    ci = res.confidence_interval()
    np.testing.assert_array_equal(ci.low.to_numpy(), res.to_frame()["ci_low"])
    with pytest.raises(ValueError, match="pairwise_tests"):
        res.confidence_interval(0.9)
    tukey = stats.tukey_hsd(errors, greater_is_better=False)
    at90 = stats.tukey_hsd(
        errors, confidence_level=0.9, greater_is_better=False
    ).to_frame()
    ci90 = tukey.confidence_interval(0.9)
    np.testing.assert_allclose(ci90.low.to_numpy(), at90["ci_low"], rtol=1e-12)
    np.testing.assert_allclose(ci90.high.to_numpy(), at90["ci_high"], rtol=1e-12)
    assert ci90.confidence_level == 0.9
    glob = stats.global_permutation_test(errors, n_resamples=99, random_state=0)
    pw = glob.pairwise(method="tukey", confidence_level=0.9)
    ci = pw.confidence_interval()
    assert ci.confidence_level == pytest.approx(0.9)
    np.testing.assert_array_equal(ci.high.to_numpy(), pw.to_frame()["ci_high"])
    with pytest.raises(ValueError, match="confidence_level"):
        pw.confidence_interval(0.95)


def test_posthoc_matrix_of_adjusted_pvalues(errors):
    """Hypothesis: every post-hoc result gives the symmetric matrix of adjusted
    p-values that plot_significance_table reads (NaN where a many-to-one
    comparison made no test), with the table's values."""
    for name, res in _posthocs(errors).items():
        mat = res.pvalues_adjusted
        assert mat.shape == (4, 4), name
        np.testing.assert_array_equal(mat.to_numpy(), mat.to_numpy().T)
        for a, b, p in res.to_frame()[
            ["learner_i", "learner_j", "pvalue_adjusted"]
        ].itertuples(index=False):
            assert mat.loc[a, b] == p, name
    control = _posthocs(errors)["posthoc.holm_control"].pvalues_adjusted
    assert np.isnan(control.loc["B", "C"]) and control.loc["B", "A"] <= 1


def test_stats_imports_each_name_on_first_use():
    """H: ``import sklearn_bench.stats`` in a fresh process loads neither pandas,
    scipy.stats nor scikit-learn (the stats layer cost 2.8 s to import), taking
    a Bayesian model loads only what it needs (pandas for Plackett–Luce, neither
    scipy.stats nor scikit-learn), and every name of ``__all__`` resolves to
    the object of its module."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys, sklearn_bench.stats as s\n"
        "heavy = ('pandas', 'scipy.stats', 'sklearn')\n"
        "print(*(m in sys.modules for m in heavy))\n"
        "from sklearn_bench.stats import bayesian_plackett_luce\n"
        "from sklearn_bench.stats import bayesian_hierarchical\n"
        "print(*(m in sys.modules for m in heavy))\n"
    )
    root = Path(__file__).resolve().parents[2]
    env = dict(os.environ, PYTHONPATH=str(root), OMP_NUM_THREADS="1")
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env,
        check=True,
    ).stdout.split()  # fmt: skip
    assert out == ["False"] * 3 + ["True", "False", "False"]
    for name in stats.__all__:
        module = importlib.import_module(f"sklearn_bench.stats.{stats._LAZY[name]}")
        assert getattr(stats, name) is getattr(module, name), name
    assert set(stats.__all__) <= set(dir(stats))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        stats.nope  # noqa: B018
