"""Each case calibrated once per block, for test modules whose many runs answer the same cases.

A run calibrates every case it answers (the spec's mutants and alternatives judged by its
validator: ``verification/certify/calibration.py``'s ``calibrate_case``), and a merge or a
report read back from a journal calibrates them again. The calibration of a case is a
function of its spec and the case alone (its answers are drawn from the case's id), so a
module whose runs answer the same cases over and over may reuse the first one: the runs,
their verdicts and their reports are the same, only the repeated judging goes. A case is
known by its whole content, not its id alone (two seeds give one id to different cases),
and a spec by its identity (a test's own spec of a catalog name is another spec). The
calibrations are kept for the process: every block, in any module, reuses what another
judged (the scripted runs of tests/reports ask kmp and bfs at the default seed test after
test), and the specs they were judged for are kept alive, so an identity is never reused.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import pytest

from tests.support.draws import shared_draw
from verification.cases import DEFAULT_SEED, TIERS, TestCase
from verification.catalog.calibration import LazyHook
from verification.catalog.spec import ScaffoldSpec
from verification.certify import calibration
from verification.certify.calibration import CaseCalibration
from verification.registry import SPECS

__all__ = ["LAZY", "calibrating_each_case_once", "first_cases"]

LAZY = sorted(
    name
    for name, spec in SPECS.items()
    if isinstance(spec.mutants, LazyHook) or isinstance(spec.alternatives, LazyHook)
)
"""The registered scaffolds with a hook read in part (a :class:`LazyHook`)."""


def first_cases(name: str, per_tier: int) -> list[TestCase]:
    """The first ``per_tier`` cases of each tier of scaffold ``name`` at the default seed,
    each drawn once per process (tests/support/draws.py)."""
    return [
        shared_draw(SPECS[name], tier, index, seed=DEFAULT_SEED)
        for tier in TIERS
        for index in range(per_tier)
    ]


_CALLERS = ("verification.certify.calibration", "verification.run.attempts")
"""The modules that call ``calibrate_case``: the reports' ``calibrate`` and the runner."""


_DONE: dict[tuple[int, str], CaseCalibration] = {}
"""The calibrations judged in this process, by spec identity and the case's JSON."""
_SPECS: dict[int, ScaffoldSpec] = {}
"""Every spec a calibration was judged for, kept alive: their ids key :data:`_DONE`."""


@contextmanager
def calibrating_each_case_once() -> Iterator[dict[tuple[int, str], CaseCalibration]]:
    """While the block runs, ``calibrate_case`` judges each case once per process (a
    fixture's block; what an earlier block judged is reused); the calibrations, by spec
    identity and the case's JSON."""
    judge = calibration.calibrate_case
    done = _DONE

    def once(spec: ScaffoldSpec, case: TestCase) -> CaseCalibration:
        key = (id(spec), case.model_dump_json())
        known = done.get(key)
        if known is None:
            known = done[key] = judge(spec, case)  # frozen: shared safely
            _SPECS[id(spec)] = spec
        return known

    with pytest.MonkeyPatch.context() as monkeypatch:
        for module in _CALLERS:
            monkeypatch.setattr(f"{module}.calibrate_case", once)
        yield done
