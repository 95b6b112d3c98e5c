"""``OpenAICompatibleProvider`` through the real ``openai`` SDK against a scripted fake server
(``tests/support/fake_server.py``), as a local vLLM, Ollama or llama.cpp server would answer."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.errors import (
    AuthenticationError,
    ConfigurationError,
    InvalidRequestError,
    TransientLLMError,
)
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.openai_compat import OpenAICompatibleProvider
from verification.llm.retry import RetryPolicy

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

FAST = RetryPolicy(max_retries=2, initial_wait=0.01, max_wait=1.0)
REQUEST = LLMRequest(
    system="SCAFFOLD: follow these steps.",
    prompt="Solve this instance.",
    model="local-test-model",
    max_tokens=256,
    case_id="knapsack_01-edge-003",
)


def _provider(base_url: str, **options: Any) -> OpenAICompatibleProvider:
    return OpenAICompatibleProvider(base_url=base_url, retry_policy=FAST, **options)


def _call(server: FakeModelServer, request: LLMRequest = REQUEST, **options: Any) -> LLMResponse:
    async def go() -> LLMResponse:
        provider = _provider(server.openai_base_url, **options)
        try:
            return await provider.generate_with_retry(request)
        finally:
            await provider.aclose()

    return asyncio.run(go())


def _preflight(base_url: str, model: str | None = "local-test-model") -> str:
    """Run the preflight; the model the provider then asks."""

    async def go() -> str:
        provider = _provider(base_url, model=model)
        try:
            await provider.preflight()
            return provider.model_for("claude-haiku-4-5")
        finally:
            await provider.aclose()

    return asyncio.run(go())


def _unused_port() -> int:
    """A port nothing listens on: bound by us, then released."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_success_maps_length_to_max_tokens(fake_server: FakeModelServer) -> None:
    fake_server.script(
        [
            fake_server.chat_completion(
                "cut off mid-",
                model="served-model",
                finish_reason="length",
                prompt_tokens=40,
                completion_tokens=256,
            )
        ]
    )
    response = _call(fake_server)
    assert response.content == "cut off mid-"
    assert response.stop_reason == "max_tokens"
    assert response.model == "served-model"
    assert response.usage["prompt_tokens"] == 40
    assert response.usage["completion_tokens"] == 256
    assert response.usage["total_tokens"] == 296


def test_success_request_shape(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.chat_completion("fine", finish_reason="stop")])
    assert _call(fake_server).stop_reason == "end_turn"
    (sent,) = fake_server.requests
    assert (sent.method, sent.path) == ("POST", "/v1/chat/completions")
    body = sent.json
    assert body["model"] == "local-test-model"
    assert body["max_tokens"] == 256
    assert body["messages"] == [
        {"role": "system", "content": "SCAFFOLD: follow these steps."},
        {"role": "user", "content": "Solve this instance."},
    ]
    assert "temperature" not in body
    assert b"knapsack_01-edge-003" not in sent.raw
    assert sent.headers["authorization"] == "Bearer not-needed"


def test_temperature_and_key_are_sent_when_set(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.chat_completion()])
    _call(fake_server, REQUEST.model_copy(update={"temperature": 0.0}), api_key="local-key")
    (sent,) = fake_server.requests
    assert sent.json["temperature"] == 0.0
    assert sent.headers["authorization"] == "Bearer local-key"


def test_server_error_then_success_is_retried(fake_server: FakeModelServer) -> None:
    fake_server.script(
        [
            fake_server.openai_error(500, "server_error", "boom"),
            fake_server.chat_completion("recovered"),
        ]
    )
    assert _call(fake_server).content == "recovered"
    assert len(fake_server.requests) == 2


def test_dropped_connection_then_success_is_retried(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.DROP, fake_server.chat_completion("recovered")])
    assert _call(fake_server).content == "recovered"
    assert len(fake_server.requests) == 2


def test_server_errors_exhausted_raise_transient_error(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.openai_error(503, "server_error")] * 3)
    with pytest.raises(TransientLLMError) as caught:
        _call(fake_server)
    assert caught.value.status_code == 503
    assert len(fake_server.requests) == 3


