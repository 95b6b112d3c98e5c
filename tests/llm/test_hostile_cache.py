"""The response cache attacked: text SQLite cannot store, a write that fails after the answer
was paid for, a lock another process keeps, and a cache path that is a folder, a pipe, a link
to nothing or another program's table. Each ends in a normal run (with one warning naming the
command that mends it), a clear error (exit 2) or a clean stop; none exits 4, hangs or loses a
paid answer. Runs go through the real ``anthropic`` SDK against the fake server on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.config import load_settings
from verification.llm.base import LLMResponse
from verification.llm.cache.provider import CachingProvider
from verification.llm.cache.responses import CACHE_FILE, ResponseCache
from verification.llm.cache.schema import CACHE_FORMAT
from verification.llm.claude import ClaudeProvider
from verification.llm.providers import retry_policy_from
from verification.runner import VerificationRunner
from verification.store.journal import read_journal


@pytest.fixture(autouse=True)
def _cache_in_the_test_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The shared cache kept in the test's folder, which is also its results folder."""
    monkeypatch.setenv("VERIFY_CACHE_DIR", str(tmp_path))


if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer, RecordedRequest, Reply
    from tests.support.preloaded import ForkServer, Process

KEY = "sk-ant-hostile-cache-canary-Lq93"
MODEL = "claude-test-model"
SEED = 13
POSIX = pytest.mark.skipif(sys.platform == "win32", reason="POSIX locks, pipes and signals")


def _answers(
    server: FakeModelServer, cases: int, *, suffix: str = "", model: str = MODEL
) -> Callable[[RecordedRequest], Reply]:
    """A step answering any of the run's ``kmp`` cases right (found by its prompt), with
    ``suffix`` after the answer, from ``model``."""
    return server.kmp_messages(SEED, cases, suffix=suffix, model=model)


def _env(server: FakeModelServer) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VERIFY_", "ANTHROPIC_"))}
    env.update(ANTHROPIC_API_KEY=KEY, ANTHROPIC_BASE_URL=server.base_url)
    env.update(VERIFY_RETRY_INITIAL_WAIT="0.01", VERIFY_MAX_RETRIES="1")
    env.update(VERIFY_CACHE_DIR=os.environ["VERIFY_CACHE_DIR"])  # the test's own folder
    return env


