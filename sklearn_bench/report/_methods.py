"""The methods paragraph of a report: what was run and which tests, with citations.

Every analysis of a report registers the test it ran as a :class:`TestRecord` in
``ReportAnalysis.methods`` (:func:`register_test`); the paragraph is generated
from those records and the result's provenance only, so it never describes a
test that did not run. A new report section adds its own record where it runs
its test.
"""

import re

import pandas as pd

from .._io import write_text
from .._text import markdown_text
from ..analysis import (  # noqa: F401
    CITATIONS,
    SIGN_CONVENTION,
    TestRecord,
    cited_keys,
    paired_method,
    register_test,
)

# -- the paragraph ----------------------------------------------------------------


def _size_text(size):
    if "n_samples" in size:
        text = f"n = {size['n_samples']}"
        if "n_features" in size:
            text += f", p = {size['n_features']}"
        if "n_test" in size:
            text += f", fixed test sample of {size['n_test']}"
        return text
    return ""


def _datasets_text(result, analysis):
    sizes = result.info.get("dataset_sizes", {})
    scores = result.scores
    if "n_train" in scores and "n_test" in scores:
        scores = scores[(scores["n_train"] >= 0) & (scores["n_test"] >= 0)]
        ranges = scores.groupby("dataset", observed=True).agg(
            train_min=("n_train", "min"),
            train_max=("n_train", "max"),
            test_min=("n_test", "min"),
            test_max=("n_test", "max"),
        )
    else:
        ranges = pd.DataFrame()
    parts = []
    for name in result.datasets:
        size = sizes.get(name, {})
        if "n_train" in size and "n_samples" not in size:
            text = (
                f"simulated: learning samples of {size['n_train']}, test samples "
                f"of {size['n_test']}"
            )
        else:
            text = _size_text(size)
        if name in ranges.index:
            r = ranges.loc[name]
            text += ("; " if text else "") + (
                f"{_count_range(r['train_min'], r['train_max'])} learning and "
                f"{_count_range(r['test_min'], r['test_max'])} validation rows "
                "per task"
            )
        reps = 0
        if name in analysis.mean.index:
            reps = int(analysis.n_replicates.loc[name].max())
        if reps > 1 or ranges.size:
            # one value per data set and no split sizes: a published table
            # (from_frame), where "1 replicates" would say nothing true
            text += ("; " if text else "") + (
                f"{reps} replicate{'s' if reps != 1 else ''}"
            )
        parts.append(f"{name} ({text})" if text else name)
    return parts


def _count_range(low, high):
    """Row counts as integers: ``"42"`` or ``"42–43"`` (never a median of 42.5)."""
    low, high = int(low), int(high)
    return f"{low}" if low == high else f"{low}–{high}"


def _learners_text(result, learner_table):
    parts = []
    for name in result.learners:
        if learner_table is not None and name in learner_table.index:
            row = learner_table.loc[name]
            params = row["parameters"]
            text = row["learner"] + (f" with {params}" if params else "")
        else:
            text = result.info.get("learners", {}).get(name, "")
            text = re.sub(r" at 0x[0-9a-fA-F]+>", ">", text)
        parts.append(f"{name}: {text}" if text else name)
    return parts


def methods_record(result, analysis, *, versions, settings=None, learner_table=None):
    """Everything the methods paragraph says, as plain data (for tests and
    both renderings)."""
    info = result.info
    n_failed = int(analysis.failures["count"].sum()) if len(analysis.failures) else 0
    rec = {
        "learners": _learners_text(result, learner_table),
        "datasets": _datasets_text(result, analysis),
        "cv": str(info["cv"]) if info.get("cv") else None,
        "seed": info.get("seed"),
        "metric": analysis.metric,
        "direction": analysis.direction,
        "confidence_level": analysis.confidence_level,
        "tests": [r.sentence() for r in analysis.methods],
        "citations": sorted(
            {c for r in analysis.methods for c in r.citations}
            | ({"hothorn2005", "berrar2013"} if info.get("cv") else {"berrar2013"})
        ),
        "n_failed": n_failed,
        "n_missing": int(getattr(result, "n_missing_tasks", 0)),
        "versions": dict(versions),
        "settings": dict(settings or {}),
    }
    # every work the paragraph cites in author-year form has its entry too
    cited = cited_keys(" ".join(_paragraph(rec)))
    rec["citations"] = sorted(set(rec["citations"]) | set(cited))
    return rec


