"""The sandbox tests' engine: the one ``available_engine`` finds. Where none works they are
skipped and say why (bubblewrap is not installed, or user namespaces are off); under CI
(``CI=true``, as ``.ci/run`` sets after installing bubblewrap) a missing sandbox fails them."""

from __future__ import annotations

import os

import pytest

from verification.errors import SandboxUnavailableError
from verification.run.sandbox import Engine, available_engine


@pytest.fixture(scope="session")
def engine() -> Engine:
    try:
        return available_engine()
    except SandboxUnavailableError as error:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the sandbox tests cannot run in CI: {error}")
        pytest.skip(f"no sandbox here: {error}")
