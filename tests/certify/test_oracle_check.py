"""`check` on a package scaffold in a checkout fails until the scaffold's test module defines
its oracle (issue 27 item 15): it said "all checks passed" before any oracle existed, though
the generic tests hold the reference and the hooks to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.checked import checked
from verification.catalog import default_catalog
from verification.certify import checks
from verification.errors import VerificationError

SPEC = default_catalog()["merge_sort"]
ORIGIN = "verification.catalog.divide_conquer.merge_sort"


@pytest.mark.parametrize(
    ("module", "ok"),
    [
        (None, False),
        ("def helper(test_input, answer):\n    return True\n", False),
        ("import math\n\ndef oracle(test_input, answer):\n    return True\n", False),
        (
            "import math\n\nONE_WAY_FIELDS = frozenset()\n\n\n"
            "def oracle(test_input, answer):\n    return True\n",
            True,
        ),
        ("from somewhere import judge\n\noracle = judge\nONE_WAY_FIELDS = frozenset()\n", True),
    ],
)
def test_a_package_scaffold_needs_its_oracle(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, module: str | None, ok: bool
) -> None:
    tests = tmp_path / "tests" / "catalog"
    tests.mkdir(parents=True)
    if module is not None:
        (tests / f"test_{SPEC.name}.py").write_text(module, encoding="utf-8")
    monkeypatch.setattr(checks, "_CHECKOUT_TESTS", tests)
    try:
        detail, passed = checks._check_oracle(SPEC, []), True
    except VerificationError as exc:
        detail, passed = str(exc), False
    assert passed is ok, detail
    assert f"tests/catalog/test_{SPEC.name}.py" in detail


@pytest.mark.slow  # every generic check, on a few cases
def test_check_asks_a_package_scaffold_for_its_oracle_and_not_a_plugins() -> None:
    assert checked(SPEC, origin=ORIGIN)["oracle"].ok
    assert "oracle" not in checked(SPEC, origin="some-plugin")


@pytest.mark.parametrize("origin", [ORIGIN, "demo-scaffolds"], ids=["package", "plugin"])
def test_an_output_format_without_the_shared_number_sentences_is_named(
    tmp_path: Path, origin: str
) -> None:
    # A helper adding a scaffold dropped "An integer is written with digits only ...": check
    # said all passed, and only a pytest test (which a plugin's author never runs) failed.
    import dataclasses
    import re

    from verification.catalog.wording import INTEGERS
    from verification.llm.prompt_builder import PromptBuilder

    text = PromptBuilder().get_scaffold_content(SPEC)
    assert " ".join(INTEGERS.split()) in " ".join(text.split())
    path = tmp_path / "merge_sort.md"
    sentence = r"\s+".join(map(re.escape, INTEGERS.split()))  # as the file wraps it
    dropped, found = re.subn(sentence, "", text)
    assert found == 1
    path.write_text(dropped, encoding="utf-8")
    spec = dataclasses.replace(SPEC, markdown=path)
    line = checked(spec, origin=origin, cases_per_tier=1)["number wording"]
    assert INTEGERS in line.detail
    assert (line.ok, line.warning) == ((False, False) if origin == ORIGIN else (True, True))
