"""What real local servers send, through the real ``openai`` SDK against the fake server on
127.0.0.1 (hunt r, 28 November): vLLM's ``abort`` finish reason is a reply the server gave
up, not an answer; llama.cpp's ``eos`` is the model's end of turn; a reply whose text is
empty while its ``reasoning_content`` holds the work says so, where it read "the reply is
empty" and the report blamed the scaffold's Output Format; and token counts of zero for a
reply with text are no free call."""

from __future__ import annotations

import json
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.store.journal import read_journal
from verification.store.pricing import WORST_CASE_USAGE

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

pytestmark = pytest.mark.slow  # the fake server

MODEL = "local-test-model"
SEED = 23
CASES = 3


@pytest.fixture
def server(fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    return fake_server


def _run(
    server: FakeModelServer,
    output: Path,
    shape: Callable[[str], dict[str, Any]],
    *extra: str,
) -> tuple[int, list[Any]]:
    """A kmp run whose every reply is the right answer's chat completion, changed by
    ``shape(right answer)`` (top-level fields, ``choice_`` and ``message_`` ones)."""
    right = server.right_kmp_replies(SEED, CASES)

    def reply(request: RecordedRequest) -> Reply:
        said = right[request.json["messages"][-1]["content"]]
        return server.chat_completion_with(said, model=MODEL, **shape(said))

    server.script([server.models(MODEL), *[reply] * CASES])
    argv = ["verify", "kmp", "--provider", "openai", "--model", MODEL, "--seed", str(SEED)]
    argv += ["--cases", str(CASES), "--output", str(output), "--no-cache", *extra]
    code = main(argv)
    (run,) = (output / "runs").iterdir()
    return code, read_journal(run / "results.jsonl")


def test_an_aborted_reply_is_an_infrastructure_error_not_an_answer(
    server: FakeModelServer, tmp_path: Path
) -> None:
    code, records = _run(server, tmp_path, lambda _: {"choice_finish_reason": "abort"})
    assert code == 3  # INCOMPLETE: nothing counted, every case asked again on resume
    assert {(r.outcome, r.stop_reason) for r in records} == {("infra_error", "abort")}
    assert all("aborted" in r.reason for r in records)


def test_eos_is_the_model_s_end_of_turn(server: FakeModelServer, tmp_path: Path) -> None:
    code, records = _run(server, tmp_path, lambda _: {"choice_finish_reason": "eos"})
    assert code == 0
    assert {(r.outcome, r.stop_reason) for r in records} == {("passed", "end_turn")}


def test_reasoning_with_no_answer_text_says_so_and_is_not_the_answer(
    server: FakeModelServer, tmp_path: Path
) -> None:
    # vLLM's reasoning parser filing the whole output as reasoning (the right answer in it).
    code, records = _run(
        server, tmp_path, lambda said: {"message_content": None, "message_reasoning_content": said}
    )
    assert code == 1
    assert {(r.outcome, r.level, r.stop_reason) for r in records} == {
        ("failed", 1, "reasoning_only")
    }
    assert all("only reasoning" in r.reason for r in records)
    (run,) = (tmp_path / "runs").iterdir()
    summary = json.loads((run / "reports" / "summary.json").read_text())
    assert summary["scaffolds"]["kmp"]["status"] == "FAILED"


def test_token_counts_of_zero_for_a_reply_with_text_are_counted_at_the_worst_case(
    server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_PRICES", json.dumps({MODEL: {"input": 1.0, "output": 5.0}}))
    zeros = {"usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0}}
    code, records = _run(server, tmp_path, lambda _: zeros)
    assert code == 0
    assert all(r.usage.get(WORST_CASE_USAGE) == 1 for r in records)
    assert all(r.usage["output_tokens"] > 0 and r.usage["input_tokens"] > 0 for r in records)
    (run,) = (tmp_path / "runs").iterdir()
    summary = json.loads((run / "reports" / "summary.json").read_text())
    assert summary["cost"]["usd"] > 0


def test_a_report_of_cut_replies_does_not_blame_the_output_format(
    server: FakeModelServer, tmp_path: Path
) -> None:
    code, _ = _run(server, tmp_path, lambda _: {"choice_finish_reason": "length"})
    assert code == 1
    (run,) = (tmp_path / "runs").iterdir()
    report = (run / "reports" / "kmp.md").read_text()
    assert f"A reply cut at the output budget ({CASES} here)" in report
    assert "is no formatting bug" in report


@pytest.mark.parametrize(
    "refusal",
    [
        {  # vLLM (its flat error body)
            "object": "error",
            "message": "This model's maximum context length is 8192 tokens. However, you "
            "requested 9252 tokens (1700 in the messages, 7552 in the completion).",
            "type": "BadRequestError",
            "code": 400,
        },
        {  # llama.cpp's server
            "error": {
                "code": 400,
                "message": "the request exceeds the available context size, try increasing it",
                "type": "exceed_context_size_error",
            }
        },
    ],
    ids=["vllm", "llama.cpp"],
)
def test_a_size_past_the_server_s_context_is_that_size_s_failure_not_the_run_s_end(
    server: FakeModelServer,
    tmp_path: Path,
    refusal: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Hunt r: the first size whose output budget no longer fit the server's context ended the
    # run with exit 2 (and its resume the same way): no size was reported.
    def reply(request: RecordedRequest) -> Reply:
        if request.json["max_tokens"] > 5000:
            return server.Reply(400, refusal)
        return server.chat_completion('```json\n{"positions": []}\n```', model=MODEL)

    server.script([server.models(MODEL), *[reply] * 400])
    argv = ["verify", "kmp", "--provider", "openai", "--model", MODEL, "--sizes", "24,192"]
    code = main([*argv, "--cases", "4", "--output", str(tmp_path), "--no-cache"])
    assert code != 2  # the run went on, where it stopped with exit 2
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    big = [r for r in records if r.size == 192]
    # The server's setting, not the model's answer nor the scaffold's (hunt s: counted as
    # cut off, a server too small for every size certified the scaffold FAILED).
    assert big and {r.outcome for r in big} == {"infra_error"}
    assert all("context window" in r.reason for r in big)
    assert {r.outcome for r in records if r.size == 24} <= {"passed", "failed"}
    # Said on the terminal, with the fix: a server configured too small is not silent.
    said = capsys.readouterr().out
    assert f"kmp: {len(big)} case(s) did not fit the model's context window" in said
    assert "--max-model-len" in said


def test_a_server_too_small_for_every_size_judges_nothing(
    server: FakeModelServer, tmp_path: Path
) -> None:
    refusal = server.openai_error(400, "BadRequestError", "maximum context length is 512")
    server.script([server.models(MODEL), *[refusal] * 400])
    argv = ["verify", "kmp", "--provider", "openai", "--model", MODEL, "--cases", "3"]
    assert main([*argv, "--output", str(tmp_path), "--no-cache"]) == 3  # INCOMPLETE
    (run,) = (tmp_path / "runs").iterdir()
    summary = json.loads((run / "reports" / "summary.json").read_text())
    assert summary["scaffolds"]["kmp"]["status"] == "INCOMPLETE"


def test_a_run_answered_wholly_from_the_cache_costs_nothing_even_unpriced(
    server: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Hunt t: a local model, which no price table knows, printed "cost: unknown (no price:
    # set VERIFY_PRICES)" even for 0 live calls: nothing was paid, whatever the price.
    right = server.right_kmp_replies(SEED, CASES)

    def reply(request: RecordedRequest) -> Reply:
        return server.chat_completion(right[request.json["messages"][-1]["content"]], model=MODEL)

    server.script([server.models(MODEL), *[reply] * CASES, server.models(MODEL)])
    argv = ["verify", "kmp", "--provider", "openai", "--model", MODEL, "--seed", str(SEED)]
    argv += ["--cases", str(CASES), "--output", str(tmp_path)]
    assert main(argv) == 0
    line = _cost_line(capsys.readouterr().out)
    assert line.startswith(f"cost: unknown (no price known for {MODEL}: set VERIFY_PRICES;")
    assert line.endswith(f"for {CASES} live call(s)")
    assert main(argv) == 0  # every answer from the response cache
    assert _cost_line(capsys.readouterr().out) == "cost: $0.0000 for 0 live call(s)"


def _cost_line(out: str) -> str:
    (line,) = [line for line in out.splitlines() if line.startswith("cost: ")]
    return line


def test_the_free_price_the_cost_line_suggests_prices_a_local_model_at_nothing(
    server: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Hunt t: a local model's every run printed "cost: unknown", and "prompt cache: 1
    # scaffold(s) off" of a provider that never caches prompts; nothing said how to price a
    # model on one's own server.
    right = server.right_kmp_replies(SEED, CASES)

    def reply(request: RecordedRequest) -> Reply:
        return server.chat_completion(right[request.json["messages"][-1]["content"]], model=MODEL)

    server.script([server.models(MODEL), *[reply] * CASES] * 2)
    argv = ["verify", "kmp", "--provider", "openai", "--model", MODEL, "--seed", str(SEED)]
    argv += ["--cases", str(CASES), "--output", str(tmp_path), "--no-cache"]
    assert main(argv) == 0
    line = _cost_line(capsys.readouterr().out)
    assert "prompt cache" not in line
    suggested = line.split("costs nothing with VERIFY_PRICES=", 1)[1].removesuffix(
        f") for {CASES} live call(s)"
    )
    (value,) = shlex.split(suggested)  # as a shell would take it
    monkeypatch.setenv("VERIFY_PRICES", value)
    assert main(argv) == 0
    assert _cost_line(capsys.readouterr().out) == f"cost: $0.0000 for {CASES} live call(s)"
