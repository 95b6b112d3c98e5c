"""Reasoning a model writes inline (``<think>...</think>`` in the reply's text, as Qwen3,
QwQ and DeepSeek-R1 send it from vLLM without a reasoning parser, llama.cpp's
``--reasoning-format none`` or a proxy in front of them) is not the answer: a draft in it
is never judged, and only what follows it is read (hunt r, 28 November: a right draft
inside the reasoning, then "I could not finish; no answer.", was CERTIFIED 10/10; a right
bare final answer after a fenced draft FAILED as ambiguous)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.generators.base import generate_case
from verification.llm.reply_blocks import REASONING_ONLY, after_reasoning
from verification.llm.response_parser import ResponseParser
from verification.registry import DEFAULT_SEED, get_spec
from verification.run.programs import extract_program
from verification.store.journal import read_journal

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

SPEC = get_spec("kmp")
CASE = generate_case(SPEC, "standard", 0, seed=DEFAULT_SEED)
RIGHT = SPEC.render_answer(CASE.expected)
WRONG = SPEC.render_answer({**CASE.expected, "positions": [*CASE.expected["positions"], 999]})
BARE_RIGHT = json.dumps(CASE.expected)


def _read(text: str) -> Any:
    return ResponseParser().extract(SPEC, text)


@pytest.mark.parametrize(
    "reply",
    [
        f"<think>\nScanning.\n{RIGHT}\n</think>\n\nThe positions are as computed above.",
        f"<think>\n{RIGHT}\n</think>\nI could not finish; no answer.",
        f"Scanning the text (the template opened the block).\n{RIGHT}\n</think>\nSee above.",
        f"<think>\n{RIGHT}\n</think>\n```javascript\n{{positions: [999]}}\n```",
        f"<thinking>\n{RIGHT}\n</thinking>\nNo answer.",
    ],
    ids=["prose-after", "gave-up", "r1-lone-close", "final-in-javascript", "thinking-tag"],
)
def test_a_draft_in_the_reasoning_is_never_the_answer(reply: str) -> None:
    parsed = _read(reply)
    assert parsed.answer is None and parsed.failed_level == 1, parsed


@pytest.mark.parametrize(
    "reply",
    [f"<think>\nScanning.\n{RIGHT}\nstill thinking", f"<think>\n{RIGHT}\n</think>\n<think>\nmore"],
    ids=["never-closed", "closed-then-opened-again"],
)
def test_a_reply_that_is_all_reasoning_has_no_final_answer(reply: str) -> None:
    parsed = _read(reply)
    assert (parsed.answer, parsed.failed_level, parsed.reason) == (None, 1, REASONING_ONLY)


def test_the_final_answer_after_the_reasoning_is_read_whatever_the_drafts() -> None:
    # A wrong fenced draft, then the right answer bare: the draft no longer makes it ambiguous.
    parsed = _read(f"<think>\n{WRONG}\n</think>\n\n{BARE_RIGHT}")
    assert parsed.answer == CASE.expected and parsed.failed_level is None
    assert parsed.leniency == ("no_fence",)
    parsed = _read(f"Scanning.\n{WRONG}\n</think>\n\nSo:\n{RIGHT}")
    assert parsed.answer == CASE.expected and parsed.leniency == ()
    # And a right draft never rescues a wrong final answer.
    assert _read(f"<think>\n{RIGHT}\n</think>\n{WRONG}").answer != CASE.expected


def test_a_reply_without_reasoning_is_read_as_it_was() -> None:
    text = f"Work.\n<thinkpad> is no tag\n{RIGHT}"
    assert after_reasoning(text) == text
    assert _read(text).answer == CASE.expected


def test_a_program_drafted_in_the_reasoning_is_no_program() -> None:
    program = "```python\nprint('hello')\n```"
    assert extract_program(f"<think>\n{program}\n</think>\nI give no program.")[0] is None
    assert extract_program(f"<think>\n{program}\nno close") == (None, REASONING_ONLY)
    source, _ = extract_program(f"<think>\nhmm\n</think>\n{program}")
    assert source == "print('hello')\n"


@pytest.mark.slow  # the fake server
def test_a_run_through_an_openai_compatible_server_judges_only_the_final_answer(
    fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The reference answer drafted while thinking, then no final answer: FAILED, not CERTIFIED.
    right = fake_server.right_kmp_replies(11, 4)

    def reply(request: RecordedRequest) -> Reply:
        (case,) = [p for p in right if request.json["messages"][-1]["content"].startswith(p)]
        return fake_server.chat_completion(f"<think>\n{right[case]}\n</think>\nSee above.")

    fake_server.script([fake_server.models("m"), *[reply] * 4])
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    argv = ["verify", "kmp", "--provider", "openai", "--model", "m", "--seed", "11"]
    assert main([*argv, "--cases", "4", "--output", str(tmp_path), "--no-cache"]) == 1
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert [r.outcome for r in records] == ["failed"] * 4
    assert all("</think>" in (r.raw_response or "") for r in records)  # kept as sent


def test_a_tag_inside_a_line_is_data_and_a_tag_in_any_case_is_a_tag() -> None:
    # Hunt s: a right answer whose strings held "</think>" was thrown away; <Think> was not
    # recognised.
    answer = '```json\n{"positions": [3], "note": "</think> and <think>"}\n```'
    assert after_reasoning(f"Work.\n{answer}") == f"Work.\n{answer}"
    program = '```python\nTAGS = ("<think>", "</think>")\nprint(TAGS)\n```'
    assert extract_program(program)[0] == 'TAGS = ("<think>", "</think>")\nprint(TAGS)\n'
    assert _read(f"<Think>\n{RIGHT}\n</Think>\nNo answer.").answer is None
    parsed = _read(f"Thinking it over.</think>\n\n{RIGHT}")  # the close ending a line
    assert parsed.answer == CASE.expected and parsed.failed_level is None


def test_a_reply_past_the_parser_s_bound_is_refused_before_its_reasoning_is_read() -> None:
    from verification.llm.response_parser import MAX_REPLY_CHARS

    reasoning = "<think>\n" + "x" * MAX_REPLY_CHARS + "\n</think>\n"
    parsed = _read(reasoning + RIGHT)  # what follows the reasoning is small, the reply is not
    assert parsed.answer is None and "longer than" in parsed.reason
