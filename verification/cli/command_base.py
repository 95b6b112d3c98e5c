"""What every command group shares: the settings (read when first needed), how we are called."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from verification.config import VerificationSettings

__all__ = ["CommandsBase"]


class CommandsBase:
    """The settings and manners every command group shares."""

    def __init__(
        self,
        settings: VerificationSettings | None = None,
        *,
        prog: str = "verify-scaffolds",
        progress: bool | None = None,
    ) -> None:
        self._settings = settings
        self.progress = progress
        """Show progress (True), never (False), or when standard error is a terminal."""
        self.prog = prog
        """How the user calls us, for the commands a message suggests."""

    @property
    def settings(self) -> VerificationSettings:
        if self._settings is None:
            from verification.config import load_settings

            self._settings = load_settings()
        return self._settings
