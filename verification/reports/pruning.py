"""``prune``: old runs made small, or deleted whole.

A nightly job keeps every run it made in one results folder, restored and uploaded again
each night: prune (:func:`prune_runs`) drops the raw model replies of every run but the
newest (history, ``compare`` and the regression gate read outcomes, parsed answers and
hashes, which stay), and :func:`delete_runs` removes the runs past a longer horizon
altogether, so the folder stops growing. A run in use and one linked in from elsewhere are
left alone; the run ``<output>/reports`` shows is not deleted."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from pathlib import Path

from verification.errors import JournalError, RunInUseError, StoredFileError
from verification.reports.history import scan_runs
from verification.reports.html import HTML_REPORT_NAME
from verification.store.journal import read_journal
from verification.store.paths import RunPaths
from verification.store.records import JOURNAL_SCHEMA, AttemptRecord
from verification.store.run_ids import is_run_id
from verification.store.stored_files import replace_atomically

__all__ = ["ALREADY_PRUNED", "DELETED", "delete_runs", "prune_runs"]

_KEPT_REPORTS = frozenset({"summary.json", "summary.md"})
"""What ``prune`` leaves in an old run's reports folder (the rest quotes model replies)."""


def _without_replies(journal: Path) -> tuple[str | None, int]:
    """``journal``'s text without raw replies, and the replies dropped (``None``: nothing
    to drop). A journal with a line that is no record (skipped when read: another
    version's, or a hand edit) is left as it is: rewritten from its records, that line
    would be lost."""
    records = read_journal(journal)
    if not journal.is_file():  # a run with no answer yet
        return None, 0
    lines = 0
    newer = 0
    with journal.open("rb") as file:
        for line in file:
            if line.strip():
                lines += 1
                newer += _of_another_version(line)
    if lines != len(records):
        raise JournalError(
            f"{lines - len(records)} line(s) of {journal} are no journal records of this "
            "version, kept as they are"
        )
    if newer:  # read as records, but rewritten from them they would lose what they hold
        raise JournalError(
            f"{newer} line(s) of {journal} hold fields or a schema of another version, kept "
            "as they are"
        )
    stripped = sum(r.raw_response is not None for r in records)
    if not stripped:
        return None, 0
    kept = (record.model_copy(update={"raw_response": None}) for record in records)
    return "".join(record.to_line() for record in kept), stripped


_KNOWN_KEYS = frozenset(AttemptRecord.model_fields) - {"schema_version"} | {"schema"}


def _of_another_version(line: bytes) -> bool:
    """Whether a journal line read as a record holds a key this version does not know, or
    another schema's number: rewriting it from its record would drop what it holds (a
    newer harness's field: hunt hh)."""
    try:
        data = json.loads(line)
    except ValueError:
        return False  # no record: counted as such by the caller
    if not isinstance(data, dict):
        return False
    return data.get("schema", JOURNAL_SCHEMA) != JOURNAL_SCHEMA or not data.keys() <= _KNOWN_KEYS


def _size(path: Path) -> int:
    return path.stat().st_size if path.is_file() else 0


