"""The run's page and the compare page are accessible (issue 27 item 6b): axe-core, the
engine behind the browsers' accessibility audits, finds no serious or critical violation on
them (with every case and reply opened, with a size curve drawn, and with code mode's
programs), and the page is used
with the keyboard alone: a filter, a case's toggle, the case opened and its link followed."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import (
    ReplayPair,
    ReplayRun,
    Swept,
    Watched,
    axe_violations,
    cli,
)

pytestmark = pytest.mark.slow  # Chromium

TABS = 400
"""Tab presses allowed to reach a control (the run page has a few dozen before its cases)."""


@dataclass(frozen=True)
class Pages:
    run: ReplayRun
    compare: Path
    sweep: Path


@pytest.fixture(scope="module")
def pages(replay_pair: ReplayPair, kmp_sweep: Swept) -> Pages:
    """Two replay runs of the scripted mix, their comparison page, and a dry run swept over
    two sizes (whose page draws a size curve): the session's, which the tests only read."""
    assert replay_pair.compared.returncode in (0, 1), replay_pair.compared.stderr
    assert kmp_sweep.done.returncode in (0, 1), kmp_sweep.done.stderr
    return Pages(
        replay_pair.b, replay_pair.compare_page, kmp_sweep.run_dir / "reports" / "index.html"
    )


def _open_everything(page: Any) -> None:
    """Every case drawn opened, then every raw reply in them: what axe sees of a read page."""
    page.evaluate("document.querySelectorAll('details.case').forEach(d => { d.open = true; })")
    page.wait_for_function(
        "[...document.querySelectorAll('details.case')].every(d => d.querySelector('.body'))"
    )
    page.evaluate("document.querySelectorAll('details.raw').forEach(d => { d.open = true; })")


@pytest.mark.parametrize("which", ["run", "compare", "sweep"])
def test_axe_finds_no_serious_violation(
    watched: Watched, axe: Any, pages: Pages, which: str
) -> None:
    path = {"run": pages.run.page, "compare": pages.compare, "sweep": pages.sweep}[which]
    watched.open(path.as_uri())
    if which == "sweep":  # the drawing whose text alternative axe checks
        assert watched.page.locator("#curves figure.curve svg").count() == 1
    assert axe_violations(axe, watched.page) == []
    _open_everything(watched.page)
    assert watched.page.locator("details.raw[open] pre").count() > 0
    assert axe_violations(axe, watched.page) == []
    assert not watched.errors and not watched.requests


def test_a_size_curve_says_its_figures_in_words(watched: Watched, pages: Pages) -> None:
    watched.open(pages.sweep.as_uri())
    figure = watched.page.locator("#curves figure.curve svg")
    label = figure.get_attribute("aria-label") or ""
    dots = figure.locator("circle.dot").all()
    for dot in dots:
        rate = float(dot.get_attribute("data-rate") or "nan")
        assert f"{dot.get_attribute('data-size')} {100 * rate:.1f}%" in label
    assert len(dots) == 2


def _focused(page: Any) -> dict[str, str]:
    focused: dict[str, str] = page.evaluate(
        "(() => { const n = document.activeElement;"
        " return {tag: n.tagName.toLowerCase(), id: n.id,"
        " case: (n.closest('details.case') || {dataset: {}}).dataset.id || '',"
        " href: n.getAttribute('href') || '', text: n.textContent}; })()"
    )
    return focused


def _tab_to(page: Any, wanted: Any) -> dict[str, str]:
    """Press Tab until the focused element is ``wanted`` (a predicate on :func:`_focused`)."""
    for _ in range(TABS):
        page.keyboard.press("Tab")
        focused = _focused(page)
        if wanted(focused):
            return focused
    raise AssertionError(f"no Tab reached it; last focused: {_focused(page)}")


def test_the_page_is_used_with_the_keyboard_alone(watched: Watched, pages: Pages) -> None:
    page = watched.page
    watched.open(pages.run.page.as_uri())
    total = len(pages.run.kinds)
    failing = {c for c, kind in pages.run.kinds.items() if kind in ("wrong", "unparseable")}

    _tab_to(page, lambda f: f["id"] == "f-outcome")  # a filter, chosen by arrow keys
    while page.eval_on_selector("#f-outcome", "s => s.value") != "!passed":
        page.keyboard.press("ArrowDown")
    shown = page.eval_on_selector_all("details.case", "ns => ns.map(n => n.dataset.id)")
    assert failing <= set(shown) and len(shown) < total
    assert page.locator("#shown").inner_text() == f"{len(shown)} of {total} cases"

    toggle = _tab_to(page, lambda f: f["tag"] == "summary")  # the first case's toggle
    case_id = toggle["case"]
    assert case_id == shown[0]
    case = page.locator(f'details.case[data-id="{case_id}"]')
    assert case.get_attribute("open") is None
    page.keyboard.press("Tab")  # a closed case is one stop: the next is the next case's
    assert _focused(page)["case"] == shown[1] and _focused(page)["tag"] == "summary"
    page.keyboard.press("Shift+Tab")
    assert _focused(page)["case"] == case_id
    page.keyboard.press("Enter")  # opens it
    assert case.get_attribute("open") is not None
    # The browser fires a details element's toggle event as a task after it opens, and the
    # page builds the body in that event's handler: wait for it (a timeout fails the test).
    case.locator(".body").wait_for(state="visible", timeout=5_000)
    assert case.locator(".body").is_visible()

    link = _tab_to(page, lambda f: f["tag"] == "a")  # the first control inside: its link
    assert link["case"] == case_id and link["href"] == f"#{case_id}"
    page.keyboard.press("Enter")  # followed
    page.wait_for_function(f"location.hash === '#{case_id}'")
    # The hash changes before the page's hashchange handler marks the case: wait for it.
    page.wait_for_selector(f'details.case.target[data-id="{case_id}"]', state="attached")
    assert "target" in (case.get_attribute("class") or "")

    page.keyboard.press("Shift+Tab")  # back to the toggle: Enter closes it again
    assert _focused(page)["tag"] == "summary"
    page.keyboard.press("Enter")
    assert case.get_attribute("open") is None
    assert not watched.errors and not watched.requests


def test_a_code_mode_page_passes_axe_too(watched: Watched, axe: Any, tmp_path: Path) -> None:
    from verification.errors import SandboxUnavailableError
    from verification.run.sandbox import available_engine

    try:
        available_engine()
    except SandboxUnavailableError as error:  # CI installs bubblewrap
        if os.environ.get("CI") == "true":
            pytest.fail(f"code mode cannot run in CI: {error}")
        pytest.skip(f"no sandbox here: {error}")
    output = tmp_path / "results"
    argv = ["kmp", "--provider", "reference", "--answer", "code", "--level", "quick"]
    cli("verify", *argv, "--output", str(output))
    (run,) = (output / "runs").iterdir()
    watched.open((run / "reports" / "index.html").as_uri())
    programs = watched.page.locator("#programs ~ details")
    assert programs.count() > 0
    watched.page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    assert programs.first.locator("pre").count() > 0  # the program's source, and more
    assert axe_violations(axe, watched.page) == []
    assert not watched.errors and not watched.requests
