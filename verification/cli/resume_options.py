"""What ``verify --resume RUN_ID`` takes from the run's manifest: who answered (provider,
model), how deep and on what (mode, level, cases, samples, seed) and the replay file, so a
stopped run goes on with ``--resume RUN_ID`` alone (a dry run stopped by Ctrl-C does not ask
for an API key). An option given beside ``--resume`` that says otherwise is refused, naming
it: a run answered half by one model and half by another would certify neither."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from verification.errors import ConfigurationError
from verification.store.manifests import RunManifest

__all__ = ["NOT_SENT", "RESUMED", "settings_of_run"]

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
    return merged
