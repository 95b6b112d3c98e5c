"""The commands, one class callable from Python too, gathered from their groups."""

from __future__ import annotations

from verification.cli.cache_command import CacheCommand
from verification.cli.catalog_commands import CatalogCommands
from verification.cli.report_commands import ReportCommands
from verification.cli.run_commands import RunCommands

__all__ = ["VerificationCLI"]


class VerificationCLI(CatalogCommands, RunCommands, ReportCommands, CacheCommand):
    """The commands, callable from Python too."""
