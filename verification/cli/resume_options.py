"""What ``verify --resume RUN_ID`` takes from the run's manifest: who answered (provider,
model, the server's base URL), how deep and on what (mode, level, cases, samples, seed) and
the replay file, so a stopped run goes on with ``--resume RUN_ID`` alone (a dry run stopped
by Ctrl-C does not ask for an API key; a run at a local server needs no
``VERIFY_OPENAI_BASE_URL``). An option given beside ``--resume`` that says otherwise is
refused, naming it: a run answered half by one model and half by another would certify
neither. A base URL set in the environment that names another server than the run's is
refused too, saying to unset it or set it back."""

from __future__ import annotations

import os
import shlex
import sys
from collections.abc import Callable, Mapping
from typing import Any
from urllib.parse import urlsplit

from verification.cases import printable
from verification.errors import ConfigurationError
from verification.run.resuming import BASE_URL_SETTINGS
from verification.store.manifests import RunManifest
from verification.store.urls import on_this_machine, same_server, without_credentials

__all__ = ["NOT_SENT", "RESUMED", "server_url", "settings_of_run"]

NOT_SENT: Any = object()
"""What the manifest says of a setting it records as unset (a temperature the run never
sent): set today, by option or variable, it would contradict the run as much as another
value would."""


def _sent(value: Any) -> Any:
    return NOT_SENT if value is None else value


RESUMED: dict[str, tuple[str, Callable[[RunManifest], Any]]] = {
    "provider": ("--provider", lambda m: m.provider.get("provider")),
    "model": ("--model", lambda m: None if m.dry_run else [m.model_requested]),
    "current_mode": ("--mode", lambda m: m.settings.get("current_mode")),
    "level": ("--level", lambda m: m.level),
    "cases": ("--cases", lambda m: m.cases),
    "samples": ("--samples", lambda m: m.samples),
    "seed": ("--seed", lambda m: None if m.seed_private else m.seed),
    "temperature": (
        "--temperature",
        lambda m: _sent(m.settings["temperature"]) if "temperature" in m.settings else None,
    ),
    "answer": ("--answer", lambda m: m.settings.get("answer")),
    # A reply that cannot be read is repaired as the run began: mixed, "pass rate after
    # repair" counts failures some of which were never offered one (a helper's hunt).
    "repair_attempts": ("--repair-attempts", lambda m: m.settings.get("repair_attempts")),
    "sizes": ("--sizes", lambda m: _sent(m.settings["sizes"]) if "sizes" in m.settings else None),
}
"""Each setting a resume takes from the manifest: its option and how the manifest says it
(None: the manifest does not say, and today's setting holds; :data:`NOT_SENT`: the run had
none)."""
_FILLED_ONLY: dict[str, Callable[[RunManifest], Any]] = {
    "replay_file": lambda m: m.settings.get("replay_file"),
    # Only "no": a run that used the cache may go on without it (--no-cache, VERIFY_CACHE).
    "cache": lambda m: False if m.settings.get("cache") is False else None,
    # The budget the run last went on with: a resume's --max-cost is its cost basis's.
    "max_cost": lambda m: (
        m.cost_basis.max_cost
        if m.cost_basis is not None and m.cost_basis.max_cost is not None
        else m.settings.get("max_cost")
    ),
}
"""Settings taken from the manifest unless given: they may change on resume without mixing
two runs' answers (a replay file scripts answers; the cache may be left, not taken again;
a budget may grow)."""


def server_url(manifest: RunManifest, url: Any, option: str = "--resume") -> str:
    """``url``, a base URL read from ``manifest``, without credentials (a manifest keeps
    none). Raises :class:`ConfigurationError` when it is no server's URL (an edited
    manifest): no request goes where the harness cannot tell. ``option``: the one that
    read the manifest, named in the error."""
    try:
        parts = urlsplit(url) if isinstance(url, str) else None
        if parts is not None:
            parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        parts = None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ConfigurationError(
            f"{option} {manifest.run_id}: the base URL its manifest records is no server's "
            f"URL (edited since?): put the run's server back in {manifest.run_id}'s "
            "manifest.json, or start a new run"
        )
    return str(without_credentials(url))


