"""The run configuration: the settings resolved once, frozen, and handed down.

The command line (or a script) reads :class:`~verification.config.VerificationSettings`
once and resolves them with :func:`resolve_settings`; the runner, the planner and the
composed runs read only the :class:`RunConfig` they are given, and below them each module is
handed what it needs (a provider's :class:`~verification.llm.providers.ProviderConfig`, the
cache's folder and cap), never the settings.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import ConfigDict

from verification.config.options import RunOptions
from verification.config.settings import VerificationSettings, load_settings
from verification.llm.credentials import without_credentials

__all__ = ["RunConfig", "resolve_settings"]


class RunConfig(RunOptions):
    """A run's settings, resolved and frozen: the same names as the settings' fields and
    derived values, none of them assignable. Its repr and :meth:`public_dump` show no key
    and no credential of a server's URL (secrets stay ``SecretStr``, unwrapped only where a
    provider is built)."""

    model_config = ConfigDict(frozen=True)

    def __repr_args__(self) -> Iterator[tuple[str | None, Any]]:
        for name, value in super().__repr_args__():
            if name in ("anthropic_base_url", "openai_base_url") and isinstance(value, str):
                value = without_credentials(value)
            yield name, value


def resolve_settings(settings: VerificationSettings | RunConfig | None = None) -> RunConfig:
    """The run configuration of ``settings``; of the environment's settings when None."""
    if isinstance(settings, RunConfig):
        return settings
    if settings is None:
        settings = load_settings()
    values = {name: getattr(settings, name) for name in RunOptions.model_fields}
    return RunConfig.model_validate(values)
