"""The version of the harness a run records: the distribution's, and the commit when it runs
from its own checkout. ``verification.__version__`` is :func:`installed_version`, read here so
that nothing below the package root imports the root (it imports the public surface, from
every layer)."""

from __future__ import annotations

import functools
import subprocess
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

__all__ = ["DISTRIBUTION", "code_version", "installed_version"]

DISTRIBUTION = "scaffold-verification"
"""The distribution this package is installed from."""


@functools.cache
def installed_version() -> str:
    """The installed distribution's version (derived from git when it was built)."""
    try:
        return version(DISTRIBUTION)
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "0+unknown"


@functools.cache
def code_version() -> str:
    """The installed distribution's version, and the commit only when the package runs
    from its own checkout (not from a wheel that happens to sit inside another repository).

    Read once per process (a ``git`` process each time cost more than the rest of a small
    run's manifest): the code a process runs is what it imported, which a commit made in
    the checkout while it runs does not change."""
    checkout = Path(__file__).resolve().parents[2]
    try:
        own = f'name = "{DISTRIBUTION}"' in (checkout / "pyproject.toml").read_text("utf-8")
    except OSError:
        own = False
    if not own or not (checkout / ".git").exists():
        return installed_version()
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
    installed = installed_version()
    return f"{installed}+{commit}" if commit and commit not in installed else installed
