"""Each module's runs read the commit their manifests record once (tests/support/commit.py)."""

from tests.support.commit import commit_read_once  # noqa: F401
