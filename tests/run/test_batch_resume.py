"""Resuming a ``--batch`` run killed at a bad moment (issue 24 items 3, 4 and 6), through the
real ``anthropic`` SDK against the stand-in Batches server on 127.0.0.1: killed during the
create call, the resume finds the batch the server made (and no other run's) or says why it
cannot; killed while journalling a batch's results, nothing is journalled or counted twice;
a ``batches.jsonl`` line naming a repair with no first attempt is that line's failure."""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.batch_runs import CASES, MODEL, SEED, answering_right, verify_batch
from verification.cli import main
from verification.config import load_settings
from verification.llm.batches import MAX_LISTED
from verification.run.batch_log import BATCH_FILE, BatchLog, now
from verification.runner import VerificationRunner
from verification.store.journal import read_journal
from verification.store.pricing import TokenCounts, price_for

if TYPE_CHECKING:
    from tests.support.fake_server import FakeBatchAPI, FakeModelServer

KEY = "sk-ant-resume-canary-Qm27pd"


@pytest.fixture
def server_env(anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_BATCH_POLL_INTERVAL", "0.01")
    monkeypatch.setenv("VERIFY_CACHE", "false")
    return anthropic_env


def _resume(output: Path, run: Path) -> int:
    return main(["verify", "--resume", run.name, "--output", str(output)])


def _killed_during_create(api: FakeBatchAPI, output: Path) -> Path:
    """A run killed while its create call is under way, after the server made the batch."""
    api.create_delay = 3.0
    settings = load_settings(
        provider="anthropic", model=MODEL, batch=True, cases=CASES, seed=SEED, results_dir=output
    )

    async def killed() -> str:
        runner = VerificationRunner(settings)
        task = asyncio.create_task(runner.run(["kmp"]))
        while not api.created:  # made on the server, its id not yet back
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert runner.run_id is not None
        return runner.run_id

    run = output / "runs" / asyncio.run(killed())
    api.create_delay = 0.0
    (intent,) = BatchLog(run / BATCH_FILE).read()
    assert intent.event == "intent" and len(intent.requests) == CASES
    return run


def _foreign_batch(api: FakeBatchAPI, size: int) -> None:
    """A batch another run (a shard) made with the same key and request count."""
    api.created.append(
        [{"custom_id": f"0123456789_other-{n}_0_1", "params": {}} for n in range(size)]
    )
    api.created_at.append(time.time())


def test_a_run_killed_during_the_create_call_adopts_the_batch_it_made(
    server_env: FakeModelServer, tmp_path: Path
) -> None:
    api = answering_right(server_env, polls=3)
    run = _killed_during_create(api, tmp_path)
    _foreign_batch(api, CASES)  # same size, same window: never adopted, never canceled
    api.answer = _foreign_or(api.answer, server_env)
    # Before: the resume sent the same requests in a second batch (both paid).
    assert _resume(tmp_path, run) == 0
    assert len(api.created) == 2 and not api.canceled
    records = read_journal(run / "results.jsonl")
    assert len(records) == CASES and {r.source for r in records} == {"batch"}
    assert {r.batch_id for r in records} == {"msgbatch_fake0"}
    lines = BatchLog(run / BATCH_FILE).read()
    assert [x.event for x in lines] == ["intent", "submitted", "collected"]
    assert lines[1].batch_id == "msgbatch_fake0" and lines[1].intent == lines[0].intent


def _foreign_or(answer: object, server: FakeModelServer) -> object:
    def either(cid: str, params: dict[str, object]) -> dict[str, object]:
        if "other-" in cid:
            return server.batch_succeeded("not ours")
        return answer(cid, params)  # type: ignore[operator, no-any-return]

    return either


def test_an_intent_whose_batch_was_never_made_is_sent_again(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    right = server_env.right_kmp_replies(SEED, CASES)
    expired = next(iter(right))
    state = {"expire": True}
    api = server_env.FakeBatchAPI(
        lambda cid, params: (
            {"type": "expired"}
            if state["expire"] and params["messages"][0]["content"] == expired
            else server_env.batch_succeeded(right[str(params["messages"][0]["content"])])
        )
    )
    server_env.batches = api
    monkeypatch.setenv("VERIFY_BATCH_SYNC_FINISH", "false")
    assert verify_batch(tmp_path) == 3
    (run,) = (tmp_path / "runs").iterdir()
    (missing,) = [r for r in read_journal(run / "results.jsonl") if r.outcome == "infra_error"]
    # A create call that never reached the server (killed before it went out).
    intent = {
        "event": "intent",
        "intent": "0a1b2c3d4e",
        "at": now(),
        "requests": {"0a1b2c3d4e_x": {"case_id": missing.case_id, "epoch": 0, "attempt": 1}},
    }
    with (run / BATCH_FILE).open("a") as file:
        file.write(json.dumps(intent) + "\n")
    state["expire"] = False
    assert _resume(tmp_path, run) == 0
    assert len(api.created) == 2 and len(api.created[1]) == 1
    abandoned = [x for x in BatchLog(run / BATCH_FILE).read() if x.event == "abandoned"]
    assert len(abandoned) == 1 and "no batch of it was made" in str(abandoned[0].note)


def test_a_refused_listing_stops_and_names_the_choice(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from tests.support.fake_server import anthropic_error

    api = answering_right(server_env)
    run = _killed_during_create(api, tmp_path)
    api.list_reply = anthropic_error(403, "permission_error", "this key may not list batches")
    assert _resume(tmp_path, run) == 2
    err = capsys.readouterr().err
    assert "would not list its batches" in err and "permission_error" in err
    assert f"To wait and look again: python -m verification verify --resume {run.name}" in err
    assert f"VERIFY_BATCH_RESEND=true python -m verification verify --resume {run.name}" in err
    assert "it is billed (at most $" in err and "Traceback" not in err
    assert len(api.created) == 1 and not read_journal(run / "results.jsonl")
    # The user chose to send again: the duplicate is the user's, knowingly.
    monkeypatch.setenv("VERIFY_BATCH_RESEND", "true")
    assert _resume(tmp_path, run) == 0
    assert len(api.created) == 2 and not api.canceled
    assert len(read_journal(run / "results.jsonl")) == CASES


def test_a_candidate_that_does_not_end_is_named_not_adopted_nor_canceled(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api = answering_right(server_env, polls=None)
    run = _killed_during_create(api, tmp_path)
    monkeypatch.setenv("VERIFY_BATCH_DEADLINE", "0.3")
    assert _resume(tmp_path, run) == 2
    err = capsys.readouterr().err
    assert "msgbatch_fake0 (under way)" in err and "had not ended within" in err
    assert not api.canceled and len(api.created) == 1


def test_results_journalled_before_a_crash_are_not_journalled_or_counted_twice(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = answering_right(server_env)
    assert verify_batch(tmp_path) == 0
    (run,) = (tmp_path / "runs").iterdir()
    # As a process killed after journalling three of the results leaves it: no 'collected'.
    journal = run / "results.jsonl"
    journal.write_text("".join(journal.read_text().splitlines(keepends=True)[:3]))
    lines = (run / BATCH_FILE).read_text().splitlines(keepends=True)
    (run / BATCH_FILE).write_text("".join(x for x in lines if '"collected"' not in x))
    capsys.readouterr()
    assert _resume(tmp_path, run) == 0
    out = capsys.readouterr().out
    records = read_journal(journal)
    # Before: the resume journalled all six again (9 lines), and counted nine live calls.
    assert len(records) == CASES == len(api.billed)
    assert len({(r.case_id, r.epoch, r.attempt) for r in records}) == CASES
    assert len(api.created) == 1
    price = price_for(MODEL)
    assert price is not None
    paid = price.cost(sum((TokenCounts.from_usage(r.usage) for r in records), TokenCounts())) / 2
    summary = json.loads((tmp_path / "reports" / "summary.json").read_text())
    assert summary["cost"]["usd"] == pytest.approx(paid)
    assert summary["cost"]["batch_answers"] == CASES and summary["cost"]["live_calls"] == 0
    assert f"for 0 live call(s) and {CASES} batch answer(s)" in out


def test_a_batch_line_naming_a_repair_with_no_first_attempt_is_its_own_failure(
    server_env: FakeModelServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    api = answering_right(server_env)
    assert verify_batch(tmp_path) == 0
    (run,) = (tmp_path / "runs").iterdir()
    journal = run / "results.jsonl"
    first, *rest = journal.read_text().splitlines(keepends=True)
    journal.write_text("".join(rest))  # the case of the first line has no attempt now
    case_id = json.loads(first)["case_id"]
    api.created.append([{"custom_id": "x", "params": api.created[0][0]["params"]}])
    api.created_at.append(time.time())
    hostile = {
        "event": "submitted",
        "batch_id": "msgbatch_fake1",
        "at": now(),
        "requests": {"x": {"case_id": case_id, "epoch": 0, "attempt": 2}},
    }
    with (run / BATCH_FILE).open("a") as file:
        file.write(json.dumps(hostile) + "\n")
    # Before: exit 4, KeyError in BatchMode._prompt.
    assert _resume(tmp_path, run) == 0
    assert f"maps x to attempt 2 of {case_id} (sample 0), which has no attempt 1" in caplog.text
    records = read_journal(journal)
    assert len(records) == CASES and all(r.attempt == 1 for r in records)
    assert len(api.created) == 3  # the case asked again, as it needed


def test_a_create_call_answered_with_no_batch_is_not_sent_again_blindly(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.fake_server import RecordedRequest, Reply

    api = answering_right(server_env)

    class LostAnswer:
        """The create call's answer is lost (a proxy's page); the rest is the API's."""

        def handle(self, request: RecordedRequest, base_url: str) -> Reply:
            if request.method == "POST" and request.path.rstrip("/").endswith("/batches"):
                return Reply(200, raw=b"<html>502 Bad Gateway</html>")
            return api.handle(request, base_url)

    server_env.batches = LostAnswer()  # type: ignore[assignment]
    assert verify_batch(tmp_path) == 2
    err = capsys.readouterr().err
    assert "Whether the batch was made is not known" in err and "Traceback" not in err
    # Before: retried, each retry a batch the server may have made and billed.
    creates = [r for r in server_env.requests if r.method == "POST"]
    assert len(creates) == 1
    server_env.batches = api
    (run,) = (tmp_path / "runs").iterdir()
    assert _resume(tmp_path, run) == 0  # nothing of its size was made: sent, once
    assert len(api.created) == 1
    events = [x.event for x in BatchLog(run / BATCH_FILE).read()]
    assert events == ["intent", "abandoned", "intent", "submitted", "collected"]


@pytest.mark.parametrize("status", [500, 502, 504])
def test_a_create_call_answered_with_a_server_error_is_not_sent_again(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str], status: int
) -> None:
    # Hunt qq: a gateway's 502 after the API had made the batch was retried as any 5xx is:
    # three batches made and billed for one run, two of them never tracked or mentioned.
    from tests.support.fake_server import RecordedRequest, Reply

    api = answering_right(server_env)

    class MadeButLost:
        """The batch is made; the answer the client gets is a gateway's error page."""

        def handle(self, request: RecordedRequest, base_url: str) -> Reply:
            answer = api.handle(request, base_url)
            if request.method == "POST" and request.path.rstrip("/").endswith("/batches"):
                return Reply(status, raw=b"<html>Bad Gateway</html>")
            return answer

    server_env.batches = MadeButLost()  # type: ignore[assignment]
    assert verify_batch(tmp_path) == 2
    err = capsys.readouterr().err
    assert "Whether the batch was made is not known" in err and "Traceback" not in err
    assert "continue with: " in err  # the run and its resume are named
    assert len(api.created) == 1
    server_env.batches = api
    (run,) = (tmp_path / "runs").iterdir()
    assert _resume(tmp_path, run) == 0  # the batch made is found and collected, not made again
    assert len(api.created) == 1
    asked = [r.case_id for r in read_journal(run / "results.jsonl")]
    assert len(asked) == len(set(asked)) == CASES  # each case answered once


@pytest.mark.slow  # the SDK builds 10,000 listed batches: seconds
def test_a_listing_that_pages_forever_ends_and_says_so(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.fake_server import Reply

    api = answering_right(server_env)
    run = _killed_during_create(api, tmp_path)
    recent = api.batch_object(0, server_env.base_url)
    page = {"data": [recent] * 1000, "has_more": True, "first_id": "a", "last_id": "b"}
    api.list_reply = Reply(200, page)
    # Before the bound, the resume paged on forever.
    assert _resume(tmp_path, run) == 2
    err = capsys.readouterr().err
    assert "more than 10000 batches" in err and "VERIFY_BATCH_RESEND=true" in err
    assert len(api.created) == 1 and not api.canceled
    # Paged through once, under the default retry policy: the bound is no transient fault
    # (a retry would page through the same 10,000 batches again, four times more).
    pages = [
        r
        for r in server_env.requests
        if r.method == "GET" and r.path.startswith("/v1/messages/batches?")
    ]
    assert len(pages) == MAX_LISTED // len(page["data"])
