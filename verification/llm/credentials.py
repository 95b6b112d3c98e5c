"""Credentials in URLs and text: what a message, a manifest or a log line may show of a
server's URL, and the secrets redacted from what a server or an SDK says.

These helpers read no setting: the providers, the cache and the replies use them below the
settings, and the settings use them to dump themselves without their secrets.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

__all__ = ["redact", "redact_log_records", "url_credentials", "without_credentials"]


def without_credentials(url: str | None) -> str | None:
    """``url`` with any ``user:password@``, query and fragment removed: what manifests,
    reports and messages may show."""
    if not url:
        return url
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return "<unparsable URL>"
    host = parts.hostname or ""
    netloc = f"{host}:{port}" if port else host
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def url_credentials(url: str | None) -> list[str]:
    """The user name and password a URL carries, if any (what :func:`redact` hides)."""
    if not url:
        return []
    try:
        parts = urlsplit(url)
        return [p for p in (parts.username, parts.password) if p]
    except ValueError:
        return []


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
