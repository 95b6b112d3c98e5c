"""A plugin whose generator cannot draw one declared size: ``check`` fails naming the size,
and ``show-prompt`` exits 2 naming the plugin, the tier, the size and the case (issue 19),
through the real command line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

GAPPY_MODULE = """
import dataclasses

from demo_scaffolds import SPEC as LARGEST


def generate(rng, tier, size):
    if (tier, size) == ("standard", 7):
        raise RuntimeError("no standard list of 7 numbers")
    return LARGEST.generator(rng, tier, size)


SPEC = dataclasses.replace(LARGEST, name="gappy_number", generator=generate)
"""


@pytest.mark.slow
def test_the_command_line_names_the_size_a_plugin_cannot_draw(
    install_plugin: Any, cli_several: Any, tmp_path: Path
) -> None:
    (tmp_path / "site").mkdir()
    env = install_plugin(
        tmp_path / "site", "gappy_number = demo_scaffolds.gappy:SPEC\n", {"gappy": GAPPY_MODULE}
    )
    shown, checked = cli_several(
        env,
        tmp_path,
        ["show-prompt", "gappy_number", "--case", "gappy_number-standard-s7-002"],
        ["check", "gappy_number", "--cases", "5"],
    )
    assert shown.returncode == 2, shown.stderr
    assert "scaffold 'gappy_number'" in shown.stderr
    assert "cannot draw standard case 2 at size 7" in shown.stderr
    assert "Traceback" not in shown.stderr

    assert checked.returncode == 1, checked.stdout + checked.stderr
    assert "FAIL gappy_number: every size:" in checked.stdout
    assert "gappy_number-standard-s7-000" in checked.stdout
