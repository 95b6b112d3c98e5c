"""A network that misbehaves, through the real ``anthropic`` SDK against the fake server on
127.0.0.1: HTTP 200 bodies that are no Message, ``retry-after`` headers that say nothing
usable, retries told the same wait, refusals and context overflows, and servers that echo
the key or log it. Each must end as a counted outcome or an infrastructure error of one
case, never a crash (exit 4), and never print a credential.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from tenacity import RetryCallState

from verification.cli import main
from verification.errors import RateLimitError, TransientLLMError
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.claude import ClaudeProvider, parse_retry_after
from verification.llm.retry import RetryPolicy
from verification.store.journal import read_journal

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply, Step

KEY = "sk-ant-hostile-canary-4f7Hq2ZxW9"
FAST = RetryPolicy(max_retries=2, initial_wait=0.01, max_wait=1.0)
REQUEST = LLMRequest(prompt="Solve.", model="claude-test-model", max_tokens=64, case_id="x")
SEED = 11


def _bad_bodies(server: FakeModelServer) -> dict[str, Reply]:
    from tests.support.fake_server import Reply

    good = json.dumps(server.message_body("fine")).encode()
    return {
        "truncated JSON": Reply(200, raw=good[: len(good) // 2]),
        "JSON that is no Message": Reply(200, {"hello": "world"}),
        "a Message with content not a list": Reply(200, {**server.message_body(), "content": 7}),
        "a JSON array": Reply(200, [1, 2, 3]),
        "an HTML error page": Reply(
            200, raw=b"<html><body><h1>502 Bad Gateway</h1></body></html>", content_type="text/html"
        ),
        "an empty body": Reply(200, raw=b""),
    }


def _call(server: FakeModelServer) -> LLMResponse:
    async def go() -> LLMResponse:
        provider = ClaudeProvider(KEY, base_url=server.base_url, retry_policy=FAST)
        try:
            return await provider.generate_with_retry(REQUEST)
        finally:
            await provider.aclose()

    return asyncio.run(go())


@pytest.mark.parametrize(
    "kind",
    [
        "truncated JSON",
        "JSON that is no Message",
        "a Message with content not a list",
        "a JSON array",
        "an HTML error page",
        "an empty body",
    ],
)
def test_a_200_that_is_no_message_is_retried_then_transient(
    fake_server: FakeModelServer, kind: str
) -> None:
    bad = _bad_bodies(fake_server)[kind]
    fake_server.script([bad, fake_server.message("after the bad reply")])
    assert _call(fake_server).content == "after the bad reply"
    fake_server.script([bad] * 3)
    with pytest.raises(TransientLLMError, match="HTTP 200 with a body that is not a Messages"):
        _call(fake_server)


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ({"retry-after": "2"}, 2.0),
        ({"retry-after": "0.5"}, 0.5),
        ({"retry-after-ms": "250"}, 0.25),
        ({"retry-after": "-3"}, 0.0),
        ({"retry-after": "soon"}, None),
        ({"retry-after": "nan"}, None),
        ({"retry-after": "inf"}, None),
        ({"retry-after-ms": "nan", "retry-after": "1"}, 1.0),
        ({"retry-after": "Wed, 32 Foo 2026 99:99:99 GMT"}, None),
        ({"retry-after": "Mon, 01 Jan 1990 00:00:00 GMT"}, 0.0),
        ({"retry-after": ""}, None),
    ],
)
def test_retry_after_says_a_wait_or_nothing(
    headers: dict[str, str], expected: float | None
) -> None:
    assert parse_retry_after(headers) == expected


@pytest.mark.parametrize("value", ["soon", "nan", "1e999", "Tue, 99 Nowhere"])
def test_an_unusable_retry_after_means_the_backoff(
    fake_server: FakeModelServer, value: str
) -> None:
    limited = fake_server.anthropic_error(429, "rate_limit_error", headers={"retry-after": value})
    fake_server.script([limited, fake_server.message("after the backoff")])
    assert _call(fake_server).content == "after the backoff"


def _waits(policy: RetryPolicy, retry_after: float, count: int) -> list[float]:
    waits = []
    for _ in range(count):
        state = RetryCallState(retry_object=None, fn=None, args=(), kwargs={})  # type: ignore[arg-type]
        state.set_exception((RateLimitError, RateLimitError("429", retry_after=retry_after), None))
        waits.append(policy._wait(state))
    return waits


def test_calls_told_the_same_retry_after_do_not_come_back_together() -> None:
    random.seed(3)
    waits = _waits(RetryPolicy(initial_wait=1.0, max_wait=60.0), retry_after=2.0, count=50)
    assert all(2.0 <= wait <= 3.0 for wait in waits)
    assert len({round(wait, 3) for wait in waits}) > 40  # spread, not lockstep
    assert max(_waits(RetryPolicy(max_wait=5.0), retry_after=30.0, count=5)) == 5.0


def _answers(server: FakeModelServer, cases: int) -> Callable[[RecordedRequest], Reply]:
    """A step that answers any of the run's ``kmp`` cases right (found by its prompt)."""
    return server.kmp_messages(SEED, cases)


