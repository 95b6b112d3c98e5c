"""The precision and power tables of docs/VERIFICATION.md are what the code computes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from verification.certify.paired import ALPHA, drop_power
from verification.certify.results import wilson_interval

DOC = Path(__file__).parents[2] / "docs" / "VERIFICATION.md"
SECTION = "### What a claim of a given precision costs"
"""The section the tables are in (up to the next heading)."""


def _tables(section: str = SECTION) -> list[list[list[str]]]:
    """The section's tables, each a list of rows of cells (the separator row left out)."""
    text = DOC.read_text(encoding="utf-8")
    body = text[text.index(section) + len(section) :]
    body = body[: body.index("\n#")]
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    for line in [*body.splitlines(), ""]:
        if line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if not all(re.fullmatch(r"-+", c) for c in cells):
                rows.append(cells)
        elif rows:
            tables.append(rows)
            rows = []
    return tables


def _half_width(rate: float, n: float) -> float:
    low, high = wilson_interval(rate * n, n)
    return (high - low) / 2


def _cases_for(rate: float, within: float) -> int:
    n = 2
    while _half_width(rate, n) > within:
        n += 1
    return n


def test_the_half_width_table_is_wilsons() -> None:
    header, *rows = _tables()[0]
    sizes = [int(cell) for cell in header[1:]]
    for row, rate in zip(rows, (0.9, 0.5), strict=True):
        assert row[1:] == [f"{100 * _half_width(rate, n):.1f}" for n in sizes]


def test_the_cost_of_a_precision_is_the_fewest_answers_that_reach_it() -> None:
    header, *rows = _tables()[1]
    within = [int(cell) / 100 for cell in header[1:]]
    for row, rate in zip(rows, (0.9, 0.5), strict=True):
        assert row[1:] == [str(_cases_for(rate, w)) for w in within]


@pytest.mark.slow
def test_the_cost_of_a_power_is_the_first_n_that_reaches_it() -> None:
    header, *rows = _tables()[2]
    powers = [float(cell) for cell in header[1:]]
    for row, level in zip(rows, (ALPHA, ALPHA / 33), strict=True):
        for cell, power in zip(row[1:], powers, strict=True):
            n = int(cell)
            assert drop_power(n, level) >= power > drop_power(n - 1, level)


def test_the_gates_power_table_is_drop_power() -> None:
    (header, *rows) = _tables("### The regression gate")[0]
    sizes = [int(cell) for cell in header[1:]]
    for row, level in zip(rows, (ALPHA, ALPHA / 33), strict=True):
        assert row[1:] == [f"{drop_power(n, level):.2f}" for n in sizes]
