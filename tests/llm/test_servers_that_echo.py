"""Servers a helper's hunt wrote to answer nonsense: one that echoes the API key in the
fields of its replies and errors (no file, report or terminal line may show it), one that
counts 10**400 tokens (the cost is no crash), one that asks for a billion seconds' wait
(no queued case waits it), and one whose reply holds content null (an empty reply, as the
OpenAI provider reads one)."""

from __future__ import annotations

import asyncio
import base64
from pathlib import Path
from urllib.parse import unquote

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply, anthropic_error
from verification.cli import main
from verification.llm.base import LLMResponse
from verification.llm.credentials import LONG_SECRET, RUN_REDACTED, redact
from verification.llm.limiter import AdaptiveLimiter
from verification.store.journal import read_journal
from verification.store.records import MAX_TOKEN_COUNT

KEY = "sk-ant-PLANTED-canary-123"
"""The API key ``anthropic_env`` sets: a canary no output may hold."""


def _verify(tmp_path: Path, cases: int, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", "claude-haiku-4-5"]
    return main([*argv, "--cases", str(cases), "--output", str(tmp_path), *extra])


def _files_holding(folder: Path, text: str) -> list[str]:
    return [
        str(path)
        for path in folder.rglob("*")
        if path.is_file() and text.encode() in path.read_bytes()
    ]


def test_a_key_echoed_in_every_field_a_server_fills_is_shown_nowhere(
    anthropic_env: FakeModelServer,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    monkeypatch.setenv("VERIFY_CONCURRENCY", "1")
    server = anthropic_env
    server.script(
        [
            anthropic_error(429, KEY, f"slow down, {KEY}"),  # the error's type and words
            anthropic_error(429, KEY, f"slow down, {KEY}"),
            server.message(f"no answer, {KEY}", model=KEY, stop_reason=KEY),
            Reply(200, {**server.message_body(), "type": KEY}),  # no Message: its type said
            Reply(200, {**server.message_body(), "type": KEY}),
        ]
    )
    code = _verify(tmp_path, 3)
    assert code in (1, 3)
    out, err = capsys.readouterr()
    assert KEY not in out and KEY not in err
    assert _files_holding(tmp_path, KEY) == []
    assert "<redacted>" in "".join(p.read_text("utf-8") for p in tmp_path.rglob("*.jsonl"))


def test_a_key_echoed_in_another_case_cut_short_or_without_its_prefix_is_shown_nowhere(
    anthropic_env: FakeModelServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # Hunt qq: only the key as it is was redacted; its echo upper-cased, one character short
    # or without its "sk-ant-" prefix reached the journal, the reports, the page and the
    # response cache.
    forms = [KEY.upper(), KEY[:-1], KEY.removeprefix("sk-ant-"), KEY[3:-3]]
    server = anthropic_env
    server.script([server.message("no answer; " + " / ".join(forms), model=KEY.upper())] * 3)
    assert _verify(tmp_path, 3) == 1
    out, err = capsys.readouterr()
    for form in forms:
        assert form not in out and form not in err
        assert _files_holding(tmp_path, form) == []
    journal = "".join(p.read_text("utf-8") for p in tmp_path.rglob("*.jsonl"))
    assert "no answer; <redacted> / <redacted> / <redacted> / <redacted>" in journal


def test_url_credentials_a_server_echoes_as_the_client_sent_them_are_shown_nowhere(
    anthropic_env: FakeModelServer,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    # Hunt pp: a server URL's user:password goes out as Basic auth, base64(user:password),
    # which a server that echoed its headers had written into the journal, the reports,
    # the page and the terminal; the key itself was redacted.
    user, password = "hunter", "pa%24s-URLSECRET-77"  # percent-encoded, as a URL holds it
    sent = base64.b64encode(f"{user}:{unquote(password)}".encode()).decode()
    server = anthropic_env
    monkeypatch.setenv(
        "ANTHROPIC_BASE_URL", server.base_url.replace("://", f"://{user}:{password}@", 1)
    )

    def echo(request: RecordedRequest) -> Reply:
        said = request.headers.get("authorization", "none")
        assert said == f"Basic {sent}"  # what a server or a proxy on the way sees
        return server.message(f"no answer; you sent {said}")

    server.script([echo] * 3)
    assert _verify(tmp_path, 3) == 1
    out, err = capsys.readouterr()
    for secret in (sent, unquote(password), password):
        assert secret not in out and secret not in err
        assert _files_holding(tmp_path, secret) == []
    assert "you sent Basic <redacted>" in "".join(
        p.read_text("utf-8") for p in tmp_path.rglob("*.jsonl")
    )


def test_a_reply_counting_10_to_the_400_tokens_is_priced_without_a_crash(
    anthropic_env: FakeModelServer,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    server = anthropic_env
    huge = server.message_body("no answer")
    huge["usage"] = {"input_tokens": 10**400, "output_tokens": 10**400}
    server.script([Reply(200, huge)])
    assert _verify(tmp_path, 1) == 1  # judged: the reply is wrong, and priced
    (run,) = (tmp_path / "runs").iterdir()
    assert main(["report", run.name, "--output", str(tmp_path)]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_counts_past_any_context_are_left_out_of_a_reply() -> None:
    usage = {"input_tokens": MAX_TOKEN_COUNT + 1, "output_tokens": 5, "cache": -1}
    assert LLMResponse(content="x", model="m", usage=usage).usage == {"output_tokens": 5}


def test_a_retry_after_of_a_billion_seconds_holds_new_starts_no_longer_than_the_longest_wait() -> (
    None
):
    async def go() -> None:
        limiter = AdaptiveLimiter(2, start=2, max_pause=0.05)
        await limiter.acquire()
        limiter.rate_limited(1e9, held=1)
        limiter.release()
        # A queued case waited about 31 years for its slot; its budget never started.
        await asyncio.wait_for(limiter.acquire(), timeout=30)

    asyncio.run(go())


def test_content_null_is_an_empty_reply_failing_at_level_1(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    server = anthropic_env
    server.script([Reply(200, {**server.message_body(), "content": None})])
    assert _verify(tmp_path, 1) == 1  # FAILED, not INCOMPLETE: judged, not retried
    (run,) = (tmp_path / "runs").iterdir()
    (record,) = read_journal(run / "results.jsonl")
    assert (record.outcome, record.level) == ("failed", 1)
    assert record.reason == "the reply is empty"
    assert len(server.requests) == 1


def _redacted_by_brute_force(text: str, secret: str) -> str:
    """The oracle: every run of RUN_REDACTED or more of the secret's characters in a row,
    any case, found by trying every start in the text and every start in the secret."""
    low, key = text.lower(), secret.lower()
    hidden = [False] * len(text)
    for i in range(len(text)):
        for j in range(len(key)):
            n = 0
            while i + n < len(text) and j + n < len(key) and low[i + n] == key[j + n]:
                n += 1
            if n >= RUN_REDACTED:
                hidden[i : i + n] = [True] * n
    out, i = [], 0
    while i < len(text):
        if hidden[i]:
            while i < len(text) and hidden[i]:
                i += 1
            out.append("<redacted>")
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


@settings(max_examples=300)
@given(
    secret=st.text(alphabet="abcAB-_01", min_size=LONG_SECRET, max_size=40),
    cuts=st.lists(st.tuples(st.integers(0, 40), st.integers(0, 40)), max_size=4),
    noise=st.lists(st.text(alphabet="abcAB-_01 x", max_size=15), min_size=5, max_size=5),
)
def test_redaction_finds_every_long_run_of_a_long_secret(
    secret: str, cuts: list[tuple[int, int]], noise: list[str]
) -> None:
    # Hunt rr: the search by every run's start took seconds on an 8 MB reply; the search by
    # aligned blocks must find what it found.
    pieces = [secret[a : a + b].swapcase() if a % 2 else secret[a : a + b] for a, b in cuts]
    text = "".join(n + p for n, p in zip(noise, [*pieces, ""], strict=False))
    assert redact(text, [secret]) == _redacted_by_brute_force(text, secret)
