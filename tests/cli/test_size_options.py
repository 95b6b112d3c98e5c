"""Which sizes each option accepts (issue 27 item 4): `list` showed the standard tier's range
("vertices 6-16") while `--sizes 4` was accepted (the simple tier starts at 3) and `--size 12`
refused on graph_coloring (its simple tier stops at 8). Its SIZE column, `list --json`'s
``size.options`` and the errors of `--size` and `--sizes` now name the same ranges, and
each is the range the planner and the sweep accept, held here at both ends."""

from __future__ import annotations

import json
import re

import pytest

from verification.cases import TIERS
from verification.catalog import default_catalog
from verification.certify.envelope import sweep_plan
from verification.cli import main
from verification.errors import ConfigurationError
from verification.run.plan import plan_cases

SIZE = re.compile(
    r"^(?P<unit>.+): --size (?P<size>\d+-\d+|none), --sizes (?P<low>\d+)-(?P<high>\d+)"
)


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
        shown = None if column["size"] == "none" else [int(n) for n in column["size"].split("-")]
        assert options["size"] == shown, row
        assert options["sizes"] == [int(column["low"]), int(column["high"])], row
        # The JSON's per-tier ranges say the same: --size where every tier honours it,
        # --sizes where the simple or the standard tier does.
        ranges = size["ranges"]
        assert isinstance(ranges, dict)
        lows = [ranges[tier][0] for tier in TIERS]
        assert shown is None or shown[0] == max(lows), row
        assert options["sizes"][0] == min(ranges["simple"][0], ranges["standard"][0])


@pytest.mark.parametrize("name", ["dijkstra", "graph_coloring", "kmp", "genetic_algorithm"])
def test_the_listed_ranges_are_what_the_options_accept(
    name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    options = _listed(capsys)[name]["options"]
    assert isinstance(options, dict)
    spec = default_catalog()[name]
    low, high = options["size"]
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
    low, high = options["sizes"]
    assert sweep_plan(spec, [low, high], per_size=2)
    for size in (low - 1, high + 1):
        with pytest.raises(ConfigurationError) as refused:
            sweep_plan(spec, [size], per_size=2)
        assert f"--sizes {size} is outside the sizes a sweep honours, {low}..{high}" in str(
            refused.value
        )


def test_a_size_refused_on_the_command_line_names_the_range_list_shows(
    capsys: pytest.CaptureFixture[str],
) -> None:
    options = _listed(capsys)["dijkstra"]["options"]
    assert isinstance(options, dict)
    below = options["sizes"][0]  # a sweep size the standard tier does not honour
    argv = ["verify", "dijkstra", "--provider", "reference", "--size", str(below)]
    assert main(argv) == 2
    err = capsys.readouterr().err
    low, high = options["size"]
    assert f"which share {low}..{high}" in err and "or --tier" in err, err
