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
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from verification.errors import ConfigurationError
from verification.reports.base import ReportContext, Reporter, write_report
from verification.reports.ci import JUnitXmlReporter
from verification.reports.publishing import PUBLISHED
from verification.reports.results_index import INDEX_NAME
from verification.store.paths import RunPaths

__all__ = [
    "EXPORT_FORMATS",
    "CopyExport",
    "check_export",
    "check_outputs_apart",
    "export_reporters",
    "kept_records",
]

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


def kept_records(results_dir: Path, cache_files: Sequence[Path] = ()) -> dict[str, Path]:
    """What no output may write over, by what it is: the runs' journals and manifests
    (every file under the results folder's ``runs``), what each run replaces as it ends
    (the latest reports, their published copies and the results index), and the response
    cache's files (:func:`~verification.llm.cache.responses.cache_files`: its files, not its
    folder, where a results folder may lie, or a CI's step summary; hunt ab). Hunt yy:
    ``--junit-xml RUN/results.jsonl``, ``--export RUN/manifest.json`` or ``compare --html
    cache.sqlite3`` replaced the paid answers, at exit 0; hunt ad: an export under
    ``<output>/reports`` was deleted as the run published its reports, and one at
    ``<output>/index.html`` written over by the index, at exit 0."""
    kept = {
        "the runs' journals and manifests (--output)": results_dir / "runs",
        "the latest reports, which each run replaces (--output)": results_dir / "reports",
        "the latest reports' copies, which each run replaces (--output)": (results_dir / PUBLISHED),
        "the results index, which each run rewrites (--output)": results_dir / INDEX_NAME,
    }
    kept |= {f"the response cache (VERIFY_CACHE_DIR: {path.name})": path for path in cache_files}
    return kept


def check_outputs_apart(outputs: Sequence[tuple[str, Path]], inputs: Mapping[str, Path]) -> None:
    """Refuse, before a run asks anything, an output file (by its option) that is one of
    ``inputs`` (by what it is, "what --replay-file reads"; a folder's: any file under it)
    or another output, or whose folder takes no file: a draft, a scaffold or a replay file
    was replaced by the report, and an export to ``/proc`` failed after every case had
    been asked (hunt ii)."""
    seen: dict[Path, str] = {}
    for option, path in outputs:
        where = path.resolve()
        for named, source in inputs.items():
            source = source.resolve()
            if where == source or source in where.parents:
                raise ConfigurationError(
                    f"{option} {path} would write over {named} ({source}): give the output "
                    "another path"
                )
        if where in seen:
            raise ConfigurationError(
                f"{option} {path} is the file {seen[where]} writes too: give each its own"
            )
        seen[where] = option
        folder = next((parent for parent in where.parents if parent.exists()), None)
        if folder is None or not folder.is_dir():
            continue  # check_export and check_ci_outputs name a file in the way
        try:
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            raise ConfigurationError(
                f"{option} {path}: cannot be written: no file can be made in {folder} "
                f"({exc.strerror or exc}), and nothing is started only to fail at its end"
            ) from None


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
