"""Where reports are written, given hostile folders and files (issue 24 items 9 and 12):
a run or reports folder linked out of the results folder is never written through (not by
``report``, ``prune`` or publishing); a FIFO or a folder where a report or ``compare
--html`` page goes is refused with a clear error instead of blocking or a bare "Is a
directory"; a page cuts long parsed answers as it cuts replies.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
import threading
from pathlib import Path

import pytest

from verification.cli import main
from verification.config import load_settings
from verification.reports.generator import write_run_reports
from verification.reports.shown import SHOWN_ANSWER_CHARS
from verification.runner import VerificationRunner

NAME = "kmp"

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="links and FIFOs are POSIX")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _dry_run(capsys: pytest.CaptureFixture[str], output: Path) -> Path:
    before = set((output / "runs").iterdir()) if (output / "runs").is_dir() else set()
    code, _, err = _run(
        capsys, "verify", NAME, "--provider", "reference", "--cases", "3", "--output", str(output)
    )
    assert code == 0, err
    (run,) = set((output / "runs").iterdir()) - before
    return run


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {
        str(path.relative_to(folder)): path.read_bytes()
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }


def _archived(run: Path, archive: Path) -> Path:
    """Move ``run`` to ``archive`` and leave a symbolic link to it in its place."""
    moved = archive / run.name
    shutil.move(run, moved)
    run.symlink_to(moved, target_is_directory=True)
    return moved


# -- item 9: links out of the results folder -------------------------------------------------


def test_prune_leaves_a_run_linked_in_from_an_archive_alone(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Before: `prune --keep 1` rewrote the archive's journal and deleted its reports.
    output = tmp_path / "results"
    older = _dry_run(capsys, output)
    _dry_run(capsys, output)
    archive = tmp_path / "archive"
    archive.mkdir()
    moved = _archived(older, archive)
    before = _snapshot(archive)
    code, out, err = _run(capsys, "prune", "--keep", "1", "--output", str(output))
    assert code == 0, err
    assert f"{older.name}: left alone" in out and "leads out of the results folder" in out
    assert _snapshot(archive) == before and (moved / "reports" / f"{NAME}.md").is_file()


@pytest.mark.parametrize("linked", ["run", "reports"])
def test_report_writes_nothing_through_a_folder_linked_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, linked: str
) -> None:
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    archive = tmp_path / "archive"
    archive.mkdir()
    _archived(run if linked == "run" else run / "reports", archive)
    before = _snapshot(archive)
    code, _, err = _run(capsys, "report", run.name, "--output", str(output))
    assert code == 2, err
    assert "leads out of the results folder" in err and "Traceback" not in err
    assert _snapshot(archive) == before


def test_publishing_never_empties_a_folder_the_published_link_points_at(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    _dry_run(capsys, output)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine", encoding="utf-8")
    shutil.rmtree(output / ".published")
    (output / ".published").symlink_to(elsewhere, target_is_directory=True)
    _dry_run(capsys, output)
    assert _snapshot(elsewhere) == {"keep.txt": b"mine"}


def test_compare_writes_no_default_page_through_a_comparisons_link_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    first, second = _dry_run(capsys, output), _dry_run(capsys, output)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (output / "comparisons").symlink_to(elsewhere, target_is_directory=True)
    code, _, err = _run(
        capsys, "compare", first.name, second.name, "--html", "--output", str(output)
    )
    assert code == 2 and "leads out of the results folder" in err, err
    assert list(elsewhere.iterdir()) == []


def test_a_runs_folder_linked_out_is_refused_before_a_run_asks_anything(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Hunt yy: every case was asked and journalled through the link, then the reports were
    # refused ("nothing is written there", though the journal was), and so was the remedy.
    output, disk = tmp_path / "results", tmp_path / "disk" / "runs"
    disk.mkdir(parents=True)
    output.mkdir()
    (output / "runs").symlink_to(disk, target_is_directory=True)
    argv = ("verify", NAME, "--provider", "reference", "--cases", "3", "--output", str(output))
    code, _, err = _run(capsys, *argv)
    assert code == 2 and f"{output / 'runs'} is a symbolic link out of the results folder" in err
    assert "name the folder that holds the runs as --output" in err
    assert list(disk.iterdir()) == []  # nothing asked, nothing written through the link
    _dry_run(capsys, disk.parent)  # the folder the link leads to, named: a run as any other


# -- item 12: FIFOs and folders where a report goes; the page's answers ------------------------


BLOCKED_AFTER_S = 120
"""How long a command writing beside a FIFO may take before it is held to be blocked."""


def _beside_a_fifo(
    capsys: pytest.CaptureFixture[str], fifo: Path, *argv: str
) -> tuple[int | None, str]:
    """The command line with ``argv`` in a thread of this process, and what it wrote on
    standard error: a command blocked opening ``fifo`` (a FIFO no one reads) is let go (the
    FIFO opened for reading and closed again) and its exit code is None, so a FIFO that
    blocks fails the test instead of hanging the run."""
    codes: list[int] = []

    def command() -> None:
        codes.append(main(list(argv)))  # an error it raises is printed, with its traceback

    thread = threading.Thread(target=command, name=f"verification {argv[0]}", daemon=True)
    thread.start()
    thread.join(BLOCKED_AFTER_S)
    if thread.is_alive():
        os.close(os.open(fifo, os.O_RDONLY | os.O_NONBLOCK))
        thread.join(BLOCKED_AFTER_S)
        return None, capsys.readouterr().err
    return (codes[0] if codes else None), capsys.readouterr().err


def test_report_into_a_fifo_is_refused_not_blocked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    summary = run / "reports" / "summary.md"
    summary.unlink()
    os.mkfifo(summary)
    code, err = _beside_a_fifo(capsys, summary, "report", run.name, "--output", str(output))
    assert code == 2, err
    assert f"{summary}: not a regular file" in err and "Traceback" not in err


def test_compare_html_into_a_fifo_is_refused_not_blocked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    output = tmp_path / "results"
    first, second = _dry_run(capsys, output), _dry_run(capsys, output)
    fifo = tmp_path / "page.html"
    os.mkfifo(fifo)
    argv = ["compare", first.name, second.name, "--html", str(fifo), "--output", str(output)]
    code, err = _beside_a_fifo(capsys, fifo, *argv)
    assert code == 2, err
    assert f"{fifo}: not a regular file" in err and "Traceback" not in err


def test_compare_html_into_a_folder_says_what_is_wrong(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Before: "error: Is a directory" and the path, nothing more.
    output = tmp_path / "results"
    first, second = _dry_run(capsys, output), _dry_run(capsys, output)
    folder = tmp_path / "pages"
    folder.mkdir()
    argv = ["compare", first.name, second.name, "--html", str(folder), "--output", str(output)]
    code, _, err = _run(capsys, *argv)
    assert code == 2 and f"{folder} is a folder: give a file's name" in err, err
    assert list(folder.iterdir()) == []


def test_a_page_cuts_long_parsed_answers_as_it_cuts_replies(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Before: every parsed answer went into the page whole (99 answers of 0.5-1 MB: 44 MB).
    output = tmp_path / "results"
    run = _dry_run(capsys, output)
    journal = run / "results.jsonl"
    lines = [json.loads(line) for line in journal.read_text(encoding="utf-8").splitlines()]
    huge = list(range(100_000))  # about 600,000 characters of JSON
    for line in lines:
        line.update(outcome="failed", level=3, reason="wrong", answer={"positions": huge})
    journal.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    page = run / "reports" / "index.html"
    code, _, err = _run(capsys, "report", run.name, "--output", str(output))
    assert code == 1, err
    text = page.read_text(encoding="utf-8")
    assert len(text) < 200_000 + 2 * SHOWN_ANSWER_CHARS * len(lines)
    assert text.count("characters; the journal holds them all") == len(lines)


def test_publishing_links_no_symbolic_link_or_fifo_left_in_a_runs_reports(tmp_path: Path) -> None:
    output = tmp_path / "out"
    secret = tmp_path / "secret.txt"
    secret.write_text("not a report\n")
    run = asyncio.run(
        VerificationRunner(load_settings(results_dir=output, cases=2, provider="reference")).run(
            ["kmp"]
        )
    )
    run.paths.reports.mkdir(parents=True, exist_ok=True)
    (run.paths.reports / "planted.md").symlink_to(secret)  # out of the results folder
    os.mkfifo(run.paths.reports / "pipe.md")  # opened to be copied, it would wait for ever
    write_run_reports(run.paths, run.manifest, run.results)
    published = {p.name for p in (output / "reports").iterdir()}
    assert {"kmp.md", "summary.md", "summary.json", "index.html"} <= published
    assert not published & {"planted.md", "pipe.md"}


def test_a_folder_where_the_results_index_goes_is_told_to_move(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Hunt hh: ``view`` said "give a file's name to write there" of the index's own name."""
    output = tmp_path / "results"
    _dry_run(capsys, output)
    shutil.rmtree(output / "index.html", ignore_errors=True)
    (output / "index.html").unlink(missing_ok=True)
    (output / "index.html").mkdir()
    code, _, err = _run(capsys, "view", "--output", str(output))
    assert code == 2, err
    assert "is a folder where the results index goes: move it away" in err
    assert "give a file's name" not in err


def test_a_reports_folder_the_harness_did_not_write_is_told_to_move(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture, tmp_path: Path
) -> None:
    """Hunt af: an early version's copied ``reports`` folder (no marker) was "not written by
    the harness" for good, and nothing said what would let the latest reports in."""
    output = tmp_path / "results"
    (output / "reports").mkdir(parents=True)
    (output / "reports" / "summary.md").write_text("# an early version's copy\n", "utf-8")
    _dry_run(capsys, output)
    assert "move it aside, and the next run publishes its reports there" in caplog.text
    assert (output / "reports" / "summary.md").read_text("utf-8") == "# an early version's copy\n"
    shutil.move(output / "reports", tmp_path / "aside")
    run = _dry_run(capsys, output)
    assert (output / "reports").resolve().name.startswith(run.name)
