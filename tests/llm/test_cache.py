"""The response cache, through the real SDKs against the fake server on 127.0.0.1: a
repeated run makes no request at all (not even the preflight), anything that changes the
request is a miss, only complete answers are kept, dry runs are never cached, concurrent
writers share one file, a broken file is survived, and no secret reaches it."""

from __future__ import annotations

import json
import sqlite3
import threading
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.config import packaged_scaffolds_dir
from verification.llm.base import MAX_REPLY_CHARS, LLMRequest, LLMResponse
from verification.llm.cache.keys import cache_key
from verification.llm.cache.responses import CACHE_FILE, ResponseCache
from verification.llm.cache.schema import CACHE_FORMAT
from verification.llm.prompt_builder import PromptBuilder
from verification.registry import get_spec
from verification.runner import plan_cases
from verification.store.journal import read_journal


@pytest.fixture(autouse=True)
def _cache_in_the_test_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The shared cache kept in the test's folder, which is also its results folder."""
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))


if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply

KEY = "sk-ant-cache-canary-Vb72QpLx0"
URL_PASSWORD = "cache-url-pass-canary-5521"
MODEL = "claude-test-model"
SEED = 3


def _right_answers(cases: int, seeds: tuple[int, ...] = (SEED,)) -> dict[str, str]:
    """The right reply to each ``kmp`` case of ``seeds``, by its user prompt."""
    builder = PromptBuilder(packaged_scaffolds_dir())
    spec = get_spec("kmp")
    return {
        builder.build("kmp", case.input).user: spec.render_answer(case.expected)
        for seed in seeds
        for case in plan_cases(["kmp"], seed=seed, cases=cases)["kmp"]
    }


def _answers(
    server: FakeModelServer, cases: int, seeds: tuple[int, ...] = (SEED,)
) -> Callable[[RecordedRequest], Reply]:
    """A step that answers any of the cases of ``seeds`` right, whatever the request."""
    answers = _right_answers(cases, seeds)

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


@pytest.mark.parametrize(
    ("change", "asked"),
    [
        ((), 0),
        (("--model", "claude-other-model"), 3),
        (("--seed", str(SEED + 1)), 3),  # other inputs
        (("--scaffold-file", "{edited}"), 3),
        (("--samples", "2"), 3),  # sample 0 from the cache, sample 1 asked
        (("--no-cache",), 3),
    ],
    ids=["same", "model", "input", "scaffold", "sample", "no-cache"],
)
def test_a_run_that_asks_anything_else_asks_the_model(
    anthropic_env: FakeModelServer, tmp_path: Path, change: tuple[str, ...], asked: int
) -> None:
    edited = tmp_path / "kmp-draft.md"
    scaffold = PromptBuilder(packaged_scaffolds_dir()).scaffold_path("kmp")
    edited.write_text(scaffold.read_text("utf-8") + "\nCheck every shift twice.\n", "utf-8")
    anthropic_env.script([_answers(anthropic_env, 3, seeds=(SEED, SEED + 1))] * (3 + asked))
    assert _verify(tmp_path / "out", 3) == 0
    assert len(anthropic_env.requests) == 3
    argv = [arg.format(edited=edited) for arg in change]
    assert _verify(tmp_path / "out", 3, *argv) == 0
    assert len(anthropic_env.requests) == 3 + asked
    sources = [r.source for r in _records(tmp_path / "out")]
    assert sources.count("live") == asked
    assert sources.count("cache") == len(sources) - asked


def test_whatever_changes_the_request_is_a_miss(tmp_path: Path) -> None:
    cache = ResponseCache(tmp_path / CACHE_FILE)
    request = LLMRequest(system="scaffold", prompt="input", model="m", max_tokens=100, case_id="a")
    key = cache_key("anthropic", "http://127.0.0.1:1", request)
    response = LLMResponse(content="answer", model="m", stop_reason="end_turn")
    cache.put(key, response, provider="anthropic", server="http://127.0.0.1:1", model="m")
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
    assert cache_key("anthropic", "http://127.0.0.1:1/", request) == key, "a trailing slash"


