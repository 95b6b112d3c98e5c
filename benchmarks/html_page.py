"""How fast a run's page of about 5,000 cases opens in a real browser.

Run: ``python benchmarks/html_page.py [--cases-per-scaffold 152] [--repeat 3]``. Makes a dry
run of every scaffold (33 x 152 = 5,016 cases, the reference's answers) in a temporary
folder, then opens its ``index.html`` in headless Chromium (Debian's ``/usr/bin/chromium``
through Playwright's client) and prints the page's size and the median over the repeats of:
the time from navigation to the page ready (data parsed, summary, curves and the first
cases drawn), a filter by scaffold, a search, and opening a case by its link. The goal is
under 2 s to ready.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the checkout: tests/
from tests.browser.chromium import CHROMIUM, CHROMIUM_ARGS


def _dry_run(output: Path, cases: int) -> Path:
    command = [sys.executable, "-m", "verification", "verify", "--all"]
    command += ["--provider", "reference", "--cases", str(cases), "--output", str(output)]
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
    return (output / "reports" / "index.html").resolve()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases-per-scaffold", type=int, default=152)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--chromium", default=str(CHROMIUM))
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        page_file = _dry_run(Path(folder), args.cases_per_scaffold)
        print(f"dry run: {time.perf_counter() - started:.1f} s")
        size = page_file.stat().st_size
        figures: dict[str, list[float]] = {"ready": [], "filter": [], "search": [], "link": []}
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=args.chromium, args=CHROMIUM_ARGS)
            for _ in range(args.repeat):
                page = browser.new_page()
                started = time.perf_counter()
                page.goto(page_file.as_uri())
                page.wait_for_selector("body[data-ready=true]")
                figures["ready"].append(time.perf_counter() - started)
                cases = page.evaluate(
                    "JSON.parse(document.getElementById('run-data').textContent).cases.length"
                )
                started = time.perf_counter()
                page.select_option("#f-scaffold", "dijkstra")
                page.wait_for_selector("details.case")
                figures["filter"].append(time.perf_counter() - started)
                page.select_option("#f-scaffold", "*")
                started = time.perf_counter()
                page.fill("#f-search", "trie-edge")
                page.wait_for_selector("details.case[data-id^=trie-edge]")
                figures["search"].append(time.perf_counter() - started)
                last = page.evaluate(
                    "JSON.parse(document.getElementById('run-data').textContent).cases.at(-1).id"
                )
                started = time.perf_counter()
                page.evaluate(f"location.hash = {last!r}")
                page.wait_for_selector(f'details.case[data-id="{last}"][open]')
                figures["link"].append(time.perf_counter() - started)
                page.close()
            browser.close()
    print(f"page: {cases} cases, {size / 1e6:.2f} MB")
    for name, values in figures.items():
        print(f"{name:>7}: {statistics.median(values):.3f} s (median of {len(values)})")


if __name__ == "__main__":
    main()
