"""Two linked runs on the same cases, compared pair by pair: "did my edit help?".

``verify NAME --scaffold-file draft.md --baseline`` runs the current scaffold (A), then the
draft (B); ``--baseline none`` runs the task and Output Format alone (A,
:mod:`verification.llm.bare_prompt`), then the scaffold (B: the draft when one is given).
Both runs use the same settings, so they plan the same cases; each is a run of its own
(own id, journal, reports), its manifest naming the other (``linked_run``) and what it
showed instead of the catalog's scaffold (``variant``), so that neither is ever taken as the
previous comparable run of an ordinary one. Both go through the response cache like any
run: a repeat of the pair asks nothing. Each journal line names its arm (``bare``,
``scaffold``, ``current``, ``draft``), so the two journals joined in one replay file replay
as the pair, each arm served its own answers. The comparison is :func:`compare_runs` on the two;
a ``--baseline none`` pair adds the scaffold's lift (:meth:`PairedRuns.lift`), size by size.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from verification.cases import Tier
from verification.certify.lift import PairLift
from verification.config import RunConfig
from verification.errors import ConfigurationError, VerificationError
from verification.llm.bare_prompt import BarePromptBuilder
from verification.llm.prompt_builder import PromptBuilder
from verification.reports.compare import RunPairing, compare_runs
from verification.reports.lift import pair_lift
from verification.runner import RunResult, VerificationRunner
from verification.store.journal import read_journal
from verification.store.locks import RunLock
from verification.store.paths import RunPaths
from verification.store.records import Arm, AttemptRecord

__all__ = [
    "BASELINES",
    "Baseline",
    "PairedRuns",
    "arm_builders",
    "check_pair_budget",
    "complete_pair",
    "run_with_baseline",
]

logger = logging.getLogger(__name__)

Baseline = Literal["current", "none"]
BASELINES: tuple[Baseline, ...] = ("current", "none")


@dataclass(frozen=True)
class PairedRuns:
    """The baseline run (A), the run under test (B) and their comparison."""

    a: RunResult
    b: RunResult
    pairing: RunPairing
    a_label: str
    b_label: str

    def lift(self) -> PairLift | None:
        """What the scaffold adds over no scaffold, size by size, and its price
        (:mod:`verification.certify.lift`); ``None`` unless A is the bare arm."""
        if self.a.manifest.variant != "bare":
            return None
        return pair_lift(
            (self.a.manifest, self.a.results, _journal(self.a)),
            (self.b.manifest, self.b.results, _journal(self.b)),
        )


def _journal(run: RunResult) -> list[AttemptRecord]:
    """The run's journal: the records it holds, else read back."""
    return run.records if run.records is not None else read_journal(run.paths.journal)


def _linked(run: RunResult, other: str, variant: Literal["bare", "draft"] | None) -> RunResult:
    manifest = run.manifest.model_copy(update={"linked_run": other, "variant": variant})
    run.paths.write_manifest(manifest)
    return dataclasses.replace(run, manifest=manifest)


def complete_pair(results_dir: Path, run: RunResult) -> RunResult | None:
    """``run`` linked with its pair's first arm, when it is a pair's second arm that ended
    on a resume (its manifest named the first from its start); ``None`` for any other run,
    one stopped again, or a first arm that cannot be read or is not its pair's. A resumed
    second arm was never linked, so ``compare`` took the pair for two runs of an edited
    scaffold and gave no lift (hunt ll 4)."""
    manifest = run.manifest
    first_id = manifest.linked_run
    if first_id is None or manifest.interrupted or manifest.arm not in ("scaffold", "draft"):
        return None
    first_paths = RunPaths(results_dir, first_id)
    try:
        first = first_paths.read_manifest()
    except (OSError, VerificationError) as exc:
        logger.warning(
            "run %s: its pair's first arm %s cannot be read: %s", run.run_id, first_id, exc
        )
        return None
    if first.linked_run is not None or first.arm not in ("bare", "current"):
        return None  # linked already, or no first arm of a pair
    variant: Literal["bare"] | None = "bare" if first.arm == "bare" else None
    try:
        # Its owner's lock held while its manifest is written: a first arm being resumed
        # by another process is left as it is.
        with RunLock(first_paths.run_dir, first_id, then="link the pair"):
            first_paths.write_manifest(
                first.model_copy(update={"linked_run": run.run_id, "variant": variant})
            )
        return _linked(run, first_id, "draft" if manifest.arm == "draft" else None)
    except (OSError, VerificationError) as exc:
        # The run's own answers and reports matter more than the link: it is reported
        # unlinked, and the warning says why (the review of hunt nn).
        logger.warning(
            "run %s: not linked with its pair's first arm %s: %s", run.run_id, first_id, exc
        )
        return None


