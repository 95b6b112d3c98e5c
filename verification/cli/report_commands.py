"""``report``, ``view``, ``history``, ``compare``, ``prune``: the commands reading runs back."""

from __future__ import annotations

import os
import sys
from pathlib import Path

from verification.cli.arguments import DEFAULT_PAGE
from verification.cli.command_base import CommandsBase
from verification.cli.exit_codes import results_exit_code
from verification.cli.run_output import print_summary

__all__ = ["ReportCommands", "existing_results_dir", "names_a_folder", "run_folder"]


class ReportCommands(CommandsBase):
    """``report``, ``view``, ``history``, ``compare`` and ``prune``."""

    def generate_reports(self, run_id: str | None = None) -> int:
        from verification.certify.results import results_from_journal
        from verification.reports.generator import write_run_reports
        from verification.store.journal import read_journal
        from verification.store.manifests import latest_run_id
        from verification.store.paths import RunPaths

        results_dir = self.settings.results_dir
        if run_id is not None and names_a_folder(run_id):
            results_dir, run_id = run_folder(Path(run_id))
        run_id = run_id or latest_run_id(results_dir)
        paths = RunPaths(results_dir, run_id)
        manifest = paths.read_manifest()
        # Owned while read and written: a run still being asked has a journal cut short,
        # and its fold would be written (and published) over the reports its owner writes
        # at its end (a helper's hunt: a finished run of 40 cases reported at 37).
        with paths.lock(then="report it"):
            records = read_journal(paths.journal)
            if not records and not paths.journal.exists() and manifest.finished_at is not None:
                # A run that ended has a journal, unless it was removed (or the folder moved
                # while the run wrote it): its answers are nowhere the reports can read.
                print(
                    f"warning: run {run_id} has no journal ({paths.journal}): every answer it "
                    "held is missing from these reports",
                    file=sys.stderr,
                )
            results = results_from_journal(manifest, records)
            # <output>/reports shows the newest run: re-rendering an older one leaves it
            # alone (publish_latest keeps a newer run's reports there).
            summary = write_run_reports(paths, manifest, results, records=records)
        print_summary(results.values(), manifest.run_label, summary, manifest.level)
        return results_exit_code(results.values(), manifest.level)

    def view(self, run_id: str | None = None) -> int:
        """Open a run's page in the browser, or with no run the results folder's index of
        every run (written afresh); print its path (all there is without a browser)."""
        import webbrowser

        from verification.reports.html import page_path
        from verification.reports.results_index import write_results_index

        results_dir = self.settings.results_dir
        if run_id is not None and names_a_folder(run_id):  # as `report` takes it
            results_dir, run_id = run_folder(Path(run_id))
        if run_id is None:
            path = write_results_index(existing_results_dir(results_dir)).resolve()
        else:
            path = page_path(results_dir, run_id).resolve()
        print(path)
        try:
            opened = webbrowser.open(path.as_uri())
        except webbrowser.Error:  # no browser this module knows of
            opened = False
        if not opened:
            print("no browser to open it in: open the file above", file=sys.stderr)
        return 0

    def history(
        self,
        *,
        model: str | None = None,
        scaffold: str | None = None,
        limit: int = 20,
        as_json: bool = False,
    ) -> int:
        from verification.reports.compare import render_history
        from verification.reports.history import as_json_lines, filter_entries, scan_runs

        results_dir = existing_results_dir(self.settings.results_dir)
        entries = scan_runs(results_dir)
        if scaffold is not None and not any(scaffold in e.manifest.scaffolds for e in entries):
            # A name no run holds and no scaffold has is a typo, told as verify tells it
            # (hunt ii: "no runs" at exit 0 for "dijkstr"); a known one simply has no run.
            from verification.registry import resolve_scaffold_names

            resolve_scaffold_names([scaffold])
        chosen = filter_entries(entries, model=model, scaffold=scaffold)[-limit:]
        # Newest first, as the table shows them and the help says.
        newest_first = list(reversed(chosen))
        shown = render_history(chosen, scaffold, results_dir)
        print(as_json_lines(newest_first) if as_json else shown, end="")
        return 0

    def _pair_of_runs(self, run_a: str, run_b: str) -> tuple[Path, str, str]:
        """The results folder and run ids of ``compare``'s two runs, each a run id or a run
        folder (as ``report`` and ``view`` take them); a run id beside a folder is looked
        for in that folder's results folder."""
        from verification.errors import ConfigurationError

        folders: set[Path] = set()
        ids = []
        for run in (run_a, run_b):
            if names_a_folder(run):
                folder, run = run_folder(Path(run))
                folders.add(folder.resolve())
            ids.append(run)
        if len(folders) > 1:
            raise ConfigurationError(
                f"compare reads both runs from one results folder, and {run_a} and {run_b} "
                "lie in different ones: copy one run folder beside the other"
            )
        if ids[0] == ids[1]:  # a table of no differences could read as a stable model
            print(
                f"note: {run_a} and {run_b} name the same run, compared with itself "
                "(`history` lists the others)",
                file=sys.stderr,
            )
        results_dir = folders.pop() if folders else self.settings.results_dir
        return results_dir, ids[0], ids[1]

    def compare(self, run_a: str, run_b: str, *, html: Path | None = None) -> int:
        from verification.reports.compare import compare_runs, render_pairing

        results_dir, run_a, run_b = self._pair_of_runs(run_a, run_b)
        pairing = compare_runs(results_dir, run_a, run_b)
        print(render_pairing(pairing), end="")
        lift = None
        if "no scaffold" in pairing.labels:  # a --baseline none pair: its lift too
            from verification.reports.lift import render_lift, stored_lift

            lift = stored_lift(results_dir, run_b)
            if lift is not None:
                print(render_lift(lift), end="")
        if html is not None:
            from verification.reports.compare_html import (
                default_comparison_path,
                write_comparison_page,
            )
            from verification.reports.exports import check_outputs_apart
            from verification.reports.results_index import write_results_index

            if html == DEFAULT_PAGE:
                html = default_comparison_path(results_dir, pairing)
            check_outputs_apart([("--html", html)], self.kept_files(results_dir))
            print(f"page: {write_comparison_page(pairing, html, lift)}")
            write_results_index(results_dir)  # it lists the comparison pages
        return 0

    def prune(self, keep: int, *, delete_beyond: int | None = None) -> int:
        from verification.errors import ConfigurationError
        from verification.reports.pruning import ALREADY_PRUNED, DELETED, delete_runs, prune_runs

        if delete_beyond is not None and delete_beyond < keep:
            raise ConfigurationError(
                f"--delete-beyond {delete_beyond} would delete runs --keep {keep} keeps whole: "
                f"give it {keep} or more"
            )
        results_dir = existing_results_dir(self.settings.results_dir)
        deleted = 0
        if delete_beyond is not None:  # first: what is deleted need not be pruned
            for run_id, what in delete_runs(results_dir, delete_beyond):
                print(f"{run_id}: {what}")
                deleted += what.startswith(DELETED)
        done = prune_runs(results_dir, keep)
        for run_id, what in done:
            print(f"{run_id}: {what}")
        pruned = sum(not what.startswith(("left alone", ALREADY_PRUNED)) for _, what in done)
        said = f"{pruned} older run(s) pruned; the newest {keep} kept whole"
        if delete_beyond is not None:
            said += f"; {deleted} run(s) past the newest {delete_beyond} deleted"
        print(said)
        from verification.reports.results_index import write_results_index

        write_results_index(self.settings.results_dir)  # its links to removed pages go
        return 0


