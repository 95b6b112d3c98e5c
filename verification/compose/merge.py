"""``merge RUN_DIR...``: the shards of one plan made into the run they are slices of.

The merged run has its own id; its manifest is the whole plan's (every scaffold's case ids
back in plan order, ``shard`` unset, ``merged_shards`` naming the shard runs) and its
journal every shard's lines in plan order, so its results, statuses, intervals and reports
are those an unsharded run of the plan would have. Shards of different plans, a shard
given twice or two shards with one number, and missing shards are refused, by name.
"""

from __future__ import annotations

import contextlib
import itertools
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from verification.cases import printable
from verification.catalog import Catalog
from verification.certify.costs import run_costs
from verification.certify.results import results_from_journal
from verification.errors import ConfigurationError, JournalError, RunWriteError
from verification.run.shards import plan_digests
from verification.runner import RunResult
from verification.store.code_version import code_version
from verification.store.journal import JournalWriter, check_planned, read_journal
from verification.store.locks import check_not_in_use
from verification.store.manifests import RunManifest, ScaffoldEntry, read_manifest_file
from verification.store.paths import RunPaths
from verification.store.pricing import ModelPrice
from verification.store.records import AttemptRecord
from verification.store.run_ids import new_run_id

__all__ = ["ShardRun", "merge_shards", "read_shard"]

_NAMED_MISSING = 10
"""How many missing shards an error names at most."""


@dataclass(frozen=True)
class ShardRun:
    """One shard as ``merge`` reads it."""

    run_dir: Path
    manifest: RunManifest
    records: list[AttemptRecord]


def read_shard(run_dir: Path) -> ShardRun:
    """The shard run in ``run_dir`` (its manifest and journal, read as untrusted files)."""
    try:
        manifest = read_manifest_file(run_dir / "manifest.json")
    except FileNotFoundError:
        raise ConfigurationError(f"{run_dir}: no manifest.json (not a run folder)") from None
    if manifest.shard is None:
        raise ConfigurationError(f"{run_dir}: run {manifest.run_id} is not a shard (no --shard)")
    info = manifest.shard
    if not set(info.positions) == set(info.planned) == set(manifest.scaffolds):
        raise JournalError(f"{run_dir}: its manifest's shard does not name its scaffolds")
    for name, entry in manifest.scaffolds.items():
        places = info.positions.get(name, [])
        total = info.planned.get(name, -1)
        if len(places) != len(entry.case_ids) or any(not 0 <= p < total for p in places):
            raise JournalError(f"{run_dir}: its manifest's shard positions do not fit {name}")
    # A shard still being asked has a journal cut short: merged, its missing answers would
    # be asked again (and paid for) by the merged run's resume, though the shard holds them.
    check_not_in_use(run_dir, manifest.run_id, then="merge")
    records = read_journal(run_dir / "results.jsonl")
    # Each shard's lines against its own plan: another shard's case in it is planned by the
    # whole plan, so only here can it be told from an answer this shard was asked.
    check_planned(manifest, records, f"shard {run_dir}")
    return ShardRun(run_dir, manifest, records)


def _check_set(shards: Sequence[ShardRun]) -> None:
    """Refuse shards of different plans, overlapping or missing shards, naming which."""
    plans: dict[tuple[str, int, tuple[tuple[str, int], ...]], list[ShardRun]] = {}
    for shard in shards:
        info = shard.manifest.shard
        assert info is not None
        planned = tuple(sorted(info.planned.items()))
        plans.setdefault((info.plan_sha256, info.count, planned), []).append(shard)
    if len(plans) > 1:
        groups = "; ".join(
            f"plan {digest[:12]} in {count} shard(s): " + ", ".join(str(s.run_dir) for s in runs)
            for (digest, count, _), runs in plans.items()
        )
        raise ConfigurationError(f"the runs are shards of different plans ({groups})")
    ((digest, count, _),) = plans
    by_index: dict[int, list[ShardRun]] = {}
    for shard in shards:
        assert shard.manifest.shard is not None
        by_index.setdefault(shard.manifest.shard.index, []).append(shard)
    twice = {index: runs for index, runs in by_index.items() if len(runs) > 1}
    if twice:
        raise ConfigurationError(
            "overlapping shards: "
            + "; ".join(
                f"{index}/{count} in " + ", ".join(str(s.run_dir) for s in runs)
                for index, runs in sorted(twice.items())
            )
        )
    _check_prices(shards)
    if len(by_index) < count:
        # A tampered manifest may claim any count: name a few missing shards, never loop
        # over all of them.
        absent = (index for index in range(1, count + 1) if index not in by_index)
        missing = [f"{index}/{count}" for index in itertools.islice(absent, _NAMED_MISSING)]
        more = count - len(by_index) - len(missing)
        raise ConfigurationError(
            f"missing shard(s) of plan {digest[:12]}: {', '.join(missing)}"
            + (f" and {more} more" if more else "")
            + " (each shard's run folder must be given)"
        )


