"""The methods paragraph of a report, generated from ``Analysis.methods`` and the
provenance only (it never describes a test that did not run), and the settings
of the analysis plan with where each came from."""

from .._io import write_text
from .._latex import escape_latex
from .._text import markdown_text
from ..analysis._bottom_line import delta_words
from ..analysis._plan import AnalysisPlan, plan_settings
from ..analysis._records import CITATIONS, SIGN_CONVENTION, cited_keys


def settings_table(analysis, sources=None):
    """``{setting: (value as shown, where it came from)}`` of the analysis'
    plan; a setting not in ``sources`` is ``"default"`` at its declared default
    (``adjust``: the one its post-hoc test implies), ``"given"`` otherwise."""
    plan, sources = analysis.plan, dict(sources or {})
    out = {}
    for f in plan_settings():
        value = getattr(plan, f.name)
        default = f.default
        if f.name == "adjust":  # the one its post-hoc test implies
            default = AnalysisPlan(posthoc=plan.posthoc).adjust
        source = sources.get(f.name, "default" if value == default else "given")
        if f.name == "metric":
            value = analysis.metric
        elif f.name == "delta":
            if analysis.delta is None:
                value = "none (no default for this metric)"
            elif analysis.delta_source == "default":
                value = f"{analysis.delta:g} (default for a [0, 1] metric)"
            else:
                value = f"{analysis.delta:g}"
        elif isinstance(value, tuple):
            value = ", ".join(value)
        if f.name == "adjust" and analysis.pairwise is not None:
            # the plan's adjust is its post-hoc test's; the pairwise tests keep
            # their own default, and the table says both (issue 37.5)
            value = (
                f"{value} for the {plan.posthoc} post-hoc test, "
                f"{analysis.pairwise.adjust} for the pairwise Wilcoxon tests"
            )
        out[f.name] = (value, source)
    return out


_SIZE_WORDS = {
    "n_samples": "n = ",
    "n_features": "p = ",
    "n_test": "fixed test sample of ",
}


def _datasets_text(analysis):
    sizes = analysis.provenance.get("dataset_sizes", {})
    datasets = analysis.datasets  # (each read of a table field is a copy)
    ranges = datasets.dropna(subset=["n_train_min"])
    n_replicates = analysis.n_replicates.max(axis=1)
    parts = []
    sources = datasets.get("source")
    for name in datasets.index:
        size = sizes.get(name, {})
        bits = [sources.get(name) if sources is not None else None]
        if "n_samples" in size:
            words = _SIZE_WORDS.items()
            bits.append(", ".join(w + str(size[k]) for k, w in words if k in size))
        elif "n_train" in size:
            bits.append(
                f"simulated: learning samples of {size['n_train']}, test samples "
                f"of {size['n_test']}"
            )
        if name in ranges.index:
            r = ranges.loc[name]
            bits.append(
                f"{_count_range(r['n_train_min'], r['n_train_max'])} learning and "
                f"{_count_range(r['n_test_min'], r['n_test_max'])} validation rows "
                "per task"
            )
        reps = int(n_replicates[name]) if name in n_replicates.index else 0
        if reps > 1 or len(ranges):
            # one value per data set and no split sizes: a published table
            # (from_frame), where "1 replicates" would say nothing true
            bits.append(f"{reps} replicate{'s' if reps != 1 else ''}")
        text = "; ".join(bit for bit in bits if bit)
        parts.append(f"{name} ({text})" if text else name)
    return parts


def _count_range(low, high):
    """Row counts as integers: ``"42"`` or ``"42–43"`` (never a median of 42.5)."""
    low, high = int(low), int(high)
    return f"{low}" if low == high else f"{low}–{high}"


def _learners_text(analysis):
    parts = []
    table = analysis.learner_table
    for name in analysis.learners:
        row = table.loc[name]  # (the recorded repr when no parameters were)
        params = f" with {row['parameters']}" if row["parameters"] else ""
        text = row["learner"] + params
        parts.append(f"{name}: {text}" if text else name)
    return parts


