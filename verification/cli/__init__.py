"""The command line: parse, build settings, call the library, map errors to exit codes.

One module per responsibility: ``parser`` (with ``arguments``, the shared argument types
and option groups) builds the parser; ``entry`` is ``main``; the commands live in their
groups (``catalog_commands``, ``run_commands``, ``report_commands``, ``cache_command``)
gathered by ``commands``; ``run_output`` prints what a run ended with; ``terminal`` shows
progress and takes SIGTERM as Ctrl-C; ``exit_codes`` says what each code means.
"""

from __future__ import annotations

from verification.cli.commands import VerificationCLI
from verification.cli.entry import main
from verification.cli.exit_codes import EXIT_CODES
from verification.cli.parser import build_parser
from verification.cli.terminal import ProgressBar as _ProgressBar  # noqa: F401  (tests use it)

__all__ = ["EXIT_CODES", "VerificationCLI", "build_parser", "main"]