def test_401_is_an_authentication_error_at_once(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.openai_error(401, "invalid_api_key", "bad key")])
    with pytest.raises(AuthenticationError) as caught:
        _call(fake_server, api_key="local-key")
    assert caught.value.status_code == 401
    assert "VERIFY_OPENAI_API_KEY" in str(caught.value)
    assert "local-key" not in str(caught.value)
    assert len(fake_server.requests) == 1


def test_400_is_an_invalid_request_at_once(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.openai_error(400, "invalid_request_error", "bad model")])
    with pytest.raises(InvalidRequestError):
        _call(fake_server)
    assert len(fake_server.requests) == 1


def test_preflight_lists_models(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.models("local-test-model")])
    assert _preflight(fake_server.openai_base_url) == "local-test-model"
    (sent,) = fake_server.requests
    assert (sent.method, sent.path) == ("GET", "/v1/models")


def test_without_a_model_the_servers_only_model_is_used(
    fake_server: FakeModelServer, caplog: pytest.LogCaptureFixture
) -> None:
    fake_server.script([fake_server.models("qwen-7b")])
    with caplog.at_level(logging.WARNING):
        assert _preflight(fake_server.openai_base_url, model=None) == "qwen-7b"
    assert "using qwen-7b, the only model" in caplog.text


def test_without_a_model_a_served_name_no_model_option_could_name_is_refused(
    fake_server: FakeModelServer,
) -> None:
    # Hunt pp: a name with terminal escapes reached the terminal raw in the resume hint, and
    # the run it began could never be resumed (--model refuses the name).
    fake_server.script([fake_server.models("a\x1b]0;PWNED\x07\x1b[2J\u202eb")])
    with pytest.raises(ConfigurationError) as caught:
        _preflight(fake_server.openai_base_url, model=None)
    said = str(caught.value)
    assert "serves one model, a\\x1b]0;PWNED\\x07\\x1b[2J\\u202eb, whose name holds" in said
    assert said.isprintable()


def test_without_a_model_several_served_models_are_named(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.models("qwen-7b", "llama-3")])
    with pytest.raises(ConfigurationError, match=r"--model .* serves qwen-7b, llama-3"):
        _preflight(fake_server.openai_base_url, model=None)


def test_a_model_the_server_does_not_serve_is_refused_before_any_request(
    fake_server: FakeModelServer,
) -> None:
    fake_server.script([fake_server.models("qwen-7b")])
    with pytest.raises(ConfigurationError, match=r"does not serve model 'gpt-4'; it serves: qwen"):
        _preflight(fake_server.openai_base_url, model="gpt-4")
    assert len(fake_server.requests) == 1


def test_the_servers_own_error_text_is_shown_with_the_key_redacted(
    fake_server: FakeModelServer,
) -> None:
    key = "sk-local-canary-123"
    said = f"model 'x' not found (your key {key} is fine)"
    fake_server.script([fake_server.openai_error(404, "not_found_error", said)])
    with pytest.raises(InvalidRequestError) as caught:
        _call(fake_server, api_key=key)
    message = str(caught.value)
    assert "HTTP 404 (model 'x' not found (your key <redacted> is fine))" in message
    assert key not in message


