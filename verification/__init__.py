"""Certification harness for algorithm scaffolds."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

__all__ = ["DISTRIBUTION", "__version__"]

DISTRIBUTION = "scaffold-verification"
"""The distribution this package is installed from."""

try:
    __version__ = version(DISTRIBUTION)
    """The installed distribution's version (derived from git when it was built)."""
except PackageNotFoundError:  # run from a source tree that was never installed
    __version__ = "0+unknown"
