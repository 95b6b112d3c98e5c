"""Extended thinking (``--thinking-budget``) through the real Anthropic SDK against the fake
server on 127.0.0.1: the request carries the thinking field, no temperature and a
``max_tokens`` of the budget plus the spec's output budget; thinking blocks are not the
answer; the budget is in the manifest, the cache key and comparability; models and
providers that cannot think are refused before any request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from verification.cli import main
from verification.registry import get_spec
from verification.reports.history import comparability
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.pricing import THINKING_FAMILIES, TokenCounts, price_for

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

MODEL = "claude-haiku-4-5-20251001"
SEED = 5
CASES = 3
BUDGET = 2048
THOUGHT_TOKENS = 900


@pytest.fixture
def thinking_model(anthropic_env: FakeModelServer) -> FakeModelServer:
    """A server answering every kmp case right after a thinking block that holds a wrong
    answer in the scaffold's own format (which the parser must not read)."""
    replies = anthropic_env.right_kmp_replies(SEED, CASES)

    def answer(sent: RecordedRequest) -> Reply:
        body = anthropic_env.message_body(
            replies[sent.json["messages"][0]["content"]],
            model=MODEL,
            output_tokens=THOUGHT_TOKENS + 100,
        )
        wrong = '```json\n{"matches": [999], "comparisons": -1}\n```'
        body["content"].insert(
            0, {"type": "thinking", "thinking": f"Draft: {wrong}", "signature": "c2ln"}
        )
        return anthropic_env.Reply(200, body)

    anthropic_env.script([answer] * (2 * CASES))
    return anthropic_env


def _verify(output: Path, *extra: str, model: str = MODEL) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", model, "--seed", str(SEED)]
    return main([*argv, "--cases", str(CASES), "--output", str(output), *extra])


def _run_dirs(output: Path) -> list[Path]:
    return sorted((output / "runs").iterdir(), key=lambda p: p.stat().st_mtime_ns)


def test_a_thinking_request_and_its_answer(thinking_model: FakeModelServer, tmp_path: Path) -> None:
    _verify(tmp_path, "--thinking-budget", str(BUDGET))
    sent = thinking_model.requests
    assert len(sent) == CASES
    output_budget = get_spec("kmp").max_output_tokens
    for request in sent:
        body = request.json
        assert body["thinking"] == {"type": "enabled", "budget_tokens": BUDGET}
        assert body["max_tokens"] == BUDGET + output_budget
        assert "temperature" not in body
    (run,) = _run_dirs(tmp_path)
    records = read_journal(run / "results.jsonl")
    # The thinking block's wrong answer came first; only the text block was judged.
    assert [r.outcome for r in records] == ["passed"] * CASES
    assert all("999" not in (r.raw_response or "") for r in records)
    manifest = read_manifest_file(run / "manifest.json")
    assert manifest.thinking_budget == BUDGET
    assert manifest.settings["thinking_budget"] == BUDGET
    assert json.loads((run / "reports" / "summary.json").read_bytes())["thinking_budget"] == BUDGET
    # Thinking is billed as output: the API counts it in output_tokens, and so does the cost.
    summary = json.loads((run / "reports" / "summary.json").read_text("utf-8"))
    price = price_for(MODEL)
    assert price is not None
    paid = sum(price.cost(TokenCounts.from_usage(r.usage)) for r in records)
    assert all(r.usage["output_tokens"] > THOUGHT_TOKENS for r in records)
    assert summary["cost"]["usd"] == pytest.approx(paid)
    assert summary["cost"]["output_tokens"] == sum(r.usage["output_tokens"] for r in records)


def test_the_budget_is_part_of_the_cache_key(
    thinking_model: FakeModelServer, tmp_path: Path
) -> None:
    _verify(tmp_path, "--thinking-budget", str(BUDGET))
    _verify(tmp_path, "--thinking-budget", str(BUDGET))  # the same requests: from the cache
    assert len(thinking_model.requests) == CASES
    _verify(tmp_path, "--thinking-budget", str(BUDGET + 1))  # another budget: asked again
    assert len(thinking_model.requests) == 2 * CASES
    assert [r.json["thinking"]["budget_tokens"] for r in thinking_model.requests[CASES:]] == [
        BUDGET + 1
    ] * CASES
    first, cached, other = (read_manifest_file(d / "manifest.json") for d in _run_dirs(tmp_path))
    assert comparability(first, cached) == []
    assert comparability(first, other) == [f"thinking_budget {BUDGET} != {BUDGET + 1}"]