def test_a_cli_run_without_model_asks_the_servers_model(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from verification.cli import main
    from verification.runner import plan_cases

    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    (case,) = plan_cases(["kmp"], seed=20261122, cases=1, tiers=["simple"])["kmp"]
    answer = "```json\n" + json.dumps(case.expected) + "\n```"
    fake_server.script(
        [fake_server.models("only-model"), fake_server.chat_completion(answer, model="only-model")]
    )
    argv = ["verify", "--case", case.id, "--provider", "openai", "--output", str(tmp_path)]
    assert main(argv) == 0
    assert fake_server.requests[1].json["model"] == "only-model"
    (run,) = (tmp_path / "runs").iterdir()
    assert json.loads((run / "manifest.json").read_text())["model_requested"] == "only-model"


def test_preflight_tolerates_a_server_without_models_endpoint(
    fake_server: FakeModelServer,
) -> None:
    fake_server.script([fake_server.openai_error(404, "not_found", "no /models here")])
    assert _preflight(fake_server.openai_base_url) == "local-test-model"
    assert len(fake_server.requests) == 1
    fake_server.script([fake_server.openai_error(404, "not_found", "no /models here")])
    with pytest.raises(ConfigurationError, match=r"list its models \(HTTP 404\): name one"):
        _preflight(fake_server.openai_base_url, model=None)


@pytest.mark.slow
def test_preflight_without_a_server_names_the_setting() -> None:
    base_url = f"http://127.0.0.1:{_unused_port()}/v1"
    with pytest.raises(ConfigurationError) as caught:
        _preflight(base_url)
    message = str(caught.value)
    assert "VERIFY_OPENAI_BASE_URL" in message
    assert base_url in message


def test_credentials_in_the_server_url_never_reach_files_output_or_errors(
    fake_server: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from verification.cli import main

    secret = "S3CRETPASS-canary"
    url = fake_server.openai_base_url.replace("http://", f"http://alice:{secret}@")
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", url)
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "0")
    fake_server.script(
        [fake_server.models("m")] + [fake_server.openai_error(500, "server_error")] * 3
    )
    caplog.set_level(logging.DEBUG)
    code = main(
        [
            "-v",
            "verify",
            "kmp",
            "--provider",
            "openai",
            "--model",
            "m",
            "--cases",
            "3",
            "--output",
            str(tmp_path),
        ]
    )
    assert code == 3
    out, err = capsys.readouterr()
    assert secret not in out + err + caplog.text
    for path in tmp_path.rglob("*"):
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path


@pytest.mark.parametrize(
    ("listed", "model"),
    [
        (["openai/*", "anthropic/*"], "openai/gpt-4o-mini"),  # LiteLLM's wildcard routes
        (["*"], "anything"),
        (["qwen3:latest", "llama3.2:latest"], "qwen3"),  # Ollama's default tag
    ],
    ids=["wildcard-route", "wildcard", "ollama-latest"],
)
def test_a_model_a_proxy_routes_or_ollama_tags_is_served(
    fake_server: FakeModelServer, listed: list[str], model: str
) -> None:
    # Hunt r: each was refused with exit 2 although the server answers to it.
    fake_server.script([fake_server.models(*listed)])
    assert _preflight(fake_server.openai_base_url, model=model) == model


def test_a_wildcard_route_serves_only_what_it_matches(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.models("openai/*", "qwen3:8b")])
    with pytest.raises(ConfigurationError, match="does not serve model 'mistral/large'"):
        _preflight(fake_server.openai_base_url, model="mistral/large")
    fake_server.script([fake_server.models("openai/*", "qwen3:8b")])
    with pytest.raises(ConfigurationError, match="does not serve model 'qwen3'"):
        _preflight(fake_server.openai_base_url, model="qwen3")  # another tag is another model


def test_a_base_url_without_v1_is_named_with_the_fix(fake_server: FakeModelServer) -> None:
    # Hunt t: Ollama's root (http://localhost:11434) set as the base URL gave a run that
    # stopped on a bare 404, and a resume command the fix could never follow.
    def listing(request: RecordedRequest) -> Reply:
        if request.path == "/v1/models":
            return fake_server.models("qwen3:8b")
        return fake_server.Reply(404, raw=b"404 page not found", content_type="text/plain")

    fake_server.script([listing, listing])
    fix = r"under /v1 there; set VERIFY_OPENAI_BASE_URL=.*/v1$"
    with pytest.raises(ConfigurationError, match=fix):
        _preflight(fake_server.base_url, model="qwen3:8b")
    assert [r.path for r in fake_server.requests] == ["/models", "/v1/models"]


def test_a_server_without_a_model_list_anywhere_still_runs_with_a_model(
    fake_server: FakeModelServer,
) -> None:
    missing = fake_server.Reply(404, raw=b"not found", content_type="text/plain")
    fake_server.script([missing, missing])
    assert _preflight(fake_server.base_url, model="m") == "m"
