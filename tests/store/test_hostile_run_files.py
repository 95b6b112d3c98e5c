"""Stored files are untrusted input: every file the harness reads back (manifests, earlier
summaries, journals), damaged, hostile or of the wrong kind, through the real command line.

Each attack ends in a clear error that names the file (exit 2) or in a normal run that
skips the damaged earlier one; none exits 4, hangs, or writes outside the results folder.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest

from verification.cli import main
from verification.errors import JournalError
from verification.store import journal, manifests
from verification.store.journal import read_journal
from verification.store.manifests import read_manifest_file
from verification.store.stored_files import MAX_JSON_DEPTH

NAME = "kmp"


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


DRY_RUN = (NAME, "--provider", "reference", "--cases", "3")


def _dry_run(capsys: pytest.CaptureFixture[str], output: Path) -> tuple[int, str, str]:
    return _run(capsys, "verify", *DRY_RUN, "--output", str(output))


def _runs(output: Path) -> list[Path]:
    return sorted((output / "runs").iterdir())


@pytest.fixture
def earlier_run(made_runs: Callable[..., list[Path]], tmp_path: Path) -> Path:
    """A finished dry run's folder under ``tmp_path/results/runs`` (``_dry_run``'s, made once
    and copied: ``tests/store/conftest.py``)."""
    (run,) = made_runs(tmp_path / "results", DRY_RUN)
    assert _runs(tmp_path / "results") == [run]
    return run


def _edit_manifest(run: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    path = run / "manifest.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    edit(data)
    path.write_text(json.dumps(data), encoding="utf-8")


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _files_under(root: Path) -> set[Path]:
    return {path for path in root.rglob("*")}


# -- a manifest that names what is not a scaffold, provider or run --------------------


@pytest.mark.parametrize(
    ("edit", "complaint"),
    [
        (
            lambda m: m["scaffolds"].__setitem__("../../../../EVIL", m["scaffolds"].pop(NAME)),
            "is not a scaffold name",
        ),
        (lambda m: m.__setitem__("provider", {}), "names no provider"),
        (lambda m: m.__setitem__("provider", {"provider": "x`|<b>"}), "names no provider"),
        (lambda m: m.__setitem__("run_id", "../../elsewhere"), "not a run id"),
        (lambda m: m.__setitem__("tiers", ["simple\n# owned"]), "tiers"),
        (lambda m: m.__setitem__("run_label", "DRY RUN\n\n# CERTIFIED"), "holds more than"),
        (lambda m: m["scaffolds"][NAME].__setitem__("sha256", "`\n# x"), "not a sha256"),
        (lambda m: m.__setitem__("scaffolds", "kmp"), "scaffolds"),
        # Runs sort by it (hunt hh: any string was taken, and sorted as the newest).
        (lambda m: m.__setitem__("created_at", "<script>|x\x1b"), "not an ISO 8601 time"),
        (lambda m: m.__setitem__("created_at", "2026-11-28T09:07:39"), "with no offset"),
    ],
)
def test_report_refuses_a_manifest_that_is_not_one_and_writes_nothing(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    earlier_run: Path,
    edit: Callable[[dict[str, Any]], None],
    complaint: str,
) -> None:
    _edit_manifest(earlier_run, edit)
    before = _files_under(tmp_path)
    code, _, err = _run(capsys, "report", earlier_run.name, "--output", str(tmp_path / "results"))
    assert code == 2, err
    assert str(earlier_run / "manifest.json") in err and complaint in err
    assert _files_under(tmp_path) == before  # no EVIL.md, here or anywhere under tmp_path
    assert not (tmp_path.parent / "EVIL.md").exists()


@pytest.mark.parametrize("kind", ["nested", "fifo", "folder", "huge", "binary", "array"])
def test_a_damaged_manifest_is_refused_by_report_and_skipped_by_later_runs(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    earlier_run: Path,
    kind: str,
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    manifest = earlier_run / "manifest.json"
    original = json.loads(manifest.read_text(encoding="utf-8"))
    manifest.unlink()
    if kind == "nested":
        manifest.write_text(_nested(100_000), encoding="utf-8")
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(manifest)
    elif kind == "folder":
        manifest.mkdir()
    elif kind == "huge":
        # The bound sits just above a real manifest's size, so the next run's still reads.
        bound = len(json.dumps(original, indent=2)) + 1000
        monkeypatch.setattr(manifests, "MAX_MANIFEST_BYTES", bound)
        manifest.write_text(json.dumps({**original, "padding": "x" * bound}), encoding="utf-8")
    elif kind == "binary":
        manifest.write_bytes(b"\xff\xfe\x00{")
    else:
        manifest.write_text("[]", encoding="utf-8")
    code, _, err = _run(capsys, "report", earlier_run.name, "--output", str(tmp_path / "results"))
    assert code == 2 and str(manifest) in err, err
    # A new run, its report (the latest by default) and its resume all go on past it.
    code, _, err = _dry_run(capsys, tmp_path / "results")
    assert code == 0, err
    assert f"run {earlier_run.name} skipped" in caplog.text
    code, _, err = _run(capsys, "report", "--output", str(tmp_path / "results"))
    assert code == 0, err
    newer = next(run for run in _runs(tmp_path / "results") if run != earlier_run)
    code, _, err = _run(
        capsys,
        "verify",
        "--provider",
        "reference",
        "--resume",
        newer.name,
        "--output",
        str(tmp_path / "results"),
    )
    assert code == 0, err


# -- an earlier run's summary.json ---------------------------------------------------------


def _edit_summary(run: Path, edit: Callable[[dict[str, Any]], None]) -> None:
    for path in (run / "reports" / "summary.json",):
        data = json.loads(path.read_text(encoding="utf-8"))
        edit(data)
        path.write_text(json.dumps(data), encoding="utf-8")


@pytest.mark.parametrize(
    "edit",
    [
        lambda s: s.pop("run_id"),
        lambda s: s["scaffolds"].__setitem__(NAME, "CERTIFIED"),
        lambda s: s.__setitem__("scaffolds", ["kmp"]),
        lambda s: s["scaffolds"][NAME].__setitem__("status", "**FAILED** | <b>x</b>\n# owned"),
        lambda s: s.__setitem__("run_id", "x` | <img src=y>\n# owned"),
        lambda s: s.clear(),
        # Another run's summary copied in (hunt hh: history and the gate's "Before" column
        # showed its status as this run's).
        lambda s: s.__setitem__("run_id", "20261128T000000Z-a0a0a0"),
    ],
)
def test_a_damaged_earlier_summary_is_skipped_and_never_reaches_the_new_one(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    earlier_run: Path,
    edit: Callable[[dict[str, Any]], None],
    caplog: pytest.LogCaptureFixture,
) -> None:
    _edit_summary(earlier_run, edit)
    code, _, err = _dry_run(capsys, tmp_path / "results")
    assert code == 0, err
    summary_json = earlier_run / "reports" / "summary.json"
    assert f"earlier summary skipped: {summary_json}" in caplog.text
    # One line that says where, not pydantic's dump with its links (hunt hh).
    assert "errors.pydantic.dev" not in caplog.text and "validation error" not in caplog.text
    newer = next(run for run in _runs(tmp_path / "results") if run != earlier_run)
    summary = (newer / "reports" / "summary.md").read_text(encoding="utf-8")
    assert "owned" not in summary and "<b>" not in summary and "<img" not in summary
    data = json.loads((newer / "reports" / "summary.json").read_text(encoding="utf-8"))
    assert data.get("previous_run_id") is None


def test_an_intact_earlier_summary_is_still_compared(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, earlier_run: Path
) -> None:
    """The control of the test above: the same run, undamaged, is the previous run."""
    code, _, err = _dry_run(capsys, tmp_path / "results")
    assert code == 0, err
    newer = next(run for run in _runs(tmp_path / "results") if run != earlier_run)
    data = json.loads((newer / "reports" / "summary.json").read_text(encoding="utf-8"))
    assert data["previous_run_id"] == earlier_run.name


@pytest.mark.parametrize("kind", ["nested", "fifo", "folder"])
def test_an_earlier_summary_of_the_wrong_kind_is_skipped(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    earlier_run: Path,
    kind: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = earlier_run / "reports" / "summary.json"
    path.unlink()
    if kind == "nested":
        path.write_text('{"run_id": "x", "scaffolds": ' + _nested(50_000) + "}")
    elif kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    else:
        path.mkdir()
    code, _, err = _dry_run(capsys, tmp_path / "results")
    assert code == 0, err
    assert f"earlier summary skipped: {path}" in caplog.text


# -- journals ------------------------------------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "folder", "nested", "deep", "binary"])
def test_report_refuses_a_journal_that_is_not_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, earlier_run: Path, kind: str
) -> None:
    path = earlier_run / "results.jsonl"
    first = path.read_text(encoding="utf-8").splitlines()[0]
    path.unlink()
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        bad = {
            "nested": _nested(100_000),
            "deep": first.replace('"input": {', '"input": {"x": ' + _nested(MAX_JSON_DEPTH) + ", "),
            "binary": "\udcff",
        }[kind]
        # A bad line that is not the last one is damage, not a run killed mid-write.
        path.write_text(
            bad + "\n" + first + "\n",
            encoding="utf-8",
            errors="surrogateescape",
        )
    code, _, err = _run(capsys, "report", earlier_run.name, "--output", str(tmp_path / "results"))
    assert code == 2, err
    assert str(path) in err


def test_a_journal_line_longer_than_the_bound_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, earlier_run: Path
) -> None:
    path = earlier_run / "results.jsonl"
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    longest = max(len(line.encode("utf-8")) for line in lines)
    monkeypatch.setattr(journal, "MAX_JOURNAL_LINE_BYTES", longest)
    assert len(read_journal(path)) == len(lines)  # at the bound: read
    monkeypatch.setattr(journal, "MAX_JOURNAL_LINE_BYTES", longest - 1)
    with pytest.raises(JournalError, match="longer than"):
        read_journal(path)


def test_the_manifest_a_run_writes_reads_back(earlier_run: Path) -> None:
    """The rules above refuse hostile manifests, not the harness's own."""
    manifest = read_manifest_file(earlier_run / "manifest.json")
    assert list(manifest.scaffolds) == [NAME]


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges")
def test_a_manifest_linked_to_a_device_is_not_read(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, earlier_run: Path
) -> None:
    manifest = earlier_run / "manifest.json"
    manifest.unlink()
    manifest.symlink_to("/dev/zero")
    code, _, err = _run(capsys, "report", earlier_run.name, "--output", str(tmp_path / "results"))
    assert code == 2 and "not a regular file" in err, err


