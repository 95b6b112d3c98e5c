"""What every command group shares: the run configuration (the settings, read and resolved
when first needed), how we are called."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verification.config import RunConfig, VerificationSettings

__all__ = ["CommandsBase"]


class CommandsBase:
    """The settings and manners every command group shares."""

    def __init__(
        self,
        settings: RunConfig | VerificationSettings | None = None,
        *,
        prog: str = "verify-scaffolds",
        progress: bool | None = None,
    ) -> None:
        self._given = settings
        self._settings: RunConfig | None = None
        self.progress = progress
        """Show progress (True), never (False), or when standard error is a terminal."""
        self.prog = prog
        """How the user calls us, for the commands a message suggests."""

    @property
    def settings(self) -> RunConfig:
        """The run configuration: the settings given, or the environment's, resolved once."""
        if self._settings is None:
            from verification.config import resolve_settings

            self._settings = resolve_settings(self._given)
            from verification.catalog import plugin_clock

            # Plugins are loaded with the catalog, before any command reads its settings.
            plugin_clock.PLUGIN_CALL_SECONDS = self._settings.plugin_call_seconds
        return self._settings

    def kept_files(self, results_dir: Path | None = None) -> dict[str, Path]:
        """What no output of a command may write over, by what it is: the files every
        command reads (``.env``), the results folder's own
        (:func:`~verification.reports.exports.kept_records`) and the response cache's."""
        from verification.config.settings import ENV_FILE
        from verification.llm.cache.responses import cache_files
        from verification.reports.exports import kept_records

        return {
            "what .env reads": Path(ENV_FILE),
            **kept_records(
                results_dir or self.settings.results_dir, cache_files(self.settings.cache_dir)
            ),
        }
