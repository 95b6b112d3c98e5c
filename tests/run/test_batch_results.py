"""Reading an ended batch's results (issue 24 items 1, 2 and the batch parts of 12), through
the real ``anthropic`` SDK against the stand-in Batches server on 127.0.0.1: a results line
that does not decode is that request's missing answer and the rest are kept; a batch past its
deadline is canceled and what it finished is kept; a results URL is fetched only from the
base URL's origin; a batch with no results URL or a refused cancel does not stop the run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.support.batch_runs import CASES, SEED, answering_right, verify_batch
from verification.cli import main
from verification.run.batch_mode import BATCH_FILE, BatchLog
from verification.store.journal import read_journal

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer

KEY = "sk-ant-results-canary-Vb41xQ"


@pytest.fixture
def server_env(anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_BATCH_POLL_INTERVAL", "0.01")
    monkeypatch.setenv("VERIFY_CACHE", "false")
    return anthropic_env


def _run(output: Path) -> Path:
    (run,) = (output / "runs").iterdir()
    return run


def _second_line(change: Callable[[bytes], bytes]) -> Callable[[bytes], bytes]:
    def mangle(raw: bytes) -> bytes:
        lines = raw.split(b"\n")
        lines[1] = change(lines[1])
        return b"\n".join(lines)

    return mangle


def _cut_last(raw: bytes) -> bytes:
    last = raw.rstrip(b"\n").rsplit(b"\n", 1)[-1]
    return raw.rstrip(b"\n")[: -len(last) // 2]


BAD_LINES = {
    "not JSON": _second_line(lambda line: b"<html>a proxy's page</html>"),
    "nested past the recursion limit": _second_line(lambda line: b"[" * 200_000 + b"]" * 200_000),
    "null": _second_line(lambda line: b"null"),
    "no custom id": _second_line(lambda line: line.replace(b'"custom_id"', b'"other"')),
    "the last result cut short": _cut_last,
}


@pytest.mark.parametrize("mangle", BAD_LINES.values(), ids=BAD_LINES)
def test_a_results_line_that_does_not_decode_is_that_request_s_missing_answer(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    mangle: Callable[[bytes], bytes],
) -> None:
    api = answering_right(server_env)
    api.results_body = mangle
    server_env.script([server_env.kmp_messages(SEED, CASES)])  # the one left, asked again
    code = verify_batch(tmp_path)
    err = capsys.readouterr().err
    # Before: the whole read failed (retried, then exit 2), none of the 6 paid answers kept,
    # and a traceback ("aclose(): asynchronous generator is already running").
    assert code == 0, err
    assert "Traceback" not in err and "aclose" not in err
    records = read_journal(_run(tmp_path) / "results.jsonl")
    assert Counter(r.source for r in records if r.outcome == "passed") == {
        "batch": CASES - 1,
        "live": 1,
    }
    (missing,) = [r for r in records if r.outcome == "infra_error"]
    assert "could not be read" in missing.reason
    assert len(api.created) == 1


def test_a_batch_past_its_deadline_keeps_what_it_finished(
    server_env: FakeModelServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    api = answering_right(server_env, polls=None)  # never ends unless canceled
    api.finished_when_canceled = 4  # done, and billed, when the cancel came
    monkeypatch.setenv("VERIFY_BATCH_DEADLINE", "0.3")
    server_env.script([server_env.kmp_messages(SEED, CASES)] * 2)  # only the other two
    assert verify_batch(tmp_path) == 0
    assert api.canceled == {"msgbatch_fake0"}
    records = read_journal(_run(tmp_path) / "results.jsonl")
    kept = [r for r in records if r.source == "batch"]
    # Before: all six journalled as canceled unread, and all six asked (and paid) again.
    assert len(kept) == len(api.billed) == 4
    assert Counter(r.source for r in records if r.outcome == "passed") == {"batch": 4, "live": 2}
    late = [r for r in records if r.outcome == "infra_error"]
    assert len(late) == 2 and all("did not end within 0.3 s" in r.reason for r in late)


def test_a_results_url_on_another_origin_is_not_sent_the_key(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    from tests.support.fake_server import FakeModelServer

    with FakeModelServer() as elsewhere:
        api = answering_right(server_env)
        api.results_url = lambda base, batch_id: (
            f"{elsewhere.base_url}/v1/messages/batches/{batch_id}/results"
        )
        code = verify_batch(tmp_path)
        err = capsys.readouterr().err
        # Before: the SDK sent the API key to the other host.
        assert not elsewhere.requests
        assert "another origin" in caplog.text and elsewhere.base_url in caplog.text
    assert code == 0, err
    records = read_journal(_run(tmp_path) / "results.jsonl")
    assert len(records) == CASES and {r.source for r in records} == {"batch"}


def test_an_ended_batch_without_a_results_url_is_asked_again(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = answering_right(server_env)
    api.results_url = lambda base, batch_id: None
    server_env.script([server_env.kmp_messages(SEED, CASES)] * CASES)
    code = verify_batch(tmp_path)
    err = capsys.readouterr().err
    # Before: 'Anthropic SDK error: AnthropicError', exit 2, on every --resume.
    assert code == 0, err
    assert "AnthropicError" not in err
    records = read_journal(_run(tmp_path) / "results.jsonl")
    failed = [r for r in records if r.outcome == "infra_error"]
    assert len(failed) == CASES and all("no results URL" in r.reason for r in failed)
    assert Counter(r.source for r in records if r.outcome == "passed") == {"live": CASES}


def test_a_batch_whose_cancel_is_answered_404_does_not_stop_the_run(
    server_env: FakeModelServer,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.support.fake_server import anthropic_error

    api = answering_right(server_env, polls=None)
    api.cancel_reply = anthropic_error(404, "not_found_error", "no such batch")
    monkeypatch.setenv("VERIFY_BATCH_DEADLINE", "0.3")
    monkeypatch.setenv("VERIFY_BATCH_SYNC_FINISH", "false")
    code = verify_batch(tmp_path)
    err = capsys.readouterr().err
    # Before: exit 2 on the cancel's 404, and the same on every --resume.
    assert code == 3, err  # its requests are infrastructure errors: INCOMPLETE
    run = _run(tmp_path)
    assert not BatchLog(run / BATCH_FILE).pending()
    records = read_journal(run / "results.jsonl")
    assert len(records) == CASES and all("could not be canceled" in r.reason for r in records)
    api.cancel_reply, api.polls = None, 1  # the next batch ends
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 0
    assert len(api.created) == 2


@pytest.mark.slow  # imports the anthropic SDK: 0.6 to 2.4 s of CPU in a fast-lane process
def test_an_endless_results_stream_is_read_no_further_than_a_batch_holds() -> None:
    import asyncio
    import json
    from collections.abc import AsyncIterator

    from tests.support.fake_server import batch_succeeded
    from verification.llm.batches import _read_results

    line = json.dumps({"custom_id": "a", "result": batch_succeeded("hi")}).encode() + b"\n"

    async def endless() -> AsyncIterator[bytes]:
        while True:
            yield line * 7 + b"not json\n"

    read = asyncio.run(asyncio.wait_for(_read_results(endless(), 112), timeout=60))
    assert len(read.results) + read.unread == 112 and read.unread == 112 // 8


def test_an_ended_batch_whose_results_are_gone_is_asked_again(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    api = answering_right(server_env)
    api.results_url = lambda base, batch_id: f"{base}/v1/messages/batches/{batch_id}/gone"
    server_env.script([server_env.kmp_messages(SEED, CASES)] * CASES)
    code = verify_batch(tmp_path)
    err = capsys.readouterr().err
    # Before: exit 2 on the results' 404, and the same on every --resume.
    assert code == 0, err
    records = read_journal(_run(tmp_path) / "results.jsonl")
    failed = [r for r in records if r.outcome == "infra_error"]
    assert len(failed) == CASES and all("results could not be had" in r.reason for r in failed)
    assert Counter(r.source for r in records if r.outcome == "passed") == {"live": CASES}


@pytest.mark.parametrize("wrong_first", [True, False], ids=["wrong first", "right first"])
def test_two_results_for_one_request_answer_it_neither_way(
    server_env: FakeModelServer,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
    wrong_first: bool,
) -> None:
    # Hunt qq: the first of two conflicting results was judged and the second called "a
    # result for no request": the verdict turned on the lines' order.
    api = answering_right(server_env)
    right_text = b'"type": "text", "text": "'

    def twice(raw: bytes) -> bytes:
        lines = [line for line in raw.split(b"\n") if line.strip()]
        wrong = [line.replace(right_text, right_text + b"no answer here ", 1) for line in lines]
        assert wrong != lines  # the copies do differ
        pairs = zip(wrong, lines, strict=True) if wrong_first else zip(lines, wrong, strict=True)
        return b"\n".join(line for pair in pairs for line in pair) + b"\n"

    api.results_body = twice
    server_env.script([server_env.kmp_messages(SEED, CASES)] * CASES)  # each asked again, live
    assert verify_batch(tmp_path) == 0
    records = read_journal(_run(tmp_path) / "results.jsonl")
    batch = [r for r in records if r.batch_id is not None]
    assert [r.outcome for r in batch] == ["infra_error"] * CASES
    assert {r.reason for r in batch} == {"batch msgbatch_fake0: the batch gave 2 results for it"}
    assert Counter(r.outcome for r in records if r.source == "live") == {"passed": CASES}
    assert "2 results for request" in caplog.text and "no request of it" not in caplog.text