def _arms(baseline: Baseline, *, drafted: bool) -> tuple[Arm, Arm]:
    """The arms of runs A and B, journalled on their lines (a replay serves each its own)."""
    if baseline == "none":
        return ("bare", "draft" if drafted else "scaffold")
    return ("current", "draft")


def arm_builders(
    scaffolds_dir: Path, baseline: Baseline, overrides: Mapping[str, Path]
) -> list[tuple[Arm, PromptBuilder]]:
    """Each arm of a pair, A then B, with the prompt builder it is asked with (what
    :func:`run_with_baseline` runs and ``--estimate --baseline`` prices)."""
    if baseline == "current" and not overrides:
        raise ConfigurationError(
            "--baseline compares the current scaffold with a draft: give --scaffold-file "
            "(or --baseline none to compare with no scaffold)"
        )
    builder_a = (
        BarePromptBuilder(scaffolds_dir, overrides=overrides)
        if baseline == "none"
        else PromptBuilder(scaffolds_dir)
    )
    arm_a, arm_b = _arms(baseline, drafted=bool(overrides))
    return [(arm_a, builder_a), (arm_b, PromptBuilder(scaffolds_dir, overrides=overrides))]


def check_pair_budget(settings: RunConfig) -> None:
    """Refuse ``--max-cost`` for a pair: a budget holds for one run, and each arm is a run of
    its own with its own journal, so each would be given the whole of it and the pair could
    spend twice what was asked (refused for the reason several models are)."""
    if settings.max_cost is not None:
        raise ConfigurationError(
            "--baseline makes two runs, and a --max-cost budget holds for one run (each arm "
            "would get all of it, the pair up to twice): leave out --max-cost (and unset "
            "VERIFY_MAX_COST); --estimate --baseline prints what the pair costs at most"
        )


async def run_with_baseline(
    settings: RunConfig,
    scaffolds: Sequence[str],
    baseline: Baseline,
    *,
    overrides: Mapping[str, Path],
    tiers: Sequence[Tier],
    case_ids: Sequence[str] = (),
    size: int | None = None,
    progress: Callable[[AttemptRecord], None] | None = None,
    runners: list[VerificationRunner] | None = None,
    reruns: str | None = None,
    keyword: str | None = None,
) -> PairedRuns:
    """Run A (the baseline) then B on the same cases, link them, and compare them.
    ``runners``, when given, is told each run's runner as it starts (the last is the one
    under way when the pair stops: the run to resume). ``reruns`` and ``keyword`` say how
    ``case_ids`` were chosen (``--rerun-failed``, ``-k``), named in both manifests."""
    check_pair_budget(settings)
    runs: list[RunResult] = []
    for arm, builder in arm_builders(settings.scaffolds_dir, baseline, overrides):
        runner = VerificationRunner(
            settings,
            prompt_builder=builder,
            progress=progress,
            arm=arm,
            reruns=reruns,
            keyword=keyword,
            pair_with=runs[0].run_id if runs else None,
        )
        if runners is not None:
            runners.append(runner)
        runs.append(await runner.run(scaffolds, tiers=tiers, case_ids=case_ids, size=size))
    a, b = runs
    draft: Literal["draft"] | None = "draft" if overrides else None
    a = _linked(a, b.run_id, "bare" if baseline == "none" else None)
    b = _linked(b, a.run_id, draft)
    pairing = compare_runs(settings.results_dir, a.run_id, b.run_id)
    a_label, b_label = pairing.labels
    return PairedRuns(a=a, b=b, pairing=pairing, a_label=a_label, b_label=b_label)