def _shown_bytes(count: int) -> str:
    for unit, scale in (("MB", 1e6), ("kB", 1e3)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"


def prune_runs(results_dir: Path, keep: int) -> list[tuple[str, str]]:
    """Drop the raw replies of every run but the newest ``keep``: each journal is rewritten
    with its replies removed (outcomes, parsed answers, lengths and hashes stay, so history,
    ``compare`` and ``report`` still work) and the reports that quote replies (the scaffold
    reports, the page and the run's comparison pages) are deleted (the summary stays, its
    links to them made plain names). A run in use is left alone.
    Returns ``(run id, what was done and the bytes freed)`` for every older run."""
    done = []
    entries = scan_runs(results_dir)
    for entry in entries[: max(len(entries) - keep, 0)]:
        paths = RunPaths(results_dir, entry.run_id)
        try:
            _check_own_folder(paths)
            with paths.lock(then="prune again"):
                pruned, stripped = _without_replies(paths.journal)
                freed, removed, page = 0, 0, False
                # The reports go first: they free space at once, where rewriting the journal
                # needs some (prune on a full disk freed nothing).
                gone = []
                for report in sorted(paths.reports.iterdir()) if paths.reports.is_dir() else []:
                    quotes_replies = report.suffix == ".md" or report.name == HTML_REPORT_NAME
                    if quotes_replies and report.name not in _KEPT_REPORTS and report.is_file():
                        freed += _size(report)
                        report.unlink()
                        gone.append(report.name)
                        page = page or report.name == HTML_REPORT_NAME
                        removed += report.suffix == ".md"
                _unlink_in_summary(paths.reports / "summary.md", gone)
                compared = 0
                # Replies stripped now: every page of the run quotes them. Stripped before:
                # only a page older than the stripped journal does (one `compare --html`
                # wrote since quotes none: hunt rr).
                older = None if pruned is not None else _mtime(paths.journal)
                for other in _comparison_pages(results_dir, entry.run_id, older):
                    freed += _size(other)
                    other.unlink()
                    compared += 1
                kept = ""
                if pruned is not None:
                    before = _size(paths.journal)
                    try:
                        replace_atomically(paths.journal, pruned)
                    except OSError as exc:  # the reports are gone: say what was done
                        stripped = 0
                        kept = f"; its journal keeps its replies ({exc.strerror or exc})"
                    freed += before - _size(paths.journal)
        except (RunInUseError, JournalError, OSError) as exc:
            done.append((entry.run_id, _left_alone(exc)))
            continue
        if removed or page:
            _republish_if_shown(paths)
        if not (stripped or removed or page or kept or compared):
            done.append((entry.run_id, ALREADY_PRUNED))
            continue
        what = f"{stripped} replies and {removed} scaffold reports removed"
        if page:
            what += f", and the page ({HTML_REPORT_NAME}; `report {entry.run_id}` writes one "
            what += "without replies)"
        if compared:
            what += f", and {compared} comparison page(s) quoting them (`compare --html` "
            what += "writes one again)"
        # An older harness's journal, written again with the fields it lacked, may grow
        # more than its replies were (hunt af: "-676 bytes freed").
        size = (
            f"{_shown_bytes(freed)} freed"
            if freed >= 0
            else f"{_shown_bytes(-freed)} more (its journal written again in this version's "
            "format, with the fields an older harness left out)"
        )
        done.append((entry.run_id, f"{what}: {size}{kept}"))
    return done


def _unlink_in_summary(summary: Path, gone: list[str]) -> None:
    """The kept ``summary.md`` with its links to the reports just removed made plain names:
    they led nowhere (hunt pp). Left as it is where it cannot be read or written."""
    if not gone:
        return
    try:
        text = summary.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return
    pattern = "|".join(re.escape(name) for name in gone)
    plain = re.sub(rf"\[([^\]\n]*)\]\((?:{pattern})\)", r"\1", text)
    if plain != text:
        with contextlib.suppress(OSError):
            replace_atomically(summary, plain)


def _mtime(path: Path) -> int:
    """When ``path`` was last written (ns); -1 where it is not there."""
    try:
        return path.stat().st_mtime_ns
    except OSError:
        return -1


def _comparison_pages(results_dir: Path, run_id: str, older: int | None) -> list[Path]:
    """The comparison pages of ``run_id`` and another run (``comparisons/<A>-vs-<B>``), each
    quoting both runs' replies as they were when written: every one (``older`` ``None``), or
    those written before ``older`` (ns)."""
    folder = results_dir / "comparisons"
    if not folder.is_dir() or folder.is_symlink():
        return []
    pages = []
    for pair in sorted(folder.iterdir()):
        a, _, b = pair.name.partition("-vs-")
        page = pair / HTML_REPORT_NAME
        if run_id not in (a, b) or pair.is_symlink() or page.is_symlink() or not page.is_file():
            continue
        if older is None or _mtime(page) < older:
            pages.append(page)
    return pages


ALREADY_PRUNED = "already pruned: nothing left to remove"
"""What :func:`prune_runs` says of a run an earlier prune left with no reply."""


def _republish_if_shown(paths: RunPaths) -> None:
    """Publish the pruned reports of ``paths``' run again where ``<output>/reports`` shows
    that run (runs that overlapped leave an older one there): its published copy, hard
    links to the reports just removed, still quoted the replies prune promises to drop."""
    from verification.reports.publishing import publish_latest, published_run

    if published_run(paths.results_dir) == paths.run_id:
        publish_latest(paths)


def delete_runs(results_dir: Path, keep: int) -> list[tuple[str, str]]:
    """Delete every run but the newest ``keep`` whole: its folder, journal and reports
    (history, ``compare`` and the regression gate then reach back ``keep`` runs). A run in
    use and one whose folder is a symbolic link (an archive linked in, or another name for a
    run) are left alone, as is a folder with no manifest that can be read (said, never
    deleted unread); the run ``<output>/reports`` shows is not deleted (pruned as any).
    Returns ``(run id, what was done)`` for every older run and every such folder."""
    from verification.reports.publishing import published_run

    trash = results_dir / _TRASH
    if trash.is_symlink() or (trash.exists() and not trash.is_dir()):
        # A link would take the runs "deleted" elsewhere, whole (hunt z).
        raise StoredFileError(
            f"{trash} is no folder of its own (a symbolic link, or a file), so no run is "
            "moved there to be deleted: remove it and prune again"
        )
    done = _unread_runs(results_dir)
    shown = published_run(results_dir)
    _empty(trash)  # what an earlier prune could not remove whole
    entries = scan_runs(results_dir)
    for entry in entries[: max(len(entries) - keep, 0)]:
        paths = RunPaths(results_dir, entry.run_id)
        if entry.run_id == shown:
            # Not deleted; the prune after it strips its replies as any older run's (hunt yy
            # read "left alone" and then "replies removed" for the same run).
            done.append((entry.run_id, f"not deleted: {results_dir / 'reports'} shows it"))
            continue
        try:
            _check_own_folder(paths)
            with paths.lock(then="prune again"):
                freed = _folder_bytes(paths.run_dir)
                # Out of the runs folder in one step, then removed: a file that cannot be
                # removed leaves no half a run there (hunt y: its manifest gone, its folder
                # never seen again).
                trash.mkdir(exist_ok=True)
                os.rename(paths.run_dir, trash / entry.run_id)
        except (RunInUseError, JournalError, OSError) as exc:
            done.append((entry.run_id, _left_alone(exc)))
            continue
        left = _empty(trash)
        said = f"{DELETED}: {_shown_bytes(freed)} freed"
        if left:
            said = (
                f"{DELETED} from the history, but its folder could not be removed whole "
                f"({left}): the next prune removes what is left in {trash}"
            )
        done.append((entry.run_id, said))
    return done


_TRASH = ".deleted-runs"
"""Where :func:`delete_runs` moves a run before removing it, in the results folder."""


def _check_own_folder(paths: RunPaths) -> None:
    """:class:`JournalError` unless ``paths``' run folder is a folder of its own: an archive
    linked in is read by history, never rewritten, and a link to another run's folder (hunt
    y: named as an older run, it had the newest stripped) is that run's, not this one's."""
    paths.check_inside()
    if paths.run_dir.is_symlink():
        raise JournalError(
            "its folder is a symbolic link, and prune changes only folders of its own"
        )


def _empty(trash: Path) -> str:
    """Remove ``trash`` and all in it; the first thing that could not be removed, and why
    ("" when all was)."""
    failed: list[str] = []

    def note(function: object, path: str, exc_info: tuple[type, BaseException, object]) -> None:
        exc = exc_info[1]  # onerror's (Python 3.11 has no onexc)
        failed.append(f"{path} ({exc.strerror if isinstance(exc, OSError) else exc})")

    if trash.is_dir() and not trash.is_symlink():
        shutil.rmtree(trash, onerror=note)
    return failed[0] if failed else ""


def _unread_runs(results_dir: Path) -> list[tuple[str, str]]:
    """The folders of ``<output>/runs`` named as runs whose manifest cannot be read: said,
    and left alone (a run starting writes its manifest first; a damaged one holds answers
    nobody can fold)."""
    runs = results_dir / "runs"
    known = {entry.run_id for entry in scan_runs(results_dir)}
    try:
        folders = sorted(runs.iterdir()) if runs.is_dir() else []
    except OSError:
        return []
    return [
        (
            folder.name,
            "left alone: no manifest could be read; remove the folder by hand once no run "
            "is starting there",
        )
        for folder in folders
        if is_run_id(folder.name) and folder.is_dir() and folder.name not in known
    ]


def _left_alone(exc: Exception) -> str:
    """Why a run was left alone: the harness's words, or an OS error's file and reason (not
    Python's ``[Errno 28]``)."""
    if isinstance(exc, OSError):
        where = f" ({exc.filename})" if exc.filename else ""
        return f"left alone: {exc.strerror or exc}{where}"
    return f"left alone: {exc}"


DELETED = "deleted"
"""What :func:`delete_runs` says of a run it removed (before the bytes it freed)."""


def _folder_bytes(folder: Path) -> int:
    """The bytes of the regular files under ``folder`` (links not followed)."""
    return sum(
        path.lstat().st_size
        for path in folder.rglob("*")
        if path.is_file() and not path.is_symlink()
    )
