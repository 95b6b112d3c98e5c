"""The response cache, through the real SDKs against the fake server on 127.0.0.1: a
repeated run makes no request at all (not even the preflight), anything that changes the
request is a miss, only complete answers are kept, dry runs are never cached, concurrent
writers share one file, a broken file is survived, and no secret reaches it."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.journal import read_journal
from verification.llm.base import LLMRequest, LLMResponse
from verification.llm.cache import CACHE_FILE, ResponseCache, cache_key
from verification.llm.prompt_builder import PromptBuilder
from verification.registry import get_spec
from verification.runner import plan_cases

if TYPE_CHECKING:
    from tests.llm.conftest import FakeModelServer, RecordedRequest, Reply

KEY = "sk-ant-cache-canary-Vb72QpLx0"
URL_PASSWORD = "cache-url-pass-canary-5521"
MODEL = "claude-test-model"
SEED = 3


def _answers(server: FakeModelServer, cases: int) -> Callable[[RecordedRequest], Reply]:
    builder = PromptBuilder(packaged_scaffolds_dir())
    spec = get_spec("kmp")
    answers = {
        builder.build("kmp", case.input).user: spec.render_answer(case.expected)
        for case in plan_cases(["kmp"], seed=SEED, cases=cases)["kmp"]
    }

    def answer(sent: RecordedRequest) -> Reply:
        return server.message(answers[sent.json["messages"][0]["content"]])

    return answer


@pytest.fixture
def anthropic_env(fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("ANTHROPIC_API_KEY", KEY)
    base = fake_server.base_url.replace("http://", f"http://user:{URL_PASSWORD}@")
    monkeypatch.setenv("ANTHROPIC_BASE_URL", base)
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0.01")
    return fake_server


def _verify(output: Path, cases: int, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--seed", str(SEED)]
    return main([*argv, "--cases", str(cases), "--output", str(output), *extra])


def _records(output: Path) -> list[Any]:
    runs = sorted((output / "runs").iterdir(), key=lambda p: p.stat().st_mtime)
    return read_journal(runs[-1] / "results.jsonl")


def test_a_repeated_run_makes_no_request_and_says_where_its_answers_came_from(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    anthropic_env.script([_answers(anthropic_env, 5)] * 5)
    assert _verify(tmp_path, 5) == 0
    first = _records(tmp_path)
    assert len(anthropic_env.requests) == 5 and {r.source for r in first} == {"live"}
    assert _verify(tmp_path, 5) == 0
    second = _records(tmp_path)
    assert len(anthropic_env.requests) == 5, "the second run asked nothing"
    assert {r.source for r in second} == {"cache"}
    assert sorted((r.case_id, r.outcome, r.raw_response) for r in second) == sorted(
        (r.case_id, r.outcome, r.raw_response) for r in first
    )
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())["scaffolds"]
    assert summary["kmp"]["from_cache"] == 5 and summary["kmp"]["usage"] == {}
    report = (tmp_path / "reports" / "kmp.md").read_text()
    assert "| Answers from the response cache (no model call) | 5 |" in report


def test_no_cache_asks_again_and_keeps_nothing(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    anthropic_env.script([_answers(anthropic_env, 3)] * 6)
    assert _verify(tmp_path, 3, "--no-cache") == 0
    assert _verify(tmp_path, 3, "--no-cache") == 0
    assert len(anthropic_env.requests) == 6
    assert not (tmp_path / CACHE_FILE).exists()


def test_whatever_changes_the_request_is_a_miss(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / CACHE_FILE)
    request = LLMRequest(system="scaffold", prompt="input", model="m", max_tokens=100, case_id="a")
    key = cache_key("anthropic", "http://127.0.0.1:1", request)
    cache.put(key, "anthropic", LLMResponse(content="answer", model="m", stop_reason="end_turn"))
    assert cache.get(key) is not None
    same_but_case = request.model_copy(update={"case_id": "another-case"})
    assert cache_key("anthropic", "http://127.0.0.1:1", same_but_case) == key
    changed = [
        request.model_copy(update={"system": "scaffold, edited"}),
        request.model_copy(update={"prompt": "another input"}),
        request.model_copy(update={"model": "m2"}),
        request.model_copy(update={"max_tokens": 101}),
        request.model_copy(update={"temperature": 0.0}),
        request.model_copy(update={"sample": 1}),
    ]
    for other in changed:
        assert cache_key("anthropic", "http://127.0.0.1:1", other) != key, other
    assert cache_key("openai", "http://127.0.0.1:1", request) != key
    assert cache_key("anthropic", "http://127.0.0.1:2", request) != key
    with_credentials = cache_key("anthropic", "http://u:secret@127.0.0.1:1", request)
    assert with_credentials == key, "credentials are no part of where a server is"


@pytest.mark.parametrize("stop_reason", ["max_tokens", "refusal", "model_context_window_exceeded"])
def test_incomplete_replies_and_errors_are_not_kept(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    stop_reason: str,
) -> None:
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "2")
    monkeypatch.setenv("VERIFY_CONCURRENCY", "1")
    anthropic_env.script(
        [
            anthropic_env.message("cut", stop_reason=stop_reason),
            anthropic_env.anthropic_error(500, "api_error", "down"),
            anthropic_env.anthropic_error(500, "api_error", "down"),
            anthropic_env.anthropic_error(500, "api_error", "down"),
        ]
    )
    assert _verify(tmp_path, 2) == 3  # one answer cut off or refused, one infra error
    assert len(anthropic_env.requests) == 4
    assert ResponseCache(tmp_path / CACHE_FILE).stats()["entries"] == 0


def test_dry_runs_are_never_cached(tmp_path: Path) -> None:
    assert main(["verify", "kmp", "--provider", "reference", "--output", str(tmp_path)]) == 0
    assert not (tmp_path / CACHE_FILE).exists()
    assert {r.source for r in _records(tmp_path)} == {"reference"}


def test_the_openai_preflight_waits_for_a_request_that_goes_out(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    builder, spec = PromptBuilder(packaged_scaffolds_dir()), get_spec("kmp")
    answers = {
        builder.build("kmp", case.input).user: spec.render_answer(case.expected)
        for case in plan_cases(["kmp"], seed=SEED, cases=2)["kmp"]
    }

    def answer(sent: RecordedRequest) -> Reply:
        return fake_server.chat_completion(answers[sent.json["messages"][-1]["content"]])

    fake_server.script([fake_server.models("local-test-model"), answer, answer])
    argv = ["verify", "kmp", "--provider", "openai", "--model", "local-test-model"]
    argv += ["--seed", str(SEED), "--cases", "2", "--output", str(tmp_path)]
    assert main(argv) == 0
    assert fake_server.requests[0].path.endswith("/models")
    assert main(argv) == 0
    assert len(fake_server.requests) == 3, "the repeated run sent nothing, not even GET /models"


def test_concurrent_writers_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / CACHE_FILE
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        cache = ResponseCache(path)
        try:
            for index in range(40):
                request = LLMRequest(prompt=f"{worker}:{index}", model="m")
                response = LLMResponse(content=f"answer {worker}:{index}", model="m")
                cache.put(cache_key("p", None, request), "p", response)
                assert cache.get(cache_key("p", None, request)) is not None
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert ResponseCache(path).stats()["entries"] == 240
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)


def test_a_broken_cache_file_is_survived_with_a_warning(
    anthropic_env: FakeModelServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (tmp_path / CACHE_FILE).write_bytes(b"this is no database\x00" * 100)
    anthropic_env.script([_answers(anthropic_env, 2)] * 2)
    assert _verify(tmp_path, 2) == 0
    assert "unusable" in caplog.text and "cache clear" in caplog.text
    assert len(anthropic_env.requests) == 2


def test_no_secret_reaches_the_cache_file(anthropic_env: FakeModelServer, tmp_path: Path) -> None:
    anthropic_env.script([_answers(anthropic_env, 3)] * 3)
    assert _verify(tmp_path, 3) == 0
    for file in tmp_path.glob(CACHE_FILE + "*"):
        data = file.read_bytes()
        assert KEY.encode() not in data and URL_PASSWORD.encode() not in data, file


def test_cache_stats_and_clear(
    anthropic_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    anthropic_env.script([_answers(anthropic_env, 3)] * 3)
    assert _verify(tmp_path, 3) == 0
    assert _verify(tmp_path, 3) == 0
    capsys.readouterr()
    assert main(["cache", "stats", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "3 answers, 3 served again" in out and MODEL in out
    assert main(["cache", "clear", "--output", str(tmp_path)]) == 0
    assert "removed 3 cached answers" in capsys.readouterr().out
    assert ResponseCache(tmp_path / CACHE_FILE).stats()["entries"] == 0
