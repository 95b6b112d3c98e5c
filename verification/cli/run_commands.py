"""``verify`` (one model, several, or against a baseline) and ``merge``: making a run."""

from __future__ import annotations

import contextlib
import dataclasses
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from verification.cli.command_base import CommandsBase
from verification.cli.exit_codes import results_exit_code
from verification.cli.run_output import (
    NO_OUTPUTS,
    RunOutputs,
    finish_run,
    print_cost,
    print_run_notes,
    print_summary,
    say_how_to_resume,
)
from verification.cli.terminal import ProgressBar, terminable
from verification.errors import LLMError

if TYPE_CHECKING:
    from verification.cases import Tier
    from verification.run.shards import Shard
    from verification.runner import RunResult

__all__ = ["RunCommands"]


class RunCommands(CommandsBase):
    """``verify`` and ``merge``."""

    def verify(
        self,
        names: Sequence[str] = (),
        *,
        category: str | None = None,
        everything: bool = False,
        scaffold_file: Path | None = None,
        tiers: Sequence[str] | None = None,
        case_ids: Sequence[str] = (),
        resume: str | None = None,
        size: int | None = None,
        estimate: bool = False,
        outputs: RunOutputs = NO_OUTPUTS,
        baseline: str | None = None,
        shard: Shard | None = None,
        keyword: str | None = None,
        rerun_failed: str | None = None,
    ) -> int:
        from verification.errors import ConfigurationError, JournalError
        from verification.registry import resolve_scaffold_names
        from verification.runner import VerificationRunner

        chosen = list(names)
        if case_ids and tiers:
            raise ConfigurationError("--case names exact cases: leave out --tier")
        if tiers and (self.settings.sizes is not None or self.settings.envelope is True):
            # --tier narrows the level's cases; a sweep asks its own tiers at every size.
            raise ConfigurationError(
                "--tier narrows the level's cases, and --sizes and --envelope ask the sweep's "
                "own tiers at each size: leave out --tier, or the sweep"
            )
        if resume and (size is not None or case_ids or tiers):
            raise ConfigurationError(
                "--resume answers the run's own cases: leave out --size, --case and --tier"
            )
        if shard is not None and (resume or baseline is not None):
            raise ConfigurationError(
                "--shard slices a new run: leave out --resume (a shard resumes its own "
                "cases) and --baseline"
            )
        if (keyword or rerun_failed) and self.settings.answer == "code":
            # Both become chosen cases (--case), which code mode refuses under that name.
            option = "-k" if keyword else "--rerun-failed"
            raise ConfigurationError(
                f"{option} is refused with --answer code: each program runs on the whole "
                "suite, every tier and the spec's size ladder"
            )
        if (keyword or rerun_failed) and resume:
            raise ConfigurationError(
                "--resume answers the run's own cases: leave out -k and --rerun-failed"
            )
        self._check_outputs(outputs, scaffold_file, models=self.settings.model_names)
        if rerun_failed is not None:
            from verification.cli.rerun_options import failed_cases, say_rerun_arm

            case_ids = failed_cases(self.settings, rerun_failed, chosen, category, case_ids)
            if not case_ids:
                print(f"run {rerun_failed} has no failed or errored case to ask again")
                return 0
            if baseline is None:
                say_rerun_arm(self.settings, rerun_failed)
        if keyword is not None:
            names, case_ids = self._selected_cases(
                keyword, chosen, category, everything, tiers, case_ids, size
            )
            if not case_ids:  # every planned case of these scaffolds: as if named
                chosen, category, everything = names, None, False
                keyword = None  # then no case was chosen by it
        if case_ids and not (chosen or category or everything):
            chosen = list(dict.fromkeys(case_id.split("-")[0] for case_id in case_ids))
        if resume and not (chosen or category or everything):
            scaffolds: list[str] = []  # the run's manifest says which
        else:
            scaffolds = resolve_scaffold_names(chosen, category=category, everything=everything)
        overrides: dict[str, Path] = {}
        if scaffold_file is not None:
            if len(scaffolds) != 1:
                raise ConfigurationError("--scaffold-file certifies one draft: name one scaffold")
            overrides[scaffolds[0]] = scaffold_file
        from verification.cases import TIERS

        chosen_tiers = [t for t in TIERS if t in tiers] if tiers else list(TIERS)
        several = len(self.settings.model_names) > 1
        if several:
            from verification.compose.multimodel import check_several_models

            check_several_models(
                self.settings,
                resume=bool(resume),
                baseline=baseline is not None,
                shard=shard is not None,
            )
        if baseline is not None and not estimate:
            from verification.compose.baseline import check_pair_budget

            check_pair_budget(self.settings)
        if resume and scaffolds:  # after what several models refuse, --resume among it
            self._check_resumed_scaffolds(resume, scaffolds)
        # What a single run writes or decides from its result: neither an estimate nor a
        # pair has that one result.
        named = outputs.named()
        if estimate:
            from verification.cli.estimate_command import print_estimate

            return print_estimate(
                self.settings,
                scaffolds,
                tiers=chosen_tiers,
                case_ids=case_ids,
                size=size,
                overrides=overrides,
                baseline=baseline,
                several=several,
                refused={"--resume": bool(resume), "--shard": shard is not None},
                outputs=named,
                reruns=rerun_failed,
            )
        if baseline is not None:
            if resume or estimate:
                raise ConfigurationError("--baseline makes two new runs: leave out --resume")
            if named:
                raise ConfigurationError(
                    f"--baseline makes two runs and prints their comparison: leave out "
                    f"{named} (`report RUN_ID` re-renders either run)"
                )
            return self._verify_with_baseline(
                scaffolds,
                baseline,
                overrides,
                chosen_tiers,
                case_ids,
                size,
                reruns=rerun_failed,
                keyword=keyword,
            )
        if several:
            return self._verify_models(
                scaffolds,
                overrides,
                chosen_tiers,
                case_ids,
                size,
                outputs,
                reruns=rerun_failed,
                keyword=keyword,
            )
        bar = ProgressBar.on_terminal(self.progress)
        runner = VerificationRunner(
            self.settings,
            reruns=rerun_failed,
            keyword=keyword,
            scaffold_overrides=overrides,
            progress=bar.advance if bar else None,
            planned=bar.start if bar else None,
        )
        # With --json standard output is the summary alone: what a plugin's code prints
        # while the run draws, judges or reports goes to standard error.
        json_out = sys.stdout
        import asyncio

        with (
            contextlib.redirect_stdout(sys.stderr) if outputs.as_json else contextlib.nullcontext()
        ):
            try:
                outcome = asyncio.run(
                    terminable(
                        runner.run(
                            scaffolds,
                            tiers=chosen_tiers,
                            case_ids=case_ids,
                            resume=resume,
                            size=size,
                            shard=shard,
                        )
                    )
                )
            except (LLMError, KeyboardInterrupt, JournalError, asyncio.CancelledError) as exc:
                asked = isinstance(exc, KeyboardInterrupt)
                say_how_to_resume(runner, self.prog, asked=asked, bar=bar)
                raise
            finally:
                if bar is not None:
                    bar.close()
            if resume:
                outcome = self._pair_ended(outcome)
            return finish_run(
                outcome, outputs, settings=self.settings, prog=self.prog, json_out=json_out
            )

    def _pair_ended(self, outcome: RunResult) -> RunResult:
        """A resumed run that is a ``--baseline`` pair's second arm, linked with its first
        now that both have ended (:func:`~verification.compose.baseline.complete_pair`),
        with the commands that finish the pair's reports and compare it said."""
        from verification.compose.baseline import complete_pair

        paired = complete_pair(self.settings.results_dir, outcome)
        if paired is None:
            return outcome
        first = paired.manifest.linked_run or ""
        output = ["--output", str(self.settings.results_dir)]
        words = shlex.split(self.prog)
        report = shlex.join([*words, "report", first, *output])
        compare = shlex.join([*words, "compare", first, paired.run_id, *output])
        print(
            f"run {paired.run_id} ended the --baseline pair begun by run {first}, now linked: "
            f"{report} writes the first run's reports with the pair's lift; {compare} "
            "compares the pair",
            file=sys.stderr,
        )
        return paired

    def _selected_cases(
        self,
        keyword: str,
        chosen: Sequence[str],
        category: str | None,
        everything: bool,
        tiers: Sequence[str] | None,
        case_ids: Sequence[str],
        size: int | None,
    ) -> tuple[list[str], list[str]]:
        """The scaffolds and cases ``-k keyword`` selects among those the other options
        plan (no scaffold named: every scaffold's); no cases: those scaffolds whole."""
        from verification.cases import TIERS
        from verification.catalog import default_catalog
        from verification.registry import resolve_scaffold_names
        from verification.run.selection import keyword_case_ids

        named = chosen or category or everything
        return keyword_case_ids(
            self.settings,
            resolve_scaffold_names(chosen, category=category, everything=everything or not named)
            if not case_ids
            else [],
            keyword,
            catalog=default_catalog(),
            tiers=[t for t in TIERS if t in tiers] if tiers else TIERS,
            case_ids=case_ids,
            size=size,
        )

    def _verify_models(
        self,
        scaffolds: Sequence[str],
        overrides: dict[str, Path],
        tiers: Sequence[Tier],
        case_ids: Sequence[str],
        size: int | None,
        outputs: RunOutputs,
        *,
        reruns: str | None = None,
        keyword: str | None = None,
    ) -> int:
        """Every model asked the same cases, each in a run of its own; the exit code is the
        worst of theirs."""
        import asyncio

        from verification.cases import printable
        from verification.compose.multimodel import ModelRuns, model_files
        from verification.errors import ConfigurationError, JournalError

        if outputs.as_json:
            raise ConfigurationError(
                "--json prints one run's summary: ask one model, or --export FILE.json "
                "(one file per model)"
            )
        bar = ProgressBar.on_terminal(self.progress)
        runs = ModelRuns(
            self.settings,
            scaffold_overrides=overrides,
            progress=bar.advance if bar else None,
            planned=bar.start if bar else None,
            reruns=reruns,
            keyword=keyword,
        )
        try:
            outcomes = asyncio.run(
                terminable(runs.run(scaffolds, tiers=tiers, case_ids=case_ids, size=size))
            )
        except (LLMError, KeyboardInterrupt, JournalError) as exc:
            for runner in runs.runners.values():
                asked = isinstance(exc, KeyboardInterrupt)
                say_how_to_resume(runner, self.prog, asked=asked, bar=bar)
            raise
        finally:
            if bar is not None:
                bar.close()
        codes = []
        files = [model_files(path, runs.models) for path in outputs.exports]  # model: file
        for index, (model, outcome) in enumerate(zip(runs.models, outcomes, strict=True)):
            print(f"model {printable(model, 100)}: run {outcome.run_id}")
            codes.append(
                finish_run(
                    outcome,
                    # One JUnit file, a suite per model (per model and scaffold: the cases').
                    dataclasses.replace(outputs, exports=[each[index] for each in files]),
                    junit_append=index > 0,
                    settings=self.settings,
                    prog=self.prog,
                )
            )
        return max(codes)  # the highest code is the worst: 5 regression, 3, 1, 0

    def _check_resumed_scaffolds(self, resume: str, scaffolds: Sequence[str]) -> None:
        """Scaffolds named beside ``--resume`` must be the run's own: a resume answers the
        run's cases, no more and no fewer."""
        from verification.cases import printable
        from verification.errors import ConfigurationError
        from verification.store.paths import RunPaths

        own = list(RunPaths(self.settings.results_dir, resume).read_manifest().scaffolds)
        if set(scaffolds) != set(own):
            shown = ", ".join(printable(name, 60) for name in own[:6])
            more = f" and {len(own) - 6} more" if len(own) > 6 else ""
            raise ConfigurationError(
                f"--resume {resume} goes on with the run's own scaffolds ({shown}{more}): "
                "leave out the scaffold names, --category and --all, or name exactly those"
            )

    def _verify_with_baseline(
        self,
        scaffolds: Sequence[str],
        baseline: str,
        overrides: dict[str, Path],
        tiers: Sequence[Tier],
        case_ids: Sequence[str],
        size: int | None,
        *,
        reruns: str | None = None,
        keyword: str | None = None,
    ) -> int:
        import asyncio

        from verification.compose.baseline import run_with_baseline
        from verification.errors import JournalError
        from verification.reports.compare import render_pairing
        from verification.reports.generator import write_run_reports
        from verification.reports.lift import render_lift
        from verification.runner import VerificationRunner

        bar = ProgressBar.on_terminal(self.progress)
        runners: list[VerificationRunner] = []
        try:
            runs = asyncio.run(
                terminable(
                    run_with_baseline(
                        self.settings,
                        scaffolds,
                        "none" if baseline == "none" else "current",
                        overrides=overrides,
                        tiers=tiers,
                        case_ids=case_ids,
                        size=size,
                        progress=bar.advance if bar else None,
                        runners=runners,
                        reruns=reruns,
                        keyword=keyword,
                    )
                )
            )
        except (LLMError, KeyboardInterrupt, JournalError) as exc:
            if runners:  # the run under way; it goes on as its arm when resumed
                asked = isinstance(exc, KeyboardInterrupt)
                say_how_to_resume(runners[-1], self.prog, asked=asked, bar=bar)
            if len(runners) == 2 and runners[0].run_id and runners[1].run_id:
                # The first arm ended, but the pair is reported and linked only once both
                # have: say what is left of it and the commands that finish it.
                first, second = runners[0].run_id, runners[1].run_id
                output = ["--output", str(self.settings.results_dir)]
                words = [*shlex.split(self.prog)]
                print(
                    f"run {first} (the pair's first, finished) is not reported yet: "
                    f"{shlex.join([*words, 'report', first, *output])} writes its reports; "
                    f"once {second} has ended, "
                    f"{shlex.join([*words, 'compare', first, second, *output])} compares the pair",
                    file=sys.stderr,
                )
            raise
        finally:
            if bar is not None:
                bar.close()
        lift = runs.lift()  # both runs' reports carry it, folded once here
        for run in (runs.a, runs.b):  # from the journals the runs hold, not read back
            summary = write_run_reports(
                run.paths,
                run.manifest,
                run.results,
                publish=run is runs.b,
                lift=lift,
                costs=None if run.records is None else run.costs,
                records=run.records,
            )
        print_summary(runs.b.results.values(), runs.b.manifest.run_label, summary)
        for label, run in ((runs.a_label, runs.a), (runs.b_label, runs.b)):
            print_run_notes(run, label)
            print_cost(run, self.settings, self.prog, label)
        print(render_pairing(runs.pairing, a=runs.a_label, b=runs.b_label), end="")
        if lift is not None:
            print(render_lift(lift), end="")
        return results_exit_code(runs.b.results.values(), runs.b.manifest.level)

    def _check_outputs(
        self,
        outputs: RunOutputs,
        scaffold_file: Path | None,
        more: dict[str, Path] | None = None,
        *,
        models: Sequence[str] = (),
    ) -> None:
        """The run's output files apart from its inputs (and ``more`` kept files) and from
        one another, each where a file can be written
        (:func:`~verification.reports.exports.check_outputs_apart`); with several
        ``models``, each model's own export (``out.<model>.json``), the files written."""
        import os

        from verification.reports.exports import check_outputs_apart

        exports = outputs.exports
        if len(models) > 1:  # each model's run writes its own file (hunt ad: unchecked)
            from verification.compose.multimodel import model_files

            exports = [file for path in exports for file in model_files(path, models)]
        written = [("--export", path) for path in exports] + [
            (option, path)
            for option, path in (
                ("--junit-xml", outputs.junit_xml),
                ("--junit-cases", outputs.junit_cases),
            )
            if path is not None
        ]
        if summary := os.environ.get("GITHUB_STEP_SUMMARY"):
            written.append(("GITHUB_STEP_SUMMARY", Path(summary)))
        read = {
            "what --scaffolds-dir reads": self.settings.scaffolds_dir,
            **self.kept_files(),
            **(more or {}),
        }
        if scaffold_file is not None:
            read["what --scaffold-file reads"] = scaffold_file
        if self.settings.replay_file is not None:
            read["what --replay-file reads"] = self.settings.replay_file
        check_outputs_apart(written, read)

    def verify_category(self, category: str) -> int:
        return self.verify(category=category)

    def merge(
        self,
        run_dirs: Sequence[Path],
        outputs: RunOutputs = NO_OUTPUTS,
    ) -> int:
        from verification.compose.merge import merge_shards

        # The shards' journals too, wherever they lie (hunt ab: a JUnit file over one).
        self._check_outputs(outputs, None, {f"shard {d}": d for d in run_dirs})
        outcome = merge_shards(run_dirs, self.settings.results_dir)
        print(
            f"merged {len(run_dirs)} shard(s) into run {outcome.run_id}",
            file=sys.stderr if outputs.as_json else sys.stdout,
        )
        return finish_run(outcome, outputs, settings=self.settings, prog=self.prog)
