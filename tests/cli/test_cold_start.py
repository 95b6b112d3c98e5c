"""What the commands that ask no model load: `list` and `--help` start cold many times a day,
and every module they import is time spent before the first line (the figures are
``benchmarks/cold_start.py``'s; here only what is loaded, which does not vary with load)."""

from __future__ import annotations

import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # starts interpreters

NOT_FOR_LISTING = (
    "anthropic",
    "openai",
    "numpy",
    "networkx",
    "scipy",
    "rich",
    "jinja2",
    "tenacity",
    "pydantic_settings",
)
"""SDKs, numerics, the progress bar, report templates, the retry policy and the settings
machinery: none is needed to name the scaffolds or print the usage."""


@pytest.mark.parametrize("argv", [["list"], ["--help"], ["verify", "--help"]])
def test_listing_and_help_load_no_sdk_settings_retry_or_report_machinery(
    argv: list[str],
) -> None:
    code = (
        "import contextlib, io, sys\n"
        "from verification.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "    try:\n"
        f"        main({argv!r})\n"
        "    except SystemExit:\n"
        "        pass\n"
        f"print(sorted(m for m in {NOT_FOR_LISTING!r} if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
