"""``--export FILE``: a run's results written where the user says, in the format the file's
extension names (as promptfoo's ``-o``; here ``--output`` already names the results folder).

========== =====================================================================
``.json``  the run's ``summary.json``
``.jsonl`` its journal (``results.jsonl``, one line per attempt)
``.md``    its ``summary.md`` (links point into the run's reports folder)
``.html``  its page (``index.html``, one self-contained file)
``.xml``   JUnit XML, as ``--junit-xml`` writes it
========== =====================================================================

Each export is a reporter run after the run's own (whose files it copies), written through
:func:`~verification.reports.base.write_report` (a folder, a FIFO or a failed write is
refused naming the path, never followed).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path

from verification.errors import ConfigurationError
from verification.reports.base import ReportContext, Reporter, write_report
from verification.reports.ci import JUnitXmlReporter
from verification.store.paths import RunPaths

__all__ = ["EXPORT_FORMATS", "CopyExport", "check_export", "export_reporters"]

EXPORT_FORMATS: dict[str, str] = {
    ".json": "the summary (summary.json)",
    ".jsonl": "the journal (results.jsonl)",
    ".md": "the summary in Markdown",
    ".html": "the run's page",
    ".xml": "JUnit XML",
}
"""Each extension ``--export`` knows, and what it writes."""


def check_export(path: Path) -> Path:
    """``path`` when its extension names a format and it is no folder; else a
    :class:`ConfigurationError` listing the formats."""
    suffix = path.suffix.lower()
    if suffix not in EXPORT_FORMATS:
        known = ", ".join(f"{ext} ({what})" for ext, what in EXPORT_FORMATS.items())
        named = f"extension {suffix!r}" if suffix else "no extension"
        raise ConfigurationError(f"--export {path}: {named} names no format; use {known}")
    if path.is_dir():
        raise ConfigurationError(f"--export {path} is a folder: give a file's name")
    # Its folder is made when the run writes it (as --junit-xml's is): refused now where a
    # file stands in the way, before a run is paid for and its export then fails.
    folder = next((parent for parent in path.absolute().parents if parent.exists()), None)
    if folder is not None and not folder.is_dir():
        raise ConfigurationError(f"--export {path}: {folder} is a file, not a folder")
    return path


class CopyExport:
    """Writes one of the run's own files (written before it) to the user's path."""

    name = "export"

    def __init__(self, path: Path, source: Path) -> None:
        self.path = path
        self.source = source

    def write(self, context: ReportContext) -> list[Path]:
        with contextlib.suppress(OSError):  # writing it then says why, naming the file
            self.path.parent.mkdir(parents=True, exist_ok=True)
        return [write_report(self.path, self.source.read_text("utf-8"))]


def export_reporters(exports: Sequence[Path], paths: RunPaths) -> list[Reporter]:
    """The reporters writing ``exports`` of the run in ``paths`` (after its own)."""
    sources = {
        ".json": paths.reports / "summary.json",
        ".jsonl": paths.journal,
        ".md": paths.reports / "summary.md",
        ".html": paths.reports / "index.html",
    }
    reporters: list[Reporter] = []
    for path in exports:
        suffix = check_export(path).suffix.lower()
        if suffix == ".xml":
            reporters.append(JUnitXmlReporter(path))
        else:
            reporters.append(CopyExport(path, sources[suffix]))
    return reporters
