"""One number format for the sentences of the analysis and every output that
renders it: the HTML report, the text summary and LaTeX."""

import math


def fmt_p(p):
    """A p-value: ``"0.0123"``, ``"0.125"``, ``"< 0.001"``, ``"–"`` if missing
    (``None``, NaN or infinite)."""
    if p is None or not math.isfinite(p):
        return "–"
    p = float(p)
    if p < 0.001:
        return "< 0.001"
    return f"{p:.3g}" if p < 0.9995 else "1.00"


def fmt_p_equals(p, name="p"):
    """``"p = 0.0123"``, or ``"p < 0.001"`` (never ``"p = < 0.001"``)."""
    text = fmt_p(p)
    return f"{name} {text}" if text.startswith("<") else f"{name} = {text}"


def fmt_estimate(x, signed=True):
    """An estimate in the metric's units: ``"+0.012"``, ``"-1.23e+03"``."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    x = float(x)
    if math.isinf(x):
        return "∞" if x > 0 else "−∞"
    sign = "+" if signed else ""
    if x == 0 or 0.001 <= abs(x) < 1000:
        return f"{x:{sign}.3f}"
    return f"{x:{sign}.3g}"


def fmt_interval(low, high):
    """``"[-0.019, +0.009]"``; infinite bounds as ``−∞``/``∞``."""
    return f"[{fmt_estimate(low)}, {fmt_estimate(high)}]"


def fmt_level(level, digits=1):
    """A confidence level as achieved: ``"95%"``, ``"96.9%"``, ``"100%"``;
    ``digits`` decimals when it is not a whole percentage."""
    pct = 100 * float(level)
    if abs(pct - round(pct)) < 1e-9:
        return f"{round(pct)}%"
    return f"{pct:.{digits}f}%"


def fmt_names(names):
    """Names in words: ``"a"``, ``"a and b"``, ``"a, b and c"``."""
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def fmt_count(n, noun, plural=None):
    """A count with its noun in the number it takes: ``"1 pair"``, ``"21
    pairs"``, ``"1 data set"``."""
    n = int(n)
    return f"{n} {noun if n == 1 else plural or noun + 's'}"
