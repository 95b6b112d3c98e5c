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
    "LONG_SECRET",
    "RUN_REDACTED",
    "redact",
    "redact_known",
    "redact_log_records",
    "url_credentials",
    "without_credentials",
]


RUN_REDACTED = 12
"""Characters of a long secret in a row that are redacted wherever they stand: a server that
echoes a key cut short by one character, or without its ``sk-ant-`` prefix, says almost
all of it (hunt qq)."""

LONG_SECRET = 20
"""A secret at least this long (an API key) is found by any :data:`RUN_REDACTED` of its
characters in a row, whatever the case of its letters; a shorter one (a URL's user name, a
short password) only as it is, so that no word of a reply that shares its letters is
redacted (a proxy's user ``certification`` took "Certification" out of answers: hunt rr)."""

_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)
"""Letters folded without changing the text's length, so a match's place is its place."""


def redact(text: str, secrets: Iterable[str | None]) -> str:
    """``text`` with every secret (of 4 characters or more) replaced by ``<redacted>``, and
    with every run of :data:`RUN_REDACTED` or more of a :data:`LONG_SECRET`'s characters in
    a row, whatever the case of its ASCII letters (a key echoed cut short, upper-cased or
    without its prefix).

    Examples
    --------
    >>> key = "sk-ant-api03-abcdefghijklmnop"
    >>> redact("key SK-ANT-API03-ABCDEFGHIJKLMNOP, or api03-abcdefghijklmno", [key])
    'key <redacted>, or <redacted>'
    >>> redact("the Certification step, user certification", ["certification"])
    'the Certification step, user <redacted>'
    """
    wanted = {s for s in secrets if s and len(s) >= 4}
    if not wanted or not text:
        return text
    spans: list[tuple[int, int]] = []
    folded: str | None = None
    for secret in wanted:
        if len(secret) < LONG_SECRET:
            spans += _found(text, secret)
            continue
        folded = text.translate(_ASCII_LOWER) if folded is None else folded
        spans += _runs(folded, secret.translate(_ASCII_LOWER))
    if not spans:
        return text
    kept, end = [], 0
    for start, stop in _merged(spans):
        kept += [text[end:start], "<redacted>"]
        end = stop
    return "".join([*kept, text[end:]])


def _found(text: str, secret: str) -> list[tuple[int, int]]:
    """Where ``secret`` stands in ``text``, as it is."""
    spans, at = [], text.find(secret)
    while at >= 0:
        spans.append((at, at + len(secret)))
        at = text.find(secret, at + 1)
    return spans


def _runs(text: str, secret: str) -> list[tuple[int, int]]:
    """Where :data:`RUN_REDACTED` or more of ``secret``'s characters stand in a row in
    ``text``. Such a run holds one of the secret's blocks of half that length that start at
    a multiple of it, whole: each block is looked for (a few passes over the text, in C,
    where every run's start took one each), and a hit is grown both ways while the text
    follows the secret. A run is grown once: the other blocks it holds hit it again, at the
    same alignment of the secret (a server echoing the key 20,000 times made each echo
    grown by every block: 6.4 s for 2 MB, hunt ww); a run too short to redact holds one
    block whole, so nothing meets it again and it is not kept."""
    half = RUN_REDACTED // 2
    spans = []
    grown: dict[int, list[tuple[int, int]]] = {}  # by alignment: the runs grown at it
    for block in range(0, len(secret) - half + 1, half):
        piece = secret[block : block + half]
        at = text.find(piece)
        while at >= 0:
            if not any(start <= at < stop for start, stop in grown.get(at - block, ())):
                start, first = at, block
                while start > 0 and first > 0 and text[start - 1] == secret[first - 1]:
                    start, first = start - 1, first - 1
                stop, last = at + half, block + half
                while stop < len(text) and last < len(secret) and text[stop] == secret[last]:
                    stop, last = stop + 1, last + 1
                if stop - start >= RUN_REDACTED:  # a shorter run holds no other block: no
                    grown.setdefault(at - block, []).append((start, stop))  # hit meets it
                    spans.append((start, stop))
            at = text.find(piece, at + 1)
    return spans


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