def existing_results_dir(results_dir: Path) -> Path:
    """``results_dir``, which must be a folder: ``history`` printing "no runs" and
    ``prune`` "0 pruned" for an ``--output`` mistyped read as success, where ``view`` and
    ``report`` say the folder is missing."""
    if not results_dir.is_dir():
        from verification.errors import ConfigurationError

        raise ConfigurationError(
            f"no results folder at {results_dir}: `verify` makes one (--output names another)"
        )
    return results_dir


def names_a_folder(run: str) -> bool:
    """Whether ``report``'s argument is a path (the run folder ``verify`` prints) rather
    than a run id (which holds no separator and is no folder here). An empty one is
    refused: ``Path("")`` is ".", told as "no run folder" (hunt ii), and read as no argument
    a script's empty variable would report another run than it meant."""
    if not run:
        from verification.errors import ConfigurationError

        raise ConfigurationError(
            "the run given is empty: give a run id, or the run folder `verify` printed"
        )
    return os.sep in run or "/" in run or run in (".", "..") or Path(run).is_dir()


def run_folder(folder: Path) -> tuple[Path, str]:
    """The results folder and run id of a run folder ``<output>/runs/<run-id>`` (or its
    ``reports`` folder, or a file in it, as ``verify`` prints ``.../reports/summary.md``)."""
    from verification.errors import ConfigurationError

    manifest = "manifest.json"
    for candidate in (folder, folder.parent, folder.parent.parent):
        if (candidate / manifest).is_file() and candidate.absolute().parent.name == "runs":
            run = candidate.absolute()
            return run.parent.parent, run.name
    raise ConfigurationError(
        f"{folder} is no run folder (<output>/runs/RUN_ID holding {manifest}): give a "
        "run id, or the run folder `verify` printed"
    )
