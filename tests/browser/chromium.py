"""Where the tests' and the benchmark's Chromium is and how it is started (Debian's
``chromium`` package; Playwright's own browsers are never downloaded)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["CHROMIUM", "CHROMIUM_ARGS"]

CHROMIUM = Path(os.environ.get("VERIFY_TEST_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
"""Headless, no sandbox (CI runs as root), and none of the browser's own network traffic."""