@pytest.mark.parametrize(
    ("extra", "said"),
    [
        ((), "does not support extended thinking"),
        (("--temperature", "0.5"), "without a temperature"),
        (("--thinking-budget", "512"), "greater than or equal to 1024"),
    ],
)
def test_what_cannot_think_is_refused_before_any_request(
    anthropic_env: FakeModelServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    extra: tuple[str, ...],
    said: str,
) -> None:
    model = MODEL if extra else "claude-3-haiku-20240307"
    assert _verify(tmp_path, "--thinking-budget", str(BUDGET), *extra, model=model) == 2
    assert said in capsys.readouterr().err
    assert anthropic_env.requests == []
    assert not (tmp_path / "runs").exists() or not any((tmp_path / "runs").iterdir())


def test_the_openai_provider_gives_the_budget_as_room_in_max_tokens(
    fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Hunt r: a local reasoning model (Qwen3, R1, QwQ) thinks in its reply, which vLLM,
    # llama.cpp and Ollama count against max_tokens; with --thinking-budget refused for
    # openai, its truncations could not be helped. Any model takes it there: no thinking
    # field is sent (chat completions have none), nor a temperature.
    local = "qwen3:8b"
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    right = fake_server.right_kmp_replies(11, 2)

    def reply(request: RecordedRequest) -> Reply:
        return fake_server.chat_completion(right[request.json["messages"][-1]["content"]])

    fake_server.script([fake_server.models(local), reply, reply])
    argv = ["verify", "kmp", "--provider", "openai", "--model", local, "--seed", "11"]
    argv += ["--cases", "2", "--thinking-budget", str(BUDGET), "--output", str(tmp_path)]
    assert main([*argv, "--no-cache"]) == 0
    sent = [r.json for r in fake_server.requests if r.method == "POST"]
    output = get_spec("kmp").max_output_tokens
    assert [body["max_tokens"] for body in sent] == [output + BUDGET] * 2
    assert all("thinking" not in body and "temperature" not in body for body in sent)
    (run,) = _run_dirs(tmp_path)
    assert read_manifest_file(run / "manifest.json").thinking_budget == BUDGET


def test_a_dry_run_records_the_budget_of_a_model_that_thinks(tmp_path: Path) -> None:
    argv = ["verify", "kmp", "--provider", "reference", "--cases", "2", "--model", MODEL]
    assert main([*argv, "--thinking-budget", str(BUDGET), "--output", str(tmp_path)]) == 0
    (run,) = _run_dirs(tmp_path)
    assert read_manifest_file(run / "manifest.json").thinking_budget == BUDGET


def test_every_family_that_thinks_has_a_price() -> None:
    # The two tables are kept together: a family that thinks but has no price could not be
    # budgeted with --max-cost.
    assert all(price_for(family) is not None for family in THINKING_FAMILIES)


def test_a_resumed_run_keeps_its_budget_and_refuses_another(
    thinking_model: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _verify(tmp_path, "--thinking-budget", str(BUDGET))
    (run,) = _run_dirs(tmp_path)
    journal = run / "results.jsonl"
    kept = journal.read_text("utf-8").splitlines(keepends=True)[:1]
    journal.write_text("".join(kept), encoding="utf-8")  # as if killed after one answer
    resume = ["--resume", run.name]
    assert _verify(tmp_path, *resume, "--thinking-budget", str(BUDGET + 1)) == 2
    assert f"thinking budget {BUDGET}, now {BUDGET + 1}" in capsys.readouterr().err
    assert len(thinking_model.requests) == CASES
    _verify(tmp_path, *resume, "--no-cache")  # no budget given: the run's own
    resumed = thinking_model.requests[CASES:]
    assert len(resumed) == CASES - 1
    assert {r.json["thinking"]["budget_tokens"] for r in resumed} == {BUDGET}
    assert len(read_journal(journal)) == CASES


def test_the_estimate_counts_the_budget_as_output(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _verify(tmp_path, "--thinking-budget", str(BUDGET), "--estimate") == 0
    most = CASES * (BUDGET + get_spec("kmp").max_output_tokens)
    assert f"at most {most:,} output tokens" in capsys.readouterr().out
    assert anthropic_env.requests == []
