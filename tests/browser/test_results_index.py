"""The results folder's index (issue 27 item 11) in a real headless Chromium: made by two
dry runs, a comparison page and a broken run folder, it loads, lists every run, each of its
links opens a page that is there, and axe-core finds no serious or critical violation."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Watched, axe_violations, run_cli
from tests.support.web_browser import browser_named

pytestmark = pytest.mark.slow  # Chromium

BROKEN = "20200101T000000Z-aaaaaa"


def _cli(*argv: str) -> str:
    done = run_cli(*argv)
    assert done.returncode == 0, done.stderr
    return done.stdout


def _view(*argv: str) -> str:
    # In this process, the browser `view` opens being what BROWSER names as a fresh
    # interpreter reads it (tests/support/web_browser.py).
    with browser_named("true"):  # view opens no browser
        return _cli("view", *argv)


def _dry_run(output: Path) -> str:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    _cli(
        "verify",
        "kmp",
        "lcs",
        "--provider",
        "reference",
        "--level",
        "quick",
        "--output",
        str(output),
    )
    (run,) = set((output / "runs").iterdir()) - before
    return run.name


def test_the_index_lists_every_run_and_links_to_pages_that_are_there(
    watched: Watched, axe: Any, tmp_path: Path
) -> None:
    output = tmp_path / "results"
    first, second = _dry_run(output), _dry_run(output)
    _cli("compare", first, second, "--html", "--output", str(output))
    (output / "runs" / BROKEN).mkdir()
    (output / "runs" / BROKEN / "manifest.json").write_text('{"run_id": ', encoding="utf-8")
    index = Path(_view("--output", str(output)).strip())
    assert index == (output / "index.html").resolve()

    page = watched.page
    watched.page.goto(index.as_uri())
    assert page.title().startswith("Runs in results")
    rows = page.eval_on_selector_all("#runs tbody tr", "rows => rows.map(r => r.dataset.run)")
    assert rows == [second, first, BROKEN]
    assert "broken" in page.locator(f'tr[data-run="{BROKEN}"]').inner_text()
    for run in (first, second):
        summary = json.loads((output / "runs" / run / "reports" / "summary.json").read_text())
        for name, figures in summary["scaffolds"].items():
            item = page.locator(f'tr[data-run="{run}"] li[data-scaffold="{name}"]')
            assert item.locator(".status").inner_text() == figures["status"]
        row = page.locator(f'tr[data-run="{run}"]')
        assert row.locator(f'a[href="runs/{run}/reports/index.html"]').count() == 1
        assert row.locator(f'a[href="comparisons/{first}-vs-{second}/index.html"]').count() == 1
    assert axe_violations(axe, page) == []

    links = page.eval_on_selector_all("a[href]", "links => links.map(a => a.href)")
    assert len(links) == 2 + 3  # each run's page; the comparison from both rows and its table
    for link in dict.fromkeys(links):
        target = Path(link.removeprefix("file://"))
        assert target.is_file() and target.is_relative_to(output.resolve()), link
        watched.open(link)  # the run's page or the comparison page, drawn
        assert page.locator("#run h1").inner_text()
    assert not watched.errors and not watched.requests


def test_a_long_unbroken_model_name_wraps_and_leaves_every_status_in_view(
    watched: Watched, tmp_path: Path
) -> None:
    # Hunt pp: a server's model id of 600 characters made the index 3117 px wide in a
    # 1280 px window, its only status column drawn off screen.
    output = tmp_path / "results"
    run = _dry_run(output)
    path = output / "runs" / run / "manifest.json"
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest.update(dry_run=False, run_label=None, model_requested="M" * 600)
    path.write_text(json.dumps(manifest), encoding="utf-8")
    index = Path(_view("--output", str(output)).strip())
    page = watched.page
    page.goto(index.as_uri())
    assert "M" * 100 in page.locator(f'tr[data-run="{run}"]').inner_text()
    viewport = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport
    statuses = page.locator(f'tr[data-run="{run}"] .status')
    assert statuses.count() == 2
    for at in range(statuses.count()):
        box = statuses.nth(at).bounding_box()
        assert box is not None and box["x"] + box["width"] <= viewport


def test_a_scaffold_with_nothing_counted_shows_no_rate(watched: Watched, tmp_path: Path) -> None:
    # Hunt ag: a scaffold none of whose cases was answered (a replay file without them)
    # read "0.0%" on the run's page and the index, as if every answer had failed.
    output = tmp_path / "results"
    replay = tmp_path / "replay.jsonl"
    replay.write_text("", encoding="utf-8")  # no case answered: each an infrastructure error
    argv = ["verify", "kmp", "--provider", "replay", "--replay-file", str(replay)]
    assert run_cli(*argv, "--level", "quick", "--output", str(output)).returncode == 3
    (run,) = (output / "runs").iterdir()
    summary = json.loads((run / "reports" / "summary.json").read_text())
    assert summary["scaffolds"]["kmp"]["n"] == 0
    page = watched.page
    page.goto(Path(_view("--output", str(output)).strip()).as_uri())
    item = page.locator(f'tr[data-run="{run.name}"] li[data-scaffold="kmp"]')
    assert item.inner_text() == "kmp INCOMPLETE none counted"
    page.goto((run / "reports" / "index.html").as_uri())
    assert page.locator('#summary tbody tr[data-scaffold="kmp"] .rate').inner_text() == "-"
    history = _cli("history", "--output", str(output))
    (line,) = [line.split() for line in history.splitlines() if line.strip().startswith("kmp ")]
    assert line == ["kmp", "INCOMPLETE", "-"]


def test_a_comparison_with_no_shared_case_shows_no_rates(watched: Watched, tmp_path: Path) -> None:
    # Hunt ah: two seeds share no case (the same ids, other inputs): "0.0%" stood for each rate.
    output = tmp_path / "results"
    for seed in ("1", "2"):
        _cli(
            "verify",
            "kmp",
            "--provider",
            "reference",
            "--cases",
            "6",
            "--seed",
            seed,
            "--output",
            str(output),
        )
    a, b = sorted(path.name for path in (output / "runs").iterdir())
    page = Path(_cli("compare", a, b, "--html", "--output", str(output)).split("page: ")[1].strip())
    watched.page.goto(page.as_uri())
    row = watched.page.locator('#summary tbody tr[data-scaffold="kmp"]')
    cells = [
        row.locator(f".{name}").inner_text()
        for name in ("shared", "rate-a", "rate-b", "difference")
    ]
    assert cells == ["0", "-", "-", "-"]
    assert "drawn with other inputs" in row.locator(".verdict").inner_text()
