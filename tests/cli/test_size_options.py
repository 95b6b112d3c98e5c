"""Which sizes each option accepts (issue 27 item 4): `list` showed the standard tier's range
("vertices 6-16") while `--sizes 4` was accepted (the simple tier starts at 3) and `--size 12`
refused on graph_coloring (its simple tier stops at 8). Its SIZE column, `list --json`'s
``size.options`` and the errors of `--size` and `--sizes` now name the same ranges, and
each is the range the planner and the sweep accept, held here at both ends."""

from __future__ import annotations

import itertools
import json
import re

import pytest

from verification.cases import TIERS
from verification.catalog import default_catalog
from verification.catalog.sizes import in_units
from verification.certify.envelope import sweep_plan
from verification.cli import main
from verification.errors import ConfigurationError
from verification.run.plan import plan_cases

SIZE = re.compile(r"^(?P<unit>.+): --size (?P<size>[-,\d]+|none), --sizes (?P<sizes>[-,\d]+)")


def _listed(capsys: pytest.CaptureFixture[str]) -> dict[str, dict[str, object]]:
    assert main(["list", "--json"]) == 0
    document = json.loads(capsys.readouterr().out)
    return {entry["name"]: entry["size"] for entry in document["scaffolds"]}


def test_list_and_its_json_name_the_ranges_of_size_and_sizes(
    capsys: pytest.CaptureFixture[str],
) -> None:
    listed = _listed(capsys)
    assert main(["list"]) == 0
    rows = capsys.readouterr().out.splitlines()[1:]
    catalog = default_catalog()
    assert len(rows) == len(catalog) == len(listed)
    for row in rows:
        name = row.split()[0]
        size = listed[name]
        options = size["options"]
        assert isinstance(options, dict)
        column = SIZE.search(row[row.index(str(size["unit"])) :])
        assert column is not None, row
        assert options["size"] == _runs(column["size"]), row
        assert options["sizes"] == _runs(column["sizes"]), row
        # The JSON's per-tier ranges say the same: --size where every tier honours it,
        # --sizes where the simple or the standard tier does (stress sizes included).
        ranges = size["ranges"]
        assert isinstance(ranges, dict)
        every = set.intersection(*(_accepted(ranges, tier) for tier in TIERS))
        some = _accepted(ranges, "simple") | _accepted(ranges, "standard")
        assert _sizes(options["size"]) == every and _sizes(options["sizes"]) == some, row


def _runs(text: str) -> list[list[int]]:
    if text == "none":
        return []
    return [[int(n) for n in run.split("-")] for run in text.split(",")]


def _sizes(runs: object) -> set[int]:
    assert isinstance(runs, list)
    return {size for low, high in runs for size in range(low, high + 1)}


def _accepted(ranges: dict[str, list[int] | None], tier: str) -> set[int]:
    low, high = ranges[tier] or [0, -1]
    stress = ranges["stress"] if tier != "edge" else None
    return set(range(low, high + 1)) | (set(range(stress[0], stress[1] + 1)) if stress else set())


@pytest.mark.parametrize("name", ["dijkstra", "graph_coloring", "kmp", "genetic_algorithm"])
def test_the_listed_ranges_are_what_the_options_accept(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    options = _listed(capsys)[name]["options"]
    assert isinstance(options, dict)
    spec = default_catalog()[name]
    ((low, high),) = options["size"]  # one run: the tiers' ranges overlap
    for size in (low, high):  # every tier draws its case at either end
        cases = plan_cases([name], seed=3, cases=3, size=size)[name]
        assert {case.tier for case in cases} == set(TIERS)
    for size in (low - 1, high + 1):
        if size < 1:
            continue
        with pytest.raises(ConfigurationError) as refused:
            plan_cases([name], seed=3, cases=3, size=size)
        said = str(refused.value)
        every = "--size applies to every tier the run asks (simple, standard, edge)"
        if spec.size.in_stress("standard", size):  # only the stress tiers draw it
            assert f"{size} is a stress size" in said and "add --tier" in said, said
        else:
            assert f"{every}, which share {low}..{high}" in said, said
    runs = options["sizes"]
    named = ", ".join(f"{a}..{b}" for a, b in runs)
    assert sweep_plan(spec, [size for run in runs for size in run], per_size=2)
    outside = sorted(
        {runs[0][0] - 1, runs[-1][1] + 1} | {b + 1 for (_, b), _ in itertools.pairwise(runs)}
    )
    for size in outside:
        with pytest.raises(ConfigurationError) as refused:
            sweep_plan(spec, [size], per_size=2)
        # A count before its noun, a measure named before its sizes (hunt mm).
        said = f"--sizes {size} is outside the sizes a sweep honours, "
        assert said + in_units(named, spec.size.unit) + " (" in str(refused.value)


def test_a_size_refused_on_the_command_line_names_the_range_list_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = _listed(capsys)["graph_coloring"]["options"]
    assert isinstance(options, dict)
    below = options["sizes"][0][0]  # a sweep size the standard tier does not honour
    argv = ["verify", "graph_coloring", "--provider", "reference", "--size", str(below)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    ((low, high),) = options["size"]
    assert f"which share {low}..{high}" in err and "or --tier" in err, err
