"""Credentials in URLs and text: what a message, a manifest or a log line may show of a
server's URL, and the secrets redacted from what a server or an SDK says.

These helpers read no setting: the providers, the cache and the replies use them below the
settings, and the settings use them to dump themselves without their secrets.
"""

from __future__ import annotations

import logging
import string
from collections.abc import Iterable
from typing import Any

# Below the providers: a manifest read back strips URLs with them too (the store's layer).
from verification.store.urls import url_credentials, without_credentials

__all__ = [
    "RUN_REDACTED",
    "redact",
    "redact_known",
    "redact_log_records",
    "url_credentials",
    "without_credentials",
]


RUN_REDACTED = 12
"""Characters of a secret in a row that are redacted wherever they stand: a server that
echoes a key cut short by one character, or without its ``sk-ant-`` prefix, says almost
all of it (hunt qq)."""

_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
"""Letters folded without changing the text's length, so a match's place is its place."""


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret (of 4 characters or more) replaced by ``<redacted>``,
    whatever the case of its ASCII letters, and with every run of :data:`RUN_REDACTED` or
    more of a longer secret's characters in a row (a key echoed cut short, or without its
    prefix).

    Examples
    --------
    >>> redact("key SK-ANT-API03-ABCDEFGHIJ, or ant-api03-abcdefghi", ["sk-ant-api03-abcdefghij"])
    'key <redacted>, or <redacted>'
    """
    wanted = {s.translate(_ASCII_LOWER) for s in secrets if s and len(s) >= 4}
    if not wanted or not text:
        return text
    folded = text.translate(_ASCII_LOWER)
    spans: list[tuple[int, int]] = []
    for secret in wanted:
        width = min(len(secret), RUN_REDACTED)
        for piece in {secret[i : i + width] for i in range(len(secret) - width + 1)}:
            at = folded.find(piece)
            while at >= 0:
                spans.append((at, at + width))
                at = folded.find(piece, at + 1)
    if not spans:
        return text
    kept, end = [], 0
    for start, stop in _merged(spans):
        kept += [text[end:start], "<redacted>"]
        end = stop
    return "".join([*kept, text[end:]])


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``spans`` sorted, those that overlap or touch made one."""
    merged: list[tuple[int, int]] = []
    for start, stop in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], stop))
        else:
            merged.append((start, stop))
    return merged


_LOGGED_SECRETS: set[str] = set()


def redact_log_records(secrets: Iterable[str | None]) -> None:
    """From now on, every log record of this process has ``secrets`` redacted from its
    message, whoever logs it (an SDK that raises its own log level on import included)."""
    _LOGGED_SECRETS.update(s for s in secrets if s and len(s) >= 4)
    if getattr(logging.getLogRecordFactory(), "redacts", False):
        return
    previous = logging.getLogRecordFactory()

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        try:
            message = record.getMessage()
        except Exception:  # a malformed record is the logging module's to report
            return record
        cleaned = redact(message, _LOGGED_SECRETS)
        if cleaned != message:
            record.msg, record.args = cleaned, ()
        return record

    factory.redacts = True  # type: ignore[attr-defined]
    logging.setLogRecordFactory(factory)


def redact_known(text: str) -> str:
    """``text`` with every secret this process knows (:func:`redact_log_records` was told
    them: the settings' keys, a provider's own) redacted: what a server says back, in a
    reply's model or stop reason or an error's words, before a journal, a report or the
    terminal holds it."""
    return redact(text, _LOGGED_SECRETS) if _LOGGED_SECRETS and text else text
