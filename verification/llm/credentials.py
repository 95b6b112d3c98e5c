"""Credentials in URLs and text: what a message, a manifest or a log line may show of a
server's URL, and the secrets redacted from what a server or an SDK says.

These helpers read no setting: the providers, the cache and the replies use them below the
settings, and the settings use them to dump themselves without their secrets.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

# Below the providers: a manifest read back strips URLs with them too (the store's layer).
from verification.store.urls import url_credentials, without_credentials

__all__ = [
    "redact",
    "redact_known",
    "redact_log_records",
    "url_credentials",
    "without_credentials",
]


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret (of 4 characters or more) replaced by ``<redacted>``."""
    for secret in sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True):
        text = text.replace(secret, "<redacted>")
    return text


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
