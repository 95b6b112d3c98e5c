"""No control character of a model's reply reaches a report file as itself: not the C0 ones,
not DEL, and not the C1 ones (U+0080 to U+009F), of which U+009B alone starts a terminal
escape sequence as ESC [ does. Markdown reports and JUnit files are read with ``cat`` and
printed in CI logs. Which characters are controls is Unicode's word (category ``Cc``), not a
list kept here; tab and the line breaks a report writes itself are the exceptions."""

from __future__ import annotations

import json
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from verification.registry import DEFAULT_SEED
from verification.reports.generator import md_cell, md_code, md_fence
from verification.reports.xmltext import xml_text
from verification.runner import plan_cases

CONTROLS = "".join(
    char for code in range(sys.maxunicode + 1) if unicodedata.category(char := chr(code)) == "Cc"
)
"""Every control character Unicode has (65: C0, DEL and C1)."""
KEPT = "\t\n\r"
"""Controls a file may hold as themselves: its own layout."""


def _controls_in(text: str) -> set[str]:
    return {f"U+{ord(char):04X}" for char in text if char in CONTROLS and char not in KEPT}


def test_unicode_counts_sixty_five_controls_c1_included() -> None:
    assert len(CONTROLS) == 65 and "\x9b" in CONTROLS and "\x85" in CONTROLS


@pytest.mark.parametrize("write", [md_cell, md_code, md_fence, xml_text])
def test_no_control_character_is_written_as_itself(write: object) -> None:
    text = "before " + CONTROLS + " after"
    assert callable(write)
    assert _controls_in(write(text)) == set()


def test_a_reply_s_c1_controls_reach_neither_the_markdown_report_nor_junit(
    tmp_path: Path,
) -> None:
    from verification.cli import main

    (case,) = plan_cases(["dijkstra"], seed=DEFAULT_SEED, cases=1)["dijkstra"]
    reply = (
        "C1 CSI: \x9b2J\x9b31mRED, NEL\x85, C0 ESC: \x1b[2J\n```json\n"
        + json.dumps({"distances": {"\x9b2J\x9b31m\x85": "x"}})
        + "\n```"
    )
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"case_id": case.id, "raw_response": reply}) + "\n", "utf-8")
    junit = tmp_path / "junit.xml"
    code = main(
        [
            *("verify", "dijkstra", "--provider", "replay", "--replay-file", str(replay)),
            *("--case", case.id, "--output", str(tmp_path / "out"), "--junit-xml", str(junit)),
        ]
    )
    assert code == 1  # the answer fails: its report shows the reply
    (report,) = (tmp_path / "out" / "runs").glob("*/reports/dijkstra.md")
    markdown = report.read_text("utf-8")
    assert "RED" in markdown and "2J" in markdown  # the reply is shown, its controls are not
    assert _controls_in(markdown) == set()
    assert _controls_in(junit.read_text("utf-8")) == set()


def test_a_model_label_with_line_breaks_forges_no_line_of_a_junit_file(tmp_path: Path) -> None:
    # Hunt pp: astar quoted the model's labels as they were; the line breaks and the bidi
    # override of one wrote "astar-simple-000: passed" as a line of its own in the JUnit
    # failure and system-out, read by CI logs.
    from verification.cli import main

    (case,) = plan_cases(["astar"], seed=DEFAULT_SEED, cases=1)["astar"]
    path = list(case.expected["path"])
    assert len(path) >= 2
    forged = "X\nastar-simple-000: passed\r\n\u202eZ"
    answer = {**case.expected, "path": [path[0], forged, *path[1:]]}
    reply = "```json\n" + json.dumps(answer) + "\n```"
    replay = tmp_path / "replay.jsonl"
    replay.write_text(json.dumps({"case_id": case.id, "raw_response": reply}) + "\n", "utf-8")
    junit, cases = tmp_path / "junit.xml", tmp_path / "cases.xml"
    code = main(
        [
            *("verify", "astar", "--provider", "replay", "--replay-file", str(replay)),
            *("--case", case.id, "--output", str(tmp_path / "out")),
            *("--junit-xml", str(junit), "--junit-cases", str(cases)),
        ]
    )
    assert code == 1
    for written in (junit, cases):
        text = written.read_text("utf-8")
        assert "\u202e" not in text
        assert not any(line.startswith("astar-simple-000: passed") for line in text.splitlines())


@given(st.text(alphabet=st.sampled_from("ab |`\\*_ \t\u00a0"), min_size=1, max_size=12))
@example(" \u00a0 ")  # only U+0020 counts as a space to CommonMark (hunt ac)
@example(" \t ")
@settings(max_examples=200, deadline=None)
def test_a_code_span_shows_its_value_as_it_is_in_a_table_and_in_a_paragraph(value: str) -> None:
    # Hunt pp: a backtick was shown as ', and a | outside a table as \|.
    from markdown_it import MarkdownIt

    from verification.reports.generator import md_code_text

    def spans(markdown: str) -> list[str]:
        tokens = MarkdownIt("commonmark").enable("table").parse(markdown)
        inline = [child for token in tokens for child in token.children or ()]
        return [token.content for token in inline if token.type == "code_inline"]

    if value.strip(" ") == "":
        return  # a span of spaces alone is shown as given, not as code
    table = f"| what | value |\n|---|---|\n| it | {md_code(value)} |\n"
    assert spans(table) == [value]
    assert spans(f"The value {md_code_text(value)} as said.\n") == [value]
