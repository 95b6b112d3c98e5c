"""Providers that answer without a model: ``reference`` (the dry run) and ``replay``.

Both answer by ``LLMRequest.case_id``. Neither certifies a model: their reports say so in
every title.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from verification.errors import (
    AuthenticationError,
    ConfigurationError,
    InvalidRequestError,
    LLMError,
    RateLimitError,
    TransientLLMError,
)
from verification.llm.base import LLMProvider, LLMRequest, LLMResponse
from verification.llm.retry import RetryPolicy

__all__ = ["REPLAY_ERRORS", "ReferenceProvider", "ReplayProvider"]


class ReferenceProvider(LLMProvider):
    """Answers every case with its reference answer, written as the Output Format asks.

    It checks the harness end to end with no key and no network; it certifies no model.
    """

    name = "reference"
    dry_run = True
    label = "DRY RUN"

    def __init__(self, answers: Mapping[str, str], *, retry_policy: RetryPolicy | None = None):
        super().__init__(retry_policy=retry_policy)
        self._answers = dict(answers)

    async def generate(self, request: LLMRequest) -> LLMResponse:
        if request.case_id not in self._answers:
            raise LLMError(f"the reference provider has no answer for case {request.case_id!r}")
        text = "Reference answer (dry run).\n\n" + self._answers[request.case_id]
        return LLMResponse(content=text, model="reference", stop_reason="end_turn")


REPLAY_ERRORS: dict[str, type[LLMError]] = {
    "rate_limit": RateLimitError,
    "transient": TransientLLMError,
    "auth": AuthenticationError,
    "invalid_request": InvalidRequestError,
    "error": LLMError,
}
"""Scripted failures a replay line may ask for with ``"error": NAME``."""


class ReplayProvider(LLMProvider):
    """Answers by case id from a JSONL file of recorded or scripted responses.

    Each line is an object with ``case_id`` and either ``raw_response`` (or ``text``), with
    optional ``stop_reason``, ``model`` and ``usage``, or ``error`` (one of
    :data:`REPLAY_ERRORS`, with optional ``retry_after``). Lines for the same case are served
    in order, the last one again once they run out. A run's own ``results.jsonl`` is a valid
    replay file (its ``infra_error`` lines carry no response and are skipped).
    """

    name = "replay"
    dry_run = True
    label = "REPLAY"

    def __init__(self, path: Path, *, retry_policy: RetryPolicy | None = None) -> None:
        super().__init__(retry_policy=retry_policy)
        self.path = path
        self._scripts = _read_replay_file(path)
        self._served: dict[str, int] = {}

    async def generate(self, request: LLMRequest) -> LLMResponse:
        script = self._scripts.get(request.case_id or "")
        if not script:
            raise LLMError(f"no recorded response for case {request.case_id!r} in {self.path}")
        served = self._served.get(request.case_id or "", 0)
        self._served[request.case_id or ""] = served + 1
        entry = script[min(served, len(script) - 1)]
        if "error" in entry:
            error_class = REPLAY_ERRORS[entry["error"]]
            message = f"scripted {entry['error']} for case {request.case_id}"
            if issubclass(error_class, RateLimitError | TransientLLMError):
                raise error_class(message, retry_after=entry.get("retry_after"))
            raise error_class(message)
        return LLMResponse(
            content=entry["text"],
            model=str(entry.get("model") or "replay"),
            usage={k: v for k, v in (entry.get("usage") or {}).items() if isinstance(v, int)},
            stop_reason=entry.get("stop_reason") or "end_turn",
        )

    def describe(self) -> dict[str, Any]:
        return {**super().describe(), "replay_file": str(self.path)}


def _read_replay_file(path: Path) -> dict[str, list[dict[str, Any]]]:
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as exc:
        raise ConfigurationError(
            f"cannot read the replay file {path}: {exc.strerror}. "
            "Set --replay-file (or VERIFY_REPLAY_FILE) to a JSONL file of responses."
        ) from None
    scripts: dict[str, list[dict[str, Any]]] = {}
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
        except (json.JSONDecodeError, RecursionError, ValueError) as exc:
            raise ConfigurationError(f"{path}:{number}: not a JSON object ({exc})") from None
        if not isinstance(entry, dict) or not isinstance(entry.get("case_id"), str):
            raise ConfigurationError(f"{path}:{number}: each line needs a string 'case_id'")
        text = entry.get("text", entry.get("raw_response"))
        if "error" in entry:
            if entry["error"] not in REPLAY_ERRORS:
                known = ", ".join(REPLAY_ERRORS)
                raise ConfigurationError(f"{path}:{number}: 'error' must be one of {known}")
        elif isinstance(text, str):
            entry["text"] = text
        elif entry.get("outcome") == "infra_error":
            continue
        else:
            raise ConfigurationError(
                f"{path}:{number}: give 'raw_response' (or 'text') as a string, or 'error'"
            )
        scripts.setdefault(entry["case_id"], []).append(entry)
    return scripts
