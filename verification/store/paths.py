"""Where a run's files live::

<results_dir>/runs/<run-id>/manifest.json   what was asked, of whom, with which files
<results_dir>/runs/<run-id>/results.jsonl   one line per attempt, appended and flushed
<results_dir>/runs/<run-id>/reports/        rendered from the two files above
<results_dir>/reports/                      a copy of the latest run's reports
"""

from __future__ import annotations

import errno
import json
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from verification.errors import ConfigurationError, JournalError, RunWriteError
from verification.store.locks import RunLock
from verification.store.manifests import RunManifest, read_manifest_file
from verification.store.run_ids import check_run_id
from verification.store.stored_files import replace_atomically

__all__ = ["RunPaths", "leads_out", "write_error"]


def _no_space(error: OSError) -> bool:
    return error.errno in (errno.ENOSPC, errno.EDQUOT)


def write_error(path: Path, run_id: str, error: OSError) -> RunWriteError:
    """The error for a run's file that cannot be written: what went wrong, and that the
    run resumes once it is fixed."""
    what = "no space is left on the device" if _no_space(error) else error.strerror or error
    problem = f"cannot write {path}: {what}"
    return RunWriteError(
        f"{problem}. Run {run_id} keeps every answer written before it; fix that, then "
        f"continue with --resume {run_id}",
        problem=problem,
    )


def leads_out(results_dir: Path, path: Path) -> bool:
    """Whether ``path``, its symbolic links followed, lies outside ``results_dir``."""
    root = os.path.realpath(results_dir)
    return os.path.commonpath([root, os.path.realpath(path)]) != root


@dataclass(frozen=True)
class RunPaths:
    """Where one run's files live."""

    results_dir: Path
    run_id: str

    def __post_init__(self) -> None:
        check_run_id(self.run_id)
        if self.results_dir.is_file():  # else each file under it "cannot be read"
            raise ConfigurationError(
                f"the results folder {self.results_dir} is a file: --output (or "
                "VERIFY_RESULTS_DIR) names a folder"
            )

    def check_creatable(self) -> None:
        """:class:`ConfigurationError` when a new run's folder cannot be created because a
        path on the way to it is no folder (``--output file/sub``: each of the run's files
        would fail to be written, the first failure read as one that "cannot be read"), and
        :class:`JournalError` when it would lie out of the results folder through a symbolic
        link (:meth:`check_inside`)."""
        self.check_inside()
        for path in (self.run_dir, *self.run_dir.parents):
            if path.is_dir():
                if path != self.run_dir:
                    self._check_writable(path)
                return
            if path.exists() or path.is_symlink():  # a file, or a link to nothing
                break
        else:
            return
        if path in (self.results_dir, *self.results_dir.parents):
            raise ConfigurationError(
                f"the results folder {self.results_dir} cannot be created: {path} is not a "
                "folder (--output or VERIFY_RESULTS_DIR names a folder)"
            )
        raise ConfigurationError(
            f"the run folder {self.run_dir} cannot be created: {path} is not a folder"
        )

    def _check_writable(self, folder: Path) -> None:
        """:class:`ConfigurationError` naming the option when no folder can be made in
        ``folder`` on the way to the run's (a read-only or a virtual file system): the OS's
        bare words named neither ``--output`` nor what to do (hunt ii)."""
        try:
            with tempfile.TemporaryFile(dir=folder):
                pass
        except OSError as exc:
            raise ConfigurationError(
                f"no run can be written under the results folder {self.results_dir}: "
                f"{folder} takes no new file ({exc.strerror or exc}); choose another folder "
                "with --output or VERIFY_RESULTS_DIR"
            ) from None

    @property
    def run_dir(self) -> Path:
        return self.results_dir / "runs" / self.run_id

    @property
    def manifest(self) -> Path:
        return self.run_dir / "manifest.json"

    @property
    def journal(self) -> Path:
        return self.run_dir / "results.jsonl"

    @property
    def reports(self) -> Path:
        return self.run_dir / "reports"

    @property
    def latest_reports(self) -> Path:
        return self.results_dir / "reports"

    def write_manifest(self, manifest: RunManifest) -> None:
        """Write the manifest atomically (a reader never sees half of it); refused, as the
        reports are (:meth:`check_inside`), where the run's folder leads out of the results
        folder: a new run's first write comes before its first request (hunt yy: a linked
        ``runs`` asked every case, then refused its reports)."""
        self.check_inside()
        self.run_dir.mkdir(parents=True, exist_ok=True)
        text = json.dumps(manifest.model_dump(mode="json"), indent=2, allow_nan=False) + "\n"
        try:
            replace_atomically(self.manifest, text)
        except OSError as exc:
            raise write_error(self.manifest, self.run_id, exc) from None

    def leads_out(self, path: Path) -> bool:
        """Whether ``path``, its symbolic links followed, lies outside the results folder."""
        return leads_out(self.results_dir, path)

    def check_inside(self) -> None:
        """:class:`JournalError` when this run's folder or its reports folder is (or lies
        under) a symbolic link that leads out of the results folder: reports, prune and
        publishing write nothing through it (an archive it points at is no run of ours)."""
        runs = self.results_dir / "runs"
        if self.leads_out(runs):
            raise JournalError(
                f"{runs} is a symbolic link out of the results folder (to "
                f"{os.path.realpath(runs)}): runs are written only inside the results folder "
                "(--output); name the folder that holds the runs as --output instead"
            )
        for path in (self.run_dir, self.reports):
            if self.leads_out(path):
                raise JournalError(
                    f"{path} leads out of the results folder {self.results_dir} through a "
                    "symbolic link: nothing is written there"
                )

    def lock(self, *, then: str = "resume") -> RunLock:
        """This run's lock, taken (see :class:`RunLock`; ``then``: what its refusal says to
        do once the owner has finished)."""
        return RunLock(self.run_dir, self.run_id, then=then)

    def read_manifest(self) -> RunManifest:
        """The run's manifest, or :class:`JournalError` naming the run."""
        try:
            return read_manifest_file(self.manifest)
        except FileNotFoundError:
            if self.run_dir.is_dir() and not self.journal.exists():
                # Its folder made, its first manifest never written whole: killed at its start.
                raise JournalError(
                    f"run {self.run_id!r} in {self.results_dir / 'runs'} stopped before it "
                    "began (its folder holds no manifest and no answer): nothing to go on "
                    f"with; start a new run (the folder {self.run_dir} can be deleted)"
                ) from None
            if self.run_dir.is_dir():
                raise JournalError(
                    f"run {self.run_id!r} in {self.results_dir / 'runs'} has a journal but no "
                    "manifest.json (deleted?): without it the run cannot be read"
                ) from None
            raise JournalError(f"no run {self.run_id!r} in {self.results_dir / 'runs'}") from None
        except OSError as exc:
            raise JournalError(f"{self.manifest}: unreadable manifest ({exc})") from None
