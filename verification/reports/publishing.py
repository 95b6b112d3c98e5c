"""Publishing a run's reports as the results folder's latest: ``<results_dir>/reports``, a
symbolic link swapped in one step to a copy of the run's reports folder."""

from __future__ import annotations

import logging
import os
import shutil
import stat
import uuid
from collections.abc import Iterable
from pathlib import Path

from verification.errors import VerificationError
from verification.store.locks import exclusive_lock
from verification.store.paths import RunPaths

__all__ = ["PUBLISHED", "REPORTS_MARKER", "publish_latest", "published_run"]

REPORTS_MARKER = ".verification-reports"
"""Marks a folder the harness wrote, so that only such a folder is ever replaced."""
logger = logging.getLogger(__name__)

PUBLISHED = ".published"
"""Under the results folder: the published copies ``reports`` points at."""
_PUBLISH_LOCK = ".lock"
"""In :data:`PUBLISHED`: held while one run publishes, so runs that finish together take
turns (a publication takes milliseconds) and none leaves a copy behind."""


def publish_latest(paths: RunPaths) -> Path | None:
    """Make ``<results_dir>/reports`` show this run's reports, in one atomic step.

    The run's reports are copied to ``<results_dir>/.published/<unique>/`` and ``reports``
    becomes a symbolic link to that copy through an atomic rename, so a reader sees the old
    reports or the new ones, never a mix or nothing. The copy's files are hard links to the
    run's where the file system allows (else copies): every report is written to a new
    file renamed over the old one (:func:`~verification.reports.base.write_report`), never
    in place, so a report written again later leaves the published file as it was. Only
    regular files are published: a symbolic link, a FIFO or a device someone left in the
    run's reports folder is not (a link could lead a reader out of the folder). Runs
    publishing at once take turns under an OS lock, and each removes every copy but its own
    (a killed run's leftovers included). A ``reports`` folder the harness did not write is
    left alone, and so are the reports of a run created after this one (runs that overlap:
    the newest run's reports are the latest, whichever finished last). Returns the copy, or
    ``None`` when nothing was published.
    """
    latest = paths.latest_reports
    published = paths.results_dir / PUBLISHED
    if published.is_symlink() or paths.leads_out(published):
        # Each publication empties that folder of all but its copy: never one elsewhere.
        logger.warning("%s is a symbolic link: latest reports not published", published)
        return None
    published.mkdir(parents=True, exist_ok=True)
    with exclusive_lock(published / _PUBLISH_LOCK):
        if _newer_shown(paths):
            return None
        if latest.exists() and not latest.is_symlink() and not (latest / REPORTS_MARKER).exists():
            logger.warning(
                # The fix named: an early version's copy read as a stranger's for good (hunt af).
                "%s was not written by the harness (or by an early version of it): left "
                "alone, latest reports not copied there; move it aside, and the next run "
                "publishes its reports there",
                latest,
            )
            return None
        unique = f"{paths.run_id}-{uuid.uuid4().hex[:8]}"
        copy = published / unique
        shutil.copytree(paths.reports, copy, copy_function=_linked, ignore=_not_reports)
        link = published / f".link-{unique}"
        os.symlink(Path(PUBLISHED) / unique, link, target_is_directory=True)
        if latest.exists() and not latest.is_symlink():
            shutil.rmtree(latest)  # a copied folder written by an older version of the harness
        os.replace(link, latest)
        for entry in published.iterdir():
            if entry.name != _PUBLISH_LOCK and entry != copy:
                _remove(entry)
    return copy


def _newer_shown(paths: RunPaths) -> bool:
    """Whether ``<output>/reports`` shows a run created after ``paths``' run: the latest
    reports are the newest run's, as ``report``, ``history`` and ``prune`` count them, not
    the run that happened to finish last (a helper's hunt: runs that overlapped left an
    older one there, and a bare ``report`` flipped it back)."""
    shown = published_run(paths.results_dir)
    if shown is None or shown == paths.run_id:
        return False
    try:
        other = RunPaths(paths.results_dir, shown).read_manifest()
        mine = paths.read_manifest()
    except (VerificationError, OSError):  # a run gone, unreadable, or no run id (planted)
        return False
    return other.created_at > mine.created_at


def published_run(results_dir: Path) -> str | None:
    """The id of the run whose reports ``<results_dir>/reports`` shows (``None``: none, or a
    folder not published by :func:`publish_latest`)."""
    latest = results_dir / "reports"
    if not latest.is_symlink():
        return None
    copy = Path(os.readlink(latest))
    if copy.parent != Path(PUBLISHED) or "-" not in copy.name:
        return None
    return copy.name.rsplit("-", 1)[0]


def _linked(source: str, target: str) -> None:
    """``target`` as a hard link to ``source`` (a tenth of a copy's system time, on ext4),
    or a copy of it where the file system has no hard links for it."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _not_reports(folder: str, names: Iterable[str]) -> set[str]:
    """What :func:`publish_latest` leaves out of ``folder``: all but regular files and
    folders (``lstat``: a symbolic link is left out, not followed)."""
    left_out = set()
    for name in names:
        try:
            mode = os.lstat(os.path.join(folder, name)).st_mode
        except OSError:
            left_out.add(name)
            continue
        if not (stat.S_ISREG(mode) or stat.S_ISDIR(mode)):
            left_out.add(name)
    return left_out


def _remove(entry: Path) -> None:
    """Remove a published copy or link that nothing shows any more."""
    try:
        if entry.is_symlink() or not entry.is_dir():
            entry.unlink()
        else:
            shutil.rmtree(entry)
    except OSError as exc:  # another process's reader may hold it open (Windows): next time
        logger.debug("%s not removed (%s)", entry, exc)
