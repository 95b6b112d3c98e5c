"""What the commands that ask no model load: `list` and `--help` start cold many times a day,
and every module they import is time spent before the first line (the figures are
``benchmarks/cold_start.py``'s; here only what is loaded, which does not vary with load)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys

import pytest

from verification.cli import main

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


NOT_FOR_A_COLD_LIST = (
    *NOT_FOR_LISTING,
    "pydantic",
    "importlib.metadata",
    "statsmodels",
    "pandas",
    "verification.catalog",
    "verification.cases",
)
"""Beside those: the scaffolds' modules (and pydantic with their answer schemas), the plugin
machinery and any statistics library. A cold `list` prints the catalog's index (issue 27
item 16)."""


def test_a_cold_list_prints_the_catalog_from_its_index_and_loads_no_scaffold() -> None:
    code = (
        "import contextlib, io, json, sys\n"
        "from verification.cli import main\n"
        "out = io.StringIO()\n"
        "with contextlib.redirect_stdout(out):\n"
        "    main(['list'])\n"
        f"loaded = sorted(m for m in {NOT_FOR_A_COLD_LIST!r} if m in sys.modules)\n"
        "print(json.dumps([loaded, out.getvalue()]))\n"
    )
    # As an installed package runs: the index is written beside the bytecode, as bytecode is.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    for _ in range(2):  # the first may build the index (a module changed since the last)
        done = subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env
        )
    loaded, printed = json.loads(done.stdout)
    shown = io.StringIO()
    with contextlib.redirect_stdout(shown):
        main(["list"])  # in this process the catalog is loaded: its rows
    assert printed == shown.getvalue()
    assert loaded == []
