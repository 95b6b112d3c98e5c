"""Code-mode replies written cold from the real prompts by a language-model helper
(``fixtures/helper_programs/README.md``): each yields one program that compiles, as a
run's first level reads it. ``test_code_mode.py`` runs them in the sandbox."""

from __future__ import annotations

from pathlib import Path

import pytest

from verification.catalog import default_catalog
from verification.run.programs import extract_program

HELPER_PROGRAMS = Path(__file__).parent / "fixtures" / "helper_programs"


@pytest.mark.parametrize(
    "reply", sorted(HELPER_PROGRAMS.glob("*-program-*.txt")), ids=lambda p: p.stem
)
def test_a_cold_reply_yields_one_program_that_compiles(reply: Path) -> None:
    scaffold = reply.stem.split("-program-")[0]
    assert scaffold in default_catalog(), f"{reply.name} is named after no scaffold"
    source, why = extract_program(reply.read_text(encoding="utf-8"))
    assert source is not None, why
    assert "def solve(" in source
    compile(source, reply.name, "exec")  # what extract_program checked; a SyntaxError here
