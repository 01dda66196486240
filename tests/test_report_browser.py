"""Open report.html (sklearn_bench/report/_html.py) in a real headless browser.

Debian's chromium (``/usr/bin/chromium``, installed by ``.ci/run``) loads a copy
of the report with a small script added that, once the page has loaded, writes
what it sees into the DOM: the number of images, how many decoded and are
visible, the tables and their rows, any JavaScript error and any resource the
page fetched. ``--dump-dom`` returns that DOM; ``--enable-logging=stderr``
returns the console messages. Skipped when chromium is absent, except under
``CI=true``, where that is a failure.
"""

import json
import os
import re
import shutil
import subprocess

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("matplotlib")

from sklearn_bench import BenchmarkResult  # noqa: E402

from ._report import report  # noqa: E402

_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--hide-scrollbars",
    "--window-size=1200,2000",
]

_CHECK = """<script>
window.__errors = [];
window.addEventListener("error", (e) => window.__errors.push(String(e.message)));
window.addEventListener("load", () => {
  const imgs = [...document.images];
  const tables = [...document.querySelectorAll("table")];
  const out = {
    images: imgs.length,
    decoded: imgs.filter((i) => i.complete && i.naturalWidth > 0).length,
    visible: imgs.filter((i) => {
      const r = i.getBoundingClientRect();
      return r.width > 100 && r.height > 100;
    }).length,
    figure_ids: [...document.querySelectorAll("figure")].map((f) => f.id),
    tables: tables.map((t) => [t.id, t.tBodies[0] ? t.tBodies[0].rows.length : 0]),
    errors: window.__errors,
    resources: performance.getEntriesByType("resource").map((e) => e.name),
  };
  const pre = document.createElement("pre");
  pre.id = "browser-check";
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail("chromium is not installed; .ci/run must install it (apt-get)")
    pytest.skip("chromium is not installed (needed for the browser test of the report)")


@pytest.fixture(scope="module")
def report_dir(tmp_path_factory):
    """A report of a small result: 3 data sets, 4 learners, 6 replicates, a failure."""
    rng = np.random.default_rng(0)
    rows = []
    for d, base in zip(["alpha", "beta", "gamma"], [0.1, 0.2, 0.3], strict=True):
        for m, shift in zip(["A", "B", "C", "D"], [0, 0.02, 0.05, 0.03], strict=True):
            for r in range(6):
                rows.append((d, m, r, base + shift + rng.normal(0, 0.02)))
    df = pd.DataFrame(rows, columns=["data", "model", "rep", "error"])
    result = BenchmarkResult.from_frame(
        df,
        dataset="data",
        learner="model",
        value="error",
        replicate="rep",
        greater_is_better=False,
    )
    out = tmp_path_factory.mktemp("report")
    # the default plan: the signed-rank test across data sets, whatever is installed
    report(result, out, title="Browser test")
    return out


def _run(chromium, url, tmp_path, *extra):
    profile = tmp_path / "profile"
    proc = subprocess.run(
        [
            chromium,
            *_FLAGS,
            f"--user-data-dir={profile}",
            "--enable-logging=stderr",
            "--v=0",
            *extra,
            url,
        ],
        capture_output=True,
        text=True,
        timeout=180,
        check=False,
    )
    return proc


def test_report_loads_in_chromium_with_every_figure_and_table(report_dir, tmp_path):
    """H: in headless chromium the report loads with no JavaScript or console
    error, fetches no resource, and every figure decodes and is visible and every
    table has rows."""
    chromium = _chromium()
    page = (report_dir / "report.html").read_text(encoding="utf-8")
    checked = tmp_path / "checked.html"
    checked.write_text(page.replace("<head>", "<head>" + _CHECK, 1), encoding="utf-8")
    proc = _run(
        chromium,
        checked.as_uri(),
        tmp_path,
        "--virtual-time-budget=10000",
        "--dump-dom",
    )
    match = re.search(r'<pre id="browser-check">(.*?)</pre>', proc.stdout, re.S)
    assert match, f"no check output; stderr:\n{proc.stderr[-2000:]}"
    seen = json.loads(match.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    n_figures = page.count("<figure ")
    # CD diagram, pairwise diagram, 3 distributions, forest, power, data sets
    # needed, win/tie/loss
    assert n_figures == 9
    assert seen["images"] == seen["decoded"] == seen["visible"] == n_figures
    assert len(seen["figure_ids"]) == n_figures
    expected_tables = {"table-datasets", "table-learners", "table-pairs"}
    expected_tables |= {"table-within", "table-mean", "table-ranks", "table-posthoc"}
    tables = dict(seen["tables"])
    assert expected_tables <= set(tables)
    assert all(n > 0 for n in tables.values()), tables
    assert seen["errors"] == []
    assert seen["resources"] == []
    console = [line for line in proc.stderr.splitlines() if "CONSOLE" in line]
    assert console == []


def test_report_screenshot_is_not_blank(report_dir, tmp_path):
    """H: chromium renders the unmodified report to a screenshot with content (not a
    blank page) and logs no console message."""
    chromium = _chromium()
    shot = tmp_path / "shot.png"
    proc = _run(
        chromium,
        (report_dir / "report.html").as_uri(),
        tmp_path,
        f"--screenshot={shot}",
    )
    assert shot.is_file(), proc.stderr[-2000:]
    import matplotlib.image as mpimg

    pixels = mpimg.imread(shot)
    assert pixels.shape[0] >= 1000 and pixels.shape[1] >= 1000
    assert pixels[..., :3].std() > 0.05  # text and figures, not a uniform page
    assert [line for line in proc.stderr.splitlines() if "CONSOLE" in line] == []
