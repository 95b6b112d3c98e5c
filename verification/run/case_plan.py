"""Which cases a new run plans, scaffold by scaffold: its level's tiers and counts, ``--case``
ids or one ``--size``, and the size sweep's cases after them; each of the package's own
scaffolds' cases planned to be drawn when it is asked (a plugin's drawn here). The planner
(:mod:`verification.run.plan`) orders them, cuts shards and names the stopping rule."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import partial, wraps
from typing import ParamSpec

from verification.cases import (
    CASE_ID_FORMAT,
    TIERS,
    CaseKey,
    Planned,
    PlannedCase,
    TestCase,
    Tier,
    case_id,
    drawn,
    parse_case_id,
    printable,
)
from verification.catalog import Catalog, default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import STRESS_TIERS, ScaffoldSpec
from verification.certify.envelope import CASES_PER_SIZE, sweep_plan, sweep_sizes
from verification.config import LEVEL_TIERS, Level, RunConfig
from verification.errors import ConfigurationError, PluginError
from verification.registry import plan_tier_counts

P = ParamSpec("P")

__all__ = [
    "drawing",
    "level_tiers",
    "packaged",
    "plan_cases",
    "planned_cases",
    "planned_sweep",
    "searches_envelope",
]


def _checked_size(
    spec: ScaffoldSpec, tier: Tier, size: int | None, *, asked: Sequence[Tier] = ()
) -> int | None:
    """``size`` when ``tier`` honours it; ``asked``: the tiers a ``--size`` run asks, each
    of which must (the error names the sizes they share, as ``list`` shows them)."""
    if size is not None:
        problem = spec.size.check(tier, size)
        if problem is not None:
            honouring = [t for t in STRESS_TIERS if spec.size.in_stress(t, size)]
            if honouring:  # a stress size: only those tiers' inputs scale to it
                raise ConfigurationError(
                    f"{spec.name}: {problem}; {size} is a stress size, which only the "
                    f"{' and '.join(honouring)} tiers draw: add --tier {honouring[-1]}"
                )
            if not asked:  # a case id's own size
                raise ConfigurationError(f"{spec.name}: {problem}; choose a size in it")
            shared = ", ".join(f"{low}..{high}" for low, high in spec.size.shared(asked))
            share = f"share {shared}" if shared else "share no size"
            raise ConfigurationError(
                f"{spec.name}: {problem}; --size applies to every tier the run "
                f"asks ({', '.join(asked)}), which {share}: choose --size in it, or --tier "
                "to ask only tiers that honour it"
            )
    return size


def packaged(catalog: Catalog, spec: ScaffoldSpec) -> bool:
    """Whether ``spec`` is one of the package's own scaffolds (declared by a module of
    :mod:`verification.catalog`): its cases may be drawn as they are asked. A plugin's are
    drawn while planning, so the plan (and the manifest written from it) knows which cases
    it cannot draw; a package scaffold that cannot draw a case of its declared range is a
    defect of the package (``tests/catalog/test_every_size.py`` draws every size), which
    stops the run when that case is drawn."""
    return catalog.origins.get(spec.name, "").startswith("verification.catalog.")


def planned_cases(
    scaffold_names: Sequence[str],
    *,
    seed: int,
    cases: int,
    tiers: Sequence[Tier] = TIERS,
    case_ids: Sequence[str] = (),
    size: int | None = None,
    sweep: Mapping[str, Sequence[int]] | None = None,
    per_size: int = CASES_PER_SIZE,
    catalog: Catalog | None = None,
    plugin_failures: dict[str, PluginError] | None = None,
    level_ids: dict[str, list[str]] | None = None,
    lazily: Callable[[ScaffoldSpec], bool] | None = None,
) -> dict[str, list[Planned]]:
    """The cases of each scaffold: ``cases`` split over ``tiers`` (at ``size``, default each
    tier's own) and, for a scaffold ``sweep`` names, the size sweep's ``per_size`` cases at
    each of its sizes (:func:`~verification.certify.envelope.sweep_cases`); or exactly
    ``case_ids`` (their ids say their sizes). A case a plugin's generator or reference
    cannot draw is left out and its error kept in ``plugin_failures`` by case id, when given
    (raised otherwise).
    ``level_ids``, when given, is told the ids of each scaffold's level cases (the first of
    its cases, before its sweep's), in order, a plugin's undrawable ones among them. Each
    case of a spec ``lazily`` names (chosen ids aside) is planned to be drawn when it is
    asked; :func:`plan_cases` draws them all now."""
    catalog = catalog or default_catalog()
    planned: dict[str, list[Planned]] = {}

    drawn_later: dict[str, bool] = {}  # asked once per spec, not per case
    tried: list[str] = []  # the ids draw() was asked for, drawn or not, in order

    def later(
        spec: ScaffoldSpec, tier: Tier, indices: Iterable[int], size: int | None
    ) -> list[Planned]:
        if spec.name not in drawn_later:
            drawn_later[spec.name] = lazily is not None and lazily(spec)
        if not drawn_later[spec.name]:
            return [case for index in indices for case in draw(spec, tier, index, size)]
        # A level's cap is thousands of cases, each planned before the run (most are never
        # asked when a look decides): what all of a tier's share alike is found once.
        named = None if size in (None, spec.sizes[tier]) else size
        actual = spec.sizes[tier] if named is None else named
        return [
            PlannedCase(
                case_id(spec.name, tier, index, named),
                CaseKey(spec.name, tier, index, named),
                actual,
                partial(draw_case, spec, tier, index, seed=seed, size=size),
                seed=seed,
            )
            for index in indices
        ]

    def draw(spec: ScaffoldSpec, tier: Tier, index: int, size: int | None) -> list[TestCase]:
        try:
            case = draw_case(spec, tier, index, seed=seed, size=size)
        except PluginError as exc:
            if plugin_failures is None:
                raise
            named = None if size in (None, spec.sizes[tier]) else size
            identifier = case_id(spec.name, tier, index, named)
            plugin_failures[identifier] = exc
            tried.append(identifier)
            return []
        tried.append(case.id)
        return [case]

    if case_ids:
        if size is not None:
            raise ConfigurationError("--case ids say their sizes: leave out --size")
        for identifier in case_ids:
            key = parse_case_id(identifier)
            if key is None:
                raise ConfigurationError(
                    f"bad case id {identifier!r}: expected {CASE_ID_FORMAT}, "
                    "e.g. dijkstra-standard-004 or dijkstra-standard-s12-004"
                )
            spec = catalog.get_spec(key.scaffold)
            if scaffold_names and spec.name not in scaffold_names:
                named = ", ".join(scaffold_names)  # not a Python list's repr (hunt ii)
                raise ConfigurationError(
                    f"case {printable(identifier, 80)} is not a case of {named} (the scaffolds "
                    "named)"
                )
            chosen = planned.setdefault(spec.name, [])
            for case in draw(spec, key.tier, key.index, _checked_size(spec, key.tier, key.size)):
                if case not in chosen:  # "kmp-simple-1" and "kmp-simple-001" are one case
                    chosen.append(case)
        return planned
    counts = plan_tier_counts(cases, tiers)
    asked = [tier for tier in tiers if counts[tier]]
    for name in scaffold_names:
        spec = catalog.get_spec(name)
        ordered: list[Planned] = []
        tried.clear()
        for tier in asked:
            at = _checked_size(spec, tier, size, asked=asked)
            ordered.extend(later(spec, tier, range(counts[tier]), at))
        ids = {planned_case.id for planned_case in ordered}
        if level_ids is not None:  # a lazy plan draws nothing yet, so fails at nothing
            level_ids[name] = list(tried) if tried else [case.id for case in ordered]
        for tier, index, at in sweep_plan(spec, (sweep or {}).get(name, ()), per_size=per_size):
            for planned_case in later(spec, tier, (index,), at):
                if planned_case.id not in ids:  # a tier's default size a sweep may visit
                    ids.add(planned_case.id)
                    ordered.append(planned_case)
        planned[name] = ordered
    return planned


def planned_sweep(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    narrowed: bool,
    shard: bool = False,
) -> dict[str, list[int]] | None:
    """The sizes each scaffold is swept at: ``--sizes`` for every one; with an envelope
    search (:func:`searches_envelope`) none yet, each scaffold's empty list (the search adds
    them as it goes); else at the thorough level each spec's own
    (:func:`~verification.certify.envelope.sweep_sizes`); none when the run is ``narrowed``
    to chosen cases or one size."""
    if searches_envelope(settings, narrowed=narrowed, shard=shard):
        return {name: [] for name in scaffold_names}
    if settings.sizes is not None:
        if narrowed:
            raise ConfigurationError("--sizes sweeps sizes: leave out --size, --case and -k")
        return {name: list(settings.sizes) for name in scaffold_names}
    if settings.level != "thorough" or narrowed:
        return None
    return {name: sweep_sizes(catalog.get_spec(name)) for name in scaffold_names}


def searches_envelope(settings: RunConfig, *, narrowed: bool, shard: bool = False) -> bool:
    """Whether a new run searches each scaffold's size envelope
    (:mod:`verification.certify.envelope_search`): asked for with ``--envelope``, or a
    thorough run's automatic envelope where the run can decide size after size (not with
    ``--sizes``, ``--batch``, ``--shard``, several models or ``--envelope`` turned off). An
    ``--envelope`` the run cannot search is refused, saying why."""
    if settings.envelope is True:
        refused = {
            "--sizes (the search chooses its sizes)": settings.sizes is not None,
            "--size, --case or -k (it searches sizes)": narrowed,
            "--batch (it decides one size before choosing the next)": settings.batch,
            "--shard (each size is decided before the next is chosen)": shard,
            "several models (each model's search takes its own course)": len(settings.model_names)
            > 1,
        }
        for option, given in refused.items():
            if given:
                raise ConfigurationError(f"--envelope is refused with {option}")
        return True
    return (
        settings.envelope is None
        and settings.level == "thorough"
        and not (narrowed or shard or settings.batch or settings.sizes is not None)
        and len(settings.model_names) == 1
    )


def level_tiers(level: Level, tiers: Sequence[Tier]) -> list[Tier]:
    """The tiers a run asks: the level's, unless the command line chose some."""
    if tuple(tiers) != TIERS:
        return list(tiers)
    return [tier for tier in TIERS if tier in LEVEL_TIERS[level]]


def drawing(
    plan: Callable[P, dict[str, list[Planned]]],
) -> Callable[P, dict[str, list[TestCase]]]:
    """``plan`` with every case it plans drawn at once, for callers that read each case's
    input now (``show-prompt``, ``--estimate``'s prompts, the tests)."""

    @wraps(plan)
    def drawn_now(*args: P.args, **kwargs: P.kwargs) -> dict[str, list[TestCase]]:
        planned = plan(*args, **kwargs)
        return {name: [drawn(case) for case in cases] for name, cases in planned.items()}

    return drawn_now


plan_cases = drawing(planned_cases)
""":func:`planned_cases` with every case drawn now."""