# -- the stored draft path, and the resume hint ------------------------------------------


def _draft_run(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, replies: list[dict[str, Any]]
) -> tuple[int, str, Path]:
    """A kmp run of two cases on a draft scaffold file, answered by a replay file."""
    from verification.config import packaged_scaffolds_dir
    from verification.registry import get_spec

    draft = tmp_path / "kmp-draft.md"
    original = (packaged_scaffolds_dir() / get_spec("kmp").scaffold_file).read_text("utf-8")
    draft.write_text(original + "\nDRAFT MARKER\n", encoding="utf-8")
    replay = tmp_path / "replay.jsonl"
    replay.write_text("".join(json.dumps(line) + "\n" for line in replies), encoding="utf-8")
    code, _, err = _run(
        capsys,
        "verify",
        NAME,
        "--scaffold-file",
        str(draft),
        "--provider",
        "replay",
        "--replay-file",
        str(replay),
        *("--case", "kmp-simple-000", "--case", "kmp-simple-001"),
        "--output",
        str(tmp_path / "results"),
    )
    return code, err, draft


def _right_replies(ids: list[str]) -> list[dict[str, Any]]:
    from verification.registry import DEFAULT_SEED, get_spec
    from verification.runner import plan_cases

    spec = get_spec(NAME)
    cases = plan_cases([NAME], seed=DEFAULT_SEED, cases=1, case_ids=ids)[NAME]
    return [{"case_id": c.id, "text": spec.render_answer(c.expected)} for c in cases]