@pytest.mark.parametrize(
    ("text", "stop_reason"),
    [
        ("cut", "max_tokens"),
        ("no", "refusal"),
        ("cut", "model_context_window_exceeded"),
        ("half", "pause_turn"),  # any stop reason not known to end a turn
        ("", "end_turn"),  # nothing said
        ("x" * (MAX_REPLY_CHARS + 1), "end_turn"),  # more than any run reads (hunt qq)
    ],
    ids=["max_tokens", "refusal", "context", "pause_turn", "empty", "past the parser's bound"],
)
def test_incomplete_replies_and_errors_are_not_kept(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    text: str,
    stop_reason: str,
) -> None:
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "2")
    monkeypatch.setenv("VERIFY_CONCURRENCY", "1")
    anthropic_env.script(
        [
            anthropic_env.message(text, stop_reason=stop_reason),
            anthropic_env.anthropic_error(500, "api_error", "down"),
            anthropic_env.anthropic_error(500, "api_error", "down"),
            anthropic_env.anthropic_error(500, "api_error", "down"),
        ]
    )
    assert _verify(tmp_path, 2) == 3  # one answer cut off or refused, one infra error
    assert len(anthropic_env.requests) == 4
    assert ResponseCache(tmp_path / CACHE_FILE).stats().entries == 0


def test_dry_runs_are_never_cached(tmp_path: Path) -> None:
    assert main(["verify", "kmp", "--provider", "reference", "--output", str(tmp_path)]) == 0
    assert not (tmp_path / CACHE_FILE).exists()
    assert {r.source for r in _records(tmp_path)} == {"reference"}


def _two_cases_at_a_local_server(fake_server: FakeModelServer, tmp_path: Path) -> list[str]:
    """The command of a run of two kmp cases at the fake server's chat completions, which
    is scripted to list its model and answer both right."""
    answers = _right_answers(2)

    def answer(sent: RecordedRequest) -> Reply:
        return fake_server.chat_completion(answers[sent.json["messages"][-1]["content"]])

    fake_server.script([fake_server.models("local-test-model"), answer, answer])
    argv = ["verify", "kmp", "--provider", "openai", "--model", "local-test-model"]
    return [*argv, "--seed", str(SEED), "--cases", "2", "--output", str(tmp_path)]


