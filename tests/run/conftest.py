"""The run tests' files need not reach the disk (tests/support/disk.py), and each module's
runs read the commit once (tests/support/commit.py). The fork server they start command
lines from is registered for every folder by tests/conftest.py."""

from tests.support.commit import commit_read_once  # noqa: F401
from tests.support.disk import no_fsync  # noqa: F401
