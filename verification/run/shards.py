"""Sharded runs: one plan cut into N disjoint, deterministic slices (``verify --shard I/N``).

Each shard is an ordinary run with its own id whose manifest keeps only its own cases, and
in :class:`~verification.store.journal.ShardInfo` where they stand in the whole plan and the
plan's digest. The cut is a function of the case ids alone: the plan's cases are grouped by
scaffold, tier and size, each group in index order, and dealt out in turn over all the
groups, so every shard holds each group's cases to within one and the same count to within
one. ``merge`` (:mod:`verification.compose.merge`) puts the slices back together.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from verification.cases import TIERS, parse_case_id
from verification.errors import ConfigurationError
from verification.store.manifests import RunManifest, ShardInfo

__all__ = [
    "ADDED_LATER",
    "PLAN_FIELDS",
    "PLAN_SETTINGS",
    "Shard",
    "ShardCut",
    "cut_plan",
    "parse_shard",
    "plan_digests",
    "plan_sha256",
]

_SHARD = re.compile(r"([0-9]{1,6})/([0-9]{1,6})")
PLAN_FIELDS = (
    "provider",
    "dry_run",
    "model_requested",
    "seed",
    "seed_private",
    "seed_sha256",
    "level",
    "sizes",
    "cases",
    "samples",
    "tiers",
    "case_filter",
    "template_version",
    "code_format_version",
    "variant",
)
"""What two shards must agree on, beside each scaffold's file digest and case ids."""
ADDED_LATER = ("code_format_version",)
"""Fields of :data:`PLAN_FIELDS` an older harness's digest was taken without (hunt af:
shards written before one was added were refused by merge as if their manifests had been
edited): unset, the plan is named by either digest."""
PLAN_SETTINGS = ("temperature", "repair_attempts", "thinking_budget")
"""The settings that change what a case is asked (the others change how fast or where)."""


@dataclass(frozen=True)
class Shard:
    """The ``index``-th (from 1) of ``count`` slices of a plan."""

    index: int
    count: int

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"


def parse_shard(text: str) -> Shard:
    """``I/N`` with 1 <= I <= N; a :class:`ConfigurationError` saying so otherwise."""
    match = _SHARD.fullmatch(text.strip())
    if match is None:
        raise ConfigurationError(f"--shard {text!r:.40}: expected I/N, e.g. 2/4")
    index, count = int(match[1]), int(match[2])
    if not 1 <= index <= count:
        raise ConfigurationError(f"--shard {text}: I must be from 1 to N ({count})")
    return Shard(index, count)


def plan_digests(manifest: RunManifest) -> frozenset[str]:
    """Every digest a shard may name the whole plan of ``manifest`` by: its
    :func:`plan_sha256`, and where the fields added later are unset, the digest an older
    harness took without them."""
    digests = {plan_sha256(manifest)}
    if all(getattr(manifest, name) is None for name in ADDED_LATER):
        older = tuple(name for name in PLAN_FIELDS if name not in ADDED_LATER)
        digests.add(plan_sha256(manifest, fields=older))
    return frozenset(digests)


def plan_sha256(manifest: RunManifest, *, fields: Sequence[str] = PLAN_FIELDS) -> str:
    """The digest of a whole (unsharded) plan: who is asked, what settings change the
    question, and every scaffold's file digest and case ids in order (``fields``: the
    manifest's fields it takes, :data:`PLAN_FIELDS` unless an older harness's)."""
    plan = {name: getattr(manifest, name) for name in fields if name != "provider"}
    plan["provider"] = manifest.provider.get("provider")
    plan["settings"] = {name: manifest.settings.get(name) for name in PLAN_SETTINGS}
    plan["scaffolds"] = {
        name: {"sha256": entry.sha256, "case_ids": entry.case_ids}
        for name, entry in manifest.scaffolds.items()
    }
    text = json.dumps(plan, sort_keys=True, allow_nan=False, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def _deal(case_ids: Mapping[str, Sequence[str]], count: int) -> dict[str, list[int]]:
    """Per scaffold, which shard (0-based) each planned case goes to."""
    tier_order = {tier: position for position, tier in enumerate(TIERS)}
    members: list[tuple[tuple[int, int, int, int, int], str, int]] = []
    for rank, (name, ids) in enumerate(case_ids.items()):
        for position, identifier in enumerate(ids):
            key = parse_case_id(identifier)
            if key is None:  # planned ids are made by case_id(): only a damaged manifest
                raise ConfigurationError(f"{identifier!r:.80} is not a case id")
            size = -1 if key.size is None else key.size
            group = (rank, tier_order.get(key.tier, len(TIERS)), size, key.index, position)
            members.append((group, name, position))
    deal = {name: [0] * len(ids) for name, ids in case_ids.items()}
    for turn, (_, name, position) in enumerate(sorted(members)):
        deal[name][position] = turn % count
    return deal


@dataclass(frozen=True)
class ShardCut:
    """A shard's slice of a whole plan: the whole plan's case ids per scaffold, and where
    this shard's stand in each."""

    shard: Shard
    whole: dict[str, list[str]]
    positions: dict[str, list[int]]

    def ids(self) -> set[str]:
        """The case ids this shard asks."""
        return {self.whole[name][p] for name, mine in self.positions.items() for p in mine}

    def narrow(self, manifest: RunManifest) -> RunManifest:
        """``manifest``, written for the whole plan, narrowed to this shard's cases, with
        its :class:`~verification.store.journal.ShardInfo`."""
        scaffolds = {
            name: entry.model_copy(
                update={"case_ids": [entry.case_ids[p] for p in self.positions[name]]}
            )
            for name, entry in manifest.scaffolds.items()
        }
        info = ShardInfo(
            index=self.shard.index,
            count=self.shard.count,
            plan_sha256=plan_sha256(manifest),
            positions=self.positions,
            planned={name: len(entry.case_ids) for name, entry in manifest.scaffolds.items()},
        )
        return manifest.model_copy(update={"scaffolds": scaffolds, "shard": info})


def cut_plan(case_ids: Mapping[str, Sequence[str]], shard: Shard) -> ShardCut:
    """``shard``'s slice of the plan whose cases are ``case_ids`` (per scaffold, in order)."""
    deal = _deal(case_ids, shard.count)
    return ShardCut(
        shard,
        {name: list(ids) for name, ids in case_ids.items()},
        {
            name: [p for p, owner in enumerate(owners) if owner == shard.index - 1]
            for name, owners in deal.items()
        },
    )