def methods_record(analysis, *, versions, settings=None):
    """Everything the methods paragraph says, as plain data (for tests and
    both renderings)."""
    info = analysis.provenance
    n_failed = int(analysis.failures["count"].sum()) if len(analysis.failures) else 0
    rec = {
        "learners": _learners_text(analysis),
        "datasets": _datasets_text(analysis),
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
        "delta_words": delta_words(analysis),
        "n_failed": n_failed,
        "n_missing": analysis.n_missing_tasks,
        "left_out": list(analysis.datasets_left_out),
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
    if rec["n_failed"] or rec["left_out"]:
        left = rec["left_out"]
        failed = f"{rec['n_failed']} tasks failed and were scored as missing; "
        s.append(
            (failed if rec["n_failed"] else "")
            + (
                f"{_join(left)} (with a missing replicate) "
                f"{'was' if len(left) == 1 else 'were'} left out of the analyses "
                "across data sets."
                if left
                else "no data set was left out of the analyses across data sets."
            )
        )
    s.append(
        f"Effect sizes are reported with {rec['confidence_level']:.0%} confidence "
        "intervals before p-values (Berrar & Lozano 2013). "
        f"{SIGN_CONVENTION}."
    )
    if rec.get("delta_words"):  # the one place a default Δ is explained
        s.append(rec["delta_words"])
    if rec["tests"]:
        s.append("Analyses. " + " ".join(rec["tests"]))
    else:
        s.append("No test could be run on these results.")
    v = rec["versions"]
    s.append("Computed with " + ", ".join(f"{k} {val}" for k, val in v.items()) + ".")
    return s


def _rendered(rec, escape, head, references):
    """The paragraph and the settings (``escape``: as text of the markup) under
    ``head``, then the ``references`` lines where the paragraph cites any."""
    lines = [*head, escape(" ".join(_paragraph(rec))), ""]
    if rec["settings"]:
        lines += [escape(f"Analysis settings: {_settings_text(rec['settings'])}."), ""]
    return "\n".join(lines + (references if rec["citations"] else []))


def methods_markdown(rec):
    """The methods paragraph and its references as Markdown; the paragraph is
    escaped (names are the user's text: never HTML, a link or a heading)."""
    items = [f"- {CITATIONS[c]}" for c in rec["citations"]]
    references = ["## References", "", *items, ""]
    return _rendered(rec, markdown_text, ["# Methods", ""], references)


def methods_latex(rec):
    """The methods paragraph as a LaTeX fragment (``\\paragraph`` and text;
    needs only the base classes and UTF-8 input)."""
    head = [
        "% Generated by sklearn_bench from the run it describes.",
        "\\paragraph{Methods.}",
    ]
    items = [rf"\item {escape_latex(CITATIONS[c])}" for c in rec["citations"]]
    references = [r"\begin{itemize}", *items, r"\end{itemize}"]
    return _rendered(rec, escape_latex, head, references) + "\n"


def _settings_text(settings):
    """Each setting with where it came from, ``"alpha = 0.01 (command line)"``
    (a value that explains its own default is not told so twice)."""
    parts = []
    for name, (value, source) in settings.items():
        value, source = str(value), str(source)
        if source.startswith("default") and "(default " in value:
            parts.append(f"{name} = {value.replace('(default ', '(the default ')}")
        else:
            parts.append(f"{name} = {value} ({source})")
    return "; ".join(parts)


def write_methods(analysis, folder, rec):
    """Write ``methods.md`` and ``methods.tex`` of the :func:`methods_record`
    ``rec`` of ``analysis`` into ``folder``; returns their paths."""
    from pathlib import Path

    from ._sequential import sequential_methods

    folder = Path(folder)
    md, tex = folder / "methods.md", folder / "methods.tex"
    write_text(md, methods_markdown(rec) + sequential_methods(analysis))
    write_text(tex, methods_latex(rec))
    return [md, tex]
