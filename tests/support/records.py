"""Journal records for the tests that fold answers without a run: one attempt at a case,
every field a plain default a test may override."""

from __future__ import annotations

from typing import Any

from verification.store.records import AttemptRecord

__all__ = ["attempt_record"]


def attempt_record(case_id: str, outcome: str, **fields: Any) -> AttemptRecord:
    """The first attempt at ``case_id`` (its index the id's last three digits) with
    ``outcome`` as its reason; ``fields`` replace any default."""
    values: dict[str, Any] = {
        "scaffold": case_id.split("-")[0],
        "case_id": case_id,
        "index": int(case_id[-3:]),
        "epoch": 0,
        "attempt": 1,
        "tier": "simple",
        # Each case its own input, as drawn cases are (copies of one input are one cluster).
        "input": {"case": case_id},
        "expected": {},
        "outcome": outcome,
        "level": None,
        "reason": outcome,
        "leniency": [],
        "answer": None,
        "raw_response": "x",
        "raw_response_chars": 1,
        "raw_response_sha256": None,
        "stop_reason": "end_turn",
        "usage": {"output_tokens": 10},
        "latency_s": 0.1,
        "model": "m",
        "finished_at": "t",
    }
    return AttemptRecord(**{**values, **fields})