def _hinted_argv(err: str) -> list[str]:
    import shlex

    (line,) = [line for line in err.splitlines() if "continue with: " in line]
    words = shlex.split(line.split("continue with: ", 1)[1])
    return words[words.index("verify") :]


def test_the_resume_hint_of_a_stopped_draft_run_resumes_it(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    ids = ["kmp-simple-000", "kmp-simple-001"]
    stop = [{"case_id": ids[0], "error": "auth"}, *_right_replies(ids[1:])]
    code, err, _ = _draft_run(capsys, tmp_path, stop)
    assert code == 2, err
    argv = _hinted_argv(err)
    assert "--scaffold-file" not in argv  # the run's manifest names the draft
    (tmp_path / "replay.jsonl").write_text(
        "".join(json.dumps(line) + "\n" for line in _right_replies(ids)), encoding="utf-8"
    )
    code, _, err = _run(capsys, *argv)
    assert code == 0, err
    (run,) = _runs(tmp_path / "results")
    assert {r.case_id for r in read_journal(run / "results.jsonl") if r.outcome == "passed"} == set(
        ids
    )


@pytest.mark.parametrize("damage", ["edited", "device", "other_scaffold"])
def test_a_stored_draft_path_is_used_only_while_its_text_is_the_one_hashed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, damage: str
) -> None:
    ids = ["kmp-simple-000", "kmp-simple-001"]
    code, err, draft = _draft_run(capsys, tmp_path, [{"case_id": ids[0], "error": "auth"}])
    assert code == 2, err
    (run,) = _runs(tmp_path / "results")
    if damage == "edited":
        draft.write_text(draft.read_text("utf-8") + "\nEDITED\n", encoding="utf-8")
    else:  # the manifest now points elsewhere, its sha256 unchanged
        from verification.config import packaged_scaffolds_dir

        target = "/dev/zero" if damage == "device" else packaged_scaffolds_dir() / "graph/bfs.md"
        _edit_manifest(run, lambda m: m["scaffolds"][NAME].__setitem__("file", str(target)))
    code, _, err = _run(capsys, *_hinted_argv(err))
    assert code == 2
    assert "scaffold kmp changed since" in err
    assert len(read_journal(run / "results.jsonl")) == 1  # nothing more was asked


@pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX")
def test_a_lock_file_holding_escape_codes_is_not_printed(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, earlier_run: Path
) -> None:
    import fcntl

    with (earlier_run / "lock").open("w") as lock:
        lock.write("\x1b[2J\x1b[31m4242")
        lock.flush()
        fcntl.flock(lock.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        code, _, err = _run(
            capsys,
            "verify",
            "--provider",
            "reference",
            "--resume",
            earlier_run.name,
            "--output",
            str(tmp_path / "results"),
        )
    assert code == 2
    assert "is in use by process unknown" in err and "\x1b" not in err


def test_runs_sort_by_the_instant_they_were_made_whatever_its_offset(
    made_runs: Callable[..., list[Path]], tmp_path: Path
) -> None:
    """Hunt hh: the same instant written an hour east (``10:07+01:00`` for ``09:07+00:00``)
    sorted as text after a later run: the gate compared with another previous run, and
    ``prune --keep 1`` stripped the newest run's replies."""
    output = tmp_path / "results"
    first, second = made_runs(output, DRY_RUN, (*DRY_RUN, "--seed", "7"))
    made = {run: read_manifest_file(run / "manifest.json").created_at for run in (first, second)}
    older, newer = sorted(made, key=lambda run: made[run])
    # The older run's instant written an hour later, at an hour's offset: still the older.
    when = datetime.fromisoformat(made[older])
    shifted = when.astimezone(timezone(timedelta(hours=1))).isoformat()
    assert shifted > made[newer] > made[older]  # as text, it would sort last
    _edit_manifest(older, lambda m: m.__setitem__("created_at", shifted))
    assert read_manifest_file(older / "manifest.json").created_at == made[older]
    assert manifests.latest_run_id(output) == newer.name


def test_a_run_with_answers_but_no_manifest_is_skipped_with_a_warning(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    earlier_run: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Hunt hh: ``history`` left such a run out without a word, where ``report`` named it.
    A folder with no journal either (a run whose provider never started) stays silent."""
    (earlier_run / "manifest.json").unlink()
    unstarted = earlier_run.parent / "20261128T000000Z-b0b0b0"
    unstarted.mkdir()
    code, _, err = _run(capsys, "history", "--output", str(tmp_path / "results"))
    assert code == 0, err
    said = f"run {earlier_run.name} skipped: it has a journal but no manifest.json"
    assert said in caplog.text and unstarted.name not in caplog.text


def test_a_reports_folder_made_a_file_is_told_what_stands_there(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, earlier_run: Path
) -> None:
    """Hunt hh: ``report`` said the OS's bare "File exists: .../reports"."""
    shutil.rmtree(earlier_run / "reports")
    (earlier_run / "reports").write_text("", encoding="utf-8")
    code, _, err = _run(capsys, "report", earlier_run.name, "--output", str(tmp_path / "results"))
    assert code == 2, err
    assert f"{earlier_run / 'reports'}: a file stands where a folder goes" in err
