"""Which failures ``verify --rerun-failed RUN_ID`` asks (:func:`failed_cases`; a bare arm's
asked bare, :func:`say_rerun_arm`), and who it asks when the command does not say: the run's own
provider, model and server, so the failures of a run at a local server are asked again
there with ``--rerun-failed RUN_ID`` alone, as ``--resume RUN_ID`` goes on there. What the
command line or the environment names holds (another model, another provider: that is what
a rerun is for), and the run's model and server are taken only with its provider.

A server read from a manifest is taken only on this machine: a manifest is a file anyone
may have edited (a downloaded CI artifact), and the key goes only where the user's own
setting says."""

from __future__ import annotations

import shlex
import sys
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from verification.cases import printable
from verification.cli.resume_options import server_url
from verification.errors import ConfigurationError
from verification.llm.providers import PROVIDERS
from verification.run.resuming import BASE_URL_SETTINGS
from verification.store.manifests import RunManifest
from verification.store.urls import on_this_machine

if TYPE_CHECKING:
    from verification.config import RunConfig

__all__ = ["failed_cases", "say_rerun_arm", "settings_of_rerun"]


def settings_of_rerun(
    manifest: RunManifest, given: Mapping[str, Any], today: Any
) -> dict[str, Any]:
    """The setting overrides of a rerun of ``manifest``'s failures: ``given`` (the command
    line's options, None where not given) with the run's provider, model and base URL
    filled in where neither ``given`` nor ``today`` (the settings read today, whose
    ``model_fields_set`` holds what the environment and ``.env`` set) names them, and the
    response cache left unread when the rerun asks the run's own model. Raises
    :class:`ConfigurationError` when the run's server is another machine's and nothing
    today names a server."""
    merged = dict(given)
    named = set(getattr(today, "model_fields_set", ())) | {
        setting for setting, value in given.items() if value is not None
    }
    provider = manifest.provider.get("provider")
    if not isinstance(provider, str):
        return merged
    # A model named for a dry run's failures asks a model: the default provider's, not the
    # dry run's, which would ignore it.
    if "provider" not in named and not (manifest.dry_run and "model" in named):
        if provider not in PROVIDERS:  # an edited manifest's: not the options' to answer for
            raise ConfigurationError(
                f"--rerun-failed {manifest.run_id}: its manifest names provider "
                f"{printable(provider, 100)!r}, which this harness does not know (edited?): "
                "name one with --provider"
            )
        merged["provider"] = provider
    if (merged.get("provider") or getattr(today, "provider", None)) != provider:
        return merged  # another provider asked: the run's model and server are not its
    if "model" not in named and not manifest.dry_run and manifest.model_requested:
        merged["model"] = [manifest.model_requested]
    _unread_cache(manifest, merged, named, today)
    if provider not in BASE_URL_SETTINGS:
        return merged
    setting, variables = BASE_URL_SETTINGS[provider]
    asked = manifest.settings.get(setting, manifest.provider.get("base_url"))
    if setting in named or asked is None:
        return merged  # today's server, or the SDK's default then and now
    recorded = server_url(manifest, asked, "--rerun-failed")
    if not on_this_machine(recorded):
        raise ConfigurationError(
            f"--rerun-failed {manifest.run_id}: the run asked {recorded}, which its manifest "
            "names; a server read from a file is not sent your API key: set "
            f"{variables[-1]}={shlex.quote(recorded)} to ask it again, or name another "
            "server or provider"
        )
    merged[setting] = recorded
    _note(
        f"the failures of run {manifest.run_id} are asked at its server, {recorded} (its "
        "base URL, from its manifest)"
    )
    return merged


def _unread_cache(
    manifest: RunManifest, merged: dict[str, Any], named: set[str], today: Any
) -> None:
    """No response cache for a rerun of the run's own model: the cache holds the very
    answers that failed (a wrong answer is a complete one), and would give them again."""
    if manifest.dry_run or not manifest.model_requested or "cache" in named:
        return
    if (merged.get("model") or getattr(today, "model", None)) != [manifest.model_requested]:
        return  # another model: what the cache holds of it was its own answer
    merged["cache"] = False
    _note(
        f"the failures of run {manifest.run_id} are asked of its model again, not read "
        "from the response cache, which holds the answers that failed"
    )


def _note(text: str) -> None:
    print(printable(f"note: {text}"), file=sys.stderr)


def failed_cases(
    settings: RunConfig,
    run_id: str,
    chosen: Sequence[str],
    category: str | None,
    case_ids: Sequence[str],
) -> list[str]:
    """Run ``run_id``'s failed or errored cases, narrowed to the scaffolds or cases named
    beside ``--rerun-failed``."""
    from verification.registry import resolve_scaffold_names
    from verification.run.selection import rerun_case_ids

    failed = rerun_case_ids(settings, run_id)
    if case_ids:
        failed = [i for i in failed if i in case_ids]
    if chosen or category:
        names = set(resolve_scaffold_names(chosen, category=category))
        failed = [i for i in failed if i.split("-")[0] in names]
    return failed


def say_rerun_arm(settings: RunConfig, run_id: str) -> None:
    """Say that a bare arm's failures are asked bare again, as the runner asks them
    (:func:`~verification.run.resuming.rerun_arm`): no scaffold, whatever is named."""
    from verification.run.resuming import recorded_arm
    from verification.store.paths import RunPaths

    manifest = RunPaths(settings.results_dir, run_id).read_manifest()
    if recorded_arm(manifest) == "bare":
        _note(
            f"run {run_id} asked its cases bare (a --baseline pair's bare arm, or a rerun of "
            "one): its failures are asked bare again, with no scaffold (--baseline none "
            f"--rerun-failed {run_id} asks them both ways)"
        )
