"""``ClaudeProvider`` through the real ``anthropic`` SDK against a scripted fake server.

Nothing in the SDK is patched: the fake server (``tests/support/fake_server.py``) speaks HTTP on
127.0.0.1, so the SDK's request building, response parsing and exceptions are the real ones.
The canary tests run the whole CLI with a distinctive fake key and check it leaks nowhere.
"""

from __future__ import annotations

import asyncio
import logging
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.errors import (
    AuthenticationError,
    InvalidRequestError,
    RateLimitError,
    RetryableLLMError,
    TransientLLMError,
)
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.claude import ClaudeProvider
from verification.llm.prompt_builder import PromptBuilder
from verification.llm.retry import RetryPolicy
from verification.registry import get_spec
from verification.runner import plan_cases

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply, Step

E = TypeVar("E", bound=BaseException)
CANARY = "sk-ant-canary-7Q2xZp9LwV4mKc8RtY3bN6dH1fJ5sA0e"
FAST = RetryPolicy(max_retries=3, initial_wait=0.01, max_wait=2.0)
REQUEST = LLMRequest(
    system="SCAFFOLD: follow these steps.",
    prompt="Solve this instance.",
    model="claude-test-model",
    max_tokens=321,
    case_id="dijkstra-simple-007",
)


def _call(
    server: FakeModelServer,
    request: LLMRequest = REQUEST,
    *,
    policy: RetryPolicy = FAST,
    **options: Any,
) -> LLMResponse:
    """One ``generate_with_retry`` on a fresh provider, closed afterwards."""

    async def go() -> LLMResponse:
        provider = ClaudeProvider(CANARY, base_url=server.base_url, retry_policy=policy, **options)
        try:
            return await provider.generate_with_retry(request)
        finally:
            await provider.aclose()

    return asyncio.run(go())


def _key_sent(sent: RecordedRequest) -> str | None:
    """The API key a request carried: ``x-api-key`` (SDK 0.x/1.x) or, as the 2.x SDK sends
    it, ``authorization: Bearer``."""
    if "x-api-key" in sent.headers:
        return sent.headers["x-api-key"]
    scheme, _, token = sent.headers.get("authorization", "").partition(" ")
    return token if scheme.lower() == "bearer" else None


def _raises(kind: type[E], call: Callable[[], object]) -> E:
    """The error of type ``kind`` that ``call()`` raises."""
    with pytest.raises(kind) as caught:
        call()
    return caught.value


def _assert_no_canary_in_error(error: BaseException) -> None:
    """Neither the error nor anything in its chain shows the key."""
    shown = "".join(traceback.format_exception(error)) + repr(error)
    assert CANARY not in shown


# -- success -------------------------------------------------------------------------------


def test_success_records_text_model_usage_and_stop_reason(fake_server: FakeModelServer) -> None:
    fake_server.script(
        [
            fake_server.message(
                "the answer",
                model="claude-test-model-20990101",
                input_tokens=120,
                output_tokens=34,
                cache_read_input_tokens=100,
            )
        ]
    )
    response = _call(fake_server)
    assert response.content == "the answer"
    assert response.model == "claude-test-model-20990101"
    assert response.stop_reason == "end_turn"
    assert response.usage["input_tokens"] == 120
    assert response.usage["output_tokens"] == 34
    assert response.usage["cache_read_input_tokens"] == 100
    assert response.usage["cache_creation_input_tokens"] == 0
    assert all(isinstance(value, int) for value in response.usage.values())


def test_success_request_shape(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.message()])
    _call(fake_server)
    (sent,) = fake_server.requests
    assert (sent.method, sent.path) == ("POST", "/v1/messages")
    assert _key_sent(sent) == CANARY
    assert "anthropic-version" in sent.headers
    body = sent.json
    assert body["model"] == "claude-test-model"
    assert body["max_tokens"] == 321
    assert body["messages"] == [{"role": "user", "content": "Solve this instance."}]
    assert body["system"] == [
        {
            "type": "text",
            "text": "SCAFFOLD: follow these steps.",
            "cache_control": {"type": "ephemeral"},
        }
    ]
    assert "temperature" not in body
    assert not body.get("stream")


def test_case_id_is_never_sent(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.message()])
    _call(fake_server)
    (sent,) = fake_server.requests
    assert REQUEST.case_id is not None
    for text in (REQUEST.case_id, "case_id"):
        assert text.encode() not in sent.raw
        assert all(text not in f"{name}: {value}" for name, value in sent.headers.items())