def _check_prices(shards: Sequence[ShardRun]) -> None:
    """Refuse shards priced differently: the merged run has one price (the first shard's
    ``cost_basis``), and repricing a shard's calls at another's would report what no one
    paid (a recorded price is never repriced)."""
    first = shards[0].manifest.cost_basis
    price = first.price if first is not None else None
    for shard in shards[1:]:
        basis = shard.manifest.cost_basis
        other = basis.price if basis is not None else None
        if other != price:
            raise ConfigurationError(
                f"{shard.run_dir} was priced at {_per_million(other)}, "
                f"{shards[0].run_dir} at {_per_million(price)}: a merged run has one price, "
                "so run every shard with the same prices (VERIFY_PRICES)"
            )


def _per_million(price: ModelPrice | None) -> str:
    if price is None:
        return "no price"
    return f"${price.input:g} in, ${price.output:g} out per million tokens"


def _whole_plan(shards: Sequence[ShardRun], run_id: str) -> RunManifest:
    """The manifest of the unsharded run: case ids back in plan order."""
    first = shards[0].manifest
    assert first.shard is not None
    scaffolds: dict[str, ScaffoldEntry] = {}
    for name, total in first.shard.planned.items():
        held = sum(len(shard.manifest.scaffolds[name].case_ids) for shard in shards)
        if held != total:  # before allocating: a tampered total may be any number
            raise JournalError(
                f"the shards hold {held} case(s) of {name}, their plan {total} (a manifest "
                "was changed, or a shard's run folder is missing)"
            )
        ids: list[str | None] = [None] * total
        for shard in shards:
            info = shard.manifest.shard
            assert info is not None
            mine = shard.manifest.scaffolds.get(name)
            places = info.positions.get(name, [])
            for place, identifier in zip(places, mine.case_ids if mine else [], strict=True):
                if ids[place] is not None:
                    raise JournalError(f"{shard.run_dir}: plans case {place} of {name} twice")
                ids[place] = identifier
        if None in ids:
            raise JournalError(f"the shards do not hold every planned case of {name}")
        scaffolds[name] = first.scaffolds[name].model_copy(
            update={"case_ids": [i for i in ids if i is not None]}
        )
    manifests = [shard.manifest for shard in shards]
    finished = [m.finished_at for m in manifests]
    whole = first.model_copy(
        update={
            "run_id": run_id,
            "created_at": min(m.created_at for m in manifests),
            "finished_at": None if None in finished else max(f for f in finished if f),
            "interrupted": any(m.interrupted for m in manifests),
            "stopped_by_budget": any(m.stopped_by_budget for m in manifests),
            "models_returned": sorted({model for m in manifests for model in m.models_returned}),
            "scaffolds": scaffolds,
            "shard": None,
            "merged_shards": [m.run_id for m in manifests],
        }
    )
    if first.shard.plan_sha256 not in plan_digests(whole):
        versions = sorted({printable(m.code_version, 60) for m in manifests})
        ours = code_version()
        written = (
            f": they were written by harness {', '.join(versions)}, this is {ours}; merge them "
            "with the harness that wrote them"
            if versions != [ours]
            else ": edited since they were written?"
        )
        raise JournalError(
            "the shards' manifests do not rebuild the plan they name "
            f"({first.shard.plan_sha256[:12]}){written}"
        )
    return whole


def merge_shards(
    run_dirs: Sequence[Path], results_dir: Path, *, catalog: Catalog | None = None
) -> RunResult:
    """One run of the plan ``run_dirs`` are the shards of, under ``results_dir/runs``;
    reports are the caller's."""
    if not run_dirs:
        raise ConfigurationError("merge: give the run folders of every shard")
    shards = sorted((read_shard(Path(d)) for d in run_dirs), key=_shard_index)
    _check_set(shards)
    paths = RunPaths(results_dir, new_run_id(datetime.now(UTC)))
    paths.check_creatable()
    manifest = _whole_plan(shards, paths.run_id)
    place = {
        identifier: (rank, position)
        for rank, entry in enumerate(manifest.scaffolds.values())
        for position, identifier in enumerate(entry.case_ids)
    }
    records = sorted(
        (record for shard in shards for record in shard.records),
        key=lambda r: (*place.get(r.case_id, (len(place), 0)), r.epoch, r.attempt),
    )
    results = results_from_journal(manifest, records, catalog=catalog)  # strays refused here
    try:
        with contextlib.ExitStack() as owned:
            owned.enter_context(paths.lock())
            # The journal first, the manifest last: a merge killed before its end leaves
            # no run to resume (a resume of a merged journal cut short would ask the model
            # again for answers the shards hold), and a merged run is whole.
            with JournalWriter(paths.journal, paths.run_id) as journal:
                for record in records:
                    journal.append(record)
            paths.write_manifest(manifest)
    except (RunWriteError, OSError) as exc:
        # The shards hold every answer, and merge only reads them: the partial run goes,
        # and the same merge is the way on (a resume of it would pay for them again).
        shutil.rmtree(paths.run_dir, ignore_errors=True)
        why = exc.problem if isinstance(exc, RunWriteError) else str(exc)
        raise JournalError(
            f"merge could not write run {paths.run_id} ({why}); the partial run is removed "
            "and the shards are untouched: fix that, then run the same merge again"
        ) from None
    return RunResult(paths.run_id, paths, manifest, results, run_costs(manifest, records))


def _shard_index(shard: ShardRun) -> int:
    assert shard.manifest.shard is not None
    return shard.manifest.shard.index
