"""The version of the harness a run records: the distribution's, and the commit when it runs
from its own checkout."""

from __future__ import annotations

import subprocess
from pathlib import Path

from verification import DISTRIBUTION, __version__

__all__ = ["code_version"]


def code_version() -> str:
    """The installed distribution's version, and the commit only when the package runs
    from its own checkout (not from a wheel that happens to sit inside another repository)."""
    checkout = Path(__file__).resolve().parents[2]
    try:
        own = f'name = "{DISTRIBUTION}"' in (checkout / "pyproject.toml").read_text("utf-8")
    except OSError:
        own = False
    if not own or not (checkout / ".git").exists():
        return __version__
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=checkout,
            capture_output=True,
            text=True,
            timeout=5,
            check=False,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{__version__}+{commit}" if commit and commit not in __version__ else __version__
