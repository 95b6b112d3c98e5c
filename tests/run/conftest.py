"""The run tests' files need not reach the disk (tests/support/disk.py). The fork server they
start command lines from is registered for every folder by tests/conftest.py."""

from tests.support.disk import no_fsync  # noqa: F401
