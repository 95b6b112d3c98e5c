"""The journal's record: one line of ``results.jsonl`` per attempt at one case, and how
a response is capped before it is written."""

from __future__ import annotations

import hashlib
import json
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from verification.cases import TestCase
from verification.store.stored_files import (
    parse_stored_json,
)

__all__ = ["JOURNAL_SCHEMA", "MAX_RAW_RESPONSE_CHARS", "AttemptRecord", "Outcome", "cap_response"]


JOURNAL_SCHEMA = 1
MAX_RAW_RESPONSE_CHARS = 1024 * 1024


Outcome = Literal["passed", "failed", "truncated", "refused", "infra_error"]


class AttemptRecord(BaseModel):
    """One line of ``results.jsonl``: one attempt at one case."""

    # ``model_asked`` is a field, not pydantic API: older pydantic warns without this.
    model_config = ConfigDict(frozen=True, protected_namespaces=())

    schema_version: int = JOURNAL_SCHEMA
    scaffold: str
    case_id: str
    index: int
    epoch: int
    """Which sample of the case (0-based)."""
    attempt: int
    """1 for the first answer; 2 and 3 are repair attempts."""
    tier: str
    input: dict[str, Any]
    expected: dict[str, Any]
    outcome: Outcome
    level: int | None
    """The level an unsuccessful attempt failed at: 1, 2 or 3."""
    reason: str
    leniency: list[str]
    answer: Any
    raw_response: str | None
    raw_response_chars: int
    raw_response_sha256: str | None
    stop_reason: str | None
    usage: dict[str, int]
    latency_s: float
    model: str | None
    finished_at: str
    size: int | None = None
    """The size the case was drawn at (``None`` in journals from before sizes were kept:
    the case id's ``s<size>`` or the tier's default size says it)."""
    source: str | None = None
    """Where the answer came from (``live``, ``cache``, ``batch``, ``reference``,
    ``replay``); ``None`` when no answer came."""
    model_asked: str | None = None
    """The model the request named (``model`` is what the server says answered); ``None``
    in journals from before it was kept (the manifest's ``model_requested`` then)."""

    def test_case(self) -> TestCase:
        """The case this record answers, as the journal holds it."""
        return TestCase(
            id=self.case_id,
            scaffold=self.scaffold,
            tier=self.tier,  # type: ignore[arg-type]
            index=self.index,
            input=self.input,
            expected=self.expected,
            size=self.size,
        )

    def to_line(self) -> str:
        """The record as one JSON line (``schema`` is the field's name on disk)."""
        data = self.model_dump(mode="json")
        data = {"schema": data.pop("schema_version"), **data}
        # ASCII escapes: any model text, lone surrogates included, survives the round trip.
        return json.dumps(data, allow_nan=False, ensure_ascii=True) + "\n"

    @classmethod
    def from_line(cls, line: str) -> AttemptRecord:
        """Read a line written by :meth:`to_line` (bounded in depth, as any stored JSON)."""
        data = parse_stored_json(line, where="the line")
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")
        data["schema_version"] = data.pop("schema", JOURNAL_SCHEMA)
        return cls.model_validate(data)


def cap_response(text: str | None) -> tuple[str | None, int, str | None]:
    """The response as journalled (first MiB), its full length, and its sha256."""
    if text is None:
        return None, 0, None
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
    return text[:MAX_RAW_RESPONSE_CHARS], len(text), digest
