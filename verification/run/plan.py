"""The planner: which cases a run asks, in which order, and how it is sent and stopped,
made before the run's first request and handed to the runner whole.

A new run's cases are its level's tiers and count (:data:`~verification.config.LEVEL_CASES`)
and, at the thorough level or with ``--sizes``, a size sweep
(:mod:`verification.certify.envelope`); with ``--shard I/N`` only that slice of them
(:mod:`verification.run.shards`). A resumed run's are exactly the ids its manifest planned,
drawn again from its seed (a private cert seed must be given again). Either way the plan
names its certification plan (:mod:`verification.certify.sequential`: the level's
sequential plan, or a fixed one for ``--cases N`` and ``--case``), its stopping rule
(:mod:`verification.run.stopping`: the plan's looks as it goes, or the whole plan at once
where a run cannot look as it goes) and its transport (:mod:`verification.run.transport`),
and the manifest is written from it. Under a sequential plan a scaffold's level cases are
in plan order (tiers interleaved), whichever rule asks them, so every run of the plan
decides on the same cases in the same order.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial

from verification.cases import (
    TIERS,
    Planned,
    Tier,
    parse_program_id,
)
from verification.catalog import Catalog
from verification.catalog.spec import ScaffoldSpec
from verification.certify.envelope import size_plan
from verification.certify.sequential import (
    CertificationPlan,
    fixed_plan,
    plan_from_record,
)
from verification.config import RunConfig, private_case_seed
from verification.errors import ConfigurationError, PluginError
from verification.llm.prompt_builder import PromptBuilder
from verification.run.case_plan import (
    drawing,
    level_tiers,
    packaged,
    plan_cases,
    planned_cases,
    planned_sweep,
    searches_envelope,
)
from verification.run.looks import interleaved, interleaved_ids
from verification.run.programs import SUITE_CASES, program_tasks
from verification.run.resuming import adopt_stored_scaffolds
from verification.run.shards import Shard, ShardCut, cut_plan
from verification.store.manifests import CostBasis, RunManifest

__all__ = [
    "BATCHES",
    "CONCURRENT",
    "ENVELOPE",
    "FIXED",
    "LOOKS",
    "RunPlan",
    "check_code_options",
    "level_tiers",
    "new_cases",
    "new_planned",
    "plan_cases",
    "plan_run",
    "planned_sweep",
    "resumed_seed",
    "searches_envelope",
]

FIXED = "fixed"
LOOKS = "looks"
ENVELOPE = "envelope"
CONCURRENT = "concurrent"
BATCHES = "batches"


@dataclass(frozen=True)
class RunPlan:
    """What a run asks, complete before its first request: each scaffold's cases in the
    order asked (a shard's slice only), how many samples of each, and the names of its
    stopping rule and transport. A new run's cases of the package's scaffolds are planned
    by what identifies them and drawn as they are asked (:class:`~verification.cases.
    PlannedCase`); a plugin's are drawn here, so the plan knows which it cannot draw."""

    cases: Mapping[str, Sequence[Planned]]
    failures: dict[str, PluginError] = field(default_factory=dict)
    """The cases a plugin could not draw, by id: planned too, each answered by its error."""
    samples: int = 1
    stopping: str = FIXED
    """The stopping rule's name (:mod:`verification.run.stopping`)."""
    transport: str = CONCURRENT
    """The transport's name (:mod:`verification.run.transport`)."""
    thinking_budget: int | None = None
    tiers: Sequence[Tier] = ()
    case_filter: Sequence[str] = ()
    sweep: dict[str, list[int]] | None = None
    cut: ShardCut | None = None
    """A shard's slice of the whole plan (the cases above are already cut to it)."""
    resumes: RunManifest | None = None
    """The manifest of the run this plan goes on with (its cases, its settings)."""
    certification: CertificationPlan | None = None
    """The certification plan its statuses are decided by (``None``: a resumed run from
    before plans, decided by the point cut)."""
    seed: int | None = None
    """The seed its cases are drawn from (a rule that adds sizes as it goes draws theirs
    from it)."""

    order: Mapping[str, Sequence[str]] = field(default_factory=dict)
    """Per scaffold whose order is not its drawn cases' and then its undrawable ones',
    every planned id in order: a sequential plan's undrawable cases keep their places,
    so the looks' windows hold them (a resumed run's order is its manifest's)."""

    def case_ids(self) -> dict[str, list[str]]:
        """Per scaffold, every planned case id in order: :attr:`order`'s, or the drawn
        cases, then those a plugin could not draw."""
        return {
            name: list(self.order[name])
            if name in self.order
            else [case.id for case in cases]
            + [i for i, error in self.failures.items() if error.scaffold == name]
            for name, cases in self.cases.items()
        }

    @property
    def recorded_basis(self) -> CostBasis | None:
        """The prices a resumed run was started with (a new run has none yet)."""
        return self.resumes.cost_basis if self.resumes is not None else None


def plan_run(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    prompt_builder: PromptBuilder,
    tiers: Sequence[Tier] = TIERS,
    case_ids: Sequence[str] = (),
    size: int | None = None,
    shard: Shard | None = None,
    resumes: RunManifest | None = None,
    stopping: str | None = None,
) -> RunPlan:
    """The plan of a run: ``resumes``'s own when given (``prompt_builder`` then reads each
    scaffold from the file that run read, where that still holds the text it hashed), else
    a new one drawn from ``settings`` and the command line's choices, cut to ``shard``.
    ``stopping`` names a rule the caller imposes (several models' runs ask everything): a
    thorough run's envelope is then its fixed sweep, and ``--envelope`` is refused."""
    if stopping is not None and stopping != ENVELOPE and resumes is None:
        if settings.envelope is True:
            raise ConfigurationError(
                f"--envelope is refused here: this run is asked by the {stopping!r} rule "
                "(every case at once), and the search decides one size before the next"
            )
        settings = settings.model_copy(update={"envelope": False})
    plan = (
        _resumed(resumes, settings, prompt_builder, catalog=catalog)
        if resumes is not None
        else _new(
            settings,
            scaffold_names,
            catalog=catalog,
            tiers=tiers,
            case_ids=case_ids,
            size=size,
            shard=shard,
        )
    )
    if plan.transport == BATCHES:  # sent at once: the looks are applied afterwards
        return replace(plan, stopping=FIXED)
    return plan


def _sequential_order(
    cases: list[Planned], level: Sequence[str], failures: Mapping[str, PluginError]
) -> tuple[list[Planned], list[str]]:
    """A scaffold's cases (its ``level`` ids' first, then its sweep's) in a sequential plan's
    order, tiers and sizes interleaved, and every planned id in that order where its plugin
    could not draw some of them (``failures``: the scaffold's own; none, no order): an
    undrawable case keeps its place, so a look's window holds its error (all of them at the
    end, a tier that could not be drawn was left out of every look, and the scaffold
    certified on the others). The sweep's undrawable cases come last, as before."""
    drawn = sum(identifier not in failures for identifier in level)
    head, tail = cases[:drawn], cases[drawn:]
    if drawn == len(level):
        return interleaved(head) + tail, []
    ids = interleaved_ids(level)
    by_id = {case.id: case for case in head}
    placed = set(level)
    rest = [case.id for case in tail]
    unplaced = [i for i in failures if i not in placed]
    return [by_id[i] for i in ids if i in by_id] + tail, ids + rest + unplaced


def _resumed(
    previous: RunManifest,
    settings: RunConfig,
    prompt_builder: PromptBuilder,
    *,
    catalog: Catalog,
) -> RunPlan:
    failures: dict[str, PluginError] = {}
    adopt_stored_scaffolds(previous, prompt_builder)
    case_ids = [i for info in previous.scaffolds.values() for i in info.case_ids]
    if previous.settings.get("answer") == "code":
        return RunPlan(
            {
                name: program_tasks(
                    catalog.get_spec(name),
                    seed=resumed_seed(previous, settings),
                    cases=SUITE_CASES.get(previous.level or "standard", SUITE_CASES["standard"]),
                    tiers=previous.tiers,
                    count=sum(parse_program_id(i) is not None for i in info.case_ids),
                )
                for name, info in previous.scaffolds.items()
            },
            stopping=LOOKS if previous.early_stops is not None and previous.plan else FIXED,
            certification=plan_from_record(previous.plan) if previous.plan else None,
            transport=BATCHES if settings.batch or previous.settings.get("batch") else CONCURRENT,
            thinking_budget=previous.thinking_budget,
            tiers=previous.tiers,
            resumes=previous,
        )
    seed = resumed_seed(previous, settings)
    planned = plan_cases(
        list(previous.scaffolds),
        seed=seed,
        cases=1,
        case_ids=case_ids,
        catalog=catalog,
        plugin_failures=failures,
    )
    looked = previous.early_stops is not None and previous.plan is not None
    return RunPlan(
        planned,
        failures,
        order={name: info.case_ids for name, info in previous.scaffolds.items()}
        if failures
        else {},
        samples=previous.samples,
        # a resumed run continues its plan as it went: its search, its looks, or all at once
        stopping=ENVELOPE if previous.envelope is not None else LOOKS if looked else FIXED,
        seed=seed,
        certification=plan_from_record(previous.plan) if previous.plan else None,
        transport=BATCHES if settings.batch or previous.settings.get("batch") else CONCURRENT,
        thinking_budget=previous.thinking_budget,
        case_filter=case_ids,
        resumes=previous,
    )


def new_planned(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    tiers: Sequence[Tier] = TIERS,
    case_ids: Sequence[str] = (),
    size: int | None = None,
    plugin_failures: dict[str, PluginError] | None = None,
    level_ids: dict[str, list[str]] | None = None,
    shard: bool = False,
    sweep: dict[str, list[int]] | None = None,
    lazily: Callable[[ScaffoldSpec], bool] | None = None,
) -> dict[str, list[Planned]]:
    """A new run's cases by scaffold: the level's tiers and count, the size sweep, or
    ``case_ids`` or ``size`` when given; what a run asks and ``--estimate`` prices (``sweep``,
    when given, in place of the run's: an envelope search's costliest course). The cases of
    each spec ``lazily`` names are left to be drawn as they are asked; :func:`new_cases`
    draws them all now."""
    return planned_cases(
        scaffold_names,
        seed=settings.case_seed,
        cases=settings.cases,
        tiers=level_tiers(settings.level, tiers),
        case_ids=case_ids,
        size=size,
        sweep=sweep
        or planned_sweep(
            settings,
            scaffold_names,
            catalog=catalog,
            narrowed=bool(case_ids) or size is not None,
            shard=shard,
        ),
        per_size=size_plan(settings.level).cap,
        catalog=catalog,
        plugin_failures=plugin_failures,
        level_ids=level_ids,
        lazily=lazily,
    )


new_cases = drawing(new_planned)
""":func:`new_planned` with every case drawn now."""


def _new(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    tiers: Sequence[Tier],
    case_ids: Sequence[str],
    size: int | None,
    shard: Shard | None,
) -> RunPlan:
    """A new run's plan (:func:`new_planned`): under a sequential certification plan each
    scaffold's level cases interleaved (its sweep's after them), and looked at as they are
    answered unless the run is a shard."""
    if settings.answer == "code":
        return _new_programs(
            settings,
            scaffold_names,
            catalog=catalog,
            tiers=tiers,
            refused={
                "--case": bool(case_ids),
                "--size": size is not None,
                "--shard": shard is not None,
            },
        )
    failures: dict[str, PluginError] = {}
    level: dict[str, list[str]] = {}
    # Resolved here as new_planned resolves them: the plan keeps the tiers and the sweep.
    tiers = level_tiers(settings.level, tiers)
    sweep = planned_sweep(
        settings,
        scaffold_names,
        catalog=catalog,
        narrowed=bool(case_ids) or size is not None,
        shard=shard is not None,
    )
    planned = new_planned(
        settings,
        scaffold_names,
        catalog=catalog,
        tiers=tiers,
        sweep=sweep,
        case_ids=case_ids,
        size=size,
        plugin_failures=failures,
        level_ids=level,
        shard=shard is not None,
        lazily=partial(packaged, catalog),
    )
    certification = settings.certification_plan
    if case_ids:  # the chosen cases, by the point cut
        certification = fixed_plan(max([len(cases) for cases in planned.values()] + [1]))
    order: dict[str, list[str]] = {}
    if certification.sequential:  # every prefix of a scaffold's cases holds all its groups
        for name, cases in planned.items():
            own = {i: error for i, error in failures.items() if error.scaffold == name}
            planned[name], order[name] = _sequential_order(cases, level[name], own)
    plan = RunPlan(
        planned,
        failures,
        order={name: ids for name, ids in order.items() if ids},
        samples=settings.samples,
        stopping=_stopping(certification, sweep, settings, shard=shard is not None),
        certification=certification,
        transport=BATCHES if settings.batch else CONCURRENT,
        thinking_budget=settings.thinking_budget,
        tiers=tiers,
        case_filter=case_ids,
        sweep=sweep,
        seed=settings.case_seed,
    )
    if shard is None:
        return plan
    cut = cut_plan(plan.case_ids(), shard)
    mine = cut.ids()
    return replace(
        plan,
        cases={
            name: [case for case in cases if case.id in mine] for name, cases in planned.items()
        },
        failures={i: error for i, error in plan.failures.items() if i in mine},
        order={name: [i for i in ids if i in mine] for name, ids in plan.order.items()},
        cut=cut,
    )


def check_code_options(settings: RunConfig, refused: Mapping[str, bool]) -> None:
    """:class:`ConfigurationError` for what code mode cannot take: ``--samples``, ``--sizes``,
    ``--envelope``, and each option of ``refused`` given (``--case``, ``--size``,
    ``--shard``). ``--estimate`` holds a plan to it as the run does (hunt ii: it priced
    "180 programs x 2 samples" of a run the command then refused)."""
    if settings.answer != "code":
        return
    if settings.samples > 1:
        raise ConfigurationError(
            "--samples is refused with --answer code: each program is already a sample "
            "(n counts programs)"
        )
    given_sizes = {"--sizes": settings.sizes is not None, "--envelope": settings.envelope is True}
    for option, given in {**refused, **given_sizes}.items():
        if given:
            raise ConfigurationError(
                f"{option} is refused with --answer code: each program runs on the whole "
                "suite, every tier and the spec's size ladder"
            )


def _new_programs(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    tiers: Sequence[Tier],
    refused: Mapping[str, bool],
) -> RunPlan:
    """A new code-mode plan: per scaffold, the level's number of programs, each run on the
    same suite (:func:`~verification.run.programs.program_tasks`) of the level's number of
    cases over every tier and the spec's size ladder."""
    check_code_options(settings, refused)
    # n counts programs: the level's certification plan decides how many, look by look
    # (--cases N: N, a fixed plan). The suite is SUITE_CASES of the level over every tier,
    # whatever the level (unless --tier chose some), and the spec's ladder.
    certification = settings.certification_plan
    return RunPlan(
        {
            name: program_tasks(
                catalog.get_spec(name),
                seed=settings.case_seed,
                cases=SUITE_CASES[settings.level],
                tiers=tiers,
                count=certification.cap,
            )
            for name in scaffold_names
        },
        stopping=LOOKS if certification.sequential else FIXED,
        certification=certification,
        transport=BATCHES if settings.batch else CONCURRENT,
        thinking_budget=settings.thinking_budget,
        tiers=list(tiers),
    )


def _stopping(
    certification: CertificationPlan,
    sweep: Mapping[str, Sequence[int]] | None,
    settings: RunConfig,
    *,
    shard: bool,
) -> str:
    """The rule a new run stops by: the envelope search when its sweep is one (sizes left
    to the search), else its plan's looks as it goes where it can, else all at once."""
    if sweep is not None and not any(sweep.values()):
        return ENVELOPE
    return LOOKS if _looks(certification, sweep, settings) and not shard else FIXED


def _looks(certification: CertificationPlan, sweep: object | None, settings: RunConfig) -> bool:
    """Whether a run has a plan to look at as it goes: its level's, or its sweep's sizes'
    (each decided by :func:`~verification.certify.envelope.size_plan`, also under a fixed
    ``--cases N`` plan)."""
    return certification.sequential or (sweep is not None and size_plan(settings.level).sequential)


def resumed_seed(manifest: RunManifest, settings: RunConfig) -> int:
    """The seed a resumed run's cases came from; a private one must be given again."""
    if not manifest.seed_private:
        return manifest.seed
    secret = settings.cert_seed
    if secret is None or settings.cert_seed_sha256 != manifest.seed_sha256:
        raise ConfigurationError(
            f"run {manifest.run_id} drew its cases from a private cert seed (sha256 "
            f"{str(manifest.seed_sha256)[:12]}...): set VERIFY_CERT_SEED to that seed to "
            "resume it"
        )
    return private_case_seed(secret)
