"""``batches.jsonl`` read back on ``--resume --batch`` as untrusted input, and a batch server
answering nonsense, through the real SDK against the fake server on 127.0.0.1. Each attack
ends in a clear error naming the file (exit 2) or per-case infrastructure errors; none exits
4 or hangs.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from verification.cli import main
from verification.run.batch_mode import BATCH_FILE

if TYPE_CHECKING:
    from tests.support.fake_server import FakeModelServer

SEED, CASES = 13, 4
MODEL = "claude-haiku-4-5"


@pytest.fixture
def server_env(anthropic_env: FakeModelServer, monkeypatch: pytest.MonkeyPatch) -> FakeModelServer:
    monkeypatch.setenv("VERIFY_BATCH_POLL_INTERVAL", "0.01")
    monkeypatch.setenv("VERIFY_CACHE", "false")
    return anthropic_env


def _verify(output: Path, *extra: str) -> int:
    return main(
        [
            *("verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--batch"),
            *("--cases", str(CASES), "--seed", str(SEED), "--output", str(output), *extra),
        ]
    )


def _answering_right(server: FakeModelServer) -> None:
    right = server.right_kmp_replies(SEED, CASES)
    server.batches = server.FakeBatchAPI(
        lambda cid, params: server.batch_succeeded(right[str(params["messages"][0]["content"])])
    )


def _finished_run(server: FakeModelServer, output: Path) -> Path:
    _answering_right(server)
    assert _verify(output) == 0
    (run,) = (output / "runs").iterdir()
    return run


def _submitted(batch_id: str, requests: dict[str, Any]) -> str:
    line = {"event": "submitted", "batch_id": batch_id, "at": "not a time", "requests": requests}
    return json.dumps(line) + "\n"


def _resume(output: Path, run: Path) -> int:
    return main(["verify", "--resume", run.name, "--output", str(output)])


def test_a_submitted_line_naming_a_repair_without_its_first_attempt(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _finished_run(server_env, tmp_path)
    case_id = json.loads((run / "results.jsonl").read_text().splitlines()[-1])["case_id"]
    hostile = {"x": {"case_id": case_id, "epoch": 0, "attempt": 3}}
    with (run / BATCH_FILE).open("a") as file:
        file.write(_submitted("msgbatch_fake0", hostile))
    before = (run / "results.jsonl").read_text()
    code = _resume(tmp_path, run)
    err = capsys.readouterr().err
    assert code == 0, err
    assert (run / "results.jsonl").read_text() == before  # nothing journalled for it


def test_a_submitted_line_naming_a_batch_the_server_does_not_know(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run = _finished_run(server_env, tmp_path)
    with (run / BATCH_FILE).open("a") as file:
        file.write(_submitted("msgbatch_nosuch", {}))
    code = _resume(tmp_path, run)
    err = capsys.readouterr().err
    # Before: 'HTTP 404 ... no such batch' and a --resume hint that stopped there again.
    assert code == 2, err
    assert f"{run / BATCH_FILE}: the server knows no batch msgbatch_nosuch" in err
    assert "remove its line" in err
    # The remedy it names works.
    lines = (run / BATCH_FILE).read_text().splitlines(keepends=True)
    (run / BATCH_FILE).write_text("".join(x for x in lines if "msgbatch_nosuch" not in x))
    assert _resume(tmp_path, run) == 0, capsys.readouterr().err


@pytest.mark.parametrize(
    "body",
    [b"<html>oops</html>", b"null", b"[]", b'{"id": 5}', b'{"processing_status": 7'],
    ids=["html", "null", "list", "wrong fields", "torn"],
)
def test_a_batch_server_answering_nonsense_with_200_is_refused_as_no_reply(
    server_env: FakeModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    body: bytes,
) -> None:
    from tests.support.fake_server import Reply

    class Nonsense:
        def handle(self, request: Any, base_url: str) -> Reply:
            return Reply(200, raw=body)

    server_env.batches = Nonsense()  # type: ignore[assignment]
    monkeypatch.setenv("VERIFY_MAX_RETRIES", "1")
    monkeypatch.setenv("VERIFY_RETRY_INITIAL_WAIT", "0")
    monkeypatch.setenv("VERIFY_RETRY_MAX_WAIT", "0")
    code = _verify(tmp_path)
    err = capsys.readouterr().err
    # Before: a null or list body ended the run with exit 4 (AttributeError on batch.id).
    assert code == 2, err
    assert "answered HTTP 200 with a body that is not a Message Batches API reply" in err
    assert "Traceback" not in err


def test_a_server_without_the_batches_api_says_so_and_to_run_without_batch(
    server_env: FakeModelServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from tests.support.fake_server import Reply, anthropic_error, kmp_messages

    class NoBatches:  # a LiteLLM proxy: the Messages API, no Message Batches API
        def handle(self, request: Any, base_url: str) -> Reply:
            return anthropic_error(404, "not_found_error", "Not Found")

    server_env.batches = NoBatches()  # type: ignore[assignment]
    assert _verify(tmp_path) == 2
    err = capsys.readouterr().err
    assert "offers no Message Batches API" in err and "run again without --batch" in err
    assert "returned HTTP 404" not in err
    # No resume is offered: a batch run resumes through batches, and would fail the same way.
    assert "--resume" not in err
    # The remedy it names works: the same cases asked one by one.
    server_env.script([kmp_messages(SEED, CASES)] * CASES)
    argv = ["verify", "kmp", "--provider", "anthropic", "--model", MODEL, "--cases", str(CASES)]
    assert main([*argv, "--seed", str(SEED), "--output", str(tmp_path / "live")]) == 0


def test_a_processing_status_the_api_does_not_document_is_said_once(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Hunt qq: an unknown status was polled as in progress for the whole deadline, unsaid.
    from types import SimpleNamespace

    from verification.llm.batches import _status

    counts = SimpleNamespace(processing=1, succeeded=0, errored=0, canceled=0, expired=0)
    odd = SimpleNamespace(
        id="msgbatch_odd",
        processing_status="zzz_unknown",
        request_counts=counts,
        created_at=None,
        results_url=None,
    )
    known = SimpleNamespace(**{**vars(odd), "processing_status": "in_progress"})
    with caplog.at_level("WARNING"):
        assert not _status(odd).ended and not _status(odd).ended and not _status(known).ended
    said = [r.getMessage() for r in caplog.records if "none the API documents" in r.getMessage()]
    assert said == [
        "batch msgbatch_odd: processing status zzz_unknown is none the API documents; waited "
        "on as in progress until VERIFY_BATCH_DEADLINE"
    ]
