"""The journal: one flushed line per attempt, no NaN, torn last lines survived."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from verification.errors import JournalError
from verification.store.journal import JournalWriter, read_journal
from verification.store.records import MAX_RAW_RESPONSE_CHARS, AttemptRecord, cap_response


@pytest.fixture(scope="module", autouse=True)
def no_fsync() -> Iterator[None]:
    """The real ``os.fsync`` here (tests/store/conftest.py spares the disk elsewhere): a
    test counts the syncs a journal makes."""
    yield


REQUIRED_FIELDS = {
    "schema",
    "case_id",
    "epoch",
    "attempt",
    "tier",
    "input",
    "expected",
    "outcome",
    "level",
    "reason",
    "leniency",
    "answer",
    "raw_response",
    "stop_reason",
    "usage",
    "latency_s",
    "model",
}


def _record(answer: object = None, raw: str | None = "reply") -> AttemptRecord:
    text, chars, digest = cap_response(raw)
    return AttemptRecord(
        scaffold="kmp",
        case_id="kmp-simple-000",
        index=0,
        epoch=0,
        attempt=1,
        tier="simple",
        input={"text": "AB", "pattern": "A"},
        expected={"positions": [0]},
        outcome="passed",
        level=None,
        reason="ok",
        leniency=[],
        answer=answer,
        raw_response=text,
        raw_response_chars=chars,
        raw_response_sha256=digest,
        stop_reason="end_turn",
        usage={},
        latency_s=0.01,
        model="m",
        finished_at="t",
    )


def test_each_append_is_one_flushed_line_with_every_field(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    writer = JournalWriter(path)
    writer.append(_record())
    lines = path.read_text().splitlines()  # readable before close: flushed
    assert len(lines) == 1
    assert set(json.loads(lines[0])) >= REQUIRED_FIELDS
    writer.close()
    assert read_journal(path) == [_record()]


def _refuse(literal: str) -> None:
    raise ValueError(literal)


def test_nan_never_reaches_disk() -> None:
    line = _record(answer={"root": float("nan"), "x": float("inf")}).to_line()
    data = json.loads(line, parse_constant=_refuse)  # strict JSON: no NaN or Infinity
    assert data["answer"] == {"root": None, "x": None}


def test_raw_response_is_capped_with_its_length_and_hash() -> None:
    huge = "x" * (MAX_RAW_RESPONSE_CHARS + 10)
    text, chars, digest = cap_response(huge)
    assert text is not None and len(text) == MAX_RAW_RESPONSE_CHARS
    assert chars == len(huge) and digest is not None and len(digest) == 64


def test_a_torn_last_line_is_skipped_but_a_torn_middle_line_is_an_error(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    good = _record().to_line()
    path.write_text(good + good[: len(good) // 2])
    assert len(read_journal(path)) == 1
    path.write_text(good + "garbage\n" + good)
    with pytest.raises(JournalError, match=":2:"):
        read_journal(path)


def test_appending_after_a_torn_line_starts_a_fresh_line(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    good = _record().to_line()
    path.write_text(good + good[:40])
    with JournalWriter(path) as writer:
        writer.append(_record())
    assert read_journal(path) == [_record(), _record()]


def test_a_whole_last_line_without_its_break_is_kept_when_appending(tmp_path: Path) -> None:
    # Hunt i, S2: report counted such a line, and --resume then cut it as torn: the run
    # lost an answer every reader had counted (CERTIFIED n=40 became PARTIAL n=39).
    path = tmp_path / "results.jsonl"
    good = _record().to_line()
    path.write_text(good + good.rstrip("\n"))
    assert read_journal(path) == [_record(), _record()]
    with JournalWriter(path) as writer:
        writer.append(_record())
    assert read_journal(path) == [_record()] * 3


def test_a_lone_surrogate_in_model_text_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    record = _record(raw="odd \ud800 text")
    with JournalWriter(path) as writer:
        writer.append(record)
    assert path.read_bytes().isascii()
    assert read_journal(path) == [record]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_disk_names_the_path_the_run_and_how_to_resume(tmp_path: Path) -> None:
    journal = tmp_path / "results.jsonl"
    writer = JournalWriter(journal, "20261124T000000Z-abcdef")
    # The disk fills: the journal's descriptor now writes where every write fails so.
    full = os.open("/dev/full", os.O_WRONLY)
    os.dup2(full, writer._file.fileno())
    os.close(full)
    with pytest.raises(JournalError) as raised:
        writer.append(_record())
    message = str(raised.value)
    assert str(journal) in message and "no space is left on the device" in message
    assert "--resume 20261124T000000Z-abcdef" in message
    with pytest.raises(JournalError):
        writer.close()


def test_lines_are_forced_to_disk_within_the_interval_and_at_close(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd))[1])
    monkeypatch.setattr("verification.store.journal.FSYNC_INTERVAL", 0.0)
    writer = JournalWriter(tmp_path / "results.jsonl")
    writer.append(_record())
    writer.append(_record())
    assert len(synced) == 2, "an interval of 0 forces every line"
    monkeypatch.setattr("verification.store.journal.FSYNC_INTERVAL", 3600.0)
    writer.append(_record())
    assert len(synced) == 2, "a line within the interval waits"
    writer.close()
    assert len(synced) == 3, "close forces what waits"
    assert len(read_journal(tmp_path / "results.jsonl")) == 3


@pytest.mark.parametrize("kind", ["symlink", "fifo"])
def test_a_journal_that_is_no_regular_file_is_neither_followed_nor_written(
    tmp_path: Path, kind: str
) -> None:
    # Hunt o: a link planted at a run's results.jsonl had --resume append to the file it
    # named, outside the results folder.
    outside = tmp_path / "outside.txt"
    outside.write_text("not a journal\n")
    journal = tmp_path / "run" / "results.jsonl"
    journal.parent.mkdir()
    if kind == "symlink":
        journal.symlink_to(outside)
    else:
        os.mkfifo(journal)  # opened for appending, it would wait for a reader for ever
    with pytest.raises(JournalError, match=r"symbolic link|not a regular file"):
        JournalWriter(journal, "20261124T000000Z-abcdef")
    assert outside.read_text() == "not a journal\n"


@pytest.mark.parametrize("how", ["removed", "folder-moved"])
def test_a_journal_gone_from_its_path_while_written_is_said_at_close(
    tmp_path: Path, how: str
) -> None:
    # Hunt o: a run folder removed mid-run was made again at the end with a finished
    # manifest and full reports, and no journal: FAILED n=20, said without a word.
    journal = tmp_path / "run" / "results.jsonl"
    writer = JournalWriter(journal, "20261124T000000Z-abcdef")
    writer.append(_record())
    if how == "removed":
        journal.unlink()
    else:
        journal.parent.rename(tmp_path / "elsewhere")
    writer.append(_record())
    with pytest.raises(JournalError, match=r"removed or moved while run .* wrote it: the 2 answer"):
        writer.close()
