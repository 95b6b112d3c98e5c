"""Why a run certifies nothing because of what it asked: the quick level, chosen cases or
tiers, one shard of a plan. Its statuses are then shown as :data:`UNCERTIFIED`, whatever
their rates."""

from __future__ import annotations

from verification.cases import TIERS
from verification.store.manifests import RunManifest

__all__ = ["UNCERTIFIED", "uncertified_reason"]


UNCERTIFIED = "UNCERTIFIED"
"""The status shown, in place of the rate's, by a run that certifies nothing because of
what it asked (:func:`uncertified_reason`)."""


def uncertified_reason(manifest: RunManifest) -> str | None:
    """Why a run that asked a model certifies nothing because of what it asked (the quick
    level, chosen cases or tiers, one shard of a plan); ``None`` when it certifies, and for
    a dry run or a replay, which keep their status words under their banner."""
    if manifest.dry_run:
        return None
    if manifest.level == "quick":
        return "the quick level asks too few cases to certify"
    if manifest.case_filter:
        return _chosen_cases(manifest)
    if not set(manifest.tiers) >= set(TIERS):
        return "only some tiers (--tier) were asked"
    if manifest.shard is not None:
        shard = manifest.shard
        return f"shard {shard.index} of {shard.count} asked only its slice: merge the shards"
    return None


def _chosen_cases(manifest: RunManifest) -> str:
    """Why a run of chosen cases certifies nothing, naming the option that chose them."""
    if manifest.reruns:
        return (
            f"only the cases that failed or errored in run {manifest.reruns} were asked "
            "(--rerun-failed)"
        )
    if manifest.keyword is not None:
        return "only the cases chosen with -k were asked"
    return "only the cases named with --case were asked"