@pytest.mark.parametrize("temperature", [0.0, 0.7])
def test_temperature_is_sent_when_set(fake_server: FakeModelServer, temperature: float) -> None:
    fake_server.script([fake_server.message()])
    _call(fake_server, REQUEST.model_copy(update={"temperature": temperature}))
    assert fake_server.requests[0].json["temperature"] == temperature


def test_no_system_block_without_system_prompt(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.message()])
    _call(fake_server, REQUEST.model_copy(update={"system": None}))
    assert "system" not in fake_server.requests[0].json


def test_prompt_caching_off_sends_a_plain_system_block(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.message()])
    _call(fake_server, prompt_caching=False)
    assert fake_server.requests[0].json["system"] == [
        {"type": "text", "text": "SCAFFOLD: follow these steps."}
    ]


def test_text_blocks_are_joined(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.message(["first half, ", "second half"])])
    assert _call(fake_server).content == "first half, second half"


def test_max_tokens_stop_reason_is_passed_through(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.message("cut off mid-", stop_reason="max_tokens")])
    response = _call(fake_server)
    assert response.stop_reason == "max_tokens"
    assert response.content == "cut off mid-"


# -- retried failures ----------------------------------------------------------------------


@pytest.mark.slow
def test_429_honours_retry_after(fake_server: FakeModelServer) -> None:
    fake_server.script(
        [
            fake_server.anthropic_error(
                429, "rate_limit_error", "Slow down", headers={"retry-after": "1"}
            ),
            fake_server.message("after the wait"),
        ]
    )
    started = time.monotonic()
    response = _call(fake_server)
    waited = time.monotonic() - started
    assert response.content == "after the wait"
    assert len(fake_server.requests) == 2
    assert 0.9 <= waited < 5.0


@pytest.mark.parametrize(
    "failure",
    [
        pytest.param(("error", 529, "overloaded_error", "Overloaded"), id="529-overloaded"),
        pytest.param(("error", 500, "api_error", "Internal server error"), id="500"),
        pytest.param(("error", 503, "api_error", "Unavailable"), id="503"),
        pytest.param(("drop",), id="dropped-connection"),
    ],
)
def test_transient_failure_then_success_is_retried(
    fake_server: FakeModelServer, failure: tuple[Any, ...]
) -> None:
    first: Step = (
        fake_server.DROP if failure[0] == "drop" else fake_server.anthropic_error(*failure[1:])
    )
    fake_server.script([first, fake_server.message("second time lucky")])
    response = _call(fake_server)
    assert response.content == "second time lucky"
    assert len(fake_server.requests) == 2
    assert fake_server.requests[0].json == fake_server.requests[1].json


def test_retries_exhausted_raise_the_last_retryable_error(fake_server: FakeModelServer) -> None:
    fake_server.script(
        [
            fake_server.anthropic_error(500, "api_error"),
            fake_server.anthropic_error(429, "rate_limit_error", headers={"retry-after": "0"}),
            fake_server.anthropic_error(529, "overloaded_error", "Overloaded"),
        ]
    )
    error = _raises(RetryableLLMError, lambda: _call(fake_server, policy=FAST.with_max_retries(2)))
    assert isinstance(error, TransientLLMError)
    assert error.status_code == 529
    assert "overloaded_error" in str(error)
    assert len(fake_server.requests) == 3
    _assert_no_canary_in_error(error)


def test_dropped_connections_exhausted_raise_transient_error(
    fake_server: FakeModelServer,
) -> None:
    fake_server.script([fake_server.DROP, fake_server.DROP])
    error = _raises(TransientLLMError, lambda: _call(fake_server, policy=FAST.with_max_retries(1)))
    assert error.status_code is None
    assert len(fake_server.requests) == 2
    _assert_no_canary_in_error(error)


def test_rate_limit_error_carries_retry_after(fake_server: FakeModelServer) -> None:
    fake_server.script(
        [fake_server.anthropic_error(429, "rate_limit_error", headers={"retry-after": "0"})]
    )
    error = _raises(RateLimitError, lambda: _call(fake_server, policy=FAST.with_max_retries(0)))
    assert error.retry_after == 0.0
    assert error.status_code == 429


# -- final failures ------------------------------------------------------------------------


