"""The provider and cache tests' files need not reach the disk (tests/support/disk.py;
SQLite syncs the cache file itself, as always). The fork server that starts ``python -m
verification`` as a process is registered for every folder by tests/conftest.py."""

from tests.support.disk import no_fsync  # noqa: F401
