"""The sandbox's limits: the issue's ceilings cannot be lifted, a case's CPU limit is scaled
from the reference's time with a floor, and a case's own limit scales its wall clock."""

from __future__ import annotations

import dataclasses

import pytest

from verification.errors import ConfigurationError
from verification.run.sandbox import limits as limits_module
from verification.run.sandbox.limits import (
    MAX_ADDRESS_SPACE,
    MAX_FILE_BYTES,
    MAX_PROCESSES,
    MAX_TMP_BYTES,
    Limits,
    cpu_seconds_for,
)

CEILINGS = {
    "address_space": MAX_ADDRESS_SPACE,
    "processes": MAX_PROCESSES,
    "tmp_bytes": MAX_TMP_BYTES,
    "file_bytes": MAX_FILE_BYTES,
}


def test_the_ceilings_are_the_issues() -> None:
    gib = 1024**3
    assert (
        2 * gib,
        64,
        gib,
        gib,
    ) == (MAX_ADDRESS_SPACE, MAX_PROCESSES, MAX_TMP_BYTES, MAX_FILE_BYTES)


@pytest.mark.parametrize("name", sorted(CEILINGS))
def test_a_limit_over_its_ceiling_is_refused(name: str) -> None:
    Limits(**{name: CEILINGS[name]})  # the ceiling itself is allowed
    with pytest.raises(ConfigurationError, match=name):
        Limits(**{name: CEILINGS[name] + 1})


def test_the_defaults_are_within_the_ceilings() -> None:
    limits = Limits()
    for name, ceiling in CEILINGS.items():
        assert 0 < getattr(limits, name) <= ceiling


@pytest.mark.parametrize("name", [f.name for f in dataclasses.fields(Limits)])
@pytest.mark.parametrize("value", [0, -1, float("nan"), float("inf")])
def test_a_limit_that_is_no_positive_number_is_refused(name: str, value: float) -> None:
    with pytest.raises(ConfigurationError, match=name):
        Limits(**{name: value})


def test_the_wall_clock_is_never_shorter_than_the_cpu_limit() -> None:
    with pytest.raises(ConfigurationError, match="wall_seconds"):
        Limits(cpu_seconds=5, wall_seconds=4)


def test_a_cases_own_cpu_limit_scales_its_wall_clock_above_a_floor() -> None:
    limits = Limits(cpu_seconds=2, wall_seconds=10, wall_factor=5)
    case = limits.for_case(4)
    assert case.cpu_seconds == 4
    assert case.wall_seconds == limits.wall_factor * case.cpu_seconds
    # A small CPU limit keeps the session's wall clock: the floor.
    assert limits.for_case(1).wall_seconds == limits.wall_seconds
    assert limits.for_case(None) is limits
    with pytest.raises(ConfigurationError, match="wall_factor"):
        Limits(wall_factor=0.5)


def test_the_default_wall_clock_outlasts_a_loaded_machine() -> None:
    """A correct program given a tenth of a core (load 20 on two cores) within its CPU
    limit still ends within its wall clock: the old 5x ratio killed it at a fifth."""
    limits = Limits()
    share = 0.1
    for cpu in (limits_module.CPU_FLOOR_SECONDS, 3.0, 20.0):
        case = limits.for_case(cpu)
        assert case.wall_seconds >= case.cpu_seconds / share
        assert case.wall_seconds >= limits_module.WALL_FLOOR_SECONDS


@pytest.mark.parametrize("reference", [0.0, 1e-6, 0.05, 0.5, 3.0])
def test_a_cases_cpu_limit_is_the_references_time_scaled_with_a_floor(reference: float) -> None:
    floor, factor = limits_module.CPU_FLOOR_SECONDS, limits_module.CPU_FACTOR
    limit = cpu_seconds_for(reference)
    assert limit >= floor
    assert limit >= factor * reference
    assert limit in (floor, factor * reference)


def test_the_floor_of_a_cases_scaled_cpu_limit_is_the_code_formats_unless_given() -> None:
    from verification.run.code_answers import time_limit_text

    assert Limits().cpu_floor_seconds == limits_module.CPU_FLOOR_SECONDS
    assert f"never less than {Limits().cpu_floor_seconds:g} s" in time_limit_text()
    assert Limits(cpu_floor_seconds=0.25).cpu_floor_seconds == 0.25


@pytest.mark.parametrize("reference", [-1.0, float("nan"), float("inf")])
def test_a_reference_time_that_is_no_time_is_refused(reference: float) -> None:
    with pytest.raises(ConfigurationError):
        cpu_seconds_for(reference)
