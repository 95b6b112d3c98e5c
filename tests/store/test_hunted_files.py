"""Files read back that a helper's hunt damaged (counts no run can hold, dates past year
9999, lines of another version, a database of another program): each now gives a warning or
a usage error and loses nothing, where it crashed (exit 4) or dropped data."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest
from markdown_it import MarkdownIt

from verification.cli import main
from verification.errors import JournalError
from verification.store.journal import read_journal

CONTROLS = "\x1b\x07\x9b"


def _run(output: Path, *names: str, extra: tuple[str, ...] = ()) -> Path:
    """A dry run of ``names`` (dijkstra and kmp by default) in ``output``: its folder."""
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    argv = ["verify", *(names or ("dijkstra", "kmp")), "--provider", "reference"]
    assert main([*argv, "--cases", "6", "--output", str(output), *extra]) == 0
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _edit_json(path: Path, edit: Callable[[Any], None]) -> None:
    data = json.loads(path.read_text("utf-8"))
    edit(data)
    path.write_text(json.dumps(data), "utf-8")


@pytest.mark.parametrize(("field", "value"), [("n", -3), ("score", 100.0), ("score", 1e308)])
def test_a_summary_with_counts_no_run_holds_stops_no_later_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, value: float
) -> None:
    first = _run(tmp_path)
    _edit_json(
        first / "reports" / "summary.json",
        lambda data: data["scaffolds"]["dijkstra"].update({field: value}),
    )
    second = _run(tmp_path)  # its trend chart pools the earlier summaries: exit 0, not 4
    assert main(["report", second.name, "--output", str(tmp_path)]) == 0
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-23:59", "0001-01-01T00:00:00+23:59"])
def test_a_manifest_dated_past_any_date_is_shown_as_written(tmp_path: Path, moment: str) -> None:
    run = _run(tmp_path)
    _edit_json(run / "manifest.json", lambda data: data.update({"created_at": moment}))
    assert main(["report", run.name, "--output", str(tmp_path)]) == 0
    assert moment in (tmp_path / "index.html").read_text("utf-8")
    _run(tmp_path)  # every run writes the index again


@pytest.mark.parametrize(
    ("newer", "said"),
    [
        ({"outcome": "skipped"}, "0 older run(s) pruned"),  # a newer harness's word: no record
        # Hunt hh: these read as records (a field added later is optional), and prune
        # rewrote the line from its record, what it held dropped.
        ({"added_later": {"x": 1}}, "another version"),
        ({"schema": 2}, "another version"),
    ],
    ids=["an outcome of another version", "a field added later", "another schema"],
)
def test_prune_leaves_a_journal_with_a_line_of_another_version_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, newer: dict[str, Any], said: str
) -> None:
    old = _run(tmp_path)
    _run(tmp_path)
    journal = old / "results.jsonl"
    lines = journal.read_text("utf-8").splitlines(keepends=True)
    lines[2] = json.dumps({**json.loads(lines[2]), **newer}) + "\n"
    journal.write_text("".join(lines), "utf-8")
    capsys.readouterr()
    assert main(["prune", "--keep", "1", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert journal.read_text("utf-8") == "".join(lines)
    assert "left alone" in out and said in out


def test_a_whole_last_line_that_is_no_record_is_damage_and_a_torn_one_is_skipped(
    tmp_path: Path,
) -> None:
    run = _run(tmp_path)
    journal = run / "results.jsonl"
    text = journal.read_text("utf-8")
    journal.write_text(text + "[1, 2]\n", "utf-8")  # whole: no crash writes a line break
    with pytest.raises(JournalError, match="not a journal record"):
        read_journal(journal)
    assert main(["verify", "--resume", run.name, "--output", str(tmp_path)]) == 2
    assert journal.read_text("utf-8") == text + "[1, 2]\n"  # nothing appended after it
    journal.write_text(text + '{"case_id": "dijk', "utf-8")  # torn by a kill mid-write
    assert len(read_journal(journal)) == len(text.splitlines())


def test_journalled_leniencies_are_escaped_in_the_markdown_report(tmp_path: Path) -> None:
    run = _run(tmp_path)
    hostile = "\x1b[2J\x1b]0;title\x07<script>alert(1)</script>\n# Injected heading\n```"
    journal = run / "results.jsonl"
    lines = [json.loads(line) for line in journal.read_text("utf-8").splitlines()]
    first = next(i for i, line in enumerate(lines) if line["scaffold"] == "dijkstra")
    lines[first]["leniency"] = [hostile]
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    assert main(["report", run.name, "--output", str(tmp_path)]) == 0
    report = (run / "reports" / "dijkstra.md").read_text("utf-8")
    (line,) = [line for line in report.splitlines() if line.startswith("Leniencies used")]
    # One code span on one line: Markdown shows what it holds as text, markup and all.
    (paragraph,) = [t for t in MarkdownIt("commonmark").parse(line) if t.type == "inline"]
    (span,) = [t.content for t in paragraph.children or () if t.type == "code_inline"]
    assert "<script>alert(1)</script> # Injected heading ```" in span
    assert line.endswith(" x1.")
    assert not any(row.startswith("# Injected") for row in report.splitlines())
    assert not any(char in report for char in CONTROLS)


def test_history_escapes_a_summary_s_scaffold_names(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    run = _run(tmp_path)
    forged = "\x1b[2J\x1b[31mPWNED\x1b[0m\nfake line"
    _edit_json(
        run / "reports" / "summary.json",
        lambda data: data["scaffolds"].update({forged: data["scaffolds"].pop("dijkstra")}),
    )
    capsys.readouterr()
    assert main(["history", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\\x1b[31mPWNED" in out
    assert not any(line.startswith("fake line") for line in out.splitlines())


def test_a_negative_token_count_from_a_replay_file_is_left_out(tmp_path: Path) -> None:
    replay = tmp_path / "replay.jsonl"
    line = {"case_id": "dijkstra-simple-000", "raw_response": "x", "usage": {"input_tokens": -5}}
    replay.write_text(json.dumps(line) + "\n", "utf-8")
    argv = ["verify", "dijkstra", "--provider", "replay", "--replay-file", str(replay)]
    code = main([*argv, "--case", "dijkstra-simple-000", "--output", str(tmp_path / "out")])
    assert code == 1  # the reply "x" fails: judged, not an internal error
    (record,) = read_journal(next((tmp_path / "out" / "runs").iterdir()) / "results.jsonl")
    assert record.outcome == "failed" and "input_tokens" not in record.usage


def test_cache_stats_keeps_another_program_s_database_whole(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "cache.sqlite3"
    with closing(sqlite3.connect(path)) as db:
        db.execute("CREATE TABLE responses (a)")
        db.execute("INSERT INTO responses VALUES ('precious')")
        db.commit()
    before = path.read_bytes()
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == 2
    assert "not a response cache" in capsys.readouterr().err
    assert path.read_bytes() == before


def _cache_with_rows(folder: Path, rows: list[dict[str, Any]]) -> None:
    """A response cache in ``folder`` holding ``rows``, as a hand or another program put
    them there (every other column a short text)."""
    from verification.llm.cache.responses import ResponseCache

    cache = ResponseCache(folder / "cache.sqlite3")
    assert cache.open()
    with closing(sqlite3.connect(cache.path)) as db:
        columns = [row[1] for row in db.execute("PRAGMA table_info(responses)")]
        for index, values in enumerate(rows):
            row = {name: f"x{index}" for name in columns} | values
            db.execute(
                f"INSERT INTO responses ({', '.join(row)}) VALUES ({', '.join('?' * len(row))})",
                list(row.values()),
            )
        db.commit()


def test_cache_stats_shows_no_credentials_a_row_was_edited_to_hold(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _cache_with_rows(tmp_path, [{"server": "http://user:hunter2@example.test/v1", "hits": -5}])
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out.replace(str(tmp_path), "<cache folder>")  # pytest-5xx
    assert "example.test" in out and "hunter2" not in out and "-5" not in out


def test_cache_stats_reads_rows_of_any_length_bytes_and_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Hunt yy: a hits count past SUM's range or a model name that is no UTF-8 made every
    # `cache stats` fail (advising a writable folder), and a server's 200,000-character model
    # name padded every row to its width.
    rows = [
        {"model": "m" * 200_000, "hits": 2**63 - 1},
        {"model": b"caf\xe9 \xff", "hits": 2**63 - 1},
        {"model": "short", "hits": 3},
    ]
    _cache_with_rows(tmp_path, rows)
    assert main(["cache", "stats", "--cache-dir", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert max(len(line) for line in out.splitlines()[1:]) < 400
    assert "short" in out and "caf\ufffd" in out


@pytest.mark.parametrize(("field", "value"), [("cases", 0), ("samples", 0), ("samples", 10**6)])
def test_a_manifest_s_counts_out_of_range_are_the_manifest_s_fault(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, field: str, value: int
) -> None:
    # Hunt yy: a resume blamed --cases or --samples, which nobody gave; report certified, or
    # called the planned cases unplanned.
    run = _run(tmp_path, "kmp")
    _edit_json(run / "manifest.json", lambda data: data.update({field: value}))
    capsys.readouterr()
    for argv in (["report", run.name], ["verify", "--resume", run.name]):
        assert main([*argv, "--output", str(tmp_path)]) == 2
        err = capsys.readouterr().err
        assert "manifest.json" in err and field in err and f"--{field}" not in err, err


def test_merge_refuses_a_shard_past_its_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    shards = [_run(tmp_path, extra=("--shard", f"{i}/2")) for i in (1, 2)]
    _edit_json(shards[0] / "manifest.json", lambda data: data["shard"].update({"index": 3}))
    merged = tmp_path / "merged"
    assert main(["merge", *map(str, shards), "--output", str(merged)]) == 2
    assert "shard 3 of 2" in capsys.readouterr().err
    assert not (merged / "runs").exists()


def test_an_envelope_s_worst_case_read_back_is_a_number() -> None:
    from pydantic import ValidationError

    from verification.store.manifests import EnvelopeRecord

    for worst in (float("inf"), float("nan")):  # shown as "$inf at worst" before
        with pytest.raises(ValidationError):
            EnvelopeRecord.model_validate({"next_worst_usd": worst})
    assert EnvelopeRecord.model_validate({"next_worst_usd": 0.25}).next_worst_usd == 0.25


def test_prune_of_an_older_journal_that_grows_says_so(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Hunt af: an older harness's journal, written again with the fields it lacked, grew
    # more than its replies were, and prune said "-676 bytes freed".
    from verification.store.records import AttemptRecord

    old = _run(tmp_path)
    _run(tmp_path)
    journal = old / "results.jsonl"
    later = [name for name, field in AttemptRecord.model_fields.items() if not field.is_required()]
    lines = []
    for line in journal.read_text("utf-8").splitlines():
        record = json.loads(line)
        for name in later:  # as an older harness wrote it: none of the fields added later
            record.pop(name, None)
        lines.append(json.dumps(record, separators=(",", ":")) + "\n")
    journal.write_text("".join(lines), "utf-8")
    shutil.rmtree(old / "reports")  # killed before its reports, as the hunt's run was
    before = journal.stat().st_size
    capsys.readouterr()
    assert main(["prune", "--keep", "1", "--output", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    grown = journal.stat().st_size - before
    assert grown > 0, "the point of the test: the journal grew"
    assert not re.search(r"-[0-9.]+ (bytes|kB|MB)", out), out
    assert "more (its journal written again in this version's format" in out
