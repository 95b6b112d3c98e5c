"""``calls.jsonl`` read back as the untrusted file it is: what was sent and never ended is
counted at its worst case; a torn last line (a kill mid-write, before its call went out) is
skipped; anything else that is not a line of the log stops the resume naming the line."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from verification.errors import JournalError, RunWriteError, StoredFileError
from verification.run.call_log import CallLog, InFlight, in_flight


def _log(path: Path) -> tuple[CallLog, list[str]]:
    log = CallLog(path)
    return log, [log.new_call() for _ in range(4)]


def test_calls_sent_and_never_ended_are_counted_once_each(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    log, (a, b, c, d) = _log(path)
    log.sent(a, 0.5)
    log.sent(a, 0.5)  # a retry of the same call: written once
    log.sent(b, 0.25)
    log.sent(c, 1.0)
    log.ended(a)
    log.ended(d)  # never sent: nothing written
    log.close()
    assert in_flight(path) == InFlight(2, 1.25)
    assert len(path.read_text().splitlines()) == 4
    # A second process of the run appends; its calls are its own.
    again, (e, *_) = _log(path)
    again.sent(e, 2.0)
    again.ended(e)
    again.close()
    assert in_flight(path) == InFlight(2, 1.25)
    assert in_flight(tmp_path / "none.jsonl") == InFlight(0, 0.0)


def test_a_torn_last_line_is_skipped(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    path = tmp_path / "calls.jsonl"
    log, (a, *_) = _log(path)
    log.sent(a, 0.5)
    log.close()
    with path.open("a") as file:
        file.write('{"event": "sent", "call": "')
    assert in_flight(path) == InFlight(1, 0.5)
    assert "torn last line" in caplog.text


@pytest.mark.parametrize(
    "line",
    [
        "not json",
        json.dumps({"event": "sent", "call": "0123456789ab-1"}),  # no worst case
        json.dumps({"event": "sent", "call": "0123456789ab-1", "worst_usd": -1}),
        json.dumps({"event": "billed", "call": "0123456789ab-1"}),
        json.dumps({"event": "sent", "call": "../../x", "worst_usd": 1}),
        json.dumps({"event": "sent", "call": "0123456789ab-1", "worst_usd": 1, "x": "y" * 2000}),
        "[" * 5000,
    ],
    ids=["text", "no-worst", "negative", "event", "call-id", "long", "deep"],
)
def test_a_damaged_line_stops_the_resume_naming_it(tmp_path: Path, line: str) -> None:
    path = tmp_path / "calls.jsonl"
    path.write_text(line + "\n" + json.dumps({"event": "ended", "call": "0123456789ab-2"}) + "\n")
    with pytest.raises(JournalError, match=r"calls\.jsonl:1"):
        in_flight(path)


def test_a_log_that_is_no_regular_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "calls.jsonl"
    os.mkfifo(path)  # a FIFO would hang a plain open
    with pytest.raises(StoredFileError, match="not a regular file"):
        in_flight(path)


def test_a_log_planted_as_a_link_is_neither_read_nor_written_through(tmp_path: Path) -> None:
    # Hunt s: a dangling link at calls.jsonl had a --resume create its target outside the
    # results folder and write the run's calls there.
    path = tmp_path / "calls.jsonl"
    target = tmp_path / "elsewhere.txt"
    path.symlink_to(target)
    log, (call, *_) = _log(path)
    with pytest.raises(StoredFileError, match="symbolic link"):
        log.sent(call, 0.5)
    assert not target.exists()
    with pytest.raises(StoredFileError, match="symbolic link"):
        in_flight(path)


def test_a_full_disk_names_the_log_the_run_and_how_to_go_on(tmp_path: Path) -> None:
    import resource
    import signal

    path = tmp_path / "20261128T000000Z-abcdef" / "calls.jsonl"
    path.parent.mkdir()
    log, (call, *_) = _log(path)
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    before = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (0, hard))  # no file may grow
    try:
        with pytest.raises(RunWriteError) as raised:
            log.sent(call, 0.5)
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, before)
    said = str(raised.value)
    assert f"cannot write {path}" in said and "--resume 20261128T000000Z-abcdef" in said