def _join(items):
    items = list(items)
    if len(items) <= 2:
        return " and ".join(items)
    return "; ".join(items[:-1]) + "; and " + items[-1]


def _paragraph(rec):
    """The paragraph as a list of sentences (plain text, Unicode)."""
    s = [
        f"We compared {len(rec['learners'])} learners ({_join(rec['learners'])}) "
        f"on {len(rec['datasets'])} data sets ({_join(rec['datasets'])})."
    ]
    if rec["cv"]:
        seed = f", with random seed {rec['seed']}" if rec["seed"] is not None else ""
        s.append(
            f"Performance was measured by {rec['metric']} ({rec['direction']}) on "
            f"resamples drawn by {rec['cv']}, the same learning samples and "
            "validation rows for every learner on a data set (a matched-pairs "
            f"design; Hothorn et al. 2005){seed}."
        )
    else:
        # a table of results from elsewhere (from_frame): say only what is known
        s.append(
            f"Performance was measured by {rec['metric']} ({rec['direction']}); "
            "the results were supplied as a table, so the resampling scheme is not "
            "recorded here."
        )
    if rec["n_missing"]:
        s.append(
            f"The run is partial: {rec['n_missing']} tasks had not run; the "
            "analyses use the finished ones."
        )
    if rec["n_failed"]:
        s.append(
            f"{rec['n_failed']} tasks failed and were scored as missing; a data set "
            "with a missing replicate was left out of the analyses across data sets."
        )
    s.append(
        f"Effect sizes are reported with {rec['confidence_level']:.0%} confidence "
        "intervals before p-values (Berrar & Lozano 2013). "
        f"{SIGN_CONVENTION}."
    )
    if rec["tests"]:
        s.append("Analyses. " + " ".join(rec["tests"]))
    else:
        s.append("No test could be run on these results.")
    v = rec["versions"]
    s.append("Computed with " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".")
    return s


def methods_markdown(rec):
    """The methods paragraph and its references as Markdown; the paragraph is
    escaped (names are the user's text: never HTML, a link or a heading)."""
    lines = ["# Methods", "", markdown_text(" ".join(_paragraph(rec))), ""]
    if rec["settings"]:
        settings = _settings_text(rec["settings"])
        lines += ["Analysis settings: " + markdown_text(settings) + ".", ""]
    if rec["citations"]:
        lines += ["## References", ""]
        lines += [f"- {CITATIONS[c]}" for c in rec["citations"]]
        lines.append("")
    return "\n".join(lines)


def _settings_text(settings):
    """Each setting with where it came from: ``"alpha = 0.01 (command line);
    delta = 0.01 (the default for a [0, 1] metric)"``. A value that explains
    its own default is not told a second time that it is one."""
    parts = []
    for name, (value, source) in settings.items():
        value, source = str(value), str(source)
        if source.startswith("default") and "(default " in value:
            parts.append(f"{name} = {value.replace('(default ', '(the default ')}")
        else:
            parts.append(f"{name} = {value} ({source})")
    return "; ".join(parts)


def methods_latex(rec):
    """The methods paragraph as a LaTeX fragment (``\\paragraph`` and text;
    needs only the base classes and UTF-8 input)."""
    from ..results import escape_latex

    text = escape_latex(" ".join(_paragraph(rec)))
    out = [
        "% Generated by sklearn_bench from the run it describes.",
        r"\paragraph{Methods.}",
        text,
        "",
    ]
    if rec["settings"]:
        settings = _settings_text(rec["settings"])
        out += [escape_latex(f"Analysis settings: {settings}."), ""]
    if rec["citations"]:
        out.append(r"\begin{itemize}")
        out += [rf"\item {escape_latex(CITATIONS[c])}" for c in rec["citations"]]
        out.append(r"\end{itemize}")
    return "\n".join(out) + "\n"


def write_methods(result, analysis, folder, *, versions, settings=None):
    """Write ``methods.md`` and ``methods.tex`` into ``folder``, generated from
    the run's provenance and ``analysis.methods``; returns their paths."""
    from pathlib import Path

    from ._learners import learner_table

    folder = Path(folder)
    rec = methods_record(
        result,
        analysis,
        versions=versions,
        settings=settings,
        learner_table=learner_table(result),
    )
    md, tex = folder / "methods.md", folder / "methods.tex"
    write_text(md, methods_markdown(rec))
    write_text(tex, methods_latex(rec))
    return [md, tex]