def _variable_set(names: tuple[str, ...]) -> str:
    """Which of ``names`` the environment sets (the first the settings read), else where
    else the setting came from: the settings file."""
    present = {name.upper() for name in os.environ}
    return next((name for name in names if name in present), f"{names[-1]} (in .env)")


def _same_server(manifest: RunManifest, merged: dict[str, Any], today: Any) -> str | None:
    """Fill ``merged`` with the base URL the run was given when today's settings set none;
    when they set one that names another server than the run asked, the refusal's words
    (credentials unsaid)."""
    provider = manifest.provider.get("provider")
    if provider not in BASE_URL_SETTINGS or merged.get("provider") not in (None, provider):
        return None  # no server asked, or another provider (refused as such)
    setting, variables = BASE_URL_SETTINGS[provider]
    # What the run was given (None: the SDK's default), and the server that made of it;
    # a manifest from before the settings were kept has the server alone.
    given = manifest.settings.get(setting, manifest.provider.get("base_url"))
    asked = given or manifest.provider.get("base_url")
    if asked is None:
        return None
    now = getattr(today, setting, None)
    if now is not None and setting in getattr(today, "model_fields_set", ()):
        recorded = server_url(manifest, asked)
        if same_server(now, recorded):
            return None
        return (
            f"--resume {manifest.run_id} goes on at the server the run was started with, "
            f"{recorded}, and {_variable_set(variables)} names another, "
            f"{without_credentials(now)}: unset it (the run's base URL is taken from its "
            f"manifest), or set it back to {shlex.quote(recorded)}"
        )
    if given is None:
        return None  # the SDK's default then and now
    recorded = server_url(manifest, given)
    if not on_this_machine(recorded):
        # A manifest is a file anyone may have edited (a downloaded CI artifact): the key
        # goes only where the user's own setting says, unless it stays on this machine.
        return (
            f"--resume {manifest.run_id}: the run was started at {recorded}, which its "
            f"manifest names; a server read from a file is not sent your API key: set "
            f"{variables[-1]}={shlex.quote(recorded)} (as the run had it, with the user name and "
            "password it carried, if any) to go on there"
        )
    merged[setting] = recorded
    if today is not None and not same_server(now, recorded):
        print(
            printable(
                f"note: run {manifest.run_id} goes on at the server it was started with, "
                f"{recorded} (its base URL, from its manifest)"
            ),
            file=sys.stderr,
        )
    return None


def _shown(value: Any) -> str:
    return " ".join(map(str, value)) if isinstance(value, list) else str(value)


def settings_of_run(
    manifest: RunManifest, given: Mapping[str, Any], today: Any = None
) -> dict[str, Any]:
    """The setting overrides of a resume of ``manifest``: ``given`` (the command line's
    options, None where not given) with the run's own values filled in. Raises
    :class:`ConfigurationError` naming each given option the manifest contradicts, and each
    setting the run had none of that is set now (``today``: the settings read today, from
    options and the environment, which no override can unset)."""
    merged = dict(given)
    conflicts = []
    for setting, (option, recorded_by) in RESUMED.items():
        recorded = recorded_by(manifest)
        if recorded is None:
            continue
        if recorded is NOT_SENT:
            value = given.get(setting)
            named = option
            if value is None:
                value = getattr(today, setting, None)
                named = f"VERIFY_{setting.upper()}"
            if value is not None:
                conflicts.append(f"{named} {_shown(value)} (the run has none)")
            continue
        if given.get(setting) is None:
            merged[setting] = recorded
        elif given[setting] != recorded:
            conflicts.append(f"{option} {_shown(given[setting])} (the run has {_shown(recorded)})")
    for setting, recorded_by in _FILLED_ONLY.items():
        if given.get(setting) is None and recorded_by(manifest) is not None:
            merged[setting] = recorded_by(manifest)
    if conflicts:
        raise ConfigurationError(
            f"--resume {manifest.run_id} goes on with the run as it was asked, and "
            + "; ".join(conflicts)
            + " says otherwise: leave "
            + ("it" if len(conflicts) == 1 else "them")
            + " out, or start a new run"
        )
    elsewhere = _same_server(manifest, merged, today)
    if elsewhere is not None:
        raise ConfigurationError(elsewhere)
    return merged