@pytest.mark.slow
def test_the_openai_preflight_waits_for_a_request_that_goes_out(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    argv = _two_cases_at_a_local_server(fake_server, tmp_path)
    assert main(argv) == 0
    assert fake_server.requests[0].path.endswith("/models")
    assert main(argv) == 0
    assert len(fake_server.requests) == 3, "the repeated run sent nothing, not even GET /models"


@pytest.mark.slow
def test_a_base_url_with_a_trailing_slash_is_the_same_server_to_the_cache(
    fake_server: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Before: Ollama's docs write /v1/, most others /v1, and each spelling asked again.
    argv = _two_cases_at_a_local_server(fake_server, tmp_path)
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url + "/")
    assert main(argv) == 0
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    assert main(argv) == 0
    assert len(fake_server.requests) == 3, "the second spelling's run asked the server again"
    stats = ResponseCache(tmp_path / CACHE_FILE).stats()
    assert stats.entries == 2


def test_concurrent_writers_share_one_file(tmp_path: Path) -> None:
    path = tmp_path / CACHE_FILE
    errors: list[BaseException] = []

    def write(worker: int) -> None:
        cache = ResponseCache(path)
        try:
            for index in range(40):
                request = LLMRequest(prompt=f"{worker}:{index}", model="m")
                response = LLMResponse(content=f"answer {worker}:{index}", model="m")
                cache.put(
                    cache_key("p", None, request), response, provider="p", server=None, model="m"
                )
                assert cache.get(cache_key("p", None, request)) is not None
        except BaseException as exc:  # reported below
            errors.append(exc)

    threads = [threading.Thread(target=write, args=(worker,)) for worker in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert ResponseCache(path).stats().entries == 240
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
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "3 answers, 3 served again" in out and MODEL in out
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert "removed 3 cached answers" in capsys.readouterr().out
    assert ResponseCache(tmp_path / CACHE_FILE).stats().entries == 0


def _openai_verify(server: FakeModelServer, output: Path, model: str, *extra: str) -> int:
    argv = ["verify", "kmp", "--provider", "openai", "--model", model, "--seed", str(SEED)]
    return main([*argv, "--cases", "2", "--output", str(output), *extra])


def test_a_failing_preflight_is_the_same_clear_error_with_a_cache(
    fake_server: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("VERIFY_OPENAI_BASE_URL", fake_server.openai_base_url)
    fake_server.script([fake_server.models("qwen-7b")])
    # Nothing cached from this server: every request would go out, so it checks at once,
    # before a run folder is made, as without a cache.
    assert _openai_verify(fake_server, tmp_path, "gpt-4") == 2
    said = capsys.readouterr().err
    assert "does not serve model 'gpt-4'; it serves: qwen-7b" in said
    assert [r.path for r in fake_server.requests] == ["/v1/models"]
    assert not (tmp_path / "runs").exists()

    answers = _right_answers(2)

    def answer(sent: RecordedRequest) -> Reply:
        return fake_server.chat_completion(answers[sent.json["messages"][-1]["content"]])

    fake_server.script([fake_server.models("qwen-7b"), answer, answer])
    assert _openai_verify(fake_server, tmp_path, "qwen-7b") == 0
    # Now answers from this server are kept: the check waits for a miss, and a model the
    # server no longer serves is still the same error and exit code, checked once.
    fake_server.script([fake_server.models("qwen-7b")])
    sent = len(fake_server.requests)
    assert _openai_verify(fake_server, tmp_path, "gpt-4", "--concurrency", "2") == 2
    assert "does not serve model 'gpt-4'; it serves: qwen-7b" in capsys.readouterr().err
    assert [r.path for r in fake_server.requests[sent:]] == ["/v1/models"]


def test_a_broken_cache_file_is_reported_once_and_cleared(
    anthropic_env: FakeModelServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (tmp_path / CACHE_FILE).write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    anthropic_env.script([_answers(anthropic_env, 3)] * 6)
    assert _verify(tmp_path, 3) == 0
    assert caplog.text.count("is unusable") == 1, caplog.text
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == 2
    assert "cannot be read" in capsys.readouterr().err
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert not (tmp_path / CACHE_FILE).exists()
    assert _verify(tmp_path, 3) == 0  # a new cache, filled
    assert ResponseCache(tmp_path / CACHE_FILE).stats().entries == 3
    assert len(anthropic_env.requests) == 6


def test_a_cache_of_another_format(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    older, newer = tmp_path / "older.sqlite3", tmp_path / "newer.sqlite3"
    with closing(sqlite3.connect(older)) as db:
        db.execute("CREATE TABLE responses (key TEXT PRIMARY KEY, response TEXT)")
        db.execute("INSERT INTO responses VALUES ('k', '{}')")
        db.commit()
    with closing(sqlite3.connect(newer)) as db:
        db.execute(f"PRAGMA user_version = {CACHE_FORMAT + 1}")
    assert ResponseCache(older).open() and ResponseCache(older).stats().entries == 0
    before = newer.read_bytes()
    assert not ResponseCache(newer).open()
    assert "newer version" in caplog.text and newer.read_bytes() == before


def test_copies_asked_while_the_first_is_out_are_one_request(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    # A tier with few inputs draws some again, and a segment of the plan asks its cases at
    # once: the copies of an input missed the cache while the first was still out, and
    # each was paid (n_queens' 40 cases at seed 3 hold 36 inputs).
    import asyncio

    from verification.llm.cache.provider import CachingProvider
    from verification.llm.claude import ClaudeProvider
    from verification.llm.retry import RetryPolicy

    first_in, release = threading.Event(), threading.Event()

    def held(text: str, **fields: Any) -> Callable[[RecordedRequest], Reply]:
        def reply(sent: RecordedRequest) -> Reply:
            first_in.set()
            assert release.wait(30), "the test never let the first answer go"
            return anthropic_env.message(text, **fields)

        return reply

    async def copies(stop_reason: str = "end_turn") -> list[LLMResponse]:
        """Three copies of one request, the second and third asked while the first is out."""
        first_in.clear()
        release.clear()
        claude = ClaudeProvider(
            KEY, base_url=anthropic_env.base_url, retry_policy=RetryPolicy(max_retries=0)
        )
        provider = CachingProvider(claude, ResponseCache(tmp_path / stop_reason / CACHE_FILE))
        request = LLMRequest(prompt=f"the input {stop_reason}", model=MODEL, case_id="a")
        try:
            first = asyncio.create_task(provider.generate(request))
            assert await asyncio.to_thread(first_in.wait, 30), "the first request never came"
            later = [
                asyncio.create_task(provider.generate(request.model_copy(update={"case_id": c})))
                for c in ("b", "c")
            ]
            await asyncio.sleep(0)  # both copies reach the cache and find the first out
            release.set()
            answers = [await first, *[await task for task in later]]
            for answer in answers:
                await provider.keep(request, answer)
            return answers
        finally:
            await provider.aclose()

    anthropic_env.script([held("the answer")])
    answers = asyncio.run(copies())
    assert len(anthropic_env.requests) == 1
    assert [a.content for a in answers] == ["the answer"] * 3
    assert [a.source for a in answers] == ["live", "cache", "cache"]
    # An answer cut off by the output budget serves no copy: the next in line is asked,
    # and its complete answer serves the last.
    cut = held("cut", stop_reason="max_tokens")
    anthropic_env.script([cut, anthropic_env.message("x"), anthropic_env.message("y")])
    answers = asyncio.run(copies("max_tokens"))
    assert len(anthropic_env.requests) == 1 + 2
    assert answers[0].content == "cut"  # whichever copy was asked next, the other waited
    assert sorted((a.content, a.source) for a in answers[1:]) == [("x", "cache"), ("x", "live")]


def test_a_copy_asked_while_the_first_answer_is_kept_or_cut_is_not_paid_again(
    anthropic_env: FakeModelServer, tmp_path: Path
) -> None:
    # Hunt dd: keep() let go of the answer before the cache had written it (a copy asked
    # meanwhile went out and was paid again: 37 calls for 36 inputs in two runs of three),
    # and keeping a cut-off answer let go of the next copy's request out under the same key.
    import asyncio

    from verification.llm.cache.provider import CachingProvider
    from verification.llm.claude import ClaudeProvider
    from verification.llm.retry import RetryPolicy

    claude = ClaudeProvider(
        KEY, base_url=anthropic_env.base_url, retry_policy=RetryPolicy(max_retries=0)
    )
    cache = ResponseCache(tmp_path / CACHE_FILE)
    writing, written = threading.Event(), threading.Event()
    put = cache.put

    def slow_put(*args: Any, **kwargs: Any) -> None:  # a busy disk, another run's lock
        writing.set()
        assert written.wait(30), "the test never let the write finish"
        put(*args, **kwargs)

    cache.put = slow_put  # type: ignore[method-assign]
    provider = CachingProvider(claude, cache)
    request = LLMRequest(prompt="kept", model=MODEL, case_id="a")

    async def kept() -> list[LLMResponse]:
        first = await provider.generate(request)
        keeping = asyncio.create_task(provider.keep(request, first))
        assert await asyncio.to_thread(writing.wait, 30)
        copy = await provider.generate(request.model_copy(update={"case_id": "b"}))
        written.set()
        await keeping
        later = await provider.generate(request.model_copy(update={"case_id": "c"}))
        return [first, copy, later]

    anthropic_env.script([anthropic_env.message("A")])
    answers = asyncio.run(kept())
    assert len(anthropic_env.requests) == 1
    assert [(a.content, a.source) for a in answers] == [
        ("A", "live"),
        ("A", "cache"),
        ("A", "cache"),
    ]

    cache.put = put  # type: ignore[method-assign]
    first_in, release_first, second_in, release_second = (threading.Event() for _ in range(4))

    def held(arrived: threading.Event, go: threading.Event, text: str, **fields: Any) -> Any:
        def reply(sent: RecordedRequest) -> Reply:
            arrived.set()
            assert go.wait(30), "the test never let the answer go"
            return anthropic_env.message(text, **fields)

        return reply

    cut_request = LLMRequest(prompt="cut", model=MODEL, case_id="a")

    async def cut() -> list[LLMResponse]:
        a = asyncio.create_task(provider.generate(cut_request))
        assert await asyncio.to_thread(first_in.wait, 30)
        b = asyncio.create_task(provider.generate(cut_request.model_copy(update={"case_id": "b"})))
        for _ in range(50):  # b finds a out, and waits on it
            await asyncio.sleep(0)
        release_first.set()
        cut_answer = await a
        assert await asyncio.to_thread(second_in.wait, 30)  # b is out now, asked itself
        await provider.keep(cut_request, cut_answer)  # journalled, then kept: nothing to keep
        d = asyncio.create_task(provider.generate(cut_request.model_copy(update={"case_id": "d"})))
        for _ in range(50):
            await asyncio.sleep(0)
        release_second.set()
        try:
            return [cut_answer, await b, await d]
        finally:
            await provider.aclose()

    anthropic_env.script(
        [
            held(first_in, release_first, "cut", stop_reason="max_tokens"),
            held(second_in, release_second, "B"),
        ]
    )
    answers = asyncio.run(cut())
    assert len(anthropic_env.requests) == 1 + 2  # the cut answer and b's: d waited on b
    assert [(a.content, a.source) for a in answers] == [
        ("cut", "live"),
        ("B", "live"),
        ("B", "cache"),
    ]
