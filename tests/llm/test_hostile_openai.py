"""An OpenAI-compatible server that misbehaves, through the real ``openai`` SDK against the
fake server on 127.0.0.1: HTTP 200 bodies that are no chat completion, replies with no text,
model lists that are HTML, broken or huge, ids with terminal escapes, a 401 on ``/models`` and
a key no HTTP header can carry. Each ends as the Anthropic path's do (one classification of
replies, :mod:`verification.llm.replies`): a body that is no reply is retried and then an
infrastructure error of its case, a reply with no text a level-1 failure, a bad model list or
key a clear error (exit 2); never exit 4.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.errors import TransientLLMError
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.claude import ClaudeProvider
from verification.llm.openai_compat import MODELS_SHOWN, OpenAICompatibleProvider, _model_id
from verification.llm.replies import NotAReply
from verification.llm.retry import RetryPolicy
from verification.store.journal import read_journal

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

MODEL = "local-test-model"
SEED = 17
FAST = RetryPolicy(max_retries=1, initial_wait=0.01, max_wait=0.1)
REQUEST = LLMRequest(prompt="Solve.", model=MODEL, max_tokens=64, case_id="x")


def _not_replies(server: FakeModelServer) -> dict[str, Reply]:
    good = json.dumps(server.chat_completion("fine").body).encode()
    reply = server.Reply
    return {
        "truncated JSON": reply(200, raw=good[: len(good) // 2]),
        "an HTML page": reply(
            200, raw=b"<html><body>502 Bad Gateway</body></html>", content_type="text/html"
        ),
        "null": reply(200, raw=b"null"),
        "an empty array": reply(200, raw=b"[]"),
        "a string": reply(200, raw=b'"hello"'),
        "an empty body": reply(200, raw=b""),
        "no choices": server.chat_completion_with(choices=[]),
        "choices a string": server.chat_completion_with(choices="many"),
        "a choice without a message": server.chat_completion_with(
            choices=[{"index": 0, "finish_reason": "stop"}]
        ),
        "content a number": server.chat_completion_with(message_content=42),
        "content a list of numbers": server.chat_completion_with(message_content=[1, 2]),
        "a number as model": server.chat_completion_with(model=7),
        "a number as finish reason": server.chat_completion_with(choice_finish_reason=3),
        "usage a string": server.chat_completion_with(usage="lots"),
        "deep JSON": reply(200, raw=b"[" * 100_000 + b"]" * 100_000),
    }


KINDS = [
    "truncated JSON",
    "an HTML page",
    "null",
    "an empty array",
    "a string",
    "an empty body",
    "no choices",
    "choices a string",
    "a choice without a message",
    "content a number",
    "content a list of numbers",
    "a number as model",
    "a number as finish reason",
    "usage a string",
    "deep JSON",
]


def _call(server: FakeModelServer, request: LLMRequest = REQUEST) -> LLMResponse:
    async def go() -> LLMResponse:
        provider = OpenAICompatibleProvider(
            base_url=server.openai_base_url, model=MODEL, retry_policy=FAST
        )
        try:
            return await provider.generate_with_retry(request)
        finally:
            await provider.aclose()

    return asyncio.run(go())


def test_the_attack_list_is_the_table() -> None:
    from tests.support.fake_server import FakeModelServer

    assert sorted(KINDS) == sorted(_not_replies(FakeModelServer()))


@pytest.mark.parametrize("kind", KINDS)
def test_a_200_that_is_no_completion_is_retried_then_transient(
    fake_server: FakeModelServer, kind: str
) -> None:
    bad = _not_replies(fake_server)[kind]
    fake_server.script([bad, fake_server.chat_completion("after the bad reply")])
    assert _call(fake_server).content == "after the bad reply"
    fake_server.script([bad, bad])
    with pytest.raises(TransientLLMError, match="not a chat completions reply") as caught:
        _call(fake_server)
    assert "127.0.0.1" in str(caught.value)


def test_content_as_text_parts_is_read_and_a_refusal_is_a_refusal(
    fake_server: FakeModelServer,
) -> None:
    parts = [{"type": "text", "text": "first "}, {"type": "text", "text": "second"}]
    fake_server.script(
        [
            fake_server.chat_completion_with(message_content=parts),
            fake_server.chat_completion_with(message_content=None, message_refusal="I will not."),
        ]
    )
    assert _call(fake_server).content == "first second"
    refused = _call(fake_server)
    assert (refused.content, refused.stop_reason) == ("", "refusal")


def _verify(output: Path, cases: int, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "openai", "--model", MODEL, "--seed", str(SEED)]
    return main([*argv, "--cases", str(cases), "--output", str(output), *extra])


@pytest.fixture
def openai_env(fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    return fake_server


def test_a_run_through_every_kind_of_bad_200_finishes_with_every_case(
    openai_env: FakeModelServer, tmp_path: Path
) -> None:
    replies = openai_env.right_kmp_replies(SEED, len(KINDS))
    bad = _not_replies(openai_env)
    first_reply = dict(zip(replies, (bad[kind] for kind in KINDS), strict=True))

    def answer(sent: RecordedRequest) -> Reply:
        """Each case's first try meets its kind of bad reply, its retry the right answer
        (by prompt: the order the cases arrive in is the scheduler's)."""
        prompt = sent.json["messages"][-1]["content"]
        if prompt in first_reply:
            return first_reply.pop(prompt)
        return openai_env.chat_completion(replies[prompt])

    openai_env.script([openai_env.models(MODEL), *[answer] * (2 * len(KINDS))])
    assert _verify(tmp_path, len(KINDS)) == 0
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert len(records) == len(KINDS) and {r.outcome for r in records} == {"passed"}


def test_bad_200s_that_never_end_are_infra_errors_not_a_crash(
    openai_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_CONCURRENCY", "1")
    openai_env.script([openai_env.models(MODEL), *[_not_replies(openai_env)["null"]] * 4])
    assert _verify(tmp_path, 2) == 3  # INCOMPLETE: nothing counted, reports written
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert {r.outcome for r in records} == {"infra_error"}
    assert all("not a chat completions reply (the body is null" in r.reason for r in records)
    assert (tmp_path / "reports" / "kmp.md").is_file()


@pytest.mark.parametrize("provider", ["openai", "anthropic"])
def test_a_valid_reply_without_text_fails_its_case_at_level_1_on_both_providers(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
) -> None:
    if provider == "openai":
        empty = fake_server.chat_completion_with(message_content=None)
        monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
        fake_server.script([fake_server.models(MODEL), empty, empty])
    else:
        empty = fake_server.Reply(200, {**fake_server.message_body(), "content": []})
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-empty-reply-canary")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
        fake_server.script([empty, empty])
    argv = ["verify", "kmp", "--provider", provider, "--model", MODEL, "--cases", "2"]
    assert main([*argv, "--output", str(tmp_path)]) == 1  # FAILED, not INCOMPLETE, not 4
    (run,) = (tmp_path / "runs").iterdir()
    records = read_journal(run / "results.jsonl")
    assert [(r.outcome, r.level, r.reason) for r in records] == [
        ("failed", 1, "the reply is empty")
    ] * 2


def test_both_providers_classify_a_body_alike(fake_server: FakeModelServer) -> None:
    fake_server.script([fake_server.Reply(200, raw=b"null")] * 3)

    async def anthropic() -> None:
        provider = ClaudeProvider("sk-ant-x-canary", base_url=fake_server.base_url)
        try:
            await provider.generate(REQUEST)
        finally:
            await provider.aclose()

    with pytest.raises(TransientLLMError, match=r"not a Messages API reply \(the body is null"):
        asyncio.run(anthropic())
    with pytest.raises(TransientLLMError, match=r"not a chat completions reply \(the body is null"):
        _call(fake_server)


# --- the model list -------------------------------------------------------------------------


def _models_reply(server: FakeModelServer, kind: str) -> Reply:
    reply = server.Reply
    return {
        "an HTML page": reply(200, raw=b"<html>models</html>", content_type="text/html"),
        "broken JSON": reply(200, raw=b'{"object": "list", "data": [{"id": '),
        "data a string": reply(200, {"object": "list", "data": "qwen"}),
        "numeric ids": reply(200, {"object": "list", "data": [{"id": 7}, {"id": 8}]}),
        "null": reply(200, raw=b"null"),
    }[kind]


@pytest.mark.parametrize("model", [None, MODEL], ids=["no model named", "a model named"])
@pytest.mark.parametrize(
    "kind", ["an HTML page", "broken JSON", "data a string", "numeric ids", "null"]
)
def test_a_model_list_that_is_nonsense_is_a_clear_error(
    openai_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    kind: str,
    model: str | None,
) -> None:
    openai_env.script([_models_reply(openai_env, kind)])
    argv = ["verify", "kmp", "--provider", "openai", "--output", str(tmp_path)]
    assert main([*argv, *(["--model", model] if model else [])]) == 2
    err = capsys.readouterr().err
    assert "answered its model list with nonsense" in err and "VERIFY_OPENAI_BASE_URL" in err
    assert not (tmp_path / "runs").exists()


@pytest.mark.parametrize("status", [401, 403])
def test_a_refused_key_on_the_model_list_says_so(
    openai_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    status: int,
) -> None:
    key = "sk-local-refused-canary-77"
    monkeypatch.setenv("VERIFY_OPENAI_API_KEY", key)
    openai_env.script([openai_env.openai_error(status, "invalid_api_key", f"bad key {key}")])
    assert main(["verify", "kmp", "--provider", "openai", "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert f"HTTP {status}" in err and "VERIFY_OPENAI_API_KEY" in err
    assert "does not list its models" not in err and key not in err


def test_model_ids_with_terminal_escapes_are_printed_escaped(
    openai_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hostile = ["evil\x1b]0;pwned\x07", "clear\x1b[2J\x1b[H", "rtl\u202etxt.exe", "nl\nINFO: ok"]
    openai_env.script([openai_env.models(*hostile)])
    assert main(["verify", "kmp", "--provider", "openai", "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "\x1b" not in err and "\u202e" not in err and "\x07" not in err
    assert "evil\\x1b]0;pwned\\x07" in err and "rtl\\u202etxt.exe" in err
    assert err.count("\n") == 1, "one line: a newline in an id cannot forge a log line"


@pytest.mark.slow  # it imports the openai SDK, about a second of CPU the fast lane never pays
@pytest.mark.parametrize(
    "entry",
    [{"id": "m"}, {"id": 7}, {"id": None}, {"id": ""}, {"id": ["m"]}, {"name": "m"}, "m", None],
)
def test_a_model_list_entry_is_read_as_the_sdk_s_model_reads_it(entry: Any) -> None:
    """The preflight leaves the list's entries as JSON objects (no SDK ``Model`` each): the
    id it reads, or its refusal, is the one the SDK's model of the entry gives."""
    from openai._models import construct_type
    from openai.types import Model

    modelled = getattr(construct_type(value=entry, type_=Model), "id", None)
    if isinstance(modelled, str) and modelled:
        assert _model_id(entry) == modelled
    else:
        with pytest.raises(NotAReply, match=f"whose id is {type(modelled).__name__},"):
            _model_id(entry)


@pytest.mark.slow
def test_a_server_with_fifty_thousand_models_gets_a_short_message(
    openai_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    served = [f"model-{index:05d}" for index in range(50_000)]
    openai_env.script([openai_env.models(*served)] * 2)
    assert main(["verify", "kmp", "--provider", "openai", "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err) < 2_000 and f"and {50_000 - MODELS_SHOWN} more" in err
    assert "model-00000" in err and "model-49999" not in err
    argv = ["verify", "kmp", "--provider", "openai", "--model", "gpt-4"]
    assert main([*argv, "--output", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert len(err) < 2_000 and "does not serve model 'gpt-4'" in err


# --- the key ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("provider", "variable"),
    [("openai", "VERIFY_OPENAI_API_KEY"), ("anthropic", "ANTHROPIC_API_KEY")],
)
@pytest.mark.parametrize("key", ["sk-clé-canary-1234", "sk-\u201ccanary\u201d-1234", "sk-a\x00b"])
def test_a_key_no_header_can_carry_is_refused_before_any_request(
    fake_server: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    provider: str,
    variable: str,
    key: str,
) -> None:
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_server.base_url)
    for name in ("VERIFY_OPENAI_API_KEY", "ANTHROPIC_API_KEY", "VERIFY_ANTHROPIC_API_KEY"):
        monkeypatch.delenv(name, raising=False)
    if "\x00" in key:  # an environment cannot hold NUL: a .env file can
        monkeypatch.chdir(tmp_path)
        (tmp_path / ".env").write_text(f"{variable}={key}\n", encoding="utf-8")
    else:
        monkeypatch.setenv(variable, key)
    argv = ["verify", "kmp", "--provider", provider, "--model", MODEL]
    assert main([*argv, "--output", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert variable in err and "non-ASCII" in err and key not in err
    assert fake_server.requests == []


@pytest.mark.slow
def test_a_model_list_dripped_byte_by_byte_is_cut_off_at_the_deadline(
    openai_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VERIFY_REQUEST_TIMEOUT", "1")
    listing = openai_env.models(MODEL)
    # Each byte comes well within any read timeout; the whole list would take minutes.
    openai_env.script([openai_env.Reply(200, listing.body, drip=0.3)])
    whole_list = 0.3 * len(json.dumps(listing.body))  # seconds to drip it all
    started = time.monotonic()
    assert main(["verify", "kmp", "--provider", "openai", "--output", str(tmp_path)]) == 2
    # Cut off, not read to the end: a bound from the drip, not from the machine's speed.
    assert time.monotonic() - started < whole_list / 2
    assert "no complete model list within 1 s" in capsys.readouterr().err