def _verify(
    server: FakeModelServer, monkeypatch: pytest.MonkeyPatch, output: Path, cases: int
) -> int:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", server.base_url)
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "2")
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", "claude-test-model"]
    return main([*argv, "--cases", str(cases), "--seed", str(SEED), "--output", str(output)])


def test_a_run_through_bad_200_replies_finishes_with_every_case(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bad = list(_bad_bodies(fake_server).values())
    answer = _answers(fake_server, 20)
    steps: list[Step] = []
    for index in range(20):  # one bad reply before every fourth answer
        if index % 4 == 0:
            steps.append(bad[index // 4 % len(bad)])
        steps.append(answer)
    fake_server.script(steps)
    # One request at a time: the script is served in arrival order, so with several in
    # flight one case's retries could meet two bad replies running and use up its tries.
    monkeypatch.setenv("VERIFY_CONCURRENCY", "1")
    assert _verify(fake_server, monkeypatch, tmp_path, 20) == 0
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert len(records) == 20 and {r.outcome for r in records} == {"passed"}
    assert len(fake_server.requests) == 25


def test_bad_200_replies_that_never_end_are_infra_errors_not_a_crash(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_server.script([_bad_bodies(fake_server)["an HTML error page"]] * 9)
    assert _verify(fake_server, monkeypatch, tmp_path, 3) == 3  # INCOMPLETE, reports written
    (run,) = (tmp_path / "runs").iterdir()
    assert {r.outcome for r in read_journal(run / "results.jsonl")} == {"infra_error"}
    assert (tmp_path / "reports" / "kmp.md").is_file()
    fake_server.script([_answers(fake_server, 3)] * 3)
    argv = ["verify", "--resume", run.name, "--provider", "anthropic", "--model"]
    assert main([*argv, "claude-test-model", "--output", str(tmp_path)]) == 0


@pytest.mark.parametrize(
    ("stop_reason", "outcome", "reason"),
    [
        ("refusal", "refused", "the model refused to answer"),
        ("model_context_window_exceeded", "truncated", "context window"),
    ],
)
def test_refusals_and_context_overflows_are_not_format_failures(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stop_reason: str,
    outcome: str,
    reason: str,
) -> None:
    fake_server.script([fake_server.message("I can't help with that.", stop_reason=stop_reason)])
    assert _verify(fake_server, monkeypatch, tmp_path, 1) == 1
    (run,) = (tmp_path / "runs").iterdir()
    (record,) = read_journal(run / "results.jsonl")
    assert (record.outcome, record.level) == (outcome, 1 if outcome == "truncated" else None)
    assert reason in record.reason
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())["scaffolds"]["kmp"]
    assert summary["failures_by_level"]["1"] == (1 if outcome == "truncated" else 0)
    assert summary["refused"] == (1 if outcome == "refused" else 0)
    report = (tmp_path / "reports" / "kmp.md").read_text()
    assert (
        f"| Refused by the model (counted as failures, at no level) | {summary['refused']} |"
        in report
    )


@pytest.mark.parametrize("provider", ["anthropic", "openai"])
def test_a_redirect_to_another_host_is_not_followed_with_the_case(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    provider: str,
) -> None:
    # Hunt qq: the SDKs followed a 307 to any host, re-sending the case (a private seed's
    # too) to a host nobody named; the batch results URL was already held to the base URL.
    from tests.support.fake_server import FakeModelServer, Reply

    with FakeModelServer() as elsewhere:
        path = "/v1/messages" if provider == "anthropic" else "/v1/chat/completions"
        target = f"{elsewhere.base_url}{path}"
        away = Reply(307, headers={"location": target})
        elsewhere.script([fake_server.message("taken")] * 4)
        monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
        monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
        monkeypatch.setenv("VERIFY_OPENAI_API_KEY", KEY)
        monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
        models = [fake_server.models("m")] if provider == "openai" else []
        fake_server.script([*models, away, away])
        argv = ["verify", "kmp", "--provider", provider, "--model", "m", "--cases", "1"]
        code = main([*argv, "--output", str(tmp_path), "--no-cache"])
        assert elsewhere.requests == []
    err = capsys.readouterr().err
    assert code == 2, err
    assert f"redirected the request to {target}" in err
    assert "not followed" in err and KEY not in err


def test_a_model_list_that_redirects_is_said_to_redirect(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Hunt zz: with no --model, a model list answered by a redirect read "does not list its
    # models (HTTP 301): name one with --model", and only the first request said why.
    from tests.support.fake_server import Reply

    target = "https://elsewhere.invalid/v1/models"
    fake_server.script([Reply(301, headers={"location": target})])
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    argv = ["verify", "kmp", "--provider", "openai", "--cases", "1", "--output", str(tmp_path)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"redirected the request to {target}" in err and "does not list" not in err


def test_a_paused_turn_is_no_answer_even_with_the_right_text(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # pause_turn: the Messages API paused the turn for the caller to continue (hunt qq).
    fake_server.script([fake_server.kmp_messages(SEED, 2, stop_reason="pause_turn")] * 2)
    assert _verify(fake_server, monkeypatch, tmp_path, 2) == 3  # INCOMPLETE
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert {(r.outcome, r.stop_reason) for r in records} == {("infra_error", "pause_turn")}
    assert all("paused the turn" in r.reason for r in records)


@pytest.mark.parametrize(
    ("stop_reason", "said"),
    [("zzz\x1b[31mred", "'zzz\\x1b[31mred'"), (None, "no stop reason")],
)
def test_an_unknown_stop_reason_is_judged_and_said_on_the_terminal(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    stop_reason: str | None,
    said: str,
) -> None:
    fake_server.script([fake_server.kmp_messages(SEED, 2, stop_reason=stop_reason)] * 2)
    assert _verify(fake_server, monkeypatch, tmp_path, 2) == 0  # right answers, judged
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert {(r.outcome, r.stop_reason) for r in records} == {("passed", stop_reason)}
    out = capsys.readouterr().out
    assert f"kmp: 2 reply(ies) ended with a stop reason the harness does not read: {said} " in out
    assert "\x1b" not in out


def test_a_server_that_echoes_the_key_or_logs_it_prints_no_credential(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    password = "url-pass-canary-81x"
    monkeypatch.setenv("ANTHROPIC_LOG", "debug")  # the SDK raises its own loggers to debug
    echo = fake_server.anthropic_error(400, "invalid_request_error", f"bad request for key {KEY}")
    fake_server.script([echo])
    caplog.set_level(logging.DEBUG)
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    url = fake_server.base_url.replace("http://", f"http://bob:{password}@")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", url)
    argv = ["-v", "verify", "kmp", "--provider", "anthropic", "--model", "claude-test-model"]
    code = main([*argv, "--cases", "1", "--output", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 2
    assert "bad request for key <redacted>" in err
    for secret in (KEY, password):
        assert secret not in out + err
        assert secret not in caplog.text
        for path in tmp_path.rglob("*"):
            if path.is_file():
                assert secret.encode() not in path.read_bytes(), path


# --- time: a reply dripped slowly, and a case that never gets an answer ---------------------


def _dripped(server: FakeModelServer) -> Reply:
    from tests.support.fake_server import Reply

    # Each byte comes well within any read timeout, the whole body in about 20 s.
    return Reply(200, server.message_body("fine " * 20), drip=0.03)


def test_a_dripped_reply_is_cut_off_by_the_attempt_deadline_then_retried(
    fake_server: FakeModelServer,
) -> None:
    fake_server.script([_dripped(fake_server), fake_server.message("on time")])
    deadline = RetryPolicy(max_retries=1, initial_wait=0.01, attempt_deadline=0.5)

    async def go() -> LLMResponse:
        provider = ClaudeProvider(KEY, base_url=fake_server.base_url, retry_policy=deadline)
        try:
            return await provider.generate_with_retry(REQUEST)
        finally:
            await provider.aclose()

    assert asyncio.run(go()).content == "on time"
    assert len(fake_server.requests) == 2


@pytest.mark.slow
def test_a_case_past_its_budget_is_an_infra_error_and_the_run_goes_on(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Case 1 of 2 meets only dripped replies: each attempt is cut at 0.4 s, and the budget
    # of 1 s ends the case before its fifth try; the other case is answered.
    answer = _answers(fake_server, 2)
    dripped = _dripped(fake_server)
    first = {}

    def step(sent: RecordedRequest) -> Reply:
        prompt = sent.json["messages"][0]["content"]
        first.setdefault("prompt", prompt)
        return dripped if prompt == first["prompt"] else answer(sent)

    fake_server.script([step] * 8)
    monkeypatch.setenv("VERIFY_REQUEST_TIMEOUT", "0.4")
    monkeypatch.setenv("VERIFY_CASE_BUDGET", "1")
    monkeypatch.setenv("VERIFY_CONCURRENCY", "1")
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "6")
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", "claude-test-model"]
    code = main([*argv, "--cases", "2", "--seed", str(SEED), "--output", str(tmp_path)])
    assert code == 3  # INCOMPLETE: one of two answers counted
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert sorted(r.outcome for r in records) == ["infra_error", "passed"]
    (lost,) = [r for r in records if r.outcome == "infra_error"]
    assert "budget of 1 s" in (lost.reason or "")
    assert len(fake_server.requests) <= 1 + 3  # the answered case, and at most three tries
