"""The compose tests' files need not reach the disk (tests/support/disk.py)."""

from tests.support.disk import no_fsync  # noqa: F401
