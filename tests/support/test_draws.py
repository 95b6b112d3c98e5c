"""The shared draws' copy (tests/support/draws.py) is the deep copy it stands in for: equal
to ``model_copy(deep=True)`` of every scaffold's cases, and sharing no container with the
case it copies."""

from __future__ import annotations

from typing import Any

from tests.support.draws import copy_case, shared_draw
from verification.cases import DEFAULT_SEED, TIERS, TestCase
from verification.catalog import default_catalog


def _containers(data: Any) -> list[Any]:
    """Every dict, list and tuple inside ``data`` (``data`` too), depth first."""
    if isinstance(data, dict):
        return [data, *(c for v in data.values() for c in _containers(v))]
    if isinstance(data, list | tuple):
        return [data, *(c for v in data for c in _containers(v))]
    return []


def test_a_shared_case_s_copy_is_its_deep_copy_and_shares_no_container() -> None:
    for name, spec in default_catalog().items():
        for tier in TIERS:
            case = shared_draw(spec, tier, 0, seed=DEFAULT_SEED)
            copied, deep = copy_case(case), case.model_copy(deep=True)
            assert copied == deep == case, (name, tier)
            assert copied.model_dump_json() == deep.model_dump_json()
            assert copied.model_fields_set == deep.model_fields_set
            for field in ("input", "expected"):
                mine = {id(c) for c in _containers(getattr(case, field))}
                assert not mine & {id(c) for c in _containers(getattr(copied, field))}


def test_a_copy_of_data_other_than_plain_json_is_still_deep() -> None:
    class Box:
        def __init__(self, items: list[int]) -> None:
            self.items = items

    box = Box([1, 2])
    case = TestCase(
        id="kmp-simple-000",
        scaffold="kmp",
        tier="simple",
        input={"pairs": [(1, [2, 3])], "box": box, "nothing": None},
        expected={"found": [[0, 1.5, True, "a"]]},
    )
    copied = copy_case(case)
    assert copied.input["pairs"] == [(1, [2, 3])] and copied.expected == case.expected
    assert copied.input["pairs"][0][1] is not case.input["pairs"][0][1]
    assert copied.input["box"] is not box and copied.input["box"].items == [1, 2]
    assert copied.input["box"].items is not box.items
