"""``prune``: old runs made small, or deleted whole.

A nightly job keeps every run it made in one results folder, restored and uploaded again
each night: prune (:func:`prune_runs`) drops the raw model replies of every run but the
newest (history, ``compare`` and the regression gate read outcomes, parsed answers and
hashes, which stay), and :func:`delete_runs` removes the runs past a longer horizon
altogether, so the folder stops growing. A run in use, one linked in from elsewhere and
the run ``<output>/reports`` shows are left alone."""

from __future__ import annotations

import shutil
from pathlib import Path

from verification.errors import JournalError, RunInUseError
from verification.reports.history import scan_runs
from verification.reports.html import HTML_REPORT_NAME
from verification.store.journal import read_journal
from verification.store.paths import RunPaths
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
    with journal.open("rb") as file:
        lines = sum(1 for line in file if line.strip())
    if lines != len(records):
        raise JournalError(
            f"{lines - len(records)} line(s) of {journal} are no journal records of this "
            "version, kept as they are"
        )
    stripped = sum(r.raw_response is not None for r in records)
    if not stripped:
        return None, 0
    kept = (record.model_copy(update={"raw_response": None}) for record in records)
    return "".join(record.to_line() for record in kept), stripped


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
    reports and the page) are deleted (the summary stays). A run in use is left alone.
    Returns ``(run id, what was done and the bytes freed)`` for every older run."""
    done = []
    entries = scan_runs(results_dir)
    for entry in entries[: max(len(entries) - keep, 0)]:
        paths = RunPaths(results_dir, entry.run_id)
        try:
            paths.check_inside()  # an archive linked in is read by history, never rewritten
            with paths.lock(then="prune again"):
                pruned, stripped = _without_replies(paths.journal)
                freed, removed, page = 0, 0, False
                # The reports go first: they free space at once, where rewriting the journal
                # needs some (prune on a full disk freed nothing).
                for report in sorted(paths.reports.iterdir()) if paths.reports.is_dir() else []:
                    quotes_replies = report.suffix == ".md" or report.name == HTML_REPORT_NAME
                    if quotes_replies and report.name not in _KEPT_REPORTS and report.is_file():
                        freed += _size(report)
                        report.unlink()
                        page = page or report.name == HTML_REPORT_NAME
                        removed += report.suffix == ".md"
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
        if not (stripped or removed or page or kept):
            done.append((entry.run_id, ALREADY_PRUNED))
            continue
        what = f"{stripped} replies and {removed} scaffold reports removed"
        if page:
            what += f", and the page ({HTML_REPORT_NAME}; `report {entry.run_id}` writes one "
            what += "without replies)"
        done.append((entry.run_id, f"{what}: {_shown_bytes(freed)} freed{kept}"))
    return done


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
    use, one linked in from elsewhere (an archive, read but never changed) and the run
    ``<output>/reports`` shows are left alone. Returns ``(run id, what was done)`` for every
    older run."""
    from verification.reports.publishing import published_run

    done = []
    shown = published_run(results_dir)
    entries = scan_runs(results_dir)
    for entry in entries[: max(len(entries) - keep, 0)]:
        paths = RunPaths(results_dir, entry.run_id)
        if entry.run_id == shown:
            done.append((entry.run_id, f"left alone: {results_dir / 'reports'} shows it"))
            continue
        try:
            paths.check_inside()
            with paths.lock(then="prune again"):
                freed = _folder_bytes(paths.run_dir)
                shutil.rmtree(paths.run_dir)
        except (RunInUseError, JournalError, OSError) as exc:
            done.append((entry.run_id, _left_alone(exc)))
            continue
        done.append((entry.run_id, f"{DELETED}: {_shown_bytes(freed)} freed"))
    return done


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
