"""The run's page states a swept scaffold's size envelope as summary.json does (issue 23
item 3), and an envelope search's sizes in the order tried as the scaffold report does
(issue 25 item 2): in a real headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Swept, Watched, axe_violations, run_cli
from verification.reports.html import render_page

pytestmark = pytest.mark.slow  # Chromium


def test_the_summary_row_states_the_size_envelope(watched: Watched, kmp_sweep: Swept) -> None:
    # kmp at the quick level swept over lengths 8 and 16 (the session's dry run).
    assert kmp_sweep.done.returncode == 0, kmp_sweep.done.stderr
    run_dir = kmp_sweep.run_dir
    summary = json.loads((run_dir / "reports" / "summary.json").read_text())["scaffolds"]["kmp"]
    # kmp's length 8 draws some inputs again: it is decided on those it has, and says so
    short = [str(p["size"]) for p in summary["sweep"] if p["short_oc"]]
    said = "holds at every size tried (text length 8 to 16)"
    if short:
        said += f"; {' and '.join(short)} decided on fewer inputs than the plan's cap"
    assert summary["envelope"] == said
    watched.open((run_dir / "reports" / "index.html").as_uri())
    status = watched.page.locator('#summary tbody tr[data-scaffold="kmp"] .status').inner_text()
    assert status == f"{summary['status']} (size envelope: {summary['envelope']})"
    # what each size's decision claims: at the quick level a fixed 35 cases, a weak plan
    assert "(35 cases, the rate alone decides, a weak plan)" in summary["size_oc"]
    said = watched.page.locator('#curves p.size-oc[data-scaffold="kmp"]').inner_text()
    assert said == f"kmp: what a size's decision claims. {summary['size_oc']}"
    assert not watched.errors and not watched.requests


def _verify(*argv: str) -> Path:
    """The run folder of ``verify`` with ``argv``."""
    output = Path(argv[argv.index("--output") + 1])
    done = run_cli("verify", *argv)
    assert done.returncode == 0, done.stderr
    (run_dir,) = (output / "runs").iterdir()
    return run_dir


@pytest.fixture(scope="module")
def searched(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The reports folder of a dry run of dijkstra's envelope search."""
    output = tmp_path_factory.mktemp("envelope") / "results"
    run_dir = _verify("dijkstra", "--provider", "reference", "--envelope", "--output", str(output))
    return run_dir / "reports"


def _search_table(watched: Watched, name: str) -> tuple[str, list[list[str]]]:
    table = watched.page.locator(f'#searches table.search[data-scaffold="{name}"]')
    caption = table.locator("caption").inner_text()
    rows = table.locator("tbody tr").all()
    return caption, [row.locator("td").all_inner_texts() for row in rows]


def test_the_page_lists_the_envelope_search_as_the_report_does(
    watched: Watched, axe: Any, searched: Path
) -> None:
    search = json.loads((searched / "summary.json").read_text())["scaffolds"]["dijkstra"]
    search = search["envelope_search"]
    assert len(search["tried"]) >= 2
    watched.open((searched / "index.html").as_uri())
    caption, rows = _search_table(watched, "dijkstra")
    assert caption == (
        f"dijkstra: envelope search, certified up to {search['certified_up_to']} vertices, "
        "fails from none of the sizes tried"  # sizes were tried: none failed (hunt y)
    )
    # The Markdown report's rows, cell for cell, in the order the search tried the sizes.
    report = (searched / "dijkstra.md").read_text().split("## Envelope search")[1]
    lines = [line for line in report.splitlines() if line.startswith("| ") and line[2].isdigit()]
    assert rows == [[cell.strip() for cell in line.strip("|").split("|")] for line in lines]
    assert [int(row[1]) for row in rows] == [t["size"] for t in search["tried"]]
    note = watched.page.locator('#searches p.search-note[data-scaffold="dijkstra"]').inner_text()
    assert note.lower() == f"{search['statement']}. {search['overshoot']}.".lower()
    assert "has one named too high in at most" in search["overshoot"]
    assert axe_violations(axe, watched.page) == []
    assert not watched.errors and not watched.requests


def test_a_search_that_failed_and_stopped_says_so(
    watched: Watched, searched: Path, tmp_path: Path
) -> None:
    page = (searched / "index.html").read_text()
    block = page.split('id="run-data">')[1].split("</script>")[0]
    data = json.loads(block)
    search = data["summary"]["scaffolds"]["dijkstra"]["envelope_search"]
    search["tried"][-1].update(status="FAILED", pass_rate=0.5, budget_limited=True, usd=0.01234)
    search.update(
        certified_up_to=search["tried"][-2]["size"], fails_from=search["tried"][-1]["size"]
    )
    search["stopped"] = "the next size would pass --max-cost"
    search["tried"][0]["ended_short"] = True  # decided on fewer inputs than the plan's cap
    for point in data["summary"]["scaffolds"]["dijkstra"]["sweep"]:  # the size, as decided
        if point["size"] == search["fails_from"]:
            point["status"] = "FAILED"
    (tmp_path / "index.html").write_text(render_page(data))
    watched.open((tmp_path / "index.html").as_uri())
    caption, rows = _search_table(watched, "dijkstra")
    assert caption == (
        f"dijkstra: envelope search, certified up to {search['certified_up_to']} vertices, "
        f"fails from {search['fails_from']} vertices (FAILED)"
    )
    assert rows[-1][2] == "FAILED (budget-limited)" and rows[-1][4] == "50.0%"
    assert rows[0][2] == f"{search['tried'][0]['status']}, ended short at {rows[0][3]}"
    assert rows[-1][7] == "$0.0123"
    note = watched.page.locator('#searches p.search-note[data-scaffold="dijkstra"]').inner_text()
    assert " The next size would pass --max-cost. Each size keeps its plan" in note
    assert not watched.errors and not watched.requests


def test_a_size_decided_short_states_its_own_claim(
    watched: Watched, kmp_sweep: Swept, tmp_path: Path
) -> None:
    # The sweep's page data with its length 8 decided on fewer inputs than the plan's cap
    # (n_queens' board of side 4 has 8 inputs): the claim summary.json states for it is on
    # the page beside what every size's decision claims, whether the run certifies or not
    # (hunt ee: a quick run, which certifies nothing, hid it and kept the 35 cases' claim).
    page = (kmp_sweep.run_dir / "reports" / "index.html").read_text()
    data = json.loads(page.split('id="run-data">')[1].split("</script>")[0])
    kmp = data["summary"]["scaffolds"]["kmp"]
    claim = "By this plan (35 cases ...), which ended at 8 answered inputs <b>& so on</b>."
    kmp["sweep"][0]["short_oc"] = claim
    for uncertified in ("quick certifies nothing", None):
        kmp["uncertified"] = uncertified
        (tmp_path / "index.html").write_text(render_page(data))
        watched.open((tmp_path / "index.html").as_uri())
        said = watched.page.locator('#curves p.size-claim[data-scaffold="kmp"][data-size="8"]')
        assert said.all_inner_texts() == [f"kmp at text length 8: {claim}"]
        assert watched.page.locator('#curves p.size-oc[data-scaffold="kmp"]').count() == 1
    assert not watched.errors and not watched.requests