@pytest.fixture
def server_env(fake_server: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    for name, value in _env(fake_server).items():
        if name.startswith(("VERIFY_", "ANTHROPIC_")):
            monkeypatch.setenv(name, value)
    return fake_server


def _argv(output: Path, cases: int) -> list[str]:
    return [
        *("verify", "kmp", "--provider", "anthropic", "--model", MODEL),
        *("--cases", str(cases), "--seed", str(SEED), "--output", str(output)),
    ]


def _records(output: Path) -> list[Any]:
    runs = sorted((output / "runs").iterdir(), key=lambda p: p.stat().st_mtime)
    return read_journal(runs[-1] / "results.jsonl")


def _stats(output: Path, capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(["cache", "stats", "--cache-dir", str(output)])
    out, err = capsys.readouterr()
    return code, out, err


# --- text SQLite cannot store ---


def test_lone_surrogates_in_a_reply_and_a_model_name_are_journalled_and_cached(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    odd_model = "claude-\udc80-\x1b[31m"
    server_env.script([_answers(server_env, 2, suffix="\n\ud800 said", model=odd_model)] * 2)
    first_code = main(_argv(tmp_path, 2))
    assert first_code in (0, 1)  # graded, whatever the grade: no crash
    first = _records(tmp_path)
    assert len(first) == 2 and all(r.raw_response.endswith("\ud800 said") for r in first)
    assert {r.model for r in first} == {odd_model} and {r.source for r in first} == {"live"}

    assert main(_argv(tmp_path, 2)) == first_code
    second = _records(tmp_path)
    assert len(server_env.requests) == 2, "the second run was answered from the cache"
    assert sorted((r.case_id, r.raw_response, r.model) for r in second) == sorted(
        (r.case_id, r.raw_response, r.model) for r in first
    )
    code, out, _ = _stats(tmp_path, capsys)
    assert code == 0 and f"{MODEL}       2 answers" in out  # grouped by the model asked


# --- the journal line first, the cache write after ---


class _CacheThatFailsAfterTheJournal(ResponseCache):
    """A cache whose writes fail, recording whether the answer was journalled by then."""

    journal: Path
    journalled_first: list[bool]

    def put(self, key: str, response: LLMResponse, **where: Any) -> None:
        lines = self.journal.read_text(encoding="utf-8").splitlines()
        self.journalled_first.append(
            any(json.loads(line)["raw_response"] == response.content for line in lines)
        )
        raise RuntimeError("the disk said no")


def test_a_cache_write_that_fails_costs_a_warning_never_the_answer(
    server_env: FakeModelServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    settings = load_settings(
        model=MODEL, results_dir=tmp_path, seed=SEED, cases=3, provider="anthropic"
    )
    cache = _CacheThatFailsAfterTheJournal(tmp_path / CACHE_FILE)
    cache.journalled_first = []
    claude = ClaudeProvider(
        KEY, base_url=server_env.base_url, retry_policy=retry_policy_from(settings.provider_config)
    )
    runner = VerificationRunner(settings, CachingProvider(claude, cache))
    server_env.script([_answers(server_env, 3)] * 3)
    # The journal exists once the run folder does; the put reads it when it is called.
    original = runner._run_owned

    async def run_owned(paths: Any, *args: Any, **kwargs: Any) -> Any:
        cache.journal = paths.journal
        return await original(paths, *args, **kwargs)

    runner._run_owned = run_owned  # type: ignore[method-assign]
    result = asyncio.run(runner.run(["kmp"]))
    assert cache.journalled_first == [True, True, True]
    assert {r.outcome for r in read_journal(result.paths.journal)} == {"passed"}
    assert result.results["kmp"].status == "CERTIFIED"
    assert caplog.text.count("an answer was not kept (RuntimeError: the disk said no)") == 3


def test_a_database_that_refuses_writes_is_a_warning_and_the_run_finishes(
    server_env: FakeModelServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / CACHE_FILE
    assert ResponseCache(path).open()
    with closing(sqlite3.connect(path)) as db:
        db.execute(
            "CREATE TRIGGER refuse BEFORE INSERT ON responses "
            "BEGIN SELECT RAISE(ABORT, 'no room at the inn'); END"
        )
        db.commit()
    server_env.script([_answers(server_env, 3)] * 3)
    assert main(_argv(tmp_path, 3)) == 0
    assert [r.outcome for r in _records(tmp_path)] == ["passed"] * 3
    assert caplog.text.count("is unusable") == 1 and "no room at the inn" in caplog.text


# --- a lock another process keeps ---


@pytest.fixture
def held_cache_lock(tmp_path: Path) -> Iterator[Path]:
    """``cache.sqlite3.lock`` in ``tmp_path``, held by another process until the test ends."""
    lock = tmp_path / (CACHE_FILE + ".lock")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import fcntl, sys, time\n"
            "f = open(sys.argv[1], 'w'); fcntl.flock(f, fcntl.LOCK_EX)\n"
            "print('held', flush=True); time.sleep(120)",
            str(lock),
        ],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline() == "held\n"
    try:
        yield lock
    finally:
        holder.kill()
        holder.wait(timeout=10)


@pytest.mark.slow
@POSIX
def test_a_lock_held_by_another_process_is_waited_for_a_bounded_time(
    server_env: FakeModelServer,
    held_cache_lock: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    monkeypatch.setattr("verification.llm.cache.responses.LOCK_TIMEOUT_S", 0.3)
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0
    assert caplog.text.count("is unusable") == 1
    assert "another process holds cache.sqlite3.lock" in caplog.text
    assert "--no-cache" in caplog.text
    assert {r.source for r in _records(tmp_path)} == {"live"}


def _wait_until_it_opens(process: Process, path: Path) -> None:
    """Return once ``process`` holds ``path`` open (read from /proc; elsewhere, a pause)."""
    fds = Path(f"/proc/{process.pid}/fd")
    if not fds.parent.exists():  # no /proc to watch: give it time to get there
        time.sleep(3.0)
        return
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert process.poll() is None, process.communicate()
        with contextlib.suppress(OSError):  # a descriptor closed while listed
            if any(os.readlink(fd) == str(path) for fd in fds.iterdir()):
                return
        time.sleep(0.05)
    raise AssertionError(f"the process did not open {path.name} within 60 s")


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize(
    ("sent", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)], ids=["SIGTERM", "SIGINT"]
)
def test_a_wait_for_a_held_lock_ends_on_a_signal(
    fake_server: FakeModelServer,
    held_cache_lock: Path,
    tmp_path: Path,
    fork_server: ForkServer,
    sent: signal.Signals,
    code: int,
) -> None:
    # A process of its own (forked with the harness and the SDK imported: a fresh
    # interpreter's imports are no part of this), SIGINT going to Python's default handler.
    process = fork_server.start(
        _argv(tmp_path, 2), env=_env(fake_server), stderr=subprocess.PIPE, text=True
    )
    _wait_until_it_opens(process, held_cache_lock)  # waiting for the lock, signals heard
    signalled = time.monotonic()
    process.send_signal(sent)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == code, stderr
    assert time.monotonic() - signalled < 8.0, "ended before the lock wait (10 s) would have"
    assert "Traceback" not in stderr and fake_server.requests == []


# --- a cache path that is no cache ---


@pytest.mark.slow
def test_a_cache_that_is_a_folder_is_left_alone_and_said_so(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    folder = tmp_path / CACHE_FILE
    (folder / "keep").mkdir(parents=True)
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "a folder" in err and "nothing removed" in err and "removed 0" not in err
    assert (folder / "keep").is_dir()
    code, _, err = _stats(tmp_path, capsys)
    assert code == 2 and "a folder" in err and f"mv {folder} {folder}.old" in err
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0
    assert caplog.text.count("is unusable") == 1 and f"mv {folder}" in caplog.text
    # The remedy named mends it: the folder moved away, the next run keeps its answers.
    folder.rename(f"{folder}.old")
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0
    assert ResponseCache(folder).stats().entries == 2


@pytest.mark.slow
@POSIX
@pytest.mark.parametrize("kind", ["a link to nothing", "a pipe"])
def test_a_cache_that_is_no_file_is_reported_and_removed_by_cache_clear(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
    kind: str,
) -> None:
    path = tmp_path / CACHE_FILE
    if kind == "a pipe":
        os.mkfifo(path)
    else:
        path.symlink_to(tmp_path / "gone" / "cache.sqlite3")
    code, _, err = _stats(tmp_path, capsys)
    assert code == 2 and "cache clear --cache-dir" in err, err
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0  # no hang on the pipe, no crash
    assert caplog.text.count("is unusable") == 1 and "cache clear --cache-dir" in caplog.text
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    assert not path.exists() and not path.is_symlink()
    assert not (tmp_path / "gone").exists(), "the link's target was not created"
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0
    assert _stats(tmp_path, capsys)[1].startswith(f"{path}: 2 answers")


def _foreign_cache(path: Path, columns: str, rows: list[tuple[Any, ...]]) -> None:
    with closing(sqlite3.connect(path)) as db:
        db.execute(f"CREATE TABLE responses ({columns})")
        marks = ", ".join("?" * len(rows[0]))
        db.executemany(f"INSERT INTO responses VALUES ({marks})", rows)
        db.execute(f"PRAGMA user_version = {CACHE_FORMAT}")
        db.commit()


def test_another_programs_responses_table_is_cleared_for_good(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _foreign_cache(tmp_path / CACHE_FILE, "id INTEGER, body TEXT", [(1, "theirs")])
    code, _, err = _stats(tmp_path, capsys)
    assert code == 2 and "not a response cache" in err and "cache clear --cache-dir" in err
    assert main(["cache", "clear", "--cache-dir", str(tmp_path)]) == 0
    code, out, _ = _stats(tmp_path, capsys)
    assert code == 0 and "empty" in out
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0
    assert _stats(tmp_path, capsys)[1].startswith(f"{tmp_path / CACHE_FILE}: 2 answers")


def test_rows_with_null_or_odd_columns_are_shown_not_a_crash(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    columns = "key TEXT, provider TEXT, server TEXT, model TEXT, response TEXT, "
    _foreign_cache(
        tmp_path / CACHE_FILE,
        columns + "created_at TEXT, hits",
        [
            ("a", "anthropic", None, None, "{}", None, None),
            ("b", None, "http://x", 7, "{}", "now", "many"),
            ("c", "openai", "http://y", "m\x1b]0;owned\x07", "{}", "now", 2),
        ],
    )
    code, out, _ = _stats(tmp_path, capsys)
    assert code == 0 and "3 answers, 2 served again" in out
    assert "m\\x1b]0;owned\\x07" in out and "\x1b" not in out


def test_an_unreadable_entry_is_replaced_by_the_answer_asked_again(
    server_env: FakeModelServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    server_env.script([_answers(server_env, 2)] * 2)
    assert main(_argv(tmp_path, 2)) == 0
    with closing(sqlite3.connect(tmp_path / CACHE_FILE)) as db:
        db.execute("UPDATE responses SET response = '{\"content\": [1' WHERE rowid = 1")
        db.commit()
    server_env.script([_answers(server_env, 2)])
    assert main(_argv(tmp_path, 2)) == 0
    assert caplog.text.count("an unreadable entry is removed and its answer asked again") == 1
    assert sorted(r.source for r in _records(tmp_path)) == ["cache", "live"]
    caplog.clear()
    assert main(_argv(tmp_path, 2)) == 0  # mended: every answer from the cache, no warning
    assert {r.source for r in _records(tmp_path)} == {"cache"} and "unreadable" not in caplog.text
    assert len(server_env.requests) == 3
