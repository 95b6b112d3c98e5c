"""Planning a run: which cases each scaffold is asked, at which level, sizes and seed.

A new run's cases are its level's tiers and count (:data:`~verification.config.LEVEL_CASES`)
and, at the thorough level or with ``--sizes``, a size sweep
(:mod:`verification.certify.envelope`); a resumed run's are exactly the ids its manifest planned,
drawn again from its seed (a private cert seed must be given again).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from verification.cases import CASE_ID_FORMAT, TIERS, TestCase, Tier, case_id, parse_case_id
from verification.catalog import Catalog, default_catalog
from verification.catalog.drawing import draw_case
from verification.catalog.spec import ScaffoldSpec
from verification.certify.envelope import sweep_plan, sweep_sizes
from verification.config import LEVEL_TIERS, Level, RunConfig, private_case_seed
from verification.errors import ConfigurationError, PluginError
from verification.registry import plan_tier_counts
from verification.store.manifests import RunManifest

__all__ = ["level_tiers", "plan_cases", "planned_sweep", "resumed_seed"]


def _checked_size(spec: ScaffoldSpec, tier: Tier, size: int | None) -> int | None:
    if size is not None:
        problem = spec.size.check(tier, size)
        if problem is not None:
            raise ConfigurationError(f"{spec.name}: {problem}; choose --size in it, or --tier")
    return size


def plan_cases(
    scaffold_names: Sequence[str],
    *,
    seed: int,
    cases: int,
    tiers: Sequence[Tier] = TIERS,
    case_ids: Sequence[str] = (),
    size: int | None = None,
    sweep: Mapping[str, Sequence[int]] | None = None,
    catalog: Catalog | None = None,
    plugin_failures: dict[str, PluginError] | None = None,
) -> dict[str, list[TestCase]]:
    """The cases of each scaffold: ``cases`` split over ``tiers`` (at ``size``, default each
    tier's own) and, for a scaffold ``sweep`` names, the size sweep's cases at its sizes
    (:func:`~verification.certify.envelope.sweep_cases`); or exactly ``case_ids`` (their ids say
    their sizes). A case a plugin's generator or reference cannot draw is left out and its
    error kept in ``plugin_failures`` by case id, when given (raised otherwise)."""
    catalog = catalog or default_catalog()
    planned: dict[str, list[TestCase]] = {}

    def draw(spec: ScaffoldSpec, tier: Tier, index: int, size: int | None) -> list[TestCase]:
        try:
            return [draw_case(spec, tier, index, seed=seed, size=size)]
        except PluginError as exc:
            if plugin_failures is None:
                raise
            named = None if size in (None, spec.sizes[tier]) else size
            plugin_failures[case_id(spec.name, tier, index, named)] = exc
            return []

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
                raise ConfigurationError(f"case {identifier} is not of {list(scaffold_names)}")
            chosen = planned.setdefault(spec.name, [])
            for case in draw(spec, key.tier, key.index, _checked_size(spec, key.tier, key.size)):
                if case not in chosen:  # "kmp-simple-1" and "kmp-simple-001" are one case
                    chosen.append(case)
        return planned
    counts = plan_tier_counts(cases, tiers)
    for name in scaffold_names:
        spec = catalog.get_spec(name)
        chosen = [
            case
            for tier in tiers
            for index in range(counts[tier])
            for case in draw(spec, tier, index, _checked_size(spec, tier, size))
        ]
        ids = {case.id for case in chosen}
        for tier, index, at in sweep_plan(spec, (sweep or {}).get(name, ())):
            for case in draw(spec, tier, index, at):
                if case.id not in ids:  # a tier's default size is a size a sweep may visit
                    ids.add(case.id)
                    chosen.append(case)
        planned[name] = chosen
    return planned


def planned_sweep(
    settings: RunConfig,
    scaffold_names: Sequence[str],
    *,
    catalog: Catalog,
    narrowed: bool,
) -> dict[str, list[int]] | None:
    """The sizes each scaffold is swept at: ``--sizes`` for every one, else at the thorough
    level each spec's own (:func:`~verification.certify.envelope.sweep_sizes`); none when the run is
    ``narrowed`` to chosen cases or one size."""
    if settings.sizes is not None:
        if narrowed:
            raise ConfigurationError("--sizes sweeps sizes: leave out --size and --case")
        return {name: list(settings.sizes) for name in scaffold_names}
    if settings.level != "thorough" or narrowed:
        return None
    return {name: sweep_sizes(catalog.get_spec(name)) for name in scaffold_names}


def level_tiers(level: Level, tiers: Sequence[Tier]) -> list[Tier]:
    """The tiers a run asks: the level's, unless the command line chose some."""
    if tuple(tiers) != TIERS:
        return list(tiers)
    return [tier for tier in TIERS if tier in LEVEL_TIERS[level]]


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
