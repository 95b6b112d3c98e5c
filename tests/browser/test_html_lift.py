"""The lift of a ``--baseline none`` pair on its pages (issue 25 item 5): both runs' pages
and the pair's compare page show summary.md's lift table, figure for figure, with both
arms' envelopes, in a real headless Chromium, and pass axe-core's audit."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from tests.browser.conftest import Watched, axe_violations, cli
from tests.support.calibrations import calibrating_each_case_once
from tests.support.draws import drawing_each_case_once
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file

pytestmark = pytest.mark.slow  # Chromium, and a dry run and a pair

SIZES = "6,12"
ARGV = ["dijkstra", "--level", "quick", "--sizes", SIZES]
WRONG = "```json\n{}\n```"


@dataclass(frozen=True)
class Pair:
    output: Path
    bare: Path
    scaffold: Path

    @property
    def compare(self) -> Path:
        folder = f"{self.bare.name}-vs-{self.scaffold.name}"
        return self.output / "comparisons" / folder / "index.html"


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory) -> Pair:
    """A pair answered from a replay file whose arms differ: the scaffold arm right on
    every case, the bare arm wrong on two cases in three from 12 vertices (and with fewer
    output tokens); then the pair's compare page."""
    with drawing_each_case_once(), calibrating_each_case_once():  # the same cases thrice
        return _pair(tmp_path_factory.mktemp("lift"))


def _pair(folder: Path) -> Pair:
    cli("verify", *ARGV, "--provider", "reference", "--output", str(folder / "dry"))
    (dry,) = (folder / "dry" / "runs").iterdir()
    lines = []
    for r in read_journal(dry / "results.jsonl"):
        size = r.size or 1
        bare = r.raw_response if size < 12 or r.index % 3 == 0 else WRONG
        lines.append(
            {
                "case_id": r.case_id,
                "arm": "bare",
                "text": bare,
                "usage": {"output_tokens": 5 * size},
            }
        )
        lines.append(
            {
                "case_id": r.case_id,
                "arm": "scaffold",
                "text": r.raw_response,
                "usage": {"output_tokens": 13 * size + r.index},
            }
        )
    replay = folder / "pair.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    output = folder / "results"
    argv = ["--provider", "replay", "--replay-file", str(replay), "--output", str(output)]
    cli("verify", *ARGV, *argv, "--baseline", "none")
    runs = {
        read_manifest_file(run / "manifest.json").variant: run
        for run in (output / "runs").iterdir()
    }
    found = Pair(output, runs["bare"], runs[None])
    cli("compare", found.bare.name, found.scaffold.name, "--html", "--output", str(output))
    return found


def _markdown_rows(summary_md: str) -> list[list[str]]:
    """The rows of summary.md's lift table, cell by cell."""
    section = summary_md.split("## Lift over no scaffold")[1]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| ") and (cells[0] == "all" or cells[0].isdigit()):
            rows.append(cells)
    return rows


@pytest.mark.parametrize("which", ["bare", "scaffold", "compare"])
def test_the_pages_of_a_pair_show_its_lift(
    watched: Watched, axe: Any, pair: Pair, which: str
) -> None:
    reports = pair.scaffold / "reports"
    lift = json.loads((reports / "summary.json").read_text())["lift"]["dijkstra"]
    assert lift["sizes"][-1]["difference"] > 0  # the pair differs where the bare arm breaks
    page = {
        "bare": pair.bare / "reports" / "index.html",
        "scaffold": reports / "index.html",
        "compare": pair.compare,
    }[which]
    watched.open(page.as_uri())
    assert watched.page.locator("#lift-title").is_visible()
    table = watched.page.locator('#lift table.lift[data-scaffold="dijkstra"]')
    assert table.locator("caption").inner_text() == f"dijkstra: {lift['sentence']}"
    headers = table.locator("thead th").all_inner_texts()
    assert headers[0] == "Size (vertices)" and headers[-1] == "Token ratio"
    rows = [row.locator("td").all_inner_texts() for row in table.locator("tbody tr").all()]
    assert rows == _markdown_rows((reports / "summary.md").read_text())
    assert [row[0] for row in rows] == [*SIZES.split(","), "all"]
    (failing,) = [r["bare_status"] for r in lift["sizes"] if r["size"] == lift["bare_fails_from"]]
    envelopes = watched.page.locator('#lift ul.envelopes[data-scaffold="dijkstra"] li')
    assert envelopes.all_inner_texts() == [
        f"With the scaffold: certified up to {lift['scaffold_certified_up_to']} vertices, "
        "fails from none of the sizes tried",  # it tried them: none failed (hunt y)
        f"Without: certified up to {lift['bare_certified_up_to']} vertices, "
        f"fails from {lift['bare_fails_from']} vertices ({failing})",
    ]
    assert axe_violations(axe, watched.page) == []
    assert not watched.errors and not watched.requests


def test_a_page_of_no_pair_shows_no_lift(watched: Watched, pair: Pair) -> None:
    (dry,) = (pair.output.parent / "dry" / "runs").iterdir()
    watched.open((dry / "reports" / "index.html").as_uri())
    assert watched.page.locator("#lift-title").is_hidden()
    assert watched.page.locator("#lift *").count() == 0
    assert not watched.errors and not watched.requests


def test_a_pair_that_swept_no_size_shows_its_lift_and_no_envelope(
    watched: Watched, tmp_path: Path
) -> None:
    # Hunt kk 6: such a pair's page said "With the scaffold: certified up to no size, fails
    # from no size tried" of an arm CERTIFIED on its level; summary.md leaves it out.
    argv = ["kmp", "--cases", "4", "--provider", "reference", "--baseline", "none"]
    cli("verify", *argv, "--output", str(tmp_path))
    for run in (tmp_path / "runs").iterdir():
        lift = json.loads((run / "reports" / "summary.json").read_text())["lift"]["kmp"]
        assert lift["sizes"] == []
        watched.open((run / "reports" / "index.html").as_uri())
        caption = watched.page.locator('#lift table.lift[data-scaffold="kmp"] caption')
        assert caption.inner_text() == f"kmp: {lift['sentence']}"
        assert watched.page.locator("#lift ul.envelopes").count() == 0
        assert "certified up to" not in watched.page.locator("#lift").inner_text()
    assert not watched.errors and not watched.requests