@pytest.mark.parametrize("status", [401, 403])
def test_authentication_failure_stops_at_once(fake_server: FakeModelServer, status: int) -> None:
    kind = "authentication_error" if status == 401 else "permission_error"
    fake_server.script([fake_server.anthropic_error(status, kind, "invalid x-api-key")])
    error = _raises(AuthenticationError, lambda: _call(fake_server))
    assert len(fake_server.requests) == 1, "an authentication failure is never retried"
    assert error.status_code == status
    assert "ANTHROPIC_API_KEY" in str(error)
    _assert_no_canary_in_error(error)


@pytest.mark.parametrize("status", [400, 404, 413, 422])
def test_invalid_request_stops_at_once(fake_server: FakeModelServer, status: int) -> None:
    fake_server.script(
        [fake_server.anthropic_error(status, "invalid_request_error", "max_tokens: too large")]
    )
    error = _raises(InvalidRequestError, lambda: _call(fake_server))
    assert len(fake_server.requests) == 1
    assert error.status_code == status
    assert "max_tokens: too large" in str(error)
    _assert_no_canary_in_error(error)


# -- the key never leaks: the whole CLI, in-process ----------------------------------------


SEED = 7


def _dijkstra_answers(server: FakeModelServer) -> Callable[[RecordedRequest], Reply]:
    """A scripted step answering any of the run's 3 dijkstra cases correctly (found by its
    user prompt), the way a model following the scaffold's Output Format would."""
    builder = PromptBuilder(packaged_scaffolds_dir())
    spec = get_spec("dijkstra")
    answers = {
        builder.build("dijkstra", case.input).user: spec.render_answer(case.expected)
        for case in plan_cases(["dijkstra"], seed=SEED, cases=3)["dijkstra"]
    }

    def answer(sent: RecordedRequest) -> Reply:
        user = sent.json["messages"][0]["content"]
        return server.message("Following the scaffold step by step.\n\n" + answers[user])

    return answer


def _scenario(server: FakeModelServer, name: str) -> list[Step]:
    answer = _dijkstra_answers(server)
    unauthorized = server.anthropic_error(401, "authentication_error", "invalid x-api-key")
    scenarios: dict[str, list[Step]] = {
        "retried-then-answered": [
            server.anthropic_error(500, "api_error"),
            server.DROP,
            server.anthropic_error(429, "rate_limit_error", headers={"retry-after": "0"}),
            answer,
            server.anthropic_error(529, "overloaded_error", "Overloaded"),
            answer,
            answer,
        ],
        "401-at-the-end": [answer, answer, unauthorized],
        "401-first": [unauthorized],
        "500-storm": [server.anthropic_error(500, "api_error")] * 6,
    }
    return scenarios[name]


@pytest.mark.parametrize(
    ("scenario", "expected_exit"),
    [
        ("retried-then-answered", 0),
        ("401-at-the-end", 2),
        ("401-first", 2),
        ("500-storm", 3),
    ],
)
def test_cli_run_never_leaks_the_api_key(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    scenario: str,
    expected_exit: int,
) -> None:
    caplog.set_level(logging.DEBUG)  # the SDK's and httpx's debug logs included
    monkeypatch.setenv("ANTHROPIC_API_KEY", CANARY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "4" if scenario != "500-storm" else "1")
    fake_server.script(_scenario(fake_server, scenario))
    output = tmp_path / "results"

    code = main(
        [
            "verify",
            "dijkstra",
            "--provider",
            "anthropic",
            "--model",
            "claude-test-model",
            "--cases",
            "3",
            "--seed",
            str(SEED),
            "--output",
            str(output),
            *(["--concurrency", "1"] if scenario != "500-storm" else []),
        ]
    )

    captured = capsys.readouterr()
    assert code == expected_exit, captured.err
    # The key was used: the server saw it on every request ...
    assert fake_server.requests
    assert {_key_sent(sent) for sent in fake_server.requests} == {CANARY}
    # ... and it is nowhere else.
    assert CANARY not in captured.out
    assert CANARY not in captured.err
    assert CANARY not in caplog.text
    for record in caplog.records:
        assert CANARY not in record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            _assert_no_canary_in_error(record.exc_info[1])
    written = [path for path in output.rglob("*") if path.is_file()]
    assert written, "the run wrote nothing"
    for path in written:
        assert CANARY.encode() not in path.read_bytes(), f"the key leaked into {path}"
    if expected_exit == 2:
        assert "ANTHROPIC_API_KEY" in captured.err
        assert "--resume" in captured.err
